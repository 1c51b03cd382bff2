"""What the joker banking game (hoggenheimer) says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable

from fractions import Fraction

from companion.games.base import Event, seat_namer
from companion.games.spec import LegacyPresenter, PlainPresenter, bilingual
from companion.games.words import CAMERA_PAIR, card_label, cards_label, chips, chips_gen, names_and, ru_plural, seat_name, signed, standings, suit_name, waiting_pair
from companion.games.hoggenheimer.rules import JOKER, SHAPES, _targets, win_probability


# ---------------------------------------------------------------------------- words
_SUIT_ROW = {"ru": {"S": "пики", "H": "черви", "D": "бубны", "C": "трефы"},
             "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}}
"""A whole row of the layout, as the seed names bet (ж): «все бубны»."""
_RANK_COLUMN = {"ru": {"A": "тузы", "K": "короли", "Q": "дамы", "J": "валеты", "10": "десятки",
                       "9": "девятки", "8": "восьмёрки", "7": "семёрки"},
                "en": {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "10": "tens",
                       "9": "nines", "8": "eights", "7": "sevens"}}
"""A whole column of the layout, as the seed names bet (е): «все 10» — «все десятки»."""


def _card_word(code: str, lang: str) -> str:
    return ("джокер" if lang == "ru" else "the joker") if code == JOKER else card_label(code)


def bet_words(shape: str, cards, lang: str = "ru", after_on: bool = False) -> str:
    """A bet's target in words, as the seed's examples (а)–(ж) name them: ``"Q♥"``, «две
    соседние 7♠ 7♥», «квадрат 8♥ 9♥ 8♦ 9♦», «колонка — все десятки», «ряд — все бубны»
    (``after_on``: the Russian words after «на», «на колонку — все десятки»)."""
    cards = list(cards)
    ru = lang == "ru"
    if ru and after_on and shape == "column":
        return "колонку" + bet_words(shape, cards, lang)[len("колонка"):]
    if shape == "card":
        return card_label(cards[0])
    if shape == "pair":
        return ("две соседние " if ru else "two touching cards ") + cards_label(cards, " ")
    if shape == "square":
        return ("квадрат " if ru else "the square ") + cards_label(cards, " ")
    if shape == "column":
        rank = cards[0][:-1]
        return ("колонка — все " if ru else "the column — all ") + _RANK_COLUMN["ru" if ru else "en"][rank]
    if shape == "row":
        suit = cards[0][-1]
        return ("ряд — все " if ru else "the row — all ") + _SUIT_ROW["ru" if ru else "en"][suit]
    return cards_label(cards, " ")


def bet_label(bet: dict, lang: str = "ru", number: bool = True) -> str:
    """A bet in words as the history tells it: what and how much — «5 на Q♥ (ставка №3)», «2 на
    ряд — все бубны (ставка №4)» / ``"5 on Q♥ (bet no. 3)"``; ``number=False`` leaves the number
    out. ``bet``: a bet of the view or an event (``id``, ``shape``, ``cards``, ``stake``)."""
    ru = lang == "ru"
    target = bet_words(bet["shape"], bet["cards"], "ru" if ru else "en", after_on=True)
    text = f"{bet['stake']} {'на' if ru else 'on'} {target}"
    if number:
        text += f" (ставка №{bet['id']})" if ru else f" (bet no. {bet['id']})"
    return text


def choice_label(field: str, value, view: dict, seats, lang: str = "ru") -> str | None:
    """Words for an action's choice made by id (a ``Choice`` field): the open bet ``value`` of a
    ``withdraw`` as :func:`bet_label` words it, found in ``view`` (the viewer's own view, so
    nothing the page does not show); ``None`` for another field or an unknown bet."""
    if field != "bet_id":
        return None
    for b in view.get("bets") or []:
        if b.get("id") == value:
            return bet_label(b, lang)
    return None


def describe_event(event: Event, seats, lang: str = "ru") -> str | None:
    """One line of words for a public event of the joker game (the dashboard's history and the
    console of ``companion run``); ``None`` for a private event or an unknown kind.

    Every event of this game is public: the engine never knows a face-down card (the camera reports
    each card as it is turned), so a line names only a turned card or a bet's target.

    Args:
        event: an event returned by :meth:`HoggenheimerGame.apply`.
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
    if k == "bet":
        target = bet_words(d["shape"], d["cards"], L, after_on=True)
        target = ("на " if ru else "on ") + target
        return (f"{name()} ставит {d['stake']} {target} (ставка №{d['id']}, {d['k']}:1)" if ru
                else f"{name()} bets {d['stake']} {target} (bet no. {d['id']}, pays {d['k']}:1)")
    if k == "bet_withdrawn":
        what = f" ({bet_label(d, L, number=False)})" if "stake" in d and "shape" in d else ""
        return (f"{name()} снимает ставку №{d['id']}{what}" if ru else f"{name()} takes back bet no. {d['id']}{what}")
    if k == "bets_closed":
        n = d["bets"]
        if ru:
            told = (f"ставок {n}, наибольшая выплата банка — {chips(d['exposure'], L)}" if n else "ставок нет")
            return f"Банкомет {name('banker')}: ставки сделаны, ставок больше нет ({told}). Вскрывается 33-я карта"
        told = f"{n} bet(s), the bank pays at most {chips(d['exposure'], L)}" if n else "no bets"
        return f"{name('banker')} (the banker) closes the bets ({told}). The 33rd card is turned"
    if k == "card_turned":
        card = _card_word(d["card"], L)
        if d.get("turned") == 1:
            return (f"33-я карта: {card} — на своё место" if ru else f"The 33rd card: {card} — onto its place")
        return (f"Открыта {card} — на своё место (открыто карт: {d['turned']})" if ru
                else f"Turned: {card} — onto its place ({d['turned']} turned)")
    if k == "joker":
        if d.get("joker_first"):
            return "Джокер — первой же картой!" if ru else "The joker comes first!"
        return (f"Джокер! До него открыто карт: {d['turned']}" if ru
                else f"The joker! {d['turned']} card(s) turned before it")
    if k == "settled":
        return _settled_words(d, seats, L)
    if k == "new_deal":
        return (f"Сдача {d['deal']}: банкомет {name('banker')}, делайте ставки" if ru
                else f"Deal {d['deal']}: {name('banker')} holds the bank; place your bets")
    if k == "deal_void":
        n = len(d.get("returned", []))
        if ru:
            back = (f"{ru_plural(n, 'возвращена', 'возвращены', 'возвращено')} {n} "
                    f"{ru_plural(n, 'ставка', 'ставки', 'ставок')}" if n else "ставок не было")
            return f"Сдача аннулирована: {back}; банкомет {name('banker')} сдаёт заново"
        back = f"{n} stake{'' if n == 1 else 's'} returned" if n else "there were no bets"
        return f"Deal void: {back}; {name('banker')} deals again"
    if k == "game_over":
        return _game_over_words(d, L)
    return None


