"""What a seat's phone is waiting for, in words: the other players, or the table itself.

A seat page whose pad has no button for its seat used to say «Ждём других игроков» whatever the
table was really waiting for — also when no player had anything to do and the table was waiting
for the camera to read a card, or for the operator to pick skull's first dealer. :func:`waiting_words`
says what is awaited, from what the page model is built of: the legal action templates of every
seat and of the table (``Table.views``) and the seat's *own* view (so it never tells more than that
seat may know: who must act is public at the table, and a table template's unknown fields stay ``?``).

* Another player must act: «Ждём другого игрока: Борис» (every such player by name).
* Nobody but the table: what the table's pending task is, by game and table verb, and who reads it —
  «Ждём оператора: он выбирает первого дилера» (a decision only the operator enters),
  «Ждём камеру или оператора: карта, которой ходит Борис, ещё не прочитана» (an observation the
  camera reads or the operator types). When the seat itself is the one to act at the table (the
  joker game's banker turning the layout's cards, the lottery's banker turning the prizes) the
  words say it is his move.

Names are never declined («карта Бориса» would be «карта Игрока 2» for a default name) and no
verb agrees with one in gender (Аня and Борис alike): a name stands after a colon or as the
subject of a verb in the present tense.
"""

from __future__ import annotations

from typing import Callable

from companion.games.words import names_and

CAMERA = ("Ждём камеру или оператора", "Waiting for the camera or the operator")
OPERATOR = ("Ждём оператора", "Waiting for the operator")


def _pair(who: tuple[str, str], ru: str, en: str) -> dict:
    return {"ru": f"{who[0]}: {ru}", "en": f"{who[1]}: {en}"}


def _seat_args(templates: list[list[str]]) -> list[int]:
    """The seats named as the first argument of table templates (``table cards 2 ?`` → 2)."""
    out = []
    for args in templates:
        if args and args[0].isdigit() and int(args[0]) not in out:
            out.append(int(args[0]))
    return out


def _name(seats, i) -> str | None:
    return seats[i] if isinstance(i, int) and 0 <= i < len(seats) else None


# ---------------------------------------------------------------------------- by game and verb
# Each takes (seat, view, templates of that verb's args, seats) and returns {"ru", "en"} or None.
Words = Callable[[int, dict, list, list], "dict | None"]


def _skull_register(seat, view, templates, seats):
    missing = _seat_args(templates)
    if seat in missing:
        return _pair(CAMERA, "ваши купюры ещё не зарегистрированы — покажите их камере номером вверх",
                     "your notes are not registered yet — show them to the camera, serial up")
    names = [seats[i] for i in missing if _name(seats, i)]
    return _pair(CAMERA, f"ещё не зарегистрированы купюры — {names_and(names, 'ru')}",
                 f"notes not registered yet — {names_and(names, 'en')}")


def _skull_dealer(seat, view, templates, seats):
    return {"ru": f"{OPERATOR[0]}: он выбирает первого дилера",
            "en": "Waiting for the operator to choose the first dealer"}


def _skull_flip(seat, view, templates, seats):
    dealer = _name(seats, view.get("dealer"))
    if dealer is None:
        return None
    return _pair(CAMERA, f"дилер {dealer} открывает купюры", f"the dealer, {dealer}, is turning notes over")


def _skull_deposit(seat, view, templates, seats):
    chooser = _name(seats, view.get("chooser"))
    owed = [i for i in (view.get("owed") or _seat_args(templates)) if _name(seats, i)]
    if chooser is None:
        return None
    if seat in owed:
        return _pair(CAMERA, f"{chooser} выбирает, какая ваша купюра уйдёт в банк",
                     f"{chooser} is choosing which of your notes goes to the bank")
    names = [seats[i] for i in owed]
    return _pair(CAMERA, f"{chooser} выбирает купюры для банка — платят: {names_and(names, 'ru')}",
                 f"{chooser} is choosing the notes for the bank — paying: {names_and(names, 'en')}")


def _doubt_reveal(seat, view, templates, seats):
    placements = (view.get("pile") or {}).get("placements") or []
    placer = _name(seats, placements[-1].get("seat")) if placements else None
    if placer is None:
        return _pair(CAMERA, "карты последнего хода ещё не открыты", "the last move's cards are not turned up yet")
    if placer == _name(seats, seat):
        return _pair(CAMERA, "ваши карты последнего хода ещё не открыты",
                     "your cards of the last move are not turned up yet")
    return _pair(CAMERA, f"ещё не открыты карты последнего хода (ход: {placer})",
                 f"the last move's cards are not turned up yet ({placer}'s move)")


def _hoggenheimer_turn(seat, view, templates, seats):
    banker = view.get("banker")
    if banker == seat:
        return {"ru": "Ваш ход: открывайте карты раскладки — камера их читает (или вводит оператор)",
                "en": "Your move: turn the layout's cards — the camera reads them (or the operator enters them)"}
    name = _name(seats, banker)
    return _pair(CAMERA, f"банкомет {name} открывает карты раскладки" if name else "открываются карты раскладки",
                 f"the banker, {name}, is turning the layout's cards" if name else "the layout's cards are being turned")


