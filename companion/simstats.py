"""The simulated table's counters of one game (:class:`SimStats`), kept beside the logs."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field


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
