"""Figures of club mode: many simulated tables on one real Mosquitto, the club board as its own
process (``companion club``), and the checks the issue asks for (docs/club.md "Figures")::

    python bench/club.py                                   # the full run: 60 s broker kill, 5 min cut
    python bench/club.py --kill-s 6 --cut-s 20 --scale-s 30   # shorter (the durations used are printed)

1. **Three tables** (skull, 6100, the joker game; some players at two tables) publish to one
   broker; the board's ``/api/tables`` shows all three, its snapshots follow play; the standings
   (``/api/standings``) are checked against the games' own results (the engines' ``result()``).
2. **Faults**: the broker is killed (SIGKILL) mid-game for ``--kill-s`` and restarted; then table t1
   is cut off the network (a relay that drops and refuses its connections) for ``--cut-s``. The
   tables referee on throughout (the slowest accepted action is printed); after recovery the
   board's record (its SQLite) is compared with every table log: lost, doubled, extra.
3. **Leaks**: every message the broker delivered to a listener on ``companion/#`` is checked
   against the hidden facts of the tables' logs (companion.club.audit).
4. **Scale**: ``--scale-tables`` tables (default 50) in worker processes, one action per table
   every ``--scale-pace`` s, for ``--scale-s``: messages per second, board update latency p50/p99
   from a table's accepted action to the board page's stream (``/stream``, the TV page's one
   connection), broker and board memory (RSS, peak) and CPU time beside wall time. The latency of
   part 1 (three tables, same run) is the baseline of the ratio printed.

The simulated tables are the real Table, referee, table log and publisher, played by the games'
own bots through ``Table.submit`` (no camera or button box: those are bench/table.py's).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.club import audit  # noqa: E402
from companion.club.broker import LocalBroker, free_port  # noqa: E402
from companion.club.standings import name_key  # noqa: E402
from companion.club.topics import game_key  # noqa: E402

GAMES = ["skull", "infinity", "hoggenheimer", "doubt", "lottery"]
NAMES = {"skull": ["Аня", "Борис", "Вика"], "infinity": ["аня", "Гена", "Дима"],
         "hoggenheimer": ["Борис", "Ева", "Жора", "Зоя"], "doubt": ["Ира", "Коля", "Лена"],
         "lottery": ["Маша", "Нина", "Оля", "Петя", "Рита"]}


# ---------------------------------------------------------------------- a simulated table
class SimTable:
    """A Table with its club publisher, played by its game's bots through ``Table.submit``."""

    def __init__(self, folder: Path, table_id: str, url: str, game_id: str, seed: int) -> None:
        from companion.club.publisher import ClubPublisher
        from companion.table import Table

        self.id, self.game_id, self.seed = table_id, game_id, seed
        self.table = Table(folder / table_id, pin="123456")
        self.pub = ClubPublisher(self.table, url).start()
        self.games = 0
        self._new_game()

    def _new_game(self) -> None:
        from companion.games import new_game
        from companion.sim import get_sim_class

        names = NAMES[self.game_id]
        self.table.new_game(self.game_id, names)
        self.shadow = new_game(self.game_id, names)
        self.sim = get_sim_class(self.game_id)(self.shadow, self.seed + self.games)
        self.games += 1

    @property
    def over(self) -> bool:
        return self.shadow.is_over()

    def step(self, again: bool = False) -> tuple[str, int, float, float]:
        """One bot action: ``(game key, seq, accepted at (epoch s), submit took (s))``."""
        if self.over and again:
            self._new_game()
        action, source = self.sim.next_action()
        t0 = time.monotonic()
        outcome = self.table.submit(action, source)
        took = time.monotonic() - t0
        if not outcome.accepted:
            raise RuntimeError(f"{self.id}: {action} rejected: {outcome.reason}")
        accepted = time.time()
        self.shadow.apply(action)
        self.sim.applied(action)
        return game_key(self.table.referee.log.path.name), outcome.version, accepted, took

    def close(self, drain_s: float = 10.0) -> None:
        end = time.monotonic() + drain_s
        while time.monotonic() < end and self.pub.acked < self.pub.sent:
            time.sleep(0.05)
        self.pub.stop()
        self.table.close()


