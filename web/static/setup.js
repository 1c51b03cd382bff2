/* The operator console's camera set-up view and table voice (issue #23; companion/dashboard/tablesetup.py).
 *
 * Camera: «Показать камеру» shows /operator/camera.jpg refreshed every 1.5 s (only while shown and
 * the page is visible: it costs the Pi a JPEG each time) with the figures and advice of
 * /api/operator/camera under it. Voice: the settings of /api/operator/voice (on, language,
 * volume, pace, whose-turn pause), «Сохранить» and «Проверить голос».
 * Words: boot.words (companion/dashboard/i18n.py js_words, "cam_*", "voice_*").
 */
(function () {
  "use strict";
  var bootEl = document.getElementById("boot");
  if (!bootEl) return;
  var boot = JSON.parse(bootEl.textContent);
  if (boot.kind !== "operator") return;
  var W = boot.words || {};
  function word(k) { return W[k] || k; }
  // a fraction with the page language's decimal sign, as the drawn view writes it
  // (companion.i18n decimal): «1,5» on a Russian page, "1.5" on an English one
  function decimal(v, places) {
    return Number(v).toLocaleString(document.documentElement.lang || "ru",
      { minimumFractionDigits: places, maximumFractionDigits: places, useGrouping: false });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function api(path, body) {
    var opts = { credentials: "same-origin" };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers = { "Content-Type": "application/json", "X-CSRF-Token": boot.csrf };
      opts.body = JSON.stringify(body);
    }
    return fetch(path, opts).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); });
  }

  // ------------------------------------------------------------------ camera
  var cam = document.getElementById("camera-setup");
  if (cam) {
    var hint = el("p", "muted", word("cam_hint"));
    var toggle = el("button", null, word("cam_show"));
    toggle.type = "button";
    toggle.id = "camera-toggle";
    var img = el("img", "camera-view");
    img.id = "camera-view";
    img.alt = word("cam_title");
    img.hidden = true;
    img.style.maxWidth = "100%";
    var facts = el("p", "muted");
    facts.id = "camera-facts";
    var tips = el("ul", "camera-advice");
    tips.id = "camera-advice";
    cam.appendChild(hint); cam.appendChild(toggle); cam.appendChild(img); cam.appendChild(facts); cam.appendChild(tips);
    var timer = null;
    function refresh() {
      if (document.hidden) return;
      api("/api/operator/camera").then(function (r) {
        var f = r.body;
        tips.textContent = "";
        if (!f.frame) { img.hidden = true; facts.textContent = word("cam_none"); return; }
        img.hidden = false;
        img.src = "/operator/camera.jpg?t=" + Date.now();
        facts.textContent = word("cam_figures").replace("%(f)s", Math.round(f.focus))
          .replace("%(b)s", Math.round(f.brightness)).replace("%(g)s", decimal(f.glare * 100, 1) + " %");
        (f.advice || []).forEach(function (code) {
          tips.appendChild(el("li", code === "good" ? "ok" : "warn", word("cam_" + code).replace("%(n)s", f.min_side)));
        });
        (f.reads || []).forEach(function (x) {
          tips.appendChild(el("li", "muted", (x.value || "?") + " — " + decimal(x.confidence, 2)));
        });
      }).catch(function () {});
    }
    toggle.addEventListener("click", function () {
      if (timer) {
        clearInterval(timer); timer = null; img.hidden = true; toggle.textContent = word("cam_show");
        return;
      }
      toggle.textContent = word("cam_hide");
      refresh();
      timer = setInterval(refresh, 1500);
    });
  }

  // ------------------------------------------------------------------ voice
  var box = document.getElementById("voice-setup");
  if (!box) return;
  var result = el("p", "result");
  result.setAttribute("role", "status");
  result.id = "voice-result";
  function field(labelText, input) {
    var l = el("label", null, labelText + " ");
    l.appendChild(input);
    return l;
  }
  function number(name, range, value) {
    var i = el("input");
    i.type = "number"; i.name = name; i.min = range[0]; i.max = range[1]; i.value = value; i.inputMode = "numeric";
    return i;
  }
  // the voice's status detail in the page's language (the status's words), else its English detail
  function detail(status) {
    var w = status && status.words && (status.words[document.documentElement.lang] || status.words.ru);
    return (w && w.detail) || (status && status.detail) || "";
  }
  function show(data) {
    box.textContent = "";
    if (!data.running) { box.appendChild(el("p", "muted", data.message || "")); return; }
    var s = data.settings, rg = data.ranges;
    var status = data.status || {};
    box.appendChild(el("p", "muted", detail(status)));
    var form = el("form", "voice-form");
    form.id = "voice-form";
    var on = el("input"); on.type = "checkbox"; on.name = "on"; on.checked = !!s.on;
    var onLabel = el("label", "check"); onLabel.appendChild(on); onLabel.appendChild(document.createTextNode(" " + word("voice_on")));
    form.appendChild(onLabel);
    var lang = el("select"); lang.name = "lang";
    rg.langs.forEach(function (l) { var o = el("option", null, word("voice_lang_" + l)); o.value = l; o.selected = l === s.lang; lang.appendChild(o); });
    form.appendChild(field(word("voice_lang"), lang));
    form.appendChild(field(word("voice_volume"), number("volume", rg.volume, s.volume)));
    form.appendChild(field(word("voice_pace"), number("pace", rg.pace, s.pace)));
    form.appendChild(field(word("voice_turn"), number("turn_s", [0, 600], s.turn_s)));
    var save = el("button", "primary", word("voice_save")); save.type = "submit";
    var test = el("button", null, word("voice_test")); test.type = "button"; test.id = "voice-test";
    var row = el("div", "row"); row.appendChild(save); row.appendChild(test);
    form.appendChild(row);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var body = { on: on.checked, lang: lang.value, volume: parseInt(form.volume.value, 10),
                   pace: parseInt(form.pace.value, 10), turn_s: parseInt(form.turn_s.value, 10) };
      api("/api/operator/voice", body).then(function (r) {
        if (r.ok) { show(r.body); result.textContent = word("voice_saved"); }
        else result.textContent = r.body.message || "";
      });
    });
    test.addEventListener("click", function () {
      api("/api/operator/voice/test", {}).then(function (r) {
        result.textContent = r.ok && r.body.queued ? word("voice_queued") : (detail(r.body.status) || r.body.message || "");
      });
    });
    box.appendChild(form);
    box.appendChild(result);
  }
  api("/api/operator/voice").then(function (r) { show(r.body); }).catch(function () {});
})();
