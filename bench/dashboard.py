"""Dashboard latency bench: simulated phones on live streams, time from an action to every phone.

Starts the real dashboard (threaded werkzeug server, Table, referee, skull engine) on a free port,
connects ``--phones`` simulated phones over real HTTP (half on the public page, half joined to seats
by code — each seat phone has its own session and private stream) and lets the skull bots play
whole games. After each action it waits until every phone's stream delivered that version, then
plays the next one. Prints, over all actions:

* ``accepted -> all phones``: from the moment the table published the accepted action (logged,
  first listener of the Table) to the last phone's receipt — the dashboard's own cost;
* ``submit -> all phones``: from the ``submit`` call to the last phone's receipt (adds the engine and
  the durable SQLite write, ``synchronous=FULL``);
* ``accepted -> first phone`` for scale.

Goal (issue 6): p99 of ``accepted -> all phones`` <= 100 ms with 20 phones.

Usage: ``python bench/dashboard.py [--phones 20] [--games 3] [--seats 5] [--data DIR]``
(``--data`` defaults to a temporary folder on disk; pass ``/dev/shm/...`` to leave out fsync cost).
"""

from __future__ import annotations

import argparse
import http.client
import logging
import multiprocessing as mp
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.dashboard import DashboardServer  # noqa: E402
from companion.games.simulator import get_sim_class  # noqa: E402
from companion.table import Table  # noqa: E402


def join_seat(port: int, code: str) -> str:
    """Join a seat over HTTP like a phone does; returns the session cookie."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", "/join")
    r = c.getresponse()
    html = r.read()
    cookie = r.getheader("Set-Cookie").split(";")[0]
    csrf = re.search(rb'name="csrf_token" value="([^"]+)"', html).group(1).decode()
    body = f"code={code}&csrf_token={csrf}"
    c.request("POST", "/join", body=body, headers={"Cookie": cookie,
                                                   "Content-Type": "application/x-www-form-urlencoded"})
    r = c.getresponse()
    r.read()
    assert r.status == 302, r.status
    cookie = (r.getheader("Set-Cookie") or cookie).split(";")[0]
    c.close()
    return cookie


class Phone(threading.Thread):
    """One phone: one SSE connection; records when each version arrived."""

    def __init__(self, port: int, view: str, cookie: str | None, board: "Board", idx: int) -> None:
        super().__init__(daemon=True, name=f"phone-{idx}")
        self.idx = idx
        self.board = board
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", f"/stream?view={view}", headers={"Cookie": cookie} if cookie else {})
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200, self.resp.status

    def run(self) -> None:
        event = None
        fp = self.resp.fp
        try:
            while True:
                line = fp.readline()
                if not line:
                    return
                if line.startswith(b"event: "):
                    event = line[7:].strip().decode()
                elif line.startswith(b"data: ") and event in ("snapshot", "delta"):
                    now = time.perf_counter()
                    data = json.loads(line[6:])
                    version = data["model"]["version"] if event == "snapshot" else data["version"]
                    self.board.got(self.idx, version, now)
        except (OSError, ValueError):
            return

    def close(self) -> None:
        try:
            self.resp.close()
        except OSError:
            pass
        self.conn.close()


class _Report:
    """Stands in for the Board inside the phones' process: sends receipts to the parent."""

    def __init__(self, q) -> None:
        self.q = q

    def got(self, idx: int, version: int, t: float) -> None:
        self.q.put((idx, version, t))


def phones_process(port: int, specs: list, q, stop) -> None:
    """The phones live in their own process (like real phones, they do not share the server's
    GIL); ``time.perf_counter`` is CLOCK_MONOTONIC on Linux, comparable across processes."""
    report = _Report(q)
    phones = [Phone(port, view, cookie, report, i) for i, (view, cookie) in enumerate(specs)]
    for ph in phones:
        ph.start()
    stop.wait()
    for ph in phones:
        ph.close()


class Board:
    """Receipt times per version per phone."""

    def __init__(self, phones: int) -> None:
        self.phones = phones
        self.times: dict[int, dict[int, float]] = {}
        self.cond = threading.Condition()

    def got(self, idx: int, version: int, t: float) -> None:
        with self.cond:
            self.times.setdefault(version, {})[idx] = t
            self.cond.notify_all()

    def wait_all(self, version: int, timeout: float = 10.0) -> dict[int, float]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.times.get(version, {})) < self.phones:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"only {len(self.times.get(version, {}))} phones got v{version}")
                self.cond.wait(left)
            return dict(self.times[version])


def run_game(data: Path, phones: int, seats: int, seed: int, samples: dict) -> int:
    table = Table(data / f"g{seed}", pin="135790")
    accepted_at: dict[int, float] = {}

    def on_table(kind, payload):  # first listener: sees the accepted action before the hub
        if kind == "action":
            accepted_at[payload.version] = time.perf_counter()

    table.subscribe(on_table)
    server = DashboardServer(table, port=0).start()
    clients: list = []
    try:
        table.new_game("skull", [f"P{i + 1}" for i in range(seats)])
        codes = table.seat_codes()
        board = Board(phones)
        specs = [("seat", join_seat(server.port, codes[(i // 2) % seats])) if i % 2 == 1 else ("public", None)
                 for i in range(phones)]
        q, stop = mp.Queue(), mp.Event()
        proc = mp.Process(target=phones_process, args=(server.port, specs, q, stop), daemon=True)
        proc.start()
        clients.append((proc, stop))

        def pump():
            while True:
                item = q.get()
                if item is None:
                    return
                board.got(*item)

        threading.Thread(target=pump, daemon=True).start()
        board.wait_all(0, timeout=30)  # every phone has its snapshot
        game = table.referee.game
        sim = get_sim_class("skull")(game, seed)
        n = 0
        while not game.is_over():
            nxt = sim.next_action()
            if nxt is None:
                break
            t_submit = time.perf_counter()
            out = table.submit(*nxt)
            assert out.accepted, out
            sim.applied(nxt[0])
            got = board.wait_all(out.version)
            last, first = max(got.values()), min(got.values())
            acc = accepted_at[out.version]
            samples["accepted_all"].append((last - acc) * 1000)
            samples["accepted_first"].append((first - acc) * 1000)
            samples["submit_all"].append((last - t_submit) * 1000)
            n += 1
        return n
    finally:
        server.stop()  # ends every stream
        for proc, stop in clients:
            stop.set()
            proc.join(5)
        table.close()


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phones", type=int, default=20)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--data", type=Path, default=None, help="data folder (default: a temporary folder)")
    args = ap.parse_args(argv)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    samples = {"accepted_all": [], "accepted_first": [], "submit_all": []}
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data or Path(tmp)
        data.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        actions = sum(run_game(data, args.phones, args.seats, seed, samples) for seed in range(args.games))
        wall = time.perf_counter() - t0
    print(f"dashboard bench: {args.phones} phones ({args.phones - args.phones // 2} public, {args.phones // 2} seat),"
          f" skull {args.seats} seats, {args.games} games, {actions} actions, {wall:.1f} s")
    for key, label in (("accepted_all", "accepted -> all phones"), ("accepted_first", "accepted -> first phone"),
                       ("submit_all", "submit -> all phones")):
        v = samples[key]
        print(f"  {label:26s} p50 {statistics.median(v):7.2f} ms   p99 {pct(v, 99):7.2f} ms   max {max(v):7.2f} ms")
    ok = pct(samples["accepted_all"], 99) <= 100
    print(f"  goal p99 accepted -> all phones <= 100 ms: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
