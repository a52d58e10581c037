// The theme: Auto follows the device (prefers-color-scheme in app.css); Light or Dark, chosen with the top bar's
// switch, is remembered on this device. Loaded without defer in <head>, so data-theme is on <html> before the first
// paint and a dark room never sees a white flash.
(function () {
  "use strict";
  const KEY = "companion-theme";
  const FORCED = ["light", "dark"];
  const root = document.documentElement;

  function stored() {
    // Storage can be refused (a private window, a locked-down tablet): then the theme simply follows the device.
    try {
      const choice = localStorage.getItem(KEY);
      return FORCED.includes(choice) ? choice : "auto";
    } catch (refused) {
      return "auto";
    }
  }

  function remember(choice) {
    try {
      if (FORCED.includes(choice)) localStorage.setItem(KEY, choice); else localStorage.removeItem(KEY);
    } catch (refused) {
      // Still applied to this page; only not remembered.
    }
  }

  function apply(choice) {
    if (FORCED.includes(choice)) root.dataset.theme = choice; else delete root.dataset.theme;
    const select = document.getElementById("theme-switch");
    if (select) select.value = choice;
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    const select = document.getElementById("theme-switch");
    if (!select) return;
    select.value = stored();
    select.addEventListener("change", function () {
      remember(select.value);
      apply(select.value);
    });
  });

  // Another tab of the app changed the theme: follow it here too.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) apply(stored());
  });
})();
