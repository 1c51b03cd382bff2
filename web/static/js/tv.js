/* The table display (/tv): a TV or tablet beside the table, landscape, read from three metres.
 * The public snapshot and stream only (what the public page shows), drawn large: the game's board,
 * whose turn and the last event always in view; a short animation for the moments that matter
 * (a skull turns up, «ХОЙ!», a prize won, the joker); at the game's end a result screen with each
 * player's chips or points over the rounds as an SVG chart. */
import { GENERIC, boardOf, loadBoard } from "./board.js";
import { ctx, el } from "./core.js";
import { itemText } from "./history.js";
import { startStream } from "./stream.js";
import { chart, series } from "./chart.js";
import { gameName, label, seatName, word } from "./words.js";

var LANG = document.documentElement.lang || "ru";
var shownVersion = null; // the newest history entry already on screen (no animation at load)

/** the moment an event is, for its animation: [css class, words] or null (the game's presenter
 * says which events are moments and words them: the history item's "moment") */
function moment(it) {
  var m = it.moment;
  if (!m || !m.style) return null;
  return ["m-" + m.style, (m.text && (m.text[LANG] || m.text.ru)) || ""];
}

function animate(m) {
  var h = m.history || [];
  var newest = h.length ? h[h.length - 1].v : null;
  if (shownVersion === null || newest === null || newest <= shownVersion) { shownVersion = newest; return; }
  var found = null;
  h.forEach(function (e) { if (e.v > shownVersion) e.items.forEach(function (it) { found = moment(it) || found; }); });
  shownVersion = newest;
  if (!found) return;
  var old = document.getElementById("moment");
  if (old) old.remove();
  var box = el("div", "moment " + found[0], found[1]);
  box.id = "moment";
  box.setAttribute("role", "status");
  document.body.appendChild(box);
  setTimeout(function () { box.remove(); }, 2400);
}

function lastWords(m) {
  var h = m.history || [];
  for (var j = h.length - 1; j >= 0; j--) {
    var items = h[j].items.slice().reverse();
    for (var k = 0; k < items.length; k++) { var t = itemText(items[k]); if (t) return t; }
  }
  return "—";
}

function result(m, board) {
  var box = el("section", "tv-result");
  box.appendChild(el("h2", null, label(word("over"))));
  var text = m.result_text && (m.result_text[LANG] || m.result_text.ru);
  if (text) box.appendChild(el("p", "tv-result-text", text));
  var s = series(m, board);
  if (s) {
    box.appendChild(el("h3", null, label(word(s.points ? "tv_points" : "tv_chips"))));
    box.appendChild(chart(s));
  }
  return box;
}

function render() {
  var root = document.getElementById("tv");
  if (!root || !ctx.S) return;
  var m = ctx.S.model;
  root.textContent = "";
  if (!m.game) {
    root.appendChild(el("p", "tv-empty", word("no_game")));
    return;
  }
  var board = boardOf(m.game.id);
  if (board === GENERIC) loadBoard(m.game.id).then(function (b) { if (b) render(); });
  var head = el("div", "tv-head");
  head.appendChild(el("h1", null, gameName(m.game.id)));
  if (m.view.phase) head.appendChild(el("span", "phase", label(word("phase_" + m.view.phase, String(m.view.phase).replace(/_/g, " ")))));
  root.appendChild(head);
  if (m.over) { root.appendChild(result(m, board)); animate(m); return; }
  var main = el("div", "tv-main");
  var tb = el("div", "tv-board");
  tb.appendChild((board.tv || board.draw)(m));
  main.appendChild(tb);
  var side = el("aside", "tv-side");
  var turn = el("div", "tv-turn");
  turn.appendChild(el("small", null, label(word("tv_turn"))));
  var who = (m.turn || []).map(seatName).join(", ");
  turn.appendChild(el("b", null, who || "—"));
  side.appendChild(turn);
  var last = el("div", "tv-last");
  last.appendChild(el("small", null, label(word("tv_last"))));
  last.appendChild(el("p", null, lastWords(m)));
  side.appendChild(last);
  main.appendChild(side);
  root.appendChild(main);
  animate(m);
}

if (document.getElementById("tv")) {
  var gid = ctx.S && ctx.S.model && ctx.S.model.game && ctx.S.model.game.id;
  loadBoard(gid).then(function () { render(); startStream(render); });
}
