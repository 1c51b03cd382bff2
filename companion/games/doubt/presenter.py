"""What «Верю — не верю» (doubt) says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable

from companion.games.base import Event, seat_namer
from companion.games.spec import PlainPresenter, Spoken
from companion.games.words import CAMERA, awaiting, cards_count, seat_name, standings
from companion.i18n import LANGUAGES, M, MN, MP, Message, N_, both, fact
from companion.games.doubt.rules import DEFAULT_DECK


# ---------------------------------------------------------------------------- words
_KIND_WORDS = {k["id"]: {"ru": k["name"], "en": k["name_en"]} for k in DEFAULT_DECK["kinds"]}

#: the two answers, as the game's own calls
_ANSWERS = {"believe": N_("“I believe”"), "doubt": N_("“I doubt it”")}


#: a claim in words, the count agreeing with the default deck's kind («1 ёж», «4 ежа», «5 ежей»):
#: the catalogue's plural forms, one pair of ids a kind
_CLAIMS: dict[str, Callable[[int], Message]] = {
    "mushroom": lambda n: MN("%(n)s mushroom", "%(n)s mushrooms", n),
    "berry": lambda n: MN("%(n)s berry", "%(n)s berries", n),
    "acorn": lambda n: MN("%(n)s acorn", "%(n)s acorns", n),
    "leaf": lambda n: MN("%(n)s leaf", "%(n)s leaves", n),
    "hedgehog": lambda n: MN("%(n)s hedgehog", "%(n)s hedgehogs", n),
    "squirrel": lambda n: MN("%(n)s squirrel", "%(n)s squirrels", n),
    "hare": lambda n: MN("%(n)s hare", "%(n)s hares", n),
    "owl": lambda n: MN("%(n)s owl", "%(n)s owls", n),
}


def claim_words(kind_id, name: dict | None, n) -> dict | None:
    """The claim «%(n)s <kind>» in both languages: the catalogue's plural of a default-deck kind
    named as the default deck names it; a kind of another deck (its name is the deck's data, with
    no plural forms) as «3 × сыр». ``None`` without a kind or a count."""
    if kind_id is None or not isinstance(n, int) or isinstance(n, bool):
        return None
    if kind_id in _CLAIMS and (name is None or name == _KIND_WORDS.get(kind_id)):
        return both(_CLAIMS[kind_id](n))
    return both(M("%(n)s × %(kind)s", n=n, kind=name or str(kind_id)))


def _kind(k):
    """A kind of card as the default deck (seed ``001_*``) names it in both languages, else its id."""
    return _KIND_WORDS.get(k, k)


def _answer(answer) -> Message:
    return M(_ANSWERS["believe" if answer == "believe" else "doubt"])


def describe_event(event: Event, seats):
    """A public event of «Верю — не верю» in words (a :class:`~companion.i18n.Message`; ``None``
    for a private event or an unknown kind, ``""`` for one told by another line; the dashboard's
    history and the console show it). A kind of card is named as on the default deck (seed
    ``001_*``), else by its id. A message, rendered by the caller.

    Args:
        event: an event returned by :meth:`DoubtGame.apply`.
        seats: the players' names by seat.
    """
    msg = _event(event, seats)
    return msg


def _event(event: Event, seats):
    if event.private_to is not None:
        return None
    d = event.data
    name = seat_namer(d, seats)
    k = event.kind
    if k == "dealt":
        # a game of the match is a «партия», as the options («Партий в матче») and the page say
        return M("Game %(game)s: %(dealer)s deals", game=d["game"], dealer=name("dealer"))
    if k in ("placed", "added"):
        # English says no «cards» here; Russian agrees the noun with the count («3 карты»)
        if k == "placed":
            return MN("%(name)s lays %(n)s as «%(kind)s»; pile %(pile)s",
                      "%(name)s lays %(n)s as «%(kind)s»; pile %(pile)s", d["count"],
                      name=name(), kind=_kind(d["kind"]), pile=d["pile"])
        return MN("%(name)s adds %(n)s as «%(kind)s»; pile %(pile)s",
                  "%(name)s adds %(n)s as «%(kind)s»; pile %(pile)s", d["count"],
                  name=name(), kind=_kind(d["kind"]), pile=d["pile"])
    if k == "last_cards":
        return M("%(name)s: last cards", name=name())
    if k == "answered":
        # a name is not declined nor stacked after «игрока» («заявку игрока Игрок 2»): the
        # placer's name stands after a colon
        return M("%(name)s answers the claim of %(placer)s: %(answer)s", name=name(), placer=name("placer"),
                 answer=_answer(d["answer"]))
    if k == "checked":
        kinds = [_kind(x) for x in d.get("kinds", [])]
        told = M("true") if d["true"] else M("false")
        if d["taker"] is None:
            end = M("the pile (%(pile)s) is discarded", pile=d["pile"])
        else:
            end = M("%(taker)s takes the pile (%(pile)s)", taker=name("taker"), pile=d["pile"])
        # «открыта» agrees with «карта» (a kind's name may be masculine: «гриб»), «открыты» with a list
        if len(kinds) == 1:
            return MP("one card", "Check: turned up %(kinds)s — %(told)s; %(end)s", kinds=kinds, told=told, end=end)
        return M("Check: turned up %(kinds)s — %(told)s; %(end)s", kinds=kinds, told=told, end=end)
    if k == "player_out":
        return M("%(name)s is out of cards and leaves", name=name())
    if k == "lead":
        return M("%(name)s leads", name=name())
    if k == "game_over":
        return M("Game %(game)s over: %(loser)s loses", game=d["game"], loser=d.get("loser_name") or "—")
    if k == "match_over":
        return ""  # told by the last game's line and the result
    if k == "round_void":
        back = sum(r["count"] for r in d.get("returned", []))
        return M("Round void: the pile's cards went back to their owners (%(back)s); %(lead)s leads",
                 back=back, lead=name("lead"))
    return None


def describe_standings(view: dict, seats):
    """The standing of a game in words from its *public* view (``game.view(None)``): the cards
    each player still holds, fewest first («меньше — лучше»), and the game of the match — or,
    once over, who lost. For the operator's «Завершить игру». A message, rendered by the caller."""
    msg = _standings(view, seats)
    return msg


