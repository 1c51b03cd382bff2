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
from typing import Callable, Mapping

from companion.games import registry
from companion.games.cardnames import card_words, rank_words
from companion.games.words import cards_count
from companion.i18n import M, MN, Message, N_, aside, render
from companion.i18n.render import LANGUAGES

#: ``{code: message id}`` (English; the Russian is in the catalogue).
REASONS: dict[str, str] = {
    # shared codes (companion.errors.COMMON_REASONS)
    "bad_syntax": N_('The entry is not understood: check the values typed (numbers where numbers belong, lists separated by commas).'),
    "unknown_action": N_('This game has no such action.'),
    "unknown_seat": N_('There is no such seat at this table.'),
    "game_over": N_('The game has ended: no more moves.'),
    "not_your_turn": N_('Another player must act now.'),
    # the operator console's action box takes table actions only (companion/dashboard/operator.py)
    "not_a_table_action": N_('The operator enters table actions (table …); players act from their button pads or phones.'),
    # companion.table.Table.submit_for_seat: a phone or button pad acting for another seat
    "not_your_seat": N_('This phone or button pad may act only for its own seat.'),
    # companion.table.control: the operator's seat directives (table console N, table as N …)
    "seat_not_on_console": N_("This seat is not played from the console: take it first with «table console N»."),
    "no_bots": N_("This table has no bots: only the simulated table has them. «table console N» lets you play a seat."),
    # companion/dashboard/seat.py: a phone on a seat the operator handed (back) to the bots
    "bots_play_seat": N_("The simulated table's bots play this seat now: the operator handed it to them. Join the "
                         "seat again with its code to take it over, or ask the operator."),
    "read_by_table": N_('Make your move; the card itself is read by the camera (or entered by the operator).'),
    "wrong_phase": N_('This action is not possible at this stage of the game.'),
    "nothing_to_undo": N_('There is nothing to undo: no accepted action yet.'),
    # companion.referee.Referee.submit's "seen" guard (a double tap, two operators at once)
    "repeated": N_('Already accepted: this press repeated the one before it.'),
    "stale": N_('The table changed meanwhile: look at it and press again if still needed.'),
    # companion/dashboard/operator.py manual entries
    "prompt_closed": N_('This request was already answered (by the camera or another operator).'),
    # companion/dashboard/seat.py: the «считает N» badge of a bid being counted on a phone
    "bad_pending": N_('A bid can be counted only on your turn and within what you may bid now.'),
    "seat_decision": N_("This is the player's own decision: it is made on the player's button pad or phone."),
    "bad_line": N_('A line of the table log is damaged and was skipped.'),
    "bad_option": N_('A house rule has an impossible value.'),
    "bad_seats": N_('This number of players does not suit the game.'),
    "unknown_game": N_('There is no such game.'),
    "no_game": N_('No game is running: start a new game first.'),
    "missing_field": N_('Fill in every required field.'),
    "nothing_to_void": N_('No round is in progress: there is nothing to void.'),
    "seat_only": N_('A player must do this, not the table.'),
    "table_only": N_('Only the table (camera or operator) may do this.'),
    # doubt
    "unknown_kind": N_('There is no such card in this deck.'),
    "unreadable_card": N_('A card was not read: rescan it or type it in.'),
    # (with its facts the sentence names the game's own deck: WITH_FACTS, _bad_card)
    "bad_card": N_('The card is not written correctly.'),
    # infinity
    "unknown_card": N_('There is no card of that value in this deck.'),
    "wrong_count": N_('The number of cards differs from what that player holds.'),
}

GENERIC = N_("The entry was not accepted.")


# ---------------------------------------------------------------------- refusals with their facts
def _wrong_count(f: dict) -> Message:
    entered = f["entered"]
    if "dealt" in f:  # lottery: the cards the dealer dealt that player this deal
        return MN("%(player)s was dealt %(n)s card, but %(entered)s were entered.",
                  "%(player)s was dealt %(n)s cards, but %(entered)s were entered.", f["dealt"],
                  player=f["player"], entered=entered)
    # infinity: the cards the last player still holds
    return M("%(player)s holds %(cards)s, but %(entered)s were entered.", player=f["player"],
             cards=cards_count(f["held"]), entered=entered)


def _typed(f: dict) -> str:
    """ «ХОЙ»: the card as typed, after a colon, when the refusal has it (else nothing)."""
    card = f.get("card")
    return "" if card in (None, "", "?") else f": «{card}»"


