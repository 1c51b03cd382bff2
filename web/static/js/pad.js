/* The seat pad: the seat's legal actions as big buttons, steppers and choice lists. */
import { boardKnown, boardOf, loadBoard } from "./board.js";
import { KIND, LANG, ctx, el, hasWidget, schema, stableJSON } from "./core.js";
import { post, toast } from "./net.js";
import { argLabel, isBad, outcomeText, seatName, verbLabel, word } from "./words.js";

// ------------------------------------------------------------------ seat pad
export var stepper = {}; // verb -> current value
var offeredBefore = {}; // verb -> true: offered by the pad as last built
var pendingTimer = null;
export var lastPending = null; // the count this page last showed the table, until the game moves on
export function clearPending() { lastPending = null; }
export function sendPending(count) {
  clearTimeout(pendingTimer);
  lastPending = count;
  pendingTimer = setTimeout(function () { post("/api/seat/pending", { count: count }); }, 120);
}
export function act(text) {
  post("/api/seat/action", { action: text }).then(function (j) { toast(outcomeText(j), isBad(j)); });
}
// the table's stake limits when its view gives them ([min, max] chips), else null
export function stakeRange(m) {
  var lim = m && m.view && m.view.limits;
  if (!lim || typeof lim.min_stake !== "number" || typeof lim.max_stake !== "number") return null;
  if (lim.max_stake <= lim.min_stake || lim.max_stake - lim.min_stake > 500) return null;
  return [lim.min_stake, lim.max_stake];
}
// a stepper over ``counts`` for ``verb`` (a stake, a number of cards): its label, − value +;
// the value is stepper[verb], and onStep() runs after each step
export function stakeStepper(cls, verb, counts, onStep) {
  var box = el("div", cls);
  box.appendChild(el("span", "step-label", verbLabel(verb)));
  var less = el("button", "step", "−"); less.setAttribute("aria-label", "−");
  var shown = el("output", "step-val", stepper[verb]);
  var more = el("button", "step", "+"); more.setAttribute("aria-label", "+");
  [less, shown, more].forEach(function (x) { box.appendChild(x); });
  function step(d) {
    var i = counts.indexOf(stepper[verb]) + d;
    if (i < 0 || i >= counts.length) return;
    stepper[verb] = counts[i];
    onStep();
  }
  less.addEventListener("click", function () { step(-1); });
  more.addEventListener("click", function () { step(1); });
  return { box: box, shown: shown };
}

