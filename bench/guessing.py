"""Guessing a seat code or the operator PIN at the fastest rate the dashboard allows (issue #20).

Two figures:

1. **Simulated night** — the shipped :class:`companion.dashboard.security.Limiter` on a simulated
   clock, against an attacker with as many addresses as he likes who sends a guess the moment the
   limiter lets one through (a fresh address each time, so only the table-wide count holds him).
   Wrong guesses allowed per hour in the steady state, and the expected time to find one of ``n``
   seat codes (6 digits: (10^6 + 1) / (n + 1) guesses on average) or the PIN (6 digits: (10^6 + 1)
   / 2), against a game night of 8 hours.
2. **Real server** — the same attacker against a running dashboard (werkzeug on loopback, 50
   source addresses 127.0.0.2–51) for ``--seconds``: guesses that were checked (403) and refused
   (429), so the simulation's rate is seen to hold on the wire.

    python bench/guessing.py [--seconds 20] [--seats 4]
"""

from __future__ import annotations

import argparse
import http.client
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.dashboard.security import MAX_FAILURES, WINDOW_S, Limiter  # noqa: E402

NIGHT_H = 8.0
SPACE = 10 ** 6


def allowed_times(seconds: float) -> list[float]:
    """When the limiter lets the attacker's wrong guesses through, over ``seconds`` simulated."""
    t = [0.0]
    lim = Limiter(clock=lambda: t[0])
    allowed, addr = [], 0
    while t[0] < seconds:
        addr += 1
        wait = lim.retry_after("join", f"10.{addr // 65536 % 256}.{addr // 256 % 256}.{addr % 256}")
        if wait:
            t[0] += lim.backoff("join") + 1e-3  # the attacker tries again the moment it opens
            continue
        lim.fail("join", f"10.{addr // 65536 % 256}.{addr // 256 % 256}.{addr % 256}")
        allowed.append(t[0])
    return allowed


def simulated(hours: float = 48.0) -> float:
    """Wrong guesses per hour the limiter lets through in the steady state (the second day)."""
    second_day = [x for x in allowed_times(hours * 3600) if x >= 24 * 3600]
    return len(second_day) / (hours - 24)


def real_server(seconds: float) -> tuple[int, int, int]:
    """``(checked, refused, other)`` wrong join attempts against a real dashboard in ``seconds``."""
    import logging

    from companion.dashboard import DashboardServer
    from companion.table import Table

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    folder = tempfile.mkdtemp(prefix="bench-guessing-")
    table = Table(folder, pin="246810")
    table.new_game("skull", ["Аня", "Борис", "Вера", "Гена"])
    srv = DashboardServer(table, port=0).start()
    checked = refused = other = 0
    try:
        codes = set(table.seat_codes().values())
        guess = 100000
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            i += 1
            src = f"127.0.0.{2 + i % 50}"
            conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10, source_address=(src, 0))
            try:
                conn.request("GET", "/join")
                resp = conn.getresponse()
                page = resp.read().decode()
                cookie = resp.getheader("Set-Cookie", "").split(";")[0]
                token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
                while str(guess) in codes:
                    guess += 1
                body = f"code={guess}&csrf_token={token}"
                guess += 1
                conn.request("POST", "/join", body=body, headers={
                    "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
                status = conn.getresponse().status
            finally:
                conn.close()
            if status == 403:
                checked += 1
            elif status == 429:
                refused += 1
            else:
                other += 1
    finally:
        srv.stop()
        table.close()
    return checked, refused, other


def days(guesses: float, per_hour: float) -> float:
    return guesses / per_hour / 24


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--seats", type=int, default=4)
    args = ap.parse_args()
    c0 = time.process_time()
    rate = simulated()
    print("guessing at the fastest rate the dashboard allows (shipped limiter: "
          f"{MAX_FAILURES} per address per {WINDOW_S:.0f} s; "
          "table-wide 10 per hour free, then 2, 4, 8 … s, at most 120 s after each wrong guess)")
    print(f"  simulated attacker, unlimited addresses: {rate:.1f} wrong guesses per hour in the steady state "
          f"(CPU {time.process_time() - c0:.1f} s)")
    for n in (args.seats, 20):
        g = (SPACE + 1) / (n + 1)
        print(f"  one of {n} seat codes: {g:,.0f} guesses on average -> {days(g, rate):,.0f} days "
              f"= {days(g, rate) * 24 / NIGHT_H:,.0f} game nights of {NIGHT_H:.0f} h")
    g = (SPACE + 1) / 2
    print(f"  the 6-digit PIN: {g:,.0f} guesses on average -> {days(g, rate):,.0f} days "
          f"= {days(g, rate) * 24 / NIGHT_H:,.0f} game nights (PIN and codes are counted apart)")
    print("  before (issue #20): per address only and cleared by a right join: 1,080 guesses in 10 s "
          "measured, about 51 minutes to another seat's code")
    w0, c0 = time.monotonic(), time.process_time()
    checked, refused, other = real_server(args.seconds)
    wall = time.monotonic() - w0
    print(f"  real server, 50 loopback addresses, {wall:.0f} s: {checked} guesses checked, {refused} refused "
          f"with 429, {other} other answers (CPU {time.process_time() - c0:.1f} s); the simulation allows "
          f"{len(allowed_times(wall))} in the first {wall:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
