"""What the card lottery (lottery) says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable

from companion.games.base import Event
from companion.games.narration import describer, public_event
from companion.games.spec import Moment, PlainPresenter, Spoken
from companion.games.words import (CAMERA, awaiting, card_label, cards_count, cards_label, chips, names_and, seat_args,
                                   seat_name, signed, standings, suit)
from companion.i18n import M, MN, MP, Message, N_, NC_, both


#: The lottery's own words for the codes whose meaning is particular to it (in the context
#: ``lottery``: the same English as the table's, its own Russian; the dashboard's
#: ``companion/dashboard/reasons.py`` covers the rest).
OWN_REASONS = {"bad_seats": NC_("lottery", "This number of players does not suit the game.")}


# ---------------------------------------------------------------------- words
def _amounts(values) -> str:
    return ", ".join("—" if v is None else str(v) for v in values)


@public_event
def _event(k: str, d: dict, name, seats):
    if k == "spread":
        total = sum(d["amounts"])
        return M("The banker spreads %(chips)s: the prizes hold %(prizes)s", chips=chips(total, acc=True),
                 prizes=_amounts(d["prizes"]))
    if k == "deal":
        counts = {int(s): n for s, n in d["cards"].items()}
        if not d.get("short"):
            n = next(iter(counts.values()), 3)
            return M("Draw %(draw)s: the dealer deals %(cards)s each", draw=d["draw"], cards=cards_count(n))
        told = ", ".join(f"{seats[s]} {n}" for s, n in counts.items() if n)
        return M("Draw %(draw)s, the last short deal: %(told)s", draw=d["draw"], told=told)
    if k == "cards_read":
        if not d["cards"]:
            return M("%(name)s: no cards", name=name())
        return M("%(name)s is dealt %(cards)s", name=name(), cards=cards_label(d["cards"]))
    if k == "prize_turned":
        return M("The banker turns prize no. %(prize)s: %(card)s — %(chips)s", prize=d["slot"] + 1,
                 card=card_label(d["card"]), chips=chips(d["chips"]))
    if k == "prize_won":
        return M("A match! %(name)s wins the prize %(card)s: %(chips)s", name=name(), card=card_label(d["card"]),
                 chips=chips(d["chips"]))
    if k == "stake_paid":  # the count is of the cards that won nothing, said in words (seed ¶9)
        return MN("%(name)s pays %(chips)s for %(n)s card that won nothing",
                  "%(name)s pays %(chips)s for %(n)s cards that won nothing", d["cards"], name=name(),
                  chips=chips(d["chips"], acc=True))
    if k == "prize_replaced":
        return M("The banker lays a new prize no. %(prize)s face down", prize=d["slot"] + 1)
    if k == "prizes_to_box":
        if d["chips"]:
            moved = MN("%(chips)s from the prizes and stakes goes to the box; ",
                       "%(chips)s from the prizes and stakes go to the box; ", d["chips"], chips=chips(d["chips"]))
            return M("The dealer's deck is used up: %(moved)sthe box holds %(box)s", moved=moved, box=d["box"])
        return M("The dealer's deck is used up: %(moved)sthe box holds %(box)s", moved="", box=d["box"])
    if k == "playoff":
        how = M("way 1: cover or take") if d["variant"] == 1 else M("way 2: tricks, suits ♥ ♣ ♦ ♠")
        return M("Play-off of the cards left (%(how)s): %(leader)s leads", how=how, leader=name("leader"))
    if k == "led":
        return M("%(name)s leads %(card)s to %(to)s", name=name(), card=card_label(d["card"]), to=name("to"))
    if k == "covered":
        return M("%(name)s covers %(led)s with %(card)s — both leave play", name=name(), led=card_label(d["led"]),
                 card=card_label(d["card"]))
    if k == "taken":
        return M("%(name)s takes %(card)s", name=name(), card=card_label(d["card"]))
    if k == "played":
        return M("%(name)s plays %(card)s", name=name(), card=card_label(d["card"]))
    if k == "trick_taken":
        return M("%(name)s takes the trick: %(cards)s", name=name(), cards=cards_label(d["cards"]))
    if k == "fine_paid":
        return M("%(name)s pays a fine of %(chips)s for the cards left: %(cards)s", name=name(),
                 chips=chips(d["chips"], acc=True), cards=cards_label(d["cards"]))
    if k == "voided":
        if d.get("what") == "playoff":
            return M("The play-off is void: the cards went back, it is played again")
        return M("Draw %(draw)s void: everything is as before the deal", draw=d["draw"])
    if k == "game_over":
        return _game_over_words(d, seats)
    return None


describe_event = describer(_event, """
    One line of words for a public event of the card lottery (the dashboard's history and the
    console of ``companion run``): a message, rendered by the caller; ``None`` for a private event or an unknown
    kind (the presenter's ``event``).

    Players' cards are dealt face up (seed ¶6 «Они их открывают») and the cards left lie face up
    beside them (¶8), so a line may name them; a prize card is named only once it is turned — the
    engine never knows a face-down prize.""")


_ROLES = {"banker": NC_("lottery", "banker"), "dealer": NC_("lottery", "dealer")}


def _game_over_words(result: dict, seats) -> Message:
    """The history's last line: the best net result among the card-holding players, everyone's
    net chips, and the box that carries over (RULINGS §5)."""
    net = result.get("net") or {}
    players = [n for n in (result.get("stakes_paid") or net)]  # card-holding players, by name
    winners = [seats[i] if isinstance(i, int) and 0 <= i < len(seats) else str(i)
               for i in (result.get("winners") or [])]
    best = max((net[n] for n in players), default=0)
    if len(winners) == 1:
        head = M("Game over! Best result: %(winner)s, %(best)s", winner=winners[0], best=signed(best))
    else:
        head = M("Game over! %(winners)s share the best result (%(best)s)", winners=names_and(winners),
                 best=signed(best))
    table: list = [standings([(n, net[n]) for n in players], signed)]
    # the banker and the dealer hold no cards (by default) but win or lose chips all the same
    told = [M("%(role)s %(name)s %(net)s", role=MP("lottery", word), name=result[role], net=signed(net[result[role]]))
            for role, word in _ROLES.items()
            if result.get(role) and result[role] not in players and result[role] in net]
    return M("%(head)s. Standings: %(table)s%(roles)s; the box holds %(box)s and carries over to the next game",
             head=head, table=table[0], roles=M("; %(told)s", told=told) if told else "", box=result.get("box", 0))


def describe_standings(view: dict, seats):
    """The standing of a game in words from its *public* view (``game.view(None)``): each
    card-holding player's chips, the box and the chips lying on the prizes — «Фишки: Аня 31,
    Борис 24; в кассе 6, на призах 14; тираж 3»; once over, the history's last line. For the
    operator's «Завершить игру». A message, rendered by the caller."""
    return _standings(view, seats)


def _standings(view: dict, seats) -> Message:
    names = list(view.get("seats") or seats)
    if isinstance(view.get("result"), dict):  # over: the history's last line
        return _game_over_words(view["result"], names)
    balances = view.get("balances") or []
    players = view.get("players") or range(len(balances))
    told = standings([(names[p], balances[p]) for p in players])
    on_prizes = sum(p["chips"] for p in (view.get("prizes") or []) if p)
    extra = view.get("stakes", 0)
    if extra:
        return M("Chips: %(told)s; the box holds %(box)s, the prizes %(prizes)s, stakes to spread %(extra)s; draw %(draw)s",
                 told=told, box=view.get("box", 0), prizes=on_prizes, extra=extra, draw=view.get("draw"))
    return M("Chips: %(told)s; the box holds %(box)s, the prizes %(prizes)s; draw %(draw)s",
             told=told, box=view.get("box", 0), prizes=on_prizes, draw=view.get("draw"))


# ---------------------------------------------------------------------- the page's view
_PLAYOFF_WAY = {1: both(M("cover or take")), 2: both(M("tricks, suits ♥ ♣ ♦ ♠"))}
_FACE_DOWN = both(MP("lottery", "face down"))


def page_view(view: dict, seats) -> dict:
    """The dashboard's view of the lottery (``companion.dashboard.model.page_view``), made from
    ``view`` (:meth:`LotteryGame.view`) alone: each player's chips and cards of this draw on the
    seat cards (``seats``: ``[{"seat", "name", "chips", "role"?, "cards"?}]``); prizes numbered
    from 1 as people count them (``prize``; the engine's ``slot`` counts from 0); players by name
    instead of seat indexes; cards in each language's words («Д♥» / "Q♥", :mod:`companion.games.cardnames`); no balances list, no empty
    ``expect``, no seat number as ``you`` (the lottery has nothing private). The game-over box
    has its own words (``describe_standings``)."""
    names = list(view.get("seats") or seats)

    def name(i) -> str:
        i = int(i)
        return names[i] if 0 <= i < len(names) else str(i)

    def labels(cards) -> list:
        return [card_label(c) for c in cards]

    balances = view.get("balances") or []
    current = view.get("current") or {}
    banker = view.get("banker")
    rows = []
    for i, n in enumerate(names):
        row: dict = {"seat": i, "name": n}
        if i < len(balances):
            row["chips"] = balances[i]
        if i == banker:
            row["role"] = both(MP("lottery", "banker"))
        if str(i) in current:
            row["cards"] = cards_label(current[str(i)]) if current[str(i)] else "—"
        rows.append(row)
    out: dict = {k: view[k] for k in ("game", "phase", "banker", "dealer", "players", "draw", "box", "stakes")
                 if k in view}
    out["seats"] = rows
    if view.get("to_spread"):
        out["to_spread"] = view["to_spread"]
    out["prizes"] = [{"prize": i + 1,
                      "card": None if p is None else (card_label(p["card"]) if p.get("face_up") and p.get("card")
                                                      else _FACE_DOWN),
                      "chips": None if p is None else p.get("chips")}
                     for i, p in enumerate(view.get("prizes") or [])]
    for k in ("banker_deck", "dealer_deck"):
        if k in view:
            out[k] = view[k]
    aside = view.get("aside") or {}
    # the cards aside become the play-off hands (seed ¶8): from then on the hands are the truth and
    # the list aside is history — shown, it named cards already played or out (a tester saw them)
    if aside and view.get("phase") not in ("playoff", "over"):
        out["aside"] = [{"name": name(k), "cards": labels(v)} for k, v in sorted(aside.items(), key=lambda kv: int(kv[0]))]
    if view.get("won"):
        out["won"] = [{"draw": w.get("draw"), "prize": w["slot"] + 1, "card": card_label(w["card"]),
                       "name": name(w["seat"]), "chips": w.get("chips")} for w in view["won"]]
    if view.get("last_winner") is not None:
        out["last_winner"] = view["last_winner"]
    if view.get("phase") == "over" and view.get("balances_by_draw"):
        # the result screen's chart: chips at the start, after each draw, and after the play-off
        chart = [list(b) for b in view["balances_by_draw"]]
        if balances and chart[-1] != list(balances):
            chart.append(list(balances))
        out["chips_by_draw"] = chart
    po = view.get("playoff")
    if po:
        out["playoff"] = {
            "variant": _PLAYOFF_WAY.get(po.get("variant"), po.get("variant")),
            "hands": [{"name": name(k), "cards": labels(v)} for k, v in sorted((po.get("hands") or {}).items(),
                                                                               key=lambda kv: int(kv[0]))],
            "leader": po.get("leader"), "attack": None if po.get("attack") is None else card_label(po["attack"]),
            "defender": po.get("defender"),
            "trick": [{"name": name(t["seat"]), "card": card_label(t["card"])} for t in po.get("trick") or []],
        }
    for k in ("version", "result"):
        if k in view:
            out[k] = view[k]
    return out


# ---------------------------------------------------------------------------- refusals

def _bad_spread(f: dict) -> Message:
    if "empty" in f:  # chips on a place with no prize (numbered from 1, as on screen)
        return M("There is no prize in place %(places)s: leave 0 there.", places=", ".join(str(x) for x in f["empty"]))
    if f.get("negative"):  # a number, but below zero: named as such, not as "not numbers"
        value = str(f["negative"][0]).replace("-", "\u2212")
        return M("The spread: an amount cannot be negative (%(value)s); each is 0 or more.", value=value)
    return MN("The spread is %(n)s amounts, one per prize place in order, each 0 or more.",
              "The spread is %(n)s amounts, one per prize place in order, each 0 or more.", f["slots"])


#: This game's refusals in words: ``{code: message id}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, str] = {
    "already_read": N_("That player's cards for this deal are already read."),
    "amounts_must_differ": N_("Two prizes would carry the same amount: make every amount different."),
    "bad_spread": N_("The spread needs one non-negative amount per prize place."),
    "cannot_cover": N_("A cover must be a higher card of the same suit."),
    "card_already_dealt": N_("That card has already been dealt."),
    "duplicate_card": N_("The same card is typed twice in this entry: each card is entered once."),
    "cards_not_read": N_("The prizes are turned once every player's cards are read."),
    "must_follow_suit": N_("A player holding the led suit must play it."),
    "must_lead_lowest_of_highest_suit": N_("The first lead is the lowest card of the leader's highest suit."),
    "no_such_slot": N_("There is no face-down prize in that place."),
    "not_a_player": N_("That seat holds no cards in this game (banker or dealer)."),
    "not_in_hand": N_("The player does not hold that card."),
    "nothing_to_cover": N_("No card has been led to this player."),
    "prize_already_drawn": N_("That card has already been laid as a prize."),
    "prize_empty": N_("The first spread must put at least one chip on every prize."),
    "wrong_total": N_("The spread does not add up to the chips to be spread."),
}

