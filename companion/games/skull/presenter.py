"""What skull says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable, Sequence

from companion.games.base import Event, seat_namer
from companion.games.spec import LegacyPresenter, PlainPresenter, bilingual
from companion.games.words import CAMERA_PAIR, names_and, notes_n, OPERATOR_PAIR, ru_plural, seat_args, seat_name, waiting_pair
from companion.games.skull.rules import ROSE, SERIAL_SHAPES, SKULL, SkullOptions


def reason_message(reason: str, lang: str, options: "SkullOptions | None" = None) -> str | None:
    """The sentence for a reason code in ``lang`` (``"ru"`` or ``"en"``) with the table's facts
    filled in (the expected serial shape of the table's currency for ``serial_format``, the set's
    composition for ``wrong_note_count`` / ``wrong_skull_count``), else ``None`` (then the plain
    :mod:`companion.dashboard.reasons` sentence applies)."""
    currency = getattr(options, "currency", None)
    if reason == "serial_format" and currency in SERIAL_SHAPES:
        en, ru, example = SERIAL_SHAPES[currency]
        if lang == "ru":
            return f"Номер купюры не подходит к формату {currency}: нужно {ru}, например {example}."
        return f"The serial does not fit the {currency} format: {en}, e.g. {example}."
    if options is not None and reason == "wrong_note_count":
        n = options.notes_per_player
        if lang == "ru":
            return f"Неверное число купюр у игрока: каждый регистрирует {n}."
        return f"A player's set has the wrong number of notes: each player registers {n}."
    if options is not None and reason == "wrong_skull_count":
        k, n = options.skulls_per_player, options.notes_per_player
        if lang == "ru":
            return f"Неверное число «черепов» у игрока: нужно {k} из {n} купюр."
        return f"A player's set has the wrong number of skulls: {k} of {n} notes."
    return None




# ---------------------------------------------------------------------------- words
_ROLE_WORD = {"ru": {ROSE: "роза", SKULL: "череп"}, "en": {ROSE: "rose", SKULL: "skull"}}


#: The ``why`` codes of ``foreign_note`` and ``round_void`` events in words: ``{code: (ru, en)}``.
#: A ``table void`` (why ``operator``) is told without a reason: it may be the operator's button or
#: the simulated table's stand-in for it (``companion run --sim``), and the event cannot tell which.
_WHY_WORDS = {
    "other_owner": ("она зарегистрирована за другим игроком", "it is registered to another player"),
    "in_bank": ("она уже в банке", "it is already in the bank"),
    "last_opponent_left": ("ушёл последний соперник дилера", "the dealer's last opponent left"),
    "dealer_left": ("дилер ушёл из игры", "the dealer left"),
}


def describe_event(event: Event, seats: Sequence[str], lang: str = "ru") -> str | None:
    """One line of words for a public event (``None`` for a private event or an unknown kind,
    ``""`` for an event told by another line of the same action: the history leaves it out).

    Args:
        event: an event returned by :meth:`SkullGame.apply`.
        seats: the players' names by seat.
        lang: ``"ru"`` (default, the players' language) or ``"en"``.
    """
    if event.private_to is not None:
        return None
    d = event.data
    ru = lang == "ru"
    name = seat_namer(d, seats)

    k = event.kind
    role = _ROLE_WORD["ru" if ru else "en"]
    if k == "registered":
        r, sk = d["roses"], d["skulls"]
        return (f"{name()}: купюры зарегистрированы — роз {r}, черепов {sk}" if ru
                else f"{name()}: notes registered — {r} rose(s), {sk} skull(s)")
    if k == "dealer":
        return f"Первый дилер — {name()}" if ru else f"First dealer: {name()}"
    if k == "round_start":
        return (f"— Раунд {d['round']}, дилер {name('dealer')} —" if ru
                else f"— Round {d['round']}, dealer {name('dealer')} —")
    if k == "place":
        return (f"{name()} кладёт купюру номером вниз (в стопке {d['stack']})" if ru
                else f"{name()} puts a note face down ({d['stack']} in the stack)")
    if k == "stage2":
        return f"Этап 2: ходит {name('turn')}" if ru else f"Stage 2: {name('turn')} to play"
    if k in ("bid", "raise"):
        if ru:
            return f"{name()} {'ставит' if k == 'bid' else 'повышает до'} {d['bid']} и берёт баттон"
        return f"{name()} {'bids' if k == 'bid' else 'raises to'} {d['bid']} and takes the button"
    if k == "agree":
        return f"{name()}: согласие ({d['bid']})" if ru else f"{name()} agrees ({d['bid']})"
    if k == "pass":
        return f"{name()}: пас" if ru else f"{name()} passes"
    if k == "must_raise":
        return (f"Все согласились: баттон переходит — {name()}, ставку нужно повысить (больше {d['bid']})" if ru
                else f"Everybody agreed: {name()} takes the button and must raise above {d['bid']}")
    if k == "forced_pass":
        return (f"Все согласились, ставка максимальна: {name()} — пас" if ru
                else f"Everybody agreed at the maximum bid: {name()} passes")
    if k == "reveal_start":
        return (f"Вскрытие: дилер {name('dealer')}, нужно открыть роз: {d['bid']}" if ru
                else f"Reveal: {name('dealer')} must turn up {d['bid']} rose(s)")
    if k == "flip":
        # a name is never declined nor stacked after «игрока» («купюра игрока Игрок 4»): it
        # stands before a colon, whatever it is
        return (f"{name()}: открыта купюра {d['serial']} — {role[d['role']]}" if ru
                else f"{name()}'s note turned: {d['serial']} — {role[d['role']]}")
    if k == "foreign_note":
        why = _WHY_WORDS.get(d.get("why"), (d.get("why"), d.get("why")))[0 if ru else 1]
        return (f"{name()}: в стопке чужая купюра — {why}. Раунд остановлен — оператор аннулирует его" if ru
                else f"Foreign note in {name()}'s stack: {why}. Round halted — the operator voids it")
    if k == "outcome":
        losers = ", ".join(seats[s] for s in d["losers"])
        if d["outcome"] == "success":
            return (f"Успех! Дилер {name('dealer')}: открыто роз — {d['bid']}. В банк платят: {losers}; выбирает {name('chooser')}"
                    if ru else f"Success! {name('dealer')} turned up {d['bid']} rose{'' if d['bid'] == 1 else 's'}. Paying the bank: {losers};"
                    f" {name('chooser')} chooses")
        return (f"Череп: {name('skull_owner')}! В банк платят: {losers}; выбирает {name('chooser')}" if ru
                else f"{name('skull_owner')}'s skull! Paying the bank: {losers}; {name('chooser')} chooses")
    if k == "note_to_bank":
        extra = (" (последняя купюра — череп)" if ru else " (last note a skull)") if d.get("auto") else ""
        return (f"{name()}: одна купюра в банк{extra}; в банке {d['bank']}" if ru
                else f"{name()}: one note to the bank{extra}; bank holds {d['bank']}")
    if k == "out":
        return f"{name()} выбывает" if ru else f"{name()} is out"
    if k == "leave":
        return f"{name()} покидает игру" if ru else f"{name()} leaves the game"
    if k == "left":
        return (f"{name()} забирает свои купюры ({d['notes_back']}) и уходит" if ru
                else f"{name()} takes back his {d['notes_back']} note(s) and leaves")
    if k == "round_void":
        if d.get("why") == "operator":  # a `table void`: told without naming who pressed it (see _WHY_WORDS)
            return (f"Раунд {d['round']} аннулирован: все купюры возвращены" if ru
                    else f"Round {d['round']} void: every note returned")
        why = _WHY_WORDS.get(d.get("why"), (d.get("why"), d.get("why")))[0 if ru else 1]
        return (f"Раунд {d['round']} аннулирован ({why}): все купюры возвращены" if ru
                else f"Round {d['round']} void ({why}): every note returned")
    if k == "round_end":
        return ""  # told by the outcome or void line before it
    if k == "game_over":
        value = d.get("face_value")
        money = f", {value} {d.get('currency', '')}".rstrip() if value is not None else ""
        if d["winner"] is None:
            return "Игра окончена, победителя нет" if ru else "Game over, no winner"
        return (f"Игра окончена! {name('winner')} забирает банк: {notes_count(len(d['bank']))}{money}" if ru
                else f"Game over! {name('winner')} takes the bank: {len(d['bank'])} note(s){money}")
    return None


def notes_count(n: int) -> str:
    """``15`` → «15 купюр», ``1`` → «1 купюра», ``3`` → «3 купюры»: a count of banknotes in
    Russian, the number first (as the history and the end-of-game box both say it)."""
    return f"{n} {ru_plural(n, 'купюра', 'купюры', 'купюр')}"


def describe_standings(view: dict, seats: Sequence[str], lang: str = "ru") -> str | None:
    """The standing of a game in words from its *public* view (``game.view(None)``; counts only,
    never a serial of a note in play): the notes each player still has and the bank's count —
    «Купюр у игроков: Борис 3, Аня 2, Вика 0 (вне игры); в банке 7» — or, once over, who takes the
    bank. For the operator's «Завершить игру» (the public page and console say how it stood)."""
    ru = lang == "ru"
    rows = view.get("seats") or []
    bank = (view.get("bank") or {}).get("count", 0)
    if view.get("over") and view.get("winner") is not None:
        winner = seats[view["winner"]]
        value = (view.get("bank") or {}).get("face_value")
        money = f", {value} {(view.get('bank') or {}).get('currency', '')}".rstrip() if value is not None else ""
        return (f"Игра окончена! {winner} забирает банк: {notes_count(bank)}{money}" if ru
                else f"Game over! {winner} takes the bank: {bank} note(s){money}")
    gone = {"out": ("вне игры", "out"), "left": ("покинул(а) стол", "left")}
    parts = []
    for r in sorted(rows, key=lambda r: -r.get("notes", 0)):
        status = gone.get(r.get("status"))
        parts.append(f"{r['name']} {r.get('notes', 0)}" + (f" ({status[0 if ru else 1]})" if status else ""))
    return (f"Купюр у игроков: {', '.join(parts)}; в банке {bank}" if ru
            else f"Notes left: {', '.join(parts)}; the bank holds {bank}")


def describe_private_event(event: Event, seats: Sequence[str], lang: str = "ru") -> str | None:
    """One line of words for an event private to one seat, shown in that seat's history only
    (``companion.dashboard.model.narrator``): its notes at registration, «Ваши купюры: АК 2444841 —
    роза, …», and the note of its that went to the bank. ``None`` for another kind."""
    d = event.data
    ru = lang == "ru"
    role = _ROLE_WORD["ru" if ru else "en"]
    if event.kind == "your_notes":
        told = ", ".join(f"{s} — {role.get(r, r)}" for s, r in zip(d.get("serials", []), d.get("roles", [])))
        return f"Ваши купюры: {told}" if ru else f"Your notes: {told}"
    if event.kind == "your_note_to_bank":
        r = role.get(d.get("role"), d.get("role"))
        return (f"Ваша купюра в банк: {d.get('serial')} — {r}" if ru
                else f"Your note to the bank: {d.get('serial')} — {r}")
    return None


def page_view(view: dict, seats: Sequence[str]) -> dict:
    """The dashboard's view of skull (``companion.dashboard.model.page_view``), made from ``view``
    (:meth:`SkullGame.view`) alone: the seat's private box lists its notes as «serial — role» and
    the notes it lost to the bank, without its seat number. Everything else as the view has it."""
    you = view.get("you")
    if not isinstance(you, dict):
        return view
    out = dict(view)
    notes = [{"serial": n.get("serial"), "role": n.get("role")} for n in you.get("notes") or []]
    out["you"] = {"seat": you.get("seat"), "your_notes": notes or None}  # the seat: shown as its name
    if you.get("lost"):
        out["you"]["lost"] = list(you["lost"])
    return out


# ---------------------------------------------------------------------------- refusals
#: This game's refusals in words: ``{code: (English, Russian)}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, tuple[str, str]] = {
    "seat_out": ("That player is out of the game.", "Этот игрок выбыл из игры."),
    "bad_serial": ("A serial number may hold only capital letters and digits, with no spaces.",
                   "В номере купюры могут быть только заглавные буквы и цифры, без пробелов."),
    "serial_format": ("A serial number does not fit the serial format of the table's currency.",
                      "Номер купюры не подходит к формату номеров валюты стола."),
    "wrong_note_count": ("A player's set has the wrong number of notes.", "Неверное число купюр у игрока."),
    "wrong_skull_count": ("A player's set has the wrong number of skulls.",
                          "Неверное число «черепов» у игрока."),
    "duplicate_serial": ("The same note appears twice in the player's set.",
                         "Одна и та же купюра дважды в наборе игрока."),
    "serial_taken": ("This note is already registered to another player.",
                     "Эта купюра уже зарегистрирована за другим игроком."),
    "bad_denominations": ("Face values: one positive number per note, or leave empty.",
                          "Номиналы: по одному положительному числу на купюру или оставьте пустым."),
    "already_registered": ("This player's notes are already registered.",
                           "Купюры этого игрока уже зарегистрированы."),
    "registration_incomplete": ("The first dealer is chosen once every player's notes are registered.",
                                "Первого дилера выбирают, когда купюры всех игроков зарегистрированы."),
    "already_left": ("That player has already left.", "Этот игрок уже вышел."),
    "already_placed": ("In stage 1 each player places exactly one note.",
                       "На первом этапе каждый кладёт ровно одну купюру."),
    "must_bid": ("No notes left in hand: the player must bid.", "Купюр в руке нет — нужно сделать ставку."),
    "bid_too_low": ("The bid must be higher than the current bid.", "Ставка должна быть больше текущей."),
    "bid_too_high": ("The bid is more than the notes on the table.", "Ставка больше числа купюр на столе."),
    "must_raise": ("Everybody agreed: the new dealer must raise.",
                   "Все согласились — новый дилер обязан повысить ставку."),
    "dealer_cannot_answer": ("The dealer does not agree or pass on his own bid.",
                             "Дилер не соглашается и не пасует на собственную ставку."),
    "reveal_in_progress": ("The notes are being revealed: bids are closed.", "Идёт вскрытие — ставки закрыты."),
    "own_stack_first": ("The dealer first reveals all of his own notes.",
                        "Дилер сначала открывает все свои купюры."),
    "no_face_down_note": ("That stack has no face-down note left.", "В этой стопке не осталось закрытых купюр."),
    "unregistered_serial": ("No such note was registered at this table: rescan it or check the number typed.",
                            "Такой купюры нет среди зарегистрированных — пересканируйте её или проверьте "
                            "введённый номер."),
    "already_revealed": ("That note is already face up.", "Эта купюра уже открыта."),
    "round_halted": ("The round is stopped (a foreign note): the operator must void it.",
                     "Раунд остановлен (чужая купюра): оператор должен его аннулировать."),
    "not_a_loser": ("That player owes no note to the bank.", "Этот игрок ничего не должен банку."),
    "not_own_note": ("This note belongs to another player: rescan it or check the number typed.",
                     "Эта купюра принадлежит другому игроку — пересканируйте её или проверьте "
                     "введённый номер."),
    "note_in_bank": ("That note is already in the bank.", "Эта купюра уже в банке."),
    "settlement_in_progress": ("The round is decided: the losers are paying into the bank.",
                               "Раунд решён: проигравшие отдают купюры в банк."),
}

