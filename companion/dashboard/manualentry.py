"""The operator's entries for the referee: a table action typed on the console, and a manual entry
of what the camera could not read (:func:`companion.dashboard.operator.action` and
:func:`~companion.dashboard.operator.manual`), checked and normalised before the engine sees them —
an entry made for a seat in the table's form, kind names, card codes as the pages show them, serials
as the banknote reader gives them (see *Manual entry* in ``docs/dashboard.md``).
"""

from __future__ import annotations

import dataclasses
import re

from flask import jsonify
from flask_babel import gettext as _

from companion import sanitise
from companion.dashboard import common
from companion.dashboard.model import action_fields
from companion.errors import IllegalAction
from companion.games.base import observation_fields
from companion.games.cardnames import card_code
from companion.games.fields import Kind, fields_of


def for_seat(game_cls, text: str) -> str:
    """An entry the operator makes for a seat, in the table's form, as the seat's action:
    ``table play 0 500`` → ``0 play 500`` (infinity: the card seat 0 played, the camera could not
    read it). Only for a verb whose action has an observation field (one that may be ``?``:
    :func:`companion.games.base.observation_fields`) and one word more than its fields — the
    seat; a seat's pure decisions (a bid, «Верю») are never entered for it. Anything else is
    returned unchanged (the engine says what is wrong with it)."""
    tokens = text.split()
    if len(tokens) < 3 or tokens[0] != "table" or not tokens[2].isdigit():
        return text
    cls = game_cls._verbs().get(tokens[1])
    if cls is None or not observation_fields(cls) or len(tokens) - 3 != len(action_fields(cls)[0]):
        return text
    return " ".join([str(int(tokens[2])), tokens[1], *tokens[3:]])


def _canonical_names(game, text: str):
    """``text`` with the kind names the operator typed («гриб,Ёж», ``Mushroom``) in its card fields
    (kind ``card``) replaced by the deck's kind ids (``mushroom,hedgehog``), via the game's
    ``kind_for_name`` (a deck of named pictures: the deck profile is the one source of the names;
    infinity's Infinity card by its name, «бесконечность» → ``INF``, anything else left as typed
    for the engine). Returns the text, or a Flask ``(response, 409)`` ``unknown_kind`` naming the
    deck's cards in the page's language when a name is not in the deck."""
    lookup = getattr(game, "kind_for_name", None)
    if lookup is None:
        return text
    try:
        action = type(game).parse_action(text)
    except IllegalAction:
        return text
    changes, unknown = {}, []
    for name in (f.name for f in fields_of(type(action)) if f.kind is Kind.CARD):
        value = getattr(action, name, None)
        values = value if isinstance(value, tuple) else (value,) if isinstance(value, str) else ()
        ids = []
        for v in values:
            kid = v if v == "?" else lookup(v)
            meant = sanitise.other_layout(v) if kid is None else None
            if meant:  # typed on the Latin layout: «uhb,» is «гриб» on the Russian keys
                kid = lookup(meant)
            if kid is None:
                unknown.append(v)
            ids.append(kid or v)
        if values and tuple(ids) != tuple(values):
            changes[name] = tuple(ids) if isinstance(value, tuple) else ids[0]
    if unknown:
        from companion.i18n import render as words

        names = ", ".join(words(k, common.lang()) for k in game.kind_names())
        msg = _("No such card in this deck: %(typed)s. The deck's cards: %(names)s.",
                typed=", ".join(_("«%(text)s»", text=v) for v in unknown), names=names)
        return jsonify({"accepted": False, "action": text, "reason": "unknown_kind", "fields": [],
                        "detail": f"not a kind of this deck: {', '.join(unknown)}", "message": msg}), 409
    return dataclasses.replace(action, **changes).text() if changes else text


#: Latin lower-case letters that look like a Cyrillic serial letter in lower case too (а е к о р с х у)
_LOWER_TWINS = frozenset("aekopcxy")


def canonical_serial(text: str, currency: str | None) -> str:
    """A serial as typed by the operator in the form the banknote reader gives: upper case, no
    spaces, dashes or other separators (:func:`companion.vision.serials.canonical`), and — for a
    rouble table (``currency`` ``"RUB"``) — a Latin letter that looks like a Cyrillic one (``A``
    for ``А``, ``K`` for ``К`` …) in the letter positions of a RUB serial is the Cyrillic letter,
    exactly as the reader maps it (:data:`companion.vision.serials.LATIN_TO_CYRILLIC`, a zero-
    correction fit of the RUB format): ``"ak 244-4841"`` → ``"АК2444841"``. A lower-case Latin
    letter counts only when it looks like the Cyrillic one in lower case too (``a e k o p c x y``):
    ``"ab1234566"`` is not «АВ…» (a lower-case ``b`` is no «в»; it may have been meant as «б»).
    Nothing else is changed: a text that does not fit the RUB format exactly (a letter where a
    digit belongs …) is only upper-cased and stripped, and the engine then says what is wrong with it."""
    from companion.vision import serials

    canon = serials.canonical(text)
    if currency == "RUB" and not any("a" <= ch <= "z" and ch not in _LOWER_TWINS for ch in str(text)):
        exact = [m for m in serials.match(canon, "RUB") if m.corrections == 0]
        if exact:
            return exact[0].serial
    return canon


