"""Labels on the dashboard's pages are in sentence case, in Russian and in English: a button, a
field's or a key's name, a heading, a badge, a chip's caption, a select's choice starts with a
capital letter (values inside a line — «Статус: в игре», «шанс 1/2» — stay as they are). The
catalogue's label-only words are in sentence case themselves; a game term, which is also a value,
becomes a label where it is used as one (the page script's ``label``, ``i18n.sentence``)."""

from __future__ import annotations

import logging
import os
import re
import time

import pytest

from companion.dashboard import DashboardServer
from companion.dashboard import i18n
from companion.games import registry
from companion.games.simulator import get_sim_class
from companion.table import Table
from tests.browser import CHROMIUM, PHONE, operator_login

#: where the pages put labels (selectors), and the attributes that carry one
LABELS = ["h1", "h2", "h3", "dt", "th", ".seat-stats small", ".badge", ".phase", "button", "label",
          "legend", ".step-label", "#table-actions .verb", "#live", ".hw b", "select option"]
#: a label's first letter, when it starts with one («5 на Q♥ …», "3 on …" start with a number)
FIRST_LETTER = re.compile(r"^[\W_]*([^\W\d_])")


def lower_labels(page) -> list[str]:
    """The page's label texts (and placeholders) whose first letter is a small letter."""
    texts = page.evaluate("""(sels) => {
        const out = [];
        for (const s of sels) document.querySelectorAll(s).forEach(e => {
            if (e.closest('.seat-name')) return;
            // a label's own words: its first text node (a <label> also holds its input)
            const t = s === 'label' ? (e.firstChild && e.firstChild.nodeType === 3 ? e.firstChild.textContent : '')
                                    : e.textContent;
            out.push(t.trim());
        });
        document.querySelectorAll('input[placeholder], textarea[placeholder]').forEach(e => out.push(e.placeholder));
        document.querySelectorAll('#table-actions [title]').forEach(e => out.push(e.title));
        return out; }""", LABELS)
    bad = []
    for t in texts:
        m = FIRST_LETTER.match(t)
        if m and m.group(1).islower():
            bad.append(t)
    return bad


def test_catalogue_labels_are_sentence_case_in_both_languages(fast_dir):
    from flask_babel import force_locale

    from companion.dashboard import create_app

    table = Table(fast_dir, pin="246810")
    app = create_app(table, testing=True)
    try:
        with app.test_request_context("/"):
            for lang in ("en", "ru"):
                with force_locale(lang):
                    words = [i18n.option_label(k, spec.id) for spec in registry.specs() for k in spec.option_labels]
                    words += [i18n.js_words()[k] for k in ("pending", "live", "offline", "odds", "notes",
                                                           "b_passed", "b_agreed")]
                    words += [i18n.field_word(f) for f in ("slot", "leader", "serials", "card", "bet_id")]
                    for w in words:
                        assert w[:1] == w[:1].upper(), (lang, w)
                    if lang == "ru":
                        assert i18n.option_label("notes_per_player", "skull") == "Купюр у игрока"
                        assert i18n.field_word("slot") == "Место"
                        assert i18n.sentence(i18n.term("odd")) == "Нечётная"
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()


@pytest.mark.ui
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no {CHROMIUM}")
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_label_on_every_page_starts_with_a_capital(browser, fast_dir, lang):
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    ctx = browser.new_context(viewport=PHONE)
    ctx.add_cookies([{"name": "lang", "value": lang, "url": srv.url}])
    found = {}
    try:
        op = ctx.new_page()
        operator_login(op, srv.url, table.pin)  # the start-up link logs in by itself
        found["operator, no game"] = lower_labels(op)
        for game, seats, steps in (("skull", 3, 12), ("doubt", 3, 6), ("hoggenheimer", 3, 3),
                                   ("infinity", 3, 5), ("lottery", 4, 4)):
            table.new_game(game, ["Аня", "Борис", "Вера", "Глеб"][:seats])
            sim = get_sim_class(game)(table.referee.game, 5)
            for _ in range(steps):
                nxt = sim.next_action()
                if nxt is None:
                    break
                assert table.submit(*nxt).accepted, nxt
                sim.applied(nxt[0])
            pages = {"public": ctx.new_page(), "seat": ctx.new_page(), "operator": op}
            pages["public"].goto(srv.url + "/")
            pages["seat"].goto(srv.url + "/join")
            pages["seat"].fill("#code", table.seat_codes()[1])
            pages["seat"].click("button[type=submit]")
            op.goto(srv.url + "/operator")
            time.sleep(0.8)  # the stream's snapshot and the pad are drawn
            for name, page in pages.items():
                page.wait_for_selector("#app .card")
                found[f"{game} {name}"] = lower_labels(page)
            pages["public"].close()
            pages["seat"].close()
    finally:
        ctx.close()
        srv.stop()
        table.close()
    assert not any(found.values()), {k: v for k, v in found.items() if v}


def test_every_refusal_sentence_starts_with_a_capital():
    """A refusal's message follows «Не принято: » in a toast and stands alone in an alert: a
    sentence, capital first, in both languages — the games' own words too (skull's hook, the
    lottery's ``REASONS_RU``), which started with a small letter."""
    from companion import games
    from companion.dashboard.reasons import REASONS, reason_message

    for gid in games.ids():
        options = games.get_game_class(gid).OPTIONS()
        for code in [*REASONS, *games.get_spec(gid).presenter.refusals]:
            for lang in ("ru", "en"):
                text = reason_message(code, lang, gid, options)
                assert text[:1] == text[:1].upper(), (gid, code, lang, text)