#: ``{code: words(facts) -> message}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict], Message]] = {
    "bad_spread": _bad_spread,
    "wrong_total": lambda f: M("The spread adds up to %(total)s; %(pool)s are to be spread.", total=f["total"],
                               pool=chips(f["pool"], acc=True)),
    "amounts_must_differ": lambda f: M("The prizes would carry %(prizes)s: make every amount different.",
                                       prizes=", ".join(str(x) for x in f["prizes"])),
    "must_follow_suit": lambda f: M("A %(suit)s card is in hand: follow suit.", suit=suit(f["suit"])),
    "must_lead_lowest_of_highest_suit": lambda f: M(
        "The first lead is %(card)s: the lowest card of the highest suit.", card=card_label(f["card"])),
    "cannot_cover": lambda f: M("%(card)s does not cover %(attack)s: a higher %(suit)s card is needed.",
                                card=card_label(f["card"]), attack=card_label(f["attack"]), suit=suit(f["attack"])),
    "not_in_hand": lambda f: M("%(player)s does not hold %(card)s.", player=f["player"], card=card_label(f["card"])),
    "card_already_dealt": lambda f: M("%(card)s of this deck is already dealt.", card=card_label(f["card"])),
    "duplicate_card": lambda f: M("%(card)s is typed twice in this entry: each card is entered once.",
                                  card=card_label(f["card"])),
    "prize_already_drawn": lambda f: M("%(card)s has already been laid as a prize.", card=card_label(f["card"])),
    "already_read": lambda f: M("%(player)s's cards for this deal are already read.", player=f["player"]),
    "not_a_player": lambda f: M("%(player)s holds no cards in this game (banker or dealer).", player=f["player"]),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns a message or None.

