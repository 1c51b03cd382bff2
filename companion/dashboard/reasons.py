"""Reason codes in words for the dashboard: one sentence per code in Russian and in English.

Every reason code the engines, the table, the referee, the log replay and the dashboard raise
(``IllegalAction("<code>", ...)`` across ``companion/games/*.py``, ``companion/table.py``,
``companion/referee.py``, ``companion/log.py``, ``companion/dashboard/*.py``) has an entry here,
so a page never shows the engine's English detail (which names Python types and internals) as
its message; the detail stays in the JSON's ``detail`` field for logs. A game module's own words
(``reason_message(reason, lang, options)`` hook, ``REASONS_RU`` / ``REASONS``) come first, since
they can name the table's facts (skull: the expected serial shape of the currency).

A refusal whose fix needs the table's facts — whose cards, how many, which limit — carries them
in ``IllegalAction.facts`` (the player's name, the counts, a card code; JSON-safe), and
:data:`WITH_FACTS` words them before anything else: «Борис: на руках 3 карты, а введено 2»
instead of «Число карт не совпадает». A refusal without facts (or with facts a sentence cannot
use) gets its plain sentence, so nothing is lost.
"""

from __future__ import annotations

import re
from typing import Callable

from companion import games
from companion.games.words import card_label, cards_count, chips, names_and, ru_plural

