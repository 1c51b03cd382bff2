"""Skull with banknotes ("череп и розы" on banknotes), game id ``skull``.

Rules: seed ``../shared/seeds/000_*.txt`` (the user's Russian text) and ``../shared/RULINGS.md``
§0–1; the rules as implemented, with every option, action verb and reason code, are in
``docs/rules/skull.md``.

The engine knows a note only by its serial number. A note's role comes from the rightmost digit of
its serial: with the default ``skull_parity="odd"`` an even digit is a rose and an odd digit a
skull (RULINGS §1). Face-down notes are never seen by the camera, so the engine tracks only how
many notes lie in each stack; it learns a serial when the dealer flips a note (``table flip``) or a
loser's note is scanned into the bank (``table deposit``, private).

Phases: ``setup`` → (``stage1`` → ``stage2`` → ``auction`` → ``reveal`` → ``settlement``)* →
``over``; ``halted`` after a foreign note until the operator voids the round.
"""

from __future__ import annotations

from companion.games.skull.actions import Agree, Bid, ChooseDealer, Deposit, Flip, Leave, Pass, Place, Register, Void
from companion.games.skull.checks import SkullChecks
from companion.games.skull.notes import (ROSE, SERIAL_SHAPES, SKULL, canonical_serial, is_canonical_serial, note_role,
                                         serial_fits, serial_format_problem, table_serial, validate_note_set)
from companion.games.skull.options import SkullOptions
from companion.games.skull.play import SkullPlay
from companion.games.skull.state import ROUND_PHASES
from companion.games.skull.views import SkullViews

#: what the game's modules (options, notes, state) give and the package and tools import from here
__all__ = [
    "GAME", "REASONS", "ROSE", "ROUND_PHASES", "SERIAL_SHAPES", "SKULL", "SkullGame", "SkullOptions",
    "canonical_serial", "is_canonical_serial", "note_role", "serial_fits", "serial_format_problem",
    "table_serial", "validate_note_set",
]

# ---------------------------------------------------------------------------- reason codes
REASONS: dict[str, str] = {
    # shared codes (companion.errors.COMMON_REASONS) as used here
    "bad_syntax": "the action text does not parse",
    "unknown_action": "no such action verb in skull",
    "unknown_seat": "the seat number is not at this table",
    "game_over": "the game has ended; no more actions",
    "not_your_turn": "another seat must act now",
    "wrong_phase": "this action is not allowed in the current phase",
    "bad_option": "a house-rule option is unknown or impossible",
    "bad_seats": "skull needs 2-8 players with distinct names",
    # registration (also returned by validate_note_set)
    "bad_serial": "a serial number is not in canonical form (uppercase letters and digits, no spaces, with a digit)",
    "serial_format": "a serial number does not fit the serial format of the table's currency (option currency)",
    "wrong_note_count": "a player's set has the wrong number of notes (option notes_per_player)",
    "wrong_skull_count": "a player's set has the wrong number of skulls (option skulls_per_player)",
    "duplicate_serial": "the same serial appears twice in one player's set",
    "serial_taken": "the serial is already registered to another seat at this table",
    "bad_denominations": "denominations must be one positive whole number per note, or '?'",
    "already_registered": "this seat's notes are already registered",
    "registration_incomplete": "a dealer can be chosen only when every seat has registered its notes",
    # seats
    "seat_out": "that seat is out of the game (eliminated or left)",
    "already_left": "that seat has already left",
    # stage 1 / stage 2
    "already_placed": "in stage 1 each player places exactly one note",
    "must_bid": "the player has no notes left in hand and must bid",
    "bid_too_low": "a bid must be at least 1 and higher than the current bid",
    "bid_too_high": "a bid cannot exceed the number of notes on the table",
    "must_raise": "after everybody agreed, the new dealer must raise",
    "dealer_cannot_answer": "the dealer does not agree or pass on his own bid",
    # reveal
    "reveal_in_progress": "the dealer is revealing notes; bids, agreements and placements are closed",
    "own_stack_first": "the dealer must flip all of his own notes before any opponent's",
    "no_face_down_note": "that stack has no face-down note left to flip",
    "unregistered_serial": "no note with this serial was registered at this table (rescan)",
    "already_revealed": "that note is already face up",
    "round_halted": "the round is halted (foreign note); the operator must void it",
    # settlement
    "not_a_loser": "that seat owes no note to the bank",
    "not_own_note": "the deposited note belongs to another seat (rescan)",
    "note_in_bank": "that note is already in the bank",
    "settlement_in_progress": "losers are depositing notes; the round is decided",
    # operator
    "nothing_to_void": "no round is in progress",
    # log replay (companion.log)
    "bad_line": "a table-log line is not a JSON object with a string 'action'",
    "nothing_to_undo": "'table undo' with no accepted action to undo",
}
"""Every reason code :class:`SkullGame` and :func:`validate_note_set` raise, with its meaning."""

# Russian (and English) sentences for these codes, for players: companion/dashboard/reasons.py
# (one table for every game); reason_message() below words the few that name the table's facts.


# ---------------------------------------------------------------------------- the game
class SkullGame(SkullChecks, SkullPlay, SkullViews):
    """The skull-with-banknotes referee (seed 000, RULINGS §0–1). Pure; see the module docstring.

    Args:
        seats: 2–8 player names, clockwise.
        options: :class:`SkullOptions` or a dict of them.

    Raises:
        IllegalAction: ``bad_seats`` or ``bad_option``.
    """

    GAME_ID = "skull"
    ACTIONS = (Register, ChooseDealer, Place, Bid, Agree, Pass, Flip, Deposit, Leave, Void)
    OPTIONS = SkullOptions
    options: SkullOptions
    MIN_SEATS = 2
    MAX_SEATS = 8
    REASONS = REASONS

    _VERBS = {a.VERB: a for a in ACTIONS}


GAME = SkullGame
