"""The club board's receiver: every table's messages from the broker, checked, kept, told.

:class:`Board` subscribes with the board's read-only user (a persistent MQTT session: while the
board is down the broker keeps the QoS 1 events for it, and the retained snapshots, statuses and
results come at every subscription), checks each message (:func:`companion.club.topics.parse_incoming`
— a malformed or foreign one is ignored with one log line saying why), keeps it in the
:class:`~companion.club.store.Store` and tells its listeners (the board's pages) what changed.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from companion.club.mqtt import connect_properties, mqtt_client
from companion.club.store import Store
from companion.club.topics import VERSION, Refused, Topics, dumps, parse_incoming
from companion.club.url import ClubURL, parse

if TYPE_CHECKING:
    from paho.mqtt.client import Client

log = logging.getLogger(__name__)

SESSION_S = 24 * 3600
"""How long the broker keeps the board's session (its queued events) while the board is down."""

GAP_CHECK_S = 3.0
"""How often the board looks for gaps in its record (a table quiet this long is asked to resend)."""

ASK_AGAIN_S = 10.0
"""A table asked to send a game again is not asked again about it sooner."""

Listener = Callable[[str, str | None], None]
"""``listener(kind, table)``: ``kind`` is ``table`` (a table's snapshot, status or online state
changed), ``standings`` (a result came, or names were merged), ``broker`` (the board's own link)."""


def seat_names(model: dict, seats) -> list[str]:
    names = list((model.get("game") or {}).get("seats") or [])
    return [names[s] if isinstance(s, int) and 0 <= s < len(names) else str(s) for s in seats or []]


