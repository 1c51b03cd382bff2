"""The simulated table's counters of one game (:class:`SimStats`), kept beside the logs
(:class:`StatsFile`)."""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("companion.simtable")


@dataclass
class SimStats:
    """Counters of one simulated game — of the game, not of the process: the simulated table keeps
    them beside the logs (``sim-stats.json``, :class:`SimTable` ``stats_file``) and a resumed game
    goes on counting from where it stood.

    Attributes:
        actions: actions the referee accepted from the bots.
        presses: button presses sent through the virtual box.
        observations: camera observations made (one per ``table ...`` camera action).
        reads: camera reads (frames read), first tries and retries.
        retried: observations that needed more than one read.
        wrong: reads whose value was not what lay on the table (rejected by the driver, retried).
        manual: observations entered by the operator after every read failed.
        seat_view: seat actions the pad cannot express, taken on the phone's seat view.
        reasons: why reads were retried, counted by reason.
    """

    actions: int = 0
    presses: int = 0
    observations: int = 0
    reads: int = 0
    retried: int = 0
    wrong: int = 0
    manual: int = 0
    seat_view: int = 0
    reasons: dict = field(default_factory=dict)

    @property
    def retry_share(self) -> float:
        """Share of camera observations that needed a retry (0…1)."""
        return self.retried / self.observations if self.observations else 0.0

    @classmethod
    def from_json(cls, data) -> "SimStats":
        """The counters :meth:`to_json` gave (unknown keys, a wrong type: left at 0)."""
        stats = cls()
        if not isinstance(data, dict):
            return stats
        for f in dataclasses.fields(cls):
            value = data.get(f.name)
            if f.name == "reasons":
                if isinstance(value, dict):
                    stats.reasons = {str(k): v for k, v in value.items() if isinstance(v, int) and v >= 0}
            elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                setattr(stats, f.name, value)
        return stats

    def to_json(self) -> dict:
        return {"actions": self.actions, "presses": self.presses, "observations": self.observations,
                "reads": self.reads, "retried": self.retried, "wrong": self.wrong, "manual": self.manual, "seat_view": self.seat_view,
                "retry_share": round(self.retry_share, 4), "reasons": dict(self.reasons)}


class StatsFile:
    """The file that keeps the bots' games' counters (``sim-stats.json`` beside the logs: table log
    file name → :meth:`SimStats.to_json`), written whole or not at all."""

    def __init__(self, path) -> None:
        self.path = Path(path)
        self._kept: dict = {}  # the file's content
        self._saved: dict | None = None  # the counters last written

    def load(self, game: str) -> SimStats:
        """The counters of the game whose table log is named ``game`` as the file kept them; new
        counters for a new game, or when the file is missing or damaged."""
        from companion.durable import remove_leftovers

        remove_leftovers(self.path.parent, self.path.name)  # a write cut short by a kill
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = {}
        self._kept = kept if isinstance(kept, dict) else {}
        if game not in self._kept:
            return SimStats()
        stats = SimStats.from_json(self._kept[game])
        self._saved = stats.to_json()
        return stats

    def save(self, game: str, stats: SimStats) -> None:
        """Write ``stats`` as the counters of ``game`` when they changed (never raises: the
        counters are a report, the game goes on without them)."""
        from companion.durable import write_file

        now = stats.to_json()
        if now == self._saved:
            return
        self._kept[game] = now
        try:
            write_file(self.path, json.dumps(self._kept, ensure_ascii=False), mode=0o644)
            self._saved = now
        except OSError as exc:
            log.warning("could not keep the simulated table's counters in %s: %s", self.path, exc)
