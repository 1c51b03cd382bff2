/* Drawing a card table: seats round an oval (clockwise from the top), a centre for what lies on
 * the table, face-down backs and face-up cards, chip piles. Everything from the page model alone. */
import { ctx, el } from "./core.js";
import { noteIcon } from "./icons.js";
import { label, seatName, word } from "./words.js";

/** Where seat i of n sits on a 3×3 grid round the felt (the centre cell), clockwise from the
 * top: [row, column], 1-based. Nine or more seats wrap into further rows under the table. */
var PLACES = {
  1: [[1, 2]], 2: [[1, 2], [3, 2]], 3: [[1, 2], [3, 3], [3, 1]], 4: [[1, 2], [2, 3], [3, 2], [2, 1]],
  5: [[1, 2], [2, 3], [3, 3], [3, 1], [2, 1]], 6: [[1, 1], [1, 3], [2, 3], [3, 3], [3, 1], [2, 1]],
  7: [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3], [3, 1], [2, 1]],
  8: [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3], [3, 2], [3, 1], [2, 1]]
};

/** ``n`` seats round a table: ``seat(i)`` gives seat i's element, ``centre`` the middle's. The
 * seats take the cells round the felt as the players sit (a grid, so a seat's height never
 * spills over another's; the cells are set through the CSSOM, which the page's CSP allows). */
export function roundTable(n, seat, centre) {
  var box = el("div", "rtable seats");
  var felt = el("div", "rtable-felt");
  if (centre) felt.appendChild(centre);
  box.appendChild(felt);
  var places = PLACES[n] || PLACES[8];
  for (var i = 0; i < n; i++) {
    var s = seat(i);
    s.classList.add("rseat");
    var at = places[i] || [4 + Math.floor((i - 8) / 3), 1 + (i - 8) % 3];
    s.style.gridRow = String(at[0]);
    s.style.gridColumn = String(at[1]);
    box.appendChild(s);
  }
  return box;
}

/** A seat's place at the table: its number, name and badges (dealer, turn, you, the pending
 * count); ``extra`` adds the game's own badges; the caller fills ``.seat-body``. */
export function seatBox(m, i, opts) {
  opts = opts || {};
  var card = el("div", "seat");
  var turn = opts.turn !== undefined ? opts.turn : (Array.isArray(m.turn) && m.turn.indexOf(i) >= 0);
  if (turn) card.classList.add("turn");
  if (m.viewer && m.viewer.seat === i) card.classList.add("me");
  if (opts.gone) card.classList.add("gone");
  var head = el("div", "seat-head");
  head.appendChild(el("span", "seat-no", i + 1));
  head.appendChild(el("b", "seat-name", seatName(i)));
  card.appendChild(head);
  var badges = el("div", "seat-badges");
  if (opts.dealer) badges.appendChild(el("span", "badge dealer", label(word("dealer"))));
  (opts.badges || []).forEach(function (b) { badges.appendChild(el("span", "badge " + (b[0] || ""), label(b[1]))); });
  if (turn) badges.appendChild(el("span", "badge turn", label(word("turn"))));
  if (m.viewer && m.viewer.seat === i) badges.appendChild(el("span", "badge you", label(word("you"))));
  var p = ctx.S && ctx.S.pending && ctx.S.pending[String(i)];
  if (p) badges.appendChild(el("span", "badge pending", label(word("pending")) + " " + p));
  if (badges.childNodes.length) card.appendChild(badges);
  var body = el("div", "seat-body");
  card.appendChild(body);
  return { card: card, body: body };
}

/** ``n`` face-down backs in a fanned pile, its count beside it (the count alone past ``max``) */
export function backs(n, cls, max) {
  var box = el("span", "backs " + (cls || ""));
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", word("face_down") + ": " + n);
  var shown = Math.min(n, max || 6);
  for (var j = 0; j < shown; j++) box.appendChild(el("i", "back"));
  box.appendChild(el("b", "backs-n", n));
  return box;
}

/** a face-up note (rose or skull), drawn */
export function noteUp(role, title) {
  var t = el("i", "note-up " + role);
  t.appendChild(noteIcon(role));
  t.setAttribute("role", "img");
  t.setAttribute("aria-label", word("val_" + role));
  t.title = title || word("val_" + role);
  return t;
}

var RED = /[♥♦]/;
/** a face-up playing card with its words ("К♥", "500", "гриб"): red suits in red */
export function faceCard(text, cls) {
  text = String(text);
  var c = el("span", "pcard " + (cls || "") + (RED.test(text) ? " red" : ""), text);
  return c;
}

/** a chip pile: a coin and its count; ``caption`` (a seat's «Фишки») before it */
export function chips(n, cls, caption) {
  var box = el("span", "chips " + (cls || ""));
  if (caption) { box.classList.add("chip"); box.appendChild(el("small", null, label(caption))); }
  box.appendChild(el("i", "coin"));
  box.appendChild(el("b", null, n));
  return box;
}

/** a small caption and value, one fact of a seat or the table ("Взятки 2") */
export function fact(caption, value, cls) {
  var f = el("span", "fact " + (cls || ""));
  f.appendChild(el("small", null, label(caption)));
  f.appendChild(el("b", null, value));
  return f;
}

/** the page's words for a {"ru", "en"} value, or the value */
export function say(v) {
  if (v && typeof v === "object" && typeof v.ru === "string") return v[document.documentElement.lang || "ru"] || v.ru;
  return v === null || v === undefined ? "" : String(v);
}
