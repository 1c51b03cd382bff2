/* «Верю — не верю»: the pile in the middle and what its last placement added, the claim in words,
 * each player's hand size as backs, who must answer. */
import { el } from "../../static/js/core.js";
import { backs, fact, roundTable, say, seatBox } from "../../static/js/table.js";
import { label, seatName, word } from "../../static/js/words.js";

export var keys = ["seats", "pile", "turn", "dealer", "answer", "discard", "game_no"];

function seat(m, v, i) {
  var s = (v.seats || [])[i] || {};
  var out = s.in_game === false;
  var answering = v.phase === "answer" && v.turn === i;
  var badges = [];
  if (answering) badges.push(["warn", word("b_answers")]);
  if (out) badges.push(["", word("val_out")]);
  var box = seatBox(m, i, { dealer: v.dealer === i, gone: out, badges: badges, turn: v.turn === i });
  if (typeof s.cards === "number") box.body.appendChild(backs(s.cards, "hand-backs", 5));
  return box.card;
}

function centre(v) {
  var c = el("div", "centre");
  if (v.game_no) c.appendChild(fact(word("game_no"), say(v.game_no), "game-no"));
  var pile = v.pile || {};
  var p = el("div", "pile");
  p.appendChild(el("small", null, label(word("pile"))));
  p.appendChild(backs(pile.cards || 0, "pile-backs", 6));
  c.appendChild(p);
  var last = Array.isArray(pile.placements) && pile.placements.length ? pile.placements[pile.placements.length - 1] : null;
  if (pile.claim) {
    var claim = el("div", "big-claim");
    // the claim in words, its count agreeing with the kind («4 ежа»: the server's catalogue plural)
    claim.appendChild(el("b", null, pile.claim_words ? say(pile.claim_words) : (last ? last.count + " × " : "") + say(pile.claim)));
    c.appendChild(claim);
  }
  if (last) c.appendChild(el("p", "centre-line", "+" + last.count + " — " + last.name));
  if (v.answer) c.appendChild(el("p", "centre-line answer", say(v.answer.name) + ": " + say(v.answer.answer)));
  if (typeof v.discard === "number" && v.discard) c.appendChild(fact(word("discard"), v.discard));
  if (v.phase === "answer" && typeof v.turn === "number") c.appendChild(el("p", "centre-line who", label(word("b_answers")) + ": " + seatName(v.turn)));
  return c;
}

export function draw(m) {
  var v = m.view;
  var box = el("div", "board board-doubt");
  box.appendChild(roundTable(m.game.seats.length, function (i) { return seat(m, v, i); }, centre(v)));
  return box;
}
