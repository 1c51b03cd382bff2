/* The page's shared state and small helpers: the boot JSON the server embeds, the live snapshot
 * (ctx.S: {model, status, pending, prompts}), the game's action schema, DOM building. */

var bootEl = document.getElementById("boot");
/** the JSON the page starts from (companion/dashboard/common.boot), or null on a page without it */
export var boot = bootEl ? JSON.parse(bootEl.textContent) : null;
/** the page's words (companion/dashboard/i18n.js_words) */
export var W = (boot && boot.words) || {};
export var KIND = boot ? boot.kind : null;
/** the live state: ctx.S is the latest snapshot (set by the stream, read by every renderer) */
export var ctx = { S: (boot && boot.snapshot) || null };
export var HIDE_KEYS = { seats: 1, dealer: 1, turn: 1, game: 1, version: 1, you: 1, result: 1, over: 1, table_task: 1 };
// The game's schema (the server's GameSpec.schema(): ctx.S.model.schema) says what each action field
// is — a seat, a place on the table, a card, a serial, an amount — which of the view's keys hold
// seats, and which of the page's game parts ("widgets") the game has; the page asks it instead
// of knowing field names or game ids.
export function schema() { return (ctx.S && ctx.S.model && ctx.S.model.schema) || { verbs: {}, widgets: [], seat_keys: [] }; }
export function hasWidget(name) { return schema().widgets.indexOf(name) >= 0; }
// view and event keys whose whole numbers are seats (0-based in the engine): shown as names, since
// a bare "1" reads as the first seat on screen (seats are numbered from 1 there)
export function isSeatKey(key) { return schema().seat_keys.indexOf(key) >= 0; }
// a field names a seat: shown by name, typed from 1 or as the name
export function isSeatField(f) { return !!f && f.kind === "seat"; }
// a place the engine counts from 0 (the lottery's prize slot): people count from 1, so it is
// shown and typed from 1 (the joker game's layout slot is a card code)
export function isFromOne(f) { return !!f && f.kind === "slot" && f.type === "int"; }
// the schema of argument i of an action of the model ("fields" and "schema" from the server)
export function fieldOf(a, i) { return (a.schema || [])[i] || null; }
// the schema of the first argument of a table verb (its text form "table <verb> <arg> …")
export function firstField(verb) { var v = schema().verbs[verb]; return v && v.length ? v[0] : null; }

// ------------------------------------------------------------------ DOM
export function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
export function stableJSON(v) {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return "[" + v.map(stableJSON).join(",") + "]";
  return "{" + Object.keys(v).sort().map(function (k) { return JSON.stringify(k) + ":" + stableJSON(v[k]); }).join(",") + "}";
}
export var LANG = document.documentElement.lang || "ru";
