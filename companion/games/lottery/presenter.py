"""What the card lottery (lottery) says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable

from companion.games.base import Event, seat_namer
from companion.games.spec import LegacyPresenter, PlainPresenter, bilingual
from companion.games.words import CAMERA_PAIR, card_label, cards_count, cards_label, chips, names_and, ru_plural, seat_args, seat_name, signed, standings, suit_name, waiting_pair


REASONS_RU = {
    "bad_seats": "Нужно не меньше двух игроков с картами, а банкир и сдающий — места за этим столом: "
                 "по умолчанию банкир и сдающий карт не получают, поэтому нужно не меньше 4 мест "
                 "(или включите «Банкир и сдающий тоже играют»).",
}
"""Russian sentences for the codes whose meaning is particular to the lottery (the dashboard's
``companion/dashboard/reasons.py`` covers the rest)."""




# ---------------------------------------------------------------------- words
def _amounts(values) -> str:
    return ", ".join("—" if v is None else str(v) for v in values)


def describe_event(event: Event, seats, lang: str = "ru") -> str | None:
    """One line of words for a public event of the card lottery (the dashboard's history and the
    console of ``companion run``); ``None`` for a private event or an unknown kind.

    Players' cards are dealt face up (seed ¶6 «Они их открывают») and the cards left lie face up
    beside them (¶8), so a line may name them; a prize card is named only once it is turned — the
    engine never knows a face-down prize.

    Args:
        event: an event returned by :meth:`LotteryGame.apply`.
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
    if k == "spread":
        total = sum(d["amounts"])
        return (f"Банкир раскладывает {chips(total, L, acc=True)}: на призах {_amounts(d['prizes'])}" if ru
                else f"The banker spreads {chips(total, L)}: the prizes hold {_amounts(d['prizes'])}")
    if k == "deal":
        counts = {int(s): n for s, n in d["cards"].items()}
        if not d.get("short"):
            n = next(iter(counts.values()), 3)
            return (f"Тираж {d['draw']}: сдающий сдаёт по {cards_count(n, L)}" if ru
                    else f"Draw {d['draw']}: the dealer deals {cards_count(n, L)} each")
        told = ", ".join(f"{seats[s]} {n}" for s, n in counts.items() if n)
        return (f"Тираж {d['draw']}, последняя неполная сдача: {told}" if ru
                else f"Draw {d['draw']}, the last short deal: {told}")
    if k == "cards_read":
        if not d["cards"]:
            return f"{name()}: карт нет" if ru else f"{name()}: no cards"
        return (f"{name()} получает: {cards_label(d['cards'])}" if ru
                else f"{name()} is dealt {cards_label(d['cards'])}")
    if k == "prize_turned":
        return (f"Банкир открывает приз №{d['slot'] + 1}: {card_label(d['card'])} — {chips(d['chips'], L)}" if ru
                else f"The banker turns prize no. {d['slot'] + 1}: {card_label(d['card'])} — {chips(d['chips'], L)}")
    if k == "prize_won":
        return (f"Совпадение! {name()} выигрывает приз {card_label(d['card'])}: {chips(d['chips'], L)}" if ru
                else f"A match! {name()} wins the prize {card_label(d['card'])}: {chips(d['chips'], L)}")
    if k == "stake_paid":  # the count is of the cards that won nothing, said in words (seed ¶9)
        n = d["cards"]
        return (f"{name()} платит {chips(d['chips'], L, acc=True)} за {n} {ru_plural(n, 'карту', 'карты', 'карт')} "
                f"без выигрыша" if ru
                else f"{name()} pays {chips(d['chips'], L)} for {n} card{'' if n == 1 else 's'} that won nothing")
    if k == "prize_replaced":
        return (f"Банкир кладёт новый приз №{d['slot'] + 1} рубашкой вверх" if ru
                else f"The banker lays a new prize no. {d['slot'] + 1} face down")
    if k == "prizes_to_box":
        if ru:
            go = ru_plural(d["chips"], "идёт", "идут", "идут")
            moved = f"{chips(d['chips'], L)} с призов и ставок {go} в кассу; " if d["chips"] else ""
            return f"Колода сдающего кончилась: {moved}в кассе {d['box']}"
        go = "goes" if d["chips"] == 1 else "go"
        moved = f"{chips(d['chips'], L)} from the prizes and stakes {go} to the box; " if d["chips"] else ""
        return f"The dealer's deck is used up: {moved}the box holds {d['box']}"
    if k == "playoff":
        if ru:
            how = ("первый способ: покрыть или взять" if d["variant"] == 1
                   else "второй способ: взятки, масти ♥ ♣ ♦ ♠")
            return f"Розыгрыш оставшихся карт ({how}): ходит {name('leader')}"
        how = "way 1: cover or take" if d["variant"] == 1 else "way 2: tricks, suits ♥ ♣ ♦ ♠"
        return f"Play-off of the cards left ({how}): {name('leader')} leads"
    if k == "led":
        return (f"{name()} ходит {card_label(d['card'])}; кроет или берёт {name('to')}" if ru
                else f"{name()} leads {card_label(d['card'])} to {name('to')}")
    if k == "covered":
        return (f"{name()} кроет {card_label(d['led'])} картой {card_label(d['card'])} — обе уходят из игры" if ru
                else f"{name()} covers {card_label(d['led'])} with {card_label(d['card'])} — both leave play")
    if k == "taken":
        return f"{name()} берёт {card_label(d['card'])}" if ru else f"{name()} takes {card_label(d['card'])}"
    if k == "played":
        return f"{name()} кладёт {card_label(d['card'])}" if ru else f"{name()} plays {card_label(d['card'])}"
    if k == "trick_taken":
        return (f"{name()} берёт взятку: {cards_label(d['cards'])}" if ru
                else f"{name()} takes the trick: {cards_label(d['cards'])}")
    if k == "fine_paid":
        return (f"{name()} платит штраф {chips(d['chips'], L, acc=True)} за карты на руках: {cards_label(d['cards'])}" if ru
                else f"{name()} pays a fine of {chips(d['chips'], L)} for the cards left: {cards_label(d['cards'])}")
    if k == "voided":
        if d.get("what") == "playoff":
            return ("Розыгрыш оставшихся карт аннулирован: карты вернулись, играем его заново" if ru
                    else "The play-off is void: the cards went back, it is played again")
        return (f"Тираж {d['draw']} аннулирован: всё как было до сдачи" if ru
                else f"Draw {d['draw']} void: everything is as before the deal")
    if k == "game_over":
        return _game_over_words(d, seats, L)
    return None


