"""The table log survives a crash; ``companion replay`` and ``companion demo`` on real logs.

Crash test (issue 2): a subprocess plays a simulated skull game, appending each accepted action to a
SQLite :class:`companion.log.TableLog` and reporting the state's digest after each append; it is
SIGKILLed mid-game. Replaying the log must give exactly the last state the writer reported.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.cli import main as cli_main
from companion.commands.demo import example_path, tell
from companion.commands.replay import load_and_replay, summary
from companion.games.skull import SkullGame
from companion.log import LogHeader, LogRecord, TableLog, replay, write_jsonl
from companion.games.simulator import play_random_game
from companion.games.words import money
from companion.i18n import M, render

ROOT = Path(__file__).resolve().parents[3]

WRITER = textwrap.dedent(
    """
    import hashlib, sys
    from companion.games import new_game
    from companion.log import TableLog
    from companion.games.skull.sim import SkullSim

    path, seed = sys.argv[1], int(sys.argv[2])
    seats = ["Аня", "Борис", "Вера", "Гена"]
    game = new_game("skull", seats, {})
    sim = SkullSim(game, seed)
    log = TableLog.create(path, "skull", seats, {})
    while not game.is_over():
        text, source = sim.next_action()
        game.apply(text)
        sim.applied(text)
        log.append(text, source)
        print(game.version, hashlib.sha256(game.snapshot_bytes()).hexdigest(), flush=True)
        if sys.stdin.readline() == "":  # wait for the test's go-ahead
            break
    print("over", flush=True)
    sys.stdin.readline()
    """
)


@pytest.mark.parametrize("seed,fraction", [(3, 0.05), (11, 0.4), (29, 0.9)])
def test_sigkill_mid_game_then_replay_gives_last_reported_state(tmp_path, seed, fraction):
    """Seed 000 is a long game of many rounds; a power cut must lose nothing that was reported."""
    _g, whole = play_random_game("skull", ["Аня", "Борис", "Вера", "Гена"], None, seed)
    kill_after = max(1, int(fraction * len(whole)))
    path = tmp_path / "table.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(seed)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
    last = None
    try:
        for i in range(kill_after):
            line = proc.stdout.readline()
            assert line and not line.startswith("over"), f"game ended before action {kill_after}"
            last = line.split()
            if i < kill_after - 1:
                proc.stdin.write("\n")
                proc.stdin.flush()
        os.kill(proc.pid, signal.SIGKILL)  # mid-game, the database still open
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    with TableLog.open(path) as log:
        res = replay(log.header, log.records())
    assert not res.rejected
    assert res.game.version == int(last[0]) == kill_after
    assert hashlib.sha256(res.game.snapshot_bytes()).hexdigest() == last[1]
    assert not res.game.is_over()


# ------------------------------------------------------------------------------ replay command
def _write_log(path: Path, actions: list[str], seats=("Аня", "Борис", "Вера"), extra_lines: list[str] = ()):
    header = LogHeader("skull", tuple(seats), {}, "2026-11-28T20:00:00.000+00:00")
    write_jsonl(path, header, [LogRecord(i + 1, a, "camera") for i, a in enumerate(actions)])
    if extra_lines:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\n".join(extra_lines) + "\n")


def test_replay_json_shape_on_bundled_game(capsys):
    """Issue 2 part 5: ``--json`` prints exactly {game, over, winner, rounds, bank, seats, rejected}."""
    with example_path().open("r", encoding="utf-8") as fh:
        text = fh.read()
    assert cli_main(["replay", str(example_path()), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"game", "over", "winner", "rounds", "bank", "seats", "rejected"}
    assert out["game"] == "skull" and out["over"] is True and out["winner"] == "Вера"
    assert out["rounds"] == 4 and len(out["bank"]) == 9 and out["rejected"] == []
    assert [set(s) for s in out["seats"]] == [{"name", "notes", "out"}] * 3
    assert [s["out"] for s in out["seats"]] == [True, True, False]
    assert len(out["seats"][2]["notes"]) == 3
    # Every note accounted for: the winner's notes plus the bank are all 12 registered notes.
    regs = [json.loads(line)["action"] for line in text.splitlines()[1:4]]
    registered = [x for r in regs for x in r.split()[3].split(",")]
    assert sorted(out["bank"] + out["seats"][2]["notes"]) == sorted(registered)


def test_replay_rejects_bad_lines_and_goes_on(tmp_path, capsys):
    """Bad input: a malformed line (``bad_line``), an unknown seat, an out-of-range bid, a bid during
    the reveal and a never-registered serial each get their reason code; replay goes on."""
    g, actions = play_random_game("skull", ["Аня", "Борис", "Вера"], None, 23)
    texts = [a for a, _ in actions]
    # Find the first reveal: insert bad lines around it.
    probe = SkullGame(g.seats)
    reveal_at = None
    for i, t in enumerate(texts):
        probe.apply(t)
        if probe.phase == "reveal":
            reveal_at = i + 1
            break
    bad = ["7 place", "0 bid 99", "1 bid 1", f"table flip {probe.dealer} ЖЖ0000002"]
    log = texts[:reveal_at] + bad + texts[reveal_at:]
    path = tmp_path / "game.jsonl"
    # Written by hand, as an operator might, with a malformed line in the middle.
    lines = [json.dumps({"companion_log": 1, "game": "skull", "seats": ["Аня", "Борис", "Вера"], "options": {}})]
    for i, t in enumerate(log):
        lines.append(json.dumps({"seq": i + 1, "action": t, "source": "camera"}, ensure_ascii=False))
        if i == 2:
            lines.append('{"seq": oops')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli_main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    reasons = [r["reason"] for r in out["rejected"]]
    assert reasons == ["bad_line", "unknown_seat", "reveal_in_progress", "reveal_in_progress", "unregistered_serial"]
    assert out["rejected"][0]["line"] == 5
    # The bad lines changed nothing: the result is the clean game's.
    assert {k: v for k, v in out.items() if k != "rejected"} == g.replay_summary()
    res = load_and_replay(path)
    assert summary(res)["rounds"] == g.replay_summary()["rounds"]
    assert cli_main(["replay", str(path), "--lang", "en"]) == 0
    human = capsys.readouterr().out
    assert f"winner: {g.seats[g.winner]}" in human and "reveal_in_progress" in human
    assert cli_main(["replay", str(path)]) == 0  # Russian by default
    human = capsys.readouterr().out
    # the Russian line says the reason in words (the table's sentence for the code), not the code
    from companion.dashboard.reasons import reason_message

    assert f"победитель: {g.seats[g.winner]}" in human and "reveal_in_progress" not in human
    assert reason_message("reveal_in_progress", "ru", "skull") in human


def test_out_of_range_bid_in_log(tmp_path, capsys):
    """Bad input: an out-of-range bid → ``bid_too_high`` (and ``bid_too_low``)."""
    regs = [f"table register {s} РЗ{s}000002,РЗ{s}000004,РЗ{s}000006,ЧР{s}000001 ?" for s in range(3)]
    path = tmp_path / "g.jsonl"
    _write_log(path, regs + ["table dealer 0", "0 place", "1 place", "2 place", "0 bid 4", "0 bid 0", "0 bid 3"])
    assert cli_main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rejected"] == [{"line": 9, "reason": "bid_too_high"}, {"line": 10, "reason": "bid_too_low"}]
    assert out["over"] is False and out["winner"] is None


def test_replay_missing_or_unreadable_file_exit_1(tmp_path, capsys):
    """A log that cannot be replayed is a failure of the work (exit 1, README "Exit status"); with
    --json the error is one JSON object on stdout."""
    assert cli_main(["replay", str(tmp_path / "nope.jsonl")]) == 1
    told = render(M("cannot read %(path)s: no such file", path=str(tmp_path / "nope.jsonl")), "ru")
    assert told in capsys.readouterr().err  # Russian by default
    assert cli_main(["replay", str(tmp_path / "nope.jsonl"), "--lang", "en"]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert cli_main(["replay", str(tmp_path / "nope.jsonl"), "--json"]) == 1
    out = capsys.readouterr().out
    assert json.loads(out) == {"log": str(tmp_path / "nope.jsonl"), "error": "no_such_file",
                               "reason": f"cannot read {tmp_path / 'nope.jsonl'}: no such file"}, out
    assert cli_main(["replay", str(tmp_path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"] == "folder"
    junk = tmp_path / "junk.jsonl"
    junk.write_text("this is not a log\n", encoding="utf-8")
    assert cli_main(["replay", str(junk)]) == 1
    assert "заголовок" in capsys.readouterr().err  # Russian by default
    assert cli_main(["replay", str(junk), "--json", "--lang", "ru"]) == 1
    said = capsys.readouterr()
    told = json.loads(said.out)
    assert told["error"] == "unreadable_log" and "header" in told["reason"] and said.err == ""
    other = tmp_path / "other.jsonl"
    other.write_text('{"game": "chess", "seats": ["A", "B"]}\n', encoding="utf-8")
    assert cli_main(["replay", str(other)]) == 1
    err = capsys.readouterr().err  # in the run's language, as `run --game chess` says it
    assert render(M("no game %(game)r; games: %(games)s", game="chess", games="§"), "ru").split("§")[0] in err, err
    assert "unknown_game" not in err


def test_replay_reads_sqlite_log(tmp_path, capsys):
    g, actions = play_random_game("skull", 3, None, 5)
    path = tmp_path / "t.sqlite"
    with TableLog.create(path, "skull", g.seats, {}) as log:
        for text, src in actions:
            log.append(text, src)
    assert cli_main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {**g.replay_summary(), "rejected": []}


def test_an_edited_sqlite_log_is_said_damaged_and_exits_1(tmp_path, capsys, monkeypatch):
    """A SQLite table log holds only the actions the table accepted, numbered by seq without a gap:
    a row changed so the game refuses it, and a row deleted, mean the file was edited. The report
    says so first, naming the missing seq, counts records (not lines), and exits 1 (README, "Exit
    status": a damaged log); ``--json`` keeps its exact shape and says the damage on stderr."""
    import sqlite3

    from companion.commands.replay import damage_words, missing_seqs

    g, actions = play_random_game("skull", 3, None, 5)
    path = tmp_path / "t.sqlite"
    with TableLog.create(path, "skull", g.seats, {}) as log:
        for text, src in actions:
            log.append(text, src)
    assert cli_main(["replay", str(path)]) == 0  # whole: no damage said
    assert "повреждён" not in capsys.readouterr().out
    with sqlite3.connect(path) as db:
        db.execute("UPDATE actions SET action = '7 place' WHERE seq = 6")
        db.execute("DELETE FROM actions WHERE seq IN (9, 10)")
    db.close()
    res = load_and_replay(path)  # the records' seq numbers come with the result: one read
    assert res.seqs is not None and missing_seqs(res.seqs) == [9, 10]
    told = damage_words(res, [9, 10])
    assert told is not None
    opens, reads = [], []
    real_open, real_records = TableLog.open.__func__, TableLog.records
    monkeypatch.setattr(TableLog, "open", classmethod(lambda cls, p, readonly=False: opens.append(p)
                                                      or real_open(cls, p, readonly)))
    monkeypatch.setattr(TableLog, "records", lambda self: reads.append(self.path) or real_records(self))
    assert cli_main(["replay", str(path)]) == 1
    assert opens == [path] and reads == [path]  # the command opens the log once and reads it once
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first == render(told, "ru") and "9–10" in first, out
    assert render(M("  record %(seq)s: %(why)s%(action)s", seq=6, why="§", action=""), "ru").split("§")[0] in out
    assert "строк" not in out, out  # rows, not lines
    assert cli_main(["replay", str(path), "--json"]) == 1
    said = capsys.readouterr()
    out = json.loads(said.out)
    assert set(out) == {"game", "over", "winner", "rounds", "bank", "seats", "rejected"}
    assert out["rejected"][0] == {"line": 6, "reason": "unknown_seat"}
    assert said.err == f"companion replay: {render(told, 'ru')}\n"


def test_replay_generic_summary_for_other_games(monkeypatch, capsys, tmp_path):
    """Engines without ``replay_summary`` get the generic shape from result()/snapshot()."""
    from companion.games.base import Game

    class Tiny(Game):
        GAME_ID = "doubt"
        ACTIONS = ()

        def _check(self, a): ...
        def _do(self, a): return []
        def legal_actions(self, seat): return []
        def current_seats(self): return []
        def is_over(self): return True
        def result(self): return {"winner": 1, "rounds": 2}
        def view(self, seat): return {}
        def snapshot(self): return {}

    import companion.games as games
    monkeypatch.setattr(games, "get_game_class", lambda gid: Tiny)
    path = tmp_path / "d.jsonl"
    path.write_text('{"game": "doubt", "seats": ["A", "B"]}\n{"action": "0 fly"}\n', encoding="utf-8")
    assert cli_main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"game": "doubt", "over": True, "winner": "B", "rounds": 2,
                   "result": {"winner": 1, "rounds": 2}, "seats": [{"name": "A"}, {"name": "B"}],
                   "rejected": [{"line": 2, "reason": "unknown_action"}]}


