"""What 6100 (infinity) says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable

from companion.games.base import Event, seat_namer
from companion.games.spec import LegacyPresenter, PlainPresenter, bilingual
from companion.games.words import CAMERA_PAIR, cards_count, names_and, OPERATOR_PAIR, points, ru_plural, seat_name, standings, waiting_pair
from companion.games.infinity.rules import INF


# ---------------------------------------------------------------------- words
def card_words(card: str, lang: str = "ru") -> str:
    """A card in words: its value (``"500"``), Infinity by name («Бесконечность»)."""
    if card == INF:
        return "Бесконечность" if lang == "ru" else "Infinity"
    return str(card)


def _cards_words(cards, lang: str) -> str:
    return ", ".join(card_words(c, lang) for c in cards)


def _by_name(values, seats) -> list[tuple[str, int]]:
    return [(seats[i], v) for i, v in enumerate(values)]


def describe_event(event: Event, seats, lang: str = "ru") -> str | None:
    """One line of words for a public event of "6100" (the dashboard's history and the console of
    ``companion run``); ``None`` for a private event or an unknown kind.

    The engine never knows a card in a hand: a line names only cards that lie face up (played to
    the trick, or shown by the last holder), so no hand is ever told.

    Args:
        event: an event returned by :meth:`InfinityGame.apply`.
        seats: the players' names by seat.
        lang: ``"ru"`` (default, the players' language) or ``"en"``.
    """
    if event.private_to is not None:
        return None
    d = event.data
    ru = lang == "ru"
    L = "ru" if ru else "en"
    name = seat_namer(d, seats)
    k = event.kind
    if k == "dealt":
        half = d.get("half")
        if ru:
            head = f"Партия {d['deal']}" + (f", раздача {half} из 2" if half else "")
            aside = f"; в сторону {cards_count(d['aside'], L)}" if d.get("aside") else ""
            return f"{head}: по {cards_count(d['cards_each'], L)}{aside}; первым ходит {name('leader')}"
        head = f"Deal {d['deal']}" + (f", half {half} of 2" if half else "")
        aside = f"; {cards_count(d['aside'], L)} set aside" if d.get("aside") else ""
        return f"{head}: {cards_count(d['cards_each'], L)} each{aside}; {name('leader')} leads"
    if k == "trick_started":
        # names after a colon, never declined nor after «у игрока» («фишка у игрока Игрок 2»)
        return (f"Раунд: ходит {name('leader')}; фишка: {name('token')}" if ru
                else f"Trick: {name('leader')} leads, {name('token')} holds the token (фишка)")
    if k == "play_declared":
        return (f"{name()} кладёт карту — камера читает её" if ru
                else f"{name()} plays a card — the camera reads it")
    if k == "card_played":
        return f"{name()} кладёт {card_words(d['card'], L)}" if ru else f"{name()} plays {card_words(d['card'], L)}"
    if k == "hoy":
        return (f"{name()}: «ХОЙ!» — такая же карта ({card_words(d['card'], L)}) и фишка; "
                f"остальные ходят ещё раз" if ru
                else f"{name()}: “ХОЙ!” — the same card ({card_words(d['card'], L)}), {name()} takes the token; "
                     f"the others play again")
    if k == "trick_won":
        return (f"{name()} забирает взятку: {_cards_words(d['cards'], L)} — {points(d['points'], L)}" if ru
                else f"{name()} takes the trick: {_cards_words(d['cards'], L)} — {points(d['points'], L)}")
    if k == "cards_left":
        return (f"Карты на руках остались только у одного игрока — {name()} ({d['count']}): их оставляют себе" if ru
                else f"Only {name()} still holds cards ({d['count']}) and keeps them")
    if k == "cards_kept":
        return (f"{name()} показывает оставшиеся карты: {_cards_words(d['cards'], L)} — {points(d['points'], L)} себе" if ru
                else f"{name()} shows the cards left: {_cards_words(d['cards'], L)} — {points(d['points'], L)} to keep")
    if k == "half_over":
        told = standings(_by_name(d["points"], seats))
        return (f"Первая раздача партии {d['deal']} сыграна: {told}; сдаётся вторая половина колоды" if ru
                else f"First half of deal {d['deal']} played: {told}; the second half is dealt")
    if k == "deal_over":
        told = standings(_by_name(d["points"], seats))
        if d["deal"] <= 1 or d.get("totals") == d.get("points"):
            return f"Партия {d['deal']} сыграна: {told}" if ru else f"Deal {d['deal']} played: {told}"
        total = standings(_by_name(d["totals"], seats))
        return (f"Партия {d['deal']} сыграна: {told}; всего: {total}" if ru
                else f"Deal {d['deal']} played: {told}; in all: {total}")
    if k == "deal_voided":
        return (f"Партия {d['deal']} аннулирована: карты собраны, партия сдаётся заново" if ru
                else f"Deal {d['deal']} void: the cards are gathered and dealt again")
    if k == "game_over":
        return _game_over_words(d, L)
    return None


def _game_over_words(result: dict, lang: str) -> str:
    """The history's last line: the winner(s) by points, then everyone's total."""
    ru = lang == "ru"
    scores = result.get("scores") or {}
    winners = list(result.get("winner_names") or [])
    best = max(scores.values()) if scores else 0
    if len(winners) == 1:
        head = (f"Игра окончена! Победитель — {winners[0]}: {points(best, lang)}" if ru
                else f"Game over! The winner is {winners[0]}: {points(best, lang)}")
    else:
        head = (f"Игра окончена! Поровну: {names_and(winners, lang)} — {points(best, lang)}" if ru
                else f"Game over! A tie between {names_and(winners, lang)}: {points(best, lang)}")
    deals = result.get("rounds")
    after = (f" после {deals} {ru_plural(deals, 'партии', 'партий', 'партий')}" if ru
             else f" after {deals} deal{'' if deals == 1 else 's'}") if isinstance(deals, int) else ""
    return f"{head}. {'Итог' if ru else 'Standings'}{after}: {standings(scores)}"


def describe_standings(view: dict, seats, lang: str = "ru") -> str | None:
    """The standing of a game in words from its *public* view (``game.view(None)``): the points
    of the deals played and, for an unfinished deal, the points won in it so far (cards in won
    tricks were all seen face up) — «Очки за сыгранные партии (2 из 3): Аня 4200, Борис 1900;
    в неоконченной партии: Борис 300, Аня 0»; once over, the history's last line (the winner and
    everyone's total). For the operator's «Завершить игру»."""
    if isinstance(view.get("result"), dict):  # over: the history's last line
        return _game_over_words(view["result"], "ru" if lang == "ru" else "en")
    ru = lang == "ru"
    names = list(view.get("seats") or seats)
    played = len(view.get("deal_scores") or [])
    head = (f"Очки за сыгранные партии ({played} из {view.get('deals')})" if ru
            else f"Points of the deals played ({played} of {view.get('deals')})")
    out = f"{head}: {standings(_by_name(view.get('totals') or [0] * len(names), names))}"
    current = view.get("points") or []
    # between deals ``points`` still hold the last deal's (already in the totals); a deal is
    # under way while its tricks are played, or between the two halves of a two-player deal
    under_way = view.get("phase") in ("play", "kept") or (view.get("phase") == "deal" and view.get("half") == 2)
    if under_way and current:
        out += (f"; в неоконченной партии: {standings(_by_name(current, names))}" if ru
                else f"; in the unfinished deal: {standings(_by_name(current, names))}")
    return out


def page_view(view: dict, seats) -> dict:
    """The dashboard's view of 6100 (``companion.dashboard.model.page_view``), made from ``view``
    (:meth:`InfinityGame.view`) alone. One term for a deal, the history's and the seed's
    («Партия 1: по 12 карт», seed 003 «оговоренное количество партий»): ``deal`` as «1 из 3»
    (the page's word for it in this game is «Партия»), and for two players the half of the deck
    dealt as «1 из 2» (the history's «раздача 1 из 2»; left out for more players). The seat's own
    seat number (``you``) is left out: its seat card says «Вы». Everything else as the view has
    it."""
    out = {k: v for k, v in view.items() if k not in ("deals", "half", "you")}
    if "deal" in view and view.get("deals"):
        out["deal"] = {"ru": f"{view['deal']} из {view['deals']}", "en": f"{view['deal']} of {view['deals']}"}
    if view.get("half"):
        out["half"] = {"ru": f"{view['half']} из 2", "en": f"{view['half']} of 2"}
    return out


# ---------------------------------------------------------------------------- refusals
#: This game's refusals in words: ``{code: (English, Russian)}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, tuple[str, str]] = {
    "card_exhausted": ("Every card of that value has already been seen this deal.",
                       "Все карты этого достоинства в этой раздаче уже вышли."),
    "face_pending": ("The declared card must be read first (camera or operator).",
                     "Сначала нужно распознать объявленную карту (камера или оператор)."),
    "no_pending_play": ("No declared card is waiting for its face.", "Нет объявленной карты, ждущей распознавания."),
    "wrong_leader": ("By the rules another player leads this deal.", "По правилам раздачу начинает другой игрок."),
    "wrong_seat": ("That is not the last player holding cards.", "Это не последний игрок с картами."),
}

#: ``{code: words(facts, ru) -> sentence}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict, bool], str]] = {
    "wrong_seat": lambda f, ru: (f"Карты остались у другого игрока — {f['player']}." if ru
                                 else f"{f['player']} is the last player holding cards."),
    "wrong_leader": lambda f, ru: (f"По правилам эту раздачу начинает {f['player']}." if ru
                                   else f"By the rules {f['player']} leads this deal."),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns {"ru", "en"} or None.

def _waiting_deal(seat, view, templates, seats):
    return {"ru": f"{OPERATOR_PAIR[0]}: он отмечает, что карты розданы",
            "en": "Waiting for the operator to mark the cards as dealt"}


def _waiting_face(seat, view, templates, seats):
    pending = view.get("pending")
    if pending == seat:
        return waiting_pair(CAMERA_PAIR, "ваша карта ещё не прочитана", "your card is not read yet")
    name = seat_name(seats, pending)
    if name is None:
        return waiting_pair(CAMERA_PAIR, "сыгранная карта ещё не прочитана", "the card played is not read yet")
    return waiting_pair(CAMERA_PAIR, f"карта, которой ходит {name}, ещё не прочитана", f"the card {name} played is not read yet")


def _waiting_kept(seat, view, templates, seats):
    holder = view.get("kept_seat")
    if holder == seat:
        return waiting_pair(CAMERA_PAIR, "ваши оставшиеся карты ещё не прочитаны", "your cards left in hand are not read yet")
    name = seat_name(seats, holder)
    return waiting_pair(CAMERA_PAIR, f"ещё не прочитаны карты, оставшиеся на руках — {name}" if name
                 else "ещё не прочитаны карты, оставшиеся на руках",
                 f"the cards left in hand are not read yet — {name}" if name else "the cards left in hand are not read yet")


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"deal": _waiting_deal, "face": _waiting_face, "kept": _waiting_kept}


class InfinityPresenter(LegacyPresenter):
    """The words of ``infinity`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('game_over', 'deal_over', 'void')
    seat_keys = PlainPresenter.seat_keys + ('leader', 'token', 'last_winner', 'kept_seat', 'pending')
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(bilingual(describe_event))
    standings = staticmethod(bilingual(describe_standings))
    page = staticmethod(page_view)

    def whose(self, verb, view):
        return view.get("pending") if verb == "face" else None  # the card the seat in `pending` declared


PRESENTER = InfinityPresenter()