def _game_over_words(result: dict, seats, lang: str) -> str:
    """The history's last line: the best net result among the card-holding players, everyone's
    net chips, and the box that carries over (RULINGS §5)."""
    ru = lang == "ru"
    net = result.get("net") or {}
    players = [n for n in (result.get("stakes_paid") or net)]  # card-holding players, by name
    winners = [seats[i] if isinstance(i, int) and 0 <= i < len(seats) else str(i)
               for i in (result.get("winners") or [])]
    best = max((net[n] for n in players), default=0)
    if len(winners) == 1:
        head = (f"Игра окончена! Лучший итог — {winners[0]}: {signed(best)}" if ru
                else f"Game over! Best result: {winners[0]}, {signed(best)}")
    else:
        head = (f"Игра окончена! Лучший итог ({signed(best)}) поровну: {names_and(winners, lang)}" if ru
                else f"Game over! {names_and(winners, lang)} share the best result ({signed(best)})")
    table = standings([(n, net[n]) for n in players], signed)
    # the banker and the dealer hold no cards (by default) but win or lose chips all the same
    roles = {"banker": ("банкир", "banker"), "dealer": ("сдающий", "dealer")}
    told = [f"{ru_word if ru else en_word} {result[role]} {signed(net[result[role]])}"
            for role, (ru_word, en_word) in roles.items()
            if result.get(role) and result[role] not in players and result[role] in net]
    if told:
        table += "; " + ", ".join(told)
    box = (f"; в кассе {result.get('box', 0)} — касса переходит в следующую игру" if ru
           else f"; the box holds {result.get('box', 0)} and carries over to the next game")
    return f"{head}. {'Итог' if ru else 'Standings'}: {table}{box}"


def describe_standings(view: dict, seats, lang: str = "ru") -> str | None:
    """The standing of a game in words from its *public* view (``game.view(None)``): each
    card-holding player's chips, the box and the chips lying on the prizes — «Фишки: Аня 31,
    Борис 24; в кассе 6, на призах 14; тираж 3»; once over, the history's last line. For the
    operator's «Завершить игру»."""
    names = list(view.get("seats") or seats)
    if isinstance(view.get("result"), dict):  # over: the history's last line
        return _game_over_words(view["result"], names, "ru" if lang == "ru" else "en")
    ru = lang == "ru"
    balances = view.get("balances") or []
    players = view.get("players") or range(len(balances))
    told = standings([(names[p], balances[p]) for p in players])
    on_prizes = sum(p["chips"] for p in (view.get("prizes") or []) if p)
    extra = view.get("stakes", 0)
    if ru:
        out = f"Фишки: {told}; в кассе {view.get('box', 0)}, на призах {on_prizes}"
        out += f", ставки к раскладке {extra}" if extra else ""
        return out + f"; тираж {view.get('draw')}"
    out = f"Chips: {told}; the box holds {view.get('box', 0)}, the prizes {on_prizes}"
    out += f", stakes to spread {extra}" if extra else ""
    return out + f"; draw {view.get('draw')}"


