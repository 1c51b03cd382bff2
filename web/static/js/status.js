/* The hardware status chips, the operator's prompts, and who plays each seat. */
import { KIND, LANG, ctx, el } from "./core.js";
import { post } from "./net.js";
import { label, seatName, word } from "./words.js";

// ------------------------------------------------------------------ status
export function renderStatus() {
  var box = el("div", "status");
  var st = ctx.S.status || {};
  Object.keys(st).forEach(function (part) {
    var s = st[part] || {};
    // the server's words for the part in the page's language (companion/statuswords.py)
    var w = (s.words && (s.words[LANG] || s.words.ru)) || {};
    var chip = el("span", "hw hw-" + (s.state || "absent"));
    chip.appendChild(el("b", null, label(w.part || word(part))));
    box.setAttribute("aria-label", word("hw_status"));
    chip.appendChild(el("span", null, ": " + (w.state || word("state_" + s.state, s.state || ""))));
    if (w.detail || s.detail) chip.title = w.detail || s.detail;
    box.appendChild(chip);
  });
  return box;
}
export function renderPrompts(target, operator) {
  var list = ctx.S.prompts || [];
  if (!list.length) return;
  var ul = el("ul", "prompts");
  list.forEach(function (p) {
    var li = el("li", "prompt prompt-" + p.kind, (p.words && p.words[LANG]) || p.text);
    if (operator) {
      var b = el("button", "small", "✓");
      b.addEventListener("click", function () { post("/api/operator/prompt/" + encodeURIComponent(p.id) + "/clear"); });
      li.appendChild(b);
    }
    ul.appendChild(li);
  });
  target.appendChild(ul);
}
// ------------------------------------------------------------------ who plays each seat
// ctx.S.control (companion.table.control.seat_play): for each seat, who plays it now — its player
// on pad and phone ("pad"), on the phone alone (no pad on the box), the bots, the operator's
// console, or a phone that took it over from the bots — in the server's words. The seat's page
// says it for its own seat (not for an ordinary one: pad and phone, or the phone at a table with
// no button box, "phone_only"); the operator's «Играть место с пульта» lists every seat that is
// not an ordinary one.
function playWords(s) { return (s.words && (s.words[LANG] || s.words.ru)) || s.by; }
function ordinary(s) { return s.by === "pad" || s.by === "phone_only"; }
export function renderSeatPlay(target) {
  var c = ctx.S && ctx.S.control;
  var m = ctx.S && ctx.S.model;
  if (!c || !m || !m.game || KIND !== "seat" || !m.viewer) return;
  var mine = (c.seats || [])[m.viewer.seat];
  if (!mine || ordinary(mine)) return;
  var p = el("p", "card seat-play seat-play-" + mine.by, playWords(mine));
  p.id = "seat-play-note";
  target.appendChild(p);
}
export function renderOperatorSeatPlay() {
  var ul = document.getElementById("seat-play");
  var c = ctx.S && ctx.S.control;
  if (!ul || !c) return;
  ul.textContent = "";
  (c.seats || []).forEach(function (s) {
    if (ordinary(s)) return;
    var li = el("li", "seat-play-" + s.by, (s.seat + 1) + ". " + seatName(s.seat) + " — " + playWords(s));
    li.dataset.seat = String(s.seat);
    li.dataset.by = s.by;
    ul.appendChild(li);
  });
}
