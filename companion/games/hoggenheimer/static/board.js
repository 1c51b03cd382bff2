/* The joker game's board: the 4×8 layout with the bets on its cells. */
import { H_COLS, H_ROWS, H_SUITS, cardLabel, cardWords, normCard, rankWords } from "../../static/js/cards.js";
import { GENERIC } from "../../static/js/board.js";
import { renderBetGrid } from "./betgrid.js";
import { el } from "../../static/js/core.js";
import { fact, say } from "../../static/js/table.js";
import { scalar } from "../../static/js/values.js";
import { label, seatName, word } from "../../static/js/words.js";

function renderJokerLayout(view) {
  var box = el("div", "hog");
  box.appendChild(el("h3", null, word("layout")));
  var grid = Array.isArray(view.layout) && view.layout.length === 4 ? view.layout : null;
  var tbl = el("table", "hog-grid");
  var head = el("tr"); head.appendChild(el("th"));
  H_COLS.forEach(function (c) { head.appendChild(el("th", null, rankWords(c))); });
  tbl.appendChild(head);
  H_ROWS.forEach(function (s, r) {
    var tr = el("tr");
    tr.appendChild(el("th", "suit s-" + s, H_SUITS[s]));
    H_COLS.forEach(function (rank, c) {
      var cell = grid && grid[r] && grid[r][c] ? grid[r][c] : {};
      var card = cell.card ? normCard(cell.card) : null;
      var td = el("td", card ? "up s-" + card.slice(-1) : "down", card ? cardLabel(card) : "");
      var nb = Array.isArray(cell.bets) ? cell.bets.length : 0;
      if (nb) td.appendChild(el("span", "bet-dot", nb));
      td.title = cardWords(rank + s) + (nb ? " · " + word("bets") + ": " + nb : "");
      tr.appendChild(td);
    });
    tbl.appendChild(tr);
  });
  box.appendChild(tbl);
  var legend = el("p", "muted odds-legend");
  legend.textContent = [1, 2, 4, 8].map(function (k) {
    return word("n_cards_" + k, k + " " + word("n_cards")) + " → " + k + ":1 (" + word("chance") + " 1/" + (k + 1) + ")";
  }).join(" · ");
  box.appendChild(legend);
  if (Array.isArray(view.bets) && view.bets.length) {
    box.appendChild(el("h3", null, word("bets")));
    var ul = el("ul", "bets");
    view.bets.forEach(function (b) {
      var cards = Array.isArray(b.cards) ? b.cards : [];
      var k = cards.length || 1;
      var li = el("li");
      // the bet's number, as the history and the «take back» choices name it («ставка №3»)
      if (typeof b.id === "number") li.appendChild(el("span", "bet-no", "№" + b.id));
      li.appendChild(el("b", null, typeof b.seat === "number" ? seatName(b.seat) : ""));
      li.appendChild(el("span", null, (b.shape ? word("shape_" + b.shape, b.shape) + " " : "") + cards.map(cardLabel).join(" ")));
      if (b.stake !== undefined) li.appendChild(el("span", "chip", word("stake") + " " + b.stake));
      li.appendChild(el("span", "chip odds", (b.payout || k + ":1") + " · " + word("chance") + " " + (b.probability || "1/" + (k + 1))));
      // how many of the bet's cards are turned face up so far: «открыто 1 из 2»
      if (typeof b.up === "number") li.appendChild(el("span", "chip", word("up_of").replace("%(n)s", b.up).replace("%(k)s", k)));
      ul.appendChild(li);
    });
    box.appendChild(ul);
  }
  return box;
}

// the game-specific parts of a page, by the names the game's schema lists ("widgets"): each renders
// its part (the seat pad's bet grid: betgrid.js, beside this board)
export var widgets = { bet_grid: renderBetGrid };

/** the view keys the board shows */
export var keys = ["bets", "rows", "columns", "layout", "targets", "aside", "exposure", "banker", "deal"];

/** the 33rd card (aside) and the banker's cover of the bets: what he may have to pay against his chips */
function cover(m) {
  var v = m.view, row = el("div", "hog-side");
  if (v.deal) row.appendChild(fact(word("deal"), say(v.deal)));
  if (v.aside) {
    var a = el("span", "fact aside");
    a.appendChild(el("small", null, label(word("aside"))));
    a.appendChild(v.aside === "face_down" ? el("span", "pcard down") : el("b", null, scalar("aside", v.aside)));
    row.appendChild(a);
  }
  if (typeof v.banker === "number") row.appendChild(fact(word("banker"), seatName(v.banker)));
  var x = v.exposure;
  if (x && typeof x.max_payout === "number" && typeof x.banker_chips === "number") {
    row.appendChild(fact(word("banker_chips"), x.banker_chips));
    // the most the banker may have to pay, against his chips: a bar, red when he cannot cover it
    var f = fact(word("exposure"), x.max_payout + " / " + x.banker_chips, x.covered === false ? "bad" : "ok");
    var bar = el("span", "cover-bar");
    var fill = el("i");
    fill.style.width = Math.min(100, x.banker_chips ? 100 * x.max_payout / x.banker_chips : 100).toFixed(1) + "%";
    bar.appendChild(fill);
    f.appendChild(bar);
    row.appendChild(f);
  }
  return row;
}

/** the seats, then the layout with its bets, the 33rd card and the banker's cover */
export function draw(m) {
  var box = GENERIC.draw(m);
  box.classList.add("board-hoggenheimer");
  box.appendChild(cover(m));
  box.appendChild(renderJokerLayout(m.view));
  return box;
}
