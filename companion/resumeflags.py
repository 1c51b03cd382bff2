"""A new-game flag (``--game``, ``--seats``) given to a start that would resume an unfinished
game: never dropped in silence. :func:`conflict` gives the one line, both languages, naming the
game found and the three ways on; ``companion run`` and ``companion dashboard`` then refuse to
start (docs/architecture.md, "Crash safety").
"""

from __future__ import annotations

from typing import Sequence

from companion.errors import CompanionError
from companion.games.base import name_key
from companion.i18n import M, MN


class ResumeConflict(CompanionError):
    """A flag asks for another game than the unfinished one the start would resume."""


def conflict(table, game: str | None = None, seats: Sequence[str] | None = None) -> ResumeConflict | None:
    """The refusal when ``game`` (``--game``) or ``seats`` (``--seats``) differ from the
    unfinished game ``table`` is about to resume; ``None`` when there is none or they agree (the
    same game id, the same names in the same order, compared as people read them:
    :func:`companion.games.base.name_key`).

    Args:
        table: the :class:`companion.table.Table` just opened (``table.referee``: the game it
            resumed, or ``None``).
    """
    ref = table.referee
    if ref is None:
        return None
    have_game, have_seats = ref.log.header.game, list(ref.game.seats)
    asked = []
    if game and game != have_game:
        asked.append(f"--game {game}")
    if seats and [name_key(s) for s in seats] != [name_key(s) for s in have_seats]:  # as people read names
        asked.append(f"--seats {','.join(seats)}")
    if not asked:
        return None
    from companion.games import registry

    n = ref.version
    flags = " / ".join(f.split(" ", 1)[0] for f in asked)
    return ResumeConflict(MN(
        "the table has an unfinished %(game)s game (%(seats)s; %(n)s action, table log %(log)s), but %(asked)s asks "
        "for another: resume it (drop %(flags)s), start the new game with --new (that log stays), or another "
        "unfinished game with --resume LOG",
        "the table has an unfinished %(game)s game (%(seats)s; %(n)s actions, table log %(log)s), but %(asked)s asks "
        "for another: resume it (drop %(flags)s), start the new game with --new (that log stays), or another "
        "unfinished game with --resume LOG", n,
        game=registry.title(have_game), seats=", ".join(have_seats),
        log=ref.log.path.name, flags=flags,
        asked=asked[0] if len(asked) == 1 else M("%(first)s and %(second)s", first=asked[0], second=asked[1])))
