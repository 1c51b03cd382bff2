/* The round history: each entry in words, newest first. */
import { LANG, el } from "./core.js";
import { isScalar, scalar } from "./values.js";
import { label, seatName, verbLabel, word } from "./words.js";

// ------------------------------------------------------------------ history
export function itemText(it) {
  var d = it.data || {};
  if (it.text && it.text[LANG]) return it.text[LANG];
  if (it.kind === "action") return seatName(d.seat) + ": " + verbLabel(d.verb) + (d.args && d.args.length ? " " + d.args.join(" ") : "");
  if (it.kind === "table_action") return word("table_action") + ": " + verbLabel(d.verb) + (d.source === "manual" ? " (" + word("source_manual") + ")" : "");
  if (it.kind === "undo") return word("undo");
  var parts = [];
  Object.keys(d).forEach(function (k) {
    var v = d[k];
    if (isScalar(v)) parts.push((k === "seat" ? "" : word(k) + " ") + scalar(k, v));
    else if (Array.isArray(v) && v.every(isScalar)) parts.push(word(k) + " " + v.map(function (x) { return scalar(k, x); }).join(", "));
  });
  return label(word("e_" + it.kind, it.kind.replace(/_/g, " "))) + (parts.length ? ": " + parts.join(", ") : "");
}
export function renderHistory(m) {
  var box = el("section", "card history");
  box.appendChild(el("h2", null, word("history")));
  var ol = el("ol", "hist");
  // newest first, also inside one action: its last event (a round's outcome) above the first (the flip)
  m.history.slice().reverse().forEach(function (h) {
    h.items.slice().reverse().forEach(function (it) {
      var li = el("li", it.private ? "private" : null, itemText(it));
      if (it.private) { li.appendChild(document.createTextNode(" ")); li.appendChild(el("span", "badge you", label(word("private")))); }
      ol.appendChild(li);
    });
  });
  if (!m.history.length) ol.appendChild(el("li", "muted", "—"));
  box.appendChild(ol);
  return box;
}