def _standings(view: dict, seats) -> Message:
    result = view.get("result")
    if isinstance(result, dict):
        names = [r["name"] for r in view.get("seats") or []] or list(seats)
        return _result_words(result, names)
    rows = sorted(view.get("seats") or [], key=lambda r: r.get("cards", 0))
    told = ", ".join(f"{r['name']} {r.get('cards', 0)}" for r in rows)
    return M("Cards in hand: %(told)s; game %(game)s of %(games)s", told=told, game=view.get("game_no"),
             games=view.get("games"))


def _result_words(result: dict, names: list[str]) -> Message:
    """The game-over words of a match: who lost (the last player left holding cards), the order
    in which the others got rid of their cards, and — over several games — each player's losses by
    name. Names stay in the nominative: «Игра окончена! Проигравший — Борис. Избавились от карт по
    порядку: Аня, Вика»."""
    loser = result.get("loser_name")
    winners = list(result.get("winners") or [])
    out = M("Game over! %(loser)s loses", loser=loser) if loser else M("Game over! Nobody loses")
    if winners:
        out = M("%(head)s. Out of cards, in order: %(winners)s", head=out, winners=", ".join(winners))
    losses = result.get("losses") or []
    if (result.get("games") or 1) > 1 and len(losses) == len(names):
        out = M("%(head)s. Losses in the match: %(told)s", head=out, told=standings(list(zip(names, losses))))
    return out


# ---------------------------------------------------------------------------- the page's view
_ANSWER_WORDS = {k: both(M(v)) for k, v in _ANSWERS.items()}