def _bad_card(f: dict) -> Message:
    """A card written wrong, with how the game's own deck writes its cards: 6100's values as the
    pages name them («10, 36, …, Бесконечность»: the facts carry each card's words), or rank and suit with examples from the deck (QH — Д♥ / Q♥). The same
    sentences as the console's for a card name not in doubt's deck («Такой карты в этой колоде
    нет: «лиса». Карты колоды: …», ``manualentry._canonical_names``)."""
    typed = _typed(f)
    if "deck" in f:  # infinity: the table's card values (a list fact: joined with ", ", each in words)
        return M("The card is not written correctly%(typed)s. The deck's cards: %(cards)s.", typed=typed,
                 cards=list(f["deck"]))
    # the ranks and the examples as each language's decks write them (Д♥ on a Russian page)
    ranks = {lang: " ".join(rank_words(r, lang) for r in f["ranks"]) for lang in LANGUAGES}
    examples = {lang: ", ".join(f"{c} — {card_words(c, lang)}" for c in f["examples"]) for lang in LANGUAGES}
    joker = f.get("joker")
    if re.fullmatch(r"(10|[2-9AKQJ])[SHDC]", str(f.get("card") or "")):
        # written right, but not a card of this deck (the joker game's 32 cards have no 2♣)
        return M("No such card in this deck%(typed)s. The deck's ranks: %(ranks)s.", typed=typed, ranks=ranks)
    if joker:
        return M("The card is not written correctly%(typed)s. Write a rank (%(ranks)s) and a suit (S, H, D, C), "
                 "e.g. %(examples)s; the joker is %(joker)s.", typed=typed, ranks=ranks, examples=examples, joker=joker)
    return M("The card is not written correctly%(typed)s. Write a rank (%(ranks)s) and a suit (S, H, D, C), "
             "e.g. %(examples)s.", typed=typed, ranks=ranks, examples=examples)


def _unknown_card(f: dict) -> Message:
    """A card the game knows how to write but this table's deck does not hold (6100's 700, a
    name not among doubt's kinds): the deck's own cards."""
    cards = f["deck"] if "deck" in f else list(f["kinds"])
    return M("No such card in this deck%(typed)s. The deck's cards: %(cards)s.", typed=_typed(f), cards=cards)


def _not_your_turn(f: dict) -> Message:
    if f.get("by") == "table":
        return M("The table does this: the camera or the operator.")
    if f.get("role") == "banker":
        return M("The banker, %(player)s, spreads the chips.", player=f["player"])
    return M("%(player)s must act now.", player=f["player"])


def _not_on_console(f: dict) -> Message:
    return M("Seat %(seat)s (%(player)s) is not played from the console: take it first with the button "
             "%(button)s (or «table console %(seat)s»), then type its move.", seat=int(f["seat"]),
             player=f["player"], button=M("«%(text)s»", text=M("Take onto the console")))


def _unknown_seat(f: dict) -> Message:
    n = int(f["seats"])
    if f.get("all"):
        return M("There is no seat %(seat)s at this table: seats are numbered 1 to %(n)s, or «all».",
                 seat=str(f["seat"]), n=n)
    return M("There is no seat %(seat)s at this table: seats are numbered 1 to %(n)s.", seat=str(f["seat"]), n=n)


def name_too_long(length: int, most: int, name: str) -> Message:
    """A player name longer than a new game takes (``companion.games.seats.MAX_SEAT_NAME``): the
    new-game form's sentence, and ``--seats``'s (``check_new_game``'s facts ``too_long``,
    ``length``, ``most``); the count agrees with its number («101 символ», «22 символа»)."""
    return MN("The name is too long: %(n)s character, at most %(most)s («%(name)s»). Put each name on its own "
              "line (or separate them with commas).",
              "The name is too long: %(n)s characters, at most %(most)s («%(name)s»). Put each name on its own "
              "line (or separate them with commas).", int(length), most=int(most), name=str(name))


def long_name_words(name: str) -> Message:
    """:func:`name_too_long` for ``name``: its length, the most, the name shortened when it is
    very long (:func:`~companion.games.seats.shortened_name`)."""
    from companion.games.seats import MAX_SEAT_NAME, shortened_name

    return name_too_long(len(name), MAX_SEAT_NAME, shortened_name(name))


def _bad_seats(f: dict) -> Message | None:
    """Too many players: the most the game takes (whatever its presenter says of the least: the
    lottery's sentence explains why it needs 4); a name too long: its length and the most; too few
    or another bad name: ``None``, the game's own."""
    if f.get("too_long"):
        return name_too_long(int(f["length"]), int(f["most"]), str(f["too_long"]))
    if int(f["given"]) > int(f["max"]):
        return M("Too many players: %(given)s entered, this game takes at most %(max)s.", given=int(f["given"]),
                 max=int(f["max"]))
    return None