def _field_words(names) -> str:
    from companion.dashboard.i18n import field_word

    return ", ".join(_("«%(text)s»", text=field_word(n)) for n in names)  # quotes of the page's language


def _missing_fields(fields: list[str], optional: list[str]):
    """The 400 answer for a manual entry with required fields left ``?``."""
    if optional:
        msg = _("Fill in %(fields)s. Only %(optional)s may stay empty (unknown).",
                fields=_field_words(fields), optional=_field_words(optional))
    else:
        msg = _("Fill in %(fields)s: the game needs every field of this entry.", fields=_field_words(fields))
    return jsonify({"accepted": False, "reason": "missing_field", "fields": fields, "detail": msg,
                    "message": msg}), 400


def _join_split_serials(game_cls, text: str) -> str:
    """``text`` with the spaces inside a serial field dropped, as the page drops them (docs:
    *Manual entry*, "spaces inside an item are dropped"): ``table register 1 ak 244-4841,… ?``
    → ``table register 1 ak244-4841,… ?``. Only a ``table`` action with more words than fields
    and exactly one serial field is rejoined; anything else is returned unchanged."""
    tokens = text.split()
    if len(tokens) < 3 or tokens[0] != "table":
        return text
    cls = game_cls._verbs().get(tokens[1])
    if cls is None:
        return text
    fields = action_fields(cls)[0]
    extra = len(tokens) - 2 - len(fields)
    where = [i for i, f in enumerate(fields_of(cls)) if f.kind is Kind.SERIAL]
    if extra <= 0 or len(where) != 1:
        return text
    k = 2 + where[0]
    return " ".join(tokens[:k] + ["".join(tokens[k:k + extra + 1])] + tokens[k + extra + 1:])


def normalise_cards(text: str) -> str:
    """Card codes as the pages show them, typed back by the operator, in the engines' form
    (:func:`companion.games.cardnames.card_code`): ``Q♥`` → ``QH``, ``Д♥`` / ``д♥`` / ``ДH``
    (Russian rank letters Т К Д В) → ``QH``, ``10♠`` → ``10S``, ``JOKER`` / ``джокер`` → ``JK``.
    Only whole list items that are a rank and a suit change (a serial, a number or a doubt card
    name never is one)."""
    def one(item: str) -> str:
        if item.upper() in ("JOKER", "ДЖОКЕР"):
            return "JK"
        return card_code(item) or item

    text = re.sub(r"\s*,\s*", ",", text)
    return " ".join(",".join(one(i) for i in tok.split(",")) for tok in text.split())


def typed_cards(game, text: str):
    """The cards of an action a person typed, as the engine reads them: the one normalisation of
    every typed path — a seat's phone (``/api/seat/action``), the operator's table action and a
    seat's move played from the console (:func:`companion.dashboard.operator.action`); the manual
    entry (:func:`prepare_manual`) applies the same two steps around its own checks. Card codes as
    the pages show them (:func:`normalise_cards`: ``Д♥`` → ``QH``), then a deck's names
    (:func:`_canonical_names`: «гриб» → ``mushroom``, «бесконечность» → ``INF``), after the
    typed-text folding of :func:`companion.sanitise.typed` (full-width «３», a pasted zero-width
    space). Returns the text, or the 409 ``unknown_kind`` answer for a name not in the deck."""
    return _canonical_names(game, normalise_cards(sanitise.typed(text)))