def page_view(view: dict, seats) -> dict:
    """The dashboard's view of «Верю — не верю» (``companion.dashboard.model.page_view``), made
    from ``view`` (:meth:`DoubtGame.view`) alone: the claim once, as the deck's name of the kind
    in both languages (``{"ru": "гриб", "en": "mushroom"}``); placements and the last check by
    player name; the deck as its kinds' names and counts (no ids); seat cards with the cards held
    (``in_game`` and ``last_cards`` only when they tell something). The seat's ``you`` is left out:
    the seat card shows its cards."""
    rows = view.get("seats") or []
    names = [r.get("name") for r in rows] or list(seats)
    kinds = {k["id"]: {"ru": k["name"], "en": k.get("name_en") or k["name"]}
             for k in (view.get("deck") or {}).get("kinds", [])}

    def name(i) -> str:
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else str(i)

    def kind(k):
        return None if k is None else kinds.get(k, {"ru": str(k), "en": str(k)})

    out: dict = {k: view[k] for k in ("game", "phase", "dealer", "turn") if k in view}
    out["seats"] = []
    for r in rows:
        row = {"seat": r["seat"], "name": r["name"], "cards": r.get("cards")}
        if r.get("in_game") is False:
            row["in_game"] = False
        if r.get("last_cards"):
            row["last_cards"] = True
        out["seats"].append(row)
    if "game_no" in view:  # «Партия 1 из 2», not «Партия № 1» beside «Партий 2»
        n, of = view["game_no"], view.get("games")
        out["game_no"] = both(M("%(n)s of %(of)s", n=n, of=of)) if of else n
    pile = view.get("pile") or {}
    out["pile"] = {"claim": kind(pile.get("claim")),
                   "placements": [{"name": name(p["seat"]), "count": p["count"]} for p in pile.get("placements", [])],
                   "cards": pile.get("cards", 0)}
    placed = pile.get("placements") or []
    if pile.get("claim") is not None and placed:
        # what the last placement says it is, in words: «3 гриба»
        out["pile"]["claim_words"] = claim_words(pile["claim"], kind(pile["claim"]), placed[-1].get("count"))
    answer = view.get("answer")
    if answer:
        out["answer"] = {"name": name(answer.get("seat")), "answer": _ANSWER_WORDS.get(answer.get("answer"))}
    out["discard"] = view.get("discard", 0)
    check = view.get("last_check")
    if check:
        claim = kind(check.get("claim"))
        n = check.get("count")
        turned = [kind(k) for k in check.get("kinds", [])]
        taker, pile_n = check.get("taker"), check.get("pile")
        if taker is None:
            end = M("the pile (%(pile)s) is discarded", pile=pile_n)
        else:
            end = M("%(taker)s takes the pile (%(pile)s)", taker=name(taker), pile=pile_n)
        out["last_check"] = {
            "placer": check.get("placer"), "answerer": check.get("answerer"),
            "answer": _ANSWER_WORDS.get(check.get("answer")),
            "claim": claim_words(check.get("claim"), claim, n) if claim else None,
            "turned": {lang: fact(turned, lang) for lang in LANGUAGES},  # the kinds' names, joined
            "outcome": both(M("%(told)s; %(end)s", told=M("true") if check.get("true") else M("false"), end=end)),
        }
    out["out_order"] = list(view.get("out_order") or [])
    deck = view.get("deck") or {}
    out["deck"] = {"size": deck.get("size"),
                   "kinds": [{"card": kind(k["id"]), "count": k.get("count")} for k in deck.get("kinds", [])]}
    for k in ("version", "result"):
        if k in view:
            out[k] = view[k]
    return out


# ---------------------------------------------------------------------------- refusals
#: This game's refusals in words: ``{code: message id}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, str] = {
    "player_out": N_("That player has left the game."),
    "bad_count": N_("That is not a possible number of cards for one move."),
    "impossible_cards": N_("More cards of that kind than the deck holds."),
    "no_cards": N_("A player without cards cannot add: believe or doubt."),
    "not_dealer": N_("Only the dealer reports the deal."),
    "not_enough_cards": N_("The player holds fewer cards than that."),
    "reveal_count_mismatch": N_("The reveal must list exactly the cards of the last move."),
}


