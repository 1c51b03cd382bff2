/* Playing cards in the page's language, and the joker game's layout: its rows, columns, codes and labels. */
import { LANG } from "./core.js";
// ------------------------------------------------------------------ the joker game's layout
export var H_ROWS = ["S", "H", "D", "C"], H_SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export var H_COLS = ["A", "K", "Q", "J", "10", "9", "8", "7"];
// a card as a person writes it, in the page's language (companion/games/cardnames.py): the
// picture ranks as the language's decks index them — Russian Т К Д В (туз, король, дама, валет),
// English A K Q J — 10 and the pips as they are, then the suit sign: "QH" -> «Д♥» / "Q♥"
export var RANK_LETTERS = { ru: { A: "Т", K: "К", Q: "Д", J: "В" }, en: { A: "A", K: "K", Q: "Q", J: "J" } };
export var CARD_CODE = /^(10|[2-9AKQJ])([SHDC])$/;
// a Latin T is no rank: the ten in English shorthand, the ace to a Russian eye (as cardnames.py)
var READ_RANK = { "Т": "A", "К": "K", "Д": "Q", "В": "J" };
var READ_SUIT = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
function readCode(rank, suit) {
  rank = READ_RANK[rank] || rank;
  suit = READ_SUIT[suit] || suit;
  return /^(10|[2-9AKQJ])$/.test(rank) && H_SUITS[suit] ? rank + suit : null;
}
// the card code of a card as written or typed ("QH", "Q♥", "Д♥", "д♥", "10♣", "S10"), else null
export function cardCode(c) {
  if (typeof c !== "string") return null;
  var s = c.trim().toUpperCase();
  return readCode(s.slice(0, -1), s.slice(-1)) || readCode(s.slice(1), s.charAt(0)); // suit-first forms like "S10"
}
export function rankWords(rank) { return (RANK_LETTERS[LANG] || RANK_LETTERS.en)[rank] || String(rank); }
export function cardWords(code) {
  var m = CARD_CODE.exec(String(code));
  if (!m) return String(code);
  return rankWords(m[1]) + H_SUITS[m[2]];
}
// a card of the joker game's layout (A K Q J 10 9 8 7), as its code, else null
export function normCard(c) {
  var n = cardCode(c);
  return n && H_COLS.indexOf(n.slice(0, -1)) >= 0 ? n : null;
}
export function collectCards(v, out) {
  if (typeof v === "string") { var c = normCard(v); if (c) out[c] = 1; }
  else if (Array.isArray(v)) v.forEach(function (x) { collectCards(x, out); });
  else if (v && typeof v === "object") Object.keys(v).forEach(function (k) {
    if (v[k] === true || v[k] === "up" || v[k] === "face_up") { var c2 = normCard(k); if (c2) out[c2] = 1; }
    collectCards(v[k], out);
  });
  return out;
}
// a card in the page's language: a code or a written card as cardWords writes it, the words a page
// view carries ({"ru": …, "en": …}) in the page's language, anything else as it is
export function cardLabel(c) {
  if (c && typeof c === "object" && typeof c.ru === "string") return c[LANG] || c.ru;
  var n = cardCode(c);
  return n ? cardWords(n) : String(c);
}
export function layoutIndex(c) { return H_ROWS.indexOf(c.slice(-1)) * 8 + H_COLS.indexOf(c.slice(0, -1)); }
export function layoutKey(cards) {
  return cards.slice().sort(function (a, b) { return layoutIndex(a) - layoutIndex(b); }).join(",");
}
// a bet's cards as an action writes them: codes, or the aliases "col:10" / "row:D"
export function targetCards(arg) {
  if (/^col:/.test(arg)) return H_ROWS.map(function (s) { return arg.slice(4) + s; });
  if (/^row:/.test(arg)) return H_COLS.map(function (r) { return r + arg.slice(4); });
  return arg.split(",");
}
