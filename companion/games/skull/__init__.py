"""Skull with banknotes («череп и розы» on banknotes): seed 000, RULINGS §0–1, ``docs/rules/skull.md``.

One package, everything the game knows: the rules (:mod:`.rules`), its actions (:mod:`.actions`),
its words (:mod:`.presenter`; on the pages, :mod:`.pagewords`), its bots (:mod:`.sim`) and its
board on the pages (``static/board.js``); :data:`SPEC` declares it to the registry
(:mod:`companion.games.registry`).
"""

from __future__ import annotations

from pathlib import Path

from companion.games.skull import club
from companion.games.spec import NC_, N_, GameSpec, PadVerbs
from companion.games.skull.actions import (
    Agree, Bid, ChooseDealer, Deposit, Flip, Leave, Pass, Place, Register, Void,
)
from companion.games.skull.rules import (
    canonical_serial, GAME, is_canonical_serial, note_role, REASONS, ROSE, ROUND_PHASES,
    serial_fits, serial_format_problem, SERIAL_SHAPES, SKULL, SkullGame, SkullOptions,
    table_serial, validate_note_set,
)
from companion.games.skull.presenter import (
    describe_event, describe_private_event, describe_standings, note_set_words, notes_count, page_view,
    PRESENTER, reason_message, REFUSALS, REFUSALS_WITH_FACTS, replay_lines, SkullPresenter,
)
from companion.games.skull.pagewords import OPTION_LABELS, PAGE_WORDS
from companion.games.skull.sim import SkullSim

SPEC = GameSpec(
    id="skull",
    title=N_("Skull and roses (banknotes)"),
    engine=SkullGame,
    simulator=SkullSim,
    presenter=PRESENTER,
    deck=None,
    pad_verbs=PadVerbs(yes=("agree",), no=("pass",)),
    terms={"face_down": NC_("skull", "Face down")},
    page_words=PAGE_WORDS,
    option_labels=OPTION_LABELS,
    result_rows=club.result_rows,
    redact=club.redact,
    board_script=Path(__file__).parent / "static" / "board.js",
    replay_lines=replay_lines,
)

#: the package's names: its spec and what the table imports from the game's modules
__all__ = [
    "SPEC", "Agree", "Bid", "ChooseDealer", "Deposit", "Flip", "Leave", "Pass", "Place",
    "Register", "Void", "canonical_serial", "GAME", "is_canonical_serial", "note_role",
    "REASONS", "ROSE", "ROUND_PHASES", "serial_fits", "serial_format_problem", "SERIAL_SHAPES",
    "SKULL", "SkullGame", "SkullOptions", "table_serial", "validate_note_set", "describe_event",
    "describe_private_event", "describe_standings", "note_set_words", "notes_count", "page_view", "PRESENTER",
    "reason_message", "REFUSALS", "REFUSALS_WITH_FACTS", "replay_lines", "SkullPresenter", "SkullSim",
]
