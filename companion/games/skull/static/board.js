/* Skull's board: the seats round the table, each stack as face-down notes (flipped ones face up as
 * rose or skull), the bid big in the middle with who holds it, each seat's auction mark, the bank as a pile, the
 * reveal step by step. The seat's own notes with their roles (mine) on his page only. */
import { el } from "../../static/js/core.js";
import { backs, fact, noteUp, roundTable, seatBox } from "../../static/js/table.js";
import { scalar } from "../../static/js/values.js";
import { label, seatName, word } from "../../static/js/words.js";

export var keys = ["seats", "bid", "bank", "passed", "agreed", "roses", "chooser", "skull_owner", "table_notes",
  "dealer", "turn", "outcome", "owed", "must_raise", "round"];

function has(list, i) { return Array.isArray(list) && list.indexOf(i) >= 0; }

function seat(m, v, i) {
  var s = (v.seats || [])[i] || {};
  var out = s.status === "out" || s.in_game === false;
  var badges = [];
  if (has(v.passed, i)) badges.push(["", word("b_passed")]);
  else if (has(v.agreed, i)) badges.push(["agreed", word("b_agreed")]);
  else if (v.phase === "auction" && !out && !has(m.turn, i)) badges.push(["speak", word("b_to_speak")]);
  if (v.must_raise === i) badges.push(["warn", word("must_raise")]);
  if (v.chooser === i) badges.push(["turn", word("b_reveals")]);
  if (has(v.owed, i)) badges.push(["", word("owed")]);
  if (out) badges.push(["", word("val_out")]);
  var box = seatBox(m, i, { dealer: v.dealer === i, gone: out, badges: badges });
  var stack = el("div", "stack");
  if (typeof s.face_down === "number") stack.appendChild(backs(s.face_down, "notes-down", 6));
  (s.face_up || []).forEach(function (x) {
    var r = typeof x === "string" ? x : x.role;
    stack.appendChild(noteUp(r, word("val_" + r) + (x.serial ? " · " + x.serial : "")));
  });
  box.body.appendChild(stack);
  var facts = el("div", "facts");
  if (typeof s.hand === "number") facts.appendChild(fact(word("hand"), s.hand));
  if (s.lost) facts.appendChild(fact(word("lost"), s.lost));
  if (s.registered === false && v.phase === "setup") facts.appendChild(fact(word("registered"), word("no")));
  box.body.appendChild(facts);
  return box.card;
}

function centre(v) {
  var c = el("div", "centre");
  if (v.bid) {
    var bid = el("div", "big-bid");
    bid.appendChild(el("small", null, label(word("bid"))));
    bid.appendChild(el("b", null, v.bid));
    // who holds it: the last to bid takes the button (the dealer's badge), through the auction and
    // while he turns the notes over
    if (typeof v.dealer === "number" && (v.phase === "auction" || v.phase === "reveal"))
      bid.appendChild(el("span", "bid-holder", word("bid_holder").replace("%(name)s", seatName(v.dealer))));
    c.appendChild(bid);
  }
  if (typeof v.chooser === "number") c.appendChild(el("p", "centre-line", label(word("b_reveals")) + ": " + seatName(v.chooser)));
  if (v.phase === "reveal" || v.phase === "settlement") {
    var r = el("p", "centre-line reveal-step");
    r.appendChild(document.createTextNode(label(word("roses")) + ": " + (v.roses || 0) + " / " + v.bid + " "));
    for (var k = 0; k < (v.roses || 0); k++) r.appendChild(noteUp("rose"));
    if (typeof v.skull_owner === "number") r.appendChild(noteUp("skull", word("val_skull") + " · " + seatName(v.skull_owner)));
    c.appendChild(r);
  }
  if (v.outcome) c.appendChild(el("p", "centre-line outcome outcome-" + v.outcome, label(scalar("outcome", v.outcome))));
  var bank = v.bank || {};
  if (typeof bank.count === "number") {
    var b = el("div", "bank-pile");
    b.appendChild(el("small", null, label(word("bank"))));
    b.appendChild(backs(bank.count, "bank-notes", 5));
    if (typeof bank.face_value === "number" && bank.face_value > 0)
      b.appendChild(el("span", "face-value", bank.face_value.toLocaleString(document.documentElement.lang || "ru") + " " + (bank.currency === "RUB" ? "₽" : bank.currency || "")));
    c.appendChild(b);
  }
  return c;
}

export function draw(m) {
  var v = m.view, n = m.game.seats.length;
  var box = el("div", "board board-skull");
  box.appendChild(roundTable(n, function (i) { return seat(m, v, i); }, centre(v)));
  return box;
}

/** the seat's own notes, drawn: each with its role and serial; the ones lost to the bank apart */
export function mine(m) {
  var you = m.view.you;
  if (!you || !Array.isArray(you.notes)) return null;
  var box = el("div", "mine");
  var row = el("div", "my-notes");
  you.notes.forEach(function (x) {
    var n = el("div", "my-note " + (x.role || "unknown"));
    if (x.role === "rose" || x.role === "skull") n.appendChild(noteUp(x.role));
    n.appendChild(el("b", null, label(word("val_" + x.role, x.role || "?"))));
    n.appendChild(el("small", "serial", x.serial || ""));
    row.appendChild(n);
  });
  box.appendChild(row);
  if (Array.isArray(you.lost) && you.lost.length) {
    var lost = el("p", "muted my-lost", label(word("lost")) + ": " + you.lost.join(", "));
    box.appendChild(lost);
  }
  return box;
}
