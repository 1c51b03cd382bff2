"""The console's camera set-up view and voice card in real headless Chromium: «Показать камеру»
shows the simulated camera's frame with its advice; the voice card says when the table has none."""

from __future__ import annotations

import re
import time

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.parts import CameraAdapter  # noqa: E402
from companion.table import Table  # noqa: E402
from companion.vision.camera import RenderedSource  # noqa: E402
from tests.browser import PHONE, UI, operator_login, unfold  # noqa: E402
from tests.dashboard.test_camera_view import _scene  # noqa: E402

pytestmark = UI


def test_the_operator_aims_the_camera_from_the_console(browser, fast_dir, counting):
    table = Table(fast_dir, pin="314159")
    table.new_game("counting", ["Аня", "Борис"])
    srv = DashboardServer(table, port=0).start()
    camera = CameraAdapter(RenderedSource())
    try:
        camera.push(_scene())
        camera.read()  # as the game's camera watcher reads it
        page = browser.new_context(viewport=PHONE).new_page()
        operator_login(page, srv.url, table.pin)
        unfold(page, "#camera-card")  # folded on the console
        page.click("#camera-toggle")
        view = page.locator("#camera-view")
        slow = 30000  # a JPEG and its figures per refresh: a loaded 2-core box takes its time
        expect(view).to_be_visible(timeout=slow)
        # the JPEG decoded at the view's width (polled from here: the page's CSP forbids the eval
        # that wait_for_function's string predicate needs)
        deadline = time.monotonic() + slow / 1000
        while view.evaluate("img => img.naturalWidth") != 640 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert view.evaluate("img => img.naturalWidth") == 640
        expect(page.locator("#camera-advice")).to_contain_text("Камера настроена хорошо", timeout=slow)
        expect(page.locator("#camera-facts")).to_contain_text("Резкость", timeout=slow)
        # the glare's share with the Russian decimal sign, as the drawn view writes it: «блики 1,5 %»
        expect(page.locator("#camera-facts")).to_have_text(re.compile(r"блики \d+,\d %$"), timeout=slow)
        expect(page.locator("#voice-setup")).to_contain_text("Этот стол работает без голоса")
    finally:
        srv.stop()
        table.close()
