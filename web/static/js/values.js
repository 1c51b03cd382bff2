/* Generic rendering of view values (scalars, lists, tables, key-value blocks) as words. */
import { LANG, W, ctx, el, isSeatKey } from "./core.js";
import { CARD_CODE, cardWords } from "./cards.js";
import { has, label, seatName, word } from "./words.js";

// ------------------------------------------------------------------ generic value rendering
// a value the game words in both languages ({"ru": …, "en": …}, a page view's words): the
// page's language
export function isWords(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.ru === "string"
    && typeof v.en === "string" && Object.keys(v).length === 2;
}
export function scalar(key, v) {
  if (v === null || v === undefined) return "—";
  if (isWords(v)) return v[LANG] || v.ru;
  if (typeof v === "boolean") return v ? word("yes") : word("no");
  if (typeof v === "string") {
    if (key === "game" && has("game_" + v)) return W["game_" + v];
    if (key === "shape") return word("shape_" + v, v); // a bet's shape: the game's own term ("hoggenheimer:shape_square")
    if (CARD_CODE.test(v)) return cardWords(v); // a card code reads as on the buttons and toasts: "QH" -> «Д♥»
    return word("val_" + v, v);
  }
  if (typeof v === "number" && isSeatKey(key) && Number.isInteger(v) && ctx.S.model.game && v >= 0 && v < ctx.S.model.game.seats.length) return seatName(v);
  // probabilities and other fractions: three significant digits, in the page's language
  if (typeof v === "number" && !Number.isInteger(v)) return v.toLocaleString(document.documentElement.lang || undefined, {maximumSignificantDigits: 3});
  return String(v);
}
// a sum of money as every screen writes it (companion.games.words.money): thousands grouped — a
// no-break space in Russian, a comma in English — then the sign («₽») or the currency's code
var CURRENCY_SIGNS = { RUB: "₽" };
export function money(value, currency) {
  var grouped = String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, LANG === "en" ? "," : "\u00a0");
  var sign = CURRENCY_SIGNS[currency] || currency || "";
  return sign ? grouped + " " + sign : grouped;
}
export function isScalar(v) { return v === null || typeof v !== "object" || isWords(v); }
export function compact(key, v) { // deep values as words, never as raw JSON
  if (isScalar(v)) return scalar(key, v);
  if (Array.isArray(v)) return v.map(function (x) { return compact(key, x); }).join(", ");
  return Object.keys(v).map(function (k) { return label(word(k)) + " " + compact(k, v[k]); }).join("; ");
}
export function renderValue(key, v, depth) {
  if (isScalar(v)) return el("span", "val", scalar(key, v));
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", "val muted", "—");
    if (v.every(isScalar)) return el("span", "val", v.map(function (x) { return scalar(key, x); }).join(", "));
    if (v.every(function (x) { return x && typeof x === "object" && !Array.isArray(x); }) && depth < 3) {
      var cols = [];
      v.forEach(function (row) { Object.keys(row).forEach(function (k) { if (cols.indexOf(k) < 0) cols.push(k); }); });
      var tbl = el("table", "grid");
      var tr = el("tr");
      cols.forEach(function (c) { tr.appendChild(el("th", null, label(word(c)))); });
      tbl.appendChild(tr);
      v.forEach(function (row) {
        var r = el("tr");
        cols.forEach(function (c) { var td = el("td"); td.appendChild(renderValue(c, row[c], depth + 1)); r.appendChild(td); });
        tbl.appendChild(r);
      });
      var wrap = el("div", "scroll"); wrap.appendChild(tbl); return wrap;
    }
    return el("span", "val", compact(key, v));
  }
  if (depth >= 3) return el("span", "val", compact(key, v));
  var dl = el("dl", "kv");
  Object.keys(v).forEach(function (k) {
    if (k === "game" && ctx.S && ctx.S.model && ctx.S.model.game && v[k] === ctx.S.model.game.id) return; // the page says which game
    dl.appendChild(el("dt", null, label(word(k))));
    var dd = el("dd"); dd.appendChild(renderValue(k, v[k], depth + 1)); dl.appendChild(dd);
  });
  return dl;
}
