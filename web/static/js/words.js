/* The page's words: catalogue look-ups, labels, seat names, actions and answers in words. */
import { CARD_CODE, cardWords } from "./cards.js";
import { W, ctx, firstField, isFromOne, isSeatField } from "./core.js";

var TERM_PREFIX = /^(e_|val_|v_|phase_|b_|shape_)/;
export function has(k) { return Object.prototype.hasOwnProperty.call(W, k); }
export function word(key, fallback) {
  // a game's own word for a key first ("hoggenheimer:banker": the joker game's «банкомет»; a
  // term or an option label a game registered later words its own way: "<game id>:t_<term>")
  var gid = ctx.S && ctx.S.model && ctx.S.model.game && ctx.S.model.game.id;
  function own(k) { return gid && has(gid + ":" + k); }
  if (own(key)) return W[gid + ":" + key];
  if (has(key)) return W[key];
  if (own("t_" + key)) return W[gid + ":t_" + key];
  if (has("t_" + key)) return W["t_" + key];
  // a game's own term, shared by view keys, event kinds and values: "e_round_end" -> "t_round_end"
  var bare = String(key).replace(TERM_PREFIX, "");
  if (bare !== key) {
    if (own("t_" + bare)) return W[gid + ":t_" + bare];
    if (has("t_" + bare)) return W["t_" + bare];
    if (has(bare)) return W[bare];
  }
  // a house-rule option in the view's options
  if (own("opt_" + bare)) return W[gid + ":opt_" + bare];
  if (has("opt_" + bare)) return W["opt_" + bare];
  return fallback !== undefined ? fallback : String(key).replace(/_/g, " ");
}
// a word used as a label — a heading, a field's or a key's name, a badge, a button, a chip's
// caption — is in sentence case whatever the catalogue's case: a game term is also a value
// ("Этап: ставки"), so its word stays lower case there and becomes "Ставки" here
export function label(text) { text = String(text); return text.charAt(0).toUpperCase() + text.slice(1); }
export function gameName(id) { return word("game_" + id, id); }
// a button's or a toast's words for one argument (the action text stays as is): numbers as
// they are, a list item by item, a card code in the page's language ("QH" -> «Д♥» / "Q♥"), else the
// game's word for it ("mushroom" -> "гриб")
export function argLabel(arg) {
  arg = String(arg);
  if (/^-?\d+$/.test(arg)) return arg;
  if (arg.indexOf(",") >= 0) return arg.split(",").map(argLabel).join(", ");
  if (CARD_CODE.test(arg)) return cardWords(arg);
  return word("val_" + arg, arg);
}
// a verb in words: the current game's own word first (doubt's "place" lays cards, skull's a note);
// a verb names a button, a form or a toast's action: a label, in sentence case
export function verbLabel(v) {
  var gid = ctx.S && ctx.S.model && ctx.S.model.game && ctx.S.model.game.id;
  if (gid && has("v_" + gid + "_" + v)) return label(W["v_" + gid + "_" + v]);
  return label(word("v_" + v, v.replace(/_/g, " ")));
}
export function seatName(i) {
  var g = ctx.S && ctx.S.model && ctx.S.model.game;
  if (g && g.seats && g.seats[i] !== undefined) return g.seats[i];
  return word("seat") + " " + (i + 1);
}
// JSON text with object keys sorted: the same value gives the same text whatever its key order
// (the log's seats count from 0; people read names)
export function actionWords(text) {
  var t = String(text || "").split(/\s+/).filter(function (x) { return x.length; });
  if (t.length < 2) return String(text || "");
  var actor = t[0], seats = (ctx.S && ctx.S.model && ctx.S.model.game && ctx.S.model.game.seats) || [];
  var who = actor === "table" ? word("table_action")
    : (/^\d+$/.test(actor) ? seatName(parseInt(actor, 10)) : actor);
  var rest = t.slice(2).map(function (a, i) {
    if (actor === "table" && i === 0 && isSeatField(firstField(t[1])) && /^\d+$/.test(a) && +a < seats.length) return seatName(+a);
    if (actor === "table" && i === 0 && isFromOne(firstField(t[1])) && /^\d+$/.test(a)) return String(+a + 1);
    return argLabel(a);
  }).filter(function (a, i, all) {
    // a value left unknown is not shown; nor is one said twice in a row (the joker game's
    // "turn KD KD": the card and its place on the layout are the same card)
    return a !== "?" && (i === 0 || a !== all[i - 1]);
  });
  return who + ": " + [verbLabel(t[1])].concat(rest).join(" ");
}
// what an accepted action did, in the game's words (the server's "told": each line already
// names who did what), as sentences: «Вера: одна купюра в банк; в банке 1. Раунд 2, начинает Аня»
export function toldWords(told) {
  return told.map(function (x) { return String(x).trim(); }).filter(function (x) { return x.length; })
    .reduce(function (out, x) { return out ? out + (/[.!?…]$/.test(out) ? " " : ". ") + x : x; }, "");
}
// a repeated tap of an accepted action is not a refusal of the player's move: told plainly
export function isBad(j) { return !j.accepted && j.reason !== "repeated"; }
export function outcomeText(j) {
  if (j._no_answer) return word("no_answer");
  if (j.reason === "repeated" && j.message) return j.message;
  // an undo's answer names the action it took back (to the operator who asked only)
  if (j.accepted && j.action === "table undo" && j.detail) return word("undone").replace("%(action)s", actionWords(j.detail));
  // a seat handed to the console or the bots (`table console 2`, seats counted from 1): said as
  // what it does for that seat, not as a verb of the table
  var hand = j.accepted && /^table (console|bot) (\d+|all)$/.exec(j.action || "");
  if (hand) return word("accepted") + ": " + (hand[2] === "all" ? word("all_" + hand[1])
    : word("seat_" + hand[1]).replace("%(n)s", hand[2]).replace("%(name)s", seatName(+hand[2] - 1)));
  // the game's words for what it did say it all («Первый дилер — Борис»): the action's own
  // words (its verb and arguments) only when the game tells nothing of it — never both, so
  // nothing is said twice («Открыта карта A♠ A♠ — 33-я карта: A♠ …»)
  if (j.accepted && j.told && j.told.length && toldWords(j.told)) return word("accepted") + ": " + toldWords(j.told);
  if (j.accepted) return word("accepted") + ": " + actionWords(j.action);
  // the server's message is in the page's language; the English detail is for logs (console)
  if (j.detail && j.detail !== j.message && window.console) console.info("rejected:", j.reason || j.error, j.detail);
  if (j.message) return word("rejected") + ": " + j.message;
  return word("rejected") + " (" + j._status + ")";
}
