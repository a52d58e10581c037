// Companion's own script (htmx does the rest; theme.js sets the theme before the first paint): steppers, the offline
// message, the service worker, and the screen kept awake on a tracker. When a request can't reach the app, because
// the table's Wi-Fi dropped, htmx stays silent: say so in the page's message area, and clear that once a request gets
// through. A tracker's taps are kept on the device and sent later (queue.js, which says so itself): for those, and
// for the tracker's sync check, this script keeps quiet.
(function () {
  "use strict";
  // In the page's language (base.html's words, companion/web/i18n.py); English where a page has none.
  const WORDS = JSON.parse(document.querySelector('meta[name="companion-words"]')?.content || "{}");
  const OFFLINE = WORDS.offline || "Not saved: the app can't be reached. Check the Wi-Fi, then tap again.";

  // queue.js runs first and marks the requests it speaks for.
  function kept(event) {
    return Boolean(event.detail.requestConfig && event.detail.requestConfig.companionQueue);
  }

  document.addEventListener("htmx:sendError", function (event) {
    if (kept(event)) return;
    const flash = document.getElementById("flash");
    if (!flash) return;
    const message = document.createElement("p");
    message.className = "error";
    message.setAttribute("role", "alert");
    message.textContent = OFFLINE;
    flash.replaceChildren(message);
    flash.dataset.offline = "true";
  });

  // A stepper's − and + (templates/_inputs.html): one tap, one step, within the input's min and max.
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
  // drew (its defaults); a refused one (422) keeps what was typed, beside the message. Only when nobody has touched
  // the form since this request read it: a tap queued behind another (hx-sync) reads its form when it leaves, so the
  // earlier tap's answer must not wipe a number typed since (a refused 100000 would otherwise lose its box and its
  // message). A person's input is counted, not the form's values: an answer may redraw a part of the form (whose
  // turn it is chooses the explorer), and that must not keep what was tapped for the next card. Every key, chip and
  // choice fires "input"; "change" is not counted, as it comes again when a box is left, after its tap was sent.
  document.addEventListener("input", function (event) { touched(event); }, true);
  function touched(event) {
    const form = event.isTrusted && event.target && event.target.closest ? event.target.closest("form") : null;
    if (form) form.dataset.edits = String(Number(form.dataset.edits || "0") + 1);
  }

  document.addEventListener("htmx:configRequest", function (event) {
    const elt = event.detail.elt;
    const form = elt && elt.closest ? elt.closest("form") : null;
    if (form && form.closest(".tracker")) event.detail.sentEdits = form.dataset.edits || "0";
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    const elt = event.detail.elt;
    const form = elt && elt.closest ? elt.closest("form") : null;
    // htmx counts a 422 as successful (it is swapped, beside the field); only a 2xx means the action was saved.
    const status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!form || status < 200 || status >= 300 || !form.closest(".tracker")) return;
    const sent = event.detail.requestConfig && event.detail.requestConfig.sentEdits;
    if (sent === undefined || sent === (form.dataset.edits || "0")) form.reset();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    const flash = document.getElementById("flash");
    // A lost connection or a database fault ("Not saved: the disk is full.") is over once a request gets through.
    if (flash && (flash.dataset.offline || flash.querySelector("[data-fault]")) && event.detail.successful) {
      flash.replaceChildren();
      delete flash.dataset.offline;
    }
    if (event.detail.successful) {
      document.querySelectorAll(".tracker .not-saved").forEach(function (form) { form.classList.remove("not-saved"); });
    }
  });

  // A tap that was not saved says so on the control that was tapped (its value stays as it was), besides the bar's
  // message: the server unreachable (sendError), or an answer that is an error (a fault, 5xx; a 422 is a refusal,
  // said beside the control by the answer itself).
  function markNotSaved(elt) {
    const form = elt && elt.closest ? elt.closest("form") : null;
    if (form && form.closest(".tracker")) form.classList.add("not-saved");
  }
  document.addEventListener("htmx:sendError", function (event) { if (!kept(event)) markNotSaved(event.detail.elt); });
  document.addEventListener("htmx:responseError", function (event) { if (!kept(event)) markNotSaved(event.detail.elt); });

  // A counter's number is typed in (templates/play/_counter.html): tapping it opens a box over it, empty, with
  // the number as its hint, so the keys typed are the new count. Enter (the keypad's Done) or leaving the box sets
  // it; Escape or an empty box leaves the count as it was. Opened by a tap, Enter also closes the keypad.
  function shownValue(input) {
    const shown = document.getElementById(input.id.replace(/-input$/, "-value"));
    return shown ? shown.textContent.trim() : "";
  }

  document.addEventListener("click", function (event) {
    const opener = event.target.closest("[data-type-in]");
    if (!opener) return;
    const input = document.getElementById(opener.dataset.typeIn);
    const counter = opener.closest(".counter");
    if (!input || !counter) return;
    // A keyboard's Enter or Space clicks with detail 0: the box then keeps the focus after Enter.
    input.dataset.byTap = event.detail > 0 ? "true" : "";
    input.placeholder = shownValue(input);
    counter.classList.add("typing");
    input.focus();
  });

  function setTyped(input) {
    const text = input.value.trim();
    if (text === "" || text === shownValue(input)) {
      input.value = "";
      return;
    }
    // Sent once: Enter sets it, and the focus leaving afterwards must not send it again.
    if (input.dataset.sent === text) return;
    input.dataset.sent = text;
    const set = input.form && input.form.querySelector(".value-set");
    if (set) set.click();
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches(".value-input")) delete event.target.dataset.sent;
  });

  document.addEventListener("keydown", function (event) {
    const input = event.target;
    if (!input.matches || !input.matches(".value-input")) return;
    if (event.key === "Enter") {
      event.preventDefault();
      setTyped(input);
      if (input.dataset.byTap) input.blur();
    } else if (event.key === "Escape") {
      event.preventDefault();
      input.value = "";
      if (input.dataset.byTap) input.blur();
    }
  });

  document.addEventListener("focusout", function (event) {
    const input = event.target;
    if (!input.matches || !input.matches(".value-input")) return;
    setTyped(input);
    const counter = input.closest(".counter");
    if (counter) counter.classList.remove("typing");
  });

  // A new message in the tracker's bar starts at its beginning, whatever the line was scrolled to.
  document.querySelectorAll(".bar-line").forEach(function (line) {
    new MutationObserver(function () { line.scrollTop = 0; }).observe(line, { childList: true });
  });

  // The hint of an open box follows the number under it (an answer, another device's tap).
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    const target = event.detail.target;
    if (!target || !target.id || !/-value$/.test(target.id)) return;
    const input = document.getElementById(target.id.replace(/-value$/, "-input"));
    if (input) input.placeholder = target.textContent.trim();
  });

  // After Finish the result page is loaded in place of the tracker: its heading takes the focus, so the next thing
  // read (or tabbed from) is the result, not the top of an unknown page.
  const FOCUS_RESULT = "companion:focus-result";
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt && event.detail.elt.id === "finish") sessionStorage.setItem(FOCUS_RESULT, "1");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    const xhr = event.detail.xhr;
    const redirected = xhr && xhr.getResponseHeader && xhr.getResponseHeader("HX-Redirect");
    if (event.detail.elt && event.detail.elt.id === "finish" && !redirected) sessionStorage.removeItem(FOCUS_RESULT);
  });
  if (sessionStorage.getItem(FOCUS_RESULT)) {
    sessionStorage.removeItem(FOCUS_RESULT);
    const heading = document.querySelector("h1[tabindex='-1']");
    if (heading) heading.focus();
  }

  // The log's times (templates/play/_play_log.html) come from the server in UTC: shown in the device's own time
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

  // The service worker (companion/web/shell.py) keeps the static files and the offline page on the device. Browsers
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

  // The language switch (templates/_language.html) is sent as soon as a language is picked: its button is for a
  // browser without this script.
  const language = document.getElementById("language-switch");
  if (language && language.form) {
    const send = language.form.querySelector("button[type=submit]");
    if (send) send.hidden = true;
    language.addEventListener("change", () => language.form.requestSubmit());
  }
})();
