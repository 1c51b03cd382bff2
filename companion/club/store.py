"""The club board's record: what it received from the broker, in SQLite (``<data-dir>/club.sqlite``).

So a restart of the board, or a board started late, loses nothing the broker kept for it (the
retained snapshots, statuses and results; the events queued in its persistent session). Events are
deduplicated by ``(table, game, seq)``: a table sends its current game again at every connection,
and a message acknowledged twice arrives twice; the record keeps each once.

Tables::

    tables(table PK, snapshot, snap_game, snap_seq, status, online, last_seen)
    events(table, game, seq, game_id, ts, received, payload, PK(table, game, seq))
    results(table, game, game_id, finished, payload, PK(table, game))
    aliases(key PK, into)       -- a merged spelling: name_key -> the key it is merged into
    meta(key PK, value)         -- "night": when the operator began a new night (ISO 8601, UTC)
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
import threading
import time
from pathlib import Path

from companion.club.standings import name_key, resolve, standings
from companion.club.topics import Incoming

NIGHT_HOURS = 16
"""A night's standings count the games finished in the last this many hours (or since a new night)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (tbl TEXT PRIMARY KEY, snapshot TEXT, snap_game TEXT, snap_seq INTEGER,
    status TEXT, online TEXT, last_seen REAL);
CREATE TABLE IF NOT EXISTS events (tbl TEXT NOT NULL, game TEXT NOT NULL, seq INTEGER NOT NULL, game_id TEXT,
    ts TEXT, received REAL, payload TEXT NOT NULL, PRIMARY KEY (tbl, game, seq));
CREATE TABLE IF NOT EXISTS results (tbl TEXT NOT NULL, game TEXT NOT NULL, game_id TEXT, finished TEXT,
    payload TEXT NOT NULL, PRIMARY KEY (tbl, game));
