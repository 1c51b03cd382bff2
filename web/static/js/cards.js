/* Playing cards as the joker game's layout names them: its rows, columns, codes and labels. */
// ------------------------------------------------------------------ the joker game's layout
export var H_ROWS = ["S", "H", "D", "C"], H_SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export var H_COLS = ["A", "K", "Q", "J", "10", "9", "8", "7"];
export function normCard(c) {
  if (typeof c !== "string") return null;
  var s = c.trim().toUpperCase().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C");
  var suit = s.slice(-1), rank = s.slice(0, -1);
  if (rank === "T") rank = "10";
  if (H_SUITS[suit] && H_COLS.indexOf(rank) >= 0) return rank + suit;
  suit = s.charAt(0); rank = s.slice(1); // suit-first forms like "S10"
  if (rank === "T") rank = "10";
  if (H_SUITS[suit] && H_COLS.indexOf(rank) >= 0) return rank + suit;
  return null;
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
export function cardLabel(c) { var n = normCard(c); return n ? n.slice(0, -1) + H_SUITS[n.slice(-1)] : String(c); }
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
