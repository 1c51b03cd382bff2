/* A game's board: the module its package ships (GameSpec.board_script, served at
 * /games/<game id>/board.js) when the game has one, else the generic board (the headline chips
 * and one card per seat), so any registered game is drawn.
 *
 * A board module exports
 *   draw(m) -> Element     the table drawn from the page model m (m.view is the viewer's view:
 *                          the public one on the public page and the TV, the seat's on his page)
 *   keys: [view key, …]    the view keys it shows, left out of the «Подробнее» block
 *   mine(m) -> Element?    optional: a seat's own hidden facts (m.view.you) drawn as objects
 *   tv(m) -> Element?      optional: the table display's board (default: draw)
 *   widgets: {name: fn}    optional: the game's own page parts its schema lists by name
 *                          ("bet_grid": fn(pad, m, seat, verb, actions), drawn on the seat pad)
 * It imports the page's modules from /static/js/ ("../../static/js/core.js") and its own from
 * beside it ("./betgrid.js").
 */
import { el } from "./core.js";
import { renderSeats } from "./seats.js";
import { word } from "./words.js";

/** the headline chips: the bid and the bank when the view has them */
export function headline(m) {
  var head = el("div", "headline");
  if (m.view.bid !== undefined && m.view.bid !== null) head.appendChild(el("span", "big-chip", word("bid") + " " + m.view.bid));
  var bank = m.view.bank;
  if (bank && typeof bank === "object" && typeof bank.count === "number") head.appendChild(el("span", "big-chip", word("bank") + " " + bank.count));
  else if (typeof bank === "number") head.appendChild(el("span", "big-chip", word("bank") + " " + bank));
  return head;
}

export var GENERIC = {
  keys: [],
  draw: function (m) {
    var box = el("div", "board board-generic");
    var head = headline(m);
    if (head.childNodes.length) box.appendChild(head);
    box.appendChild(renderSeats(m));
    return box;
  }
};

var loaded = {}; // game id -> the board module, null (none), or a promise while it loads

/** The board of ``id`` if it is loaded (else the generic one). */
export function boardOf(id) {
  var b = loaded[id];
  return b && typeof b.draw === "function" ? b : GENERIC;
}

/** Whether the board of ``id`` is known: loaded, or known to be none (not while it loads). */
export function boardKnown(id) {
  var b = loaded[id];
  return b === null || (b !== undefined && !(b instanceof Promise));
}

/** Load the board of ``id`` once; the promise resolves when it is known (loaded, or none). */
export function loadBoard(id) {
  if (!id || !/^[a-z][a-z0-9_]*$/.test(id)) return Promise.resolve(null); // a game id, never a path
  if (loaded[id] !== undefined) return Promise.resolve(loaded[id]);
  var p = import("../../games/" + id + "/board.js").then(function (mod) { loaded[id] = mod; return mod; },
    function () { loaded[id] = null; return null; }); // a game with no board of its own: the generic one
  loaded[id] = p;
  return p;
}