# ---------------------------------------------------------------------- the page's view
_PLAYOFF_WAY = {1: {"ru": "покрыть или взять", "en": "cover or take"},
                2: {"ru": "взятки, масти ♥ ♣ ♦ ♠", "en": "tricks, suits ♥ ♣ ♦ ♠"}}
_FACE_DOWN = {"ru": "рубашкой вверх", "en": "face down"}


def page_view(view: dict, seats) -> dict:
    """The dashboard's view of the lottery (``companion.dashboard.model.page_view``), made from
    ``view`` (:meth:`LotteryGame.view`) alone: each player's chips and cards of this draw on the
    seat cards (``seats``: ``[{"seat", "name", "chips", "role"?, "cards"?}]``); prizes numbered
    from 1 as people count them (``prize``; the engine's ``slot`` counts from 0); players by name
    instead of seat indexes; card codes with their suit signs («8♥»); no balances list, no empty
    ``expect``, no seat number as ``you`` (the lottery has nothing private). The game-over box
    has its own words (``describe_standings``)."""
    names = list(view.get("seats") or seats)

    def name(i) -> str:
        i = int(i)
        return names[i] if 0 <= i < len(names) else str(i)

    def labels(cards) -> list[str]:
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
            row["role"] = {"ru": "банкир", "en": "banker"}
        if str(i) in current:
            row["cards"] = ", ".join(labels(current[str(i)])) or "—"
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

def _bad_spread(f: dict, ru: bool) -> str:
    if "empty" in f:  # chips on a place with no prize (numbered from 1, as on screen)
        places = ", ".join(str(x) for x in f["empty"])
        return (f"На месте {places} нет приза — оставьте там 0." if ru
                else f"There is no prize in place {places}: leave 0 there.")
    if f.get("negative"):  # a number, but below zero: named as such, not as "not numbers"
        value = str(f["negative"][0]).replace("-", "\u2212")
        return (f"Раскладка: сумма не может быть отрицательной ({value}) — каждая 0 или больше." if ru
                else f"The spread: an amount cannot be negative ({value}); each is 0 or more.")
    n = f["slots"]
    return (f"Раскладка: {n} {ru_plural(n, 'сумма', 'суммы', 'сумм')} по порядку мест призов, "
            f"каждая 0 или больше." if ru
            else f"The spread is {n} amounts, one per prize place in order, each 0 or more.")


#: This game's refusals in words: ``{code: (English, Russian)}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, tuple[str, str]] = {
    "already_read": ("That player's cards for this deal are already read.",
                     "Карты этого игрока в этой раздаче уже распознаны."),
    "amounts_must_differ": ("Two prizes would carry the same amount: make every amount different.",
                            "Два приза с одинаковой суммой — суммы должны различаться."),
    "bad_spread": ("The spread needs one non-negative amount per prize place.",
                   "Раскладка: по одной неотрицательной сумме на каждое место приза."),
    "cannot_cover": ("A cover must be a higher card of the same suit.",
                     "Покрыть можно только старшей картой той же масти."),
    "card_already_dealt": ("That card has already been dealt.", "Эта карта уже роздана."),
    "duplicate_card": ("The same card is typed twice in this entry: each card is entered once.",
                       "Одна и та же карта введена в этой записи дважды: каждую карту вводят один раз."),
    "cards_not_read": ("The prizes are turned once every player's cards are read.",
                       "Призы открывают, когда карты всех игроков распознаны."),
    "must_follow_suit": ("A player holding the led suit must play it.", "Есть карта этой масти — нужно ходить в масть."),
    "must_lead_lowest_of_highest_suit": ("The first lead is the lowest card of the leader's highest suit.",
                                         "Первый ход — младшей картой старшей масти."),
    "no_such_slot": ("There is no face-down prize in that place.", "На этом месте нет закрытого приза."),
    "not_a_player": ("That seat holds no cards in this game (banker or dealer).",
                     "У этого места нет карт в игре (банкир или сдающий)."),
    "not_in_hand": ("The player does not hold that card.", "У игрока нет такой карты."),
    "nothing_to_cover": ("No card has been led to this player.", "Этому игроку нечего покрывать."),
    "prize_already_drawn": ("That card has already been laid as a prize.", "Эта карта уже выложена призом."),
    "prize_empty": ("The first spread must put at least one chip on every prize.",
                    "В первой раскладке на каждом призе должна быть хотя бы одна фишка."),
    "wrong_total": ("The spread does not add up to the chips to be spread.",
                    "Сумма раскладки не равна числу фишек для раскладки."),
}

