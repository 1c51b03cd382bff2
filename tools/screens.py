"""The pages' full browser matrix (#22 item 5): every game in each phase, the public page, seat 1's
page, the table display /tv and the operator console (every fold opened, so what is folded away is
checked too), in Russian and English, at 360×800, 768×1024 and 1920×1080, in headless Chromium.
Screenshots go to build/screens/ (git-ignored); each page's problems (sideways scroll, cut off, tap
targets, contrast, the other language) are printed; exit 1 if any.

    .venv/bin/python tools/screens.py [--games skull,doubt] [--langs ru] [--views phone]
                                      [--kinds public,tv,seat,operator]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from tests.browser import launch, operator_login  # noqa: E402
from tests.dashboard.pagecheck import VIEWPORTS, phase_tables, problems  # noqa: E402

GAMES = ["skull", "doubt", "hoggenheimer", "infinity", "lottery"]
KINDS = ["public", "tv", "seat", "operator"]
PIN = "271828"  # tests/dashboard/pagecheck.phase_tables' table


def open_folds(page) -> None:
    """Open every folded block of the console (its summaries tapped), so all of it is checked."""
    shut = page.locator("details:not([open]) > summary:visible")
    for _ in range(20):  # one at a time: each opened one leaves the list
        if not shut.count():
            return
        shut.first.click()


def settle(page, version: int) -> None:
    """Wait until the page drew ``version`` (and its board module loaded)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if (page.evaluate("() => window.__lastVersion") or -1) >= version:
            break
        time.sleep(0.03)
    page.wait_for_timeout(150)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--langs", default="ru,en")
    ap.add_argument("--views", default=",".join(VIEWPORTS))
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--out", default=str(ROOT / "build" / "screens"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bad = pages = 0
    t0, c0 = time.monotonic(), time.process_time()
    with sync_playwright() as pw:
        browser = launch(pw)
        for gid in args.games.split(","):
            for lang in args.langs.split(","):
                for table, phase in phase_tables(gid, lang):
                    srv = DashboardServer(table, port=0).start()
                    try:
                        for vp in args.views.split(","):
                            ctx = browser.new_context(viewport=VIEWPORTS[vp])
                            ctx.add_cookies([{"name": "lang", "value": lang, "url": srv.url}])
                            page = ctx.new_page()
                            code = table.seat_codes()[0]
                            for kind in args.kinds.split(","):
                                if kind == "seat":
                                    page.goto(srv.url + "/join")
                                    page.fill("#code", code)
                                    page.click("button[type=submit]")
                                    page.wait_for_url(srv.url + "/seat")
                                elif kind == "operator":
                                    operator_login(page, srv.url, PIN)
                                else:
                                    page.goto(srv.url + {"public": "/", "tv": "/tv"}[kind])
                                settle(page, table.referee.version)
                                if kind == "operator":
                                    open_folds(page)
                                    page.wait_for_timeout(300)  # the phones' list and the voice come by fetch
                                name = f"{gid}-{phase}-{kind}-{lang}-{vp}.png"
                                page.screenshot(path=str(out / name), full_page=True)
                                found = problems(page, lang)
                                pages += 1
                                if found:
                                    bad += 1
                                    print(name, *("  " + x for x in found), sep="\n")
                            ctx.close()
                    finally:
                        srv.stop()
        browser.close()
    print(f"{pages} pages, {bad} with problems; screenshots in {out}; "
          f"wall {time.monotonic() - t0:.0f} s, CPU (this process) {time.process_time() - c0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
