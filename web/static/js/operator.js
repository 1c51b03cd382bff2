/* The operator console: the table actions the game waits for (forms from the action schema), the buttons. */
import { KIND, ctx, el, fieldOf, isFromOne, isSeatField, stableJSON } from "./core.js";
import { ask, post, toast } from "./net.js";
import { renderPrompts } from "./status.js";
import { argLabel, isBad, label, outcomeText, seatName, verbLabel, word } from "./words.js";

// ------------------------------------------------------------------ operator console
// a seat typed by a person: its number on screen (from 1) or its name -> the engine's index
// (from 0); anything else is sent as typed, for the engine to refuse in words
export function seatIndex(typed) {
  var seats = (ctx.S.model.game && ctx.S.model.game.seats) || [];
  if (/^\d+$/.test(typed) && +typed >= 1 && +typed <= seats.length) return String(+typed - 1);
  var low = typed.toLowerCase();
  for (var i = 0; i < seats.length; i++) if (seats[i].replace(/\s+/g, "").toLowerCase() === low) return String(i);
  return typed;
}
export function renderOperator() {
  if (KIND !== "operator" || !ctx.S) return;
  var pbox = document.getElementById("prompts");
  if (pbox) { pbox.textContent = ""; renderPrompts(pbox, true); }
  var step = document.getElementById("now-step");
  if (step) step.textContent = nowStep(ctx.S.model);
  var acts = ctx.S.model.actions || [];
  // taking a player out is not among the table's next steps: it has its own folded, red block
  // (far from «Выйти из пульта» at the page's end), each one asked first; voiding the round is
  // the «Аннулировать раунд» button's (asked first too), not a second, unasked form
  var leave = acts.filter(function (a) { return a.verb === "leave"; });
  fillForms(document.getElementById("table-actions"), nextSteps(acts));
  var hint = document.querySelector("#now .hint"); // what manual entry is: beside its forms only
  if (hint) hint.hidden = !nextSteps(acts).length;
  // a game over: what is left to do is the next game, so its form unfolds (once: the operator
  // may fold it again)
  var next = document.getElementById("fold-new");
  if (next && ctx.S.model.over && !next.dataset.opened) { next.open = true; next.dataset.opened = "1"; }
  var fold = document.getElementById("fold-leave");
  if (fold) fold.hidden = !leave.length;
  fillForms(document.getElementById("leave-actions"), leave);
}
// what the table is at now, in a line: the step (phase) and whose turn it is, or that it waits
// for the operator's entry below
function nowStep(m) {
  if (!m.game) return "";
  if (m.over) return word("over") + " · " + word("now_next_game");
  var out = [];
  if (m.view && m.view.phase) out.push(label(word("phase_" + m.view.phase, String(m.view.phase).replace(/_/g, " "))));
  var turn = (m.turn || []).map(function (i) { return seatName(i); });
  if (turn.length) out.push(word("now_turn").replace("%(names)s", turn.join(", ")));
  if (nextSteps(m.actions || []).length) out.push(word("now_yours"));
  else if (!turn.length) out.push(word("now_nothing"));
  return out.join(" · ");
}
function nextSteps(acts) {
  return acts.filter(function (a) { return a.verb !== "leave" && !(a.verb === "void" && !a.args.length); });
}
function fillForms(tbox, acts) {
  if (!tbox) return;
  // the same actions as shown: keep the forms (and whatever the operator is typing in them);
  // an update of the table must not wipe a manual entry half typed
  // (key order does not count: the page's first snapshot comes with its keys sorted, the
  // stream's do not, and a rebuild on that alone replaced the form under the operator's fingers)
  var sig = stableJSON(acts) + "|" + ((ctx.S.model.game && ctx.S.model.game.seats) || []).join(",");
  if (tbox.dataset.sig === sig) return;
  tbox.dataset.sig = sig;
  // other actions changed: rebuild, carrying over what was typed in the forms that remain, and
  // the focus and caret of the field being typed in
  var typed = {}, focused = null;
  tbox.querySelectorAll("form[data-key] [name]").forEach(function (inp) {
    if (inp.value) typed[inp.form.dataset.key + "/" + inp.name] = inp.value;
    if (inp === document.activeElement) {
      focused = { key: inp.form.dataset.key + "/" + inp.name, start: inp.selectionStart, end: inp.selectionEnd };
    }
  });
  tbox.textContent = "";
  if (!acts.length) return; // nothing awaited: the «Сейчас» line says whose turn it is
  acts.forEach(function (a) {
    var form = el("form", "row table-action");
    form.dataset.verb = a.verb;
    form.dataset.key = a.verb + " " + a.args.join(" ");
    if (a.verb === "leave") { leaveForm(form, a); tbox.appendChild(form); return; }
    form.appendChild(el("span", "verb", verbLabel(a.verb)));
    // the player the entry is about when its arguments name none (6100's card played, doubt's
    // cards turned up), as skull's forms name him with the seat in their arguments
    if (typeof a.whose === "number") form.appendChild(el("span", "arg whose", seatName(a.whose)));
    var inputs = [];
    var optional = a.optional || [];
    a.args.forEach(function (arg, i) {
      if (arg === "?") {
        var field = a.fields && a.fields[i];
        // a list field (several serials) is a multi-line box: items one a line, or separated
        // by commas or semicolons (docs/dashboard.md, Manual entry)
        var multi = (a.lists || []).indexOf(field) >= 0;
        var inp = el(multi ? "textarea" : "input"); inp.maxLength = 200; inp.dataset.i = i;
        if (multi) inp.rows = 3;
        inp.required = optional.indexOf(field) < 0; // the game may let this one stay unknown
        inp.placeholder = field ? label(word(field)) : "?"; // a field's name: a label
        var spec = fieldOf(a, i);
        if (spec) inp.dataset.kind = spec.kind || "";
        if (isFromOne(spec)) inp.dataset.fromOne = "1";
        if (spec && spec.spelling) inp.dataset.spelling = spec.spelling;
        if (isSeatField(spec)) inp.placeholder += " (" + word("seat_hint") + ")";
        var want = a.items && a.items[field]; // how many the game expects (doubt's check: the cards laid)
        if (want) inp.placeholder += " — " + word("how_many").replace("%(n)s", want);
        if (!inp.required) { inp.placeholder += " — " + word("blank_unknown"); inp.dataset.optional = "1"; }
        inp.name = field || ("arg" + i);
        inp.title = label(inp.required ? word("required_field") : word("blank_unknown"));
        inp.setAttribute("aria-label", inp.placeholder);
        if (typed[form.dataset.key + "/" + inp.name]) inp.value = typed[form.dataset.key + "/" + inp.name];
        inputs.push(inp); form.appendChild(inp);
      } else {
        var n = parseInt(arg, 10);
        var seatArg = isSeatField(fieldOf(a, i)) && /^\d+$/.test(arg) && ctx.S.model.game && n < ctx.S.model.game.seats.length;
        var numbered = isFromOne(fieldOf(a, i)) && /^\d+$/.test(arg);
        form.appendChild(el("span", "arg", seatArg ? seatName(n) : numbered ? String(n + 1) : argLabel(arg)));
      }
    });
    var btn = el("button", inputs.length ? "primary" : "", inputs.length ? word("manual") : word("send"));
    form.appendChild(btn);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var args = a.args.slice();
      // a list field takes items separated by commas, semicolons or new lines; spaces inside an
      // item are dropped ("Ак 2444841, Ак 2444842"); the server canonicalises serials
      inputs.forEach(function (inp) {
        // card codes ("QC JH KD", "as") are short items: spaces separate them too, and the
        // letters are capitals; a serial keeps its inner spaces out ("Ак 2444841" is one note)
        // (a card field of a deck written in codes; a deck of named pictures takes its names as typed)
        var cards = inp.dataset.kind === "card" && inp.dataset.spelling === "code";
        var upper = cards || (inp.dataset.kind === "slot" && !inp.dataset.fromOne);
        // amounts ("100 500 1000 5000") are separated by spaces too; so are serials when every
        // word holds a digit ("ак2444841 AK2444842"): a word of letters alone is a serial's
        // prefix ("Ак 2444841"), and then the spaces are inside one serial
        var spaced = cards || inp.dataset.kind === "amount";
        var items = inp.value.split(spaced ? /[,;\s]+/ : /[,;\n]+/).reduce(function (out, x) {
          var words = x.trim().split(/\s+/);
          return out.concat(words.length > 1 && words.every(function (w) { return /\d/.test(w); }) ? words : [x]);
        }, []).map(function (x) { return x.replace(/\s+/g, ""); })
          .filter(function (x) { return x.length; })
          .map(function (x) { return upper ? x.toUpperCase() : x; });
        if (inp.dataset.kind === "seat") items = items.map(seatIndex); // typed from 1, or a name
        if (inp.dataset.fromOne) items = items.map(function (x) { return /^\d+$/.test(x) && +x >= 1 ? String(+x - 1) : x; });
        args[+inp.dataset.i] = items.length ? items.join(",") : "?";
      });
      if (form.dataset.busy) return; // its request is on its way: a second tap does nothing
      var text = ["table", a.verb].concat(args).join(" ");
      var url = inputs.length ? "/api/operator/manual" : "/api/operator/action";
      form.dataset.busy = "1";
      post(url, { action: text }).then(function (j) { delete form.dataset.busy; toast(outcomeText(j), isBad(j)); });
    });
    tbox.appendChild(form);
    if (focused) inputs.forEach(function (inp) {
      if (form.dataset.key + "/" + inp.name !== focused.key) return;
      inp.focus();
      try { inp.setSelectionRange(focused.start, focused.end); } catch (e) { /* not a text field */ }
    });
  });
}
// a player taken out of the game: his number and name, and a red «Вывести из игры», asked first
// (one tap must not do it)
function leaveForm(form, a) {
  form.classList.add("leave-row");
  var n = /^\d+$/.test(a.args[0] || "") ? parseInt(a.args[0], 10) : null;
  var who = n === null ? argLabel(a.args[0] || "") : seatName(n);
  form.appendChild(el("span", "leave-who", (n === null ? "" : (n + 1) + ". ") + who));
  form.appendChild(el("button", "danger", word("leave_button")));
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (form.dataset.busy) return;
    if (!ask(word("confirm_leave").replace("%(name)s", who))) return;
    form.dataset.busy = "1";
    post("/api/operator/action", { action: ["table", "leave"].concat(a.args).join(" ") })
      .then(function (j) { delete form.dataset.busy; toast(outcomeText(j), isBad(j)); });
  });
}
export function wireOperator() {
  document.querySelectorAll("[data-op]").forEach(function (b) {
    b.addEventListener("click", function () {
      if (b.dataset.busy) return; // its request is on its way: a second tap does nothing
      if (b.dataset.confirm && !ask(b.dataset.confirm)) return;
      b.dataset.busy = "1";
      post("/api/operator/" + b.dataset.op).then(function (j) {
        delete b.dataset.busy;
        if (b.dataset.op === "end" && j.ended) { location.reload(); return; }
        var r = document.getElementById("op-result"); if (r) r.textContent = outcomeText(j);
        toast(outcomeText(j), isBad(j));
      });
    });
  });
  var pf = document.getElementById("prompt-form");
  if (pf) pf.addEventListener("submit", function (e) {
    e.preventDefault();
    var t = pf.elements.text.value.trim();
    if (t) post("/api/operator/prompt", { text: t }).then(function () { pf.reset(); });
  });
  // a seat played from the console: «Взять на пульт» sends `table console N`, «Отдать ботам»
  // `table bot N`; the move field sends what was typed with the seat, and the server makes it
  // `table as N …` (or takes a typed `table bot N`, `bot`, … as it is: ControlMixin.console_move)
  // (seats counted from 1, as on every screen; the server's refusal says why in words)
  var cs = document.getElementById("console-seat-form");
  if (cs) {
    var send = function (body, done) {
      if (cs.dataset.busy) return;
      cs.dataset.busy = "1";
      post("/api/operator/action", body).then(function (j) {
        delete cs.dataset.busy; toast(outcomeText(j), isBad(j)); if (done && !isBad(j)) done();
      });
    };
    cs.querySelectorAll("[data-seat-op]").forEach(function (b) {
      b.addEventListener("click", function () {
        send({ action: "table " + b.dataset.seatOp + " " + cs.elements.seat.value });
      });
    });
    cs.addEventListener("submit", function (e) {
      e.preventDefault();
      var move = cs.elements.move.value.trim().replace(/\s+/g, " ");
      if (move) send({ action: move, seat: parseInt(cs.elements.seat.value, 10) }, function () { cs.elements.move.value = ""; });
    });
  }
  var sel = document.getElementById("game-select");
  function showOpts() {
    document.querySelectorAll("fieldset.opts").forEach(function (f) { f.hidden = f.dataset.game !== sel.value; });
  }
  if (sel) { sel.addEventListener("change", showOpts); showOpts(); }
  var ng = document.getElementById("new-game");
  if (ng) ng.addEventListener("submit", function (e) {
    // sent once: the page is on its way to the new game (a second tap neither asks nor sends)
    if (ng.dataset.sent) { e.preventDefault(); return; }
    var b = ng.querySelector("[data-confirm]");
    // a game that has ended is not cut short by a new one: no question then
    var ended = ctx.S.model && ctx.S.model.over;
    if (b && !ended && !ask(b.dataset.confirm)) { e.preventDefault(); return; }
    ng.dataset.sent = "1";
  });
  // a page brought back by the browser's Back button is a fresh form again
  if (ng) window.addEventListener("pageshow", function () { delete ng.dataset.sent; });
}