def _impossible_cards(f: dict) -> Message:
    if f.get("discarded"):
        return M("The deck has only %(in_deck)s «%(kind)s» card(s), and %(discarded)s are already discarded.",
                 in_deck=f["in_deck"], kind=f["kind"], discarded=f["discarded"])
    return M("The deck has only %(in_deck)s «%(kind)s» card(s).", in_deck=f["in_deck"], kind=f["kind"])


#: ``{code: words(facts) -> message}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict], Message]] = {
    "bad_count": lambda f: MN("One move lays 1 to %(n)s card.", "One move lays 1 to %(n)s cards.", f["max"]),
    "not_enough_cards": lambda f: M("%(player)s holds only %(cards)s.", player=f["player"],
                                    cards=cards_count(f["held"])),
    "reveal_count_mismatch": lambda f: M("The last move laid %(cards)s: list exactly that many, not %(given)s.",
                                         cards=cards_count(f["expected"]), given=f["given"]),
    "impossible_cards": _impossible_cards,
    "not_dealer": lambda f: M("The dealer, %(player)s, reports the deal.", player=f["player"]),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns a message or None.

def _waiting_reveal(seat, view, templates, seats):
    placements = (view.get("pile") or {}).get("placements") or []
    placer = seat_name(seats, placements[-1].get("seat")) if placements else None
    if placer is None:
        return awaiting(CAMERA, M("the last move's cards are not turned up yet"))
    if placer == seat_name(seats, seat):
        return awaiting(CAMERA, M("your cards of the last move are not turned up yet"))
    return awaiting(CAMERA, M("the last move's cards are not turned up yet (%(placer)s's move)", placer=placer))


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"reveal": _waiting_reveal}


def _last_placer(view: dict):
    """The seat of the last placement in ``view``'s pile (the cards ``table reveal ?`` turns up)."""
    placements = (view.get("pile") or {}).get("placements") or []
    return placements[-1].get("seat") if placements and isinstance(placements[-1], dict) else None


# ---------------------------------------------------------------------------- said aloud
def _spoken(event: Event, seats) -> Spoken | None:
    """What the table's voice says (seat names only, never a card): «Борис: не верю.», how the
    check came out («Правда! Стопку забирает Борис.»), a discarded pile (a minor moment)."""
    d = event.data if isinstance(event.data, dict) else {}
    name = seat_name(seats, d.get("seat"))
    if event.kind == "answered" and name and d.get("answer") in ("believe", "doubt"):
        said = M("%(name)s: I believe.", name=name) if d["answer"] == "believe" else M("%(name)s: I doubt it.",
                                                                                          name=name)
        return Spoken(said)
    if event.kind == "checked":
        taker = seat_name(seats, d.get("taker"))
        if taker is None:
            return Spoken(M("The pile is discarded."), priority=1)
        if d.get("true"):
            return Spoken(M("True! %(taker)s takes the pile.", taker=taker))
        return Spoken(M("False! %(taker)s takes the pile.", taker=taker))
    return None


def _progress(view: dict) -> Message:
    """The game of the match under way (or the last one)."""
    return MP("doubt", "game %(n)s of %(of)s", n=view.get("game_no"), of=view.get("games"))


def _seat_line(view: dict, seat: int, seats) -> Message | None:
    """The cards a seat holds, or that it got rid of them."""
    rows = view.get("seats") or []
    if not 0 <= seat < len(rows):
        return None
    row = rows[seat]
    return cards_count(int(row.get("cards") or 0)) if row.get("in_game", True) else MP("doubt", "out of cards")


class DoubtPresenter(PlainPresenter):
    """The words of ``doubt`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('round', 'game_over', 'out', 'void', 'checked')
    seat_keys = PlainPresenter.seat_keys + ('out_order', 'loser', 'answerer', 'placer', 'taker', 'next_dealer')
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(_event)
    spoken = staticmethod(_spoken)
    standings = staticmethod(_standings)
    progress = staticmethod(_progress)
    seat_line = staticmethod(_seat_line)
    page = staticmethod(page_view)

    def whose(self, verb, view):
        return _last_placer(view) if verb == "reveal" else None


PRESENTER = DoubtPresenter()