def _infinity_deal(seat, view, templates, seats):
    return {"ru": f"{OPERATOR[0]}: он отмечает, что карты розданы",
            "en": "Waiting for the operator to mark the cards as dealt"}


def _infinity_face(seat, view, templates, seats):
    pending = view.get("pending")
    if pending == seat:
        return _pair(CAMERA, "ваша карта ещё не прочитана", "your card is not read yet")
    name = _name(seats, pending)
    if name is None:
        return _pair(CAMERA, "сыгранная карта ещё не прочитана", "the card played is not read yet")
    return _pair(CAMERA, f"карта, которой ходит {name}, ещё не прочитана", f"the card {name} played is not read yet")


def _infinity_kept(seat, view, templates, seats):
    holder = view.get("kept_seat")
    if holder == seat:
        return _pair(CAMERA, "ваши оставшиеся карты ещё не прочитаны", "your cards left in hand are not read yet")
    name = _name(seats, holder)
    return _pair(CAMERA, f"ещё не прочитаны карты, оставшиеся на руках — {name}" if name
                 else "ещё не прочитаны карты, оставшиеся на руках",
                 f"the cards left in hand are not read yet — {name}" if name else "the cards left in hand are not read yet")


def _lottery_cards(seat, view, templates, seats):
    missing = _seat_args(templates)
    if seat in missing and len(missing) == 1:
        return _pair(CAMERA, "ваши карты ещё не прочитаны", "your cards are not read yet")
    names = [seats[i] for i in missing if _name(seats, i)]
    return _pair(CAMERA, f"ещё не прочитаны карты — {names_and(names, 'ru')}",
                 f"cards not read yet — {names_and(names, 'en')}")


def _lottery_prize(seat, view, templates, seats):
    banker = view.get("banker")
    if banker == seat:
        return {"ru": "Ваш ход: открывайте призы — камера их читает (или вводит оператор)",
                "en": "Your move: turn the prizes up — the camera reads them (or the operator enters them)"}
    name = _name(seats, banker)
    return _pair(CAMERA, f"банкир {name} открывает призы" if name else "открываются призы",
                 f"the banker, {name}, is turning the prizes up" if name else "the prizes are being turned up")


#: ``{game id: {table verb: words}}``: the table's pending task of each game in words.
BY_VERB: dict[str, dict[str, Words]] = {
    "skull": {"register": _skull_register, "dealer": _skull_dealer, "flip": _skull_flip,
              "deposit": _skull_deposit},
    "doubt": {"reveal": _doubt_reveal},
    "hoggenheimer": {"turn": _hoggenheimer_turn},
    "infinity": {"deal": _infinity_deal, "face": _infinity_face, "kept": _infinity_kept},
    "lottery": {"cards": _lottery_cards, "prize": _lottery_prize},
}

VOID = _pair(OPERATOR, "раунд остановлен — он его аннулирует", "the round is stopped — the operator voids it")


def waiting_words(game_id: str | None, seat: int, view: dict, legal: dict, seats) -> dict | None:
    """What seat ``seat``'s phone waits for, ``{"ru": …, "en": …}``, or ``None`` when the seat has
    something to do itself (its pad shows it) or nothing is awaited (the game is over).

    Args:
        game_id: the game's id.
        seat: the viewer's seat (from 0).
        view: the seat's own view (``game.view(seat)``): the words use only what it shows.
        legal: ``{None: table templates, seat: that seat's templates}`` (``Table.views``).
        seats: the players' names by seat.
    """
    if legal.get(seat):
        return None
    seats = list(seats)
    others = [s for s in sorted(k for k in legal if isinstance(k, int)) if s != seat and legal.get(s)]
    if others:
        names = [seats[s] for s in others if _name(seats, s)]
        if len(names) == 1:
            return {"ru": f"Ждём другого игрока: {names[0]}", "en": f"Waiting for another player: {names[0]}"}
        return {"ru": f"Ждём других игроков: {names_and(names, 'ru')}",
                "en": f"Waiting for other players: {names_and(names, 'en')}"}
    by_verb: dict[str, list] = {}
    for text in legal.get(None) or []:
        parts = text.split()
        if len(parts) >= 2 and parts[0] == "table":
            by_verb.setdefault(parts[1], []).append(parts[2:])
    words = BY_VERB.get(game_id or "", {})
    for verb, templates in by_verb.items():
        fn = words.get(verb)
        if fn is not None:
            told = fn(seat, view or {}, templates, seats)
            if told:
                return told
    if game_id == "skull" and (view or {}).get("phase") == "halted" and "void" in by_verb:
        return VOID  # a foreign note stopped the round: only the operator's void goes on
    return None
