"""The hardware status chips in the page's language: a table without a button box says «Кнопки:
не используются» (not «нет связи», which reads as a fault), and every detail a player can read
(the chip's tooltip) is in Russian on a Russian page. The words are checked by message id (the
buttons' own form of a state is the message context ``buttons``); the browser's chip keeps its
rendered Russian once."""

from __future__ import annotations

import re

from companion import statuswords as W
from companion.dashboard import create_app
from companion.i18n import M, MP, render
from companion.table import Table

from tests.browser import PHONE, UI

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def test_unused_is_not_a_fault_and_absent_is():
    unused = {"state": "unused", "why": "dashboard_only", "detail": "dashboard only: enter observations by hand"}
    buttons, not_used = render(M("Button box"), "ru"), render(MP("buttons", "not used"), "ru")
    assert W.line("buttons", unused) == f"{buttons}: {not_used} — {render(M(W.WHY['dashboard_only']), 'ru')}"
    assert W.state_word("camera", "unused") == render(M("not used"), "ru") != not_used  # the camera's own form
    assert W.state_word("buttons", "absent") == render(M("not connected"), "ru") != not_used
    assert W.line("buttons", unused, "en").startswith("Button box: not used — ")
    port = M("port %(port)s: not connected", port="/dev/buttonbox")
    assert W.line("buttons", {"state": "error", "detail": "/dev/buttonbox"}) == \
        f"{buttons}: {render(M('fault'), 'ru')} — {render(port, 'ru')}"


def test_every_detail_is_in_russian():
    for part, st in [("camera", {"state": "sim", "detail": "scene"}),
                     ("camera", {"state": "ok", "detail": "picamera2"}),
                     ("ocr", {"state": "ok", "detail": "notes (RUB), cards (standard)"}),
                     ("buttons", {"state": "warn", "detail": "/dev/ttyACM0"}),
                     ("buttons", {"state": "unused", "why": "dashboard_only", "detail": "x"})]:
        text = W.detail_words(part, st, "ru")
        assert text and not [w for w in LATIN_WORD.findall(text)
                             if w not in ("dev", "ttyACM", "RUB", "standard", "Raspberry")], text


def test_the_pages_get_the_words(tmp_path):
    table = Table(tmp_path, pin="246802")
    try:
        table.set_status("buttons", {"state": "unused", "why": "dashboard_only", "detail": "dashboard only"})
        app = create_app(table, testing=True)
        st = app.test_client().get("/api/state").json["status"]
        assert st["buttons"]["words"]["ru"] == {"part": render(M("Button box"), "ru"),
                                                "state": render(MP("buttons", "not used"), "ru"),
                                                "detail": render(M(W.WHY["dashboard_only"]), "ru")}
        assert st["buttons"]["words"]["en"]["state"] == "not used"
        assert st["camera"]["words"]["ru"]["state"] == render(M("not connected"), "ru")  # never reported
    finally:
        table.close()


@UI[0]
@UI[1]
def test_the_chip_reads_not_used_in_a_browser(browser, fast_dir):
    from companion.dashboard import DashboardServer

    table = Table(fast_dir, pin="246802")
    for part in ("buttons", "camera", "ocr"):  # as `companion dashboard` sets them
        table.set_status(part, {"state": "unused", "why": "dashboard_only", "detail": "dashboard only"})
    srv = DashboardServer(table, port=0).start()
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(srv.url + "/")
        chip = page.locator(".hw-unused").first
        chip.wait_for()
        assert chip.inner_text() == "Кнопки: не используются"  # the rendered words, once
        assert chip.get_attribute("title") == render(M(W.WHY["dashboard_only"]), "ru")
        page.context.close()
    finally:
        srv.stop()
        table.close()