def _settled_words(d: dict, seats, lang: str) -> str:
    ru = lang == "ru"
    banker = seats[d["banker"]]
    net: dict[int, int] = {}
    for b in d.get("bets", []):
        net[b["seat"]] = net.get(b["seat"], 0) + b["net"]
    head = f"Расчёт сдачи {d['deal']}" if ru else f"Deal {d['deal']} settled"
    if not net:
        body = "ставок не было" if ru else "there were no bets"
    elif d.get("joker_first"):
        taken = sum(b["stake"] for b in d["bets"])
        body = (f"банкомет {banker} забирает все ставки: {chips(taken, lang)}" if ru
                else f"{banker} (the banker) takes every stake: {chips(taken, lang)}")
    else:
        players = standings([(seats[s], v) for s, v in net.items()], signed)
        body = (f"{players}; банкомет {banker} {signed(d['banker_net'])}" if ru
                else f"{players}; {banker} (the banker) {signed(d['banker_net'])}")
    tail = ""
    if not d.get("counted", True):
        tail = (f"; сдача не в счёт — {banker} сдаёт снова" if ru
                else f"; the deal does not count — {banker} deals again")
    return f"{head}: {body}{tail}"


def _game_over_words(result: dict, lang: str) -> str:
    """The history's last line: the winner(s) by chips, then everyone's chips and net."""
    ru = lang == "ru"
    balances = result.get("balances") or {}
    net = result.get("net") or {}
    winners = list(result.get("winners") or [])
    best = max(balances.values()) if balances else 0
    if len(winners) == 1:
        head = (f"Игра окончена! Победитель — {winners[0]}: {chips(best, lang)}" if ru
                else f"Game over! The winner is {winners[0]}: {chips(best, lang)}")
    else:
        head = (f"Игра окончена! Больше всех фишек ({best}) поровну: {names_and(winners, lang)}" if ru
                else f"Game over! {names_and(winners, lang)} share the most chips ({best})")
    table = ", ".join(f"{n} {balances[n]} ({signed(net.get(n, 0))})"
                      for n in sorted(balances, key=lambda n: -balances[n]))
    return f"{head}. {'Итог' if ru else 'Standings'}: {table}"


