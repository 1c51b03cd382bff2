"""What «Верю — не верю» (doubt) says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable

from companion.games.base import Event, seat_namer
from companion.games.spec import PlainPresenter
from companion.games.words import CAMERA, cards_count, in_lang, ru_plural, seat_name, standings, waiting_pair
from companion.games.doubt.rules import DEFAULT_DECK


# ---------------------------------------------------------------------------- words
_KIND_WORDS = {k["id"]: (k["name"], k["name_en"]) for k in DEFAULT_DECK["kinds"]}


def describe_event(event: Event, seats, lang: str = "ru") -> str | None:
    """One line of words for a public event of «Верю — не верю» (``None`` for a private event or
    an unknown kind; the dashboard's history and the console show it). A kind of card is named
    as on the default deck (seed ``001_*``), else by its id.

    Args:
        event: an event returned by :meth:`DoubtGame.apply`.
        seats: the players' names by seat.
        lang: ``"ru"`` (default, the players' language) or ``"en"``.
    """
    if event.private_to is not None:
        return None
    d = event.data
    ru = lang == "ru"
    name = seat_namer(d, seats)

    def kind(k) -> str:
        ru_name, en_name = _KIND_WORDS.get(k, (k, k))
        return ru_name if ru else en_name

    k = event.kind
    if k == "dealt":
        # a game of the match is a «партия», as the options («Партий в матче») and the page say
        return (f"Партия {d['game']}: сдаёт {name('dealer')}" if ru else f"Game {d['game']}: {name('dealer')} deals")
    if k in ("placed", "added"):
        verb = ("выкладывает" if k == "placed" else "добавляет") if ru else ("lays" if k == "placed" else "adds")
        return (f"{name()} {verb} {d['count']} {ru_plural(d['count'], 'карту', 'карты', 'карт')}: «{kind(d['kind'])}»; в стопке {d['pile']}" if ru
                else f"{name()} {verb} {d['count']} as «{kind(d['kind'])}»; pile {d['pile']}")
    if k == "last_cards":
        return f"{name()}: последние карты" if ru else f"{name()}: last cards"
    if k == "answered":
        word = ("«Верю»" if d["answer"] == "believe" else "«Не верю»") if ru else (
            "“I believe”" if d["answer"] == "believe" else "“I doubt it”")
        # a name is not declined nor stacked after «игрока» («заявку игрока Игрок 2»): the
        # placer's name stands after a colon
        return (f"{name()} отвечает {word} (заявка: {name('placer')})" if ru
                else f"{name()} answers the claim of {name('placer')}: {word}")
    if k == "checked":
        shown = ", ".join(kind(x) for x in d.get("kinds", []))
        taker = name("taker")
        if ru:
            told = "правда" if d["true"] else "неправда"
            end = f"стопка ({d['pile']}) в биту" if d["taker"] is None else f"стопку ({d['pile']}) забирает {taker}"
            kinds = d.get("kinds", [])
            # «открыта» agrees with «карта» (a kind's name may be masculine: «гриб»), «открыты»
            # with a list
            opened = f"открыта карта «{shown}»" if len(kinds) == 1 else f"открыты {shown}"
            return f"Проверка: {opened} — {told}; {end}"
        told = "true" if d["true"] else "false"
        end = f"the pile ({d['pile']}) is discarded" if d["taker"] is None else f"{taker} takes the pile ({d['pile']})"
        return f"Check: turned up {shown} — {told}; {end}"
    if k == "player_out":
        return f"{name()}: карт больше нет — выходит из игры" if ru else f"{name()} is out of cards and leaves"
    if k == "lead":
        return f"Ходит {name()}" if ru else f"{name()} leads"
    if k == "game_over":
        loser = d.get("loser_name") or "—"
        return (f"Партия {d['game']} окончена, проигравший — {loser}" if ru else f"Game {d['game']} over: {loser} loses")
    if k == "match_over":
        return ""  # told by the last game's line and the result
    if k == "round_void":
        back = sum(r["count"] for r in d.get("returned", []))
        return (f"Раунд аннулирован: карты со стопки вернулись владельцам ({back}); ходит {name('lead')}" if ru
                else f"Round void: the pile's cards went back to their owners ({back}); {name('lead')} leads")
    return None


def describe_standings(view: dict, seats, lang: str = "ru") -> str | None:
    """The standing of a game in words from its *public* view (``game.view(None)``): the cards
    each player still holds, fewest first («меньше — лучше»), and the game of the match — or,
    once over, who lost. For the operator's «Завершить игру»."""
    ru = lang == "ru"
    result = view.get("result")
    if isinstance(result, dict):
        names = [r["name"] for r in view.get("seats") or []] or list(seats)
        return _result_words(result, names, ru)
    rows = sorted(view.get("seats") or [], key=lambda r: r.get("cards", 0))
    told = ", ".join(f"{r['name']} {r.get('cards', 0)}" for r in rows)
    game = f"партия {view.get('game_no')} из {view.get('games')}" if ru else f"game {view.get('game_no')} of {view.get('games')}"
    return (f"Карт на руках: {told}; {game}" if ru else f"Cards in hand: {told}; {game}")


def _result_words(result: dict, names: list[str], ru: bool) -> str:
    """The game-over words of a match: who lost (the last player left holding cards), the order
    in which the others got rid of their cards, and — over several games — each player's losses by
    name. Names stay in the nominative: «Игра окончена! Проигравший — Борис. Избавились от карт по
    порядку: Аня, Вика»."""
    loser = result.get("loser_name")
    winners = list(result.get("winners") or [])
    if ru:
        out = f"Игра окончена! Проигравший — {loser}" if loser else "Игра окончена! Проигравшего нет"
        if winners:
            out += f". Избавились от карт по порядку: {', '.join(winners)}"
    else:
        out = f"Game over! {loser} loses" if loser else "Game over! Nobody loses"
        if winners:
            out += f". Out of cards, in order: {', '.join(winners)}"
    losses = result.get("losses") or []
    if (result.get("games") or 1) > 1 and len(losses) == len(names):
        told = standings(list(zip(names, losses)))
        out += f". Проигрыши за матч: {told}" if ru else f". Losses in the match: {told}"
    return out


# ---------------------------------------------------------------------------- the page's view
_ANSWER_WORDS = {"believe": {"ru": "«Верю»", "en": "“I believe”"},
                 "doubt": {"ru": "«Не верю»", "en": "“I doubt it”"}}


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
        out["game_no"] = {"ru": f"{n} из {of}", "en": f"{n} of {of}"} if of else n
    pile = view.get("pile") or {}
    out["pile"] = {"claim": kind(pile.get("claim")),
                   "placements": [{"name": name(p["seat"]), "count": p["count"]} for p in pile.get("placements", [])],
                   "cards": pile.get("cards", 0)}
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
            end = {"ru": f"стопка ({pile_n}) в биту", "en": f"the pile ({pile_n}) is discarded"}
        else:
            end = {"ru": f"стопку ({pile_n}) забирает {name(taker)}", "en": f"{name(taker)} takes the pile ({pile_n})"}
        out["last_check"] = {
            "placer": check.get("placer"), "answerer": check.get("answerer"),
            "answer": _ANSWER_WORDS.get(check.get("answer")),
            "claim": {"ru": f"{n} × {claim['ru']}", "en": f"{n} × {claim['en']}"} if claim else None,
            "turned": {"ru": ", ".join(t["ru"] for t in turned), "en": ", ".join(t["en"] for t in turned)},
            "outcome": {"ru": ("правда" if check.get("true") else "неправда") + "; " + end["ru"],
                        "en": ("true" if check.get("true") else "false") + "; " + end["en"]},
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
#: This game's refusals in words: ``{code: (English, Russian)}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, tuple[str, str]] = {
    "player_out": ("That player has left the game.", "Этот игрок вышел из игры."),
    "bad_count": ("That is not a possible number of cards for one move.",
                  "Недопустимое число карт за один ход."),
    "impossible_cards": ("More cards of that kind than the deck holds.",
                         "Карт такого достоинства больше, чем есть в колоде."),
    "no_cards": ("A player without cards cannot add: believe or doubt.",
                 "Игрок без карт не может подкладывать — только «Верю» или «Не верю»."),
    "not_dealer": ("Only the dealer reports the deal.", "О раздаче сообщает только сдающий."),
    "not_enough_cards": ("The player holds fewer cards than that.", "У игрока меньше карт."),
    "reveal_count_mismatch": ("The reveal must list exactly the cards of the last move.",
                              "При вскрытии нужно указать ровно карты последнего хода."),
}

#: ``{code: words(facts, ru) -> sentence}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict, bool], str]] = {
    "bad_count": lambda f, ru: (f"За один ход кладут от 1 до {f['max']} {ru_plural(f['max'], 'карты', 'карт', 'карт')}."
                                if ru else f"One move lays 1 to {cards_count(f['max'], 'en')}."),
    "not_enough_cards": lambda f, ru: (f"{f['player']}: на руках только {cards_count(f['held'], 'ru')}." if ru
                                       else f"{f['player']} holds only {cards_count(f['held'], 'en')}."),
    "reveal_count_mismatch": lambda f, ru: (
        f"В последнем ходе {cards_count(f['expected'], 'ru')}: укажите ровно столько, а указано {f['given']}." if ru
        else f"The last move laid {cards_count(f['expected'], 'en')}: list exactly that many, not {f['given']}."),
    "impossible_cards": lambda f, ru: (
        f"Карт «{in_lang(f['kind'], True)}» в колоде всего {f['in_deck']}"
        + (f", и {f['discarded']} уже в бите." if f.get("discarded") else ".") if ru
        else f"The deck has only {f['in_deck']} «{in_lang(f['kind'], False)}» card(s)"
        + (f", and {f['discarded']} are already discarded." if f.get("discarded") else ".")),
    "not_dealer": lambda f, ru: (f"О раздаче сообщает сдающий — {f['player']}." if ru
                                 else f"The dealer, {f['player']}, reports the deal."),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns {"ru", "en"} or None.

def _waiting_reveal(seat, view, templates, seats):
    placements = (view.get("pile") or {}).get("placements") or []
    placer = seat_name(seats, placements[-1].get("seat")) if placements else None
    if placer is None:
        return waiting_pair(CAMERA, "карты последнего хода ещё не открыты", "the last move's cards are not turned up yet")
    if placer == seat_name(seats, seat):
        return waiting_pair(CAMERA, "ваши карты последнего хода ещё не открыты",
                     "your cards of the last move are not turned up yet")
    return waiting_pair(CAMERA, f"ещё не открыты карты последнего хода (ход: {placer})",
                 f"the last move's cards are not turned up yet ({placer}'s move)")


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"reveal": _waiting_reveal}


def _last_placer(view: dict):
    """The seat of the last placement in ``view``'s pile (the cards ``table reveal ?`` turns up)."""
    placements = (view.get("pile") or {}).get("placements") or []
    return placements[-1].get("seat") if placements and isinstance(placements[-1], dict) else None


class DoubtPresenter(PlainPresenter):
    """The words of ``doubt`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('round', 'game_over', 'out', 'void', 'checked')
    seat_keys = PlainPresenter.seat_keys + ('out_order', 'loser', 'answerer', 'placer', 'taker', 'next_dealer')
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(describe_event)
    standings = staticmethod(describe_standings)
    page = staticmethod(page_view)

    def whose(self, verb, view):
        return _last_placer(view) if verb == "reveal" else None


PRESENTER = DoubtPresenter()
