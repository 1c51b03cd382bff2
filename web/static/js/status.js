/* The hardware status chips and the operator's prompts. */
import { LANG, ctx, el } from "./core.js";
import { post } from "./net.js";
import { label, word } from "./words.js";

// ------------------------------------------------------------------ status
export function renderStatus() {
  var box = el("div", "status");
  var st = ctx.S.status || {};
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
export function renderPrompts(target, operator) {
  var list = ctx.S.prompts || [];
  if (!list.length) return;
  var ul = el("ul", "prompts");
  list.forEach(function (p) {
    var li = el("li", "prompt prompt-" + p.kind, (p.words && p.words[LANG]) || p.text);
    if (operator) {
      var b = el("button", "small", "✓");
      b.addEventListener("click", function () { post("/api/operator/prompt/" + encodeURIComponent(p.id) + "/clear"); });
      li.appendChild(b);
    }
    ul.appendChild(li);
  });
  target.appendChild(ul);
}
