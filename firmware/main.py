"""Pico entry point: the thin hardware layer around ``boxfw.Box`` (MicroPython only).

Everything that touches ``machine``, USB stdio or the clock lives here; the logic in boxfw.py
and the framing in wire.py run unchanged on CPython (virtual box, tests). Pins come from
``pinmap.json`` (hardware/pinmap.json, uploaded next to this file). Flashing: docs/hardware.md.

Loop, every 1 ms: scan the 8x4 matrix (rows driven low one at a time, columns read through
internal pull-ups), feed the debounced logic, read host bytes from USB CDC without blocking,
write the frames the logic produced, update the seat lights.
"""

import json
import os
import select
import sys
import time

import micropython
from machine import Pin

import boxfw

# Column settle time after a row changes: the column buses run through all 8 pad cables (~16 m,
# ~800 pF); with the 4.7 kohm external pull-ups tau is ~4 us, so 30 us is > 7 tau. A full scan of
# 8 rows then takes ~0.25 ms of the 1 ms period.
SETTLE_US = 30
IDLE_MS = 20   # a partial host frame older than this is dropped (Parser.idle)


class Matrix:
    """Key matrix: rows = seats (driven low one at a time, else high-Z), columns = buttons."""

    def __init__(self, rows, columns):
        self.rows = [Pin(p, Pin.IN) for p in rows]
        self.cols = [Pin(p, Pin.IN, Pin.PULL_UP) for p in columns]

    def read(self):
        """List of bit masks, one per row: bit b set when the switch at column b is closed."""
        masks = []
        for row in self.rows:
            row.init(Pin.OUT, value=0)
            time.sleep_us(SETTLE_US)
            bits = 0
            for b, col in enumerate(self.cols):
                if not col.value():
                    bits |= 1 << b
            row.init(Pin.IN)
            masks.append(bits)
        return masks


MAINTENANCE_KEYS = 0b1100  # pad 1 (seat 0): "plus" and "ok" held while the box powers up


def main():
    with open("pinmap.json") as f:
        pins = json.load(f)["pico"]
    matrix = Matrix(pins["matrix"]["rows"], pins["matrix"]["columns"])
    if matrix.read()[0] & MAINTENANCE_KEYS == MAINTENANCE_KEYS:
        # Maintenance: leave the REPL usable (Ctrl-C works, mpremote can connect).
        print("button box: maintenance mode, firmware not started")
        return
    # Binary frames may contain 0x03; without this a Ctrl-C byte would raise KeyboardInterrupt.
    micropython.kbd_intr(-1)
    lights_cfg = pins["seat_lights"]
    lights = [Pin(p, Pin.OUT, value=0) for p in lights_cfg["pins"]]
    active = 1 if lights_cfg["active_high"] else 0
    status = Pin(pins["status_led"], Pin.OUT, value=0)
    seats = len(matrix.rows)

    try:
        boot = os.urandom(2)  # the RP2040's ring oscillator
    except (AttributeError, OSError):
        t = time.ticks_us()
        boot = bytes(((t >> 8) & 0xFF, t & 0xFF))
    last = time.ticks_ms()
    now = 0  # monotonic ms since boot, an unbounded int (ticks_ms wraps at 2**30)
    box = boxfw.Box(seats, now, (boot[0] << 8) | boot[1])
    rx = sys.stdin.buffer
    tx = sys.stdout.buffer
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    last_rx = 0
    while True:
        t = time.ticks_ms()
        now += time.ticks_diff(t, last)
        last = t
        box.tick(now, matrix.read())
        n = 0
        while n < 64 and poll.poll(0):
            box.feed(rx.read(1), now)
            n += 1
            last_rx = now
        if box.parser.pending() and now - last_rx > IDLE_MS:
            box.idle(now)
        out = box.take_output()
        if out:
            tx.write(out)
        for pin, on in zip(lights, box.light_outputs(now)):
            pin.value(active if on else 1 - active)
        status.value(0 if box.link_down else (now // 1000) % 2)
        while time.ticks_diff(time.ticks_ms(), t) < boxfw.SCAN_MS:
            time.sleep_us(100)


main()
