"""What 6100 (infinity) says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable

from companion.games.base import Event
from companion.games.narration import describer, public_event
from companion.games.spec import Moment, PlainPresenter, Spoken
from companion.games.words import CAMERA, awaiting, cards_count, names_and, points, seat_name, standings
from companion.games.infinity.rules import INF
from companion.i18n import M, MN, MP, Message, N_, both


# ---------------------------------------------------------------------- words
def card(card: str) -> Message | str:
    """A card in words: its value (``"500"``), Infinity by name («Бесконечность»)."""
    return M("Infinity") if card == INF else str(card)


def _cards(cards) -> list:
    return [card(c) for c in cards]


def _by_name(values, seats) -> list[tuple[str, int]]:
    return [(seats[i], v) for i, v in enumerate(values)]


@public_event
def _event(k: str, d: dict, name, seats):
    if k == "dealt":
        half = d.get("half")
        head = M("Deal %(deal)s, half %(half)s of 2", deal=d["deal"], half=half) if half else M("Deal %(deal)s", deal=d["deal"])
        aside = M("; %(cards)s set aside", cards=cards_count(d["aside"])) if d.get("aside") else ""
        return M("%(head)s: %(cards)s each%(aside)s; %(leader)s leads", head=head, cards=cards_count(d["cards_each"]),
                 aside=aside, leader=name("leader"))
    if k == "trick_started":
        # names after a colon, never declined nor after «у игрока» («фишка у игрока Игрок 2»)
        return M("Trick: %(leader)s leads, %(token)s holds the token", leader=name("leader"), token=name("token"))
    if k == "play_declared":
        return M("%(name)s plays a card — the camera reads it", name=name())
    if k == "card_played":
        return M("%(name)s plays %(card)s", name=name(), card=card(d["card"]))
    if k == "hoy":
        return M("%(name)s: “HOY!” — the same card (%(card)s), %(name)s takes the token; the others play again",
                 name=name(), card=card(d["card"]))
    if k == "trick_won":
        return M("%(name)s takes the trick: %(cards)s — %(points)s", name=name(), cards=_cards(d["cards"]),
                 points=points(d["points"]))
    if k == "cards_left":
        return M("Only %(name)s still holds cards (%(count)s) and keeps them", name=name(), count=d["count"])
    if k == "cards_kept":
        return M("%(name)s shows the cards left: %(cards)s — %(points)s to keep", name=name(), cards=_cards(d["cards"]),
                 points=points(d["points"]))
    if k == "half_over":
        return M("First half of deal %(deal)s played: %(told)s; the second half is dealt", deal=d["deal"],
                 told=standings(_by_name(d["points"], seats)))
    if k == "deal_over":
        told = standings(_by_name(d["points"], seats))
        if d["deal"] <= 1 or d.get("totals") == d.get("points"):
            return M("Deal %(deal)s played: %(told)s", deal=d["deal"], told=told)
        return M("Deal %(deal)s played: %(told)s; in all: %(total)s", deal=d["deal"], told=told,
                 total=standings(_by_name(d["totals"], seats)))
    if k == "deal_voided":
        return M("Deal %(deal)s void: the cards are gathered and dealt again", deal=d["deal"])
    if k == "game_over":
        return _game_over_words(d)
    return None


describe_event = describer(_event, """
    One line of words for a public event of "6100" (the dashboard's history and the console of
    ``companion run``): a message, rendered by the caller; ``None`` for a private event or an unknown kind
    (the presenter's ``event``).

    The engine never knows a card in a hand: a line names only cards that lie face up (played to the
    trick, or shown by the last holder), so no hand is ever told.""")


def _game_over_words(result: dict) -> Message:
    """The history's last line: the winner(s) by points, then everyone's total."""
    scores = result.get("scores") or {}
    winners = list(result.get("winner_names") or [])
    best = max(scores.values()) if scores else 0
    if len(winners) == 1:
        head = M("Game over! The winner is %(winner)s: %(points)s", winner=winners[0], points=points(best))
    else:
        head = M("Game over! A tie between %(winners)s: %(points)s", winners=names_and(winners), points=points(best))
    deals = result.get("rounds")
    after = MN(" after %(n)s deal", " after %(n)s deals", deals) if isinstance(deals, int) else ""
    return M("%(head)s. Standings%(after)s: %(told)s", head=head, after=after, told=standings(scores))


def describe_standings(view: dict, seats):
    """The standing of a game in words from its *public* view (``game.view(None)``): the points
    of the deals played and, for an unfinished deal, the points won in it so far (cards in won
    tricks were all seen face up) — «Очки за сыгранные партии (2 из 3): Аня 4200, Борис 1900;
    в неоконченной партии: Борис 300, Аня 0»; once over, the history's last line (the winner and
    everyone's total). For the operator's «Завершить игру». A message, rendered by the
    caller."""
    return _standings(view, seats)


def _standings(view: dict, seats) -> Message:
    if isinstance(view.get("result"), dict):  # over: the history's last line
        return _game_over_words(view["result"])
    names = list(view.get("seats") or seats)
    played = len(view.get("deal_scores") or [])
    out = M("Points of the deals played (%(played)s of %(deals)s): %(told)s", played=played, deals=view.get("deals"),
            told=standings(_by_name(view.get("totals") or [0] * len(names), names)))
    current = view.get("points") or []
    # between deals ``points`` still hold the last deal's (already in the totals); a deal is
    # under way while its tricks are played, or between the two halves of a two-player deal
    under_way = view.get("phase") in ("play", "kept") or (view.get("phase") == "deal" and view.get("half") == 2)
    if under_way and current:
        out = M("%(head)s; in the unfinished deal: %(told)s", head=out, told=standings(_by_name(current, names)))
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
        out["deal"] = both(M("%(n)s of %(of)s", n=view["deal"], of=view["deals"]))
    if view.get("half"):
        out["half"] = both(M("%(n)s of %(of)s", n=view["half"], of=2))
    return out


# ---------------------------------------------------------------------------- refusals
#: This game's refusals in words: ``{code: message id}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, str] = {
    "card_exhausted": N_("Every card of that value has already been seen this deal."),
    "face_pending": N_("The declared card must be read first (camera or operator)."),
    "no_pending_play": N_("No declared card is waiting for its face."),
    "wrong_leader": N_("By the rules another player leads this deal."),
    "wrong_seat": N_("That is not the last player holding cards."),
}

#: ``{code: words(facts) -> message}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict], Message]] = {
    "wrong_seat": lambda f: M("%(player)s is the last player holding cards.", player=f["player"]),
    "wrong_leader": lambda f: M("By the rules %(player)s leads this deal.", player=f["player"]),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns a message or None.

def _waiting_deal(seat, view, templates, seats):
    return M("Waiting for the operator to mark the cards as dealt")


def _waiting_face(seat, view, templates, seats):
    pending = view.get("pending")
    if pending == seat:
        return awaiting(CAMERA, M("your card is not read yet"))
    name = seat_name(seats, pending)
    if name is None:
        return awaiting(CAMERA, M("the card played is not read yet"))
    return awaiting(CAMERA, M("the card %(name)s played is not read yet", name=name))


def _waiting_kept(seat, view, templates, seats):
    holder = view.get("kept_seat")
    if holder == seat:
        return awaiting(CAMERA, M("your cards left in hand are not read yet"))
    name = seat_name(seats, holder)
    if name:
        return awaiting(CAMERA, M("the cards left in hand are not read yet — %(name)s", name=name))
    return awaiting(CAMERA, M("the cards left in hand are not read yet"))


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"deal": _waiting_deal, "face": _waiting_face, "kept": _waiting_kept}


# ---------------------------------------------------------------------------- said aloud
def _spoken(event: Event, seats) -> Spoken | None:
    """What the table's voice says: «Хой! Вера.» (a seat name only, never the card)."""
    d = event.data if isinstance(event.data, dict) else {}
    name = seat_name(seats, d.get("seat"))
    if event.kind == "hoy" and name:
        return Spoken(M("Hoy! %(name)s.", name=name))  # «ХОЙ!» in capitals is spelt out letter by letter
    return None


def _moment(event, seats) -> Moment | None:
    """«ХОЙ!» (the infinity card): the table display shows it large, with who called it."""
    if event.kind != "hoy":
        return None
    seat = event.data.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return Moment("hoy", MP("moment", "«HOY!» — %(name)s", name=seats[seat]))
    return Moment("hoy", MP("moment", "«HOY!»"))


def _progress(view: dict) -> Message:
    """The deal under way (or the last one) of the game's deals."""
    return MP("infinity", "deal %(n)s of %(of)s", n=view.get("deal"), of=view.get("deals"))


def _seat_line(view: dict, seat: int, seats) -> Message | None:
    """A seat's points of the deals played and, in a deal under way, those won in it so far."""
    totals = view.get("totals") or []
    if not 0 <= seat < len(totals):
        return None
    told = points(int(totals[seat]))
    current = view.get("points") or []
    under_way = view.get("phase") in ("play", "kept") or (view.get("phase") == "deal" and view.get("half") == 2)
    if under_way and seat < len(current) and current[seat]:
        return M("%(total)s; in the unfinished deal %(now)s", total=told, now=points(int(current[seat])))
    return told


class InfinityPresenter(PlainPresenter):
    """The words of ``infinity`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('game_over', 'deal_over', 'void')
    seat_keys = PlainPresenter.seat_keys + ('leader', 'token', 'last_winner', 'kept_seat', 'pending')
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(_event)
    spoken = staticmethod(_spoken)
    moment = staticmethod(lambda event, seats: _moment(event, seats))
    standings = staticmethod(_standings)
    progress = staticmethod(_progress)
    seat_line = staticmethod(_seat_line)
    page = staticmethod(page_view)

    def whose(self, verb, view):
        return view.get("pending") if verb == "face" else None  # the card the seat in `pending` declared


PRESENTER = InfinityPresenter()
