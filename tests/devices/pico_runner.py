"""Run firmware/main.py on CPython with stand-ins for MicroPython's ``machine``, ``micropython``,
``time`` (ticks) and ``select``, the way the Pico would: files copied flat into one folder.

    python pico_runner.py FOLDER PRESSED_JSON RUN_MS STDIN_HEX RESULT_JSON

PRESSED_JSON: [[row_gpio, col_gpio], ...] switches held closed for the whole run.
Writes RESULT_JSON: the bytes main.py wrote (hex), pin modes/levels seen, kbd_intr calls.
"""

import io
import json
import os
import sys
import types

folder, pressed_json, run_ms, stdin_hex, result_path = sys.argv[1:6]
pressed = {tuple(p) for p in json.loads(pressed_json)}
limit_us = int(run_ms) * 1000
clock = {"us": 0}
result = {"kbd_intr": [], "inits": {}, "levels": {}}


class Pin:
    IN, OUT, PULL_UP = 0, 1, 2
    registry = {}

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = pin_id
        self.mode = mode
        self.level = 0 if value is None else value
        Pin.registry[pin_id] = self
        result["inits"][str(pin_id)] = [mode, pull]

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        if value is not None:
            self.level = value

    def value(self, v=None):
        if v is None:
            if self.mode == Pin.IN:  # a column: pulled up unless a closed switch meets a low row
                for (row, col) in pressed:
                    r = Pin.registry.get(row)
                    if col == self.id and r is not None and r.mode == Pin.OUT and r.level == 0:
                        return 0
                return 1
            return self.level
        self.level = v
        levels = result["levels"].setdefault(str(self.id), [])
        if not levels or levels[-1] != v:
            levels.append(v)


def sleep_us(us):
    clock["us"] += us
    if clock["us"] > limit_us and us == 100:  # stop in the idle wait, not mid-scan
        raise SystemExit(0)


fake_time = types.ModuleType("time")
fake_time.ticks_ms = lambda: clock["us"] // 1000
fake_time.ticks_diff = lambda a, b: a - b
fake_time.sleep_us = sleep_us
machine = types.ModuleType("machine")
machine.Pin = Pin
micropython = types.ModuleType("micropython")
micropython.kbd_intr = lambda c: result["kbd_intr"].append(c)

stdin_bytes = io.BytesIO(bytes.fromhex(stdin_hex))
stdin_len = len(stdin_bytes.getvalue())


class Poll:
    def register(self, obj, mask):
        pass

    def poll(self, timeout):
        return [1] if stdin_bytes.tell() < stdin_len else []


select = types.ModuleType("select")
select.poll = Poll
select.POLLIN = 1
out = io.BytesIO()
sys.stdin = types.SimpleNamespace(buffer=stdin_bytes)
sys.stdout = types.SimpleNamespace(buffer=out, write=lambda s: None, flush=lambda: None)
sys.modules.update(time=fake_time, machine=machine, micropython=micropython, select=select)
os.chdir(folder)
sys.path.insert(0, folder)
try:
    exec(compile(open("main.py").read(), "main.py", "exec"), {"__name__": "__main__"})
except SystemExit:
    pass
result["tx"] = out.getvalue().hex()
result["modes"] = {str(k): p.mode for k, p in Pin.registry.items()}
with open(result_path, "w") as f:
    json.dump(result, f)
