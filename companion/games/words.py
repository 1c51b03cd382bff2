"""Small helpers the games' ``describe_event`` functions share to tell events in words.

A card code reads as on the dashboard's buttons and toasts (``web/static/app.js`` ``argLabel``):
rank then suit sign, ``"10H"`` → ``"10♥"``, ``"QS"`` → ``"Q♠"``. Russian counts agree with their
number («1 фишка», «3 фишки», «5 фишек»). Standings read as the players say them at the table:
«Аня 140, Борис 60».
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""Suit letter of a card code -> its sign (the dashboard's ``SUIT_SIGNS``)."""


TABLE_DOES = {"by": "table"}
"""The facts of a ``not_your_turn`` refusal of a seat doing what only the table does (a card's face,
a deal, a void): the dashboard says so («Это делает стол: камера или оператор») instead of
«another player must act»."""


def card_label(code: str) -> str:
    """A card code with its suit sign: ``"10H"`` → ``"10♥"``, ``"QS"`` → ``"Q♠"``. A code that
    is not rank + suit letter is returned as it is."""
    code = str(code)
    if len(code) >= 2 and code[-1] in SUIT_SIGNS and code[:-1]:
        return code[:-1] + SUIT_SIGNS[code[-1]]
    return code


def cards_label(codes: Iterable[str], sep: str = ", ") -> str:
    """Several card codes in words: ``["QH", "7S"]`` → ``"Q♥, 7♠"``."""
    return sep.join(card_label(c) for c in codes)


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian form of a noun after the number ``n``: ``ru_plural(5, "фишка", "фишки",
    "фишек")`` → ``"фишек"`` (1, 21 … one; 2–4, 22–24 … few; else many)."""
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def chips(n: int, lang: str, acc: bool = False) -> str:
    """``5`` → ``"5 фишек"`` / ``"5 chips"``; ``acc``: the Russian object of a verb («платит
    1 фишку»)."""
    if lang == "ru":
        return f"{n} {ru_plural(n, 'фишку' if acc else 'фишка', 'фишки', 'фишек')}"
    return f"{n} chip{'' if abs(n) == 1 else 's'}"


def points(n: int, lang: str) -> str:
    """``300`` → ``"300 очков"`` / ``"300 points"``."""
    if lang == "ru":
        return f"{n} {ru_plural(n, 'очко', 'очка', 'очков')}"
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def cards_count(n: int, lang: str) -> str:
    """``3`` → ``"3 карты"`` / ``"3 cards"``."""
    if lang == "ru":
        return f"{n} {ru_plural(n, 'карта', 'карты', 'карт')}"
    return f"{n} card{'' if n == 1 else 's'}"


def signed(n: int) -> str:
    """A net amount with its sign: ``12`` → ``"+12"``, ``-3`` → ``"−3"`` (a minus sign), ``0`` → ``"0"``."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def names_and(names: Sequence[str], lang: str) -> str:
    """``["Аня", "Борис", "Вика"]`` → ``"Аня, Борис и Вика"`` (``"… and …"`` in English)."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    last = " и " if lang == "ru" else " and "
    return ", ".join(names[:-1]) + last + names[-1]


def standings(values: Mapping[str, int] | Sequence[tuple[str, int]], fmt=str) -> str:
    """Names with their amounts, best first (ties keep the given order): ``{"Аня": 60,
    "Борис": 140}`` → ``"Борис 140, Аня 60"``; ``fmt`` writes an amount (e.g. :func:`signed`)."""
    items = list(values.items()) if isinstance(values, Mapping) else list(values)
    order = sorted(range(len(items)), key=lambda i: (-items[i][1], i))
    return ", ".join(f"{items[i][0]} {fmt(items[i][1])}" for i in order)


def ended_words(game_id: str, seats: Sequence[str], view: dict, over: bool) -> dict[str, str]:
    """What the public page and the console say about a game the operator ended («Завершить
    игру»), ``{"ru": …, "en": …}``, from the game's *public* view only (``game.view(None)``), so
    nothing hidden can be told: for a game already over, its final words; for an unfinished one,
    that it was ended before its end and how it stood (the game module's
    ``describe_standings(view, seats, lang)``: chips, points, notes or cards left), e.g.
    «Игра завершена оператором до конца. Фишки: Аня 130, Борис 75; сдача 3 из 6»."""
    from companion import games

    module = games.game_module(game_id)
    fn = getattr(module, "describe_standings", None)
    out = {}
    for lang in ("ru", "en"):
        ru = lang == "ru"
        try:
            told = fn(view, list(seats), lang) if fn is not None else None
        except Exception:  # words are a nicety: the game is ended whatever they say
            told = None
        if over:
            out[lang] = told or ("Игра окончена" if ru else "Game over")
        else:
            head = "Игра завершена оператором до конца" if ru else "The operator ended the game before its end"
            out[lang] = f"{head}. {told}" if told else head
    return out