def describe_standings(view: dict, seats, lang: str = "ru") -> str | None:
    """The standing of a game in words from its *public* view (``game.view(None)``): each seat's
    chips (with chips still staked on the layout of an unfinished deal), and the deal reached —
    «Фишки: Аня 130, Вика 95 (+5 на столе), Борис 75; сдача 3 из 6»; once over, the history's last
    line (the winner and everyone's chips). For the operator's «Завершить игру» (the public page
    and console say how the game stood when it was ended)."""
    if isinstance(view.get("result"), dict):  # over: the history's last line
        return _game_over_words(view["result"], "ru" if lang == "ru" else "en")
    ru = lang == "ru"
    rows = view.get("seats") or []
    if not rows:
        return None
    order = sorted(rows, key=lambda r: -(r["chips"] + r.get("staked", 0)))
    parts = []
    for r in order:
        staked = r.get("staked", 0)
        extra = (f" (+{staked} на столе)" if ru else f" (+{staked} on the layout)") if staked else ""
        parts.append(f"{r['name']} {r['chips']}{extra}")
    deal = (f"сдача {view['deal']} из {view['deals_total']}" if ru
            else f"deal {view['deal']} of {view['deals_total']}")
    return f"{'Фишки' if ru else 'Chips'}: {', '.join(parts)}; {deal}"


# ---------------------------------------------------------------------------- the page's view
def _chance(p: Fraction) -> dict:
    """A bet's chance in words: ``1/3`` → ``{"ru": "1 из 3 (33 %)", "en": "1 in 3 (33%)"}``."""
    pct = round(100 * p.numerator / p.denominator)
    return {"ru": f"{p.numerator} из {p.denominator} ({pct}\u00a0%)", "en": f"{p.numerator} in {p.denominator} ({pct}%)"}


def bet_targets() -> dict[str, dict]:
    """Every bet target of the layout in words, for the seat page's bet grid: ``{code: {"shape",
    "payout", "text": {"ru", "en"}}}`` keyed by the target's cards as a ``bet`` action writes them
    (layout order, comma-separated: ``"QH"``, ``"7S,7H"``, ``"8H,9H,8D,9D"``, ``"AS,AH,AD,AC"``),
    ``text`` being :func:`bet_words` («две соседние 7♠ 7♥», «ряд — все бубны»). All 117 targets of
    :func:`all_bet_targets`, whatever the bank covers now: the page finds the target a selection of
    cards makes here and the legal action for it among the seat's actions. Static (the same
    public facts for every seat): worded once, a fresh dict on every call."""
    global _TARGET_WORDS
    if _TARGET_WORDS is None:
        _TARGET_WORDS = [(",".join(cards), shape, f"{SHAPES[shape]}:1", bet_words(shape, cards, "ru"),
                          bet_words(shape, cards, "en")) for shape, cards in _targets()]
    return {code: {"shape": shape, "payout": payout, "text": {"ru": ru, "en": en}}
            for code, shape, payout, ru, en in _TARGET_WORDS}


_TARGET_WORDS: list[tuple[str, str, str, str, str]] | None = None


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
        out["deal"] = {"ru": f"{view['deal']} из {view['deals_total']}", "en": f"{view['deal']} of {view['deals_total']}"}
    out["seats"] = []
    for r in rows:
        row = {"seat": r["seat"], "name": r["name"], "chips": r.get("chips")}
        if r.get("banker"):
            row["role"] = {"ru": "банкомет", "en": "banker"}
        if r.get("staked"):
            row["staked"] = r["staked"]
        out["seats"].append(row)
    if isinstance(view.get("you"), dict):  # a seat's page: its bet grid words the target tapped
        out["targets"] = bet_targets()
    out["chain"] = [card_label(c) if c != JOKER else {"ru": "джокер", "en": "joker"} for c in view.get("chain") or []]
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

def _bank_exposure(f: dict, ru: bool) -> str:
    most, minimum = f["most"], f.get("min_stake", 1)
    if most >= minimum:
        return (f"Банк не покроет такую выплату: на эту ставку сейчас можно поставить не больше "
                f"{chips_gen(most)}." if ru
                else f"The bank cannot cover that payout: at most {chips(most, 'en')} on this bet now.")
    return (f"Банк уже не покроет ставку на эту цель: у банкомета {chips(f['banker_chips'], 'ru')}, "
            f"а возможная выплата по ставкам уже {f['exposure']}." if ru
            else f"The bank cannot cover a bet on this target any more: the banker has "
                 f"{chips(f['banker_chips'], 'en')} and may already owe {f['exposure']}.")


