/* The joker game's bet grid on the seat pad (the schema's widget "bet_grid", verb "bet"). */
import { H_COLS, H_ROWS, H_SUITS, cardLabel, layoutIndex, layoutKey, rankWords, targetCards } from "../../static/js/cards.js";
import { LANG, el } from "../../static/js/core.js";
import { post, toast } from "../../static/js/net.js";
import { stakeRange, stakeStepper, stepper } from "../../static/js/pad.js";
import { isBad, label, outcomeText, verbLabel, word } from "../../static/js/words.js";

// ------------------------------------------------------------------ the joker game's bet grid
// The seat places a bet on a picture of the layout (RULINGS §3: rows ♠ ♥ ♦ ♣ from the top,
// columns A K Q J 10 9 8 7), not on one button per target (117 of them): tapped cards make the
// selection — one card, two touching cards, a 2×2 square; a suit's sign takes its whole row, a
// rank its whole column; a selected card tapped again leaves it. The selection, in layout order,
// is the key of the seat's legal bet (its cards as the action writes them) and of the game's
// words for it (view.targets: bet_target's words and the payout); one button sends that bet at the
// stepper's stake. A selection that is no bet (a diagonal, three cards) is said in words and the
// button stays disabled.
var betPick = {}; // card code -> true: the seat's selection, kept when the pad is rebuilt
var betRefresh = null; // the shown grid's refresh (a placed bet clears the selection)
export function betPicked() { return Object.keys(betPick).filter(function (c) { return betPick[c]; }); }
// why the selection is no bet, in words
export function noBetWords(cards) {
  if (cards.length === 2) {
    var a = layoutIndex(cards[0]), b = layoutIndex(cards[1]);
    var dr = Math.abs(Math.floor(a / 8) - Math.floor(b / 8)), dc = Math.abs(a % 8 - b % 8);
    if (dr === 1 && dc === 1) return word("bet_diagonal");
    return word("bet_apart");
  }
  return word("bet_no_shape").replace("%(n)s", cards.length);
}
// a target in the game's words with its payout: «Две соседние К♥ Д♥ — выплата 2:1»
export function targetWords(t, cards) {
  var text = t ? (t.text[LANG] || t.text.ru) : cards.map(cardLabel).join(" ");
  if (t && t.shape === "card") text = word("shape_card") + " " + text;
  var payout = t ? t.payout : cards.length + ":1";
  return label(text) + " — " + word("payout").toLowerCase() + "\u00a0" + payout;
}
export function renderBetGrid(pad, m, seat, verb, g) {
  var targets = (m.view && m.view.targets) || {};
  var legal = {}; // target key -> the cards argument of the seat's legal bet
  g.forEach(function (a) { legal[layoutKey(targetCards(a.args[1]))] = a.args[1]; });
  // the stakes: the table's limits when its view gives them, else those the actions offer
  var counts = Array.from(new Set(g.map(function (a) { return parseInt(a.args[0], 10); }))).sort(function (a, b) { return a - b; });
  var range = counts.length === 1 ? stakeRange(m) : null;
  if (range) { counts = []; for (var v = range[0]; v <= range[1]; v++) counts.push(v); }
  if (counts.indexOf(stepper[verb]) < 0) stepper[verb] = counts[0];
  var box = el("div", "betpad verb-" + verb);
  var grid = el("div", "bet-grid");
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", label(word("layout")));
  grid.appendChild(el("span", "bet-corner"));
  var cells = [], lines = [];
  function line(cls, text, cards, name) {
    var b = el("button", cls, text);
    b.type = "button";
    b.setAttribute("aria-label", name);
    b.dataset.line = cards.join(",");
    b.addEventListener("click", function () {
      // the whole row or column; tapped again when it is the selection, it is unselected
      var same = layoutKey(betPicked()) === layoutKey(cards);
      betPick = {};
      if (!same) cards.forEach(function (c) { betPick[c] = true; });
      refresh();
    });
    lines.push(b);
    return b;
  }
  H_COLS.forEach(function (rank) {
    grid.appendChild(line("bet-col", rankWords(rank), H_ROWS.map(function (s) { return rank + s; }),
      label(word("shape_column")) + " " + rankWords(rank)));
  });
  H_ROWS.forEach(function (s) {
    grid.appendChild(line("bet-row s-" + s, H_SUITS[s], H_COLS.map(function (r) { return r + s; }),
      label(word("shape_row")) + " " + H_SUITS[s]));
    H_COLS.forEach(function (rank) {
      var code = rank + s;
      var b = el("button", "bet-card s-" + s, cardLabel(code));
      b.type = "button";
      b.dataset.card = code;
      b.addEventListener("click", function () {
        if (betPick[code]) delete betPick[code]; else betPick[code] = true;
        refresh();
      });
      cells.push(b);
      grid.appendChild(b);
    });
  });
  box.appendChild(grid);
  var say = el("p", "bet-say");
  say.setAttribute("aria-live", "polite");
  box.appendChild(say);
  var stake = stakeStepper("stepper bet-stake", verb, counts, function () { refresh(); });
  var shownN = stake.shown;
  var place = el("button", "primary bet-place", word("bet_place"));
  stake.box.appendChild(place);
  box.appendChild(stake.box);
  function refresh() {
    var cards = betPicked();
    var key = cards.length ? layoutKey(cards) : "";
    cells.forEach(function (b) {
      var on = !!betPick[b.dataset.card];
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    lines.forEach(function (b) { b.classList.toggle("on", key !== "" && key === layoutKey(b.dataset.line.split(","))); });
    shownN.textContent = stepper[verb];
    var t = targets[key], arg = legal[key], ok = false, text;
    if (!cards.length) text = word("bet_hint");
    else if (arg) {
      text = targetWords(t, cards); ok = true;
      // the stake the bank covers on this target (its payout k:1): more is refused, so say it
      var room = m.view && m.view.limits ? m.view.limits.bank_room : null;
      var k = t ? parseInt(t.payout, 10) : 0;
      if (typeof room === "number" && k > 0 && stepper[verb] * k > room) {
        text += ". " + word("bet_room").replace("%(n)s", Math.floor(room / k)); ok = false;
      }
    }
    else if (t) text = targetWords(t, cards) + ". " + word("bet_uncovered"); // a bet the bank cannot cover now
    else text = noBetWords(cards);
    say.textContent = text;
    say.className = "bet-say" + (cards.length && !ok ? " bad" : "");
    place.disabled = !ok;
    place.dataset.action = ok ? seat + " " + verb + " " + stepper[verb] + " " + arg : "";
  }
  place.addEventListener("click", function () {
    var text = place.dataset.action;
    if (!text) return;
    post("/api/seat/action", { action: text }).then(function (j) {
      toast(outcomeText(j), isBad(j));
      if (j.accepted) { betPick = {}; if (betRefresh) betRefresh(); } // placed: a fresh selection
    });
  });
  betRefresh = refresh;
  refresh();
  pad.classList.add("has-betgrid");
  pad.appendChild(box);
}
