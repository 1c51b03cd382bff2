/* The club board: every table's tile (game, players, whose turn, silent or live, its live board)
 * and the night's standings, kept live from one stream (/stream).
 *
 * A tile's live board is the table's own public page (web/static/app.js) in an iframe
 * (/t/<table>?embed=1, which has no stream of its own): this page hands it each snapshot by
 * postMessage, so one connection serves every table whatever their number.
 * Everything is built with textContent / DOM nodes: no server string is parsed as HTML.
 */
(function () {
  "use strict";
  var boot = JSON.parse(document.getElementById("boot").textContent);
  var W = boot.words || {}, LANG = boot.lang || "ru";
  var tables = {}, order = [];
  (boot.tables || []).forEach(function (t) { tables[t.table] = t; order.push(t.table); });
  var standings = boot.standings || [], merges = boot.merges || [];

  function word(k, fb) { return Object.prototype.hasOwnProperty.call(W, k) ? W[k] : (fb === undefined ? k : fb); }
  function cw(k) { return word("club_" + k); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function words(v) { return v && typeof v === "object" ? (v[LANG] || v.ru || "") : (v || ""); }
  function clock(iso) {
    var d = iso ? new Date(iso) : null;
    return d && !isNaN(d) ? d.toLocaleTimeString(LANG === "en" ? "en-GB" : "ru-RU", { hour: "2-digit", minute: "2-digit" }) : "";
  }

  // ------------------------------------------------------------------ tiles
  var tileEls = {}, latest = {};
  function hand(name, state) {
    var t = tileEls[name];
    if (t && t.frame.contentWindow) t.frame.contentWindow.postMessage({ kind: "snapshot", snapshot: state }, location.origin);
  }
  function tile(name) {
    var t = tileEls[name];
    if (t) return t;
    t = tileEls[name] = { box: el("article", "tile") };
    t.box.dataset.table = name;
    t.head = el("h2"); t.players = el("p", "players"); t.note = el("p", "muted");
    t.frame = document.createElement("iframe");
    t.frame.title = cw("table") + " " + name;
    t.frame.src = "/t/" + encodeURIComponent(name) + "?embed=1";
    t.frame.setAttribute("loading", "lazy");
    // a board that loaded after the last snapshot came gets it now
    t.frame.addEventListener("load", function () { if (latest[name]) hand(name, latest[name]); });
    t.open = el("a", "open", cw("open") + " →"); t.open.href = "/t/" + encodeURIComponent(name);
    [t.head, t.players, t.note, t.frame, t.open].forEach(function (x) { t.box.appendChild(x); });
    return t;
  }
  function fillTile(s) {
    var t = tile(s.table);
    t.box.classList.toggle("silent", !!s.silent);
    t.head.textContent = "";
    t.head.appendChild(el("span", null, cw("table") + " " + s.table));
    t.head.appendChild(el("span", "state " + (s.silent ? "silent" : "live"), s.silent ? cw("silent") : cw("online")));
    var g = s.game;
    t.head.appendChild(el("span", "muted", g ? word("game_" + g.id, g.id) : cw("no_game")));
    t.players.textContent = "";
    if (g) {
      var turn = {}; (g.turn || []).forEach(function (n) { turn[n] = 1; });
      g.seats.forEach(function (n) { t.players.appendChild(el("span", "chip" + (turn[n] ? " turn" : ""), n)); });
    }
    var note = "";
    if (s.silent && s.since) note = cw("silent_since").replace("%(time)s", clock(s.since));
    else if (g && g.over) note = cw("over") + (g.result_text ? ": " + words(g.result_text) : "");
    else if (g && g.turn && g.turn.length) note = cw("turn") + ": " + g.turn.join(", ");
    else if (!g && s.ended) note = cw("ended") + ": " + words(s.ended.text);
    t.note.textContent = note;
  }
  function renderTiles() {
    var box = document.getElementById("tiles");
    if (!order.length) { box.textContent = ""; box.appendChild(el("p", "card empty", cw("no_tables"))); return; }
    var empty = box.querySelector(".empty, .muted"); if (empty && !empty.closest(".tile")) empty.remove();
    order.sort();
    order.forEach(function (name) { fillTile(tables[name]); box.appendChild(tile(name).box); });
  }

  // ------------------------------------------------------------------ standings
  function renderStandings() {
    var box = document.getElementById("standings-table");
    box.textContent = "";
    if (!standings.length) { box.appendChild(el("p", "muted", cw("no_results"))); }
    else {
      var tbl = el("table"), head = el("tr");
      [["rank", ""], ["player", ""], ["games_played", "num"], ["wins", "num"], ["banks", "num"],
       ["points_6100", "num"], ["chips", "num"], ["at_tables", ""]].forEach(function (c) { head.appendChild(el("th", c[1], cw(c[0]))); });
      tbl.appendChild(head);
      standings.forEach(function (r, i) {
        var tr = el("tr");
        tr.appendChild(el("td", "num", i + 1));
        var who = el("td", null, r.name);
        var others = r.spellings.filter(function (s) { return s !== r.name; });
        if (others.length) who.appendChild(el("div", "spellings", cw("also") + ": " + others.join(", ")));
        tr.appendChild(who);
        tr.appendChild(el("td", "num", r.games));
        tr.appendChild(el("td", "num", r.wins));
        var bank = r.banks ? r.banks + " (" + r.bank_notes + " " + cw("bank_notes") + (Object.keys(r.bank_value).length ? "; " +
          Object.keys(r.bank_value).map(function (c) { return r.bank_value[c] + " " + c; }).join(", ") : "") + ")" : "—";
        tr.appendChild(el("td", "num", bank));
        tr.appendChild(el("td", "num", r.point_games ? r.points : "—"));
        tr.appendChild(el("td", "num", !r.chip_games ? "—" : r.chips > 0 ? "+" + r.chips : r.chips < 0 ? "−" + (-r.chips) : "0"));
        tr.appendChild(el("td", null, r.tables.join(", ")));
        tbl.appendChild(tr);
      });
      box.appendChild(tbl);
    }
    var dl = document.getElementById("player-names"); dl.textContent = "";
    standings.forEach(function (r) { r.spellings.forEach(function (s) { var o = el("option"); o.value = s; dl.appendChild(o); }); });
    var ul = document.getElementById("merges"); ul.textContent = "";
    merges.forEach(function (m) {
      var li = el("li", null, m.name + " → " + m.into + " ");
      var b = el("button", "link", cw("unmerge"));
      b.addEventListener("click", function () {
        var pin = document.querySelector("#merge-form [name=pin]").value;
        post("/api/unmerge", { name: m.name, pin: pin });
      });
      li.appendChild(b); ul.appendChild(li);
    });
  }

  // ------------------------------------------------------------------ names: merge, new night
  function said(text) { document.getElementById("merge-said").textContent = text; }
  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().catch(function () { return {}; }); })
      .then(function (j) {
        said(j.ok ? cw("done") : (j.message || cw("failed")));
        if (j.standings) { standings = j.standings; merges = j.merges || merges; renderStandings(); }
        return j;
      }, function () { said(cw("failed")); });
  }
  document.getElementById("merge-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var f = e.target;
    post("/api/merge", { name: f.name.value, into: f.into.value, pin: f.pin.value });
  });
  document.getElementById("night-form").addEventListener("submit", function (e) {
    e.preventDefault();
    post("/api/night", { pin: e.target.pin.value });
  });

  // ------------------------------------------------------------------ the stream
  function setLive(ok) {
    var l = document.getElementById("live"); if (!l) return;
    l.hidden = false; l.className = "live " + (ok ? "on" : "off");
    l.textContent = ok ? "● " + word("live") : "○ " + word("offline");
  }
  var es = null;
  function connect() {
    if (es) es.close();
    es = new EventSource("/stream");
    es.addEventListener("open", function () { setLive(true); });
    es.addEventListener("error", function () { setLive(false); });
    es.addEventListener("broker", function (e) {
      document.getElementById("broker-lost").hidden = !!JSON.parse(e.data).connected;
    });
    es.addEventListener("table", function (e) {
      var d = JSON.parse(e.data), s = d.summary;
      if (!tables[s.table]) order.push(s.table);
      tables[s.table] = s;
      renderTiles();
      if (d.state) { latest[s.table] = d.state; hand(s.table, d.state); }
      window.__lastTable = s.table + ":" + s.seq;
    });
    es.addEventListener("standings", function (e) {
      var d = JSON.parse(e.data); standings = d.rows; merges = d.merges || merges; renderStandings();
    });
  }
  renderTiles();
  renderStandings();
  connect();
  document.getElementById("broker-lost").hidden = boot.connected !== false;
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { if (es) { es.close(); es = null; } setLive(false); }
    else location.reload(); // everything afresh: tiles, their boards and the standings
  });
})();