#: ``{code: words(facts, ru) -> sentence}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict, bool], str]] = {
    "serial_taken": lambda f, ru: (
        (f"Купюра {f['serials'][0]} уже зарегистрирована за другим игроком." if ru
         else f"Note {f['serials'][0]} is already registered to another player.") if len(f["serials"]) == 1
        else (f"Купюры {', '.join(f['serials'])} уже зарегистрированы за другими игроками." if ru
              else f"Notes {', '.join(f['serials'])} are already registered to other players.")),
    "duplicate_serial": lambda f, ru: (
        (f"Купюра {f['serials'][0]} дважды в наборе игрока." if ru
         else f"Note {f['serials'][0]} appears twice in the player's set.") if len(f["serials"]) == 1
        else (f"Купюры {', '.join(f['serials'])} — каждая дважды в наборе игрока." if ru
              else f"Notes {', '.join(f['serials'])} each appear twice in the player's set.")),
    "wrong_note_count": lambda f, ru: (
        f"Неверное число купюр: в наборе {f['given']}, а каждый регистрирует {f['each']}." if ru
        else f"Wrong number of notes: the set has {f['given']}; each player registers {f['each']}."),
    "wrong_skull_count": lambda f, ru: (
        f"Неверное число «черепов»: в наборе {f['skulls']}, а нужно {f['want']} из {f['each']} купюр." if ru
        else f"Wrong number of skulls: the set has {f['skulls']}; {f['want']} of {f['each']} notes are needed."),
    "bid_too_low": lambda f, ru: (f"Ставка должна быть больше текущей: не меньше {f['least']}." if ru
                                  else f"The bid must be higher than the current bid: at least {f['least']}."),
    "bid_too_high": lambda f, ru: (f"На столе всего {notes_n(f['on_table'], True)}: ставка не может быть больше." if ru
                                   else f"There are only {notes_n(f['on_table'], False)} on the table: bid no more."),
    "must_raise": lambda f, ru: (f"Все согласились — новый дилер обязан повысить ставку: больше {f['bid']}." if ru
                                 else f"Everybody agreed: the new dealer must raise above {f['bid']}."),
    "registration_incomplete": lambda f, ru: (
        f"Первого дилера выбирают, когда купюры всех зарегистрированы; ещё нет: {names_and(f['missing'], 'ru')}." if ru
        else f"The first dealer is chosen once every player's notes are registered; still missing: "
             f"{names_and(f['missing'], 'en')}."),
    "already_registered": lambda f, ru: (f"{f['player']}: купюры уже зарегистрированы." if ru
                                         else f"{f['player']}'s notes are already registered."),
    "not_a_loser": lambda f, ru: (f"{f['player']}: долга банку нет." if ru else f"{f['player']} owes no note to the bank."),
    "seat_out": lambda f, ru: (f"{f['player']}: уже не в игре." if ru else f"{f['player']} is out of the game."),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns {"ru", "en"} or None.

