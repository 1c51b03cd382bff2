/* «6100»: the trick on the table in play order with who played each card, the token holder,
 * «ХОЙ!» when it happens (the last public event), tricks and points per named player, deal k of n. */
import { el } from "../../static/js/core.js";
import { backs, faceCard, fact, roundTable, say, seatBox } from "../../static/js/table.js";
import { label, seatName, word } from "../../static/js/words.js";

export var keys = ["seats", "trick", "leader", "token", "turn", "hand_counts", "tricks", "points", "totals", "deal"];

/** the newest public event of ``kind`` in the history, if it is the newest entry's */
export function lastEvent(m, kind) {
  var h = m.history || [];
  var top = h.length ? h[h.length - 1] : null;
  if (!top) return null;
  for (var j = 0; j < top.items.length; j++) if (top.items[j].kind === kind) return top.items[j];
  return null;
}

function at(list, i) { return Array.isArray(list) ? list[i] : undefined; }

function seat(m, v, i) {
  var badges = [];
  if (v.token === i) badges.push(["token", word("token")]);
  if (v.leader === i) badges.push(["", word("leader")]);
  var box = seatBox(m, i, { badges: badges, turn: v.turn === i });
  var n = at(v.hand_counts, i);
  if (typeof n === "number") box.body.appendChild(backs(n, "hand-backs", 5));
  var facts = el("div", "facts");
  if (at(v.tricks, i) !== undefined) facts.appendChild(fact(word("tricks"), at(v.tricks, i)));
  if (at(v.points, i) !== undefined) facts.appendChild(fact(word("points"), at(v.points, i)));
  if (at(v.totals, i) !== undefined) facts.appendChild(fact(word("total"), at(v.totals, i)));
  box.body.appendChild(facts);
  return box.card;
}

function centre(m, v) {
  var c = el("div", "centre");
  if (v.deal) c.appendChild(fact(word("deal"), say(v.deal), "deal"));
  var trick = el("div", "trick");
  (v.trick || []).forEach(function (t) {
    var p = el("div", "played");
    p.appendChild(faceCard(t.card === "INF" ? "∞" : t.card));
    p.appendChild(el("small", null, typeof t.seat === "number" ? seatName(t.seat) : say(t.name)));
    trick.appendChild(p);
  });
  if ((v.trick || []).length) c.appendChild(trick);
  var hoy = lastEvent(m, "hoy");
  if (hoy) c.appendChild(el("p", "hoy", "«" + word("t_hoy").toUpperCase() + "!»" + (typeof hoy.data.seat === "number" ? " — " + seatName(hoy.data.seat) : "")));
  return c;
}

export function draw(m) {
  var v = m.view;
  var box = el("div", "board board-infinity");
  box.appendChild(roundTable(m.game.seats.length, function (i) { return seat(m, v, i); }, centre(m, v)));
  return box;
}

/** the points over the deals: each deal's scores added up (view.deal_scores) */
export function series(m) {
  var d = m.view.deal_scores;
  if (!Array.isArray(d) || !d.length) return null;
  var run = d[0].map(function () { return 0; });
  var rows = [run.slice()];
  d.forEach(function (deal) { run = run.map(function (v, i) { return v + (deal[i] || 0); }); rows.push(run.slice()); });
  return { points: true, names: m.game.seats.map(function (x, i) { return seatName(i); }), rows: rows };
}