# ------------------------------------------------------------------------------ demo and golden game
def test_demo_tells_the_bundled_game(capsys):
    assert cli_main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "Первый дилер — Аня" in out and "Череп: Аня!" in out
    assert "Игра окончена! Вера забирает банк: 9 купюр, 4\u00a0500 ₽" in out  # money as the board writes it
    assert "Раундов: 4" in out
    buf = io.StringIO()
    with example_path().open("r", encoding="utf-8") as fh:
        assert tell(fh, "en", buf) == 0
    assert "Result: winner Вера" in buf.getvalue()
    # Public story only: after the (face-up, public) registration, no serial of a private deposit
    # appears before the game's end.
    story = buf.getvalue().split("First dealer")[1].split("Game over")[0]
    res = load_and_replay(example_path())
    flipped = {h.serial for h in res.game.history if h.VERB == "flip"}
    for b in res.game.bank:
        if b["serial"] not in flipped:
            assert b["serial"] not in story


def test_example_is_packaged():
    """setup.py's package_data ("**/*.jsonl") ships companion/examples/skull-game.jsonl."""
    setup = (ROOT / "setup.py").read_text()
    assert '"**/*.jsonl"' in setup
    assert (ROOT / "companion" / "examples" / "skull-game.jsonl").is_file()


def test_replay_of_an_unfinished_game_tells_the_banks_worth(tmp_path):
    """A log cut mid-game (the table still playing): the bank line carries its face value so far,
    the sum of the denominations the registrations recorded for the notes in the bank."""
    from companion.commands.replay import report

    lines = example_path().read_text(encoding="utf-8").splitlines()
    denom = {}
    for line in lines[1:4]:
        _, _, _, serials, values = json.loads(line)["action"].split()
        denom.update(zip(serials.split(","), map(int, values.split(","))))
    for cut in range(10, len(lines) - 1):
        log = tmp_path / f"cut{cut}.jsonl"
        log.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
        res = load_and_replay(log)
        bank = [b["serial"] for b in res.game.bank]
        if not res.game.is_over() and bank:
            break
    else:
        pytest.fail("no cut of the example log leaves an unfinished game with a bank")
    (bank_line,) = [m for m in report(res, summary(res)) if getattr(m, "id", "").startswith("bank:")]
    worth = sum(denom[s] for s in bank)
    assert worth > 0
    assert render(bank_line.facts["value"], "ru") == render(M(" = %(money)s", money=money(worth, "RUB")), "ru")
