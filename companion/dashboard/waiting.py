"""What a seat's phone is waiting for, in words: the other players, or the table itself.

A seat page whose pad has no button for its seat used to say «Ждём других игроков» whatever the
table was really waiting for — also when no player had anything to do and the table was waiting
for the camera to read a card, or for the operator to pick skull's first dealer. :func:`waiting_words`
says what is awaited, from what the page model is built of: the legal action templates of every
seat and of the table (``Table.views``) and the seat's *own* view (so it never tells more than that
seat may know: who must act is public at the table, and a table template's unknown fields stay ``?``).

* The seat is no longer in the game (taken out by the operator, out of notes or cards): it says so
  («Вы вышли из игры»), not whom it waits for.
* Another player must act: «Ждём другого игрока: Борис» (every such player by name).
* Nobody but the table: what the table's pending task is, by game and table verb, and who reads it —
  «Ждём оператора: он выбирает первого дилера» (a decision only the operator enters),
  «Ждём камеру или оператора: карта, которой ходит Борис, ещё не прочитана» (an observation the
  camera reads or the operator types). When the seat itself is the one to act at the table (the
  joker game's banker turning the layout's cards, the lottery's banker turning the prizes) the
  words say it is his move.

Names are never declined («карта Бориса» would be «карта Игрока 2» for a default name) and no
verb agrees with one in gender (Аня and Борис alike): a name stands after a colon or as the
subject of a verb in the present tense.
"""

from __future__ import annotations

import dataclasses

from companion.games import registry
from companion.i18n import M, N_, Message, both
from companion.games.words import CAMERA, OPERATOR, names_and, seat_name

#: At a table that reads with no camera (its camera part ``unused``: ``companion dashboard``) the
#: presenters' words for what the camera would read, as the operator enters it instead.
NO_CAMERA: dict[str, str] = {
    CAMERA: OPERATOR,
    "your notes are not registered yet — show them to the camera, serial up":
        N_("your notes are not registered yet — the operator enters them"),
    "Your move: turn the layout's cards — the camera reads them (or the operator enters them)":
        N_("Your move: turn the layout's cards — the operator enters them"),
    "Your move: turn the prizes up — the camera reads them (or the operator enters them)":
        N_("Your move: turn the prizes up — the operator enters them"),
}


def operator_only(msg):
    """``msg`` (a :class:`~companion.i18n.Message`, its facts too) with :data:`NO_CAMERA`'s words."""
    if isinstance(msg, Message):
        return dataclasses.replace(msg, id=NO_CAMERA.get(msg.id, msg.id),
                                   facts={k: operator_only(v) for k, v in msg.facts.items()})
    if isinstance(msg, list):
        return [operator_only(m) for m in msg]
    return msg


def waiting_words(game_id: str | None, seat: int, view: dict, legal: dict, seats,
                  camera: bool = True) -> dict | None:
    """What seat ``seat``'s phone waits for, ``{"ru": …, "en": …}``, or ``None`` when the seat has
    something to do itself (its pad shows it) or nothing is awaited (the game is over).

    Args:
        game_id: the game's id; its presenter words the table's own pending task
            (:meth:`companion.games.spec.Presenter.waiting`).
        seat: the viewer's seat (from 0).
        view: the seat's own view (``game.view(seat)``): the words use only what it shows.
        legal: ``{None: table templates, seat: that seat's templates}`` (``Table.views``).
        seats: the players' names by seat.
        camera: the table reads with a camera (else the operator's words: :data:`NO_CAMERA`).
    """
    if legal.get(seat):
        return None
    gone = _gone(seat, view or {})
    if gone is not None and not (view or {}).get("over"):
        return both(gone)  # he waits for nobody: he is no longer in the game
    seats = list(seats)
    others = [s for s in sorted(k for k in legal if isinstance(k, int)) if s != seat and legal.get(s)]
    if others:
        names = [seats[s] for s in others if seat_name(seats, s)]
        if len(names) == 1:
            return both(M("Waiting for another player: %(name)s", name=names[0]))
        return both(M("Waiting for other players: %(names)s", names=names_and(names)))
    by_verb: dict[str, list] = {}
    for text in legal.get(None) or []:
        parts = text.split()
        if len(parts) >= 2 and parts[0] == "table":
            by_verb.setdefault(parts[1], []).append(parts[2:])
    spec = registry.find(game_id)
    if spec is None:
        return None
    said = spec.presenter.waiting(seat, view or {}, by_verb, seats)
    return both(said if camera else operator_only(said))


def _gone(seat: int, view: dict):
    """Why seat ``seat`` is no longer in the game, from its own view's seat row (the boards read
    the same: ``status`` ``left`` or ``out``, or ``in_game`` false), else ``None``."""
    rows = view.get("seats")
    row = rows[seat] if isinstance(rows, list) and 0 <= seat < len(rows) else None
    if not isinstance(row, dict):
        return None
    if row.get("status") == "left":
        return M("You have left the game.")
    if row.get("status") == "out" or row.get("in_game") is False:
        return M("You are out of the game.")
    return None
