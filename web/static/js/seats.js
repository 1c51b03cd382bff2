/* The generic seat cards: one per seat, its badges and the view's per-seat facts. */
import { ctx, el } from "./core.js";
import { noteIcon } from "./icons.js";
import { renderValue } from "./values.js";
import { label, seatName, word } from "./words.js";

// ------------------------------------------------------------------ seats
export var NOTE_KEYS = /^(face_down|on_table|placed|down)$/;
export function renderSeats(m) {
  var view = m.view || {};
  var n = m.game.seats.length;
  var rows = Array.isArray(view.seats) && view.seats.length === n && view.seats.every(function (x) { return x && typeof x === "object"; }) ? view.seats : null;
  var box = el("div", "seats");
  for (var i = 0; i < n; i++) {
    var info = rows ? rows[i] : {};
    var card = el("div", "seat");
    if (m.turn.indexOf(i) >= 0) card.className += " turn";
    if (m.viewer.seat === i) card.className += " me";
    if (info.in_game === false || info.out === true) card.className += " gone";
    var head = el("div", "seat-head");
    head.appendChild(el("span", "seat-no", i + 1));
    head.appendChild(el("b", "seat-name", seatName(i)));
    if (view.dealer === i || view.button === i) head.appendChild(el("span", "badge dealer", label(word("dealer"))));
    if (m.turn.indexOf(i) >= 0) head.appendChild(el("span", "badge turn", label(word("turn"))));
    if (Array.isArray(view.passed) && view.passed.indexOf(i) >= 0) head.appendChild(el("span", "badge", label(word("b_passed"))));
    if (Array.isArray(view.agreed) && view.agreed.indexOf(i) >= 0) head.appendChild(el("span", "badge agreed", label(word("b_agreed"))));
    if (m.viewer.seat === i) head.appendChild(el("span", "badge you", label(word("you"))));
    var p = ctx.S.pending && ctx.S.pending[String(i)];
    if (p) head.appendChild(el("span", "badge pending", label(word("pending")) + " " + p));
    card.appendChild(head);
    var stats = el("div", "seat-stats");
    Object.keys(info).forEach(function (k) {
      if (k === "seat" || k === "name") return;
      var v = info[k];
      var chip = el("span", "chip");
      chip.appendChild(el("small", null, label(word(k))));
      if (NOTE_KEYS.test(k) && typeof v === "number" && v <= 12) {
        var notes = el("span", "notes");
        for (var j = 0; j < v; j++) notes.appendChild(el("i", "note-back"));
        if (v === 0) notes.appendChild(el("span", "val", "0"));
        chip.appendChild(notes);
      } else if (Array.isArray(v) && v.length && v.every(function (x) { return x === "rose" || x === "skull" || (x && (x.role === "rose" || x.role === "skull")); })) {
        var tiles = el("span", "notes");
        v.forEach(function (x) {
          var r = typeof x === "string" ? x : x.role;
          var t = el("i", "note-up " + r);
          t.appendChild(noteIcon(r));
          t.setAttribute("role", "img");
          t.setAttribute("aria-label", word("val_" + r));
          t.title = word("val_" + r) + (x.serial ? " · " + x.serial : "");
          tiles.appendChild(t);
        });
        chip.appendChild(tiles);
      } else {
        chip.appendChild(renderValue(k, v, 2));
      }
      stats.appendChild(chip);
    });
    card.appendChild(stats);
    box.appendChild(card);
  }
  return box;
}
