// Companion's only script of its own (htmx does the rest): steppers, and the offline message. When a tap can't reach the app, because the table's
// Wi-Fi dropped, htmx stays silent: say so in the page's message area, and clear that once a request gets through.
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

  document.addEventListener("htmx:afterRequest", function (event) {
    const flash = document.getElementById("flash");
    // A lost connection or a database fault ("Not saved: the disk is full.") is over once a request gets through.
    if (flash && (flash.dataset.offline || flash.querySelector("[data-fault]")) && event.detail.successful) {
      flash.replaceChildren();
      delete flash.dataset.offline;
    }
  });
})();
