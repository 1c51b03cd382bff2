/* The lottery: the four prize cards with their chips, each player's three cards, the box; at the
 * end, each seat's chips after every draw for the result screen's chart (series). */
import { el } from "../../static/js/core.js";
import { chips, faceCard, fact, say, seatBox } from "../../static/js/table.js";
import { label, seatName, word } from "../../static/js/words.js";

var SUIT_SIGN = /[♠♥♦♣]$/;

export var keys = ["seats", "prizes", "box", "banker", "dealer", "players", "chips_by_draw"];

/** the result chart's series: each seat's chips at the start, after each draw and the play-off
 * (the page view's chips_by_draw, from the game's public view) */
export function series(m) {
  var rows = m.view.chips_by_draw;
  if (!Array.isArray(rows) || rows.length < 2) return null;
  return { points: false, names: m.game.seats.map(function (x, i) { return seatName(i); }), rows: rows };
}

function prizes(v) {
  var row = el("div", "prizes");
  (v.prizes || []).forEach(function (p) {
    var card = el("div", "prize");
    card.appendChild(el("small", null, label(word("prize")) + " " + p.prize));
    // a card turned face up, face down (the game's words for it), or none (the prize is won)
    // (a face-up card is its words, «Д♥» / "Q♥": a rank and a suit sign)
    var up = p.card ? SUIT_SIGN.test(say(p.card)) : false;
    var face = up ? faceCard(say(p.card)) : el("span", p.card ? "pcard down" : "pcard none", p.card ? "" : "—");
    if (p.card && !up) { face.setAttribute("role", "img"); face.setAttribute("aria-label", say(p.card)); }
    card.appendChild(face);
    if (typeof p.chips === "number") card.appendChild(chips(p.chips));
    row.appendChild(card);
  });
  return row;
}

function seat(m, v, i) {
  var s = (v.seats || [])[i] || {};
  var badges = [];
  if (s.role) badges.push(["role", say(s.role)]);
  var box = seatBox(m, i, { dealer: v.dealer === i, badges: badges });
  if (typeof s.chips === "number") box.body.appendChild(chips(s.chips, s.chips < 0 ? "owes" : "", word("chips")));
  var held = say(s.cards); // the seat's cards in words: «Д♥, 7♠» / "Q♥, 7♠"
  if (held) {
    var hand = el("div", "hand");
    held.split(/,\s*/).forEach(function (c) { hand.appendChild(faceCard(c)); });
    box.body.appendChild(hand);
  }
  return box.card;
}

export function draw(m) {
  var v = m.view;
  var box = el("div", "board board-lottery");
  var table = el("div", "lottery-table");
  table.appendChild(prizes(v));
  var boxRow = el("div", "centre-line");
  boxRow.appendChild(fact(word("box"), v.box || 0, "box"));
  if (typeof v.to_spread === "number") boxRow.appendChild(fact(word("to_spread"), v.to_spread));
  table.appendChild(boxRow);
  box.appendChild(table);
  var seats = el("div", "seats");
  for (var i = 0; i < m.game.seats.length; i++) seats.appendChild(seat(m, v, i));
  box.appendChild(seats);
  return box;
}
