"""The hardware status chips in the page's language: a table without a button box says «Кнопки:
не используются» (not «нет связи», which reads as a fault), and every detail a player can read
(the chip's tooltip) is in Russian on a Russian page."""

from __future__ import annotations

import re

from companion import statuswords as W
from companion.dashboard import create_app
from companion.i18n import M, render
from companion.table import Table

from tests.browser import PHONE, UI

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def test_unused_is_not_a_fault_and_absent_is():
    unused = {"state": "unused", "why": "dashboard_only", "detail": "dashboard only: enter observations by hand"}
    assert W.line("buttons", unused) == ("Кнопки: не используются — стол без оборудования: наблюдения "
                                         "оператор вводит вручную на панели")
    assert W.state_word("camera", "unused") == "не используется"
    assert W.state_word("buttons", "absent") == "нет связи"
    assert W.line("buttons", unused, "en").startswith("Button box: not used — ")
    assert W.line("buttons", {"state": "error", "detail": "/dev/buttonbox"}) == \
        "Кнопки: неисправность — порт /dev/buttonbox: нет соединения"


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
        assert st["buttons"]["words"]["ru"] == {"part": "Кнопки", "state": "не используются",
                                                "detail": render(M(W.WHY["dashboard_only"]), "ru")}
        assert st["buttons"]["words"]["en"]["state"] == "not used"
        assert st["camera"]["words"]["ru"]["state"] == "нет связи"  # never reported: not connected
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
        assert chip.inner_text() == "Кнопки: не используются"
        assert chip.get_attribute("title") == render(M(W.WHY["dashboard_only"]), "ru")
        page.context.close()
    finally:
        srv.stop()
        table.close()