#: ``{reason: words(facts) -> message}`` for the refusals whose fix needs the table's facts (see
#: the module doc); a sentence that finds a fact missing (or returns ``None``) falls back to the
#: plain one.
WITH_FACTS: dict[str, Callable[[dict], Message | None]] = {
    # infinity (kept cards), lottery (a player's cards)
    "wrong_count": _wrong_count,
    # a card field (doubt, hoggenheimer, infinity, lottery): the game's own deck
    "bad_card": _bad_card,
    "unknown_card": _unknown_card,
    "unknown_kind": _unknown_card,
    # every game: who must act now (the player by name), or the table itself
    "not_your_turn": _not_your_turn,
    # the operator's seat directives (companion.table.control): which seat, how to take it
    "seat_not_on_console": _not_on_console,
    "unknown_seat": _unknown_seat,
    # every game: a count above the most it takes (Game.seat_refusal's facts)
    "bad_seats": _bad_seats,
}


def facts_words(reason: str | None, facts: dict | None) -> Message | None:
    """The message for ``reason`` with its ``facts`` (:data:`WITH_FACTS`), or ``None`` when the
    reason has no such sentence or a fact it needs is missing."""
    words = WITH_FACTS.get(reason or "")
    if words is None or not facts:
        return None
    try:
        return words(facts)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def facts_message(reason: str | None, lang: str, facts: dict | None) -> str | None:
    """:func:`facts_words` rendered in ``lang``."""
    return render(facts_words(reason, facts), lang)


#: Dashboard request errors by HTTP status (message ids), for the JSON ``message`` (the English
#: ``detail`` stays).
HTTP: dict[int, str] = {
    400: N_("The request was not understood: check what was typed."),
    403: N_("Not allowed: log in as the operator (or join a seat) again."),
    404: N_("Not found."),
    405: N_("This request is not allowed here."),
    409: REASONS["no_game"],
    413: N_("The request is too large."),
    429: N_("Too many wrong attempts: wait a little and try again."),
    503: N_("The referee is busy: try again."),
}


#: A POST whose CSRF token does not match the session (security.check_csrf: 400 ``csrf``): the
#: page was loaded before the box restarted or the session cookie went; reloading fixes it.
STALE_PAGE = N_("This page is out of date (the table restarted or the session ended): reload it and try again.")


#: A seat request with a seat login its game took with it (403 ``seat_retired``: a new game, or
#: the game was over when the table restarted): the phone joins again with the new code.
SEAT_RETIRED = N_("This phone's seat login was for an earlier game, and this game has new seat codes: join "
                  "your seat again with its new code from the operator, or scan the new QR code.")

#: The same when the operator ended the login's game (403 ``seat_retired: ended``).
SEAT_ENDED = N_("The operator ended this phone's game, so its seat login ended: when the next game starts, "
                "join your seat with its new code from the operator, or scan the new QR code.")

#: A refused guess (429) with its wait: ``%(wait)s`` is «40 с» / «3 мин» (security.wait_words).
RETRY_WAIT = N_("Too many wrong attempts: wait %(wait)s and try again.")

#: A request refused by the text sanitiser at the API edge (``companion.sanitise``).
BAD_TEXT = N_("The text holds characters that cannot be shown (control characters or broken ones): type it again.")

def too_long(n: int, most: int) -> Message:
    """A text longer than any field takes (``companion.sanitise.MAX_TEXT``): its length ``n`` (the
    count agrees with its number: «101 символ», «22 символа») and the most."""
    return MN("The text is too long: %(n)s character, at most %(most)s.",
              "The text is too long: %(n)s characters, at most %(most)s.", n, most=most)


#: The same for the form fields people type in, by field name: ``(n, most) -> message``.
TOO_LONG_FIELDS: dict[str, Callable[[int, int], Message]] = {
    "seats": lambda n, most: MN("The list of names is too long: %(n)s character, at most %(most)s.",
                                "The list of names is too long: %(n)s characters, at most %(most)s.", n, most=most),
    "name": lambda n, most: MN("The name is too long: %(n)s character, at most %(most)s.",
                               "The name is too long: %(n)s characters, at most %(most)s.", n, most=most),
    "code": lambda n, most: MN("The code is too long: %(n)s character, at most %(most)s.",
                               "The code is too long: %(n)s characters, at most %(most)s.", n, most=most),
    "pin": lambda n, most: MN("The PIN is too long: %(n)s character, at most %(most)s.",
                              "The PIN is too long: %(n)s characters, at most %(most)s.", n, most=most),
}

