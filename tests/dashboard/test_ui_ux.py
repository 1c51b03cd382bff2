"""The newcomer's dashboard findings, in a real headless Chromium (Russian UI by default):

* every page of every game in Russian shows no English word of the UI or the games' terms;
* the history lists one action's events newest first, like the actions themselves;
* face-up notes are drawn as icons, not emoji (no emoji font needed);
* the operator's manual entry leaves face values unknown and canonicalises typed serials.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from tests.browser import PHONE, UI, open_details, operator_login, unfold  # noqa: E402
from companion.games import ids as game_ids  # noqa: E402
from companion.games.simulator import get_sim_class  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

pytestmark = UI

#: English the newcomer saw in the Russian UI (and what the same renderer showed for the other games)
KNOWN_ENGLISH = ["round end", "notes per player", "skulls per player", "skull parity", "leaver counts as",
                 "last skull out", "face value unknown", "your note to bank", "game over", "prize won",
                 "trick won", "deal over", "bet withdrawn", "card turned", "doubt right", "believe wrong",
                 "starting chips", "fine per card", "simplified scoring", "joker first", "true"]
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z_ ]{2,}")
#: Latin that is data, not words: the RU/EN switch, currency and card codes, a learned deck's name,
#: a phone's browser and system as the operator's device list names them, a command to type
ALLOWED = re.compile(r"^(RU ?EN|RUB|EUR|USD|INR|KRW|JPY|INF|JK|forest|Chrome|Chromium|Firefox|Safari|Edge|Linux|"
                     r"Android|iPhone|iPad|iOS|Windows|macOS|companion run)$")
SEATS = {"skull": 3, "doubt": 3, "hoggenheimer": 3, "infinity": 3, "lottery": 4}


def drive(table, sim, until, limit=3000) -> None:
    for _ in range(limit):
        if until(table.referee.game):
            return
        nxt = sim.next_action()
        if nxt is None:
            return
        text, source = nxt
        assert table.submit(text, source).accepted, text
        sim.applied(text)


def settled_boxes(page, *selectors: str) -> list[list[float]]:
    """``[top, bottom]`` (px) of each selector's element, read together in one frame after two
    animation frames, so resize observers (the header's height the pad sticks under) have run."""
    return page.evaluate(
        "(sels) => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => "
        "done(sels.map((s) => { const r = document.querySelector(s).getBoundingClientRect(); "
        "return [r.top, r.bottom]; })))))", list(selectors))


def settle(page, table) -> None:
    """Wait until the page's script shows the table's current version."""
    deadline = time.monotonic() + 5
    want = table.referee.version
    while time.monotonic() < deadline:
        if (page.evaluate("() => window.__lastVersion") or 0) >= want:
            return
        time.sleep(0.02)


def goto(page, url) -> None:
    for attempt in range(3):  # the operator page reloads itself on a new game: retry that navigation
        try:
            page.goto(url)
            return
        except Exception:
            if attempt == 2:
                raise
            time.sleep(0.3)


def english_in(text: str) -> list[str]:
    found = [w for w in KNOWN_ENGLISH if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text, re.I)]
    found += [m.strip() for m in LATIN_WORD.findall(text) if not ALLOWED.match(m.strip())]
    if re.search(r"\Sвидите только вы", text):  # "Роль розавидите только вы": a missing space
        found.append("…видите только вы (no space)")
    return found


