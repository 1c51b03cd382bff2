"""The table side of club mode: ``companion run … --club mqtt://[user:pass@]HOST:PORT/CLUB``.

:class:`ClubPublisher` subscribes to the :class:`~companion.table.Table` (one listener; it only
wakes its own thread, never blocks the referee) and publishes, on its own thread, what the table's
public view holds (:mod:`companion.club.feed`; topics in :mod:`companion.club.topics`):

* each table-log record as one ``events`` message, QoS 1, with the record's sequence number;
* a retained ``snapshot`` (the public page model) after each change, a retained ``results/<game>``
  when a game finishes, the retained hardware ``status`` and ``online`` (its will: ``offline``).

The outbox is the table log (:mod:`companion.club.outbox` keeps only how far the broker
acknowledged), so the table referees on whatever the broker does: a broker that is down, refuses
the password or drops off the network is the status part ``club`` (``absent`` / ``error``), never a
stop. At every connection the table sends its current game's whole public stream again, then what is
new, in order; receivers drop what they have by ``(table, game, seq)``. So nothing is lost — not
even what a broker that crashed had acknowledged but not yet passed on — and nothing is doubled on
the board.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

from companion.club.feed import PublicFeed, empty_snapshot
from companion.club.outbox import Cursor
from companion.club.topics import VERSION, Topics, dumps
from companion.club.mqtt import mqtt_client
from companion.club.url import ClubError, ClubURL, parse
from companion.i18n import M

if TYPE_CHECKING:
    from paho.mqtt.client import Client

log = logging.getLogger(__name__)

KEEPALIVE_S = 15
"""MQTT keep-alive: the broker publishes the table's ``offline`` will within 1.5× this after the
table drops off the network."""

WINDOW = 500
"""Messages handed to the MQTT client and not yet acknowledged, at most (the rest wait in the log)."""

SAVE_EVERY_S = 0.5
"""The cursor file is written at most this often (a crash in between only sends a few again)."""


def _now() -> str:
    import datetime as _dt

    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


class ClubPublisher:
    """Publishes one table to its club (see module docstring).

    Args:
        table: the :class:`~companion.table.Table`.
        url: the club address (``str`` or :class:`ClubURL`, with this table's id).

    Attributes:
        state: ``"connecting"``, ``"online"``, ``"offline"`` or ``"refused"`` (bad password, ACL).
        sent: messages handed to the broker connection; ``acked``: acknowledged by the broker.

    Raises:
        ClubError: a malformed address (at construction, before anything is started).
    """

    def __init__(self, table, url: ClubURL | str) -> None:
        self.table = table
        self.url = parse(url) if isinstance(url, str) else url
        if self.url.table is None:  # a board's address (parse(..., table_required=False))
            raise ClubError(M("the club address names no table: give the table's broker user "
                              "(mqtt://table3:PASSWORD@HOST/CLUB) or ?table=ID"))
        #: this table's id in the club (its address names it)
        self.table_id: str = self.url.table
        self.topics = Topics(self.url.club, self.url.table)
        self.state = "connecting"
        self.sent = self.acked = 0
        self._cursor = Cursor(table.data_dir, f"{self.url.host}:{self.url.port}/{self.url.club}/{self.url.table}")
        self._client: Client | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._unsub = None
        self._connected = False
        self._resync = False
        self._status_dirty = True
        self._game_dirty = True
        self._feeds: dict[str, PublicFeed] = {}
        self._mids: dict[int, tuple[str, int] | None] = {}   # message id -> (log, seq) it belongs to
        self._acks: list[tuple[int, bool]] = []              # (mid, refused) from the network thread
        self._unacked: dict[tuple[str, int], int] = {}       # (log, seq) -> messages not yet acked
        self._complete: dict[str, set[int]] = {}
        self._saved_at = 0.0
        self._refusals = 0
        self._board_session: str | None = None
        self._requests: list[tuple[str, int]] = []          # (game key, from seq) the board asked for

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> "ClubPublisher":
        """Start connecting (in the background) and publishing. Never waits for the broker."""
        client = self._client = mqtt_client(self.url, f"companion-{self.url.club}-{self.url.table}")
        client.will_set(self.topics.of("online"), dumps(self._online("offline")), qos=1, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        client.connect_async(self.url.host, self.url.port, keepalive=KEEPALIVE_S, clean_start=True)
        client.loop_start()
        self._set_status()
        self._unsub = self.table.subscribe(self._on_table)
        self._follow_current()
        self._thread = threading.Thread(target=self._pump, name=f"club-{self.url.table}", daemon=True)
        self._thread.start()
        log.info("club: publishing table %s to %s", self.url.table, self.url.shown())
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Say ``offline``, wait up to ``timeout`` s for the broker to acknowledge what is in
        flight, and disconnect; what was not acknowledged goes out at the next start."""
        if self._unsub:
            self._unsub()
            self._unsub = None
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5.0)
            self._thread = None
        client = self._client
        if client is not None:
            if self._connected:
                self._publish(self.topics.of("online"), self._online("offline"), retain=True)
                end = time.monotonic() + timeout
                while time.monotonic() < end and self._mids:
                    time.sleep(0.02)
                    self._take_acks()
            self._take_acks()
            client.disconnect()
            client.loop_stop()
            self._client = None
        self._save(force=True)
        for feed in self._feeds.values():
            feed.close()
        self._feeds.clear()

    def __enter__(self) -> "ClubPublisher":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<ClubPublisher {self.url.shown()} table={self.url.table} {self.state} sent={self.sent} acked={self.acked}>"

    # ------------------------------------------------------------------ callbacks (other threads)
    def _on_table(self, kind: str, payload) -> None:
        if kind == "status":
            self._status_dirty = True
        elif kind == "game":
            self._game_dirty = True
            self._follow_current()
        self._wake.set()

    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_code.is_failure:
            self.state = "refused"
            log.warning("club: the broker %s refused table %s: %s", self.url.shown(), self.url.table, reason_code)
        else:
            self._connected = True
            self._resync = True
            self.state = "online"
            client.subscribe([(self.topics.hello, 1), (self.topics.resync(), 1)])
            log.info("club: connected to %s", self.url.shown())
        self._status_dirty = True
        self._wake.set()

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        was = self._connected
        self._connected = False
        if self.state != "refused":
            self.state = "offline"
        if was and not self._stop.is_set():
            log.warning("club: lost the broker %s (%s); the table goes on, messages wait in its log",
                        self.url.shown(), reason_code)
        self._status_dirty = True
        self._wake.set()

    def _on_message(self, client, userdata, msg) -> None:
        """The board asks: its hello (a board without its session: send the night again) or a
        resync of one game from a seq (a gap in its record)."""
        import json

        try:
            req = json.loads(bytes(msg.payload).decode("utf-8")) if msg.payload else None
        except (UnicodeDecodeError, ValueError):
            req = None
        if not isinstance(req, dict):
            return
        if msg.topic == self.topics.hello:
            session = req.get("session")
            if isinstance(session, str) and session != self._board_session:
                self._board_session = session
                self._resync = True
        elif isinstance(req.get("game"), str) and isinstance(req.get("from"), int) and not isinstance(req["from"], bool):
            with self._lock:
                self._requests.append((req["game"], max(1, req["from"])))
        self._wake.set()

    def _on_publish(self, client, userdata, mid, reason_code=None, properties=None) -> None:
        refused = bool(reason_code is not None and getattr(reason_code, "is_failure", False))
        with self._lock:
            self._acks.append((mid, refused))
        self._wake.set()

    # ------------------------------------------------------------------ the pump (own thread)
    def _follow_current(self) -> None:
        ref = self.table.current_referee()
        if ref is not None:
            with self._lock:
                self._cursor.follow(ref.log.path.name)

    def _pump(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(SAVE_EVERY_S)
            self._wake.clear()
            try:
                self._take_acks()
                self._set_status()
                if self._connected:
                    self._publish_all()
                self._save()
            except Exception:  # the club must never stop the table
                log.exception("club: publishing failed; trying again")
                time.sleep(1.0)

    def _publish(self, topic: str, payload: dict, *, retain: bool = False, belongs: tuple[str, int] | None = None):
        assert self._client is not None  # (publishing runs between start and stop)
        info = self._client.publish(topic, dumps(payload), qos=1, retain=retain)
        with self._lock:
            self._mids[info.mid] = belongs
            if belongs is not None:
                self._unacked[belongs] = self._unacked.get(belongs, 0) + 1
        self.sent += 1

    def _take_acks(self) -> None:
        with self._lock:
            acks, self._acks = self._acks, []
            for mid, refused in acks:
                belongs = self._mids.pop(mid, None)
                if refused:
                    self._refusals += 1
                    if self._refusals in (1, 10, 100):
                        log.error("club: the broker refused a message of table %s (ACL: the table's user may "
                                  "write only under companion/%s/tables/%s/)", self.url.table, self.url.club,
                                  self.url.table)
                    self._status_dirty = True
                    continue
                self.acked += 1
                if belongs is None:
                    continue
                left = self._unacked.get(belongs, 1) - 1
                if left > 0:
                    self._unacked[belongs] = left
                    continue
                self._unacked.pop(belongs, None)
                name, seq = belongs
                done = self._complete.setdefault(name, set())
                done.add(seq)
                acked = self._cursor.acked(name)
                while acked + 1 in done:
                    acked += 1
                    done.discard(acked)
                self._cursor.ack(name, acked)

    def _feed(self, name: str) -> PublicFeed | None:
        feed = self._feeds.get(name)
        if feed is None:
            try:
                feed = self._feeds[name] = PublicFeed(self.table.data_dir / "games" / name, self.table_id)
            except Exception as exc:  # a damaged or foreign log: nothing of it is published
                log.warning("club: the table log %s cannot be followed (%s); it is left out", name, exc)
                with self._lock:
                    self._cursor.done(name)
                return None
        return feed

    def _current(self) -> str | None:
        ref = self.table.current_referee()
        return ref.log.path.name if ref is not None else None

    def _publish_all(self) -> None:
        current = self._current()
        if self._resync:
            self._resync = False
            self._status_dirty = self._game_dirty = True
            self._publish(self.topics.of("online"), self._online("online"), retain=True)
            self._republish_results(current)
            if current is not None and (feed := self._feed(current)) is not None:
                feed.poll()  # everything of the current game goes out again: a broker that crashed
                for event in feed.events:  # may have lost what it had acknowledged
                    self._publish(self.topics.of("events"), event, belongs=(current, event["seq"]))
                if feed.result is not None:
                    self._publish(self.topics.result(feed.key), feed.result, retain=True,
                                  belongs=(current, feed.result["seq"]))
        with self._lock:
            requests, self._requests = self._requests, []
        for key, first in requests:
            self._send_again(key, first, current)
        if self._status_dirty:
            self._status_dirty = False
            self._publish(self.topics.of("status"), {"v": VERSION, "table": self.url.table, "ts": _now(),
                                                      "parts": self._parts()}, retain=True)
        changed = self._game_dirty
        self._game_dirty = False
        with self._lock:
            names = self._cursor.open_logs()
        for name in names:
            if len(self._mids) >= WINDOW:
                break  # more when the broker has caught up (its acknowledgements wake the pump)
            feed = self._feed(name)
            if feed is None:
                continue
            for step in feed.poll():
                if name != current and step.seq <= self._cursor.acked(name):
                    continue  # a finished game's records the broker already has
                self._publish(self.topics.of("events"), step.event, belongs=(name, step.seq))
                if step.result is not None:
                    self._publish(self.topics.result(feed.key), step.result, retain=True, belongs=(name, step.seq))
                changed = changed or name == current
            if name != current and self._cursor.acked(name) >= feed.seq \
                    and not any(k[0] == name for k in self._unacked):
                with self._lock:
                    self._cursor.done(name)
                feed.close()
                self._feeds.pop(name, None)
        if changed:
            self._publish_snapshot(current)

    def _send_again(self, key: str, first: int, current: str | None) -> None:
        """The board found a gap: send game ``key``'s events from ``first`` again (a game this
        club follows; any other key is not the board's to ask for)."""
        from companion.club.topics import game_key

        with self._lock:
            name = next((n for n in self._cursor.all_logs() if game_key(n) == key), None)
        if name is None:
            log.info("club: the board asked for game %s, which this table does not publish", key)
            return
        feed = self._feeds.get(name)
        opened = feed is None
        if feed is None:
            try:
                feed = PublicFeed(self.table.data_dir / "games" / name, self.table_id)
            except Exception:
                return
        try:
            if opened:
                feed.poll()  # (an open feed's new records go out with the main loop)
            for event in feed.events:
                if event["seq"] >= first:
                    self._publish(self.topics.of("events"), event, belongs=(name, event["seq"]))
            if feed.result is not None:
                self._publish(self.topics.result(feed.key), feed.result, retain=True)
        finally:
            if opened:
                feed.close()

    def _republish_results(self, current: str | None) -> None:
        """At a connection: every followed game's result again (retained; a broker that crashed
        may have lost them), so the night's standings stay whole."""
        with self._lock:
            names = self._cursor.all_logs()
        for name in names:
            if name == current:
                continue
            feed = self._feeds.get(name)
            opened = feed is None
            if feed is None:
                try:
                    feed = PublicFeed(self.table.data_dir / "games" / name, self.table_id)
                except Exception:
                    continue
            try:
                if opened:
                    for _ in feed.poll():
                        pass
                if feed.result is not None:
                    self._publish(self.topics.result(feed.key), feed.result, retain=True)
            finally:
                if opened:
                    feed.close()

    def _publish_snapshot(self, current: str | None) -> None:
        if current is None:
            payload = empty_snapshot(self.table_id, getattr(self.table, "last_ended", None), self.table.epoch)
        else:
            feed = self._feed(current)
            if feed is None:
                return
            payload = feed.snapshot()
        self._publish(self.topics.of("snapshot"), payload, retain=True)

    def _online(self, state: str) -> dict:
        return {"v": VERSION, "table": self.url.table, "state": state, "ts": _now()}

    def _parts(self) -> dict:
        from companion.statuswords import with_words

        return with_words(self.table.status())

    def _set_status(self) -> None:
        """The table's own status part ``club`` (its dashboard chips and console)."""
        waiting = len(self._mids)
        if self.state == "online":
            status: dict[str, object] = {"state": "warn" if self._refusals else "ok", "detail": self.url.shown()}
        elif self.state == "refused":
            status = {"state": "error", "detail": self.url.shown()}
        else:
            status = {"state": "absent", "detail": self.url.shown()}
        if waiting:
            status["waiting"] = waiting
        current = self.table.status().get("club")
        if current is None or current.get("state") != status["state"]:
            self.table.set_status("club", status)

    def _save(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._saved_at < SAVE_EVERY_S:
            return  # the pump comes back within SAVE_EVERY_S
        try:
            with self._lock:
                self._cursor.save()
            self._saved_at = now
        except OSError as exc:
            log.warning("club: cannot write %s (%s); trying again", self._cursor.path, exc)
