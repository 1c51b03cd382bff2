"""One table log read as the club's public messages: the outbox is the log itself.

:class:`PublicFeed` follows a game's SQLite table log (its own read connection; WAL lets it read
while the referee writes) through a shadow engine of its own, and turns each record into the
``events`` payload of :mod:`companion.club.topics`: the public history entry of the table's own
page (``dashboard.model.history_entry`` for the public viewer — public events only, a table
action's arguments never), whose turn it is and whether the game is over. It also builds the
public page model for the retained ``snapshot`` (``dashboard.model.view_for``, the same model the
table's public page renders) and, when a record ends the game, its ``result`` (rows from the public
view only, :mod:`companion.club.standings`).

Nothing but the public view and public events goes in, and :func:`redact` takes out the public
facts a club never carries (``docs/club.md`` "What is never published").
"""

from __future__ import annotations

import datetime as _dt
import logging
from dataclasses import dataclass
from pathlib import Path

from companion.club.standings import result_rows
from companion.club.topics import VERSION, game_key
from companion.errors import IllegalAction
from companion.log import UNDO, TableLog

log = logging.getLogger(__name__)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


# ---------------------------------------------------------------------- never published
def redact(game_id: str | None, obj: dict) -> dict:
    """``obj`` (a page model or an ``events`` payload) without what the game's public page shows
    but the club never carries (its spec's ``redact``: skull's bank serials); in place."""
    from companion.games import registry

    spec = registry.find(game_id or "")
    if spec is not None and spec.redact is not None:
        spec.redact(obj)
    return obj


# ---------------------------------------------------------------------- the feed
@dataclass
class Step:
    """What one log record gives: its ``events`` payload, and a ``result`` payload when the record
    finished the game (``{"withdrawn": True, …}`` when an undo reopened a finished game)."""

    seq: int
    event: dict
    result: dict | None = None


class PublicFeed:
    """The public messages of one table log (see module docstring).

    Args:
        path: the game's table log (SQLite).
        table: this table's id (in every payload).

    Raises:
        LogError: the file is not a table log.
        IllegalAction: the header names a game this program does not have.
    """

    def __init__(self, path: str | Path, table: str) -> None:
        from companion.dashboard import model as M
        from companion.games import new_game

        self.path = Path(path)
        self.table = table
        self.key = game_key(self.path.name)
        self._log = TableLog.open(self.path)
        self.header = self._log.header
        self.game_id = self.header.game
        self.seats = list(self.header.seats)
        self._new = lambda: new_game(self.game_id, self.seats, self.header.options)
        self.game = self._new()
        self.info = {"id": self.game_id, "seats": self.seats, "options": dict(self.header.options),
                     "started": self.header.created}
        self._describe = M.narrator(self.game_id, self.seats)
        self.seq = 0                       # the last record read
        self.events: list[dict] = []       # every record's ``events`` payload, in order
        self._applied: list[int] = []      # seqs of the actions in effect
        self._actions: dict[int, str] = {}
        self._undos: list[int] = []        # seqs of the undos that took effect
        self._entries: dict[int, dict] = {}
        self.over = False
        self.result: dict | None = None    # the result payload while the game stands finished

    def close(self) -> None:
        self._log.close()

    # ------------------------------------------------------------------ reading
    def poll(self, limit: int | None = None) -> list[Step]:
        """The records appended since the last poll (at most ``limit``), as :class:`Step` s, in order."""
        new = [r for r in self._log.records() if r.seq > self.seq]
        return [self._step(r) for r in new[:limit]]

    def _rebuild(self) -> None:
        self.game = self._new()
        for seq in self._applied:
            self.game.apply(self._actions[seq])

    def _step(self, rec) -> Step:
        from companion.dashboard import model as M
        from companion.games.base import Event
        from companion.referee import Outcome

        self.seq = rec.seq
        if rec.action.split() == UNDO.split():
            if self._applied:
                self._applied.pop()
                self._undos.append(rec.seq)
                self._rebuild()
            events: tuple = (Event("undo", {}),)
        else:
            try:
                events = tuple(self.game.apply(rec.action) or ())
                self._applied.append(rec.seq)
                self._actions[rec.seq] = rec.action
            except IllegalAction as exc:  # the referee logs only accepted actions: not expected
                log.warning("club: %s record %d is not accepted on replay (%s); published without words",
                            self.path.name, rec.seq, exc.reason)
                events = ()
        outcome = Outcome(True, rec.action, rec.source, None, None, events, rec.seq)
        entry = M.history_entry(M.PUBLIC, rec.seq, outcome, self._describe) or {"v": rec.seq, "items": []}
        self._entries[rec.seq] = entry
        was_over, self.over = self.over, self.game.is_over()
        event = redact(self.game_id, {
            "v": VERSION, "table": self.table, "game": self.key, "game_id": self.game_id, "seq": rec.seq,
            "ts": rec.ts, "source": rec.source, "entry": entry,
            "turn": list(self.game.current_seats()), "over": self.over,
        })
        self.events.append(event)
        result = None
        if self.over and not was_over:
            result = self.result = self._result(rec)
        elif was_over and not self.over:
            result = {"v": VERSION, "table": self.table, "game": self.key, "seq": rec.seq, "withdrawn": True}
            self.result = None
        return Step(rec.seq, event, result)

    def _result(self, rec) -> dict:
        from companion.dashboard import model as M

        view = self.game.view(None)
        return {"v": VERSION, "table": self.table, "game": self.key, "game_id": self.game_id, "seq": rec.seq,
                "finished": rec.ts or _now(), "seats": self.seats,
                "rows": result_rows(self.game_id, view, self.seats),
                "text": M.result_words(self.game_id, view, self.seats)}

    # ------------------------------------------------------------------ the snapshot
    def history(self) -> list[dict]:
        """The public history the table's page shows now: the actions in effect and the undos that
        took effect, oldest first, the last ``HISTORY_LEN``."""
        from companion.dashboard import model as M

        shown = sorted(self._applied + self._undos)[-M.HISTORY_LEN:]
        return [self._entries[s] for s in shown]

    def model(self) -> dict:
        """The public page model at :attr:`seq` (the table's own public page shows the same)."""
        from companion.dashboard import model as M

        game = self.game
        over = game.is_over()
        views = {None: game.view(None)}
        model = M.view_for(M.PUBLIC, epoch=1, version=self.seq, game_info=self.info, views=views, legal={},
                           turn=list(game.current_seats()), over=over, result=None, history=self.history())
        return redact(self.game_id, model)

    def snapshot(self, status: dict | None = None) -> dict:
        """The retained ``snapshot`` payload."""
        return {"v": VERSION, "table": self.table, "game": self.key, "game_id": self.game_id, "seq": self.seq,
                "ts": _now(), "model": self.model()}


def empty_snapshot(table: str, ended: dict | None, epoch: int = 1) -> dict:
    """The ``snapshot`` of a table with no game (``ended``: how the operator's last ended game
    stood, ``Table.last_ended``, made from that game's public view)."""
    from companion.dashboard import model as M

    model = M.view_for(M.PUBLIC, epoch=epoch, version=0, game_info=None, views={}, legal={}, turn=[],
                       over=False, result=None, history=[], ended=ended)
    return {"v": VERSION, "table": table, "game": None, "game_id": None, "seq": 0, "ts": _now(), "model": model}
