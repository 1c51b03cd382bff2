/* The end-of-game chart (the table display): each player's chips or points over the rounds, as
 * an SVG line chart drawn from the public view and history alone. */
import { el } from "./core.js";
import { seatName } from "./words.js";

var SVG = "http://www.w3.org/2000/svg";
var COLOURS = ["#f2c14e", "#7cc4ff", "#ff8a80", "#5ad18f", "#d7a6ff", "#ffb74d", "#80deea", "#f48fb1"];

/** ``{points: bool, names: [...], rows: [[value per seat] per round]}`` or null: the board's own
 * series when it has one (series(m)), else the seats' chips back through the public history's
 * settled deals (the joker game), else the final standing as one round. */
export function series(m, board) {
  if (board && board.series) { var s = board.series(m); if (s) return s; }
  var seats = m.view.seats;
  if (!Array.isArray(seats) || !seats.length || typeof seats[0] !== "object") return null;
  if (seats.every(function (x) { return typeof x.chips === "number"; })) {
    var now = seats.map(function (x) { return x.chips; });
    var rows = [now.slice()];
    // walk back through the settled deals the history still holds: chips before each
    var h = (m.history || []).slice().reverse();
    h.forEach(function (e) {
      e.items.slice().reverse().forEach(function (it) {
        if (it.kind !== "settled" || !it.data || !Array.isArray(it.data.bets)) return;
        var before = rows[0].slice();
        it.data.bets.forEach(function (b) { if (typeof b.seat === "number") before[b.seat] -= b.net; });
        if (typeof it.data.banker === "number" && typeof it.data.banker_net === "number") before[it.data.banker] -= it.data.banker_net;
        rows.unshift(before);
      });
    });
    return { points: false, names: seats.map(function (x, i) { return seatName(i); }), rows: rows };
  }
  return null;
}

function node(tag, attrs, text) {
  var e = document.createElementNS(SVG, tag);
  Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
  if (text !== undefined) e.textContent = String(text);
  return e;
}

/** the chart of ``s`` (from series) with a legend of the names */
export function chart(s) {
  var w = 800, h = 360, pad = 48;
  var all = [].concat.apply([], s.rows);
  var lo = Math.min(0, Math.min.apply(null, all)), hi = Math.max.apply(null, all) || 1;
  var n = s.rows.length;
  var x = function (i) { return pad + (n > 1 ? i * (w - 2 * pad) / (n - 1) : (w - 2 * pad) / 2); };
  var y = function (v) { return h - pad - (v - lo) * (h - 2 * pad) / (hi - lo || 1); };
  var svg = node("svg", { viewBox: "0 0 " + w + " " + h, class: "chart", role: "img" });
  svg.appendChild(node("line", { x1: pad, y1: y(lo), x2: w - pad, y2: y(lo), stroke: "#a9bdb2" }));
  svg.appendChild(node("line", { x1: pad, y1: pad, x2: pad, y2: h - pad, stroke: "#a9bdb2" }));
  [lo, hi].forEach(function (v) { svg.appendChild(node("text", { x: pad - 6, y: y(v) + 5, "text-anchor": "end", fill: "#f3f1e8", "font-size": "16" }, v)); });
  for (var i = 0; i < n; i++) svg.appendChild(node("text", { x: x(i), y: h - pad + 22, "text-anchor": "middle", fill: "#f3f1e8", "font-size": "16" }, i + 1));
  s.names.forEach(function (name, p) {
    var c = COLOURS[p % COLOURS.length];
    var pts = s.rows.map(function (r, i) { return x(i).toFixed(1) + "," + y(r[p]).toFixed(1); });
    if (n > 1) svg.appendChild(node("polyline", { points: pts.join(" "), fill: "none", stroke: c, "stroke-width": "4" }));
    s.rows.forEach(function (r, i) { svg.appendChild(node("circle", { cx: x(i), cy: y(r[p]), r: 6, fill: c })); });
  });
  var box = el("div", "chart-box");
  box.appendChild(svg);
  var legend = el("ul", "legend");
  s.names.forEach(function (name, p) {
    var li = el("li");
    var sw = el("i", "swatch swatch-" + (p % COLOURS.length));
    li.appendChild(sw);
    li.appendChild(document.createTextNode(name + ": " + s.rows[s.rows.length - 1][p]));
    legend.appendChild(li);
  });
  box.appendChild(legend);
  svg.setAttribute("aria-label", s.names.map(function (nm, p) { return nm + " " + s.rows[s.rows.length - 1][p]; }).join(", "));
  return box;
}