#: A request whose body is not a JSON object (not JSON, a list, a form, no body at all): the API
#: is called by hand (curl) or by an old page (``bad_json``, ``companion.sanitise``).
BAD_JSON = N_("The request's body is not a JSON object: send one, with Content-Type: application/json.")


#: A JSON number no field takes (``companion.sanitise.BadNumber``: ``1e400`` reads as infinity, or
#: a number far beyond any version, seat or count): the field that held it.
BAD_NUMBER = N_("«%(field)s» must be an ordinary number: this one is infinite or far too large.")
BAD_NUMBER_SOMEWHERE = N_("A number in the request is infinite or far too large: send an ordinary number.")


def http_message(code: int, lang: str, detail: str | None = None, wait: int | None = None) -> str:
    """A dashboard request error (HTTP status ``code``; ``detail`` the error's description, e.g.
    ``"csrf"``) in words in ``lang``; a 429 with its ``wait`` (seconds) says how long."""
    if code == 429 and wait:
        from companion.dashboard.security import wait_words

        return render(M(RETRY_WAIT, wait=wait_words(int(wait), lang)), lang)
    if code == 400 and detail is not None and str(detail).startswith("bad_text: too_long: "):
        field, length, most = (str(detail).split(": ") + ["", "", ""])[2:5]
        if length.isdigit() and most.isdigit():
            return render(TOO_LONG_FIELDS.get(field, too_long)(int(length), int(most)), lang)
    if code == 400 and detail is not None and str(detail).startswith("bad_number: "):
        field = str(detail).split(": ")[1]
        return render(M(BAD_NUMBER, field=field) if field else M(BAD_NUMBER_SOMEWHERE), lang)
    if code == 400 and detail is not None and str(detail).startswith("bad_text"):
        return render(M(BAD_TEXT), lang)
    if code == 400 and detail is not None and str(detail).startswith("bad_json"):
        return render(M(BAD_JSON), lang)
    if code == 403 and detail is not None and str(detail).startswith("seat_retired"):
        return render(M(SEAT_ENDED if str(detail).startswith("seat_retired: ended") else SEAT_RETIRED), lang)
    word = STALE_PAGE if (code == 400 and detail == "csrf") else HTTP.get(
        code, HTTP[400] if 400 <= code < 500 else GENERIC)
    return render(M(word), lang)


def plain_words(reason: str | None, game_id: str | None = None) -> Message | Mapping[str, str]:
    """The plain sentence of ``reason`` (no facts): the game's own (its presenter's
    ``refusals``: a message id, a message or its words in both languages), else the table's
    (:data:`REASONS`), else the generic one."""
    spec = registry.find(game_id) if game_id else None
    own = spec.presenter.refusals.get(reason or "") if spec is not None else None
    if isinstance(own, (Message, Mapping)) and own:
        return own
    return M((own if isinstance(own, str) else None) or REASONS.get(reason or "") or GENERIC)


def reason_words(reason: str | None, game_id: str | None = None, options=None, facts: dict | None = None):
    """The words for ``reason``, never the engine's English detail: with the refusal's ``facts``
    (``IllegalAction.facts``) the table's sentence for them (:data:`WITH_FACTS`), then the game's
    own words (its presenter's ``refusal``: with facts, with its options, or plain), then
    :data:`REASONS`, then (English) the meaning the engine gives the code (``Game.REASONS``; in
    Russian the generic "not accepted")."""
    told = facts_words(reason, facts)
    if told:
        return told
    if not reason:
        return M(GENERIC)
    spec = registry.find(game_id)
    if spec is not None:
        own = spec.presenter.refusal(reason, options, facts)
        if own:
            return own
    word = REASONS.get(reason or "")
    if word:
        return M(word)
    if spec is not None and spec.engine.REASONS.get(reason):
        return aside(spec.engine.REASONS[reason], M(GENERIC))  # the engine's English, else the plain sentence
    return M(GENERIC)


def reason_message(reason: str | None, lang: str, game_id: str | None = None, options=None,
                   facts: dict | None = None) -> str:
    """:func:`reason_words` rendered in ``lang`` (``"ru"`` or ``"en"``)."""
    return render(reason_words(reason, game_id, options, facts), lang)
