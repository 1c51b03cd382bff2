"""Skull's audit lines in ``companion replay``'s report, declared on its spec
(``GameSpec.replay_lines``): the bank's notes with their face value so far (over or not), then the
notes each seat still holds or that it is out — as message ids with facts, rendered at the edge.

Real code path: the bundled example log (``companion/examples/skull-game.jsonl``), whole and cut
mid-game, replayed through the engine (:func:`companion.log.replay`)."""

from __future__ import annotations

import json

from companion.commands.demo import example_path
from companion.games.skull import SPEC
from companion.games.words import money
from companion.i18n import M, MN, render
from companion.log import LogRecord, read_jsonl, replay

BANK = "bank: %(n)s note(s)%(value)s: %(serials)s"
OUT = "  %(name)s: %(notes)s (out)"
HOLDS = "  %(name)s: %(standing)s"


def _game(lines: list[str]):
    """The skull engine after the example log's header and records ``lines[1:]``."""
    header, _, _ = read_jsonl(example_path())
    records = [LogRecord(i, json.loads(line)["action"], line=i + 1) for i, line in enumerate(lines[1:], start=1)]
    res = replay(header, records)
    assert not res.rejected
    return res.game


def _expected(game, denominations: dict[str, int | None]) -> list:
    """The audit lines, built from the replay summary and the registrations' face values."""
    s = game.replay_summary()
    known = [denominations[x] for x in s["bank"] if denominations.get(x) is not None]
    unknown = len(s["bank"]) - len(known)
    value: object = ""
    if known:
        value = M(" = %(money)s", money=money(sum(known), "RUB"))
        if unknown:
            value = M("%(value)s (+%(n)s of unknown value)", value=value, n=unknown)
    out = [MN(BANK, BANK, len(s["bank"]), value=value, serials=", ".join(s["bank"]) or "-")]
    for seat in s["seats"]:
        held = ", ".join(seat["notes"]) or "-"
        out.append(M(OUT, name=seat["name"], notes=held) if seat["out"] else M(HOLDS, name=seat["name"], standing=held))
    return out


def _log(unknown_first: bool = False) -> tuple[list[str], dict[str, int | None]]:
    """The example's lines (the first player's face values unrecorded: ``?``) and each note's value."""
    lines = example_path().read_text(encoding="utf-8").splitlines()
    if unknown_first:
        rec = json.loads(lines[1])
        rec["action"] = " ".join(rec["action"].split()[:-1] + ["?"])
        lines[1] = json.dumps(rec, ensure_ascii=False)
    values: dict[str, int | None] = {}
    for line in lines[1:4]:
        _, _, _, serials, faces = json.loads(line)["action"].split()
        names = serials.split(",")
        values.update(zip(names, map(int, faces.split(","))) if faces != "?" else ((x, None) for x in names))
    return lines, values


def test_a_finished_game_tells_the_bank_its_worth_and_who_is_out():
    lines, values = _log()
    game = _game(lines)
    assert game.is_over()
    told = list(SPEC.replay_lines(game))
    assert told == _expected(game, values)
    bank = told[0]
    assert (bank.id, bank.facts["n"], bank.facts["value"]) == (BANK, 9, M(" = %(money)s", money=money(4500, "RUB")))
    assert [m.id for m in told[1:]] == [OUT, OUT, HOLDS]  # Аня and Борис are out; Вера won
    # the wording the report always had, in both languages
    serials = bank.facts["serials"]
    assert render(bank, "ru") == f"банк: 9 купюр = 4\u00a0500 ₽: {serials}"
    assert render(bank, "en") == f"bank: 9 note(s) = 4,500 ₽: {serials}"
    assert [render(m, "ru") for m in told[1:3]] == ["  Аня: - (вне игры)", "  Борис: - (вне игры)"]
    assert [render(m, "en") for m in told[1:3]] == ["  Аня: - (out)", "  Борис: - (out)"]
    assert render(told[3], "ru") == render(told[3], "en") == "  Вера: " + ", ".join(game.replay_summary()["seats"][2]["notes"])


def test_an_unfinished_game_tells_the_banks_worth_so_far():
    lines, values = _log()
    game = _game(lines[:30])  # mid-game: two rounds settled, four notes in the bank
    assert not game.is_over() and len(game.bank) == 4
    told = list(SPEC.replay_lines(game))
    assert told == _expected(game, values)
    assert told[0].facts["value"] == M(" = %(money)s", money=money(2200, "RUB"))
    assert [m.id for m in told[1:]] == [HOLDS] * 3
    assert render(told[0], "ru").startswith("банк: 4 купюры = 2\u00a0200 ₽: ")
    assert render(told[0], "en").startswith("bank: 4 note(s) = 2,200 ₽: ")


def test_notes_of_unknown_value_are_counted_apart_and_an_empty_bank_has_no_worth():
    lines, values = _log(unknown_first=True)
    game = _game(lines[:30])
    told = list(SPEC.replay_lines(game))
    assert told == _expected(game, values)
    value = told[0].facts["value"]
    assert value == M("%(value)s (+%(n)s of unknown value)", value=M(" = %(money)s", money=money(2000, "RUB")), n=2)
    assert render(told[0], "ru").startswith("банк: 4 купюры = 2\u00a0000 ₽ (+2 неизвестного номинала): ")
    assert render(told[0], "en").startswith("bank: 4 note(s) = 2,000 ₽ (+2 of unknown value): ")
    fresh = _game(lines[:12])  # set up, nothing in the bank yet
    assert list(SPEC.replay_lines(fresh))[0] == MN(BANK, BANK, 0, value="", serials="-")
    assert render(list(SPEC.replay_lines(fresh))[0], "ru") == "банк: 0 купюр: -"
