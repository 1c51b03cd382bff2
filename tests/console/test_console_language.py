"""``companion run``'s console speaks one language: Russian by default (like the dashboard),
English with ``--lang en`` — the header, the status lines, every game's event lines and its end.
Every game prints per-event lines as it goes (the lottery's prizes, doubt's checked piles …)."""

from __future__ import annotations

import io
import re
from types import SimpleNamespace

import pytest

from companion.commands.run import Console, build_settings, format_result
from companion.cli import build_parser
from companion.i18n import M
from companion.table import Table
from tests.gamekit import console_lines
from companion.i18n import render
from companion.dashboard.i18n import game_title

LATIN = re.compile(r"[A-Za-z]{3,}")
#: Latin that is data in a Russian line (ids, paths, commands, currency codes)
ALLOWED = {"Table", "Companion", "skull", "doubt", "hoggenheimer", "infinity", "lottery", "RUB", "sqlite",
           "games", "Ctrl", "sim", "gpiozero", "pty", "udev", "dev", "buttonbox", "pts", "replay", "companion",
           "standard", "http", "operator", "pin", "doctor", "ttyACM", "ttyUSB", "buttons", "PORT", "Raspberry"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _events(tmp_path, game_id, seats, seed, lang):
    return console_lines(tmp_path, game_id, seats, seed, lang)[0]


@pytest.mark.parametrize("game_id,seats,seed", [("lottery", 4, 1), ("doubt", 3, 2), ("hoggenheimer", 3, 1)])
def test_every_game_tells_its_events_in_the_console_language(tmp_path, game_id, seats, seed):
    ru = _events(tmp_path, game_id, seats, seed, "ru")
    assert len(ru) >= 3, ru  # per-event lines, not only the end
    for line in ru:
        assert CYRILLIC.search(line), line
        names_free = re.sub(r"Игрок \d|p\d", "", line)
        assert not [w for w in LATIN.findall(names_free) if w not in ALLOWED], line
    en = _events(tmp_path, game_id, seats, seed, "en")
    assert len(en) == len(ru)
    for line in en:
        assert not CYRILLIC.search(re.sub(r"Игрок \d", "", line)), line


def test_format_result_speaks_russian_by_default():
    result = {"winner": 0, "net": {"Аня": 12, "Борис": -12}, "rounds": 3}
    told = format_result(result, ["Аня", "Борис"])  # Russian by default: the parts in order
    parts = [render(M("game over"), "ru"), render(M("winner: %(winner)s", winner="Аня"), "ru"),
             render(M("rounds: %(rounds)s", rounds=3), "ru")]
    assert told.startswith(f"{parts[0]} — {parts[1]} · ") and told.endswith(f" · {parts[2]}"), told
    assert format_result(result, ["Аня", "Борис"], "en").startswith("game over — winner: Аня · net: ")


def test_the_header_is_in_one_language(tmp_path):
    table = Table(tmp_path, pin="246802")
    try:
        table.new_game("skull", ["Аня", "Борис"], None)
        table.set_status("buttons", {"state": "sim", "detail": "/dev/pts/3"})
        table.set_status("camera", {"state": "sim", "detail": "scene"})
        table.set_status("ocr", {"state": "ok", "detail": "notes (RUB)"})
        service = SimpleNamespace(table=table, resumed=False, set_aside=None, bots_left_alone=lambda: None,
                                  plan=SimpleNamespace(why=(M("simulated table: --sim"),
                                                            M("camera: rendered scenes of the simulated table"),
                                                            M("buttons: virtual box on a pty, pressed by the bots"),
                                                            M("lights: gpiozero mock pins"))))
        for lang in ("ru", "en"):
            out = io.StringIO()
            Console(out, lang=lang).header(service, "http://10.0.0.5:8080")
            text = [l for l in out.getvalue().splitlines() if l.strip() and not set(l.strip()) <= set("█▀▄ \xa0")]
            for line in text:
                if lang == "ru":
                    assert CYRILLIC.search(line) or line.startswith("Table Companion"), line
                    free = re.sub(r"https?://\S+|/\S+", "", line)
                    assert not [w for w in LATIN.findall(free) if w not in ALLOWED], line
                else:
                    assert not CYRILLIC.search(re.sub(r"Аня|Борис", "", line)), line
            joined = "\n".join(text)
            assert "/operator?pin=246802" in joined  # the link that logs the operator in
            if lang == "ru":  # the game's Russian name, as the pages call it, not its id
                head = render(M("Table Companion — %(game)s, %(n)s seats: %(seats)s", game=game_title("skull", "ru"), n=2,
                                seats="§"), "ru").split("§")[0]
                assert text[0].startswith(head), text[0]
            else:  # the game's English name likewise, not its id
                assert text[0].startswith("Table Companion — Skull and roses (banknotes), 2 seats: "), text[0]
    finally:
        table.close()


def test_lang_flag(tmp_path):
    args = build_parser().parse_args(["run", "--sim", "--lang", "en", "--data-dir", str(tmp_path)])
    assert args.lang == "en"
    assert build_parser().parse_args(["run"]).lang == "ru"
    build_settings(args)  # the flag is the console's, not a settings key
