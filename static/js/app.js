// Companion's own script (htmx does the rest; theme.js sets the theme before the first paint): steppers, the offline
// message, the service worker, and the screen kept awake on a tracker. When a tap can't reach the app, because the
// table's Wi-Fi dropped, htmx stays silent: say so in the page's message area, and clear that once a request gets
// through.
(function () {
  "use strict";
  const OFFLINE = "Not saved: the app can't be reached. Check the Wi-Fi, then tap again.";

  document.addEventListener("htmx:sendError", function () {
    const flash = document.getElementById("flash");
    if (!flash) return;
    const message = document.createElement("p");
    message.className = "error";
    message.setAttribute("role", "alert");
    message.textContent = OFFLINE;
    flash.replaceChildren(message);
    flash.dataset.offline = "true";
  });

  // A stepper's − and + (templates/_partials/inputs.html): one tap, one step, within the input's min and max.
  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-step]");
    if (!button) return;
    const input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input) return;
    if (Number(button.dataset.step) > 0) input.stepUp(); else input.stepDown();
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // A tracker's forms are never redrawn (a tap queued on one must still be sent), so what was typed would stay for
  // the next entry. One rule for every form of every tracker: once its action is saved, it is back to what the page
  // drew (its defaults); a refused one (422) keeps what was typed, beside the message.
  document.addEventListener("htmx:afterRequest", function (event) {
    const elt = event.detail.elt;
    const form = elt && elt.closest ? elt.closest("form") : null;
    // htmx counts a 422 as successful (it is swapped, beside the field); only a 2xx means the action was saved.
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (form && status >= 200 && status < 300 && form.closest(".tracker")) form.reset();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    const flash = document.getElementById("flash");
    // A lost connection or a database fault ("Not saved: the disk is full.") is over once a request gets through.
    if (flash && (flash.dataset.offline || flash.querySelector("[data-fault]")) && event.detail.successful) {
      flash.replaceChildren();
      delete flash.dataset.offline;
    }
  });

  // The log's times (templates/_partials/play_log.html) come from the server in UTC: shown in the device's own time
  // of day, as the players read their clocks. Without this script they stay in UTC.
  function localTimes() {
    document.querySelectorAll("time[data-local-time]:not([data-localized])").forEach(function (time) {
      const when = new Date(time.getAttribute("datetime"));
      if (isNaN(when)) return;
      time.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      time.dataset.localized = "true";
    });
  }
  document.addEventListener("htmx:afterSettle", localTimes);
  document.addEventListener("htmx:oobAfterSwap", localTimes);
  localTimes();

  // The offline page's "Try again": load the page that was asked for, now that the Wi-Fi may be back.
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-reload]")) window.location.reload();
  });

  // The service worker (companion/app_shell.py) keeps the static files and the offline page on the device. Browsers
  // only allow one on https or localhost; elsewhere the app works as before, online.
  const worker = document.body.dataset.serviceWorker;
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(function () {
      // Not registered (a private window, storage refused): the app still works, only not offline.
    });
  }

  // The screen stays on while a tracker is open: a dimmed tablet in the middle of a game is a tap lost. Where the
  // browser has no Wake Lock API, or refuses (low battery), the screen sleeps as it always did.
  let wakeLock = null;
  let asking = false;

  async function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || asking) return;
    if (!document.querySelector(".tracker")) {
      // The tracker was swapped away (finished in place): the screen may sleep again.
      if (wakeLock) wakeLock.release().catch(function () {});
      wakeLock = null;
      return;
    }
    if (wakeLock && !wakeLock.released) return;
    asking = true;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
    } catch (refused) {
      wakeLock = null;
    } finally {
      asking = false;
    }
  }

  // The browser releases the lock whenever the page is hidden; it is asked for again when the page comes back.
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake);
  keepAwake();
})();
