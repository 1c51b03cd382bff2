"""The simulated table's bots at a table service (``companion run --sim``): which games are theirs
(``sim-seeds.json``), their driver for the table's game, and the hand-over to each game the table
takes up later (:attr:`companion.service.TableService.follow`).

:class:`TableBots` is the part of :class:`companion.service.TableService` that makes and syncs
``service.simtable``. It expects the service's attributes (those of
:class:`companion.gamereaders.GameReaders` and the ones listed on the class).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from companion.gamereaders import GameReaders
from companion.i18n import N_

if TYPE_CHECKING:
    from companion.simtable import SimTable

log = logging.getLogger("companion.service")

WHY_OPERATORS = N_("it was started from the operator console, not by the simulated table's bots")
"""Why the simulated table's bots leave a resumed game alone (a message id)."""

WHY_CANNOT_FOLLOW = N_("the bots cannot follow its log: its notes or cards are not the ones they dealt")
"""Why the bots leave a resumed game of their own alone (a message id)."""

WHY_HEADLESS = N_("and this run has no dashboard to play it from")
"""Why a headless run sets such a game aside (a message id)."""


def game_seed(base: int, ordinal: int) -> int:
    """The bots' seed for the ``ordinal``-th game they deal in a data folder (counted from 0):
    ``base`` (``settings.seed``) for the first, then a stable hash of both, in ``0 ≤ seed < 2**31``
    — each later game deals differently, and the same way in every run."""
    if ordinal == 0:
        return base
    import hashlib

    digest = hashlib.sha256(f"{base}:{ordinal}".encode("ascii")).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class TableBots(GameReaders):
    """The simulated table's bots of one table service."""

    # the service's attributes this part reads and keeps (TableService.__init__ sets them)
    follow: bool
    base_seed: int
    want_dashboard: bool
    resumed: bool
    bots_idle: str
    simtable: SimTable | None
    _press: Callable[[int, str], None] | None
    _pads: int
    _bots_started: bool
    _over: threading.Event

    def _sync_bots(self) -> None:
        """Let the bots take up the table's game (their own: recorded in ``sim-seeds.json``).
        Bots that cannot follow a resumed log leave it to the console and phones when there is a
        dashboard (:attr:`bots_idle` says why); a headless run cannot go on: the error stands.

        Raises:
            SimTableError: the bots cannot follow the log and there is no dashboard.
        """
        from companion.simtable import SimTableError

        simtable = self.simtable
        assert simtable is not None  # (called once the simulated table is made)
        try:
            simtable.sync()
        except SimTableError as exc:
            if not (self.resumed and self.want_dashboard):
                raise
            log.warning("%s", exc)
            self.bots_idle = WHY_CANNOT_FOLLOW
            simtable.release(self.bots_idle)

    def _sim_seeds(self) -> dict:
        """``sim-seeds.json`` beside the logs: table log file name → seed, one entry per game the
        simulated table's bots started — the record of which games are theirs (``{}`` when
        missing or unreadable)."""
        import json

        try:
            seeds = json.loads((Path(self.settings.data_dir) / "sim-seeds.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return seeds if isinstance(seeds, dict) else {}

    def _sim_seed(self) -> None:
        """Record the game the simulated table's bots just started and its seed in
        ``sim-seeds.json``: a resumed game goes on with the bots it started with, and only a game
        recorded there is resumed by the bots (a game the operator started is not theirs)."""
        if not self.plan.sim:
            return
        import json

        from companion.durable import write_file

        path = Path(self.settings.data_dir) / "sim-seeds.json"
        seeds = self._sim_seeds()
        referee = self._live_table().referee
        assert referee is not None  # (called once a game is started or taken up)
        seeds[referee.log.path.name] = self.settings.seed
        write_file(path, json.dumps(seeds), mode=0o644)

    # ------------------------------------------------------------------ running
    def run_bots(self) -> None:
        """Start the simulated table's bots on their thread (simulated table only)."""
        self._bots_started = True
        if self.simtable is not None:
            self.simtable.start()

    def _new_simtable(self, renderer):
        """The simulated table's driver for the table's current game (not yet synced)."""
        from companion.simtable import SimTable

        table, press, camera = self.table, self._press, self.camera
        assert table is not None and press is not None and camera is not None  # (a simulated table's)
        return SimTable(table, press, camera, self.readers, renderer,
                        seed=self.settings.seed, pace_ms=self.settings.pace_ms,
                        stats_file=Path(self.settings.data_dir) / "sim-stats.json", pad_seats=self._pads)

    def bots_left_alone(self):
        """The simulated table's driver when its bots leave the table's current game alone (its
        :attr:`~companion.simtable.SimTable.released` says why), else ``None``: no simulated table,
        the bots play the game — or will, once :meth:`_adopt` hands them over to it. Decided from
        the state after the hand-over: the last game's driver lets go of that game as the table
        takes up the next one, before the service gives the bots the new one, so its ``released``
        alone is not what the bots do (the console said «the bots leave it», then they played it)."""
        sim = self.simtable
        if sim is None or getattr(sim, "released", None) is None:
            return None
        ref = self.table.current_referee() if self.table is not None else None
        takes_up = self.follow and self.plan.sim and self.camera is not None and self._press is not None
        if takes_up and ref is not None and sim.owned is not None and sim.owned != ref.log.path:
            return None  # the last game's driver: the bots are being handed over to this one
        return sim

    def _adopt(self, renderer) -> None:
        """The table took up another game (:attr:`follow`): the bots and the simulated camera
        take it up as they took up the first — with a seed of its own (:func:`game_seed`, or the
        one ``sim-seeds.json`` recorded for it), recorded there (a restart resumes it with them) — once the last game's driver has stopped. Called on the
        thread that changed the game; the hand-over runs on its own."""
        ref = self._live_table().current_referee()
        old = self.simtable
        if ref is None or old is None or self._press is None or old.owned == ref.log.path:
            return
        # a game of theirs goes on with its seed; a new one is dealt differently from the last
        seeds = self._sim_seeds()
        ours = seeds.get(ref.log.path.name)
        self.settings.seed = ours if isinstance(ours, int) else game_seed(self.base_seed, len(seeds))
        new = self._new_simtable(renderer)
        self.simtable = new  # the console sees the new driver at once (it never says "released")
        self._sim_seed()

        def hand_over() -> None:
            from companion.simtable import SimTableError

            old.stop()
            try:
                new.sync()
            except SimTableError as exc:  # a resumed log the bots cannot follow: played by hand
                log.warning("%s", exc)
                new.release(WHY_CANNOT_FOLLOW)
                return
            except Exception:  # released again at once (another game), or the table closed
                log.info("the bots did not take up %s", ref.log.path, exc_info=True)
                return
            if self._bots_started and not self._over.is_set():
                new.start()

        threading.Thread(target=hand_over, name="bots-hand-over", daemon=True).start()
