"""The inputs to the table's current game and consistent reads of it.

:class:`InputsMixin` is the part of :class:`companion.table.Table` through which every input
enters the current referee's one queue: a typed input (:mod:`companion.inputs`) through
:meth:`InputsMixin.put` — :meth:`~InputsMixin.press` (a pad button),
:meth:`~InputsMixin.submit_for_seat` (a seat's move), :meth:`~InputsMixin.undo`,
:meth:`~InputsMixin.void_round`, :meth:`~InputsMixin.manual_entry` (the operator) — decided on the
consumer thread by :class:`companion.decide.TableInputs`; an action's text (the CLI, the console,
the bots) through :meth:`~InputsMixin.submit`. :meth:`~InputsMixin.views` and
:meth:`~InputsMixin.game_info` read the game at one version.
"""

from __future__ import annotations

from companion.decide import observed_by_seat
from companion.errors import CompanionError
from companion.inputs import ButtonPressed, OperatorEntry, SeatAction
from companion.log import UNDO
from companion.referee import VOID, Outcome, Referee
from companion.table.parts import TableParts


class NoGame(CompanionError, LookupError):
    """The table has no current game (start one with :meth:`Table.new_game`)."""


class InputsMixin(TableParts):
    """The inputs to the current game's queue, and consistent reads of the game."""

    def require_referee(self) -> Referee:
        """The current game's referee.

        Raises:
            NoGame: no game is running (never started, or ended).
        """
        referee = self.referee
        if referee is None:
            raise NoGame("no game is running; the operator starts one")
        return referee

    def submit(self, action: str, source: str, seen: int | None = None) -> Outcome:
        """Submit one action (text form) to the current referee; see :meth:`Referee.submit`
        (``seen``: the version the sender's page showed, which refuses a repeated tap). The
        operator's seat directives (``table bot N``, ``table console N``, ``table as N …``) are
        taken here (:mod:`companion.table.control`).

        Raises:
            NoGame: no current game.
            TimeoutError: the referee did not answer in time.
        """
        if source == "operator" and isinstance(action, str):
            directive = self._seat_directive(action, seen)  # table bot N, table console N, table as N …
            if directive is not None:
                return directive
        return self.require_referee().submit(action, source, seen=seen)

    def put(self, event):
        """Put one typed input (:mod:`companion.inputs`) on the current referee's queue and wait
        for its decision (:mod:`companion.decide`, on the consumer thread).

        Raises:
            NoGame: no current game.
            TimeoutError: the referee did not answer in time.
        """
        return self.require_referee().put(event)

    def press(self, seat: int, key: str, kind: str = "press"):
        """One button event of ``seat``'s pad (:class:`~companion.inputs.ButtonPressed`); returns
        the :class:`~companion.decide.PadReply` (what the pads did, the outcome of the action
        a press completed).

        Raises:
            NoGame: no current game.
        """
        return self.put(ButtonPressed(seat, key, kind))

    def submit_for_seat(self, seat: int, action, source: str = "dashboard",
                        seen: int | None = None) -> Outcome:
        """Submit an action on behalf of ``seat`` (a phone or a button pad): the action's actor
        must be that seat, else it is rejected without reaching the game: ``not_your_seat`` (another
        seat's or the table's action), ``bad_syntax`` (no actor at all: ``"bid 3"``, empty text),
        ``read_by_table`` (it sets what the camera reads). ``action``: the typed action or its
        text. ``seen``: the version the seat's page showed (:meth:`Referee.submit`: a double tap
        is refused ``repeated``). Decided on the referee's queue (:class:`~companion.inputs.SeatAction`).

        Raises:
            NoGame: no current game.
        """
        return self.put(SeatAction(seat, action, source, seen))

    @staticmethod
    def _observed_by_seat(referee, seat: int, text: str) -> str | None:
        """:func:`companion.decide.observed_by_seat` on ``referee``'s game, under its lock."""
        with referee.lock:
            return observed_by_seat(referee.game, seat, text)

    def undo(self, seen: int | None = None) -> Outcome:
        """Undo the last accepted action (the log directive ``table undo``). With ``seen`` (the
        version the operator's page showed) it is refused ``stale`` when anything was accepted
        since: a double tap or a second operator never undoes two actions.

        Raises:
            NoGame: no current game.
        """
        return self.put(OperatorEntry(UNDO, seen=seen))

    def void_round(self, seen: int | None = None) -> Outcome:
        """Void the current round: everything returned, no payments (``table void``, RULINGS §0);
        ``seen`` as for :meth:`undo`.

        Raises:
            NoGame: no current game.
        """
        return self.put(OperatorEntry(VOID, seen=seen))

    def manual_entry(self, action, prompt_id: str | None = None, seen: int | None = None,
                     facts: dict | None = None) -> Outcome:
        """An operator's entry made because OCR abstained; logged with source ``manual``
        (:class:`~companion.inputs.OperatorEntry`).

        ``action``: the whole action (typed or text), or a template whose open fields ``facts``
        fill. Clears the prompt ``prompt_id`` when the entry is accepted; ``seen`` as for
        :meth:`submit`.

        Raises:
            NoGame: no current game.
        """
        return self.put(OperatorEntry(action, facts or {}, "manual", seen, prompt_id))

    def views(self) -> tuple[int, int, dict, dict, list, bool, dict | None]:
        """A consistent read of the current game: ``(epoch, version, views, legal, current_seats,
        over, result)`` with ``views``/``legal`` keyed ``None`` (public/table) and each seat.

        Raises:
            NoGame: no current game.
        """
        referee = self.require_referee()
        with referee.lock:
            game = referee.game
            views: dict = {None: game.view(None)}
            legal: dict = {None: [a.text() for a in game.legal_actions(None)]}
            for s in range(len(game.seats)):
                views[s] = game.view(s)
                legal[s] = [a.text() for a in game.legal_actions(s)]
            over = game.is_over()
            return (self.epoch, referee.version, views, legal, list(game.current_seats()), over,
                    game.result() if over else None)

    def game_info(self) -> dict | None:
        """``{"id", "seats", "options", "started"}`` of the current game, or ``None``."""
        referee = self.referee
        if referee is None:
            return None
        header = referee.log.header
        return {"id": header.game, "seats": list(header.seats), "options": dict(header.options),
                "started": header.created}
