/* Table Companion dashboard: renders the page model from the server and keeps it live.
 *
 * The entry module of the public, seat and operator pages (and the club board's tiles): it draws
 * the page from ctx.S (js/core.js) each time the stream (js/stream.js) changes it. The game's
 * table is drawn by its board (js/board.js: the game package's board script, else the generic one);
 * the seat's pad, the operator's forms, the history and the status chips have their own modules.
 * Everything is built with textContent / DOM nodes: no server string is parsed as HTML.
 */
import { GENERIC, boardOf, loadBoard } from "./js/board.js";
import { HIDE_KEYS, KIND, LANG, ctx, el } from "./js/core.js";
import { renderHistory } from "./js/history.js";
import { ask } from "./js/net.js";
import { renderOperator, wireOperator } from "./js/operator.js";
import { renderPad } from "./js/pad.js";
import { renderOperatorSeatPlay, renderPrompts, renderSeatPlay, renderStatus } from "./js/status.js";
import { startStream } from "./js/stream.js";
import { renderValue, scalar } from "./js/values.js";
import { gameName, label, word } from "./js/words.js";

// ------------------------------------------------------------------ main view
var infoOpen = false; // «Подробнее» stays as the reader left it across redraws
function render() {
  var app = document.getElementById("app");
  if (!app || !ctx.S) return;
  var m = ctx.S.model;
  app.textContent = "";
  app.appendChild(renderStatus());
  if (KIND !== "operator") renderPrompts(app, false);
  renderSeatPlay(app); // who plays this seat, when it is not its player on pad and phone
  renderOperatorSeatPlay();
  if (!m.game) {
    // the game the operator just ended («Завершить игру»): how it stood, in the table's words
    var ended = m.ended;
    if (ended && ended.text) {
      var eb = el("section", "card ended");
      eb.appendChild(el("h2", null, gameName(ended.game))); // the text says ended early or over
      eb.appendChild(el("p", "ended-text", ended.text[LANG] || ended.text.ru || ""));
      app.appendChild(eb);
    }
    app.appendChild(el("p", "card empty", word("no_game")));
    renderPad();
    renderOperator();
    return;
  }
  var top = el("section", "card game");
  var h = el("h1", null, gameName(m.game.id));
  if (m.view.phase) h.appendChild(el("span", "phase", label(word("phase_" + m.view.phase, String(m.view.phase).replace(/_/g, " ")))));
  top.appendChild(h);
  if (m.over) {
    var res = el("div", "over");
    res.appendChild(el("h2", null, word("over")));
    // the game's own words for its end (who won, the standings); the raw result only when a
    // game has no words for it
    if (m.result_text && (m.result_text[LANG] || m.result_text.ru)) res.appendChild(el("p", "result-text", m.result_text[LANG] || m.result_text.ru));
    else if (m.result) res.appendChild(renderValue("result", m.result, 0));
    else if (m.view.winner !== undefined && m.view.winner !== null) // a game whose view names its winner only
      res.appendChild(el("p", "winner", word("winner") + ": " + scalar("winner", m.view.winner)));
    top.appendChild(res);
  }
  var board = boardOf(m.game.id);
  // a game met first on this page (a new game, the club's tile): the generic board until its own loads
  if (board === GENERIC) loadBoard(m.game.id).then(function (b) { if (b) render(); });
  top.appendChild(board.draw(m));
  app.appendChild(top);
  if (m.view.you) {
    // the seat's own hidden facts: drawn by the game's board when it can (his notes with their
    // roles), else listed
    var you = el("section", "card you-box");
    you.appendChild(el("h2", null, word("you") + " · " + word("private")));
    var drawn = board.mine ? board.mine(m) : null;
    you.appendChild(drawn || renderValue("you", m.view.you, 0));
    app.appendChild(you);
  }
  var widgetKeys = {};
  (board.keys || []).forEach(function (k) { widgetKeys[k] = 1; });
  var rest = {};
  Object.keys(m.view).forEach(function (k) {
    if (HIDE_KEYS[k] || k === "phase") return;
    if (widgetKeys[k]) return; // drawn by the game's board
    rest[k] = m.view[k];
  });
  if (Object.keys(rest).length) {
    // what the board does not draw: folded away under «Подробнее», open if the reader opened it
    var info = el("details", "card info");
    if (infoOpen) info.open = true;
    info.addEventListener("toggle", function () { infoOpen = info.open; });
    info.appendChild(el("summary", null, label(word("details"))));
    info.appendChild(renderValue("view", rest, 0));
    app.appendChild(info);
  }
  app.appendChild(renderHistory(m));
  renderPad();
  renderOperator();
}
// sits right under it, whatever its height
function measureTop() {
  var h = document.querySelector("header.top");
  if (h) document.documentElement.style.setProperty("--top-h", h.getBoundingClientRect().height + "px");
}
measureTop();
window.addEventListener("resize", measureTop);
// the live mark appearing (or the language switch) may wrap the header onto a second line
var topEl = document.querySelector("header.top");
if (topEl && window.ResizeObserver) new ResizeObserver(measureTop).observe(topEl);

// «Покинуть место» on a phone mid-game is asked first, as the operator's destructive buttons
// are (data-confirm, ask): a mis-tap must not drop the phone off its seat
function wireSeat() {
  var lf = document.getElementById("leave-seat");
  if (lf) lf.addEventListener("submit", function (e) {
    if (lf.dataset.sent) { e.preventDefault(); return; } // on its way: a second tap neither asks nor sends
    var b = lf.querySelector("[data-confirm]");
    if (b && !ask(b.dataset.confirm)) { e.preventDefault(); return; }
    lf.dataset.sent = "1";
  });
  if (lf) window.addEventListener("pageshow", function () { delete lf.dataset.sent; });
}

if (KIND === "public" || KIND === "seat" || KIND === "operator") {
  // the seat's pad and the operator's forms at once (built once, before the page is shown: they
  // do not depend on the board); the page itself when the game's board module is in, so it is
  // drawn as its table from the first frame, not as the generic board first
  if (ctx.S) { renderPad(); renderOperator(); }
  if (KIND === "operator") wireOperator();
  if (KIND === "seat") wireSeat();
  var gid = ctx.S && ctx.S.model && ctx.S.model.game && ctx.S.model.game.id;
  loadBoard(gid).then(function () {
    render();
    startStream(render);
  });
}
