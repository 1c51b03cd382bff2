// The operator's login link (/operator?pin=…, the QR code printed at start) logs in at once: the
// page posts its own form — with its CSRF token, through the PIN attempt limiter, exactly as a tap
// on «Войти» would. The PIN leaves the address bar first (history and the Referer keep no PIN).
// A refused PIN comes back as a page without the link's PIN, so this never loops.
(function () {
  "use strict";
  var form = document.getElementById("login-form");
  if (!form || !form.hasAttribute("data-auto")) return;
  if (window.history && history.replaceState) history.replaceState(null, "", form.getAttribute("data-clean"));
  var pin = form.elements.pin;
  if (pin && pin.value) form.submit();
})();