# ---------------------------------------------------------------------- the board page's stream
class BoardStream(threading.Thread):
    """The board page's one stream (``/stream``): when each table's update reached the page."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.seen: dict[tuple[str, str], list[tuple[int, float]]] = {}  # (table, game) -> [(seq, t)]
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        while not self.stop:
            try:
                with urllib.request.urlopen(self.url + "/stream", timeout=30) as resp:
                    self.ready.set()
                    event = None
                    for raw in resp:
                        line = raw.decode("utf-8").rstrip("\n")
                        if line.startswith("event: "):
                            event = line[7:]
                        elif line.startswith("data: ") and event == "table":
                            t = time.time()
                            s = json.loads(line[6:])["summary"]
                            key = (s["table"], (s.get("game") or {}).get("key"))
                            with self.lock:
                                self.seen.setdefault(key, []).append((s.get("seq", 0), t))
                        if self.stop:
                            return
            except OSError:
                time.sleep(0.5)

    def latency(self, accepted: list[tuple[str, str, int, float]]) -> list[float]:
        """Seconds from each accepted action to the first page update of its table at that seq or later."""
        out = []
        with self.lock:
            seen = {k: sorted(v, key=lambda x: x[1]) for k, v in self.seen.items()}
        for table, game, seq, t in accepted:
            got = next((tr for s, tr in seen.get((table, game), []) if s >= seq and tr >= t - 0.001), None)
            if got is not None:
                out.append(max(0.0, got - t))
        return out


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def proc_stats(pid: int) -> dict:
    """RSS, peak RSS (KiB) and CPU time (s) of a process, from /proc."""
    out = {"rss_kib": None, "hwm_kib": None, "cpu_s": None}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                out["rss_kib"] = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                out["hwm_kib"] = int(line.split()[1])
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        out["cpu_s"] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        pass
    return out


def get(url: str):
    return json.loads(urllib.request.urlopen(url, timeout=5).read())


def wait(cond, timeout: float, step: float = 0.2):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(step)
    return cond()


def start_board(broker: LocalBroker, folder: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "club", "--broker", broker.url(None), "--host",
                             "127.0.0.1", "--port", str(port), "--data-dir", str(folder), "--pin", "246810",
                             "--lang", "en"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.DEVNULL, stderr=open(folder.parent / "board.err", "ab"))
    url = f"http://127.0.0.1:{port}"
    if not wait(lambda: _alive(url), 30):
        raise RuntimeError("the board did not start")
    return proc, url


def _alive(url: str) -> bool:
    try:
        return get(url + "/healthz")["connected"]
    except OSError:
        return False


def board_seqs(folder: Path) -> dict:
    with sqlite3.connect(folder / "club.sqlite") as db:
        rows = db.execute("SELECT tbl, game, seq FROM events ORDER BY tbl, game, seq").fetchall()
    out: dict = {}
    for t, g, s in rows:
        out.setdefault((t, g), []).append(s)
    return out


def table_logs(tables: list[SimTable]) -> dict:
    return {(t.id, game_key(p.name)): audit.log_seqs(p)
            for t in tables for p in sorted((t.table.data_dir / "games").glob("*.sqlite"))}


# ---------------------------------------------------------------------- every delivered message
class Listener:
    """A subscriber on ``companion/#`` (the board's read-only user): every message the broker
    delivered, for the leak audit."""

    def __init__(self, url: str) -> None:
        from companion.club.mqtt import mqtt_client
        from companion.club.url import parse

        u = parse(url, table_required=False)
        self.messages: list[tuple[str, bytes]] = []
        self.client = mqtt_client(u, "bench-listener")
        self.client.on_connect = lambda c, *a: c.subscribe("companion/#", qos=1)
        self.client.on_message = lambda c, ud, m: self.messages.append((m.topic, bytes(m.payload)))
        self.client.connect_async(u.host, u.port)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


# ---------------------------------------------------------------------- parts 1-3
def standings_expected(tables: list[SimTable]) -> dict:
    """Each player's night from the engines' own results (not the club's reading of them)."""
    from companion.log import TableLog, replay

    out: dict = {}
    for t in tables:
        for path in sorted((t.table.data_dir / "games").glob("*.sqlite")):
            with TableLog.open(path) as tl:
                game = replay(tl.header, tl.records()).game
            if not game.is_over():
                continue
            res, seats = game.result(), list(game.seats)
            winners = {res.get("winner_name")} if t.game_id == "skull" else {
                seats[w] if isinstance(w, int) else w for w in (res.get("winners") or [])}
            for name in seats:
                row = out.setdefault(name_key(name), {"games": 0, "wins": 0, "points": 0, "chips": 0, "bank": 0})
                row["games"] += 1
                row["wins"] += name in winners
                row["points"] += (res.get("scores") or {}).get(name, 0) if t.game_id == "infinity" else 0
                row["chips"] += (res.get("net") or {}).get(name, 0) if t.game_id in ("hoggenheimer", "lottery") else 0
                row["bank"] += res.get("face_value", 0) if t.game_id == "skull" and name in winners else 0
    return out


def three_tables(args, broker: LocalBroker, work: Path) -> dict:
    from companion.club.netsim import Link

    board_dir = work / "board3"
    board, url = start_board(broker, board_dir)
    stream = BoardStream(url)
    stream.start()
    stream.ready.wait(10)
    listener = Listener(broker.url(None))
    link = Link("127.0.0.1", broker.port)
    tables = [SimTable(work, "t1", link.url(broker.url("t1")), "skull", 11),
              SimTable(work, "t2", broker.url("t2"), "infinity", 12),
              SimTable(work, "t3", broker.url("t3"), "hoggenheimer", 13)]
    accepted, slowest = [], 0.0

    def round_(n: int, spread_s: float) -> None:
        nonlocal slowest
        for _ in range(n):
            for t in tables:
                if not t.over:
                    key, seq, at, took = t.step()
                    accepted.append((t.id, key, seq, at))
                    slowest = max(slowest, took)
            time.sleep(spread_s / n)

    out: dict = {"kill_s": args.kill_s, "cut_s": args.cut_s}
    round_(10, 2.0)                         # warm-up: the baseline latency
    shown = get(url + "/api/tables")["tables"]
    out["board_shows"] = sorted((t["table"], (t.get("game") or {}).get("id")) for t in shown)
    out["follows"] = all(t["seq"] == next(x for x in tables if x.id == t["table"]).table.referee.version for t in shown)
    out["baseline_latency"] = stream.latency(accepted)
    broker.kill()                           # a power cut of the broker, mid-game
    t0 = time.monotonic()
    round_(10, args.kill_s)
    out["down_for_s"] = round(time.monotonic() - t0, 1)
    broker.start()
    wait(lambda: _alive(url), 60)
    link.cut()                              # t1 off the network
    t0 = time.monotonic()
    silent = wait(lambda: next(t for t in get(url + "/api/tables")["tables"] if t["table"] == "t1")["silent"], 40)
    round_(10, max(0.0, args.cut_s - (time.monotonic() - t0)))
    out["t1_marked_silent"] = bool(silent)
    out["cut_for_s"] = round(time.monotonic() - t0, 1)
    link.restore()
    while any(not t.over for t in tables):
        round_(1, 0.01)
    out["slowest_submit_s"] = round(slowest, 3)
    logs = table_logs(tables)
    ok = wait(lambda: audit.compare(board_seqs(board_dir), logs) == {"lost": 0, "doubled": 0, "extra": 0,
                                                                       "games": len(logs)}, 180)
    out["record"] = audit.compare(board_seqs(board_dir), logs)
    out["record_ok"] = bool(ok)
    out["recovered_in_s"] = None
    # standings: the board's against the engines' own results
    expected = standings_expected(tables)
    wait(lambda: len(get(url + "/api/standings")["standings"]) >= len(expected), 30)
    got = {r["key"]: r for r in get(url + "/api/standings")["standings"]}
    bad = [k for k, e in expected.items() if k not in got or (
        got[k]["games"], got[k]["wins"], got[k]["points"], got[k]["chips"], sum(got[k]["bank_value"].values()))
        != (e["games"], e["wins"], e["points"], e["chips"], e["bank"])]
    out["standings_players"], out["standings_wrong"] = len(expected), bad
    # leaks: every delivered message against the logs' hidden facts
    facts = {(t.id, game_key(p.name)): audit.hidden_facts(p)
             for t in tables for p in (t.table.data_dir / "games").glob("*.sqlite")}
    listener.close()
    msgs = list(listener.messages)
    out["checked_messages"] = len(msgs)
    out["checked_bytes"] = sum(len(p) for _t, p in msgs)
    out["hidden_facts"] = sum(len(f.ever) for f in facts.values())
    out["leaks"] = sum(1 for topic, payload in msgs if audit.message_leaks(topic, payload, facts))
    out["board_received"] = get(url + "/healthz")["received"]
    for t in tables:
        t.close()
    link.close()
    stream.stop = True
    board.terminate()
    board.wait(10)
    return out


# ---------------------------------------------------------------------- part 4: scale
def worker(spec: dict) -> None:
    """A worker process: some tables, one action each every ``pace`` s, for ``seconds``."""
    import logging
    import resource

    logging.basicConfig(level=logging.ERROR)
    folder = Path(spec["folder"])
    tables = [SimTable(folder, tid, url, game, seed) for tid, url, game, seed in spec["tables"]]
    accepted = []
    t_end = time.monotonic() + spec["seconds"]
    nxt = {t.id: time.monotonic() + spec["pace"] * i / len(tables) for i, t in enumerate(tables)}
    while time.monotonic() < t_end:
        t = min(tables, key=lambda x: nxt[x.id])
        delay = nxt[t.id] - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        key, seq, at, _took = t.step(again=True)
        accepted.append((t.id, key, seq, at))
        nxt[t.id] += spec["pace"]
    sent = sum(t.pub.sent for t in tables)
    for t in tables:
        t.close()
    use = resource.getrusage(resource.RUSAGE_SELF)
    Path(spec["out"]).write_text(json.dumps({"accepted": accepted, "sent": sent,
                                             "cpu_s": use.ru_utime + use.ru_stime}))


def scale(args, broker: LocalBroker, work: Path) -> dict:
    board_dir = work / "board50"
    board, url = start_board(broker, board_dir)
    stream = BoardStream(url)
    stream.start()
    stream.ready.wait(10)
    ids = [f"s{i:02d}" for i in range(1, args.scale_tables + 1)]
    per = max(1, -(-len(ids) // args.workers))
    procs, outs = [], []
    received0 = get(url + "/healthz")["received"]
    broker0 = proc_stats(broker.pid)
    board0 = proc_stats(board.pid)
    t0 = time.monotonic()
    for w in range(0, len(ids), per):
        out = work / f"worker{w}.json"
        spec = {"folder": str(work / "scale"), "pace": args.scale_pace, "seconds": args.scale_s, "out": str(out),
                "tables": [(tid, broker.url(tid), GAMES[i % len(GAMES)], 100 + i)
                           for i, tid in enumerate(ids[w:w + per], start=w)]}
        procs.append(subprocess.Popen([sys.executable, __file__, "--worker", json.dumps(spec)], cwd=ROOT,
                                      env=dict(os.environ, PYTHONPATH=str(ROOT))))
        outs.append(out)
    peak = {"broker": 0, "board": 0}
    while any(p.poll() is None for p in procs):
        peak["broker"] = max(peak["broker"], proc_stats(broker.pid)["rss_kib"] or 0)
        peak["board"] = max(peak["board"], proc_stats(board.pid)["rss_kib"] or 0)
        time.sleep(0.5)
    wall = time.monotonic() - t0
    time.sleep(2.0)  # the last updates reach the page
    results = [json.loads(o.read_text()) for o in outs]
    accepted = [tuple(a) for r in results for a in r["accepted"]]
    lat = stream.latency(accepted)
    broker1, board1 = proc_stats(broker.pid), proc_stats(board.pid)
    out = {"tables": len(ids), "workers": len(procs), "pace_s": args.scale_pace, "seconds": round(wall, 1),
           "actions": len(accepted), "sent": sum(r["sent"] for r in results),
           "board_received": get(url + "/healthz")["received"] - received0,
           "latency_n": len(lat), "latency_p50_ms": round(1000 * pct(lat, 50), 1),
           "latency_p99_ms": round(1000 * pct(lat, 99), 1), "latency_max_ms": round(1000 * max(lat), 1) if lat else None,
           "unseen": len(accepted) - len(lat),
           "broker_rss_kib": broker1["rss_kib"], "broker_peak_kib": max(peak["broker"], broker1["rss_kib"] or 0),
           "board_rss_kib": board1["rss_kib"], "board_peak_kib": max(peak["board"], board1["rss_kib"] or 0),
           "broker_cpu_s": round((broker1["cpu_s"] or 0) - (broker0["cpu_s"] or 0), 2),
           "board_cpu_s": round((board1["cpu_s"] or 0) - (board0["cpu_s"] or 0), 2),
           "tables_cpu_s": round(sum(r["cpu_s"] for r in results), 2)}
    stream.stop = True
    board.terminate()
    board.wait(10)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kill-s", type=float, default=60.0, help="how long the broker stays dead (default 60)")
    ap.add_argument("--cut-s", type=float, default=300.0, help="how long table t1 is off the network (default 300)")
    ap.add_argument("--scale-tables", type=int, default=50)
    ap.add_argument("--scale-pace", type=float, default=1.0, help="s between one table's actions (default 1.0)")
    ap.add_argument("--scale-s", type=float, default=60.0, help="how long the scale part plays (default 60)")
    ap.add_argument("--workers", type=int, default=5, help="processes the scale part's tables run in")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.worker:
        worker(json.loads(args.worker))
        return 0
    import logging

    logging.basicConfig(level=logging.ERROR)
    load0 = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None) as d:
        work = Path(d)
        ids = ["t1", "t2", "t3"] + [f"s{i:02d}" for i in range(1, args.scale_tables + 1)]
        broker = LocalBroker(work / "broker", "bench", ids).start()
        try:
            t0, c0 = time.monotonic(), time.process_time()
            three = three_tables(args, broker, work)
            three["wall_s"], three["cpu_s"] = round(time.monotonic() - t0, 1), round(time.process_time() - c0, 1)
            big = scale(args, broker, work)
        finally:
            broker.stop()
    base = three.pop("baseline_latency")
    b50, b99 = 1000 * pct(base, 50), 1000 * pct(base, 99)
    if args.json:
        print(json.dumps({"three": three, "scale": big, "baseline_p50_ms": b50, "baseline_p99_ms": b99}))
        return 0
    r = three["record"]
    print("club mode (bench/club.py) — real mosquitto, the board as its own process, tables: Table + referee + "
          "log + publisher played by the games' bots")
    print(f"machine: {os.cpu_count()} CPUs, load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end "
          "(timings under load are noisy: CPU times beside wall times, the 3-table latency is the baseline)")
    print(f"3 tables (skull, 6100, joker game): board shows {three['board_shows']}; its snapshots at the tables' "
          f"versions: {three['follows']}")
    print(f"  broker killed (SIGKILL) for {three['down_for_s']} s (asked {args.kill_s:g}); table t1 off the network for "
          f"{three['cut_for_s']} s (asked {args.cut_s:g}), marked silent: {three['t1_marked_silent']}")
    print(f"  the tables refereed on: slowest accepted action {three['slowest_submit_s']} s")
    print(f"  board record vs the logs ({r['games']} games): lost {r['lost']}, doubled {r['doubled']}, extra {r['extra']}")
    print(f"  standings: {three['standings_players']} players, wrong {len(three['standings_wrong'])} "
          f"(against the engines' own results)")
    print(f"  leaks: {three['leaks']} in {three['checked_messages']} delivered messages ({three['checked_bytes']} bytes) "
          f"checked against {three['hidden_facts']} hidden facts of the logs")
    print(f"  part wall {three['wall_s']} s, bench process CPU {three['cpu_s']} s")
    print(f"{big['tables']} tables in {big['workers']} processes, an action per table every {big['pace_s']} s, "
          f"{big['seconds']} s: {big['actions']} actions, {big['actions'] / big['seconds']:.1f} actions/s")
    print(f"  messages: tables sent {big['sent']} ({big['sent'] / big['seconds']:.1f}/s), the board received "
          f"{big['board_received']} ({big['board_received'] / big['seconds']:.1f}/s)")
    print(f"  board update latency, accepted action -> the board page's stream: p50 {big['latency_p50_ms']} ms, "
          f"p99 {big['latency_p99_ms']} ms (goal <= 500), max {big['latency_max_ms']} ms; n={big['latency_n']}, "
          f"not seen {big['unseen']}")
    print(f"  baseline (3 tables, same run): p50 {b50:.1f} ms, p99 {b99:.1f} ms; p99 ratio {big['latency_p99_ms'] / b99:.2f}"
          if b99 == b99 and b99 > 0 else "  baseline: no latency measured")
    print(f"  memory: broker {big['broker_rss_kib'] / 1024:.1f} MiB (peak {big['broker_peak_kib'] / 1024:.1f}), board "
          f"{big['board_rss_kib'] / 1024:.1f} MiB (peak {big['board_peak_kib'] / 1024:.1f})")
    print(f"  CPU over {big['seconds']} s wall: broker {big['broker_cpu_s']} s, board {big['board_cpu_s']} s, "
          f"tables {big['tables_cpu_s']} s")
    ok = r["lost"] == 0 and r["doubled"] == 0 and three["leaks"] == 0 and not three["standings_wrong"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