def test_russian_pages_show_no_english(browser, table_server, artifacts_dir):
    table, srv = table_server
    ctx = browser.new_context(viewport=PHONE)
    op = ctx.new_page()
    operator_login(op, srv.url, table.pin, goto)
    expect(op.locator("#new-game")).to_be_visible()
    problems: dict[str, set] = {}
    text = op.inner_text("body")  # the new-game form: every game's name and options
    for w in english_in(text):
        problems.setdefault(w, set()).add("operator (no game)")
    for page_path in ("/join",):
        p = ctx.new_page()
        goto(p, srv.url + page_path)
        for w in english_in(p.inner_text("body")):
            problems.setdefault(w, set()).add(page_path)
        p.close()
    for gid in game_ids():
        table.new_game(gid, [f"Игрок {i + 1}" for i in range(SEATS.get(gid, 3))])
        sim = get_sim_class(gid)(table.referee.game, 3)
        seat = browser.new_context(viewport=PHONE).new_page()
        goto(seat, srv.url + "/join")
        seat.fill("#code", table.seat_codes()[0])
        seat.click("button[type=submit]")
        expect(seat).to_have_url(srv.url + "/seat")
        for stop in (40, 10 ** 9):
            n0 = table.referee.version
            drive(table, sim, lambda g, n0=n0, stop=stop: g.is_over() or table.referee.version - n0 >= stop)
            for name, page in (("/", None), ("/operator", op), ("/seat", seat)):
                if page is None:
                    page = ctx.new_page()
                    goto(page, srv.url + "/")
                elif name == "/operator":
                    goto(page, srv.url + "/operator")
                settle(page, table)
                for w in english_in(page.inner_text("body")):
                    problems.setdefault(w, set()).add(f"{gid} {name}")
                if name == "/":
                    page.close()
            if table.referee.game.is_over():
                break
        seat.screenshot(path=str(artifacts_dir / f"ux-ru-seat-{gid}.png"), full_page=True)
        seat.context.close()
    ctx.close()
    assert not problems, "English in the Russian UI: " + "; ".join(
        f"{w!r} on {', '.join(sorted(where)[:3])}" for w, where in sorted(problems.items()))


def test_history_newest_first_within_an_action_and_note_icons(browser, table_server, artifacts_dir):
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    sim = get_sim_class("skull")(table.referee.game, 4)
    drive(table, sim, lambda g: g.phase != "setup")  # "table dealer N": events dealer, round_start
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/")
    settle(page, table)
    items = page.locator(".hist li").all_inner_texts()
    first_dealer = next(i for i, t in enumerate(items) if t.startswith("Первый дилер"))
    round_start = next(i for i, t in enumerate(items) if "Раунд 1" in t)
    assert round_start == first_dealer - 1, items[:5]  # the later event above the earlier one
    # play on until a note is face up: drawn as an inline SVG icon, never as an emoji character
    drive(table, sim, lambda g: any(len(f) for f in g.faceup))
    settle(page, table)
    tile = page.locator(".note-up").first
    expect(tile.locator("svg")).to_have_count(1)
    assert tile.get_attribute("aria-label") in ("роза", "череп")
    box = tile.locator("svg").bounding_box()
    assert box and box["width"] >= 12 and box["height"] >= 12
    html = page.content()
    assert not re.search("[\U0001F000-\U0001FFFF]", html + page.inner_text("body"))
    page.screenshot(path=str(artifacts_dir / "ux-skull-icons.png"), full_page=True)
    page.context.close()


def test_no_emoji_in_the_page_sources():
    # the page's own scripts and templates, and each game's board scripts in its package
    sources = [*(ROOT / "web").rglob("*.js"), *(ROOT / "web").rglob("*.html"),
               *(ROOT / "companion" / "games").glob("*/static/*.js")]
    assert any(p.parts[-2:] == ("static", "board.js") for p in sources)
    for path in sources:
        text = path.read_text(encoding="utf-8")
        code = "\n".join(l for l in text.splitlines() if not l.strip().startswith("//"))
        assert not re.search("[\U0001F000-\U0001FFFF]", code), path


def operator_page(browser, table_server, seats=("Аня", "Борис")):
    """A new skull game with ``seats`` and the operator page logged in at 360 px: ``(table, page)``."""
    table, srv = table_server
    table.new_game("skull", list(seats))
    page = browser.new_context(viewport=PHONE).new_page()
    operator_login(page, srv.url, table.pin, goto)
    return table, page


def _manual_register(browser, table_server, typed: str, check_form=None) -> None:
    """Log in at 360 px, type ``typed`` into the first table action's serials field and send:
    the log gets the canonical serials, source ``manual``."""
    table, page = operator_page(browser, table_server)
    form = page.locator("#table-actions form").first
    expect(form).to_be_visible()
    if check_form:
        check_form(form)
    form.locator("[name=serials]").fill(typed)
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    # in words, the seat by name: not the log's "table register 0 …" (seats count from 0 there)
    expect(page.locator("#toast")).to_contain_text("Аня")
    expect(page.locator("#toast")).not_to_contain_text("table register")
    rec = table.referee.log.records()[-1]
    assert rec.action == "table register 0 АК2444840,АК2444842,АК2444844,АК2444841 ?" and rec.source == "manual"
    page.context.close()


