"""The readers and the camera follow the game being played (docs/architecture.md, "One place
chooses the backends").

:class:`GameReaders` is the part of :class:`companion.service.TableService` that keeps
``service.readers`` — the one dict the camera watcher and the simulated table read with — holding
exactly the current game's ``GameSpec.readers``, builds each reader once per run for what it
depends on, says which in the ``ocr`` status, and opens the camera. It expects the service's
attributes (``table``, ``settings``, ``plan``, ``readers``, ``_built``, ``_renderers``, ``camera``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.games import registry
from companion.i18n import M, Message

if TYPE_CHECKING:
    from companion.backends import BackendPlan
    from companion.parts import CameraAdapter
    from companion.settings import Settings
    from companion.table import Table

log = logging.getLogger(__name__)


class GameReaders:
    """The current game's readers and the camera of one table service."""

    # the service's attributes this part reads and keeps (TableService.__init__ sets them)
    table: Table | None
    settings: Settings
    plan: BackendPlan
    readers: dict[str, Any]
    _built: dict[tuple, Any]
    _renderers: dict[tuple, Any]
    camera: CameraAdapter | None

    def _live_table(self) -> Table:
        """The table, once :meth:`TableService.start` made it (the readers follow its game)."""
        if self.table is None:
            raise RuntimeError("the table service is not started")
        return self.table

    def _game_currency(self, game, at_start: bool) -> None:
        """Make the current game's currency option the table's (one switch: its serial check and
        bank total are what the note reader reads; a resumed or switched-to game keeps its own)."""
        from companion.vision.serials import CURRENCIES

        game_currency = getattr(getattr(game, "options", None), "currency", None)
        if game_currency in CURRENCIES and game_currency != self.settings.currency:
            if at_start and self.settings.currency != "auto":
                log.warning("the game counts its notes in %s (its currency option); the setting "
                            "currency=%s applies to new games", game_currency, self.settings.currency)
            self.settings.currency = game_currency
        elif self.plan.sim and self.settings.currency == "auto":
            # the simulated table's notes are roubles; a real table sets its currency too
            self.settings.currency = "RUB"

    def _reader_key(self, kind: str, spec, game) -> tuple:
        """What a built reader of ``kind`` depends on: a reader is reused for another game only
        when this is the same (the note reader's currency; the card reader's deck)."""
        if kind == "note":
            return ("note", self.settings.currency)
        deck = spec.deck
        if self.settings.deck != "standard":
            return ("card", "profile", self.settings.deck)
        if deck is not None and deck.learned:
            labels = tuple(deck.labels(game)) if deck.labels is not None else ()
            return ("card", spec.id, labels)
        return ("card", deck.kind if deck is not None else "standard")

    def _take_up_game(self, strict: bool = False):
        """Make :attr:`readers` the current game's (its GameSpec's ``readers``), building the
        ones not built yet for what they depend on (:meth:`_reader_key`), and say so in the
        ``ocr`` status. Called at start and whenever the table takes up a game (new, resumed,
        switched from the console): the camera watcher reads with the game being played.

        Args:
            strict: raise when a reader cannot be built (at start: nothing has moved yet); else
                the ``ocr`` status says why in words and that game's observations are typed.

        Returns:
            the simulated table's scene renderer for the game (``None`` on a real table).

        Raises:
            MissingPart, CompanionError: ``strict`` and a reader cannot be built.
        """
        from companion import parts

        table = self._live_table()
        ref = table.current_referee()
        if ref is None:
            return None
        game = ref.game
        game_id = game.GAME_ID
        spec = registry.get(game_id)
        self._game_currency(game, at_start=strict)
        renderer = None
        if self.plan.sim:
            from companion.vision.scene import SceneRenderer

            renderer = self._renderers.get((game_id, self.settings.currency))
            if renderer is None:
                renderer = SceneRenderer(game_id, seed=self.settings.seed, currency=self.settings.currency,
                                         deck=spec.deck.kind if spec.deck is not None else "standard")
                self._renderers[(game_id, self.settings.currency)] = renderer
        wanted: dict[str, Any] = {}
        problems: list[CompanionError] = []
        for kind in spec.readers:
            key = self._reader_key(kind, spec, game)
            reader = self._built.get(key)
            if reader is None:
                try:
                    reader = parts.reader(kind, self.settings, game, renderer)
                except CompanionError as exc:  # MissingPart is one too
                    if strict:
                        raise
                    log.warning("%s: the %s reader: %s", game_id, kind, exc)
                    problems.append(exc)
                    continue
                self._built[key] = reader
            wanted[kind] = reader
        # one dict, changed in place: the watcher and the simulated table hold it
        for kind in list(self.readers):
            if kind not in wanted:
                del self.readers[kind]
        self.readers.update(wanted)
        if problems:
            said: Message | str = problems[0].message or str(problems[0])
            for e in problems[1:]:
                said = M("%(first)s; %(next)s", first=said, next=e.message or str(e))
            table.set_status("ocr", {"state": "error", "detail": "; ".join(str(e) for e in problems)[:200],
                                     "said": said if isinstance(said, Message) else M("%(error)s", error=said)})
        else:
            table.set_status("ocr", {"state": "ok", "detail": ", ".join(
                getattr(r, "describe", kind) if isinstance(getattr(r, "describe", None), str) else kind
                for kind, r in self.readers.items()) or "—"})
        return renderer

    def _start_camera(self) -> None:
        """The camera: the scene source on the simulated table; any other camera through a
        :class:`~companion.vision.camera.RetryingSource`, so a camera that is missing (``--camera
        opencv:7``) or unplugged never stops the table — its status says «нет связи» on every page
        and the console, the operator enters observations by hand, and the camera is picked up
        when it appears."""
        from companion import parts

        spec = self.plan.camera
        if spec == "scene":
            self.camera = parts.camera(spec)
            self._live_table().set_status("camera", {"state": "sim", "detail": spec})
            return
        from companion.vision.camera import RetryingSource

        def status(connected: bool, error: str | None) -> None:
            if self.table is not None:
                # as the button box: a fault while it is missing, said with what to do
                self.table.set_status("camera", {"state": "ok", "detail": spec} if connected else
                                      {"state": "error", "detail": spec, "missing": True, "error": error})

        source = RetryingSource(spec, on_status=status)
        self.camera = parts.CameraAdapter(source)
        if source.connected:
            status(True, None)
