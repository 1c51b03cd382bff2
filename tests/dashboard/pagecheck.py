"""Checks a browser runs on a drawn page (#22 item 5), shared by the UI tests and the full matrix
(tools/screens.py): no horizontal scroll, nothing cut off at the sides, tap targets of at least
44 × 44 px, text contrast WCAG AA, and no word of the other language.

``problems(page, lang)`` returns what is wrong, in words (empty: the page passes).
"""

from __future__ import annotations

import re
import tempfile

#: viewports of the matrix: a phone, a tablet upright, a laptop / TV (px)
VIEWPORTS = {"phone": {"width": 360, "height": 800}, "tablet": {"width": 768, "height": 1024},
             "wide": {"width": 1920, "height": 1080}}

NAMES = {"ru": ["Аня", "Борис", "Вика", "Гоша"], "en": ["Ann", "Bob", "Vic", "Greg"]}

#: Latin tokens a Russian page may show: the language switch, units (a Russian page writes a
#: card's rank in Russian letters, «Д♥»: a lone Latin letter is English there too)
LATIN_OK = re.compile(r"^(RU|EN|QR|PIN|OK|INF|RUB|SSE)$")

_MEASURE = r"""() => {
  const out = {scroll: document.documentElement.scrollWidth - window.innerWidth, cut: [], small: [], contrast: []};
  const W = window.innerWidth;
  const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && !e.closest('[hidden], details:not([open]) > :not(summary)'); };
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '') + ' «' + (e.innerText || e.value || '').trim().slice(0, 30) + '»';
  const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) { const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll') return true; } return false; };
  for (const e of document.querySelectorAll('main *, header *')) {
    if (!visible(e) || scrolls(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.left < -1 || r.right > W + 1) out.cut.push(name(e) + ` [${Math.round(r.left)}..${Math.round(r.right)}]`);
  }
  for (const e of document.querySelectorAll('button, a[href], input, select, textarea, summary')) {
    if (!visible(e)) continue;
    const r = e.getBoundingClientRect();
    const minW = e.closest('.bet-grid') ? 36 : 44;  // the joker grid's cards: 44 px high, as wide as 360 px allows
    // a box ticked through its label: the label is what the finger hits
    const box = (e.type === 'checkbox' || e.type === 'radio') && e.closest('label') ? e.closest('label').getBoundingClientRect() : r;
    if (box.height < 43.5 || box.width < minW - 0.5) out.small.push(name(e) + ` ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  const rgb = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null; const v = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return {r: v[0], g: v[1], b: v[2], a: v.length > 3 ? v[3] : 1}; };
  const lum = (c) => { const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const bg = (e) => { for (let p = e; p; p = p.parentElement) { const s = getComputedStyle(p); if (s.backgroundImage && s.backgroundImage !== 'none') return null; const c = rgb(s.backgroundColor); if (c && c.a > 0.5) return c; } return {r: 255, g: 255, b: 255, a: 1}; };
  for (const e of document.querySelectorAll('main *, header *')) {
    if (!visible(e)) continue;
    const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const s = getComputedStyle(e); const fg = rgb(s.color); const b = bg(e);
    if (!fg || !b) continue;  // text on a picture (a gradient): not measured here
    if (parseFloat(s.opacity) < 1 || e.closest('.gone, [disabled], :disabled')) continue;  // out of the game, disabled: not text to read
    const L1 = lum(fg), L2 = lum(b); const ratio = (Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05);
    const px = parseFloat(s.fontSize); const bold = parseInt(s.fontWeight, 10) >= 700;
    const need = (px >= 24 || (bold && px >= 18.66)) ? 3 : 4.5;
    if (ratio < need) out.contrast.push(name(e) + ` ${ratio.toFixed(2)} < ${need}`);
  }
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement; if (!p || p.closest('script, style, .serial, .dev-label, .langs, noscript') || !visible(p)) continue;  // .dev-label: a phone's browser and system («Chrome, Linux»), data
    texts.push(n.textContent);
  }
  for (const e of document.querySelectorAll('input[placeholder], textarea[placeholder]')) if (visible(e)) texts.push(e.placeholder);
  out.text = texts.join(' ');
  return out;
}"""


def problems(page, lang: str) -> list[str]:
    """What is wrong with ``page`` (a Playwright page, drawn) in language ``lang`` ("ru"/"en")."""
    m = page.evaluate(_MEASURE)
    out = []
    if m["scroll"] > 0:
        out.append(f"scrolls sideways by {m['scroll']} px")
    out += [f"cut off: {x}" for x in m["cut"][:8]]
    out += [f"tap target under 44 px: {x}" for x in m["small"][:8]]
    out += [f"contrast: {x}" for x in m["contrast"][:8]]
    # banknote serials (two Cyrillic letters and digits) are data, not words of either language;
    # so is a command to type («голос есть у companion run»)
    text = re.sub(r"[А-ЯЁ]{2}\s?\d{6,8}", "", m["text"])
    text = re.sub(r"\bcompanion [a-z][a-z-]*", "", text)
    if lang == "ru":
        latin = sorted({w for w in re.findall(r"[A-Za-z]+", text) if not LATIN_OK.match(w)})
        if latin:
            out.append(f"English on a Russian page: {latin[:12]}")
    else:
        cyr = sorted(set(re.findall(r"[А-Яа-яЁё]+", text)))
        if cyr:
            out.append(f"Russian on an English page: {cyr[:12]}")
        if re.search(r"[«»]", text):  # English quotes are “…” (companion.i18n.render.EnglishQuotes)
            out.append("Russian guillemets on an English page: " + re.search(r".{0,20}[«»].{0,20}", text).group(0))
    return out


def phase_tables(game_id: str, lang: str, seed: int = 5, steps: int = 3000):
    """Yield ``(table, phase)`` once per phase of a bot-played ``game_id`` (the table stays at that
    phase while the caller looks at it), with player names in ``lang``."""
    from companion.games.simulator import get_sim_class
    from companion.table import Table

    table = Table(tempfile.mkdtemp(prefix="pagecheck-"), pin="271828")
    try:
        table.new_game(game_id, NAMES[lang])
        sim = get_sim_class(game_id)(table.referee.game, seed)
        seen = set()
        for _ in range(steps):
            game = table.referee.game
            phase = game.view(None).get("phase")
            if phase not in seen:
                seen.add(phase)
                yield table, phase
            if game.is_over():
                return
            text, source = sim.next_action()
            assert table.submit(text, source).accepted, text
            sim.applied(text)
    finally:
        table.close()
