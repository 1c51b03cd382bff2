"""The table's voice: latency from an accepted action to the start of its speech, and how long
espeak-ng takes to say each phrase (issue #23 item 3).

A skull game is played on a real :class:`companion.table.Table` with a :class:`companion.voice.Voice`
whose speaker is espeak-ng writing a WAV (no sound card needed): for each announced moment the
time from ``table.submit`` returning to the speaker being called (queue + subscriber latency),
then espeak-ng's own time per phrase in both languages (wall and CPU of the child process, and
the spoken length), with the ratio against the baseline of the same run: espeak-ng saying a
one-word line («Да.»).

    python bench/voice.py
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time
import wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import voice as V  # noqa: E402
from companion.table import Table  # noqa: E402


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def synth(text: str, lang: str, out: Path) -> tuple[float, float, float]:
    """(wall s, child CPU s, spoken s) of espeak-ng writing ``text`` to ``out``."""
    cpu0, t0 = _child_cpu(), time.perf_counter()
    V.write_wav(text, out, lang)
    wall, cpu = time.perf_counter() - t0, _child_cpu() - cpu0
    with wave.open(str(out)) as w:
        return wall, cpu, w.getnframes() / w.getframerate()


def latency(tmp: Path) -> list[float]:
    """Seconds from submit to the speaker's call, one per announced moment of a skull game."""
    calls: list[float] = []
    started: list[float] = []
    done = threading.Event()

    def say(text, lang, volume, pace):
        calls.append(time.perf_counter())
        V.write_wav(text, tmp / "x.wav", lang, volume, pace)
        if "Победитель" in text:
            done.set()

    table = Table(tmp / "data", pin="246810")
    table.new_game("skull", ["Аня", "Борис"], {"notes_per_player": 3})
    voice = V.Voice(table, V.VoiceSettings(turn_s=0), say=say, available=(True, "", "")).start()
    s = [[f"РЗ{i}000002", f"РЗ{i}000004", f"ЧР{i}000001"] for i in (0, 1)]
    lines = [f"table register 0 {','.join(s[0])} ?", f"table register 1 {','.join(s[1])} ?", "table dealer 1",
             "0 place", "1 place", "1 place", "0 place", "1 bid 3", "0 pass", f"table flip 1 {s[1][1]}",
             f"table flip 1 {s[1][0]}", f"table flip 0 {s[0][0]}", f"table deposit 0 {s[0][1]}",
             "1 place", "0 place", "0 bid 2", "1 pass", f"table flip 0 {s[0][0]}", f"table flip 1 {s[1][2]}",
             f"table deposit 0 {s[0][0]}"]
    announced = {"table flip 0 " + s[0][0], "table deposit 0 " + s[0][1], "table flip 1 " + s[1][2]}
    try:
        for line in lines:
            n = len(calls)
            t0 = time.perf_counter()
            assert table.submit(line, "manual" if line.startswith("table") else "dashboard").accepted, line
            if line in announced:  # wait for this moment's speech to start, as a table would
                deadline = time.monotonic() + 20
                while len(calls) == n and time.monotonic() < deadline:
                    time.sleep(0.001)
                if len(calls) > n:
                    started.append(calls[n] - t0)
                time.sleep(1.0)  # the speech of this moment ends before the next move
        done.wait(30)
    finally:
        voice.stop()
        table.close()
    return started


def main() -> int:
    if shutil.which("espeak-ng") is None:
        print("espeak-ng is not installed: apt-get install espeak-ng (make demo installs it)")
        return 1
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        base = [synth("Да.", "ru", tmp / "b.wav") for _ in range(3)]
        bw, bc = statistics.median(b[0] for b in base), statistics.median(b[1] for b in base)
        print(f"baseline «Да.»: wall {bw * 1000:.0f} ms, CPU {bc * 1000:.0f} ms")
        print(f"{'phrase':<14} {'lang':<4} {'wall ms':>8} {'CPU ms':>7} {'spoken s':>8} {'wall/base':>9}")
        names = {"name": "Аня", "names": "Аня и Борис", "taker": "Борис"}
        for key in V.PHRASES:
            for lang in V.LANGS:
                wall, cpu, spoken = synth(V.phrase(key, lang, **names), lang, tmp / "p.wav")
                print(f"{key:<14} {lang:<4} {wall * 1000:>8.0f} {cpu * 1000:>7.0f} {spoken:>8.2f} {wall / bw:>9.2f}")
        lat = latency(tmp)
        if lat:
            print(f"event → speech start (skull moments, n={len(lat)}): median {statistics.median(lat) * 1000:.1f} ms, "
                  f"max {max(lat) * 1000:.1f} ms (wall; load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
