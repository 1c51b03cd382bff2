/* The seats' phones (issue #23 item 2; companion/dashboard/devices.py).
 *
 * Operator console: the list of phones that hold each seat (label, joined at, last seen, online)
 * with «Отключить» for each; fetched from /api/operator/devices on load, when the stream says
 * the list changed (event "devices") and every 20 s (the "seen at" times).
 * Seat page: a notice when another phone joins this seat (event "device"), and, when the operator
 * signs this phone out (event "signed_out"), the page says so and stops reconnecting.
 * The page's stream comes from web/static/js/stream.js (window.__companionStream, event "companion:stream").
 * Words: boot.words (companion/dashboard/i18n.py js_words, "dev_*").
 */
(function () {
  "use strict";
  var bootEl = document.getElementById("boot");
  if (!bootEl) return;
  var boot = JSON.parse(bootEl.textContent);
  var W = boot.words || {};
  var KIND = boot.kind;
  if (KIND !== "operator" && KIND !== "seat") return;
  var signedOut = false;

  function word(k) { return W[k] || k; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function clock(t) {
    var d = new Date(t * 1000);
    return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  }
  function label(l) { return !l || l === "?" ? word("dev_unknown") : l; }

  // ------------------------------------------------------------------ operator
  var box = document.getElementById("devices");
  function render(data) {
    if (!box) return;
    box.textContent = "";
    var any = false;
    data.seats.forEach(function (s) {
      if (!s.devices.length) return;
      any = true;
      var li = el("li", "dev-seat");
      li.appendChild(el("b", null, (s.seat + 1) + ". " + s.name));
      if (s.devices.length > 1) li.appendChild(el("span", "chip warn", word("dev_many").replace("%(n)s", s.devices.length)));
      var ul = el("ul", "dev-list");
      s.devices.forEach(function (d) {
        var row = el("li", "dev");
        row.dataset.device = d.id;
        row.appendChild(el("span", "dev-label", label(d.label)));
        row.appendChild(el("span", "muted", " · " + word("dev_first").replace("%(t)s", clock(d.first)) +
          " · " + (d.online ? word("dev_online") : word("dev_last").replace("%(t)s", clock(d.last))) + " "));
        var b = el("button", "warn small", word("dev_revoke"));
        b.type = "button";
        b.dataset.revoke = d.id;
        row.appendChild(b);
        ul.appendChild(row);
      });
      li.appendChild(ul);
      box.appendChild(li);
    });
    if (!any) box.appendChild(el("li", "muted", word("dev_none")));
  }
  function load() {
    if (!box) return;
    fetch("/api/operator/devices", { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) render(data); })
      .catch(function () {});
  }
  if (KIND === "operator" && box) {
    box.addEventListener("click", function (e) {
      var b = e.target.closest("[data-revoke]");
      if (!b || b.disabled) return;
      if (!window.confirm(word("dev_revoke_ask"))) return;
      b.disabled = true;
      fetch("/api/operator/devices/" + encodeURIComponent(b.dataset.revoke) + "/revoke", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": boot.csrf }, body: "{}"
      }).then(function (r) {
        var st = document.getElementById("devices-result");
        if (st) st.textContent = r.ok ? word("dev_revoked") : "";
        load();
      }).catch(function () { b.disabled = false; });
    });
    load();
    setInterval(load, 20000);
  }

  // ------------------------------------------------------------------ seat
  function notice(text, bad) {
    var n = document.getElementById("device-notice");
    if (!n) {
      n = el("p", "notice" + (bad ? " error" : ""));
      n.id = "device-notice";
      n.setAttribute("role", "alert");
      var main = document.querySelector("main");
      if (main) main.insertBefore(n, main.firstChild);
    }
    n.textContent = text;
    return n;
  }

  function listen(es) {
    if (!es || es.__devices) return;
    es.__devices = true;
    if (KIND === "operator") es.addEventListener("devices", load);
    if (KIND === "seat") {
      es.addEventListener("device", function (e) {
        var d = JSON.parse(e.data);
        if (d.event === "joined") notice(word("dev_joined").replace("%(label)s", label(d.label)).replace("%(t)s", clock(d.at)));
      });
      es.addEventListener("signed_out", function () {
        signedOut = true;
        es.close();
        var n = notice(word("dev_signed_out"), true);
        var a = el("a", "button", word("dev_join_again"));
        a.href = "/join";
        n.appendChild(document.createTextNode(" "));
        n.appendChild(a);
        var pad = document.getElementById("pad");
        if (pad) pad.hidden = true;
      });
    }
  }
  window.addEventListener("companion:stream", function (e) {
    if (signedOut && e.detail) { e.detail.close(); return; } // app.js reconnecting: this phone is out
    listen(e.detail);
  });
  if (window.__companionStream) listen(window.__companionStream);
})();
