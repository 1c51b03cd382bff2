"""Small helpers the games' presenters share to tell events, refusals and waits in words.

A card code reads as on the dashboard's buttons and toasts, in each language
(:mod:`companion.games.cardnames`): ``"10H"`` → «10♥», ``"QS"`` → «Д♠» / "Q♠". Russian counts agree with their
number («1 фишка», «3 фишки», «5 фишек»). Standings read as the players say them at the table:
«Аня 140, Борис 60».
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

# a card in words (re-exported: the presenters take it from here)
from companion.games.cardnames import card_label as card_label, cards_label as cards_label
from companion.i18n import M, MN, MPN, Message, N_

TABLE_DOES = {"by": "table"}
"""The facts of a ``not_your_turn`` refusal of a seat doing what only the table does (a card's face,
a deal, a void): the dashboard says so («Это делает стол: камера или оператор») instead of
«another player must act»."""


def chips(n: int, acc: bool = False) -> Message:
    """``5`` → «5 фишек» / "5 chips"; ``acc``: the Russian object of a verb («платит 1 фишку»)."""
    if acc:
        return MPN("object", "%(n)s chip", "%(n)s chips", n)
    return MN("%(n)s chip", "%(n)s chips", n)


def points(n: int) -> Message:
    """``300`` → «300 очков» / "300 points"."""
    return MN("%(n)s point", "%(n)s points", n)


def cards_count(n: int) -> Message:
    """``3`` → «3 карты» / "3 cards"."""
    return MN("%(n)s card", "%(n)s cards", n)


def signed(n: int) -> str:
    """A net amount with its sign: ``12`` → ``"+12"``, ``-3`` → ``"−3"`` (a minus sign), ``0`` → ``"0"``."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


#: a currency written as a sign where it has one the tables know (the board's «₽»), else its code
CURRENCY_SIGNS = {"RUB": "₽"}


def money(value: int | float, currency: str | None) -> dict[str, str]:
    """A sum of money as every screen writes it, in both languages (a fact for a message): thousands
    grouped — a no-break space in Russian, a comma in English — then the currency's sign or code:
    ``42000, "RUB"`` → «42 000 ₽» / "42,000 ₽"; ``1500, "EUR"`` → «1 500 EUR». The boards write
    it the same way (``web/static/js/values.js`` ``money``)."""
    sign = CURRENCY_SIGNS.get(currency or "", currency or "")
    grouped = f"{value:,}"
    return {lang: f"{grouped.replace(',', sep)} {sign}".rstrip() for lang, sep in (("ru", "\u00a0"), ("en", ","))}


def names_and(names: Sequence[str]) -> Message | str:
    """``["Аня", "Борис", "Вика"]`` → «Аня, Борис и Вика» / "Аня, Борис and Вика"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return M("%(names)s and %(last)s", names=names[:-1], last=names[-1])


def standings(values: Mapping[str, int] | Sequence[tuple[str, int]], fmt=str) -> str:
    """Names with their amounts, best first (ties keep the given order): ``{"Аня": 60,
    "Борис": 140}`` → ``"Борис 140, Аня 60"``; ``fmt`` writes an amount (e.g. :func:`signed`)."""
    items = list(values.items()) if isinstance(values, Mapping) else list(values)
    order = sorted(range(len(items)), key=lambda i: (-items[i][1], i))
    return ", ".join(f"{items[i][0]} {fmt(items[i][1])}" for i in order)


SUITS = {"S": N_("spades ♠"), "H": N_("hearts ♥"), "D": N_("diamonds ♦"), "C": N_("clubs ♣")}
"""A suit letter -> its name with its sign (a message id)."""


def suit(code: str) -> Message | str:
    """The suit of a card code (or a suit letter) in words: ``"QH"`` → «черви ♥» / "hearts ♥"."""
    word = SUITS.get(str(code)[-1:])
    return M(word) if word else str(code)


def notes(n: int) -> Message:
    """``3`` → «3 купюры» / "3 notes"."""
    return MN("%(n)s note", "%(n)s notes", n)


def refusal_words(reason: str, facts: dict | None, plain: Mapping[str, object],
                  with_facts: Mapping[str, Callable[[dict], object]],
                  own: Callable[[], object] | None = None):
    """A game's refusal in words (a presenter's ``refusal``): with ``facts`` the words of
    ``with_facts`` that use them, else ``own()`` (words that need the game's options), else the
    plain sentence of ``plain`` (a message id); ``None`` when the game has none."""
    fn = with_facts.get(reason)
    if fn is not None and facts:
        try:
            return fn(facts)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # a fact the sentence needs is missing: the plain sentence says enough
    if own is not None:
        text = own()
        if text:
            return text
    word = plain.get(reason)
    if isinstance(word, str):
        return M(word)
    return word


# ---------------------------------------------------------------------- what a phone waits for
CAMERA = N_("Waiting for the camera or the operator")
OPERATOR = N_("Waiting for the operator")


def awaiting(who: str, what) -> Message:
    """What a phone waits for, after who is awaited (:data:`CAMERA`, :data:`OPERATOR`):
    «Ждём камеру или оператора: карта ещё не прочитана»."""
    return M("%(who)s: %(what)s", who=M(who), what=what)


def seat_args(templates: list[list[str]]) -> list[int]:
    """The seats named as the first argument of table templates (``table cards 2 ?`` → 2)."""
    out = []
    for args in templates:
        if args and args[0].isdigit() and int(args[0]) not in out:
            out.append(int(args[0]))
    return out


def seat_name(seats, i) -> str | None:
    """The name of seat ``i``, or ``None`` when ``i`` is not a seat of ``seats``."""
    return seats[i] if isinstance(i, int) and 0 <= i < len(seats) else None


def waiting_by_verb(words: Mapping[str, Callable], seat: int, view: dict, tasks: Mapping[str, list],
                    seats) -> dict | None:
    """The first of ``words`` (``{table verb: fn(seat, view, templates, seats)}``) that words one of
    the pending ``tasks`` (``{verb: templates' arguments}``, in the table's order)."""
    for verb, templates in tasks.items():
        fn = words.get(verb)
        if fn is not None:
            told = fn(seat, view, templates, list(seats))
            if told:
                return told
    return None


def ended_message(game_id: str, seats: Sequence[str], view: dict, over: bool) -> Message | Mapping[str, str] | str:
    """What the public page and the console say about a game the operator ended («Завершить
    игру»), a message (or what the presenter said), from the game's *public* view only (``game.view(None)``), so
    nothing hidden can be told: for a game already over, its final words; for an unfinished one,
    that it was ended before its end and how it stood (the game presenter's
    ``standings(view, seats)``: chips, points, notes or cards left), e.g.
    «Игра завершена оператором до конца. Фишки: Аня 130, Борис 75; сдача 3 из 6»."""
    from companion.games import registry

    spec = registry.find(game_id)
    try:
        told = spec.presenter.standings(view, list(seats)) if spec is not None else None
    except Exception:  # words are a nicety: the game is ended whatever they say
        told = None
    if over:
        msg = told or M("Game over")
    elif told:
        msg = M("%(head)s. %(standing)s", head=M("The operator ended the game before its end"), standing=told)
    else:
        msg = M("The operator ended the game before its end")
    return msg