def test_operator_manual_entry_in_the_browser(browser, table_server):
    def check(form):
        serials, values = form.locator("[name=serials]"), form.locator("[name=denominations]")
        assert serials.get_attribute("required") is not None
        assert values.get_attribute("required") is None  # face values may stay unknown
        assert "неизвестно" in values.get_attribute("placeholder")

    _manual_register(browser, table_server, "ак 244-4840, ak2444842; АК 2444844, aK-2444841", check)


def test_manual_entry_takes_serials_one_a_line(browser, table_server):
    """docs/dashboard.md, Manual entry: a list field takes items separated by new lines too, so
    the serials' field is a multi-line box."""
    def check(form):
        expect(form.locator("textarea[name=serials]")).to_be_visible()

    _manual_register(browser, table_server, "ак 244-4840\nak2444842\nАК 2444844\naK-2444841", check)


def test_manual_entry_takes_serials_and_face_values_separated_by_spaces(browser, table_server):
    """Serials typed on one line with spaces between them, each a whole serial (every word holds a
    digit), are four notes; face values «100 500 1000 5000» are four values (a first-time tester
    got them glued into one number and a refusal that blamed him)."""
    table, page = operator_page(browser, table_server)
    form = page.locator("#table-actions form").first
    expect(form).to_be_visible()
    form.locator("[name=serials]").fill("ак2444840 AK2444842 АК2444844 aK2444841")
    form.locator("[name=denominations]").fill("100 500 1000 5000")
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    rec = table.referee.log.records()[-1]
    assert rec.action == "table register 0 АК2444840,АК2444842,АК2444844,АК2444841 100,500,1000,5000"
    page.context.close()


CYRILLIC = re.compile(r"[А-Яа-яЁё]+")


def test_english_hoggenheimer_page_shows_no_russian_words(browser, table_server):
    """On an English page the joker banking game's odds table and bets name their shapes in
    English (the view says a shape by its id, the page by the game's terms), and in Russian on a Russian page,
    once. Players' names are the only Cyrillic allowed on the English page."""
    table, srv = table_server
    names = ["Аня", "Борис", "Вера"]
    table.new_game("hoggenheimer", names)
    sim = get_sim_class("hoggenheimer")(table.referee.game, 3)
    drive(table, sim, lambda g, n0=table.referee.version: g.is_over() or table.referee.version - n0 >= 12)
    ctx = browser.new_context(viewport=PHONE)
    ctx.add_cookies([{"name": "lang", "value": "en", "url": srv.url}])
    page = ctx.new_page()
    goto(page, srv.url + "/")
    settle(page, table)
    open_details(page)  # the odds table lies under «Подробнее»
    text = page.inner_text("body")
    russian = [w for w in CYRILLIC.findall(text) if w not in names]
    assert not russian, russian
    assert re.search(r"(?<![A-Za-z])square(?![A-Za-z])", text), "the odds table names its shapes"
    ctx.add_cookies([{"name": "lang", "value": "ru", "url": srv.url}])
    goto(page, srv.url + "/")
    settle(page, table)
    open_details(page)
    ru = page.inner_text("body")
    assert "квадрат" in ru and "shape ru" not in ru and "форма ru" not in ru.lower()
    ctx.close()


