"""Test helpers shared by the game engines' tests (skull, doubt, hoggenheimer, infinity, lottery).

Imported as ``tests.gamekit`` (pytest runs with ``--import-mode=importlib`` and ``pythonpath=.``).
Each helper asserts the property it names, so a game's test reads as one line per property:

* rule scenarios: :func:`run`, :func:`kinds`, :func:`rejects` (a rejected action leaves
  ``snapshot_bytes()`` unchanged), :func:`docs_list_everything`;
* random playouts: :func:`until_over` (every game ends), :func:`attempt` (a rejected action
  leaves ``snapshot_bytes()`` unchanged), :func:`probe` (``is_legal`` agrees with ``apply``),
  :func:`sim_step` (the simulated table plays only actions ``legal_actions`` offers),
  :func:`shows_none` (public JSON carries no hidden card or serial), :func:`random_text` (an
  action thrown at random from the game's own verbs) and :func:`playout` (the loop of them all,
  a game's own invariants checked after every step: tests/games/test_api.py checks the shared
  promises for every registered game, a game's test_properties.py its own);
* table logs: :func:`replay_golden`, :func:`replay_recorded`, :func:`replay_through_sqlite`, and
  the recorders :func:`record_sim_log`, :func:`record_sim_cases`;
* the referee: :func:`drive`, :func:`power_cut_whole_game`, :func:`power_cut_and_resume`;
* the ``companion run`` console: :func:`console_lines` (a whole simulated game's lines).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import io
import json
import random
from pathlib import Path
from typing import Callable, Iterable

import pytest

from companion.errors import IllegalAction
from companion.log import LogHeader, LogRecord, TableLog, read_jsonl, replay, write_jsonl

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------- rule scenarios
def run(g, *actions, after: Callable[[object], None] | None = None) -> list:
    """Apply ``actions`` (text or Action) in order and return all their events; ``after(g)`` is
    called after each one (an invariant check)."""
    events = []
    for a in actions:
        events += g.apply(a)
        if after is not None:
            after(g)
    return events


def kinds(events) -> list[str]:
    """The ``kind`` of each event, in order."""
    return [e.kind for e in events]


def rejects(g, action, reason: str, reasons: Iterable[str] | None = None) -> IllegalAction:
    """Assert that applying ``action`` raises IllegalAction with ``reason`` and leaves
    ``snapshot_bytes()`` unchanged; with ``reasons``, the code must also be one of them or a
    generic parse code (``unknown_seat``, ``bad_syntax``, ``unknown_action``). Returns the error."""
    before = g.snapshot_bytes()
    with pytest.raises(IllegalAction) as e:
        g.apply(action)
    assert e.value.reason == reason, (action, e.value.reason, e.value.detail)
    assert g.snapshot_bytes() == before, "a rejected action changed the state"
    if reasons is not None:
        assert reason in reasons or reason in ("unknown_seat", "bad_syntax", "unknown_action")
    return e.value


def docs_list_everything(game_id: str) -> None:
    """``docs/rules/<game_id>.md`` names every reason code, house-rule option and action verb of
    the game (GUIDE: errors are part of the product)."""
    mod = importlib.import_module(f"companion.games.{game_id}")
    doc = (ROOT / "docs" / "rules" / f"{game_id}.md").read_text(encoding="utf-8")
    for code in mod.REASONS:
        assert f"`{code}`" in doc, code
    for f in dataclasses.fields(mod.GAME.OPTIONS):
        assert f"`{f.name}`" in doc, f.name
    for action in mod.GAME.ACTIONS:
        assert f" {action.VERB}" in doc, action.VERB


# ------------------------------------------------------------------------------ random playouts
def until_over(g, limit: int):
    """Yield the step numbers 1, 2, … while ``g`` is not over; a game still going at step
    ``limit`` fails the test (every game must end)."""
    steps = 0
    while not g.is_over():
        steps += 1
        assert steps < limit, f"the game did not end in {limit} steps"
        yield steps


def attempt(g, action) -> IllegalAction | None:
    """Apply ``action`` (text or Action), legal or not. Returns ``None`` when it was accepted; when
    it was rejected, asserts that ``snapshot_bytes()`` did not change and returns the error."""
    before = g.snapshot_bytes()
    try:
        g.apply(action)
    except IllegalAction as exc:
        assert g.snapshot_bytes() == before, f"rejected {action!r} changed the state"
        return exc
    return None


def probe(g, text: str) -> bool:
    """Throw the action ``text`` (legal or not) at ``g``. If ``is_legal`` says it is legal, it must
    apply (on a deep copy, so ``g`` does not move); otherwise ``apply`` must reject it and leave
    ``snapshot_bytes()`` unchanged. Returns whether it was legal."""
    try:
        legal = g.is_legal(g.parse_action(text))
    except IllegalAction:
        legal = False
    if legal:
        twin = copy.deepcopy(g)
        twin.apply(text)
        assert twin.version == g.version + 1
    else:
        assert attempt(g, text) is not None, f"illegal {text!r} accepted"
    return legal


def sim_step(g, sim) -> str:
    """One move of the simulated table: it must offer an action that ``legal_actions`` lists for
    its seat (by type) and that ``is_legal`` accepts; it is applied to ``g`` and told to the sim.
    Returns the action text."""
    nxt = sim.next_action()
    assert nxt is not None
    action = g.parse_action(nxt[0])
    templates = g.legal_actions(action.seat)
    assert any(type(t) is type(action) and t.seat == action.seat for t in templates), nxt
    assert g.is_legal(action)
    g.apply(action)
    sim.applied(nxt[0])
    return nxt[0]


#: lines thrown now and then that are no action at all (no verb, an unknown verb, an unknown actor)
MALFORMED = ("", "0", "table", "0 fly", "x place", "table ?", "0 bid x")


def random_text(g, rng: random.Random, pool: Iterable[str]) -> str:
    """An action text thrown at ``g``, often illegal, sometimes legal: one of the game's own verbs
    (``ACTIONS``) by the table, a seat or an unknown seat, with random arguments — small numbers
    (negative too), ``?``, yes/no, or words from ``pool`` (the game's card codes, serials); now
    and then an argument short, or a malformed line (:data:`MALFORMED`)."""
    from companion.games.base import TABLE
    from companion.games.fields import fields_of

    r = rng.random()
    if r < 0.04:
        return rng.choice(MALFORMED)
    words = list(pool) or ["X"]
    cls = rng.choice(g.ACTIONS)
    actor = rng.choice([TABLE, *map(str, range(len(g.seats) + 1))])
    args = []
    for f in fields_of(cls):
        if rng.random() < 0.1:
            args.append("?")
        elif f.type is int:
            items = [str(rng.randint(-1, 12)) for _ in range(rng.randint(1, 3) if f.many else 1)]
            args.append(",".join(items))
        elif f.type is bool:
            args.append(rng.choice(["yes", "no"]))
        else:
            items = [rng.choice(words) for _ in range(rng.randint(1, 3) if f.many else 1)]
            args.append(",".join(items))
    if r < 0.08 and args:
        args.pop()  # an argument short
    return " ".join([actor, cls.VERB, *args])


def playout(g, sim, rng: random.Random, pool: Iterable[str] | Callable[[], Iterable[str]],
            check: Callable[[object, object], None] | None = None, limit: int = 5000, junk: int = 1) -> int:
    """Play ``g`` to its end with its simulated table ``sim``: before each move ``junk`` random
    actions (:func:`random_text` over ``pool``, or what ``pool()`` gives at that step) are thrown
    at it (:func:`probe`: a legal one applies on a copy, an illegal one changes nothing), then the
    bots' move (:func:`sim_step`: only what ``legal_actions`` offers), then ``check(g, sim)`` (the
    game's own invariants). The game must end within ``limit`` steps (:func:`until_over`); at the
    end nobody may act and the bots have nothing more to play. Returns the steps taken."""
    steps = 0
    if check is not None:
        check(g, sim)
    for steps in until_over(g, limit):
        words = list(pool() if callable(pool) else pool)
        for _ in range(junk):
            probe(g, random_text(g, rng, words))
        sim_step(g, sim)
        if check is not None:
            check(g, sim)
    assert g.legal_actions(None) == [] and g.current_seats() == []
    assert sim.next_action() is None
    return steps


def shows_none(public, hidden, quoted: bool = True) -> None:
    """The public information ``public`` (a view, event data, or a list of them), as JSON, carries
    none of the ``hidden`` facts (card codes, serial numbers): not as a JSON string (``quoted``)
    or not anywhere in the text (``quoted=False``)."""
    text = json.dumps(public, ensure_ascii=False)
    leaked = sorted(x for x in hidden if (f'"{x}"' if quoted else x) in text)
    assert not leaked, f"public information leaks {leaked}"


# ----------------------------------------------------------------------------------- table logs
def replay_golden(path: Path, game_id: str | None = None):
    """Read the JSON Lines log at ``path`` (it must have no bad lines, and be of ``game_id`` when
    given) and replay it. Returns ``(header, records, result)``."""
    header, records, errors = read_jsonl(path)
    assert not errors
    if game_id is not None:
        assert header.game == game_id
    return header, records, replay(header, records)


def replay_recorded(path: Path, game_id: str | None = None):
    """Replay a golden log recorded from the simulated table: no bad lines, of ``game_id`` when
    given, every action accepted, the game over. Returns ``(header, records, replay_result,
    expected)`` where ``expected`` is the JSON of the ``.result.json`` file beside the log."""
    header, records, res = replay_golden(path, game_id)
    assert not res.rejected and res.game.is_over()
    expected = json.loads(path.with_suffix(".result.json").read_text(encoding="utf-8"))
    return header, records, res, expected


def replay_through_sqlite(tmp_path: Path, game_id: str, seats, options, seed: int):
    """A simulated game written to the SQLite table log, exported to JSON Lines and replayed: the
    replay accepts every action and rebuilds the exact final state (``snapshot_bytes``).
    Returns ``(game, records, replay_result)``."""
    from companion.games.simulator import play_random_game

    g, actions = play_random_game(game_id, seats, options, seed=seed)
    with TableLog.create(tmp_path / f"{game_id}.sqlite", game_id, g.seats, options) as log:
        for text, source in actions:
            log.append(text, source)
        buf = io.StringIO()
        log.export_jsonl(buf)
    header, records, errors = read_jsonl(io.StringIO(buf.getvalue()))
    res = replay(header, records, errors)
    assert not res.rejected and res.game.snapshot_bytes() == g.snapshot_bytes()
    return g, records, res


def record_sim_log(path: Path, game_id: str, seats, options, seed: int, *header_args):
    """Record a simulated game as a golden JSON Lines log at ``path`` (a maintenance tool, not a
    test). ``header_args`` go to :class:`LogHeader` after the options. Returns ``(game, actions)``."""
    from companion.games.simulator import play_random_game

    game, actions = play_random_game(game_id, seats, options, seed)
    header = LogHeader(game_id, tuple(game.seats), options or {}, *header_args)
    path.parent.mkdir(exist_ok=True)
    write_jsonl(path, header, [LogRecord(i + 1, a, src) for i, (a, src) in enumerate(actions)])
    return game, actions


def record_sim_cases(folder: Path, game_id: str, cases: dict) -> None:
    """Record each case ``name: (seats, options, seed)`` as ``<name>.jsonl`` with its game's
    ``result()`` beside it in ``<name>.result.json`` (a maintenance tool, not a test)."""
    for name, (seats, options, seed) in cases.items():
        game, _ = record_sim_log(folder / f"{name}.jsonl", game_id, seats, options, seed)
        (folder / f"{name}.result.json").write_text(
            json.dumps(game.result(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


# ------------------------------------------------------------------------------------ referee
def drive(ref, sim, stop_after: int | None = None) -> int:
    """Submit the simulated table's actions to the Referee until the game ends (or after
    ``stop_after`` actions); each must be accepted. Returns how many were submitted."""
    n = 0
    while not ref.game.is_over():
        if stop_after is not None and n >= stop_after:
            return n
        text, source = sim.next_action()
        out = ref.submit(text, source)
        assert out.accepted, (text, out.reason, out.detail)
        sim.applied(text)
        n += 1
    return n


def power_cut_whole_game(tmp_path: Path, game_id: str, seats, options, seed: int) -> None:
    """A whole game through the referee with a power cut halfway (close, resume from the SQLite
    log) ends exactly as an uninterrupted one: same snapshot, result, logged actions, and a public
    view that shows the result."""
    from companion.referee import Referee
    from companion.games.simulator import get_sim_class, play_random_game

    expected, actions = play_random_game(game_id, seats, options, seed=seed)
    path = tmp_path / "table.sqlite"
    ref = Referee.start(path, game_id, seats, options)
    sim = get_sim_class(game_id)(ref.game, seed)
    with ref:
        drive(ref, sim, stop_after=len(actions) // 2)
    ref.close()  # power cut: only the log survives
    again = Referee.resume(path)
    sim.game = again.game  # the physical table is still there; the engine is rebuilt from the log
    with again:
        drive(again, sim)
        assert again.game.snapshot() == expected.snapshot()
        assert again.game.result() == expected.result()
        assert [r.action for r in again.log.records()] == [t for t, _ in actions]
        public = again.view(None)
        assert public["phase"] == "over" and public["result"] == expected.result()
    again.close()


def power_cut_and_resume(tmp_path: Path, game_id: str, seats, options, seed: int = 7,
                         before_cut: int = 60) -> None:
    """``before_cut`` actions through the referee, an unknown action rejected, a power cut: the
    resumed referee holds the same state (``snapshot_bytes``) and the game finishes from there."""
    from companion.referee import Referee
    from companion.games.simulator import get_sim_class

    path = tmp_path / f"{game_id}.sqlite"
    ref = Referee.start(path, game_id, seats, options)
    sim = get_sim_class(game_id)(ref.game, seed)
    for _ in range(before_cut):                           # play part of the game
        text, source = sim.next_action()
        out = ref.submit(text, source)
        assert out.accepted, out
        sim.applied(text)
    assert ref.submit("table fly", "operator").reason == "unknown_action"
    snapshot = ref.game.snapshot_bytes()
    ref.close()                                           # the power goes
    again = Referee.resume(path)
    assert again.game.snapshot_bytes() == snapshot
    sim.game = again.game                                 # the physical table did not change
    while not again.game.is_over():
        text, source = sim.next_action()
        assert again.submit(text, source).accepted
        sim.applied(text)
    assert again.game.result()["rounds"] >= 1
    again.close()


def console_lines(tmp_path, game_id: str, seats, seed: int, lang: str = "ru"):
    """Play a whole simulated game of ``game_id`` through a real :class:`~companion.table.Table`
    with ``companion run``'s console listening, in ``lang``; return ``(lines, game)``: the
    console's lines without their time stamps, and the finished engine."""
    import io
    import time

    from companion.commands.run import Console
    from companion.games.simulator import play_random_game
    from companion.table import Table

    game, actions = play_random_game(game_id, seats, None, seed)
    assert game.is_over()
    table = Table(tmp_path / f"{game_id}-{lang}", pin="123456", resume=False)
    out = io.StringIO()
    console = Console(out, lang=lang)
    console.game_id, console.seats = game_id, list(game.seats)
    table.new_game(game_id, list(game.seats), None)
    done = []
    table.subscribe(lambda kind, payload: (console.on_table(kind, payload),
                                           done.append(1) if kind == "action" and payload.over else None))
    try:
        for text, source in actions:
            assert table.submit(text, source).accepted
        deadline = time.monotonic() + 10
        while not done and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        table.close()
    return [l.split("] ", 1)[1] for l in out.getvalue().splitlines()], game