class Board:
    """The club board's receiver (see module docstring).

    Args:
        url: the board's broker address (``str`` or :class:`ClubURL`; no table id).
        data_dir: where ``club.sqlite`` is kept.

    Attributes:
        store: the :class:`Store`. ``connected``: the board's own link to the broker.
        ignored: messages ignored as malformed or foreign since the start; ``asked``: requests
            to a table to send a game again (gaps found in the record).
    """

    def __init__(self, url: ClubURL | str, data_dir: str | Path) -> None:
        self.url = parse(url, table_required=False) if isinstance(url, str) else url
        self.topics = Topics(self.url.club)
        self.store = Store(Path(data_dir) / "club.sqlite")
        self.connected = False
        self.ignored = 0
        self.received = 0
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._client: Client | None = None
        self._standings: list[dict] | None = None
        self._stopping = False
        self._stop = threading.Event()
        self._gap_thread: threading.Thread | None = None
        self.asked = 0
        self._subscribing: int | None = None  # the mid of the SUBSCRIBE sent at connect

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> "Board":
        """Connect in the background (a broker that is not there yet is retried, 1–30 s) and look
        for gaps in the record every :data:`GAP_CHECK_S`."""
        client = self._client = mqtt_client(self.url, f"companion-board-{self.url.club}-{self._board_id()}")
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_subscribe = self._on_subscribe
        client.on_message = self._on_message
        client.connect_async(self.url.host, self.url.port, keepalive=15, clean_start=False,
                             properties=connect_properties(SESSION_S))
        client.loop_start()
        self._gap_thread = threading.Thread(target=self._watch_gaps, name="club-board-gaps", daemon=True)
        self._gap_thread.start()
        return self

    def _board_id(self) -> str:
        """This board's MQTT client id part, kept in its data folder (its session survives restarts;
        two boards of one club do not push each other off)."""
        import secrets

        path = self.store.path.parent / "board-id"
        try:
            kept = path.read_text(encoding="ascii").strip()
            if kept.isalnum() and 4 <= len(kept) <= 32:
                return kept
        except (OSError, UnicodeDecodeError):
            pass
        fresh = secrets.token_hex(4)
        from companion.durable import write_file

        write_file(path, fresh + "\n", mode=0o644)
        return fresh

    def _watch_gaps(self) -> None:
        """Ask a table to send a game again when the record lacks some of its events and the
        table has been quiet for a moment (events in flight come in order)."""
        asked: dict[tuple[str, str], float] = {}
        while not self._stop.wait(GAP_CHECK_S):
            if not self.connected:
                continue
            try:
                gaps = self.store.gaps()
            except Exception:
                log.exception("club board: could not look for gaps")
                continue
            now = time.monotonic()
            for table, game, first in gaps:
                row = self.store.table(table) or {}
                if time.time() - (row.get("last_seen") or 0) < GAP_CHECK_S / 2:
                    continue
                if now - asked.get((table, game), -ASK_AGAIN_S) < ASK_AGAIN_S:
                    continue
                asked[(table, game)] = now
                self.asked += 1
                client = self._client
                if client is None:  # stopped meanwhile
                    continue
                log.info("club board: asking table %s for game %s from record %d", table, game, first)
                client.publish(self.topics.resync(table), dumps({"v": VERSION, "game": game, "from": first}), qos=1)

    def stop(self) -> None:
        self._stopping = True
        self._stop.set()
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
            self._client = None
        self.store.close()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return unsubscribe

    def _tell(self, kind: str, table: str | None) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for fn in listeners:
            try:
                fn(kind, table)
            except Exception:
                log.exception("club board: a page listener failed")

    # ------------------------------------------------------------------ MQTT (network thread)
    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_code.is_failure:
            log.error("club board: the broker %s refused the board: %s", self.url.shown(), reason_code)
            return
        # connected (for the page, the gap watch and whoever waits on it) once the broker has the
        # subscriptions: a message sent before that would not reach this board (_on_subscribe)
        _, self._subscribing = client.subscribe([(t, 1) for t in self.topics.subscriptions()])
        if not flags.session_present:
            # the broker kept nothing for this board (its first start, or a broker that lost its
            # state): every table sends its night again (retained, so a table joining later hears it)
            import secrets

            client.publish(self.topics.hello, dumps({"v": VERSION, "session": secrets.token_hex(8),
                                                      "ts": time.time()}), qos=1, retain=True)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties=None) -> None:
        if mid != self._subscribing:
            return
        refused = [c for c in reason_codes if c.is_failure]
        if refused:
            log.error("club board: the broker %s refused %d of its subscriptions: %s", self.url.shown(),
                      len(refused), refused[0])
        self.connected = True
        log.info("club board: connected to %s", self.url.shown())
        self._tell("broker", None)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if self.connected and not self._stopping:
            log.warning("club board: lost the broker %s (%s); reconnecting", self.url.shown(), reason_code)
        self.connected = False
        self._tell("broker", None)

    def _on_message(self, client, userdata, msg) -> None:
        self.handle(msg.topic, msg.payload)

    def handle(self, topic: str, payload: bytes) -> bool:
        """Check and keep one message; returns True when the record changed."""
        try:
            incoming = parse_incoming(self.url.club, topic, payload)
        except Refused as exc:
            self.ignored += 1
            log.warning("club board: ignored a message: %s", exc)
            return False
        if incoming is None:
            return False
        self.received += 1
        try:
            changed = self.store.put(incoming)
        except Exception:
            log.exception("club board: could not keep a message on %s", topic)
            return False
        if changed:
            if incoming.kind == "result":
                self._standings = None
                self._tell("standings", incoming.table)
            elif incoming.kind != "events":
                self._tell("table", incoming.table)
            else:
                self._tell("event", incoming.table)
        return changed

    # ------------------------------------------------------------------ what the pages show
    def standings(self) -> list[dict]:
        rows = self._standings
        if rows is None:
            rows = self._standings = self.store.standings()
        return rows

    def names_changed(self) -> None:
        """Names were merged or unmerged, or a new night began: the standings are counted again."""
        self._standings = None
        self._tell("standings", None)

    def summary(self, row: dict) -> dict:
        """One table for ``/api/tables``: its game, players, whose turn, whether it went silent."""
        snap = row.get("snapshot") or {}
        model = snap.get("model") or {}
        online = row.get("online") or {}
        game = model.get("game")
        out = {"table": row["table"], "online": online.get("state") == "online",
               "silent": online.get("state") != "online", "since": online.get("ts"),
               "last_seen": row.get("last_seen"), "quiet_s": round(time.time() - row["last_seen"], 1)
               if row.get("last_seen") else None,
               "status": (row.get("status") or {}).get("parts") or {}, "game": None, "seq": snap.get("seq", 0)}
        if game:
            view = model.get("view") or {}
            out["game"] = {"id": game.get("id"), "key": snap.get("game"), "seats": list(game.get("seats") or []),
                           "turn": seat_names(model, model.get("turn")), "over": bool(model.get("over")),
                           "phase": view.get("phase"), "result_text": model.get("result_text"),
                           "started": game.get("started")}
        elif model.get("ended"):
            out["ended"] = model["ended"]
        return out

    def tables(self) -> list[dict]:
        """Every table heard of, summarised (see :meth:`summary`)."""
        return [self.summary(r) for r in self.store.tables()]

    def page_state(self, table: str) -> dict | None:
        """What the table's own public page starts from (``{"model", "status", "pending",
        "prompts"}``, as its snapshot), or ``None`` for a table never heard of."""
        row = self.store.table(table)
        if row is None or not row.get("snapshot"):
            return None
        return {"model": row["snapshot"]["model"], "status": (row.get("status") or {}).get("parts") or {},
                "pending": {}, "prompts": []}
