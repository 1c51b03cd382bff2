"""What the joker banking game (hoggenheimer) says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable

from fractions import Fraction

from companion.games.base import Event
from companion.games.narration import describer, public_event
from companion.games.spec import Moment, PlainPresenter, Spoken
from companion.games.words import (CAMERA, awaiting, card_label, cards_label, chips, names_and, seat_name, signed,
                                   standings, suit)
from companion.games.hoggenheimer.layout import JOKER, SHAPES, _targets, win_probability
from companion.i18n import M, MN, MP, MPN, Message, N_, both


# ---------------------------------------------------------------------------- words
_SUIT_ROW = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
"""A whole row of the layout, as the seed names bet (ж): «все бубны»."""
_RANK_COLUMN = {"A": N_("aces"), "K": N_("kings"), "Q": N_("queens"), "J": N_("jacks"), "10": N_("tens"),
                "9": N_("nines"), "8": N_("eights"), "7": N_("sevens")}
"""A whole column of the layout, as the seed names bet (е): «все 10» — «все десятки»."""


def _card_word(code: str) -> Message | dict[str, str] | str:
    return M("the joker") if code == JOKER else card_label(code)


def bet_target(shape: str, cards, after_on: bool = False) -> Message | dict[str, str] | str:
    """A bet's target in words, as the seed's examples (а)–(ж) name them: ``"Q♥"``, «две
    соседние 7♠ 7♥», «квадрат 8♥ 9♥ 8♦ 9♦», «колонка — все десятки», «ряд — все бубны»
    (``after_on``: the Russian words after «на», «на колонку — все десятки»)."""
    cards = list(cards)
    if shape == "card":
        return card_label(cards[0])
    if shape == "pair":
        return M("two touching cards %(cards)s", cards=cards_label(cards, " "))
    if shape == "square":
        return M("the square %(cards)s", cards=cards_label(cards, " "))
    if shape == "column":
        rank = M(_RANK_COLUMN[cards[0][:-1]])
        if after_on:  # «на колонку»: the object of «на»
            return MP("after on", "the column — all %(rank)s", rank=rank)
        return M("the column — all %(rank)s", rank=rank)
    if shape == "row":
        return M("the row — all %(suit)s", suit=M(_SUIT_ROW[cards[0][-1]]))
    return cards_label(cards, " ")


def bet(bet: dict, number: bool = True) -> Message:
    """A bet in words as the history tells it: what and how much — «5 на Д♥ (ставка №3)», «2 на
    ряд — все бубны (ставка №4)» / ``"5 on Q♥ (bet no. 3)"``; ``number=False`` leaves the number
    out. ``bet``: a bet of the view or an event (``id``, ``shape``, ``cards``, ``stake``)."""
    target = bet_target(bet["shape"], bet["cards"], after_on=True)
    if number:
        return M("%(stake)s on %(target)s (bet no. %(id)s)", stake=bet["stake"], target=target, id=bet["id"])
    return M("%(stake)s on %(target)s", stake=bet["stake"], target=target)


def choice_label(field: str, value, view: dict, seats) -> Message | None:
    """Words for an action's choice made by id (a ``Choice`` field): the open bet ``value`` of a
    ``withdraw`` as :func:`bet` words it, found in ``view`` (the viewer's own view, so nothing the
    page does not show); ``None`` for another field or an unknown bet."""
    if field != "bet_id":
        return None
    for b in view.get("bets") or []:
        if b.get("id") == value:
            return bet(b)
    return None


@public_event
def _event(k: str, d: dict, name: Callable[..., str], seats):
    if k == "bet":
        return M("%(name)s bets %(stake)s on %(target)s (bet no. %(id)s, pays %(k)s:1)", name=name(), stake=d["stake"],
                 target=bet_target(d["shape"], d["cards"], after_on=True), id=d["id"], k=d["k"])
    if k == "bet_withdrawn":
        what = M(" (%(bet)s)", bet=bet(d, number=False)) if "stake" in d and "shape" in d else ""
        return M("%(name)s takes back bet no. %(id)s%(what)s", name=name(), id=d["id"], what=what)
    if k == "bets_closed":
        n = d["bets"]
        told = (MN("%(n)s bet(s), the bank pays at most %(chips)s", "%(n)s bet(s), the bank pays at most %(chips)s", n,
                   chips=chips(d["exposure"])) if n else M("no bets"))
        return M("%(banker)s (the banker) closes the bets (%(told)s). The 33rd card is turned", banker=name("banker"),
                 told=told)
    if k == "card_turned":
        card = _card_word(d["card"])
        if d.get("turned") == 1:
            return M("The 33rd card: %(card)s — onto its place", card=card)
        return M("Turned: %(card)s — onto its place (%(turned)s turned)", card=card, turned=d["turned"])
    if k == "joker":
        if d.get("joker_first"):
            return M("The joker comes first!")
        return M("The joker! %(turned)s card(s) turned before it", turned=d["turned"])
    if k == "settled":
        return _settled_words(d, seats)
    if k == "new_deal":
        return M("Deal %(deal)s: %(banker)s holds the bank; place your bets", deal=d["deal"], banker=name("banker"))
    if k == "deal_void":
        n = len(d.get("returned", []))
        back = MN("%(n)s stake returned", "%(n)s stakes returned", n) if n else M("there were no bets")
        return M("Deal void: %(back)s; %(banker)s deals again", back=back, banker=name("banker"))
    if k == "game_over":
        return _game_over_words(d)
    return None


describe_event = describer(_event, """
    One line of words for a public event of the joker game (the dashboard's history and the
    console of ``companion run``): a message, rendered by the caller; ``None`` for a private event or an
    unknown kind (the presenter's ``event``).

    Every event of this game is public: the engine never knows a face-down card (the camera reports
    each card as it is turned), so a line names only a turned card or a bet's target.

    Args:
        event: an event returned by :meth:`HoggenheimerGame.apply`.
        seats: the players' names by seat.
    """)


def _settled_words(d: dict, seats) -> Message:
    banker = seats[d["banker"]]
    net: dict[int, int] = {}
    for b in d.get("bets", []):
        net[b["seat"]] = net.get(b["seat"], 0) + b["net"]
    if not net:
        body = M("there were no bets")
    elif d.get("joker_first"):
        body = M("%(banker)s (the banker) takes every stake: %(chips)s", banker=banker,
                 chips=chips(sum(b["stake"] for b in d["bets"])))
    else:
        body = M("%(players)s; %(banker)s (the banker) %(net)s", players=standings([(seats[s], v) for s, v in net.items()], signed),
                 banker=banker, net=signed(d["banker_net"]))
    tail = "" if d.get("counted", True) else M("; the deal does not count — %(banker)s deals again", banker=banker)
    return M("Deal %(deal)s settled: %(body)s%(tail)s", deal=d["deal"], body=body, tail=tail)


def _game_over_words(result: dict) -> Message:
    """The history's last line: the winner(s) by chips, then everyone's chips and net."""
    balances = result.get("balances") or {}
    net = result.get("net") or {}
    winners = list(result.get("winners") or [])
    best = max(balances.values()) if balances else 0
    if len(winners) == 1:
        head = M("Game over! The winner is %(winner)s: %(chips)s", winner=winners[0], chips=chips(best))
    else:
        head = M("Game over! %(winners)s share the most chips (%(best)s)", winners=names_and(winners), best=best)
    table = ", ".join(f"{n} {balances[n]} ({signed(net.get(n, 0))})"
                      for n in sorted(balances, key=lambda n: -balances[n]))
    return M("%(head)s. Standings: %(table)s", head=head, table=table)


def describe_standings(view: dict, seats):
    """The standing of a game in words from its *public* view (``game.view(None)``): each seat's
    chips (with chips still staked on the layout of an unfinished deal), and the deal reached —
    «Фишки: Аня 130, Вика 95 (+5 на столе), Борис 75; сдача 3 из 6»; once over, the history's last
    line (the winner and everyone's chips). For the operator's «Завершить игру» (the public page
    and console say how the game stood when it was ended). A message, rendered by the
    caller."""
    return _standings(view, seats)


def _standings(view: dict, seats) -> Message | None:
    if isinstance(view.get("result"), dict):  # over: the history's last line
        return _game_over_words(view["result"])
    rows = view.get("seats") or []
    if not rows:
        return None
    order = sorted(rows, key=lambda r: -(r["chips"] + r.get("staked", 0)))
    parts = []
    for r in order:
        staked = r.get("staked", 0)
        row = f"{r['name']} {r['chips']}"
        parts.append(M("%(row)s (+%(staked)s on the layout)", row=row, staked=staked) if staked else row)
    return M("Chips: %(parts)s; deal %(deal)s of %(of)s", parts=parts, deal=view["deal"], of=view["deals_total"])


# ---------------------------------------------------------------------------- the page's view
def _chance(p: Fraction) -> dict:
    """A bet's chance in words: ``1/3`` → ``{"ru": "1 из 3 (33 %)", "en": "1 in 3 (33%)"}``."""
    pct = round(100 * p.numerator / p.denominator)
    return both(M("%(n)s in %(of)s (%(pct)s%%)", n=p.numerator, of=p.denominator, pct=pct))


def bet_targets() -> dict[str, dict]:
    """Every bet target of the layout in words, for the seat page's bet grid: ``{code: {"shape",
    "payout", "text": {"ru", "en"}}}`` keyed by the target's cards as a ``bet`` action writes them
    (layout order, comma-separated: ``"QH"``, ``"7S,7H"``, ``"8H,9H,8D,9D"``, ``"AS,AH,AD,AC"``),
    ``text`` being :func:`bet_target` in both languages («две соседние 7♠ 7♥», «Д♥», «ряд — все бубны»). All 117 targets of
    :func:`all_bet_targets`, whatever the bank covers now: the page finds the target a selection of
    cards makes here and the legal action for it among the seat's actions. Static (the same
    public facts for every seat): worded once, a fresh dict on every call."""
    global _TARGET_WORDS
    if _TARGET_WORDS is None:
        _TARGET_WORDS = [(",".join(cards), shape, f"{SHAPES[shape]}:1",
                          {lang: text or "" for lang, text in both(bet_target(shape, cards)).items()})
                         for shape, cards in _targets()]
    return {code: {"shape": shape, "payout": payout, "text": dict(text)}
            for code, shape, payout, text in _TARGET_WORDS}


_TARGET_WORDS: list[tuple[str, str, str, dict[str, str]]] | None = None
_BANKER = both(MP("hoggenheimer", "banker"))  # «банкомет» (seed 002), not the lottery's «банкир»
_JOKER = both(M("joker"))


def page_view(view: dict, seats) -> dict:
    """The dashboard's view of the joker game (``companion.dashboard.model.page_view``), made from
    ``view`` (:meth:`HoggenheimerGame.view`) alone: the odds table as shape, payout («1:1») and
    chance in words («1 из 2 (50 %)») — no bare ``k`` or ``p``; the banker's role on his seat card
    (no «banker: no» on the others'); the last settlement's bets by player name with their payout;
    card codes with their suit signs; no seat number as ``you`` (the seat card shows the chips).
    ``layout``, ``bets``, ``limits`` stay as the page's layout and stake stepper read them. A seat's
    view (the one with ``you``) also carries ``targets`` (:func:`bet_targets`): the words and payout
    of every target, for the seat page's bet grid."""
    rows = view.get("seats") or []
    names = [r.get("name") for r in rows] or list(seats)

    def name(i) -> str:
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else str(i)

    out = {k: v for k, v in view.items() if k not in ("seats", "odds", "last_settlement", "you", "chain", "deals_total")}
    if "deal" in view and view.get("deals_total"):  # «Сдача 2 из 3», one term (seed «Сдача расклада»)
        out["deal"] = both(M("%(n)s of %(of)s", n=view["deal"], of=view["deals_total"]))
    out["seats"] = []
    for r in rows:
        row = {"seat": r["seat"], "name": r["name"], "chips": r.get("chips")}
        if r.get("banker"):
            row["role"] = _BANKER
        if r.get("staked"):
            row["staked"] = r["staked"]
        out["seats"].append(row)
    if isinstance(view.get("you"), dict):  # a seat's page: its bet grid words the target tapped
        out["targets"] = bet_targets()
    out["chain"] = [card_label(c) if c != JOKER else _JOKER for c in view.get("chain") or []]
    out["odds"] = [{"shape": o["shape"], "payout": o.get("payout") or f"{o['k']}:1",
                    "chance": _chance(win_probability(o["k"]))} for o in view.get("odds") or []]
    last = view.get("last_settlement")
    if last:
        out["last_settlement"] = {
            "deal": last.get("deal"), "banker": last.get("banker"), "joker_first": last.get("joker_first"),
            "turned": last.get("turned"),
            "bets": [{"id": b.get("id"), "name": name(b.get("seat")), "shape": b.get("shape"),
                      "cards": [card_label(c) for c in b.get("cards") or []], "stake": b.get("stake"),
                      "payout": f"{b.get('k')}:1", "won": b.get("won"), "net": signed(b.get("net") or 0)}
                     for b in last.get("bets") or []],
            "banker_net": signed(last.get("banker_net") or 0), "counted": last.get("counted"),
        }
    return out


# ---------------------------------------------------------------------------- refusals

def _bank_exposure(f: dict) -> Message:
    most, minimum = f["most"], f.get("min_stake", 1)
    if most >= minimum:
        return M("The bank cannot cover that payout: at most %(chips)s on this bet now.",
                 chips=MPN("genitive", "%(n)s chip", "%(n)s chips", most))
    return M("The bank cannot cover a bet on this target any more: the banker has %(chips)s and may already owe "
             "%(exposure)s.", chips=chips(f["banker_chips"]), exposure=f["exposure"])


#: This game's refusals in words: ``{code: message id}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, str] = {
    "bad_bet_shape": N_("A bet is a card, two touching cards, a 2×2 square, a column or a row."),
    "bad_slot": N_("There is no such place on the layout."),
    "bank_exposure": N_("The bank cannot cover this bet's payout on top of the others."),
    "banker_cannot_bet": N_("The banker does not bet against his own bank."),
    "card_already_turned": N_("That card is already face up."),
    "insufficient_chips": N_("The player has fewer chips than the stake."),
    "joker_has_no_slot": N_("The joker ends the deal; it is not put on the layout."),
    "no_such_bet": N_("There is no open bet with that number."),
    "not_banker": N_("Only the banker closes the bets."),
    "not_your_bet": N_("That bet belongs to another player."),
    "slot_missing": N_("Say on which place the card was put."),
    "stake_above_max": N_("The stake is above the table maximum."),
    "stake_below_min": N_("The stake is below the table minimum."),
    "wrong_slot": N_("The card was put on another card's place."),
}

#: ``{code: words(facts) -> message}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict], Message]] = {
    "stake_below_min": lambda f: M("The stake is below the table minimum of %(chips)s.",
                                   chips=MPN("genitive", "%(n)s chip", "%(n)s chips", f["min_stake"])),
    "stake_above_max": lambda f: M("The stake is above the table maximum of %(chips)s.",
                                   chips=MPN("genitive", "%(n)s chip", "%(n)s chips", f["max_stake"])),
    "insufficient_chips": lambda f: M("%(player)s has %(chips)s, less than the stake of %(stake)s.",
                                      player=f["player"], chips=chips(f["chips"]), stake=f["stake"]),
    "bank_exposure": _bank_exposure,
    "no_such_bet": lambda f: M("There is no open bet no. %(bet)s.", bet=f["bet"]),
    "not_your_bet": lambda f: M("Bet no. %(bet)s is %(player)s's.", bet=f["bet"], player=f["player"]),
    "not_banker": lambda f: M("Only the banker, %(player)s, closes the bets.", player=f["player"]),
    "wrong_slot": lambda f: M("%(card)s was put on %(slot)s's place; its place is the %(suit)s row, column %(rank)s.",
                              card=card_label(f["card"]), slot=card_label(f["slot"]), suit=suit(f["card"]),
                              rank=f["card"][:-1]),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns a message or None.

def _waiting_turn(seat, view, templates, seats):
    banker = view.get("banker")
    if banker == seat:
        return M("Your move: turn the layout's cards — the camera reads them (or the operator enters them)")
    name = seat_name(seats, banker)
    if name:
        return awaiting(CAMERA, M("the banker, %(name)s, is turning the layout's cards", name=name))
    return awaiting(CAMERA, M("the layout's cards are being turned"))


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"turn": _waiting_turn}


