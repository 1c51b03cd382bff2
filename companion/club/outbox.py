"""The club outbox's cursor: for each table log the club follows, the last record the broker
acknowledged (QoS 1 PUBACK). The messages themselves are not stored: they are made again from the
table log (:class:`companion.club.feed.PublicFeed`), so a restart or a power cut loses nothing —
whatever was not acknowledged goes out again and receivers drop what they already have.

Kept beside the logs as ``club-outbox.json`` (written whole or not at all,
:func:`companion.durable.write_file`)::

    {"broker": "host:1883/club/table", "logs": [{"name": "….sqlite", "acked": 41, "done": false,
                                                "since": "2026-11-28T20:00:00+00:00"}, …]}

A log is followed from the moment it is the table's current game while the club is on; it is
``done`` once every record of it was acknowledged and it is no longer the current game. A table
joining a club (or another club or table id than the file's) starts with its current game: months of
older games in the data folder are not sent to a club that never asked for them.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
from pathlib import Path

from companion.durable import write_file

log = logging.getLogger(__name__)

FILE = "club-outbox.json"
KEEP_HOURS = 16
"""A followed log is forgotten this long after it was done (a club night is over by then)."""


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


class Cursor:
    """The cursor file of one data folder and one broker/club/table (see module docstring).

    Not thread-safe: the publisher's pump thread owns it.
    """

    def __init__(self, data_dir: str | Path, broker: str) -> None:
        self.path = Path(data_dir) / FILE
        self.broker = broker
        self.logs: dict[str, dict] = {}
        self.dirty = False
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raw = None
        except (OSError, ValueError) as exc:
            log.warning("club: %s cannot be read (%s): the current game is published again from its start",
                        self.path, exc)
            raw = None
        if isinstance(raw, dict) and raw.get("broker") == broker and isinstance(raw.get("logs"), list):
            for item in raw["logs"]:
                if isinstance(item, dict) and isinstance(item.get("name"), str) \
                        and isinstance(item.get("acked"), int) and item["acked"] >= 0:
                    self.logs[item["name"]] = {"name": item["name"], "acked": item["acked"],
                                               "done": bool(item.get("done")), "since": str(item.get("since", ""))}
        self._forget_old()

    def _forget_old(self) -> None:
        limit = (_now() - _dt.timedelta(hours=KEEP_HOURS)).isoformat()
        for name, item in list(self.logs.items()):
            if item["done"] and item["since"] and item["since"] < limit:
                del self.logs[name]
                self.dirty = True

    def follow(self, name: str) -> bool:
        """Follow the log ``name`` (a file in ``games/``) from its first record if it is new to
        the cursor; a done log that is current again is followed again. Returns True if changed."""
        item = self.logs.get(name)
        if item is None:
            self.logs[name] = {"name": name, "acked": 0, "done": False, "since": _now().isoformat()}
        elif item["done"]:
            item["done"] = False
        else:
            return False
        self.dirty = True
        return True

    def open_logs(self) -> list[str]:
        """The logs still being published, oldest first."""
        return [n for n, item in self.logs.items() if not item["done"]]

    def all_logs(self) -> list[str]:
        return list(self.logs)

    def acked(self, name: str) -> int:
        item = self.logs.get(name)
        return item["acked"] if item else 0

    def ack(self, name: str, seq: int) -> None:
        item = self.logs.get(name)
        if item is not None and seq > item["acked"]:
            item["acked"] = seq
            self.dirty = True

    def done(self, name: str) -> None:
        item = self.logs.get(name)
        if item is not None and not item["done"]:
            item["done"] = True
            self.dirty = True

    def save(self) -> None:
        """Write the cursor durably when it changed.

        Raises:
            OSError: the data folder is not writable (the caller logs it and tries again later).
        """
        if not self.dirty:
            return
        data = {"broker": self.broker, "logs": list(self.logs.values())}
        write_file(self.path, json.dumps(data, ensure_ascii=False), mode=0o644)
        self.dirty = False