#: ``{code: (English, Russian)}``.
REASONS: dict[str, tuple[str, str]] = {
    # shared codes (companion.errors.COMMON_REASONS)
    "bad_syntax": ("The entry is not understood: check the values typed (numbers where numbers belong, "
                   "lists separated by commas).",
                   "Запись не распознана: проверьте введённые значения (числа там, где нужны числа, "
                   "списки через запятую)."),
    "unknown_action": ("This game has no such action.", "В этой игре нет такого действия."),
    "unknown_seat": ("There is no such seat at this table.", "За этим столом нет такого места."),
    "game_over": ("The game has ended: no more moves.", "Игра окончена: ходов больше нет."),
    "not_your_turn": ("Another player must act now.", "Сейчас ходит другой игрок."),
    # the operator console's action box takes table actions only (companion/dashboard/operator.py)
    "not_a_table_action": ("The operator enters table actions (table …); players act from their "
                           "button pads or phones.",
                           "Оператор вводит действия стола; игроки ходят со своих пультов или "
                           "телефонов."),
    # companion.table.Table.submit_for_seat: a phone or button pad acting for another seat
    "not_your_seat": ("This phone or button pad may act only for its own seat.",
                      "С этого телефона или пульта можно ходить только за своё место."),
    "read_by_table": ("Make your move; the card itself is read by the camera (or entered by the operator).",
                      "Сделайте ход, а саму карту прочтёт камера (или введёт оператор)."),
    "wrong_phase": ("This action is not possible at this stage of the game.",
                    "Это действие сейчас невозможно: не тот этап игры."),
    "nothing_to_undo": ("There is nothing to undo: no accepted action yet.",
                        "Отменять нечего: принятых действий ещё нет."),
    # companion.referee.Referee.submit's "seen" guard (a double tap, two operators at once)
    "repeated": ("Already accepted: this press repeated the one before it.",
                 "Уже принято: это нажатие повторило предыдущее."),
    "stale": ("The table changed meanwhile: look at it and press again if still needed.",
              "Стол уже изменился: посмотрите на него и нажмите ещё раз, если нужно."),
    # companion/dashboard/operator.py manual entries
    "prompt_closed": ("This request was already answered (by the camera or another operator).",
                      "Этот запрос уже закрыт (камерой или другим оператором)."),
    # companion/dashboard/seat.py: the «считает N» badge of a bid being counted on a phone
    "bad_pending": ("A bid can be counted only on your turn and within what you may bid now.",
                    "Считать ставку можно только в свой ход и только в её пределах."),
    "seat_decision": ("This is the player's own decision: it is made on the player's button pad or phone.",
                      "Это решение самого игрока: его делают с пульта или телефона игрока."),
    "bad_line": ("A line of the table log is damaged and was skipped.",
                 "Строка журнала стола повреждена и пропущена."),
    "bad_option": ("A house rule has an impossible value.", "У одного из правил недопустимое значение."),
    "bad_seats": ("This number of players does not suit the game.",
                  "Это число игроков не подходит для игры."),
    "unknown_game": ("There is no such game.", "Такой игры нет."),
    "no_game": ("No game is running: start a new game first.",
                "Игра не идёт: сначала начните новую игру."),
    "missing_field": ("Fill in every required field.", "Заполните все обязательные поля."),
    "nothing_to_void": ("No round is in progress: there is nothing to void.",
                        "Раунд не идёт — аннулировать нечего."),
    "seat_only": ("A player must do this, not the table.", "Это делает игрок, а не стол."),
    "table_only": ("Only the table (camera or operator) may do this.",
                   "Это делает только стол (камера или оператор)."),
    "seat_out": ("That player is out of the game.", "Этот игрок выбыл из игры."),
    "player_out": ("That player has left the game.", "Этот игрок вышел из игры."),
    # skull
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
    # doubt
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
    "unknown_kind": ("There is no such card in this deck.", "Такой карты в этой колоде нет."),
    "unreadable_card": ("A card was not read: rescan it or type it in.",
                        "Карта не распознана — пересканируйте её или введите вручную."),
    # hoggenheimer
    "bad_bet_shape": ("A bet is a card, two touching cards, a 2×2 square, a column or a row.",
                      "Ставка — на карту, две соседние карты, квадрат 2×2, колонка или ряд."),
    # (with its facts the sentence names the game's own deck: WITH_FACTS, _bad_card)
    "bad_card": ("The card is not written correctly.", "Карта записана неверно."),
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
    # infinity
    "card_exhausted": ("Every card of that value has already been seen this deal.",
                       "Все карты этого достоинства в этой раздаче уже вышли."),
    "face_pending": ("The declared card must be read first (camera or operator).",
                     "Сначала нужно распознать объявленную карту (камера или оператор)."),
    "no_pending_play": ("No declared card is waiting for its face.", "Нет объявленной карты, ждущей распознавания."),
    "unknown_card": ("There is no card of that value in this deck.", "Карты такого достоинства в колоде нет."),
    "wrong_count": ("The number of cards differs from what that player holds.",
                    "Число карт не совпадает с тем, что у игрока."),
    "wrong_leader": ("By the rules another player leads this deal.", "По правилам раздачу начинает другой игрок."),
    "wrong_seat": ("That is not the last player holding cards.", "Это не последний игрок с картами."),
    # lottery
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

GENERIC = ("The entry was not accepted.", "Запись не принята.")


# ---------------------------------------------------------------------- refusals with their facts
SUIT_WORDS = {"S": ("spades ♠", "пики ♠"), "H": ("hearts ♥", "черви ♥"), "D": ("diamonds ♦", "бубны ♦"),
              "C": ("clubs ♣", "трефы ♣")}


def _text(value, ru: bool) -> str:
    """A fact that comes in both languages (``{"ru": …, "en": …}``: a deck's kind name) in the
    page's one, else the fact as it is."""
    if isinstance(value, dict):
        return str(value.get("ru" if ru else "en") or value.get("en") or value.get("ru") or "")
    return str(value)


def _suit(code: str, ru: bool) -> str:
    pair = SUIT_WORDS.get(str(code)[-1:], (str(code), str(code)))
    return pair[1] if ru else pair[0]


def _notes(n: int, ru: bool) -> str:
    return f"{n} {ru_plural(n, 'купюра', 'купюры', 'купюр')}" if ru else f"{n} note{'' if n == 1 else 's'}"


def _chips_gen(n: int) -> str:
    """Russian chips after «не меньше», «не больше» (genitive): «1 фишки», «5 фишек»."""
    return f"{n} {ru_plural(n, 'фишки', 'фишек', 'фишек')}"


def _wrong_count(f: dict, ru: bool) -> str:
    entered = f["entered"]
    if "dealt" in f:  # lottery: the cards the dealer dealt that player this deal
        n = f["dealt"]
        if ru:
            done = "сдана" if ru_plural(n, "1", "2", "5") == "1" else "сдано"
            return f"{f['player']}: {done} {cards_count(n, 'ru')}, а введено {entered}."
        return f"{f['player']} was dealt {cards_count(n, 'en')}, but {entered} were entered."
    n = f["held"]  # infinity: the cards the last player still holds
    if ru:
        return f"{f['player']}: на руках {cards_count(n, 'ru')}, а введено {entered}."
    return f"{f['player']} holds {cards_count(n, 'en')}, but {entered} were entered."


def _bank_exposure(f: dict, ru: bool) -> str:
    most, minimum = f["most"], f.get("min_stake", 1)
    if most >= minimum:
        return (f"Банк не покроет такую выплату: на эту ставку сейчас можно поставить не больше "
                f"{_chips_gen(most)}." if ru
                else f"The bank cannot cover that payout: at most {chips(most, 'en')} on this bet now.")
    return (f"Банк уже не покроет ставку на эту цель: у банкомета {chips(f['banker_chips'], 'ru')}, "
            f"а возможная выплата по ставкам уже {f['exposure']}." if ru
            else f"The bank cannot cover a bet on this target any more: the banker has "
                 f"{chips(f['banker_chips'], 'en')} and may already owe {f['exposure']}.")


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


def _typed(f: dict) -> str:
    """ «ХОЙ»: the card as typed, after a colon, when the refusal has it (else nothing)."""
    card = f.get("card")
    return "" if card in (None, "", "?") else f": «{card}»"


def _listed(cards) -> str:
    return ", ".join(str(c) for c in cards)


def _bad_card(f: dict, ru: bool) -> str:
    """A card written wrong, with how the game's own deck writes its cards: 6100's values
    («10, 36, …, INF»), or rank and suit with examples from the deck (QH — Q♥). The same
    sentences as the console's for a card name not in doubt's deck («Такой карты в этой колоде
    нет: «лиса». Карты колоды: …», ``operator._canonical_names``)."""
    typed = _typed(f)
    if "deck" in f:  # infinity: the table's card values
        return (f"Карта записана неверно{typed}. Карты колоды: {_listed(f['deck'])}." if ru
                else f"The card is not written correctly{typed}. The deck's cards: {_listed(f['deck'])}.")
    ranks, examples = " ".join(f["ranks"]), ", ".join(f"{c} — {card_label(c)}" for c in f["examples"])
    joker = f.get("joker")
    if re.fullmatch(r"(10|[2-9AKQJ])[SHDC]", str(f.get("card") or "")):
        # written right, but not a card of this deck (the joker game's 32 cards have no 2♣)
        return (f"Такой карты в этой колоде нет{typed}. Достоинства колоды: {ranks}." if ru
                else f"No such card in this deck{typed}. The deck's ranks: {ranks}.")
    if ru:
        return (f"Карта записана неверно{typed}. Пишите достоинство ({ranks}) и масть (S, H, D, C), "
                f"например {examples}" + (f"; джокер — {joker}." if joker else "."))
    return (f"The card is not written correctly{typed}. Write a rank ({ranks}) and a suit (S, H, D, C), "
            f"e.g. {examples}" + (f"; the joker is {joker}." if joker else "."))


def _unknown_card(f: dict, ru: bool) -> str:
    """A card the game knows how to write but this table's deck does not hold (6100's 700, a
    name not among doubt's kinds): the deck's own cards."""
    cards = f["deck"] if "deck" in f else [_text(k, ru) for k in f["kinds"]]
    typed = _typed(f)
    return (f"Такой карты в этой колоде нет{typed}. Карты колоды: {_listed(cards)}." if ru
            else f"No such card in this deck{typed}. The deck's cards: {_listed(cards)}.")


#: ``{reason: words(facts, ru) -> sentence}`` for the refusals whose fix needs the table's
#: facts (see the module doc); a sentence that finds a fact missing falls back to the plain one.
WITH_FACTS: dict[str, Callable[[dict, bool], str]] = {
    # infinity (kept cards), lottery (a player's cards)
    "wrong_count": _wrong_count,
    # hoggenheimer
    "stake_below_min": lambda f, ru: (f"Ставка меньше минимальной: не меньше {_chips_gen(f['min_stake'])}."
                                      if ru else f"The stake is below the table minimum of {chips(f['min_stake'], 'en')}."),
    "stake_above_max": lambda f, ru: (f"Ставка больше максимальной: не больше {_chips_gen(f['max_stake'])}."
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
                                 f"ряд {_suit(f['card'], True)}, колонка {f['card'][:-1]}." if ru
                                 else f"{card_label(f['card'])} was put on {card_label(f['slot'])}'s place; its place is "
                                      f"the {_suit(f['card'], False)} row, column {f['card'][:-1]}."),
    # doubt
    "bad_count": lambda f, ru: (f"За один ход кладут от 1 до {f['max']} {ru_plural(f['max'], 'карты', 'карт', 'карт')}."
                                if ru else f"One move lays 1 to {cards_count(f['max'], 'en')}."),
    "not_enough_cards": lambda f, ru: (f"{f['player']}: на руках только {cards_count(f['held'], 'ru')}." if ru
                                       else f"{f['player']} holds only {cards_count(f['held'], 'en')}."),
    "reveal_count_mismatch": lambda f, ru: (
        f"В последнем ходе {cards_count(f['expected'], 'ru')}: укажите ровно столько, а указано {f['given']}." if ru
        else f"The last move laid {cards_count(f['expected'], 'en')}: list exactly that many, not {f['given']}."),
    "impossible_cards": lambda f, ru: (
        f"Карт «{_text(f['kind'], True)}» в колоде всего {f['in_deck']}"
        + (f", и {f['discarded']} уже в бите." if f.get("discarded") else ".") if ru
        else f"The deck has only {f['in_deck']} «{_text(f['kind'], False)}» card(s)"
        + (f", and {f['discarded']} are already discarded." if f.get("discarded") else ".")),
    "not_dealer": lambda f, ru: (f"О раздаче сообщает сдающий — {f['player']}." if ru
                                 else f"The dealer, {f['player']}, reports the deal."),
    # a card field (doubt, hoggenheimer, infinity, lottery): the game's own deck
    "bad_card": _bad_card,
    "unknown_card": _unknown_card,
    "unknown_kind": _unknown_card,
    # infinity
    "wrong_seat": lambda f, ru: (f"Карты остались у другого игрока — {f['player']}." if ru
                                 else f"{f['player']} is the last player holding cards."),
    "wrong_leader": lambda f, ru: (f"По правилам эту раздачу начинает {f['player']}." if ru
                                   else f"By the rules {f['player']} leads this deal."),
    # lottery
    "bad_spread": _bad_spread,
    "wrong_total": lambda f, ru: (f"Раскладка даёт {f['total']}, а разложить нужно {chips(f['pool'], 'ru', acc=True)}." if ru
                                  else f"The spread adds up to {f['total']}; {chips(f['pool'], 'en')} are to be spread."),
    "amounts_must_differ": lambda f, ru: (
        f"Призы получились бы {', '.join(str(x) for x in f['prizes'])} — суммы должны различаться." if ru
        else f"The prizes would carry {', '.join(str(x) for x in f['prizes'])}: make every amount different."),
    "must_follow_suit": lambda f, ru: (f"Есть карта масти {_suit(f['suit'], True)} — нужно ходить в масть." if ru
                                       else f"A {_suit(f['suit'], False)} card is in hand: follow suit."),
    "must_lead_lowest_of_highest_suit": lambda f, ru: (
        f"Первый ход — {card_label(f['card'])}: младшая карта старшей масти." if ru
        else f"The first lead is {card_label(f['card'])}: the lowest card of the highest suit."),
    "cannot_cover": lambda f, ru: (
        f"{card_label(f['card'])} не кроет {card_label(f['attack'])}: нужна старшая карта масти "
        f"{_suit(f['attack'], True)}." if ru
        else f"{card_label(f['card'])} does not cover {card_label(f['attack'])}: a higher "
             f"{_suit(f['attack'], False)} card is needed."),
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
    # every game: who must act now (the player by name), or the table itself
    "not_your_turn": lambda f, ru: (
        ("Это делает стол: камера или оператор." if ru else "The table does this: the camera or the operator.")
        if f.get("by") == "table"
        else (f"Фишки раскладывает банкир — {f['player']}." if ru else f"The banker, {f['player']}, spreads the chips.")
        if f.get("role") == "banker"
        else (f"Сейчас ходит {f['player']}." if ru else f"{f['player']} must act now.")),
    # skull
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
    "bid_too_high": lambda f, ru: (f"На столе всего {_notes(f['on_table'], True)}: ставка не может быть больше." if ru
                                   else f"There are only {_notes(f['on_table'], False)} on the table: bid no more."),
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


def facts_message(reason: str | None, lang: str, facts: dict | None) -> str | None:
    """The sentence for ``reason`` with its ``facts`` (:data:`WITH_FACTS`) in ``lang``, or ``None``
    when the reason has no such sentence or a fact it needs is missing."""
    words = WITH_FACTS.get(reason or "")
    if words is None or not facts:
        return None
    try:
        return words(facts, lang == "ru")
    except (KeyError, TypeError, ValueError, IndexError):
        return None

#: Dashboard request errors by HTTP status, for the JSON ``message`` (the English ``detail`` stays).
HTTP: dict[int, tuple[str, str]] = {
    400: ("The request was not understood: check what was typed.", "Запрос не понят: проверьте введённое."),
    403: ("Not allowed: log in as the operator (or join a seat) again.",
          "Нет доступа: войдите как оператор (или присоединитесь к месту) заново."),
    404: ("Not found.", "Не найдено."),
    405: ("This request is not allowed here.", "Такой запрос здесь не разрешён."),
    409: REASONS["no_game"],
    413: ("The request is too large.", "Слишком большой запрос."),
    429: ("Too many wrong attempts: wait a little and try again.",
          "Слишком много неверных попыток: подождите и попробуйте снова."),
    503: ("The referee is busy: try again.", "Судья занят: попробуйте ещё раз."),
}


#: A POST whose CSRF token does not match the session (security.check_csrf: 400 ``csrf``): the
#: page was loaded before the box restarted or the session cookie went; reloading fixes it.
STALE_PAGE = ("This page is out of date (the table restarted or the session ended): reload it and try again.",
              "Страница устарела (стол перезапущен или сеанс закончился): обновите её и повторите.")


#: A refused guess (429) with its wait: ``{wait}`` is «40 с» / «3 мин» (security.wait_words).
RETRY_WAIT = ("Too many wrong attempts: wait {wait} and try again.",
              "Слишком много неверных попыток: подождите {wait} и попробуйте снова.")

#: A request refused by the text sanitiser at the API edge (``companion.sanitise``).
BAD_TEXT = ("The text holds characters that cannot be shown (control characters or broken ones): "
            "type it again.",
            "В тексте есть символы, которые нельзя показать (управляющие или испорченные): введите его заново.")


def http_message(code: int, lang: str, detail: str | None = None, wait: int | None = None) -> str:
    """A dashboard request error (HTTP status ``code``; ``detail`` the error's description, e.g.
    ``"csrf"``) in words in ``lang``; a 429 with its ``wait`` (seconds) says how long."""
    if code == 429 and wait:
        from companion.dashboard.security import wait_words

        pair = RETRY_WAIT
        return (pair[1] if lang == "ru" else pair[0]).format(wait=wait_words(int(wait), lang))
    if code == 400 and detail is not None and str(detail).startswith("bad_text"):
        return BAD_TEXT[1] if lang == "ru" else BAD_TEXT[0]
    pair = STALE_PAGE if (code == 400 and detail == "csrf") else HTTP.get(
        code, HTTP[400] if 400 <= code < 500 else GENERIC)
    return pair[1] if lang == "ru" else pair[0]


def reason_message(reason: str | None, lang: str, game_id: str | None = None, options=None,
                   facts: dict | None = None) -> str:
    """The sentence for ``reason`` in ``lang`` (``"ru"`` or ``"en"``), never the engine's English
    detail: with the refusal's ``facts`` (``IllegalAction.facts``) their sentence
    (:data:`WITH_FACTS`), then the game module's ``reason_message`` hook, then (Russian) its
    ``REASONS_RU``, then :data:`REASONS`, then (English) the game's ``REASONS``, then a generic
    "not accepted"."""
    ru = lang == "ru"
    told = facts_message(reason, lang, facts)
    if told:
        return told
    module = None
    if reason and game_id:
        module = games.game_module(game_id)
        hook = getattr(module, "reason_message", None)
        if callable(hook):
            text = hook(reason, lang, options)
            if text:
                return text
        if ru and (getattr(module, "REASONS_RU", None) or {}).get(reason):
            return module.REASONS_RU[reason]
    pair = REASONS.get(reason or "")
    if pair:
        return pair[1] if ru else pair[0]
    if not ru and module is not None and (getattr(module, "REASONS", None) or {}).get(reason):
        return module.REASONS[reason]
    return GENERIC[1] if ru else GENERIC[0]