def _waiting_cards(seat, view, templates, seats):
    missing = seat_args(templates)
    if seat in missing and len(missing) == 1:
        return awaiting(CAMERA, M("your cards are not read yet"))
    names = [seats[i] for i in missing if seat_name(seats, i)]
    return awaiting(CAMERA, M("cards not read yet — %(names)s", names=names_and(names)))


def _waiting_prize(seat, view, templates, seats):
    banker = view.get("banker")
    if banker == seat:
        return M("Your move: turn the prizes up — the camera reads them (or the operator enters them)")
    name = seat_name(seats, banker)
    if name:
        return awaiting(CAMERA, M("the banker, %(name)s, is turning the prizes up", name=name))
    return awaiting(CAMERA, M("the prizes are being turned up"))


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"cards": _waiting_cards, "prize": _waiting_prize}


# ---------------------------------------------------------------------------- said aloud
def _spoken(event: Event, seats) -> Spoken | None:
    """What the table's voice says: «Приз! Выигрывает Аня.» (a seat name only)."""
    d = event.data if isinstance(event.data, dict) else {}
    name = seat_name(seats, d.get("seat"))
    if event.kind == "prize_won" and name:
        return Spoken(M("A prize! %(name)s wins it.", name=name))
    return None


def _moment(event, seats) -> Moment | None:
    """A prize won: the table display shows the history's words for it large."""
    if event.kind != "prize_won":
        return None
    return Moment("prize", _event(event, seats) or M("Prize"))


def _progress(view: dict) -> Message:
    """The draw under way (or the last one)."""
    return MP("lottery", "draw %(n)s", n=view.get("draw"))


def _seat_line(view: dict, seat: int, seats) -> Message | None:
    """A seat's chips, and its role when it is the banker or the dealer."""
    balances = view.get("balances") or []
    if not 0 <= seat < len(balances):
        return None
    told = chips(int(balances[seat]))
    role = (MP("lottery", "banker") if seat == view.get("banker")
            else MP("lottery", "dealer") if seat == view.get("dealer") else None)
    return M("%(chips)s, %(role)s", chips=told, role=role) if role is not None else told


class LotteryPresenter(PlainPresenter):
    """The words of ``lottery`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('game_over', 'playoff', 'void', 'prize_won')
    seat_keys = PlainPresenter.seat_keys + ('banker', 'leader', 'last_winner', 'defender', 'to')
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

    def own_refusal(self, reason, options=None):
        return MP("lottery", OWN_REASONS[reason]) if reason in OWN_REASONS else None


PRESENTER = LotteryPresenter()
