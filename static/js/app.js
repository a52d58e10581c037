// Companion's only script of its own (htmx does the rest). When a tap can't reach the app, because the table's
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

  document.addEventListener("htmx:afterRequest", function (event) {
    const flash = document.getElementById("flash");
    // A lost connection or a database fault ("Not saved: the disk is full.") is over once a request gets through.
    if (flash && (flash.dataset.offline || flash.querySelector("[data-fault]")) && event.detail.successful) {
      flash.replaceChildren();
      delete flash.dataset.offline;
    }
  });
})();