#: ``{code: words(facts, ru) -> sentence}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict, bool], str]] = {
    "bad_spread": _bad_spread,
    "wrong_total": lambda f, ru: (f"Раскладка даёт {f['total']}, а разложить нужно {chips(f['pool'], 'ru', acc=True)}." if ru
                                  else f"The spread adds up to {f['total']}; {chips(f['pool'], 'en')} are to be spread."),
    "amounts_must_differ": lambda f, ru: (
        f"Призы получились бы {', '.join(str(x) for x in f['prizes'])} — суммы должны различаться." if ru
        else f"The prizes would carry {', '.join(str(x) for x in f['prizes'])}: make every amount different."),
    "must_follow_suit": lambda f, ru: (f"Есть карта масти {suit_name(f['suit'], True)} — нужно ходить в масть." if ru
                                       else f"A {suit_name(f['suit'], False)} card is in hand: follow suit."),
    "must_lead_lowest_of_highest_suit": lambda f, ru: (
        f"Первый ход — {card_label(f['card'])}: младшая карта старшей масти." if ru
        else f"The first lead is {card_label(f['card'])}: the lowest card of the highest suit."),
    "cannot_cover": lambda f, ru: (
        f"{card_label(f['card'])} не кроет {card_label(f['attack'])}: нужна старшая карта масти "
        f"{suit_name(f['attack'], True)}." if ru
        else f"{card_label(f['card'])} does not cover {card_label(f['attack'])}: a higher "
             f"{suit_name(f['attack'], False)} card is needed."),
    "not_in_hand": lambda f, ru: (f"{f['player']}: карты {card_label(f['card'])} на руках нет." if ru
                                  else f"{f['player']} does not hold {card_label(f['card'])}."),
    "card_already_dealt": lambda f, ru: (f"{card_label(f['card'])} уже роздана в этой колоде." if ru
                                         else f"{card_label(f['card'])} of this deck is already dealt."),
    "duplicate_card": lambda f, ru: (f"{card_label(f['card'])} введена в этой записи дважды: каждую карту вводят один раз." if ru
                                     else f"{card_label(f['card'])} is typed twice in this entry: each card is entered once."),
    "prize_already_drawn": lambda f, ru: (f"{card_label(f['card'])} уже выложена призом." if ru
                                          else f"{card_label(f['card'])} has already been laid as a prize."),
    "already_read": lambda f, ru: (f"{f['player']}: карты этой раздачи уже распознаны." if ru
                                   else f"{f['player']}'s cards for this deal are already read."),
    "not_a_player": lambda f, ru: (f"{f['player']}: у этого места нет карт в игре (банкир или сдающий)." if ru
                                   else f"{f['player']} holds no cards in this game (banker or dealer)."),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns {"ru", "en"} or None.

def _waiting_cards(seat, view, templates, seats):
    missing = seat_args(templates)
    if seat in missing and len(missing) == 1:
        return waiting_pair(CAMERA_PAIR, "ваши карты ещё не прочитаны", "your cards are not read yet")
    names = [seats[i] for i in missing if seat_name(seats, i)]
    return waiting_pair(CAMERA_PAIR, f"ещё не прочитаны карты — {names_and(names, 'ru')}",
                 f"cards not read yet — {names_and(names, 'en')}")


def _waiting_prize(seat, view, templates, seats):
    banker = view.get("banker")
    if banker == seat:
        return {"ru": "Ваш ход: открывайте призы — камера их читает (или вводит оператор)",
                "en": "Your move: turn the prizes up — the camera reads them (or the operator enters them)"}
    name = seat_name(seats, banker)
    return waiting_pair(CAMERA_PAIR, f"банкир {name} открывает призы" if name else "открываются призы",
                 f"the banker, {name}, is turning the prizes up" if name else "the prizes are being turned up")


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"cards": _waiting_cards, "prize": _waiting_prize}


class LotteryPresenter(LegacyPresenter):
    """The words of ``lottery`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('game_over', 'playoff', 'void', 'prize_won')
    seat_keys = PlainPresenter.seat_keys + ('banker', 'leader', 'last_winner', 'defender', 'to')
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(bilingual(describe_event))
    standings = staticmethod(bilingual(describe_standings))
    page = staticmethod(page_view)

    def own_refusal(self, reason, lang, options=None):
        return REASONS_RU.get(reason) if lang == "ru" else None


PRESENTER = LotteryPresenter()
