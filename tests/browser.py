"""Headless Chromium for the UI tests: Debian's chromium driven by Playwright (Playwright's own
browser download does not work on the build machines)."""

from __future__ import annotations

import os

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
#: the phone viewport the dashboard is designed for (px)
PHONE = {"width": 360, "height": 740}

#: mark a UI test module: ``pytestmark = UI``
UI = [pytest.mark.ui, pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no {CHROMIUM}")]


def launch(playwright):
    """A headless Chromium browser of ``playwright`` (a ``sync_playwright()`` context)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


def operator_login(page, url: str, pin: str, goto=None) -> None:
    """Open the operator's start-up link ``{url}/operator?pin={pin}`` in ``page`` (a Playwright
    page; ``goto(page, link)`` replaces ``page.goto``) and wait for the console: the link logs in
    by itself (the page posts its own form)."""
    import re

    (goto or (lambda p, u: p.goto(u)))(page, f"{url}/operator?pin={pin}")
    page.wait_for_url(re.compile(r"/operator$"))
    page.locator("body.page-operator").wait_for(state="attached")


def open_details(page) -> None:
    """Unfold the page's «Подробнее» (what the game's board does not draw), if it is folded: the
    page keeps it open across redraws."""
    summary = page.locator("details.info:not([open]) > summary")
    if summary.count():
        summary.first.click()
        page.locator("details.info[open]").wait_for()


def unfold(page, fold: str) -> None:
    """Open the operator console's folded block ``fold`` (a ``details`` selector: ``#fold-new``,
    ``#fold-prompt``, ``#fold-codes``, ``#fold-leave``, ``#devices-card``, ``#camera-card``,
    ``#voice-card``) as a person would, by its summary; an open one stays open."""
    d = page.locator(fold)
    d.wait_for(state="attached")
    if d.get_attribute("open") is None:
        d.locator("> summary").click()
    page.locator(fold + "[open]").wait_for()


def console_seat_form(page, url: str, pin: str, seat: int):
    """Log ``page`` in as the operator, open «Играть за место» and pick ``seat`` (counted from 1,
    as the console writes it); returns the form's locator."""
    operator_login(page, url, pin)
    unfold(page, "#fold-console-seat")
    form = page.locator("#console-seat-form")
    form.locator("select[name=seat]").select_option(str(seat))
    return form
