/* Requests and answers: POST with the CSRF token and the table version seen, questions asked once, toasts. */
import { boot, ctx, el } from "./core.js";

// an action request carries the table version the page showed ("seen"): the referee refuses a
// second tap of the same action, and an undo or void of a table that changed meanwhile
var SEEN_URLS = /\/api\/(seat\/action|operator\/(action|manual|undo|void))$/;
var inflight = {}; // the same request while its answer is awaited is not sent twice
export function post(url, body) {
  body = body || {};
  if (SEEN_URLS.test(url) && body.seen === undefined && ctx.S && ctx.S.model && typeof ctx.S.model.version === "number") body.seen = ctx.S.model.version;
  var key = url + " " + JSON.stringify(body);
  if (inflight[key]) return inflight[key];
  var p = fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": boot.csrf },
    body: JSON.stringify(body)
  }).then(function (r) {
    return r.json().catch(function () { return {}; }).then(function (j) { j._status = r.status; return j; });
  }, function () {
    // no answer at all (the box restarting, Wi-Fi gone): say so; the action may or may not
    // have reached the table, so the words ask to look before repeating it
    return { _status: 0, _no_answer: true };
  }).then(function (j) { delete inflight[key]; return j; });
  inflight[key] = p;
  return p;
}
// A question asked with window.confirm holds the page until it is answered; a tap made
// meanwhile (a double tap's second) is delivered only after it closes, and would ask again or
// act twice. Such taps carry the time they were made (event.timeStamp): any click made before
// the last question closed is dropped, in the capture phase, before a button or form sees it.
var askedUntil = -1;
export function ask(message) {
  try { return window.confirm(message); } finally { askedUntil = performance.now(); }
}
window.addEventListener("click", function (e) {
  if (e.timeStamp <= askedUntil) { e.preventDefault(); e.stopImmediatePropagation(); }
}, true);
export function toast(text, bad) {
  var t = document.getElementById("toast");
  if (!t) { t = el("div", "toast"); t.id = "toast"; t.setAttribute("role", "status"); document.body.appendChild(t); }
  t.textContent = text;
  t.className = "toast show" + (bad ? " bad" : "");
  document.body.classList.add("toasting");
  clearTimeout(toast._t);
  // a rejection stays long enough to read its reason (the accepted line is a confirmation)
  toast._t = setTimeout(function () { t.className = "toast"; document.body.classList.remove("toasting"); }, bad ? 5000 : 2600);
}
// an action's text in words: "1 bid 2" -> "Борис: Ставка 2", "table dealer 1" -> "Стол: … Борис"
