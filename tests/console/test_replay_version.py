"""``companion replay`` refuses a table log of an unknown (future) format version."""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion.cli import main as cli_main
from companion.errors import LogError
from companion.log import FORMAT_VERSION, TableLog, read_jsonl
from companion.i18n import M, render

HEADER = {"game": "skull", "seats": ["Аня", "Борис", "Вера"], "options": {}}


def _log(tmp_path, version, name="g.jsonl"):
    head = dict(HEADER) if version is None else {"companion_log": version, **HEADER}
    path = tmp_path / name
    path.write_text(json.dumps(head, ensure_ascii=False) + "\n" + '{"action": "table register 0 ? ?"}\n',
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("version", [99, FORMAT_VERSION + 1, "1", 0, 1.5, True])
def test_replay_refuses_unknown_format_version(tmp_path, capsys, version):
    path = _log(tmp_path, version)
    assert cli_main(["replay", str(path), "--json", "--lang", "en"]) == 1
    said = capsys.readouterr()
    err = json.loads(said.out)["reason"]  # --json: the error is one JSON object
    assert "companion_log" in err or "format version" in err, err
    assert said.err == ""
    with pytest.raises(LogError):
        read_jsonl(path)


def test_version_99_message_says_newer(tmp_path, capsys):
    assert cli_main(["replay", str(_log(tmp_path, 99)), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "version 99 is newer" in err and "update" in err
    assert cli_main(["replay", str(_log(tmp_path, 99))]) == 1  # Russian by default
    err = capsys.readouterr().err
    newer = M("%(where)s: table-log format version %(version)s is newer than this program reads (up to %(known)s); "
              "update Table Companion to read it", where="§", version=99, known=FORMAT_VERSION)
    assert render(newer, "ru").split("§")[1] in err, err


@pytest.mark.parametrize("version", [FORMAT_VERSION, None])
def test_current_or_absent_version_still_replays(tmp_path, capsys, version):
    assert cli_main(["replay", str(_log(tmp_path, version)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "skull"


def test_sqlite_log_with_future_version_refused(tmp_path, capsys):
    path = tmp_path / "g.sqlite"
    with TableLog.create(path, "skull", HEADER["seats"], {}):
        pass
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value=? WHERE key='header'", (json.dumps({"companion_log": 99, **HEADER}),))
    conn.commit()
    conn.close()
    assert cli_main(["replay", str(path), "--lang", "en"]) == 1
    assert "version 99 is newer" in capsys.readouterr().err


def test_replay_names_a_binary_file_as_not_a_table_log(tmp_path):
    """A photo given to replay by mistake: a clear sentence, not Python's codec error."""
    import subprocess
    import sys
    from pathlib import Path

    photo = tmp_path / "note.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)))
    root = Path(__file__).resolve().parents[2]
    r = subprocess.run([sys.executable, "-m", "companion", "replay", str(photo)], capture_output=True,
                       text=True, cwd=root, timeout=60)
    not_a_log = M("%(path)s is not a table log: not UTF-8 text (a table log is a .sqlite file or JSON Lines)", path=str(photo))
    assert r.returncode == 1 and render(not_a_log, "ru") in r.stderr and "codec" not in r.stderr
