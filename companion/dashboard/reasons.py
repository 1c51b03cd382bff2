"""Reason codes in words for the dashboard: one sentence per code in Russian and in English.

Every reason code the engines, the table, the referee, the log replay and the dashboard raise
(``IllegalAction("<code>", ...)`` across ``companion/games/*.py``, ``companion/table.py``,
``companion/referee.py``, ``companion/log.py``, ``companion/dashboard/*.py``) has an entry here,
so a page never shows the engine's English detail (which names Python types and internals) as
its message; the detail stays in the JSON's ``detail`` field for logs. A code only one game raises
is worded by that game's presenter (``companion/games/<id>/presenter.py``, ``REFUSALS``), which
comes first, since it can name the table's facts (skull: the expected serial shape of the
currency).

A refusal whose fix needs the table's facts — whose cards, how many, which limit — carries them
in ``IllegalAction.facts`` (the player's name, the counts, a card code; JSON-safe), and
:data:`WITH_FACTS` words them before anything else: «Борис: на руках 3 карты, а введено 2»
instead of «Число карт не совпадает». A refusal without facts (or with facts a sentence cannot
use) gets its plain sentence, so nothing is lost.
"""

from __future__ import annotations

import re
from typing import Callable

from companion.games import registry
from companion.i18n import render
from companion.games.words import card_label, cards_count, in_lang, ru_plural

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
    # doubt
    "unknown_kind": ("There is no such card in this deck.", "Такой карты в этой колоде нет."),
    "unreadable_card": ("A card was not read: rescan it or type it in.",
                        "Карта не распознана — пересканируйте её или введите вручную."),
    # (with its facts the sentence names the game's own deck: WITH_FACTS, _bad_card)
    "bad_card": ("The card is not written correctly.", "Карта записана неверно."),
    # infinity
    "unknown_card": ("There is no card of that value in this deck.", "Карты такого достоинства в колоде нет."),
    "wrong_count": ("The number of cards differs from what that player holds.",
                    "Число карт не совпадает с тем, что у игрока."),
}

GENERIC = ("The entry was not accepted.", "Запись не принята.")


# ---------------------------------------------------------------------- refusals with their facts










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
    cards = f["deck"] if "deck" in f else [in_lang(k, ru) for k in f["kinds"]]
    typed = _typed(f)
    return (f"Такой карты в этой колоде нет{typed}. Карты колоды: {_listed(cards)}." if ru
            else f"No such card in this deck{typed}. The deck's cards: {_listed(cards)}.")


#: ``{reason: words(facts, ru) -> sentence}`` for the refusals whose fix needs the table's
#: facts (see the module doc); a sentence that finds a fact missing falls back to the plain one.
WITH_FACTS: dict[str, Callable[[dict, bool], str]] = {
    # infinity (kept cards), lottery (a player's cards)
    "wrong_count": _wrong_count,
    # a card field (doubt, hoggenheimer, infinity, lottery): the game's own deck
    "bad_card": _bad_card,
    "unknown_card": _unknown_card,
    "unknown_kind": _unknown_card,
    # infinity
    # every game: who must act now (the player by name), or the table itself
    "not_your_turn": lambda f, ru: (
        ("Это делает стол: камера или оператор." if ru else "The table does this: the camera or the operator.")
        if f.get("by") == "table"
        else (f"Фишки раскладывает банкир — {f['player']}." if ru else f"The banker, {f['player']}, spreads the chips.")
        if f.get("role") == "banker"
        else (f"Сейчас ходит {f['player']}." if ru else f"{f['player']} must act now.")),
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
    detail: with the refusal's ``facts`` (``IllegalAction.facts``) the table's sentence for them
    (:data:`WITH_FACTS`), then the game's own words (its presenter's ``refusal``: with facts, with
    its options, or plain), then :data:`REASONS`, then (English) the meaning the engine gives the
    code (``Game.REASONS``), then a generic "not accepted"."""
    ru = lang == "ru"
    told = facts_message(reason, lang, facts)
    if told:
        return told
    spec = registry.find(game_id) if reason else None
    if spec is not None:
        text = render(spec.presenter.refusal(reason, options, facts), lang)
        if text:
            return text
    pair = REASONS.get(reason or "")
    if pair:
        return pair[1] if ru else pair[0]
    if not ru and spec is not None and spec.engine.REASONS.get(reason):
        return spec.engine.REASONS[reason]
    return GENERIC[1] if ru else GENERIC[0]