def _waiting_register(seat, view, templates, seats):
    missing = seat_args(templates)
    if seat in missing:
        return waiting_pair(CAMERA_PAIR, "ваши купюры ещё не зарегистрированы — покажите их камере номером вверх",
                     "your notes are not registered yet — show them to the camera, serial up")
    names = [seats[i] for i in missing if seat_name(seats, i)]
    return waiting_pair(CAMERA_PAIR, f"ещё не зарегистрированы купюры — {names_and(names, 'ru')}",
                 f"notes not registered yet — {names_and(names, 'en')}")


def _waiting_dealer(seat, view, templates, seats):
    return {"ru": f"{OPERATOR_PAIR[0]}: он выбирает первого дилера",
            "en": "Waiting for the operator to choose the first dealer"}


def _waiting_flip(seat, view, templates, seats):
    dealer = seat_name(seats, view.get("dealer"))
    if dealer is None:
        return None
    return waiting_pair(CAMERA_PAIR, f"дилер {dealer} открывает купюры", f"the dealer, {dealer}, is turning notes over")


def _waiting_deposit(seat, view, templates, seats):
    chooser = seat_name(seats, view.get("chooser"))
    owed = [i for i in (view.get("owed") or seat_args(templates)) if seat_name(seats, i)]
    if chooser is None:
        return None
    if seat in owed:
        return waiting_pair(CAMERA_PAIR, f"{chooser} выбирает, какая ваша купюра уйдёт в банк",
                     f"{chooser} is choosing which of your notes goes to the bank")
    names = [seats[i] for i in owed]
    return waiting_pair(CAMERA_PAIR, f"{chooser} выбирает купюры для банка — платят: {names_and(names, 'ru')}",
                 f"{chooser} is choosing the notes for the bank — paying: {names_and(names, 'en')}")


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"register": _waiting_register, "dealer": _waiting_dealer, "flip": _waiting_flip, "deposit": _waiting_deposit}

VOID = waiting_pair(OPERATOR_PAIR, "раунд остановлен — он его аннулирует", "the round is stopped — the operator voids it")


class SkullPresenter(LegacyPresenter):
    """The words of ``skull`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('round', 'reveal_start', 'game_over', 'out', 'void')
    seat_keys = PlainPresenter.seat_keys + ('passed', 'agreed', 'owed', 'losers', 'chooser', 'skull_owner', 'owner', 'next_dealer')
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(bilingual(describe_event))
    private_event = staticmethod(bilingual(describe_private_event))
    standings = staticmethod(bilingual(describe_standings))
    page = staticmethod(page_view)

    def own_refusal(self, reason, lang, options=None):
        return reason_message(reason, lang, options)

    def waiting(self, seat, view, tasks, seats):
        told = super().waiting(seat, view, tasks, seats)
        if told is None and view.get("phase") == "halted" and "void" in tasks:
            return VOID  # a foreign note stopped the round: only the operator's void goes on
        return told


PRESENTER = SkullPresenter()