def test_a_rejection_toast_does_not_block_the_next_form(browser, table_server):
    """On a phone the toast sits over the bottom of the page; a tap there reaches the form under
    it (the toast takes no pointer events), and the page gets room to scroll its last form above
    it while a toast shows."""
    table, page = operator_page(browser, table_server)
    form = page.locator("#table-actions form").first
    expect(form).to_be_visible()
    form.locator("[name=serials]").fill("АК2444840")  # one note where four are needed: rejected
    form.locator("button").click()
    toast = page.locator("#toast")
    expect(toast).to_have_class(re.compile(r"\bbad\b"))
    box = toast.bounding_box()
    under = page.evaluate("([x, y]) => document.elementFromPoint(x, y) === document.getElementById('toast')",
                          [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert under is False, "the toast catches taps meant for the form under it"
    assert page.evaluate("() => document.body.classList.contains('toasting')")
    page.context.close()


def test_no_answer_from_the_table_is_said_not_silent(browser, table_server):
    """A tap whose request gets no answer (the box restarting, Wi-Fi gone) shows a toast that
    says so and asks to look at the table before repeating (the action may have landed); the
    typed entry stays in its field."""
    table, page = operator_page(browser, table_server)
    form = page.locator("#table-actions form").first
    expect(form).to_be_visible()
    page.route("**/api/operator/manual", lambda route: route.abort("connectionreset"))
    form.locator("[name=serials]").fill("АК2444840")
    form.locator("button").click()
    toast = page.locator("#toast")
    expect(toast).to_have_class(re.compile(r"\bbad\b"))
    expect(toast).to_contain_text("Нет ответа от стола")
    expect(form.locator("[name=serials]")).to_have_value("АК2444840")
    assert table.referee.version == 0
    page.context.close()


def test_new_game_asks_only_while_a_game_is_running(browser, table_server):
    """"This ends the current game" is asked while a game runs (dismissed: nothing changes), and
    not once the game has ended — the next game just starts."""
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вера"])
    page = browser.new_context(viewport=PHONE).new_page()
    dialogs: list[str] = []

    def on_dialog(d):
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    operator_login(page, srv.url, table.pin, goto)
    unfold(page, "#fold-new")  # folded while a game runs
    form = page.locator("#new-game")
    expect(form).to_be_visible()

    def start():
        form.locator("select[name=game]").select_option("skull")
        form.locator("textarea[name=seats]").fill("Галя\nДима")
        form.locator("button[type=submit]").click()

    epoch = table.epoch
    start()
    deadline = time.monotonic() + 5
    while not dialogs and time.monotonic() < deadline:  # asked once the server has checked the form
        page.wait_for_timeout(50)
    expect(page.locator("#new-game")).to_be_visible()
    assert len(dialogs) == 1 and table.epoch == epoch  # asked, dismissed: the game goes on
    sim = get_sim_class("skull")(table.referee.game, 3)
    drive(table, sim, lambda g: g.is_over())
    assert table.referee.game.is_over()
    settle(page, table)
    start()
    page.wait_for_load_state()
    deadline = time.monotonic() + 5
    while table.epoch == epoch and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table.epoch != epoch and table.game_info()["seats"] == ["Галя", "Дима"]
    assert len(dialogs) == 1, dialogs
    # let the page finish the navigation the new game started (the form's answer, then the
    # console's own reload) before the context closes: closing mid-navigation can hang
    expect(page.locator("#table-actions form").first).to_be_visible(timeout=15000)
    page.wait_for_load_state("load")
    page.context.close()


def test_taking_a_player_out_is_asked_first(browser, table_server):
    """The operator's «leave» (a player taken out of the game), in its own folded block
    «Вывести игрока»: it asks, by name, before it is sent; dismissed, nothing happens."""
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вера"])
    page = browser.new_context(viewport=PHONE).new_page()
    answers = [False, True]
    asked: list[str] = []

    def on_dialog(d):
        asked.append(d.message)
        d.accept() if answers.pop(0) else d.dismiss()

    page.on("dialog", on_dialog)
    operator_login(page, srv.url, table.pin, goto)
    unfold(page, "#fold-leave")
    leave = page.locator("#leave-actions form[data-verb=leave]").first
    expect(leave).to_be_visible()
    n0 = len(table.referee.log.records())
    leave.locator("button").click()
    time.sleep(0.5)
    assert len(asked) == 1 and "Аня" in asked[0] and "из игры" in asked[0], asked
    assert len(table.referee.log.records()) == n0  # dismissed: not sent
    page.locator("#leave-actions form[data-verb=leave]").first.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    assert table.referee.log.records()[-1].action.startswith("table leave")
    page.context.close()


def test_a_table_update_keeps_a_manual_entry_half_typed(browser, table_server):
    """While the operator types a manual entry, an update of the table (another action, a
    prompt, a status change) must not rebuild the form and wipe what was typed."""
    table, page = operator_page(browser, table_server)
    form = page.locator("#table-actions form[data-verb=register]").first
    expect(form).to_be_visible()
    form.locator("[name=serials]").click()
    page.keyboard.type("АК2444")  # half typed, the caret in the field
    v0 = page.evaluate("() => window.__lastVersion")
    # Борис's notes are registered meanwhile: the page gets a new model with other actions
    assert table.submit("table register 1 АК2444850,АК2444852,АК2444854,АК2444851 ?", "manual").accepted
    deadline = time.monotonic() + 10
    while page.evaluate("() => window.__lastVersion") == v0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert page.evaluate("() => window.__lastVersion") != v0
    forms = page.locator("#table-actions form[data-verb=register]")
    expect(forms).to_have_count(1)  # Аня's form only, rebuilt
    page.keyboard.type("840")  # the operator types on: the rebuilt field kept the focus and caret
    assert forms.first.locator("[name=serials]").input_value() == "АК2444840"
    page.context.close()


def test_the_console_does_not_rebuild_its_forms_when_its_stream_starts(browser, table_server):
    """The page's first model (in the HTML) and the stream's first snapshot are the same table:
    the manual-entry forms are built once, not again under the operator's fingers when the
    stream connects (the keys of the two came in different orders; a rebuild then ate a fill
    in a UI test under load)."""
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис"])
    page = browser.new_context(viewport=PHONE).new_page()
    page.add_init_script("""document.addEventListener('DOMContentLoaded', function () {
        window.__rebuilds = 0;
        var tb = document.getElementById('table-actions');
        if (tb) new MutationObserver(function () { window.__rebuilds++; }).observe(tb, {childList: true});
    });""")
    operator_login(page, srv.url, table.pin, goto)
    expect(page.locator("#table-actions form").first).to_be_visible()
    page.wait_for_function("() => window.__lastVersion !== undefined")  # the stream's snapshot is in
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__rebuilds") == 0
    page.context.close()


def test_the_seat_pad_sits_under_the_header_and_covers_nothing(browser, table_server):
    """At 360 px the header takes two or three lines: the seat's action pad stands under it, above the status
    chips (it covered «Кнопки» and «Камера», with an empty band above it), and when the page
    scrolls it stays in view just under the header; a reloaded page's stepper shows the count the
    table already shows for the seat."""
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис"])
    for line in ("table register 0 АК2444842,АК2444844,АК2444846,АК2444841 ?",
                 "table register 1 ВЕ1000002,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?", "table dealer 0",
                 "0 place", "1 place"):
        assert table.submit(line, "manual").accepted, line
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/join")
    page.fill("#code", table.seat_codes()[0])
    page.click("button[type=submit]")
    expect(page.locator("#pad .stepper")).to_be_visible()
    expect(page.locator(".status .hw").first).to_be_visible()
    # the live mark wraps the header onto another line (+56 px at 360 px): measure the page as it
    # stands once it is live and drawn, all three boxes in one frame (three separate reads once
    # saw the header before the mark and the pad after it: a "band" of 56 + 18 px)
    expect(page.locator("#live.on")).to_be_visible()
    header, pad, chips = settled_boxes(page, "header.top", "#pad", ".status")
    assert pad[1] <= chips[0], (pad, chips)  # the pad ends above the status chips
    assert pad[0] - header[1] < 30, (header, pad)  # no empty band between header and pad
    page.mouse.wheel(0, 600)
    page.wait_for_function("() => scrollY > 300")
    header, pad = settled_boxes(page, "header.top", "#pad")
    assert abs(pad[0] - header[1]) < 2, (header, pad)  # stuck right under the header
    # the stepper counted up to 2 (two notes on the table; everyone sees the count); a reload
    # picks it up instead of starting again at 1
    page.locator("#pad .stepper button[aria-label='+']").click()
    expect(page.locator("#pad .step-val")).to_have_text("2")
    deadline = time.monotonic() + 5
    while table.pending().get(0) != 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert table.pending().get(0) == 2
    page.reload()
    expect(page.locator("#pad .step-val")).to_have_text("2")
    page.context.close()


def test_a_long_pad_never_hides_the_table(browser, table_server):
    """The joker banking game's pad holds the bet grid and a list of the seat's bets to take back:
    the seat's pad scrolls inside itself and takes at most about half the phone's screen, so the
    layout and the seat's chips stay in view at every scroll position (a 4 368 px pinned pad, one
    button for each of the 117 targets then, hid the whole game)."""
    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
    for text in ("1 bet 1 AS", "1 bet 1 KS", "1 bet 1 QS", "1 bet 1 JS", "1 bet 1 10S", "1 bet 1 9S"):
        assert table.submit(text, "dashboard").accepted, text
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/join")
    page.fill("#code", table.seat_codes()[1])
    page.click("button[type=submit]")
    expect(page.locator("#pad .choice-list button")).to_have_count(6)
    assert page.evaluate("() => { var p = document.getElementById('pad'); return p.scrollHeight > p.clientHeight; }")
    for y in (0, 800, 2000):
        page.evaluate(f"() => window.scrollTo(0, {y})")
        page.wait_for_timeout(100)
        pad = page.evaluate("() => { var r = document.getElementById('pad').getBoundingClientRect(); "
                            "return [Math.max(0, r.top), Math.min(innerHeight, r.bottom)]; }")
        assert pad[1] - pad[0] <= 0.5 * PHONE["height"], (y, pad)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("#app .game").scroll_into_view_if_needed()
    box = page.locator("#app .game").bounding_box()
    assert box["y"] < PHONE["height"] and box["y"] + box["height"] > 0  # the table can be seen
    page.context.close()


def test_seat_numbers_are_names_and_slots_are_not(browser, table_server):
    """Seat indexes in a view (the lottery's card holders, a play-off's defender…) are shown as
    names — a bare "2" read as the second seat on screen and named the wrong player — while a
    prize slot, which is not a seat, is never labelled with a player's name."""
    table, srv = table_server
    names = ["Аня", "Борис", "Вика", "Гена"]
    table.new_game("lottery", names)
    sim = get_sim_class("lottery")(table.referee.game, 3)
    drive(table, sim, lambda g: any(a.VERB == "prize" for a in g.legal_actions(None)))
    assert any(a.VERB == "prize" for a in table.referee.game.legal_actions(None))
    ctx = browser.new_context(viewport=PHONE)
    op = ctx.new_page()
    operator_login(op, srv.url, table.pin, goto)
    prize = op.locator("#table-actions form[data-verb=prize]").first
    expect(prize).to_be_visible()
    assert not any(n in prize.inner_text() for n in names), prize.inner_text()
    page = ctx.new_page()
    goto(page, srv.url + "/")
    settle(page, table)
    text = page.inner_text("#app")
    players = table.referee.game.view(None)["players"]
    assert all(names[s] in text for s in players)
    assert not re.search(r"игроки\s+\d", text), text[:800]
    ctx.close()


@pytest.mark.parametrize("game_id", ["infinity", "lottery"])
def test_the_end_of_a_game_names_its_winner(browser, table_server, game_id):
    """«Игра окончена» is followed by the result — the winner by name and each player's score or
    balance — not by bare lists of numbers (the trick game and the lottery showed no winner)."""
    table, srv = table_server
    names = ["Аня", "Борис", "Вика", "Гена"][: SEATS[game_id]]
    table.new_game(game_id, names)
    sim = get_sim_class(game_id)(table.referee.game, 3)
    drive(table, sim, lambda g: g.is_over(), limit=6000)
    game = table.referee.game
    assert game.is_over()
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/")
    settle(page, table)
    over = page.locator("#app .over")
    expect(over).to_be_visible()
    text = over.inner_text()
    winner = game.result()["winner"]
    if winner is not None:
        assert winner in text, text
    assert sum(n in text for n in names) >= 2, text  # per player, by name
    page.context.close()


def test_cards_typed_with_spaces_and_small_letters(browser, table_server):
    """A player's cards typed as one reads them — "qh 10s ad", spaces between, small letters —
    are the cards QH,10S,AD (a serial's inner spaces are still dropped: that is one note)."""
    table, srv = table_server
    table.new_game("lottery", ["Аня", "Борис", "Вика", "Гена"])
    sim = get_sim_class("lottery")(table.referee.game, 3)
    nxt = None
    for _ in range(200):
        nxt = sim.next_action()
        if nxt[0].startswith("table cards "):
            break
        assert table.submit(*nxt).accepted
        sim.applied(nxt[0])
    _, _, owner, cards = nxt[0].split()
    table_, page = table, browser.new_context(viewport=PHONE).new_page()
    operator_login(page, srv.url, table.pin, goto)
    form = page.locator(f"#table-actions form[data-key='cards {owner} ?']")
    expect(form).to_be_visible()
    form.locator("[name=cards]").fill(" ".join(c.lower() for c in cards.split(",")))
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    rec = table_.referee.log.records()[-1]
    assert rec.action == f"table cards {owner} {cards}" and rec.source == "manual", rec.action
    page.context.close()


def test_a_verb_is_worded_for_its_game(browser, table_server):
    """Doubt's lead lays cards («Выложить карты»), not skull's banknote («Выложить купюру»)."""
    table, srv = table_server
    table.new_game("doubt", ["Аня", "Борис", "Вика"])
    assert table.submit(f"{table.referee.game.dealer} deal", "button").accepted
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/join")
    page.fill("#code", table.seat_codes()[table.referee.game.turn])
    page.click("button[type=submit]")
    expect(page.locator("#pad button").first).to_be_visible()
    pad = page.inner_text("#pad")
    assert "Выложить карты" in pad and "купюр" not in pad, pad[:300]
    page.context.close()


def test_a_seat_whose_move_the_camera_reads_is_told_it_is_his_turn(browser, table_server):
    """In the trick game a play is a card the camera reads: the seat to play is told it is his
    move, not «Ждём других игроков»."""
    table, srv = table_server
    table.new_game("infinity", ["Аня", "Борис", "Вика"])
    sim = get_sim_class("infinity")(table.referee.game, 3)
    drive(table, sim, lambda g: g.s["phase"] == "play" and g.current_seats())
    seat = table.referee.game.current_seats()[0]
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/join")
    page.fill("#code", table.seat_codes()[seat])
    page.click("button[type=submit]")
    expect(page.locator("#pad .wait")).to_contain_text("Ваш ход")
    # and may declare it, as on the button box; the face follows from the camera or the operator
    page.locator("#pad .pad-row button").first.click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    assert table.referee.log.records()[-1].action == f"{seat} play ?"
    page.context.close()


def test_a_lead_is_a_count_and_a_kind_not_64_buttons(browser, table_server):
    """Doubt's lead (how many cards, which kind is claimed) is a stepper for the count and one
    button per kind; a tap sends that count and kind."""
    table, srv = table_server
    table.new_game("doubt", ["Аня", "Борис", "Вика"])
    assert table.submit(f"{table.referee.game.dealer} deal", "button").accepted
    seat = table.referee.game.turn
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/join")
    page.fill("#code", table.seat_codes()[seat])
    page.click("button[type=submit]")
    kinds = page.locator("#pad .pad-row button")
    expect(kinds.first).to_be_visible()
    assert kinds.count() == 8, kinds.count()  # the default deck's eight kinds
    page.locator("#pad .stepper button[aria-label='+']").click()
    page.locator("#pad .stepper button[aria-label='+']").click()
    expect(page.locator("#pad .step-val")).to_have_text("3")
    page.locator("#pad .pad-row button", has_text="заяц").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    assert table.referee.log.records()[-1].action == f"{seat} place 3 hare"
    page.context.close()


def test_the_banker_chooses_his_spread(browser, table_server):
    """The lottery banker's spread over the four prizes is his choice: the pad offers the
    engine's suggestion in a field he may change; what he sends is what the log gets."""
    table, srv = table_server
    table.new_game("lottery", ["Аня", "Борис", "Вика", "Гена"])
    game = table.referee.game
    banker = game.options.banker
    suggested = [a for a in game.legal_actions(banker) if a.VERB == "spread"]
    assert suggested, "the game opens with the banker's spread"
    total = sum(suggested[0].amounts)
    mine = [total - 6, 3, 2, 1]
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/join")
    page.fill("#code", table.seat_codes()[banker])
    page.click("button[type=submit]")
    field = page.locator("#pad form.spread input")
    expect(field).to_be_visible()
    field.fill(" ".join(map(str, mine)))
    page.locator("#pad form.spread button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    assert table.referee.log.records()[-1].action == f"{banker} spread " + ",".join(map(str, mine))
    page.context.close()


def test_a_bet_has_a_stake_and_cards_read_with_suit_signs(browser, table_server):
    """The joker game's bet: a stake stepper over the table's limits and a grid of the layout's
    cards shown with suit signs (К♠ on a Russian page); the bet sends that stake (it was always 1). The grid itself:
    tests/games/hoggenheimer/test_bet_grid_ui.py."""
    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/join")
    page.fill("#code", table.seat_codes()[1])
    page.click("button[type=submit]")
    expect(page.locator("#pad .stepper .step-val")).to_have_text("1")
    for _ in range(4):
        page.locator("#pad .stepper button[aria-label='+']").click()
    expect(page.locator("#pad .step-val")).to_have_text("5")
    page.locator("#pad .bet-card", has_text=re.compile(r"^К♠$")).click()
    page.locator("#pad .bet-place").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    assert table.referee.log.records()[-1].action == "1 bet 5 KS"
    assert "К♠" in page.inner_text("#toast")  # the Russian page's king
    page.context.close()


def test_a_seat_typed_by_hand_counts_from_one_or_is_a_name(browser, table_server):
    """A seat the operator types (the trick game's first leader) is the number shown on screen,
    from 1, or the player's name — «2» was the third player."""
    table, srv = table_server
    table.new_game("infinity", ["Аня", "Борис", "Вика"])
    page = browser.new_context(viewport=PHONE).new_page()
    operator_login(page, srv.url, table.pin, goto)
    form = page.locator("#table-actions form[data-key='deal ?']")
    expect(form).to_be_visible()
    assert "с 1" in form.locator("input").get_attribute("placeholder")
    form.locator("input").fill("2")
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Борис")
    assert table.referee.log.records()[-1].action == "table deal 1"
    assert table.undo().accepted
    settle(page, table)  # the page shows the undo before the next entry (a loaded run typed into the old form)
    form = page.locator("#table-actions form[data-key='deal ?']")
    expect(form).to_be_visible()
    form.locator("input").fill("вика")
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Вика")
    assert table.referee.log.records()[-1].action == "table deal 2"
    page.context.close()


def test_the_skull_game_over_banner_names_the_winner(browser, table_server):
    """Skull's view names its winner (its full result lists every player's notes, not public):
    the «Игра окончена» banner says who won."""
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вера"])
    sim = get_sim_class("skull")(table.referee.game, 3)
    drive(table, sim, lambda g: g.is_over(), limit=6000)
    winner = table.referee.game.view(None)["winner"]
    assert winner is not None
    page = browser.new_context(viewport=PHONE).new_page()
    goto(page, srv.url + "/")
    settle(page, table)
    expect(page.locator("#app .over")).to_contain_text("Аня Борис Вера".split()[winner])
    page.context.close()


def test_the_dealer_is_told_to_turn_notes_over(browser, table_server):
    """Skull's reveal is done at the table (the camera reads each note): the dealer's phone says
    it is his move — turn the notes over, his own first — not «Ждём других игроков»; the others
    still wait. The task is in the dealer's own view only."""
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис"])
    for line in ("table register 0 АК2444842,АК2444844,АК2444846,АК2444841 ?",
                 "table register 1 ВЕ1000002,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?", "table dealer 0",
                 "0 place", "1 place", "0 bid 1"):
        assert table.submit(line, "manual").accepted, line
    pages = []
    for seat in (0, 1):  # one phone each (a context each: its own seat cookie)
        page = browser.new_context(viewport=PHONE).new_page()
        goto(page, srv.url + "/join")
        page.fill("#code", table.seat_codes()[seat])
        page.click("button[type=submit]")
        pages.append(page)
    # the dealer waits for the other's answer; the pass starts the reveal while both pages are
    # open: the dealer's page must change its words with the live update (no reload)
    expect(pages[0].locator("#pad .wait")).to_contain_text("Ждём")
    assert table.submit("1 pass", "manual").accepted
    assert table.referee.game.view(None).get("table_task") is None
    expect(pages[0].locator("#pad .wait")).to_contain_text("переворачивайте купюры")
    expect(pages[1].locator("#pad .wait")).to_contain_text("Ждём")
    for page in pages:
        page.context.close()
