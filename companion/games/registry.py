"""The registry of games: one :class:`~companion.games.spec.GameSpec` per game id.

The five built-in games register themselves from their packages (``companion.games.<id>``,
imported the first time the registry is asked). Another game registers its spec with
:func:`register` — one package, nothing else touched (``docs/architecture.md``, "Adding a game").
"""

from __future__ import annotations

import importlib
import threading

from companion.errors import IllegalAction
from companion.games.spec import GameSpec
from companion.i18n import LANGUAGES, M, Message

BUILTIN = ("skull", "doubt", "hoggenheimer", "infinity", "lottery")
"""The built-in game ids, in RULINGS order (RULINGS §0)."""

_SPECS: dict[str, GameSpec] = {}
_LOADED = False
_LOCK = threading.RLock()


def _load_builtins() -> None:
    global _LOADED
    if _LOADED:
        return
    with _LOCK:
        if _LOADED:
            return
        for gid in BUILTIN:
            try:
                module = importlib.import_module(f"companion.games.{gid}")
            except ModuleNotFoundError as exc:  # an engine left out of this installation
                if exc.name != f"companion.games.{gid}":
                    raise
                continue
            _SPECS.setdefault(gid, module.SPEC)
        _LOADED = True


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the registry (it replaces a spec of the same id); returns it.

    Raises:
        TypeError: ``spec`` is not a :class:`GameSpec`, or its engine's ``GAME_ID`` differs.
    """
    if not isinstance(spec, GameSpec):
        raise TypeError(f"not a GameSpec: {spec!r}")
    if spec.engine.GAME_ID != spec.id:
        raise TypeError(f"{spec.engine.__name__}.GAME_ID is {spec.engine.GAME_ID!r}, not {spec.id!r}")
    _load_builtins()
    with _LOCK:
        _SPECS[spec.id] = spec
    return spec


def unregister(game_id: str) -> None:
    """Remove a game registered with :func:`register` (tests); unknown ids are ignored."""
    _load_builtins()
    with _LOCK:
        _SPECS.pop(game_id, None)


def ids() -> tuple[str, ...]:
    """Every registered game id: the built-in ones in RULINGS order, then the others."""
    _load_builtins()
    with _LOCK:
        return tuple(_SPECS)


def specs() -> tuple[GameSpec, ...]:
    """Every registered spec, in :func:`ids` order."""
    _load_builtins()
    with _LOCK:
        return tuple(_SPECS.values())


def find(game_id: str | None) -> GameSpec | None:
    """The spec of ``game_id``, or ``None`` when no such game is registered."""
    _load_builtins()
    return _SPECS.get(game_id) if isinstance(game_id, str) else None


def get(game_id: str) -> GameSpec:
    """The spec of ``game_id``.

    Raises:
        IllegalAction: ``unknown_game`` (facts ``game``, ``games``) when no such game is registered.
    """
    spec = find(game_id)
    if spec is None:
        games = list(ids())
        raise IllegalAction("unknown_game", f"no game {game_id!r}; games: {', '.join(games)}",
                            {"game": str(game_id), "games": games})
    return spec


def title(game_id: str | None) -> Message | str:
    """A game's name as a message (its spec's ``title``), the id itself when no game has it."""
    spec = find(game_id)
    return M(spec.title) if spec is not None else str(game_id)


def game_id_of(text: str) -> str | None:
    """The id of the game ``text`` names as a person types it, or ``None``: its id in any case
    (``Skull``), its title in Russian or English (``череп и розы (на купюрах)``), the title before
    its bracket (``Хоггенгеймер``), the name in «» (``бесконечность``), or the first or last word
    of a title when no other game's has it (``череп``, ``лотерея``); case, «ё», spaces, dashes
    and hyphens (``Верю-не-верю``) and compatibility forms (full-width ``ｓｋｕｌｌ``) folded
    (:func:`companion.sanitise.fold_name`)."""
    from companion.i18n import render
    from companion.sanitise import fold_name

    typed = fold_name(text)
    names: dict[str, set[str]] = {}
    for gid in ids():
        own = names.setdefault(gid, {gid.casefold()})
        for lang in LANGUAGES:
            t = fold_name(render(title(gid), lang))
            own |= {t, t.split(" (")[0].strip()}
            if "«" in t and "»" in t:
                own.add(t.split("«", 1)[1].split("»", 1)[0])
    for gid, own in names.items():
        if typed in own:
            return gid
    firsts = {gid: {w for n in own if n for w in (n.split()[0], n.split()[-1])} for gid, own in names.items()}
    hits = [gid for gid, words in firsts.items() if typed in words]
    return hits[0] if len(hits) == 1 else None


def console_name(game_id: str, quoted: bool = False) -> dict[str, str]:
    """A game as the consoles' lines name it: by its title (:func:`title`) in each language — in
    English its English title, in Russian its Russian one, never its bare id — in quotes when
    ``quoted`` (“…” in English, «…» in Russian): ``{lang: words}``, a fact the lines render in
    their language."""
    from companion.i18n import render

    name = M("“%(title)s”", title=title(game_id)) if quoted else title(game_id)
    return {lang: render(name, lang) for lang in LANGUAGES}
