"""The portable firmware (wire.py, boxfw.py) under real MicroPython: the same scenario must give
byte-identical output on CPython and on MicroPython 1.27 (WebAssembly port run by node).

The interpreter is the npm package @micropython/micropython-webassembly-pyscript, installed
outside the repository (set MICROPYTHON_WASM_DIR, default ~/.cache/table-companion/mpwasm):

    npm install --prefix ~/.cache/table-companion/mpwasm @micropython/micropython-webassembly-pyscript@1.27.0
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = Path(__file__).with_name("mp_scenario.py")
WASM_DIR = Path(os.environ.get("MICROPYTHON_WASM_DIR",
                               Path.home() / ".cache" / "table-companion" / "mpwasm"))
PKG = WASM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"

RUNNER = """
import { loadMicroPython } from %(mjs)s;
import fs from "fs";
let out = [];
const mp = await loadMicroPython({stdout: (l) => out.push(l), stderr: (l) => out.push("ERR " + l)});
for (const [name, path] of %(files)s) mp.FS.writeFile("/" + name, fs.readFileSync(path));
try {
  mp.runPython(`import sys\\nsys.path.insert(0, "/")\\nprint(sys.implementation.name)\\nexec(open("/mp_scenario.py").read())`);
} catch (e) { out.push("EXC " + e); }
process.stdout.write(out.join("\\n") + "\\n");
"""


def run_cpython() -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "firmware"))
    r = subprocess.run([sys.executable, str(SCENARIO)], env=env, capture_output=True, text=True,
                       timeout=60, cwd=ROOT / "firmware")
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def test_firmware_runs_identically_on_micropython(tmp_path):
    node = shutil.which("node")
    if node is None or not (PKG / "micropython.mjs").is_file():
        pytest.skip(f"MicroPython (WebAssembly) not installed at {WASM_DIR}; see module docstring")
    files = [["wire.py", str(ROOT / "firmware" / "wire.py")],
             ["boxfw.py", str(ROOT / "firmware" / "boxfw.py")],
             ["mp_scenario.py", str(SCENARIO)]]
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER % {"mjs": json.dumps(str(PKG / "micropython.mjs")),
                                "files": json.dumps(files)}, encoding="utf-8")
    r = subprocess.run([node, str(runner)], capture_output=True, text=True, timeout=120)
    lines = r.stdout.splitlines()
    assert lines and lines[0] == "micropython", r.stdout[-2000:] + r.stderr[-2000:]
    mp = lines[1:]
    assert not [ln for ln in mp if ln.startswith(("ERR", "EXC"))], "\n".join(mp[-20:])
    cp = run_cpython()
    assert len(cp) > 1000 and mp == cp
    # the scenario exercised what it claims: events, an ERROR, a HELLO answer
    blob = "\n".join(cp)
    assert "a50702" in blob and "a50305" in blob and blob.count("a52201") >= 2
