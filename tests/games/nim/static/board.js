/* Nim's board, shipped by its own package (tests/games/nim/, SPEC.board_script): the heap as a
 * chip pile in the middle of the table, the players round it, whose turn it is. */
import { el } from "../../static/js/core.js";
import { chips, roundTable, seatBox } from "../../static/js/table.js";
import { word } from "../../static/js/words.js";

export var keys = ["pile"];

export function draw(m) {
  var v = m.view;
  var box = el("div", "board board-nim");
  var heap = el("div", "centre nim-heap");
  heap.appendChild(chips(v.pile, "", word("pile")));
  box.appendChild(roundTable(m.game.seats.length, function (i) {
    return seatBox(m, i, { turn: v.turn === i }).card;
  }, heap));
  return box;
}