def prepare_manual(text: str):
    """Check and normalise an operator's manual entry (see :func:`manual`).

    Returns the action text to submit, or a Flask ``(response, 400)`` when a field the game needs
    was left ``?`` (``409 unknown_kind`` for a card name not in the deck). Fields in the action
    class's ``UNKNOWN_OK`` may stay ``?`` (skull: the face values of the notes at registration;
    hoggenheimer: the joker's slot; infinity: the deal's leader); an entry for a seat in the
    table's form (``table play 0 500``) becomes the seat's action (:func:`for_seat`); kind names
    become the deck's ids (:func:`_canonical_names`); serial fields are canonicalised
    (:func:`canonical_serial`).
    A text the game cannot parse is passed on unchanged: the engine rejects it with its reason.
    """
    referee = common.table().require_referee()  # ended («Завершить игру») or never started: 409 no_game
    # a serial typed with spaces is rejoined first: ``table flip 1 БВ 2222224`` has one word more
    # than its fields and would otherwise read as seat 1's entry (:func:`for_seat`)
    # full-width letters and digits (a CJK keyboard: «ＡＢ１２３４５６７», «１２３») are the plain
    # ones, a pasted zero-width character is nothing
    text = _join_split_serials(type(referee.game), normalise_cards(sanitise.typed(text)))
    text = for_seat(type(referee.game), text)
    tokens = text.split()
    try:
        action = type(referee.game).parse_action(text)
    except IllegalAction as exc:
        if "?" in tokens:  # a '?' where the game takes no unknown value: a field still to fill
            msg = common.reason_message("missing_field")
            return jsonify({"accepted": False, "reason": "missing_field", "fields": [], "message": msg,
                            "detail": f"fill every '?' field before sending ({exc.detail})"}), 400
        return text  # the engine rejects it with its reason code (409)
    if action.seat is not None and not observation_fields(type(action)):
        # a seat's own decision (a bid, «Верю», a placement): only the seat's pad or phone makes
        # it; the operator enters what the camera could not read, never a player's choice
        return _refusal("seat_decision", f"{text!r} is a seat's own decision: the player makes it "
                        "on the seat's pad or phone", 409)
    fill = getattr(type(referee.game), "manual_fill", None)
    if fill is not None:  # what an operator's entry implies (the joker game: a card lies on its own place)
        filled = fill(action)
        if filled != action:
            action, text = filled, filled.text()
            tokens = text.split()
    fields, may_stay_unknown, _lists = action_fields(type(action))
    optional = list(may_stay_unknown)
    missing = [name for name, tok in zip(fields, tokens[2:]) if tok == "?" and name not in optional]
    if missing:
        return _missing_fields(missing, optional)
    named = _canonical_names(referee.game, text)
    if not isinstance(named, str):
        return named
    if named != text:
        text, action = named, type(referee.game).parse_action(named)
    currency = getattr(getattr(referee.game, "options", None), "currency", None)
    changes: dict[str, str | tuple] = {}
    # serial fields (kind ``serial``) are canonicalised before the engine sees them
    for name in (f.name for f in fields_of(type(action)) if f.kind is Kind.SERIAL):
        value = getattr(action, name, None)
        odd = _latin_not_cyrillic(value, currency)
        if odd is not None:
            serial, letter = odd
            msg = _("In «%(serial)s» the Latin letter «%(letter)s» is not a letter of a rouble serial: type the "
                    "Cyrillic letter the note shows.", serial=serial, letter=letter)
            return jsonify({"accepted": False, "reason": "serial_format", "fields": [name], "message": msg,
                            "detail": f"{serial!r}: a lower-case Latin {letter!r} in a rouble serial"}), 409
        if isinstance(value, str):
            changes[name] = canonical_serial(value, currency)
        elif isinstance(value, tuple):
            changes[name] = tuple(canonical_serial(v, currency) if isinstance(v, str) else v for v in value)
    if not changes:
        return text
    try:
        return dataclasses.replace(action, **changes).text()
    except ValueError:  # a serial that was only separators: nothing left to write
        return jsonify({"accepted": False, "reason": "bad_serial", "detail": _("A serial number is empty."),
                        "message": _("A serial number is empty.")}), 400


def _latin_not_cyrillic(value, currency: str | None) -> tuple[str, str] | None:
    """``(serial, letter)`` of a rouble serial typed with a lower-case Latin letter that looks like
    no Cyrillic serial letter in lower case (``b``, ``h``, ``m``, ``t`` …: see :func:`canonical_serial`),
    or ``None``. The engine would take ``AB…`` for «АВ…» as a Latin twin; the operator may have
    meant «аб»."""
    if currency != "RUB":
        return None
    for serial in (value if isinstance(value, tuple) else (value,)):
        if isinstance(serial, str):
            letter = next((ch for ch in serial if "a" <= ch <= "z" and ch not in _LOWER_TWINS), None)
            if letter is not None:
                return serial, letter
    return None


def _refusal(reason: str, detail: str, status: int):
    """A refusal made before the engine sees the entry, shaped like a rejected outcome."""
    return jsonify({"accepted": False, "reason": reason, "detail": detail,
                    "message": common.reason_message(reason)}), status
