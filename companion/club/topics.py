"""The club's topics and payloads, shared by the tables and the board (``docs/club.md``).

Every topic is under ``companion/<club>/tables/<table>/``::

    online              retained  {"v", "table", "state": "online" | "offline", "ts"}   (offline: the will)
    status              retained  {"v", "table", "ts", "parts": {part: status with words}}
    snapshot            retained  {"v", "table", "game", "seq", "ts", "model"}         (the public page model)
    events              QoS 1     {"v", "table", "game", "game_id", "seq", "ts", "source", "entry", "turn", "over"}
    results/<game>      retained  {"v", "table", "game", "game_id", "seq", "finished", "seats", "rows", "text"}
                                  or {"v", "table", "game", "seq", "withdrawn": true} (an undo reopened it)

``game`` is the table log's file name without ``.sqlite`` (unique at its table); ``seq`` the log
record's sequence number. Receivers deduplicate events by ``(table, game, seq)``. Every message is
QoS 1, UTF-8 JSON, at most :data:`MAX_PAYLOAD` bytes.

The board writes nothing under a table's topic; it may only *ask*, under ``companion/<club>/board/``::

    hello               retained  {"v", "session", "ts"}   a board without its broker session (its first
                                  start, a broker that lost its state): every table sends its night again
    resync/<table>      QoS 1     {"v", "game", "from"}    a gap in the board's record: that table sends
                                  the game's events again from ``from``
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.club.url import NAME

VERSION = 1
"""The payloads' format version (``"v"``); a board reads versions up to this one."""

ROOT = "companion"
KINDS = ("online", "status", "snapshot", "events")
MAX_PAYLOAD = 512 * 1024
"""Bytes: a public page model is a few kB; anything far bigger is not one of ours."""


def game_key(log_name: str) -> str:
    """A game's key in topics and payloads: its table log's file name without ``.sqlite``
    (``20261128-200000-123456-skull``), or — for a name that is no topic level (a log renamed by
    hand) — ``g-`` and 16 hex digits of its SHA-1."""
    import hashlib

    stem = log_name[:-len(".sqlite")] if log_name.endswith(".sqlite") else log_name
    return stem if NAME.match(stem) else "g-" + hashlib.sha1(stem.encode("utf-8")).hexdigest()[:16]


def dumps(obj) -> bytes:
    """Compact UTF-8 JSON (names stay readable)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class Topics:
    """The topic names of one table (or, with ``table=None``, the board's subscriptions)."""

    def __init__(self, club: str, table: str | None = None) -> None:
        self.club = club
        self.table = table
        self.base = f"{ROOT}/{club}/tables"

    def of(self, kind: str) -> str:
        """``companion/<club>/tables/<table>/<kind>`` for this table."""
        return f"{self.base}/{self.table}/{kind}"

    def result(self, game: str) -> str:
        return f"{self.base}/{self.table}/results/{game}"

    def subscriptions(self) -> list[str]:
        """What the board subscribes to: every table's messages of this club."""
        return [f"{self.base}/+/{k}" for k in KINDS] + [f"{self.base}/+/results/+"]

    @property
    def hello(self) -> str:
        """The board's retained hello (its session id): ``companion/<club>/board/hello``."""
        return f"{ROOT}/{self.club}/board/hello"

    def resync(self, table: str | None = None) -> str:
        """The board's request to one table to send a game's events again."""
        return f"{ROOT}/{self.club}/board/resync/{table or self.table}"


@dataclass(frozen=True)
class Incoming:
    """A received message, checked: ``kind`` is one of :data:`KINDS` or ``result``."""

    table: str
    kind: str
    game: str | None
    payload: dict


class Refused(ValueError):
    """A message the board ignores; ``str()`` says why, for its log line."""


def parse_incoming(club: str, topic: str, raw: bytes) -> Incoming | None:
    """Check one received message against the layout and the payload rules.

    Returns ``None`` for an empty retained message (a cleared topic: nothing to store).

    Raises:
        Refused: a topic outside this club's layout (foreign), a payload that is not UTF-8 JSON
            object of this format, too big, of a newer version, or naming another table than its
            topic (a table may only speak for itself).
    """
    parts = topic.split("/")
    if len(parts) < 5 or parts[0] != ROOT or parts[2] != "tables":
        raise Refused(f"foreign topic {topic!r} (not {ROOT}/<club>/tables/<table>/...)")
    if parts[1] != club:
        raise Refused(f"foreign topic {topic!r}: another club than {club!r}")
    table = parts[3]
    if not NAME.match(table):
        raise Refused(f"topic {topic!r}: {table!r} is not a table id")
    if len(parts) == 5 and parts[4] in KINDS:
        kind, game = parts[4], None
    elif len(parts) == 6 and parts[4] == "results" and NAME.match(parts[5]):
        kind, game = "result", parts[5]
    else:
        raise Refused(f"foreign topic {topic!r}: no such message kind")
    if not raw:
        return None
    if len(raw) > MAX_PAYLOAD:
        raise Refused(f"{topic}: payload of {len(raw)} bytes is over the limit of {MAX_PAYLOAD}")
    try:
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise Refused(f"{topic}: payload is not UTF-8 JSON ({exc.__class__.__name__})") from None
    if not isinstance(payload, dict):
        raise Refused(f"{topic}: payload is not a JSON object")
    v = payload.get("v")
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= VERSION:
        raise Refused(f"{topic}: payload format version {v!r} is not one this board reads (1..{VERSION})")
    if payload.get("table") != table:
        raise Refused(f"{topic}: the payload names table {payload.get('table')!r}, not its topic's {table!r}")
    _check_fields(topic, kind, game, payload)
    return Incoming(table, kind, game, payload)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_fields(topic: str, kind: str, game: str | None, p: dict) -> None:
    def need(cond: bool, what: str) -> None:
        if not cond:
            raise Refused(f"{topic}: {what}")

    if kind == "online":
        need(p.get("state") in ("online", "offline"), "'state' must be online or offline")
    elif kind == "status":
        need(isinstance(p.get("parts"), dict), "'parts' must be an object")
    elif kind == "snapshot":
        need(p.get("game") is None or isinstance(p.get("game"), str), "'game' must be a string or null")
        need(_is_int(p.get("seq")) and p["seq"] >= 0, "'seq' must be a whole number >= 0")
        need(isinstance(p.get("model"), dict), "'model' must be an object")
    elif kind == "events":
        need(isinstance(p.get("game"), str) and p["game"], "'game' must be a string")
        need(_is_int(p.get("seq")) and p["seq"] >= 1, "'seq' must be a whole number >= 1")
        need(isinstance(p.get("entry"), dict), "'entry' must be an object")
        need(isinstance(p.get("game_id"), str), "'game_id' must be a string")
    elif kind == "result":
        need(p.get("game") == game, "'game' must be the topic's game")
        need(_is_int(p.get("seq")), "'seq' must be a whole number")
        if not p.get("withdrawn"):
            need(isinstance(p.get("game_id"), str), "'game_id' must be a string")
            rows = p.get("rows")
            need(isinstance(rows, list) and all(isinstance(r, dict) and isinstance(r.get("name"), str)
                                                for r in rows), "'rows' must be a list of players")