# ---------------------------------------------------------------------------- said aloud
def _spoken(event: Event, seats) -> Spoken | None:
    """What the table's voice says: «Джокер!» when the joker ends the deal."""
    return Spoken(M("The joker!")) if event.kind == "joker" else None


def _progress(view: dict) -> Message:
    """The deal under way (or the last one) of the game's deals."""
    return MP("hoggenheimer", "deal %(n)s of %(of)s", n=view.get("deal"), of=view.get("deals_total"))


def _seat_line(view: dict, seat: int, seats) -> Message | None:
    """A seat's chips (and those on the layout), and whether it holds the bank."""
    rows = view.get("seats") or []
    if not 0 <= seat < len(rows):
        return None
    row = rows[seat]
    told: Message = chips(int(row.get("chips") or 0))
    if row.get("staked"):
        told = M("%(row)s (+%(staked)s on the layout)", row=told, staked=row["staked"])
    return M("%(chips)s, %(role)s", chips=told, role=MP("hoggenheimer", "banker")) if row.get("banker") else told


class HoggenheimerPresenter(PlainPresenter):
    """The words of ``hoggenheimer`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('game_over', 'settled', 'void')
    widgets = ("joker_layout", "bet_grid")
    seat_keys = PlainPresenter.seat_keys + ('banker',)
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(_event)
    spoken = staticmethod(_spoken)
    moment = staticmethod(lambda event, seats: Moment("joker", M("Joker")) if event.kind == "joker" else None)
    standings = staticmethod(_standings)
    progress = staticmethod(_progress)
    seat_line = staticmethod(_seat_line)
    page = staticmethod(page_view)

    def choice_label(self, field, value, view, seats):
        return choice_label(field, value, view, seats)


PRESENTER = HoggenheimerPresenter()
