"""A `--game` or `--seats` flag that asks for another game than the unfinished one a start would
resume is refused in one line (the game found, the ways on), in the console's language, exit status 2 (README, "Exit status"); flags
that name the unfinished game, or none, resume it; `--new` and `--resume LOG` still work."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.resumeflags import ResumeConflict
from companion.service import TableService, choose_backends
from companion.settings import Settings
from companion.table import Table

ROOT = Path(__file__).resolve().parents[2]
LOTTERY = ["Аня", "Борис", "Вика", "Глеб"]


def _unfinished_lottery(folder: Path) -> Path:
    table = Table(folder, pin="246813", resume=False)
    table.new_game("lottery", LOTTERY)
    assert table.submit("0 spread 1,2,3,4", "operator").accepted
    path = table.referee.log.path
    table.close()
    return path


def _logs(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / "games").glob("*.sqlite"))


def _run(folder: Path, *flags: str):
    import cv2
    import numpy as np

    felt = folder.parent / "felt.png"
    cv2.imwrite(str(felt), np.full((240, 320, 3), (40, 110, 30), np.uint8))
    return subprocess.run([sys.executable, "-m", "companion", "run", "--camera", f"image:{felt}", "--buttons",
                           "virtual", "--lights", "mock", "--port", "0", "--host", "127.0.0.1",
                           "--data-dir", str(folder), *flags],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_run_refuses_a_game_flag_for_another_game_in_one_line(tmp_path):
    folder = tmp_path / "table"
    log = _unfinished_lottery(folder)
    before = (_logs(folder), json.loads((folder / "table.json").read_text(encoding="utf-8"))["current"])

    r = _run(folder, "--game", "skull")
    assert r.returncode == 2 and r.stdout == "", (r.stdout, r.stderr)
    line = r.stderr.strip()
    assert "\n" not in line and "Traceback" not in line, line
    assert line.startswith("companion run: на столе неоконченная игра") and log.name in line, line
    assert "--game skull" in line and "Аня, Борис, Вика, Глеб" in line and "действий: 1" in line
    assert "без --game" in line and "--new" in line and "--resume ЖУРНАЛ" in line, line
    # nothing changed: no new log, the lottery is still the current game
    assert (_logs(folder), json.loads((folder / "table.json").read_text(encoding="utf-8"))["current"]) == before

    r = _run(folder, "--seats", "Аня,Борис", "--lang", "en")
    line = r.stderr.strip()
    assert r.returncode == 2 and "\n" not in line, r.stderr
    assert line.startswith("companion run: the table has an unfinished") and "--seats Аня,Борис" in line, line
    assert "drop --seats" in line and "--new" in line and "--resume LOG" in line
    assert not any(w in line for w in ("неоконченная", "журнал", "действий")), line  # one language
    assert _logs(folder) == before[0]


def test_flags_that_name_the_unfinished_game_resume_it(tmp_path):
    folder = tmp_path / "table"
    log = _unfinished_lottery(folder)
    felt = tmp_path / "felt.png"
    import cv2
    import numpy as np

    cv2.imwrite(str(felt), np.full((240, 320, 3), (40, 110, 30), np.uint8))

    def start(asked, **kw):
        s = Settings.load(None, game=asked.get("game") or "skull", seats=asked.get("seats"), data_dir=folder,
                          pin="246813", camera=f"image:{felt}", buttons="virtual", lights="mock", currency="RUB")
        return TableService(s, choose_backends(s), dashboard=False, asked=asked, **kw).start()

    for asked in ({}, {"game": "lottery"}, {"game": "lottery", "seats": LOTTERY},
                  {"seats": ["аня", "Борис ", "Вика", "ГЛЕБ"]}):  # the same players, as people read names
        svc = start(asked)
        try:
            assert svc.resumed and svc.table.referee.log.path == log and svc.table.referee.version == 1
        finally:
            svc.stop()
    with pytest.raises(ResumeConflict, match="unfinished"):
        start({"game": "lottery", "seats": ["Аня", "Борис", "Вика"]})
    # --new starts the game asked for; the lottery's log stays
    svc = start({"game": "skull", "seats": ["Аня", "Борис"]}, new=True)
    try:
        assert svc.table.game_id == "skull" and log.exists()
    finally:
        svc.stop()
    # --resume LOG is what was asked: never refused, whatever --game says
    svc = start({"game": "skull"}, resume=log.name)
    try:
        assert svc.table.game_id == "lottery" and svc.table.referee.version == 1
    finally:
        svc.stop()
