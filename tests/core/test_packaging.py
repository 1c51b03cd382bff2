"""The package builds without setuptools' "Package ... is absent from the `packages`
configuration" warnings (#23, tester's item 7: ~150 lines at the first ``make demo``) and its wheel
still ships every data file a run needs: the dashboard's web/ (templates, static, translations),
the club's templates and static files, each game's board scripts, the vision models.

Real code path: ``pip wheel`` on the checkout, as ``make`` installs it (build isolation, the
project's setup.py and pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_wheel_builds_silently_with_every_data_file(tmp_path):
    # a copy of the checkout's tracked files: the build writes build/ and *.egg-info beside them
    src = tmp_path / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    for name in filter(None, archive.decode().split("\0")):
        path = ROOT / name
        if path.is_file():
            dest = src / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(path.read_bytes())
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "dist"), str(src)],
                         capture_output=True, text=True, timeout=540)
    assert out.returncode == 0, out.stderr[-3000:]
    said = out.stdout + out.stderr
    assert "is absent from the `packages` configuration" not in said, said[-3000:]
    assert "Package would be ignored" not in said
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    games = [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "companion/games").glob("*/static"))]
    assert games, "no game ships a board script"
    for tracked in ("companion/club/static", "companion/club/templates", *games,
                    "web/static", "web/templates", "web/translations/ru", "companion/vision/models"):
        for f in (ROOT / tracked).rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix not in (".pyc",):
                rel = f.relative_to(ROOT).as_posix()
                shipped = "companion/" + rel if rel.startswith("web/") else rel
                if subprocess.run(["git", "-C", str(ROOT), "ls-files", "--error-unmatch", rel],
                                  capture_output=True).returncode == 0:
                    assert shipped in names, shipped