#: This game's refusals in words: ``{code: (English, Russian)}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, tuple[str, str]] = {
    "bad_bet_shape": ("A bet is a card, two touching cards, a 2×2 square, a column or a row.",
                      "Ставка — на карту, две соседние карты, квадрат 2×2, колонка или ряд."),
    "bad_slot": ("There is no such place on the layout.", "На раскладке нет такого места."),
    "bank_exposure": ("The bank cannot cover this bet's payout on top of the others.",
                      "Банк не покроет выплату по этой ставке вместе с остальными."),
    "banker_cannot_bet": ("The banker does not bet against his own bank.",
                          "Банкомет не ставит против своего банка."),
    "card_already_turned": ("That card is already face up.", "Эта карта уже открыта."),
    "insufficient_chips": ("The player has fewer chips than the stake.", "У игрока меньше фишек, чем ставка."),
    "joker_has_no_slot": ("The joker ends the deal; it is not put on the layout.",
                          "Джокер заканчивает раздачу и на раскладку не кладётся."),
    "no_such_bet": ("There is no open bet with that number.", "Открытой ставки с таким номером нет."),
    "not_banker": ("Only the banker closes the bets.", "Ставки закрывает только банкомет."),
    "not_your_bet": ("That bet belongs to another player.", "Это ставка другого игрока."),
    "slot_missing": ("Say on which place the card was put.", "Укажите, на какое место положена карта."),
    "stake_above_max": ("The stake is above the table maximum.", "Ставка больше максимальной."),
    "stake_below_min": ("The stake is below the table minimum.", "Ставка меньше минимальной."),
    "wrong_slot": ("The card was put on another card's place.", "Карта положена на место другой карты."),
}

#: ``{code: words(facts, ru) -> sentence}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict, bool], str]] = {
    "stake_below_min": lambda f, ru: (f"Ставка меньше минимальной: не меньше {chips_gen(f['min_stake'])}."
                                      if ru else f"The stake is below the table minimum of {chips(f['min_stake'], 'en')}."),
    "stake_above_max": lambda f, ru: (f"Ставка больше максимальной: не больше {chips_gen(f['max_stake'])}."
                                      if ru else f"The stake is above the table maximum of {chips(f['max_stake'], 'en')}."),
    "insufficient_chips": lambda f, ru: (f"{f['player']}: {chips(f['chips'], 'ru')} — меньше ставки {f['stake']}."
                                         if ru else f"{f['player']} has {chips(f['chips'], 'en')}, less than the stake of {f['stake']}."),
    "bank_exposure": _bank_exposure,
    "no_such_bet": lambda f, ru: (f"Открытой ставки №{f['bet']} нет." if ru else f"There is no open bet no. {f['bet']}."),
    "not_your_bet": lambda f, ru: (f"Ставка №{f['bet']} принадлежит другому игроку — {f['player']}." if ru
                                   else f"Bet no. {f['bet']} is {f['player']}'s."),
    "not_banker": lambda f, ru: (f"Ставки закрывает только банкомет — {f['player']}." if ru
                                 else f"Only the banker, {f['player']}, closes the bets."),
    "wrong_slot": lambda f, ru: (f"{card_label(f['card'])} положена на место {card_label(f['slot'])}; её место — "
                                 f"ряд {suit_name(f['card'], True)}, колонка {f['card'][:-1]}." if ru
                                 else f"{card_label(f['card'])} was put on {card_label(f['slot'])}'s place; its place is "
                                      f"the {suit_name(f['card'], False)} row, column {f['card'][:-1]}."),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns {"ru", "en"} or None.

def _waiting_turn(seat, view, templates, seats):
    banker = view.get("banker")
    if banker == seat:
        return {"ru": "Ваш ход: открывайте карты раскладки — камера их читает (или вводит оператор)",
                "en": "Your move: turn the layout's cards — the camera reads them (or the operator enters them)"}
    name = seat_name(seats, banker)
    return waiting_pair(CAMERA_PAIR, f"банкомет {name} открывает карты раскладки" if name else "открываются карты раскладки",
                 f"the banker, {name}, is turning the layout's cards" if name else "the layout's cards are being turned")


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"turn": _waiting_turn}


class HoggenheimerPresenter(LegacyPresenter):
    """The words of ``hoggenheimer`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('game_over', 'settled', 'void')
    widgets = ("joker_layout", "bet_grid")
    seat_keys = PlainPresenter.seat_keys + ('banker',)
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(bilingual(describe_event))
    standings = staticmethod(bilingual(describe_standings))
    page = staticmethod(page_view)
    choice_label = staticmethod(bilingual(choice_label))


PRESENTER = HoggenheimerPresenter()
