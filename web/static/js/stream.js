/* The live stream: one EventSource per page, a snapshot then chained deltas; resync on a gap. */
import { KIND, boot, ctx } from "./core.js";
import { clearPending, lastPending, sendPending } from "./pad.js";
import { label, word } from "./words.js";

// ------------------------------------------------------------------ the stream
var es = null;
var render = function () {}; // the page's renderer (startStream)
export function setLive(ok) {
  var l = document.getElementById("live");
  if (!l) return;
  l.hidden = false;
  l.className = "live " + (ok ? "on" : "off");
  l.textContent = ok ? "● " + label(word("live")) : "○ " + label(word("offline"));
}
export function applyDelta(d) {
  var m = ctx.S.model;
  (d.del || []).forEach(function (path) {
    var t = m; for (var i = 0; i < path.length - 1; i++) t = t[path[i]];
    if (t) delete t[path[path.length - 1]];
  });
  (d.set || []).forEach(function (pv) {
    var path = pv[0], t = m;
    for (var i = 0; i < path.length - 1; i++) { if (!t[path[i]] || typeof t[path[i]] !== "object") t[path[i]] = {}; t = t[path[i]]; }
    t[path[path.length - 1]] = pv[1];
  });
}
// the stream: the table's own, or the one a page served elsewhere names (the club board's copy
// of a table's page, companion/club); boot.stream null: no stream — the page that embeds this
// one (the club board) hands it each snapshot by postMessage
export var STREAM = !boot ? "" : boot.stream === undefined ? "/stream?view=" + KIND : boot.stream;
export function connect() {
  if (es) es.close();
  if (!STREAM) return;
  es = new EventSource(STREAM);
  window.__companionStream = es; // the seats' phones (devices.js) listen on the same stream
  window.dispatchEvent(new CustomEvent("companion:stream", { detail: es }));
  es.addEventListener("open", function () { setLive(true); });
  es.addEventListener("error", function () {
    setLive(false);
    if (es.readyState === 2) { // closed for good (403: seat token from an old game)
      if (KIND === "seat" || KIND === "operator") location.reload();
      else setTimeout(connect, 2000);
    }
  });
  es.addEventListener("snapshot", function (e) {
    var before = ctx.S && ctx.S.model ? ctx.S.model.version : null;
    ctx.S = JSON.parse(e.data); render(); window.__lastVersion = ctx.S.model.version;
    // the table restarted (or the stream came back) while this phone was counting a bid: the
    // table forgot the count, the stepper did not; tell it again if the game did not move
    if (KIND === "seat" && lastPending && before === ctx.S.model.version && !(ctx.S.pending && ctx.S.pending[String(ctx.S.model.viewer.seat)])) sendPending(lastPending);
  });
  es.addEventListener("delta", function (e) {
    var d = JSON.parse(e.data);
    if (!ctx.S) return;
    var m = ctx.S.model;
    if (d.epoch !== m.epoch || d.version <= m.version) return;
    if (d.base !== m.version) { connect(); return; } // missed one: resync
    applyDelta(d);
    m.version = d.version;
    clearPending(); // any accepted action drops the table's pending counts
    window.__lastVersion = d.version;
    render();
  });
  es.addEventListener("reset", function () { if (KIND === "operator") { location.reload(); return; } setTimeout(connect, 50); });
  ["status", "pending", "prompts", "control"].forEach(function (k) {
    es.addEventListener(k, function (e) { if (ctx.S) { ctx.S[k] = JSON.parse(e.data); render(); } });
  });
}

// the sticky header is one line or two (a phone's width, the language): the seat's sticky pad
/** Keep the page live: ``onRender()`` runs after each change of ctx.S. A hidden page closes its
 * stream (frees one of the browser's six HTTP/1.1 connections per host); shown again, it takes a
 * fresh snapshot. With no stream (the club board's tiles) the embedding page posts snapshots. */
export function startStream(onRender) {
  render = onRender;
  if (STREAM === null) window.addEventListener("message", function (e) {
    if (e.origin !== location.origin || !e.data || e.data.kind !== "snapshot" || !e.data.snapshot) return;
    ctx.S = e.data.snapshot; render();
  });
  connect();
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { if (es) { es.close(); es = null; } if (STREAM) setLive(false); }
    else connect(); // fresh snapshot
  });
}
