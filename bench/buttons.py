"""Button box latency: press -> host ButtonEvent over a real pty (goal: p99 <= 20 ms).

The virtual box (the real firmware logic, 1 ms scan, 5 ms debounce, 2 ms simulated contact
bounce) runs in its own process, as the Pico is its own device; the host driver runs here; they
talk over a pseudo-terminal. For each press the figure is ``event.received - time the press
command was sent`` (CLOCK_MONOTONIC is system-wide): command pipe + scan + bounce + debounce +
framing + pty + parse. ``--in-process`` runs both in one interpreter (they then share the GIL,
which the real box does not).

    python bench/buttons.py [--presses 400] [--gap-ms 25] [--in-process]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.devices.buttonbox import ButtonBox  # noqa: E402
from companion.devices.firmware import boxfw  # noqa: E402
from companion.devices.protocol import BUTTONS  # noqa: E402
from companion.devices.virtualbox import VirtualButtonBox  # noqa: E402


def pct(values, p):
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def box_process(conn) -> None:
    """Child process: a virtual box; reads (seat, button) commands, None to stop."""
    with VirtualButtonBox(seats=8) as vbox:
        conn.send((vbox.port, vbox._t0))
        while True:
            cmd = conn.recv()
            if cmd is None:
                break
            vbox.press(*cmd)
    conn.close()


class InProcess:
    def __init__(self):
        self.vbox = VirtualButtonBox(seats=8).start()
        self.port, self.t0 = self.vbox.port, self.vbox._t0

    def press(self, key):
        self.vbox.press(*key)

    def close(self):
        self.vbox.close()


class OtherProcess:
    def __init__(self):
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=box_process, args=(child,), daemon=True)
        self.proc.start()
        self.port, self.t0 = self.conn.recv()

    def press(self, key):
        self.conn.send(key)

    def close(self):
        self.conn.send(None)
        self.proc.join(5)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=400)
    ap.add_argument("--gap-ms", type=int, default=25, help="pause between presses (ms)")
    ap.add_argument("--in-process", action="store_true", help="run the virtual box in this process")
    args = ap.parse_args(argv)
    rng = random.Random(1)
    got: dict[tuple[int, str], list] = {}
    cond = threading.Condition()

    def on_event(ev):
        if ev.kind == "press":
            with cond:
                got.setdefault((ev.seat, ev.button), []).append(ev)
                cond.notify_all()

    latencies, edge = [], []
    box_side = InProcess() if args.in_process else OtherProcess()
    with ButtonBox(box_side.port, on_event=on_event) as box:
        if not box.wait_connected(5.0):
            print("host did not connect to the virtual box", file=sys.stderr)
            return 1
        recent: list[tuple[int, str]] = []
        for _ in range(args.presses):
            # a finger cannot press a key that is still down: skip the last few keys (each is
            # held 40 ms + release debounce), or the figure would include that wait
            key = (rng.randrange(8), rng.choice(BUTTONS))
            while key in recent:
                key = (rng.randrange(8), rng.choice(BUTTONS))
            recent = (recent + [key])[-4:]
            with cond:
                before = len(got.get(key, []))
            t = time.monotonic()
            box_side.press(key)
            with cond:
                if not cond.wait_for(lambda: len(got.get(key, [])) > before, timeout=2.0):
                    print(f"press {key} not received within 2 s", file=sys.stderr)
                    return 1
                ev = got[key][-1]
            latencies.append((ev.received - t) * 1000)
            edge.append((ev.received - (box_side.t0 + ev.t_ms / 1000)) * 1000)
            time.sleep(args.gap_ms / 1000)
        st = box.status
    box_side.close()
    p50, p90, p99 = (pct(latencies, p) for p in (50, 90, 99))
    where = "same process" if args.in_process else "box in its own process"
    print(f"button box over a pty ({where}): {len(latencies)} presses, "
          f"debounce {boxfw.DEBOUNCE_MS} ms, scan {boxfw.SCAN_MS} ms")
    print(f"press -> host event: p50 {p50:.1f} ms  p90 {p90:.1f} ms  p99 {p99:.1f} ms  "
          f"max {max(latencies):.1f} ms  mean {statistics.mean(latencies):.1f} ms")
    print(f"debounced edge -> host event (1 ms resolution): p50 {pct(edge, 50):.1f} ms  "
          f"p99 {pct(edge, 99):.1f} ms")
    print(f"link: events {st.events} duplicates {st.duplicates} lost {st.lost} "
          f"frame errors {st.frame_errors}")
    try:
        import os

        print(f"machine load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    except OSError:
        pass
    print(f"goal p99 <= 20 ms: {'met' if p99 <= 20 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
