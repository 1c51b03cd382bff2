/* Table Companion dashboard: renders the page model from the server and keeps it live.
 *
 * One EventSource per page (/stream?view=...). The first message is a full snapshot; then
 * versioned deltas ({base, version, set, del}). A delta that does not chain, a "reset", or the page
 * becoming visible again -> reconnect for a fresh snapshot. Hidden pages close their stream (frees
 * one of the browser's six HTTP/1.1 connections per host).
 * Everything is built with textContent / DOM nodes: no server string is parsed as HTML.
 */
(function () {
  "use strict";
  var bootEl = document.getElementById("boot");
  if (!bootEl) return;
  var boot = JSON.parse(bootEl.textContent);
  var W = boot.words || {};
  var KIND = boot.kind;
  var S = null; // {model, status, pending, prompts}
  if (boot.snapshot) S = boot.snapshot;
  var es = null;
  var HIDE_KEYS = { seats: 1, dealer: 1, turn: 1, game: 1, version: 1, you: 1, result: 1, over: 1, table_task: 1 };
  // The game's schema (the server's GameSpec.schema(): S.model.schema) says what each action field
  // is — a seat, a place on the table, a card, a serial, an amount — which of the view's keys hold
  // seats, and which of the page's game parts ("widgets") the game has; the page asks it instead
  // of knowing field names or game ids.
  function schema() { return (S && S.model && S.model.schema) || { verbs: {}, widgets: [], seat_keys: [] }; }
  function hasWidget(name) { return schema().widgets.indexOf(name) >= 0; }
  // view and event keys whose whole numbers are seats (0-based in the engine): shown as names, since
  // a bare "1" reads as the first seat on screen (seats are numbered from 1 there)
  function isSeatKey(key) { return schema().seat_keys.indexOf(key) >= 0; }
  // a field names a seat: shown by name, typed from 1 or as the name
  function isSeatField(f) { return !!f && f.kind === "seat"; }
  // a place the engine counts from 0 (the lottery's prize slot): people count from 1, so it is
  // shown and typed from 1 (the joker game's layout slot is a card code)
  function isFromOne(f) { return !!f && f.kind === "slot" && f.type === "int"; }
  // the schema of argument i of an action of the model ("fields" and "schema" from the server)
  function fieldOf(a, i) { return (a.schema || [])[i] || null; }
  // the schema of the first argument of a table verb (its text form "table <verb> <arg> …")
  function firstField(verb) { var v = schema().verbs[verb]; return v && v.length ? v[0] : null; }

  // ------------------------------------------------------------------ helpers
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  var TERM_PREFIX = /^(e_|val_|v_|phase_|b_|shape_)/;
  function has(k) { return Object.prototype.hasOwnProperty.call(W, k); }
  function word(key, fallback) {
    // a game's own word for a key first ("hoggenheimer:banker": the joker game's «банкомет»)
    var gid = S && S.model && S.model.game && S.model.game.id;
    if (gid && has(gid + ":" + key)) return W[gid + ":" + key];
    if (has(key)) return W[key];
    if (has("t_" + key)) return W["t_" + key];
    // a game's own term, shared by view keys, event kinds and values: "e_round_end" -> "t_round_end"
    var bare = String(key).replace(TERM_PREFIX, "");
    if (bare !== key) {
      if (has("t_" + bare)) return W["t_" + bare];
      if (has(bare)) return W[bare];
    }
    if (has("opt_" + bare)) return W["opt_" + bare]; // a house-rule option in the view's options
    return fallback !== undefined ? fallback : String(key).replace(/_/g, " ");
  }
  // a word used as a label — a heading, a field's or a key's name, a badge, a button, a chip's
  // caption — is in sentence case whatever the catalogue's case: a game term is also a value
  // ("Этап: ставки"), so its word stays lower case there and becomes "Ставки" here
  function label(text) { text = String(text); return text.charAt(0).toUpperCase() + text.slice(1); }
  function gameName(id) { return word("game_" + id, id); }
  var SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  // a button's or a toast's words for one argument (the action text stays as is): numbers as
  // they are, a list item by item, a card code with its suit sign ("10H" -> "10♥"), else the
  // game's word for it ("mushroom" -> "гриб")
  function argLabel(arg) {
    arg = String(arg);
    if (/^-?\d+$/.test(arg)) return arg;
    if (arg.indexOf(",") >= 0) return arg.split(",").map(argLabel).join(", ");
    var card = /^(10|[2-9AKQJ])([SHDC])$/.exec(arg);
    if (card) return card[1] + SUIT_SIGNS[card[2]];
    return word("val_" + arg, arg);
  }
  // a verb in words: the current game's own word first (doubt's "place" lays cards, skull's a note);
  // a verb names a button, a form or a toast's action: a label, in sentence case
  function verbLabel(v) {
    var gid = S && S.model && S.model.game && S.model.game.id;
    if (gid && has("v_" + gid + "_" + v)) return label(W["v_" + gid + "_" + v]);
    return label(word("v_" + v, v.replace(/_/g, " ")));
  }
  function seatName(i) {
    var g = S && S.model && S.model.game;
    if (g && g.seats && g.seats[i] !== undefined) return g.seats[i];
    return word("seat") + " " + (i + 1);
  }
  // JSON text with object keys sorted: the same value gives the same text whatever its key order
  function stableJSON(v) {
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return "[" + v.map(stableJSON).join(",") + "]";
    return "{" + Object.keys(v).sort().map(function (k) { return JSON.stringify(k) + ":" + stableJSON(v[k]); }).join(",") + "}";
  }
  // an action request carries the table version the page showed ("seen"): the referee refuses a
  // second tap of the same action, and an undo or void of a table that changed meanwhile
  var SEEN_URLS = /\/api\/(seat\/action|operator\/(action|manual|undo|void))$/;
  var inflight = {}; // the same request while its answer is awaited is not sent twice
  function post(url, body) {
    body = body || {};
    if (SEEN_URLS.test(url) && body.seen === undefined && S && S.model && typeof S.model.version === "number") body.seen = S.model.version;
    var key = url + " " + JSON.stringify(body);
    if (inflight[key]) return inflight[key];
    var p = fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": boot.csrf },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) { j._status = r.status; return j; });
    }, function () {
      // no answer at all (the box restarting, Wi-Fi gone): say so; the action may or may not
      // have reached the table, so the words ask to look before repeating it
      return { _status: 0, _no_answer: true };
    }).then(function (j) { delete inflight[key]; return j; });
    inflight[key] = p;
    return p;
  }
  // A question asked with window.confirm holds the page until it is answered; a tap made
  // meanwhile (a double tap's second) is delivered only after it closes, and would ask again or
  // act twice. Such taps carry the time they were made (event.timeStamp): any click made before
  // the last question closed is dropped, in the capture phase, before a button or form sees it.
  var askedUntil = -1;
  function ask(message) {
    try { return window.confirm(message); } finally { askedUntil = performance.now(); }
  }
  window.addEventListener("click", function (e) {
    if (e.timeStamp <= askedUntil) { e.preventDefault(); e.stopImmediatePropagation(); }
  }, true);
  function toast(text, bad) {
    var t = document.getElementById("toast");
    if (!t) { t = el("div", "toast"); t.id = "toast"; t.setAttribute("role", "status"); document.body.appendChild(t); }
    t.textContent = text;
    t.className = "toast show" + (bad ? " bad" : "");
    document.body.classList.add("toasting");
    clearTimeout(toast._t);
    // a rejection stays long enough to read its reason (the accepted line is a confirmation)
    toast._t = setTimeout(function () { t.className = "toast"; document.body.classList.remove("toasting"); }, bad ? 5000 : 2600);
  }
  // an action's text in words: "1 bid 2" -> "Борис: Ставка 2", "table dealer 1" -> "Стол: … Борис"
  // (the log's seats count from 0; people read names)
  function actionWords(text) {
    var t = String(text || "").split(/\s+/).filter(function (x) { return x.length; });
    if (t.length < 2) return String(text || "");
    var actor = t[0], seats = (S && S.model && S.model.game && S.model.game.seats) || [];
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
  // names who did what), as sentences: «Вера: одна купюра в банк; в банке 1. Раунд 2, дилер Аня»
  function toldWords(told) {
    return told.map(function (x) { return String(x).trim(); }).filter(function (x) { return x.length; })
      .reduce(function (out, x) { return out ? out + (/[.!?…]$/.test(out) ? " " : ". ") + x : x; }, "");
  }
  // a repeated tap of an accepted action is not a refusal of the player's move: told plainly
  function isBad(j) { return !j.accepted && j.reason !== "repeated"; }
  function outcomeText(j) {
    if (j._no_answer) return word("no_answer");
    if (j.reason === "repeated" && j.message) return j.message;
    // an undo's answer names the action it took back (to the operator who asked only)
    if (j.accepted && j.action === "table undo" && j.detail) return word("accepted") + ": " + actionWords(j.action) + " — " + actionWords(j.detail);
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

  // ------------------------------------------------------------------ generic value rendering
  // a value the game words in both languages ({"ru": …, "en": …}, a page view's words): the
  // page's language
  function isWords(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.ru === "string"
      && typeof v.en === "string" && Object.keys(v).length === 2;
  }
  var CARD_CODE = /^(10|[2-9AKQJ])([SHDC])$/;
  function scalar(key, v) {
    if (v === null || v === undefined) return "—";
    if (isWords(v)) return v[LANG] || v.ru;
    if (typeof v === "boolean") return v ? word("yes") : word("no");
    if (typeof v === "string") {
      if (key === "game" && has("game_" + v)) return W["game_" + v];
      if (key === "shape" && has("shape_" + v)) return W["shape_" + v]; // a bet's shape (hoggenheimer)
      var card = CARD_CODE.exec(v); // a card code reads as on the buttons and toasts: "8H" -> "8♥"
      if (card) return card[1] + SUIT_SIGNS[card[2]];
      return word("val_" + v, v);
    }
    if (typeof v === "number" && isSeatKey(key) && Number.isInteger(v) && S.model.game && v >= 0 && v < S.model.game.seats.length) return seatName(v);
    // probabilities and other fractions: three significant digits, in the page's language
    if (typeof v === "number" && !Number.isInteger(v)) return v.toLocaleString(document.documentElement.lang || undefined, {maximumSignificantDigits: 3});
    return String(v);
  }
  function isScalar(v) { return v === null || typeof v !== "object" || isWords(v); }
  // "shape_ru" and the like: a game's own Russian copy of a value the page already words in its
  // language — never shown (on an English page it would be Russian, on a Russian one twice)
  function shown(k) { return !/_ru$/.test(k); }
  function compact(key, v) { // deep values as words, never as raw JSON
    if (isScalar(v)) return scalar(key, v);
    if (Array.isArray(v)) return v.map(function (x) { return compact(key, x); }).join(", ");
    return Object.keys(v).filter(shown).map(function (k) { return label(word(k)) + " " + compact(k, v[k]); }).join("; ");
  }
  function renderValue(key, v, depth) {
    if (isScalar(v)) return el("span", "val", scalar(key, v));
    if (Array.isArray(v)) {
      if (v.length === 0) return el("span", "val muted", "—");
      if (v.every(isScalar)) return el("span", "val", v.map(function (x) { return scalar(key, x); }).join(", "));
      if (v.every(function (x) { return x && typeof x === "object" && !Array.isArray(x); }) && depth < 3) {
        var cols = [];
        v.forEach(function (row) { Object.keys(row).filter(shown).forEach(function (k) { if (cols.indexOf(k) < 0) cols.push(k); }); });
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
    Object.keys(v).filter(shown).forEach(function (k) {
      if (k === "game" && S && S.model && S.model.game && v[k] === S.model.game.id) return; // the page says which game
      dl.appendChild(el("dt", null, label(word(k))));
      var dd = el("dd"); dd.appendChild(renderValue(k, v[k], depth + 1)); dl.appendChild(dd);
    });
    return dl;
  }

  // ------------------------------------------------------------------ icons
  // Inline SVG, not the 🌹/💀 emoji: a phone or a Debian Chromium without a colour emoji font
  // would draw those as empty boxes.
  var SVG_NS = "http://www.w3.org/2000/svg";
  var ICONS = {
    rose: [["path", { d: "M8 8.5v6.5", stroke: "#2e7d32", "stroke-width": "1.6", fill: "none" }],
           ["path", { d: "M8 12.2c-2.2.1-3.4-1-3.9-2.6 1.7-.1 3.1.7 3.9 2.6z", fill: "#43a047" }],
           ["circle", { cx: "8", cy: "5.4", r: "4.1", fill: "#d32f2f" }],
           ["path", { d: "M5.9 5.6a2.1 2.1 0 0 1 4.2 0M7 4.2a1.2 1.2 0 0 1 2 .9", stroke: "#8e0000", "stroke-width": ".9", fill: "none" }]],
    skull: [["path", { d: "M8 1.3c-3.6 0-6.1 2.4-6.1 5.7 0 2 1 3.4 2.6 4.1v2.6h7v-2.6c1.6-.7 2.6-2.1 2.6-4.1 0-3.3-2.5-5.7-6.1-5.7z", fill: "#f3f0e6" }],
            ["circle", { cx: "5.6", cy: "7.3", r: "1.55", fill: "#2b2b2b" }],
            ["circle", { cx: "10.4", cy: "7.3", r: "1.55", fill: "#2b2b2b" }],
            ["path", { d: "M7.2 10.6h1.6L8 9.2z", fill: "#2b2b2b" }],
            ["path", { d: "M6.3 13.7v-1.6M8 13.7v-1.6M9.7 13.7v-1.6", stroke: "#2b2b2b", "stroke-width": ".8" }]]
  };
  function noteIcon(role) {
    var svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 16 16");
    svg.setAttribute("width", "18"); svg.setAttribute("height", "18");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("class", "icon icon-" + role);
    (ICONS[role] || []).forEach(function (part) {
      var e = document.createElementNS(SVG_NS, part[0]);
      Object.keys(part[1]).forEach(function (k) { e.setAttribute(k, part[1][k]); });
      svg.appendChild(e);
    });
    return svg;
  }

  // ------------------------------------------------------------------ seats
  var NOTE_KEYS = /^(face_down|on_table|placed|down)$/;
  function renderSeats(m) {
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
      var p = S.pending && S.pending[String(i)];
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

  // ------------------------------------------------------------------ the joker game's layout
  var H_ROWS = ["S", "H", "D", "C"], H_SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var H_COLS = ["A", "K", "Q", "J", "10", "9", "8", "7"];
  function normCard(c) {
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
  function collectCards(v, out) {
    if (typeof v === "string") { var c = normCard(v); if (c) out[c] = 1; }
    else if (Array.isArray(v)) v.forEach(function (x) { collectCards(x, out); });
    else if (v && typeof v === "object") Object.keys(v).forEach(function (k) {
      if (v[k] === true || v[k] === "up" || v[k] === "face_up") { var c2 = normCard(k); if (c2) out[c2] = 1; }
      collectCards(v[k], out);
    });
    return out;
  }
  function cardLabel(c) { var n = normCard(c); return n ? n.slice(0, -1) + H_SUITS[n.slice(-1)] : String(c); }
  function renderJokerLayout(view) {
    var box = el("div", "hog");
    box.appendChild(el("h3", null, word("layout")));
    var grid = Array.isArray(view.layout) && view.layout.length === 4 ? view.layout : null;
    var tbl = el("table", "hog-grid");
    var head = el("tr"); head.appendChild(el("th"));
    H_COLS.forEach(function (c) { head.appendChild(el("th", null, c)); });
    tbl.appendChild(head);
    H_ROWS.forEach(function (s, r) {
      var tr = el("tr");
      tr.appendChild(el("th", "suit s-" + s, H_SUITS[s]));
      H_COLS.forEach(function (rank, c) {
        var cell = grid && grid[r] && grid[r][c] ? grid[r][c] : {};
        var card = cell.card ? normCard(cell.card) : null;
        var td = el("td", card ? "up s-" + card.slice(-1) : "down", card ? cardLabel(card) : "");
        var nb = Array.isArray(cell.bets) ? cell.bets.length : 0;
        if (nb) td.appendChild(el("span", "bet-dot", nb));
        td.title = rank + H_SUITS[s] + (nb ? " · " + word("bets") + ": " + nb : "");
        tr.appendChild(td);
      });
      tbl.appendChild(tr);
    });
    box.appendChild(tbl);
    var legend = el("p", "muted odds-legend");
    legend.textContent = [1, 2, 4, 8].map(function (k) {
      return k + " " + word("n_cards") + " → " + k + ":1 (" + word("chance") + " 1/" + (k + 1) + ")";
    }).join(" · ");
    box.appendChild(legend);
    if (Array.isArray(view.bets) && view.bets.length) {
      box.appendChild(el("h3", null, word("bets")));
      var ul = el("ul", "bets");
      view.bets.forEach(function (b) {
        var cards = Array.isArray(b.cards) ? b.cards : [];
        var k = cards.length || 1;
        var li = el("li");
        // the bet's number, as the history and the «take back» choices name it («ставка №3»)
        if (typeof b.id === "number") li.appendChild(el("span", "bet-no", "№" + b.id));
        li.appendChild(el("b", null, typeof b.seat === "number" ? seatName(b.seat) : ""));
        li.appendChild(el("span", null, (b.shape ? word("shape_" + b.shape, b.shape) + " " : "") + cards.map(cardLabel).join(" ")));
        if (b.stake !== undefined) li.appendChild(el("span", "chip", word("stake") + " " + b.stake));
        li.appendChild(el("span", "chip odds", (b.payout || k + ":1") + " · " + word("chance") + " " + (b.probability || "1/" + (k + 1))));
        // how many of the bet's cards are turned face up so far: «открыто 1 из 2»
        if (typeof b.up === "number") li.appendChild(el("span", "chip", word("up_of").replace("%(n)s", b.up).replace("%(k)s", k)));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    return box;
  }

  // the game-specific parts of a page, by the names the game's schema lists ("widgets"): each renders
  // from the view and takes the view keys it shows out of the generic box
  var WIDGETS = {
    joker_layout: { render: renderJokerLayout, keys: ["bets", "rows", "columns", "layout", "targets"] },
    bet_grid: {} // the seat pad's bet grid (renderBetGrid), for the verb "bet"
  };

  // ------------------------------------------------------------------ the joker game's bet grid
  // The seat places a bet on a picture of the layout (RULINGS §3: rows ♠ ♥ ♦ ♣ from the top,
  // columns A K Q J 10 9 8 7), not on one button per target (117 of them): tapped cards make the
  // selection — one card, two touching cards, a 2×2 square; a suit's sign takes its whole row, a
  // rank its whole column; a selected card tapped again leaves it. The selection, in layout order,
  // is the key of the seat's legal bet (its cards as the action writes them) and of the game's
  // words for it (view.targets: bet_words and the payout); one button sends that bet at the
  // stepper's stake. A selection that is no bet (a diagonal, three cards) is said in words and the
  // button stays disabled.
  var betPick = {}; // card code -> true: the seat's selection, kept when the pad is rebuilt
  var betRefresh = null; // the shown grid's refresh (a placed bet clears the selection)
  function layoutIndex(c) { return H_ROWS.indexOf(c.slice(-1)) * 8 + H_COLS.indexOf(c.slice(0, -1)); }
  function layoutKey(cards) {
    return cards.slice().sort(function (a, b) { return layoutIndex(a) - layoutIndex(b); }).join(",");
  }
  // a bet's cards as an action writes them: codes, or the aliases "col:10" / "row:D"
  function targetCards(arg) {
    if (/^col:/.test(arg)) return H_ROWS.map(function (s) { return arg.slice(4) + s; });
    if (/^row:/.test(arg)) return H_COLS.map(function (r) { return r + arg.slice(4); });
    return arg.split(",");
  }
  function betPicked() { return Object.keys(betPick).filter(function (c) { return betPick[c]; }); }
  // why the selection is no bet, in words
  function noBetWords(cards) {
    if (cards.length === 2) {
      var a = layoutIndex(cards[0]), b = layoutIndex(cards[1]);
      var dr = Math.abs(Math.floor(a / 8) - Math.floor(b / 8)), dc = Math.abs(a % 8 - b % 8);
      if (dr === 1 && dc === 1) return word("bet_diagonal");
      return word("bet_apart");
    }
    return word("bet_no_shape").replace("%(n)s", cards.length);
  }
  // a target in the game's words with its payout: «Две соседние K♥ Q♥ — выплата 2:1»
  function targetWords(t, cards) {
    var text = t ? (t.text[LANG] || t.text.ru) : cards.map(cardLabel).join(" ");
    if (t && t.shape === "card") text = word("shape_card") + " " + text;
    var payout = t ? t.payout : cards.length + ":1";
    return label(text) + " — " + word("payout").toLowerCase() + "\u00a0" + payout;
  }
  // a stepper over ``counts`` for ``verb`` (a stake, a number of cards): its label, − value +;
  // the value is stepper[verb], and onStep() runs after each step
  function stakeStepper(cls, verb, counts, onStep) {
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

  function renderBetGrid(pad, m, seat, verb, g) {
    var targets = (m.view && m.view.targets) || {};
    var legal = {}; // target key -> the cards argument of the seat's legal bet
    g.forEach(function (a) { legal[layoutKey(targetCards(a.args[1]))] = a.args[1]; });
    // the stakes: the table's limits when its view gives them, else those the actions offer
    var counts = Array.from(new Set(g.map(function (a) { return parseInt(a.args[0], 10); }))).sort(function (a, b) { return a - b; });
    var range = counts.length === 1 ? stakeRange(m) : null;
    if (range) { counts = []; for (var v = range[0]; v <= range[1]; v++) counts.push(v); }
    if (counts.indexOf(stepper[verb]) < 0) stepper[verb] = counts[0];
    var box = el("div", "betpad verb-" + verb);
    var grid = el("div", "bet-grid");
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", label(word("layout")));
    grid.appendChild(el("span", "bet-corner"));
    var cells = [], lines = [];
    function line(cls, text, cards, name) {
      var b = el("button", cls, text);
      b.type = "button";
      b.setAttribute("aria-label", name);
      b.dataset.line = cards.join(",");
      b.addEventListener("click", function () {
        // the whole row or column; tapped again when it is the selection, it is unselected
        var same = layoutKey(betPicked()) === layoutKey(cards);
        betPick = {};
        if (!same) cards.forEach(function (c) { betPick[c] = true; });
        refresh();
      });
      lines.push(b);
      return b;
    }
    H_COLS.forEach(function (rank) {
      grid.appendChild(line("bet-col", rank, H_ROWS.map(function (s) { return rank + s; }),
        label(word("shape_column")) + " " + rank));
    });
    H_ROWS.forEach(function (s) {
      grid.appendChild(line("bet-row s-" + s, H_SUITS[s], H_COLS.map(function (r) { return r + s; }),
        label(word("shape_row")) + " " + H_SUITS[s]));
      H_COLS.forEach(function (rank) {
        var code = rank + s;
        var b = el("button", "bet-card s-" + s, cardLabel(code));
        b.type = "button";
        b.dataset.card = code;
        b.addEventListener("click", function () {
          if (betPick[code]) delete betPick[code]; else betPick[code] = true;
          refresh();
        });
        cells.push(b);
        grid.appendChild(b);
      });
    });
    box.appendChild(grid);
    var say = el("p", "bet-say");
    say.setAttribute("aria-live", "polite");
    box.appendChild(say);
    var stake = stakeStepper("stepper bet-stake", verb, counts, function () { refresh(); });
    var shownN = stake.shown;
    var place = el("button", "primary bet-place", word("bet_place"));
    stake.box.appendChild(place);
    box.appendChild(stake.box);
    function refresh() {
      var cards = betPicked();
      var key = cards.length ? layoutKey(cards) : "";
      cells.forEach(function (b) {
        var on = !!betPick[b.dataset.card];
        b.classList.toggle("on", on);
        b.setAttribute("aria-pressed", on ? "true" : "false");
      });
      lines.forEach(function (b) { b.classList.toggle("on", key !== "" && key === layoutKey(b.dataset.line.split(","))); });
      shownN.textContent = stepper[verb];
      var t = targets[key], arg = legal[key], ok = false, text;
      if (!cards.length) text = word("bet_hint");
      else if (arg) {
        text = targetWords(t, cards); ok = true;
        // the stake the bank covers on this target (its payout k:1): more is refused, so say it
        var room = m.view && m.view.limits ? m.view.limits.bank_room : null;
        var k = t ? parseInt(t.payout, 10) : 0;
        if (typeof room === "number" && k > 0 && stepper[verb] * k > room) {
          text += ". " + word("bet_room").replace("%(n)s", Math.floor(room / k)); ok = false;
        }
      }
      else if (t) text = targetWords(t, cards) + ". " + word("bet_uncovered"); // a bet the bank cannot cover now
      else text = noBetWords(cards);
      say.textContent = text;
      say.className = "bet-say" + (cards.length && !ok ? " bad" : "");
      place.disabled = !ok;
      place.dataset.action = ok ? seat + " " + verb + " " + stepper[verb] + " " + arg : "";
    }
    place.addEventListener("click", function () {
      var text = place.dataset.action;
      if (!text) return;
      post("/api/seat/action", { action: text }).then(function (j) {
        toast(outcomeText(j), isBad(j));
        if (j.accepted) { betPick = {}; if (betRefresh) betRefresh(); } // placed: a fresh selection
      });
    });
    betRefresh = refresh;
    refresh();
    pad.classList.add("has-betgrid");
    pad.appendChild(box);
  }

  // ------------------------------------------------------------------ history
  var LANG = document.documentElement.lang || "ru";
  function itemText(it) {
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
  function renderHistory(m) {
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

  // ------------------------------------------------------------------ status
  function renderStatus() {
    var box = el("div", "status");
    var st = S.status || {};
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
  function renderPrompts(target, operator) {
    var list = S.prompts || [];
    if (!list.length) return;
    var ul = el("ul", "prompts");
    list.forEach(function (p) {
      var li = el("li", "prompt prompt-" + p.kind, p.text);
      if (operator) {
        var b = el("button", "small", "✓");
        b.addEventListener("click", function () { post("/api/operator/prompt/" + encodeURIComponent(p.id) + "/clear"); });
        li.appendChild(b);
      }
      ul.appendChild(li);
    });
    target.appendChild(ul);
  }

  // ------------------------------------------------------------------ main view
  function render() {
    var app = document.getElementById("app");
    if (!app || !S) return;
    var m = S.model;
    app.textContent = "";
    app.appendChild(renderStatus());
    if (KIND !== "operator") renderPrompts(app, false);
    if (!m.game) {
      // the game the operator just ended («Завершить игру»): how it stood, in the table's words
      var ended = m.ended;
      if (ended && ended.text) {
        var eb = el("section", "card ended");
        eb.appendChild(el("h2", null, gameName(ended.game))); // the text says ended early or over
        eb.appendChild(el("p", "ended-text", ended.text[LANG] || ended.text.ru || ""));
        app.appendChild(eb);
      }
      app.appendChild(el("p", "card empty", word("no_game")));
      renderPad();
      renderOperator();
      return;
    }
    var top = el("section", "card game");
    var h = el("h1", null, gameName(m.game.id));
    if (m.view.phase) h.appendChild(el("span", "phase", label(word("phase_" + m.view.phase, String(m.view.phase).replace(/_/g, " ")))));
    top.appendChild(h);
    if (m.over) {
      var res = el("div", "over");
      res.appendChild(el("h2", null, word("over")));
      // the game's own words for its end (who won, the standings); the raw result only when a
      // game has no words for it
      if (m.result_text && (m.result_text[LANG] || m.result_text.ru)) res.appendChild(el("p", "result-text", m.result_text[LANG] || m.result_text.ru));
      else if (m.result) res.appendChild(renderValue("result", m.result, 0));
      else if (m.view.winner !== undefined && m.view.winner !== null) // a game whose view names its winner only
        res.appendChild(el("p", "winner", word("winner") + ": " + scalar("winner", m.view.winner)));
      top.appendChild(res);
    }
    var head = el("div", "headline");
    if (m.view.bid !== undefined && m.view.bid !== null) head.appendChild(el("span", "big-chip", word("bid") + " " + m.view.bid));
    var bank = m.view.bank;
    if (bank && typeof bank === "object" && typeof bank.count === "number") head.appendChild(el("span", "big-chip", word("bank") + " " + bank.count));
    else if (typeof bank === "number") head.appendChild(el("span", "big-chip", word("bank") + " " + bank));
    if (head.childNodes.length) top.appendChild(head);
    top.appendChild(renderSeats(m));
    app.appendChild(top);
    if (m.view.you) {
      var you = el("section", "card you-box");
      you.appendChild(el("h2", null, word("you") + " · " + word("private")));
      you.appendChild(renderValue("you", m.view.you, 0));
      app.appendChild(you);
    }
    var widgetKeys = {};
    schema().widgets.forEach(function (w) {
      var widget = WIDGETS[w];
      if (!widget || !widget.render) return;
      var part = el("section", "card"); part.appendChild(widget.render(m.view)); app.appendChild(part);
      (widget.keys || []).forEach(function (k) { widgetKeys[k] = 1; });
    });
    var rest = {};
    Object.keys(m.view).forEach(function (k) {
      if (HIDE_KEYS[k] || k === "phase") return;
      if (widgetKeys[k]) return; // shown by the game's own part of the page
      rest[k] = m.view[k];
    });
    if (Object.keys(rest).length) {
      var info = el("section", "card info");
      info.appendChild(el("h2", null, word("info")));
      info.appendChild(renderValue("view", rest, 0));
      app.appendChild(info);
    }
    app.appendChild(renderHistory(m));
    renderPad();
    renderOperator();
  }

  // ------------------------------------------------------------------ seat pad
  var stepper = {}; // verb -> current value
  var pendingTimer = null;
  var lastPending = null; // the count this page last showed the table, until the game moves on
  function sendPending(count) {
    clearTimeout(pendingTimer);
    lastPending = count;
    pendingTimer = setTimeout(function () { post("/api/seat/pending", { count: count }); }, 120);
  }
  function act(text) {
    post("/api/seat/action", { action: text }).then(function (j) { toast(outcomeText(j), isBad(j)); });
  }
  // the table's stake limits when its view gives them ([min, max] chips), else null
  function stakeRange(m) {
    var lim = m && m.view && m.view.limits;
    if (!lim || typeof lim.min_stake !== "number" || typeof lim.max_stake !== "number") return null;
    if (lim.max_stake <= lim.min_stake || lim.max_stake - lim.min_stake > 500) return null;
    return [lim.min_stake, lim.max_stake];
  }
  function renderPad() {
    var pad = document.getElementById("pad");
    if (!pad || KIND !== "seat" || !S) return;
    var m = S.model;
    var seat = m.viewer.seat;
    // the same actions: keep the pad (a rebuild under a finger lost a tap on "+" when the
    // table's echo of the pending count arrived between two taps)
    // (what the game asks of this seat at the table counts too: skull's reveal changes no button,
    // only the words «переворачивайте купюры»)
    var sig = stableJSON([seat, seatName(seat), m.over, m.actions || [], (m.view && m.view.table_task) || null, m.waiting || null]);
    if (pad.dataset.sig === sig) return;
    pad.dataset.sig = sig;
    pad.textContent = "";
    pad.classList.remove("has-betgrid"); // renderBetGrid widens the pad for its cells
    pad.appendChild(el("h2", null, (seat + 1) + ". " + seatName(seat)));
    var acts = (m.actions || []).filter(function (a) { return a.args.indexOf("?") < 0; });
    if (!acts.length) {
      // the seat's move is a card or note the camera (or the operator) reads: it is his turn all
      // the same, and "waiting for the others" would be wrong
      var observed = (m.actions || []).length > 0;
      var task = m.view && m.view.table_task; // what the game says this seat does at the table now
      // what is awaited, in the server's words: the other players by name, or the table's own
      // task (the camera reading a card, the operator choosing the first dealer)
      var waiting = m.waiting && (m.waiting[LANG] || m.waiting.ru);
      pad.appendChild(el("p", "muted wait", m.over ? word("over")
        : (task ? word("task_" + task) : (observed ? word("your_turn_table") : (waiting || word("wait"))))));
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
    var betGrid = hasWidget("bet_grid") && groups.bet && groups.bet.every(function (a) {
      return a.args.length === 2 && /^\d+$/.test(a.args[0]);
    });
    if (betGrid) order = ["bet"].concat(order.filter(function (v) { return v !== "bet"; })); // the grid first, then the bets to take back
    order.forEach(function (verb) {
      var g = groups[verb];
      if (betGrid && verb === "bet") { renderBetGrid(pad, m, seat, verb, g); return; }
      var numeric = g.length > 1 && g.every(function (a) { return a.args.length === 1 && /^-?\d+$/.test(a.args[0]); });
      if (g.every(function (a) { return a.labels && Object.keys(a.labels).length; })) {
        // a choice made by id (the joker game's bet to take back): the game words each choice
        // («5 на Q♥ (ставка №3)») and the pad lists them, one button each, under the verb
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
        var cur = stepper[verb];
        if (cur === undefined) { // a reloaded page picks up the count the table already shows
          var shown = S.pending && S.pending[String(seat)];
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

  // ------------------------------------------------------------------ operator console
  // a seat typed by a person: its number on screen (from 1) or its name -> the engine's index
  // (from 0); anything else is sent as typed, for the engine to refuse in words
  function seatIndex(typed) {
    var seats = (S.model.game && S.model.game.seats) || [];
    if (/^\d+$/.test(typed) && +typed >= 1 && +typed <= seats.length) return String(+typed - 1);
    var low = typed.toLowerCase();
    for (var i = 0; i < seats.length; i++) if (seats[i].replace(/\s+/g, "").toLowerCase() === low) return String(i);
    return typed;
  }
  function renderOperator() {
    if (KIND !== "operator" || !S) return;
    var pbox = document.getElementById("prompts");
    if (pbox) { pbox.textContent = ""; renderPrompts(pbox, true); }
    var tbox = document.getElementById("table-actions");
    if (!tbox) return;
    var acts = S.model.actions || [];
    // the same actions as shown: keep the forms (and whatever the operator is typing in them);
    // an update of the table must not wipe a manual entry half typed
    // (key order does not count: the page's first snapshot comes with its keys sorted, the
    // stream's do not, and a rebuild on that alone replaced the form under the operator's fingers)
    var sig = stableJSON(acts) + "|" + ((S.model.game && S.model.game.seats) || []).join(",");
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
    if (!acts.length) { tbox.appendChild(el("p", "muted", "—")); return; }
    acts.forEach(function (a) {
      var form = el("form", "row table-action");
      form.dataset.verb = a.verb;
      form.dataset.key = a.verb + " " + a.args.join(" ");
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
          var seatArg = isSeatField(fieldOf(a, i)) && /^\d+$/.test(arg) && S.model.game && n < S.model.game.seats.length;
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
        // taking a player out of the game is asked first (one tap must not do it)
        if (a.verb === "leave") {
          var who = /^\d+$/.test(a.args[0] || "") ? seatName(parseInt(a.args[0], 10)) : "";
          if (!ask(word("confirm_leave").replace("%(name)s", who))) return;
        }
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
  function wireOperator() {
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
      var ended = S.model && S.model.over;
      if (b && !ended && !ask(b.dataset.confirm)) { e.preventDefault(); return; }
      ng.dataset.sent = "1";
    });
    // a page brought back by the browser's Back button is a fresh form again
    if (ng) window.addEventListener("pageshow", function () { delete ng.dataset.sent; });
  }

  // ------------------------------------------------------------------ the stream
  function setLive(ok) {
    var l = document.getElementById("live");
    if (!l) return;
    l.hidden = false;
    l.className = "live " + (ok ? "on" : "off");
    l.textContent = ok ? "● " + label(word("live")) : "○ " + label(word("offline"));
  }
  function applyDelta(d) {
    var m = S.model;
    (d.del || []).forEach(function (path) {
      var t = m; for (var i = 0; i < path.length - 1; i++) t = t[path[i]];
      if (t) delete t[path[path.length - 1]];
    });
    (d.set || []).forEach(function (pv) {
      var path = pv[0], t = m;
      for (var i = 0; i < path.length - 1; i++) { if (!t[path[i]] || typeof t[path[i]] !== "object") t[path[i]] = {}; t = t[path[i]]; }
      t[path[path.length - 1]] = pv[1];
    });
  }
  // the stream: the table's own, or the one a page served elsewhere names (the club board's copy
  // of a table's page, companion/club); boot.stream null: no stream — the page that embeds this
  // one (the club board) hands it each snapshot by postMessage
  var STREAM = boot.stream === undefined ? "/stream?view=" + KIND : boot.stream;
  if (STREAM === null) window.addEventListener("message", function (e) {
    if (e.origin !== location.origin || !e.data || e.data.kind !== "snapshot" || !e.data.snapshot) return;
    S = e.data.snapshot; render();
  });
  function connect() {
    if (es) es.close();
    if (!STREAM) return;
    es = new EventSource(STREAM);
    window.__companionStream = es; // the seats' phones (devices.js) listen on the same stream
    window.dispatchEvent(new CustomEvent("companion:stream", { detail: es }));
    es.addEventListener("open", function () { setLive(true); });
    es.addEventListener("error", function () {
      setLive(false);
      if (es.readyState === 2) { // closed for good (403: seat token from an old game)
        if (KIND === "seat" || KIND === "operator") location.reload();
        else setTimeout(connect, 2000);
      }
    });
    es.addEventListener("snapshot", function (e) {
      var before = S && S.model ? S.model.version : null;
      S = JSON.parse(e.data); render(); window.__lastVersion = S.model.version;
      // the table restarted (or the stream came back) while this phone was counting a bid: the
      // table forgot the count, the stepper did not; tell it again if the game did not move
      if (KIND === "seat" && lastPending && before === S.model.version && !(S.pending && S.pending[String(S.model.viewer.seat)])) sendPending(lastPending);
    });
    es.addEventListener("delta", function (e) {
      var d = JSON.parse(e.data);
      if (!S) return;
      var m = S.model;
      if (d.epoch !== m.epoch || d.version <= m.version) return;
      if (d.base !== m.version) { connect(); return; } // missed one: resync
      applyDelta(d);
      m.version = d.version;
      lastPending = null; // any accepted action drops the table's pending counts
      window.__lastVersion = d.version;
      render();
    });
    es.addEventListener("reset", function () { if (KIND === "operator") { location.reload(); return; } setTimeout(connect, 50); });
    ["status", "pending", "prompts"].forEach(function (k) {
      es.addEventListener(k, function (e) { if (S) { S[k] = JSON.parse(e.data); render(); } });
    });
  }

  // the sticky header is one line or two (a phone's width, the language): the seat's sticky pad
  // sits right under it, whatever its height
  function measureTop() {
    var h = document.querySelector("header.top");
    if (h) document.documentElement.style.setProperty("--top-h", h.getBoundingClientRect().height + "px");
  }
  measureTop();
  window.addEventListener("resize", measureTop);
  // the live mark appearing (or the language switch) may wrap the header onto a second line
  var topEl = document.querySelector("header.top");
  if (topEl && window.ResizeObserver) new ResizeObserver(measureTop).observe(topEl);

  // «Покинуть место» on a phone mid-game is asked first, as the operator's destructive buttons
  // are (data-confirm, ask): a mis-tap must not drop the phone off its seat
  function wireSeat() {
    var lf = document.getElementById("leave-seat");
    if (lf) lf.addEventListener("submit", function (e) {
      if (lf.dataset.sent) { e.preventDefault(); return; } // on its way: a second tap neither asks nor sends
      var b = lf.querySelector("[data-confirm]");
      if (b && !ask(b.dataset.confirm)) { e.preventDefault(); return; }
      lf.dataset.sent = "1";
    });
    if (lf) window.addEventListener("pageshow", function () { delete lf.dataset.sent; });
  }

  if (KIND === "public" || KIND === "seat" || KIND === "operator") {
    render();
    if (KIND === "operator") wireOperator();
    if (KIND === "seat") wireSeat();
    connect();
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { if (es) { es.close(); es = null; } if (STREAM) setLive(false); }
      else connect(); // fresh snapshot
    });
  }
})();
