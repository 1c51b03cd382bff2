// The login page while wrong PINs lock this browser out (companion/dashboard/operator.py,
// _login_page): the wait is counted down to the second in the page's language — «4 мин 7 с»,
// «47 с», the form companion.dashboard.security.countdown_words gives — and at its end the
// message goes and the PIN form comes back, focused. Counted against the clock, not the ticks,
// so a phone that slept in between shows the right wait when it wakes.
(function () {
  "use strict";
  var box = document.getElementById("login-wait");
  var form = document.getElementById("login-form");
  if (!box || !form) return;
  var ends = Date.now() + 1000 * parseInt(box.getAttribute("data-wait"), 10);
  var template = box.getAttribute("data-template") || "";
  var slot = box.getAttribute("data-slot") || "";
  var units = (box.getAttribute("data-units") || "min s").split(" ");

  function words(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m ? m + " " + units[0] + " " + s + " " + units[1] : s + " " + units[1];
  }

  function tick() {
    var left = Math.ceil((ends - Date.now()) / 1000);
    if (left <= 0) {
      box.parentNode.removeChild(box);
      form.hidden = false;
      if (form.elements.pin) form.elements.pin.focus();
      return;
    }
    box.textContent = template.split(slot).join(words(left));
    setTimeout(tick, ((ends - Date.now()) % 1000 || 1000) + 20);  // just after the next whole second
  }

  tick();
})();