export function renderPad() {
  var pad = document.getElementById("pad");
  if (!pad || KIND !== "seat" || !ctx.S) return;
  var m = ctx.S.model;
  var seat = m.viewer.seat;
  // a game's own pad parts (the schema's widgets: the joker game's bet grid) come with its board
  // module: the pad is built once that is in, or known missing (then without them)
  var gid = m.game && m.game.id;
  if (gid && schema().widgets.length && !boardKnown(gid)) { loadBoard(gid).then(function () { renderPad(); }); return; }
  var widgets = (gid && boardOf(gid).widgets) || {};
  // the same actions: keep the pad (a rebuild under a finger lost a tap on "+" when the
  // table's echo of the pending count arrived between two taps)
  // (what the game asks of this seat at the table counts too: skull's reveal changes no button,
  // only the words «переворачивайте купюры»)
  var sig = stableJSON([seat, seatName(seat), m.over, m.actions || [], (m.view && m.view.table_task) || null, m.waiting || null]);
  if (pad.dataset.sig === sig) return;
  pad.dataset.sig = sig;
  pad.textContent = "";
  pad.classList.remove("has-betgrid"); // the bet grid widens the pad for its cells
  pad.appendChild(el("h2", null, (seat + 1) + ". " + seatName(seat)));
  var acts = (m.actions || []).filter(function (a) { return a.args.indexOf("?") < 0; });
  var offered = offeredBefore; // the verbs the pad offered last time it was built
  offeredBefore = {};
  acts.forEach(function (a) { offeredBefore[a.verb] = true; });
  if (!acts.length) {
    // the seat's move is a card or note the camera (or the operator) reads: it is his turn all
    // the same, and "waiting for the others" would be wrong
    var observed = (m.actions || []).length > 0;
    var task = m.view && m.view.table_task; // what the game says this seat does at the table now
    // what is awaited, in the server's words: the other players by name, or the table's own
    // task (the camera reading a card, the operator choosing the first dealer)
    var waiting = m.waiting && (m.waiting[LANG] || m.waiting.ru);
    // a table that reads with no camera (companion dashboard: the camera "unused") names the
    // operator alone where the game has such words ("task_<task>_nocam")
    var noCamera = ((ctx.S.status || {}).camera || {}).state === "unused";
    var taskWords = task && ((noCamera && word("task_" + task + "_nocam", "")) || word("task_" + task));
    pad.appendChild(el("p", "muted wait", m.over ? word("over")
      : (task ? taskWords : (observed ? word("your_turn_table") : (waiting || word("wait"))))));
    if (observed && !m.over) {
      // the seat may declare the move now (like its button box); the face follows from the table
      var declare = el("div", "pad-row");
      (m.actions || []).forEach(function (a) {
        var b = el("button", "pad-btn verb-" + a.verb, verbLabel(a.verb));
        b.addEventListener("click", function () { act(a.text); });
        declare.appendChild(b);
      });
      pad.appendChild(declare);
    }
    return;
  }
  var groups = {}, order = [];
  acts.forEach(function (a) { if (!groups[a.verb]) { groups[a.verb] = []; order.push(a.verb); } groups[a.verb].push(a); });
  var betGrid = hasWidget("bet_grid") && typeof widgets.bet_grid === "function" && groups.bet && groups.bet.every(function (a) {
    return a.args.length === 2 && /^\d+$/.test(a.args[0]);
  });
  if (betGrid) order = ["bet"].concat(order.filter(function (v) { return v !== "bet"; })); // the grid first, then the bets to take back
  order.forEach(function (verb) {
    var g = groups[verb];
    if (betGrid && verb === "bet") { widgets.bet_grid(pad, m, seat, verb, g); return; }
    var numeric = g.length > 1 && g.every(function (a) { return a.args.length === 1 && /^-?\d+$/.test(a.args[0]); });
    if (g.every(function (a) { return a.labels && Object.keys(a.labels).length; })) {
      // a choice made by id (the joker game's bet to take back): the game words each choice
      // («5 на Д♥ (ставка №3)») and the pad lists them, one button each, under the verb
      var list = el("div", "choice-list verb-" + verb);
      list.appendChild(el("span", "step-label", verbLabel(verb)));
      g.forEach(function (a) {
        var text = Object.keys(a.labels).map(function (f) { return a.labels[f][LANG] || a.labels[f].ru; }).join(" · ");
        var b = el("button", "pad-btn choice verb-" + verb, text);
        b.dataset.action = a.text;
        b.addEventListener("click", function () { act(a.text); });
        list.appendChild(b);
      });
      pad.appendChild(list);
    } else if (numeric) {
      var values = g.map(function (a) { return parseInt(a.args[0], 10); }).sort(function (a, b) { return a - b; });
      // a count offered anew (the seat's turn to bid came round again) starts from the lowest
      // legal one, not from the last round's; while it stays offered, the count is kept
      var cur = offered[verb] ? stepper[verb] : undefined;
      if (cur === undefined) { // a reloaded page picks up the count the table already shows
        var shown = ctx.S.pending && ctx.S.pending[String(seat)];
        if (typeof shown === "number") cur = shown;
      }
      if (values.indexOf(cur) < 0) cur = values[0];
      stepper[verb] = cur;
      var box = el("div", "stepper");
      box.appendChild(el("span", "step-label", verbLabel(verb)));
      var minus = el("button", "step", "−"); minus.setAttribute("aria-label", "−");
      var num = el("output", "step-val", cur);
      var plus = el("button", "step", "+"); plus.setAttribute("aria-label", "+");
      var ok = el("button", "primary", word("send"));
      ok.dataset.action = seat + " " + verb + " " + cur;
      function move(d) {
        var i = values.indexOf(stepper[verb]) + d;
        if (i < 0 || i >= values.length) return;
        stepper[verb] = values[i];
        num.textContent = stepper[verb];
        ok.dataset.action = seat + " " + verb + " " + stepper[verb];
        sendPending(stepper[verb]);
      }
      minus.addEventListener("click", function () { move(-1); });
      plus.addEventListener("click", function () { move(1); });
      ok.addEventListener("click", function () { act(ok.dataset.action); });
      [minus, num, plus, ok].forEach(function (x) { box.appendChild(x); });
      pad.appendChild(box);
    } else if (g.length === 1 && g[0].args.length === 1 && /^\d+(,\d+)+$/.test(g[0].args[0])) {
      // a list of amounts (the lottery banker's spread over the prizes): the engine suggests
      // one; the player may change it before sending (the engine checks the sum and the rules)
      var form = el("form", "row spread");
      form.appendChild(el("span", "step-label", verbLabel(verb)));
      var amounts = el("input"); amounts.value = g[0].args[0]; amounts.inputMode = "numeric";
      amounts.setAttribute("aria-label", verbLabel(verb)); amounts.maxLength = 80;
      form.appendChild(amounts);
      form.appendChild(el("button", "primary", word("send")));
      form.addEventListener("submit", function (e) {
        e.preventDefault();
        var raw = amounts.value.trim();
        var list = raw.split(/[\s,;]+/).filter(function (x) { return x.length; });
        // a negative amount is a number, but not one a spread can take: say that, by the
        // form's name, rather than "type numbers"
        var negative = list.filter(function (x) { return /^[-\u2212\u2013]\d+$/.test(x); })[0];
        if (negative) {
          toast(word("rejected") + ": " + word("amount_negative").replace("%(field)s", verbLabel(verb))
            .replace("%(value)s", "\u2212" + negative.slice(1)), true);
          return;
        }
        if (!list.length || list.some(function (x) { return !/^\d+$/.test(x); })) {
          toast(word("rejected") + ": " + word("amounts_hint"), true); // said, not silently dropped
          return;
        }
        act(seat + " " + verb + " " + list.join(","));
      });
      pad.appendChild(form);
    } else if (g.length > 1 && g.every(function (a) { return a.args.length === 2 && /^\d+$/.test(a.args[0]); })
               && (new Set(g.map(function (a) { return a.args[0]; })).size > 1 || stakeRange(m))) {
      // a count and a choice ("lay 3 cards as mushrooms"): a stepper for the count and one
      // button per choice, instead of one button per pair (doubt's lead offered 64)
      var counts = Array.from(new Set(g.map(function (a) { return parseInt(a.args[0], 10); }))).sort(function (a, b) { return a - b; });
      var legal = {};
      g.forEach(function (a) { legal[a.args[0] + " " + a.args[1]] = a.text; });
      var range = counts.length === 1 ? stakeRange(m) : null;
      if (range) {
        // one stake offered, the table's limits say which others the engine takes (a game whose
        // view gives limits; the joker game's bets have their grid): a stake stepper over them, every target with every stake
        counts = [];
        for (var v = range[0]; v <= range[1]; v++) counts.push(v);
        g.forEach(function (a) {
          counts.forEach(function (v) { legal[v + " " + a.args[1]] = seat + " " + verb + " " + v + " " + a.args[1]; });
        });
      }
      var n0 = stepper[verb];
      if (counts.indexOf(n0) < 0) n0 = counts[0];
      stepper[verb] = n0;
      var counted = stakeStepper("stepper", verb, counts, function () { refresh(); });
      var shownN = counted.shown;
      pad.appendChild(counted.box);
      var choices = el("div", "pad-row");
      var buttons = [];
      Array.from(new Set(g.map(function (a) { return a.args[1]; }))).forEach(function (c) {
        var b = el("button", "pad-btn verb-" + verb, argLabel(c));
        b.dataset.choice = c;
        b.addEventListener("click", function () {
          var text = legal[stepper[verb] + " " + c];
          if (text) act(text);
        });
        buttons.push(b);
        choices.appendChild(b);
      });
      var refresh = function () {
        shownN.textContent = stepper[verb];
        buttons.forEach(function (b) { b.disabled = !legal[stepper[verb] + " " + b.dataset.choice]; });
      };
      refresh();
      pad.appendChild(choices);
    } else {
      var row = el("div", "pad-row");
      g.forEach(function (a) {
        var b = el("button", "pad-btn verb-" + verb, verbLabel(verb) + (a.args.length ? " " + a.args.map(argLabel).join(" ") : ""));
        b.dataset.action = a.text;
        b.addEventListener("click", function () { act(a.text); });
        row.appendChild(b);
      });
      pad.appendChild(row);
    }
  });
}
