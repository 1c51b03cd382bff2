"""The stream hub: one Server-Sent Events stream per open page, fed from the :class:`Table`.

The hub keeps, for every viewer (public, operator, each seat), the current page model and its
round history. On an accepted action it builds each viewer's new model from the views the table
took at that version, computes a two-level delta against the previous model, serialises it once per
viewer and puts it on the queue of every client of that viewer. A client connecting gets the
stored model as a full snapshot first, so the snapshot and the deltas that follow always chain
(``delta.base == snapshot.version``).

Wire format (``text/event-stream``)::

    event: snapshot   data: {"model": {...}, "status": {...}, "pending": {...}, "prompts": [...], "control": {...}}
    event: delta      data: {"epoch": 3, "base": 16, "version": 17, "set": [[path, value]...], "del": [...]}
    event: status | pending | prompts | control   data: the full current value
    event: reset      data: {"epoch": 4}     (new or ended game: reconnect for a new snapshot)

Each event carries ``id: <epoch>.<version>``. A heartbeat comment is sent every
:data:`HEARTBEAT_S` seconds so dead phones are noticed and proxies keep the stream open.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections import deque
from typing import Iterator

from companion.dashboard import model as M
from companion.statuswords import with_words
from companion.table import NoGame, Table, TableUpdate

log = logging.getLogger(__name__)

HEARTBEAT_S = 15.0
"""Seconds between heartbeat comments on an idle stream."""

CLIENT_QUEUE = 256
"""Messages a slow client may lag behind before it is cut off (it reconnects and resyncs)."""


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def sse(event: str, data: str, ident: str | None = None) -> str:
    """One SSE message (``data`` is already JSON, single line)."""
    head = f"id: {ident}\n" if ident else ""
    return f"{head}event: {event}\ndata: {data}\n\n"


class Client:
    """One connected page: a bounded queue of ready-to-send SSE messages."""

    def __init__(self, viewer, token: str | None = None) -> None:
        self.viewer = viewer
        self.token = token  # a seat page's seat token (its device can be signed out), else None
        self.queue: queue.Queue[str | None] = queue.Queue(CLIENT_QUEUE)
        self.closed = False

    def put(self, message: str | None) -> None:
        try:
            self.queue.put_nowait(message)
        except queue.Full:  # too slow: cut it off; EventSource reconnects and resyncs
            self.closed = True


class Hub:
    """Per-viewer models and the clients streaming them (see module docstring).

    Args:
        table: the :class:`Table`; the hub subscribes to it at once.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self._lock = threading.RLock()
        self._clients: set[Client] = set()
        self._models: dict = {}
        self._history: dict = {}
        self._closed = False
        with self._lock:
            self._rebuild()
        self._unsub = table.subscribe(self._on_table)

    # ------------------------------------------------------------------ models
    def _camera(self) -> bool:
        """Whether the table reads with a camera: its camera part is not ``unused``
        (``companion dashboard``); a camera missing or in trouble still may come back."""
        try:
            return self.table.status().get("camera", {}).get("state") != "unused"
        except Exception:  # words are a nicety: the camera's, as before
            return True

    def _rebuild(self) -> None:
        """Rebuild every viewer's model from a fresh read of the table (new game, start)."""
        info = self.table.game_info()
        self._history = {}
        if info is None:
            epoch = self.table.epoch
            ended = getattr(self.table, "last_ended", None)  # the game the operator just ended
            self._models = {v: M.view_for(v, epoch=epoch, version=0, game_info=None, views={}, legal={},
                                          turn=[], over=False, result=None, history=[], ended=ended)
                            for v in (M.PUBLIC, M.OPERATOR)}
            return
        try:
            epoch, version, views, legal, turn, over, result = self.table.views()
        except NoGame:
            self._models = {}
            return
        self._models = {}
        past = self._past_outcomes()
        describe = M.narrator(info["id"], info["seats"])
        for v in M.viewers_for(len(info["seats"])):
            hist = self._history[v] = deque(maxlen=M.HISTORY_LEN)
            for seq, outcome in past:
                entry = M.history_entry(v, seq, outcome, describe)
                if entry is not None:
                    hist.append(entry)
            self._models[v] = M.view_for(v, epoch=epoch, version=version, game_info=info, views=views,
                                         legal=legal, turn=turn, over=over, result=result, history=hist,
                                         camera=self._camera())

    def _past_outcomes(self) -> list:
        """The last accepted actions of the current game with their events, rebuilt by one replay
        of its table log, so a page after a restart (power cut, kill -9) still tells the round's
        history exactly as before it. An undone action is left out (it may have named a face-down
        note); each undo that took effect is told where it happened, as the live page told it.
        Returns ``[(log seq, Outcome), ...]``, oldest first; empty when there is no log."""
        from companion.games.base import Event
        from companion.log import replay
        from companion.referee import Outcome

        referee = getattr(self.table, "referee", None)
        if referee is None:
            return []
        try:
            result = replay(referee.log.header, referee.log.records())
            told = list(zip(result.applied, result.events))
            told += [(rec, (Event("undo", {}),)) for rec in result.undos]
            told.sort(key=lambda pair: pair[0].seq)
            return [(rec.seq, Outcome(True, rec.action, rec.source, None, None, events, rec.seq))
                    for rec, events in told[-M.HISTORY_LEN:]]
        except Exception:  # history is a courtesy; never let it stop the dashboard
            log.exception("could not rebuild the history from the table log")
            return []

    def model(self, viewer) -> dict | None:
        """The current model of ``viewer`` (``None``: no such viewer, e.g. a seat of no game)."""
        with self._lock:
            return self._models.get(viewer)

    def snapshot_message(self, viewer) -> str | None:
        """The full-snapshot SSE message for ``viewer``."""
        with self._lock:
            m = self._models.get(viewer)
            if m is None:
                return None
            return sse("snapshot", _dumps(self._snapshot_payload(m)), f"{m['epoch']}.{m['version']}")

    def snapshot(self, viewer) -> dict | None:
        """The snapshot payload for ``viewer`` (the JSON state endpoints serve it)."""
        with self._lock:
            m = self._models.get(viewer)
            return None if m is None else self._snapshot_payload(m)

    def _snapshot_payload(self, m: dict) -> dict:
        return {"model": m, "status": with_words(self.table.status()),
                "pending": {str(k): v for k, v in self.table.pending().items()},
                "prompts": self.table.prompts(), "control": self.table.seat_play()}

    # ------------------------------------------------------------------ table events
    def _on_table(self, kind: str, payload) -> None:
        if kind == "action":
            self._on_action(payload)
        elif kind == "game":
            with self._lock:
                self._rebuild()
                epoch = self.table.epoch
                self._broadcast(sse("reset", _dumps({"epoch": epoch})))
                self._broadcast(None)  # end old streams: pages reconnect for a new snapshot
        elif kind == "pending":
            self._broadcast(sse("pending", _dumps({str(k): v for k, v in payload.items()})))
        elif kind == "status":
            self._broadcast(sse(kind, _dumps(with_words(payload))))  # the chips' words in both languages
        elif kind == "prompts":
            self._broadcast(sse(kind, _dumps(payload)))
        elif kind == "control":  # who plays each seat (companion.table.control), in words
            self._broadcast(sse(kind, _dumps(self.table.seat_play())))

    def _on_action(self, u: TableUpdate) -> None:
        info = self.table.game_info()
        if info is None:
            return
        describe = M.narrator(info["id"], info["seats"])
        camera = self._camera()
        from companion.log import UNDO

        # an undone action leaves the history too (a flip typed by mistake named a face-down
        # note's serial and role): the lines are rebuilt from the log, then the undo is told
        past = self._past_outcomes() if u.outcome.action == UNDO else None
        with self._lock:
            messages = {}
            for viewer, old in list(self._models.items()):
                if past is not None:
                    hist = self._history[viewer] = deque(maxlen=M.HISTORY_LEN)
                    for seq, outcome in past:
                        entry = M.history_entry(viewer, seq, outcome, describe)
                        if entry is not None:
                            hist.append(entry)
                else:
                    hist = self._history.setdefault(viewer, deque(maxlen=M.HISTORY_LEN))
                if not any(h["v"] == u.version for h in hist):  # the undo is in ``past`` already
                    entry = M.history_entry(viewer, u.version, u.outcome, describe)
                    if entry is not None:
                        hist.append(entry)
                if old.get("epoch") != u.epoch or old.get("version", 0) >= u.version:
                    continue  # already at (or past) this version: a snapshot raced the update
                new = M.view_for(viewer, epoch=u.epoch, version=u.version, game_info=info, views=u.views,
                                 legal=u.legal, turn=u.current_seats, over=u.over, result=u.result,
                                 history=hist, camera=camera)
                sets, dels = M.diff(old, new)
                self._models[viewer] = new
                messages[viewer] = sse("delta", _dumps({"epoch": u.epoch, "base": old["version"],
                                                        "version": u.version, "set": sets, "del": dels}),
                                       f"{u.epoch}.{u.version}")
            for client in list(self._clients):
                msg = messages.get(client.viewer)
                if msg is not None:
                    client.put(msg)

    def _broadcast(self, message: str | None) -> None:
        with self._lock:
            for client in list(self._clients):
                client.put(message)

    # ------------------------------------------------------------------ clients
    def connect(self, viewer, token: str | None = None) -> Client | None:
        """Register a client for ``viewer`` (a seat page: with its seat ``token``) and queue its
        snapshot; ``None`` if no such viewer."""
        with self._lock:
            if self._closed:
                return None
            msg = self.snapshot_message(viewer)
            if msg is None:
                return None
            client = Client(viewer, token)
            client.put(msg)
            self._clients.add(client)
            return client

    def disconnect(self, client: Client) -> None:
        with self._lock:
            self._clients.discard(client)

    def tell(self, viewer, event: str, data, skip_token: str | None = None) -> int:
        """Send one ``event`` with JSON ``data`` to every client of ``viewer`` but those of seat
        token ``skip_token``; returns how many got it (:mod:`companion.dashboard.devices`)."""
        msg = sse(event, _dumps(data))
        with self._lock:
            told = [c for c in self._clients if c.viewer == viewer and (skip_token is None or c.token != skip_token)]
            for client in told:
                client.put(msg)
        return len(told)

    def sign_out(self, token: str, data) -> int:
        """End every stream of seat token ``token`` (its device was signed out): each gets a
        ``signed_out`` event with ``data`` first. Returns how many streams ended."""
        msg = sse("signed_out", _dumps(data))
        with self._lock:
            ended = [c for c in self._clients if c.token == token]
            for client in ended:
                client.put(msg)
                client.put(None)
        return len(ended)

    def online_tokens(self) -> set[str]:
        """Seat tokens with an open stream now."""
        with self._lock:
            return {c.token for c in self._clients if c.token}

    def client_count(self) -> int:
        with self._lock:
            return len(self._clients)

    def stream(self, client: Client, heartbeat: float = HEARTBEAT_S) -> Iterator[str]:
        """Yield the client's SSE messages until it is cut off or the hub closes."""
        try:
            yield "retry: 1500\n\n"
            while not client.closed:
                try:
                    msg = client.queue.get(timeout=heartbeat)
                except queue.Empty:
                    yield ": ping\n\n"
                    continue
                if msg is None:
                    return
                yield msg
        finally:
            self.disconnect(client)

    def close(self) -> None:
        """End every stream and stop listening to the table."""
        with self._lock:
            self._closed = True
            self._unsub()
            for client in list(self._clients):
                client.put(None)
