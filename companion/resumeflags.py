"""A new-game flag (``--game``, ``--seats``) given to a start that would resume an unfinished
game: never dropped in silence. :func:`conflict` gives the one line, both languages, naming the
game found and the three ways on; ``companion run`` and ``companion dashboard`` then refuse to
start (docs/architecture.md, "Crash safety").
"""

from __future__ import annotations

from typing import Sequence

from companion.errors import CompanionError
from companion.games.base import name_key


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
    asked_en, asked_ru = [], []
    if game and game != have_game:
        asked_en.append(f"--game {game}")
        asked_ru.append(f"--game {game}")
    if seats and [name_key(s) for s in seats] != [name_key(s) for s in have_seats]:  # as people read names
        asked_en.append(f"--seats {','.join(seats)}")
        asked_ru.append(f"--seats {','.join(seats)}")
    if not asked_en:
        return None
    from companion.dashboard.i18n import game_title

    log = ref.log.path.name
    n = ref.version
    flags = " / ".join(f.split(" ", 1)[0] for f in asked_en)
    return ResumeConflict(
        f"the table has an unfinished {game_title(have_game, 'en')} game ({', '.join(have_seats)}; "
        f"{n} action{'' if n == 1 else 's'}, table log {log}), but {' and '.join(asked_en)} asks for another: "
        f"resume it (drop {flags}), start the new game with --new (that log stays), or another "
        f"unfinished game with --resume LOG",
        ru=f"на столе неоконченная игра «{game_title(have_game, 'ru')}» ({', '.join(have_seats)}; действий: {n}, "
           f"журнал стола {log}), а {' и '.join(asked_ru)} просит другую: продолжить её — запустите без "
           f"{flags}; новая игра — добавьте --new (журнал останется); другая неоконченная — --resume ЖУРНАЛ")