CREATE TABLE IF NOT EXISTS aliases (key TEXT PRIMARY KEY, into_key TEXT NOT NULL, into_name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def _when(text: str | None) -> _dt.datetime | None:
    """An ISO 8601 time as an aware datetime (UTC when it names no zone); ``None`` if unreadable."""
    try:
        t = _dt.datetime.fromisoformat(str(text))
    except (TypeError, ValueError):
        return None
    return t if t.tzinfo else t.replace(tzinfo=_dt.timezone.utc)


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class Store:
    """The board's SQLite record (see module docstring). Thread-safe (one connection, one lock).

    Attributes:
        duplicates: events received again and dropped since the board started.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")  # a board's power cut may lose its last
        self._conn.executescript(SCHEMA)                 # second: the broker sends it again
        self._lock = threading.Lock()
        self.duplicates = 0

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # ------------------------------------------------------------------ meta
    def meta(self, key: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def new_night(self) -> str:
        """Start a new night: the standings count games finished from now on (nothing is deleted)."""
        now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")
        self.set_meta("night", now)
        return now

    # ------------------------------------------------------------------ receiving
    def put(self, msg: Incoming) -> bool:
        """Keep one checked message. Returns True when it changed the record (a new event, a newer
        snapshot, a status, a result), False for a duplicate or an older snapshot."""
        p, now = msg.payload, time.time()
        with self._lock, self._conn:
            self._conn.execute("INSERT OR IGNORE INTO tables (tbl) VALUES (?)", (msg.table,))
            self._conn.execute("UPDATE tables SET last_seen=? WHERE tbl=?", (now, msg.table))
            if msg.kind == "events":
                cur = self._conn.execute(
                    "INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (msg.table, p["game"], p["seq"], p.get("game_id"), str(p.get("ts") or ""), now, _dumps(p)))
                if cur.rowcount == 0:
                    self.duplicates += 1
                    return False
                return True
            if msg.kind == "snapshot":
                row = self._conn.execute("SELECT snap_game, snap_seq FROM tables WHERE tbl=?", (msg.table,)).fetchone()
                if row and row[0] == p.get("game") and row[1] is not None and row[1] > p["seq"]:
                    return False  # an older snapshot of the same game (resent after a newer one)
                self._conn.execute("UPDATE tables SET snapshot=?, snap_game=?, snap_seq=? WHERE tbl=?",
                                   (_dumps(p), p.get("game"), p["seq"], msg.table))
                return True
            if msg.kind in ("status", "online"):
                self._conn.execute(f"UPDATE tables SET {msg.kind}=? WHERE tbl=?", (_dumps(p), msg.table))
                return True
            if msg.kind == "result":
                if p.get("withdrawn"):
                    cur = self._conn.execute("DELETE FROM results WHERE tbl=? AND game=? AND "
                                             "json_extract(payload, '$.seq') <= ?", (msg.table, msg.game, p["seq"]))
                    return cur.rowcount > 0
                old = self._conn.execute("SELECT payload FROM results WHERE tbl=? AND game=?",
                                         (msg.table, msg.game)).fetchone()
                if old and old[0] == _dumps(p):
                    return False
                self._conn.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?)",
                                   (msg.table, msg.game, p.get("game_id"), str(p.get("finished") or ""), _dumps(p)))
                return True
        return False

    # ------------------------------------------------------------------ reading
    _COLUMNS = "SELECT tbl, snapshot, status, online, last_seen FROM tables"

    @staticmethod
    def _row(t, s, st, o, ls) -> dict:
        return {"table": t, "snapshot": json.loads(s) if s else None, "status": json.loads(st) if st else None,
                "online": json.loads(o) if o else None, "last_seen": ls}

    def tables(self) -> list[dict]:
        """Every table heard of: ``{"table", "snapshot", "status", "online", "last_seen"}``, by id."""
        with self._lock:
            rows = self._conn.execute(self._COLUMNS + " ORDER BY tbl").fetchall()
        return [self._row(*r) for r in rows]

    def table(self, table: str) -> dict | None:
        """One table's row (as :meth:`tables`), or ``None`` when never heard of."""
        with self._lock:
            row = self._conn.execute(self._COLUMNS + " WHERE tbl=?", (table,)).fetchone()
        return self._row(*row) if row else None

    def events(self, table: str, game: str | None = None) -> list[dict]:
        """A table's stored events (of one game), in order."""
        q, args = "SELECT payload FROM events WHERE tbl=?", [table]
        if game is not None:
            q, args = q + " AND game=?", [table, game]
        with self._lock:
            rows = self._conn.execute(q + " ORDER BY game, seq", args).fetchall()
        return [json.loads(r[0]) for r in rows]

    def seqs(self) -> dict[tuple[str, str], list[int]]:
        """``{(table, game): [seq, ...]}`` of every stored event (the bench compares it with the logs)."""
        with self._lock:
            rows = self._conn.execute("SELECT tbl, game, seq FROM events ORDER BY tbl, game, seq").fetchall()
        out: dict[tuple[str, str], list[int]] = {}
        for t, g, s in rows:
            out.setdefault((t, g), []).append(s)
        return out

    def gaps(self) -> list[tuple[str, str, int]]:
        """``(table, game, first missing seq)`` for each game whose events the record lacks: a
        seq below the table's latest snapshot or a result's seq that no event holds."""
        with self._lock:
            known = self._conn.execute(
                "SELECT tbl, snap_game, snap_seq FROM tables WHERE snap_game IS NOT NULL "
                "UNION SELECT tbl, game, json_extract(payload, '$.seq') FROM results").fetchall()
            out = []
            for table, game, top in known:
                if not isinstance(top, int) or top < 1:
                    continue
                seqs = [r[0] for r in self._conn.execute(
                    "SELECT seq FROM events WHERE tbl=? AND game=? AND seq<=? ORDER BY seq", (table, game, top))]
                if len(seqs) < top:
                    first = next((i for i, s in enumerate(seqs, start=1) if s != i), len(seqs) + 1)
                    out.append((table, game, first))
        return out

    def night(self) -> _dt.datetime:
        """When tonight began: the last :meth:`new_night`, else :data:`NIGHT_HOURS` ago (a board
        started late counts the night's earlier games; last week's results, still retained by
        the broker, are not tonight's)."""
        since = _when(self.meta("night"))
        fallback = _dt.datetime.now(_dt.timezone.utc) - _dt.timedelta(hours=NIGHT_HOURS)
        return since if since is not None and since > fallback else fallback

    def results(self, night_only: bool = True) -> list[dict]:
        """The stored results (of tonight, :meth:`night`), oldest first."""
        night = self.night()
        with self._lock:
            rows = self._conn.execute("SELECT payload, finished FROM results ORDER BY finished").fetchall()
        return [json.loads(p) for p, f in rows
                if not night_only or night is None or (_when(f) or night) >= night]

    # ------------------------------------------------------------------ names
    def aliases(self) -> dict[str, str]:
        with self._lock:
            return dict(self._conn.execute("SELECT key, into_key FROM aliases").fetchall())

    def merge(self, name: str, into: str) -> None:
        """Count ``name`` as ``into`` from now on (and in what is already stored).

        Raises:
            ValueError: an empty name, the same name twice, or a merge that would make a loop.
        """
        a, b = name_key(name), name_key(into)
        if not a or not b:
            raise ValueError("empty name")
        if resolve(b, self.aliases()) == a or a == b:
            raise ValueError("same player")
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO aliases VALUES (?, ?, ?)", (a, b, " ".join(into.split())))

    def unmerge(self, name: str) -> bool:
        with self._lock:
            return self._conn.execute("DELETE FROM aliases WHERE key=?", (name_key(name),)).rowcount > 0

    def merges(self) -> list[dict]:
        with self._lock:
            rows = self._conn.execute("SELECT key, into_name FROM aliases ORDER BY key").fetchall()
        return [{"name": k, "into": n} for k, n in rows]

    def standings(self) -> list[dict]:
        """Tonight's standings (:func:`companion.club.standings.standings`)."""
        return standings(self.results(), self.aliases())
