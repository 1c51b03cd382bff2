"""Languages: Russian by default, English switchable (Flask-Babel; catalogues in web/translations).

Message ids are English; ``web/translations/ru/LC_MESSAGES/messages.po`` holds the Russian.
The page scripts get their words from :func:`js_words` (the same catalogue), so one .po file
translates the templates and the live-rendered parts alike: the shared words here, each registered
game's own from its package (``GameSpec.page_words``, ``GameSpec.option_labels``).
"""

from __future__ import annotations

from flask import request
from flask_babel import gettext as _
from flask_babel import pgettext

from companion.games import registry
from companion.games.spec import Word
from companion.i18n import N_, render

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
COOKIE = "lang"


def select_locale() -> str:
    """The ``lang`` cookie if it names a supported language, else Russian."""
    lang = request.cookies.get(COOKIE, "")
    return lang if lang in LANGUAGES else DEFAULT


# The page's words (``docs/architecture.md``, "The page's words"): what the page script says
# itself and the words several games share, here; a game's own words in its package
# (``GameSpec.page_words``, ``GameSpec.option_labels``); :func:`js_words` joins them. English
# message ids marked ``N_`` (``make catalogue`` extracts them), translated where they are shown.
# Unknown keys and verbs are shown as they are (underscores as spaces).
_WORDS: dict[str, Word] = {
    # the page script's own words: the pad, the history, the operator's console
    "turn": N_("Turn"), "dealer": N_("Dealer"), "you": N_("You"), "pending": N_("Counting"),
    "history": N_("History"), "no_game": N_("No game yet. The operator starts one."),
    "over": N_("Game over"), "result": N_("Result"),
    "no_answer": N_("No answer from the table: look at the table, then repeat if it is needed"),
    "your_actions": N_("Your actions"), "wait": N_("Waiting for other players"),
    "seat_hint": N_("number from 1 or name"), "how_many": N_("%(n)s of them"),
    "amounts_hint": N_("Type the amounts as numbers, separated by spaces or commas."),
    "amount_negative": N_("«%(field)s»: an amount cannot be negative (%(value)s): type 0 or more."),
    "your_turn_table": N_("Your move: play it on the table — the camera reads it (or the operator enters it)"),
    "rejected": N_("Not accepted"), "accepted": N_("Accepted"), "send": N_("OK"),
    "table_actions": N_("Table actions"), "prompts": N_("Prompts"), "manual": N_("Enter by hand"),
    "private": N_("only you see this"), "table_action": N_("Table"), "undo": N_("Last action undone"),
    "seat": N_("Seat"), "action": N_("Action"), "info": N_("Game"), "yes": N_("yes"), "no": N_("no"),
    "source_manual": N_("entered by hand"), "blank_unknown": N_("leave empty if unknown"),
    "required_field": N_("required"),
    "confirm_leave": N_("Take %(name)s out of the game? This cannot be undone by the player."),
    "leave_button": N_("Take out of the game"),
    # the console's «Сейчас» line: whose turn, the table waiting for the operator's entry, or nothing to do
    "now_turn": N_("Turn: %(names)s"), "now_yours": N_("the table waits for your entry below"),
    "now_nothing": N_("nothing to do now"), "now_next_game": N_("start another game below"),
    # the status chips (web/static/js/status.js)
    "hw_status": N_("Table status"), "buttons": N_("Button box"), "camera": N_("Camera"), "ocr": N_("OCR"),
    "state_ok": N_("working"), "state_warn": N_("check"), "state_error": N_("fault"),
    "state_absent": N_("not connected"), "state_sim": N_("simulated"), "state_unused": N_("not used"),
    "live": N_("Live"), "offline": N_("Reconnecting…"),
    # view keys the shared page parts draw for any game (the big chips, the seats' badges, the
    # cards face down) and those of several games
    "bid": N_("Bid"), "bank": N_("Bank"), "face_down": N_("Face down"), "face_up": N_("Face up"),
    "b_passed": N_("Passed"), "b_agreed": N_("Agrees"),
    "phase": N_("Phase"), "round": N_("Round"), "stacks": N_("Stacks"), "hand": N_("Hand"),
    "cards": N_("Cards"), "score": N_("Score"), "name": N_("Name"), "count": N_("Count"),
    "discard": N_("Discard"), "deck": N_("Deck"), "winner": N_("Winner"), "trick": N_("Trick"),
    "bidder": N_("Bidder"), "revealed": N_("Revealed"), "lost": N_("Lost"), "out": N_("Out"),
    "deal": N_("Deal"), "banker": N_("Banker"), "chips": N_("Chips"), "outcome": N_("Outcome"),
    "options": N_("House rules"), "role": N_("Role"), "card": N_("Card"), "turned": N_("Turned up"),
    "aside": N_("Aside"),
    # action fields without a view word of their own (the manual entry's «Fill in …» message)
    "owner": N_("Player"),
    # values and phases of several games
    "val_out": N_("out"), "val_left": N_("left"),
    "phase_reveal": N_("reveal"), "phase_over": N_("game over"), "phase_deal": N_("deal"),
    "phase_play": N_("play"), "phase_lead": N_("first lay"),
    # verbs of several games and of the table
    "v_play": N_("Play"), "v_void": N_("Void the round"), "v_pick": N_("Pick"), "v_deal": N_("Deal"),
    "v_more": N_("More"), "v_scan": N_("Scan"), "v_undo": N_("Undo"),
    # the seats' phones (web/static/devices.js, companion/dashboard/devices.py)
    "dev_title": N_("Phones on seats"), "dev_none": N_("No phone has joined yet."),
    "dev_first": N_("joined at %(t)s"), "dev_last": N_("seen at %(t)s"), "dev_online": N_("online"),
    "dev_unknown": N_("unknown browser"), "dev_revoke": N_("Sign out"),
    "dev_revoke_ask": N_("Sign this phone out of its seat? To play on it again it will need the seat's code."),
    "dev_revoked": N_("The phone is signed out."),
    "dev_many": N_("%(n)s phones hold this seat"),
    "dev_joined": N_("Another phone joined your seat (%(label)s, at %(t)s). If it is not yours, tell the operator."),
    "dev_signed_out": N_("The operator signed this phone out of its seat. To play on it again, enter the seat's code."),
    "dev_join_again": N_("Join again"),
    # the camera set-up view and the table's voice (web/static/setup.js)
    "voice_title": N_("Table voice"), "voice_on": N_("Speak"), "voice_lang": N_("Voice language"),
    "voice_lang_ru": N_("Russian"), "voice_lang_en": N_("English"), "voice_volume": N_("Volume"),
    "voice_pace": N_("Pace, words a minute"), "voice_turn": N_("Say whose turn after (s; 0: never)"),
    "voice_save": N_("Save"), "voice_test": N_("Test the voice"), "voice_saved": N_("Saved."),
    "voice_queued": N_("Speaking…"),
    "cam_title": N_("Camera set-up"),
    "cam_hint": N_("Aim and focus the camera: green boxes are cards or notes big enough to read, orange ones are "
                   "too small; blue marks what the readers read, red what they were not sure of."),
    "cam_show": N_("Show the camera"), "cam_hide": N_("Hide the camera"), "cam_none": N_("No camera frame yet."),
    "cam_blurred": N_("Out of focus: turn the lens ring until the edges are sharp."),
    "cam_dark": N_("Too dark: add light over the table."),
    "cam_bright": N_("Too bright: dim the light over the table."),
    "cam_glare": N_("Glare: move the lamp so it does not reflect off the cards and notes."),
    "cam_small": N_("Some cards or notes are too small: bring the camera closer (at least %(n)s px on the short side)."),
    "cam_nothing": N_("No card or note in view."), "cam_good": N_("The camera is set up well."),
    "cam_figures": N_("Focus %(f)s, brightness %(b)s, glare %(g)s"),
    # the boards' «Подробнее» fold and totals, the table display /tv (web/static/js/tv.js)
    "details": N_("Details"), "total": N_("Total"), "tv_turn": N_("Whose turn"), "tv_last": N_("Last event"),
    "tv_result": N_("Result"), "tv_chips": N_("Chips over the rounds"), "tv_points": N_("Points over the deals"),
}


# Terms several games' views, events, values and verbs share, for the generic renderer: the page
# script looks a key up as itself, then as ``t_<term>`` (``e_round_end`` -> ``t_round_end``), so
# one word serves a view key, an event kind and a value alike. English shows the term itself.
_TERMS: dict[str, Word] = {
    "balances": N_("balances"), "covered": N_("covered"), "deals": N_("deals"), "dealt": N_("dealt"),
    "game": N_("game"), "game_over": N_("game over"), "hands": N_("hands"), "id": N_("id"),
    "kind": N_("kind"), "last_winner": N_("last winner"), "lead": N_("lead"), "leader": N_("leader"),
    "net": N_("net"), "next_dealer": N_("next dealer"), "order": N_("order"), "rounds": N_("rounds"),
    "slot": N_("slot"), "stakes": N_("stakes"), "to_act": N_("to act"), "turned": N_("turned"),
    "verbs": N_("verbs"), "voids": N_("voids"), "winners": N_("winners"), "won": N_("won"),
    "dealer": N_("dealer"), "deal": N_("deal"), "card": N_("card"), "cards": N_("cards"),
    "place": N_("place"), "round_won": N_("round won"), "round_lost": N_("round lost"),
    "outcome": N_("outcome"), "add": N_("add"), "eliminated": N_("eliminated"),
    "round_void": N_("round void"), "undo": N_("undo"), "chips": N_("chips"), "winner": N_("winner"),
    "result": N_("result"),
}

_TABLE: dict[tuple, dict[str, Word]] = {}
_CACHE: dict[tuple, dict[str, str]] = {}


def _table() -> dict[str, Word]:
    """The page's words by key, before translation: the shared words, ``t_<term>`` for the shared
    terms, then each registered game's ``page_words`` and ``opt_<name>`` for its option labels. A
    key a game words differently from the words before it (the shared ones, the games registered
    earlier) is that game's alone: ``"<game id>:<key>"``, which the page script looks up first on
    that game's pages — so a game registered later never changes another game's page."""
    specs = registry.specs()
    key = tuple(map(id, specs))  # a game registered (or replaced) later brings its words
    table = _TABLE.get(key)
    if table is None:
        table = {**_WORDS, **{f"t_{k}": v for k, v in _TERMS.items()}}
        for spec in specs:
            own = {**spec.page_words, **{f"opt_{k}": v for k, v in spec.option_labels.items()}}
            for k, word in own.items():
                if table.setdefault(k, word) != word:
                    table[f"{spec.id}:{k}"] = word
        _TABLE.clear()
        _TABLE[key] = table
    return table


def _say(word: Word) -> str:
    """A page word in the request's language: a message id through the catalogue, a message
    rendered, a text in both languages in the request's one."""
    if isinstance(word, str):
        return _(word)
    from flask_babel import get_locale

    return render(word, str(get_locale() or DEFAULT)) or ""


def sentence(text) -> str:
    """``text`` in sentence case, as every label on the pages is (a button, a field's name, a
    heading, a badge): its first letter a capital, the rest as it is — «место» → «Место»,
    ``"odd"`` → ``"Odd"``, «ХОЙ!» stays. A game term serves as a value too («этап: ставки»), so
    its catalogue word stays lower case and a label is made of it here (and by the page script's
    ``label``)."""
    text = str(text)
    return text[:1].upper() + text[1:]


def option_label(name: str, game_id: str | None = None) -> str:
    """A house-rule option's label in the request's language: game ``game_id``'s own
    (``GameSpec.option_labels``), else any registered game's, else the option name."""
    spec = registry.find(game_id) if game_id else None
    word = spec.option_labels.get(name) if spec is not None else None
    if word is None:
        word = _table().get(f"opt_{name}")
    return _say(word) if word is not None else name.replace("_", " ")


def game_name(game_id: str) -> str:
    """A game's name in the request's language: its spec's ``title`` through the catalogue (the id
    when no such game is registered)."""
    spec = registry.find(game_id)
    return _(spec.title) if spec is not None else game_id


def game_title(game_id: str, lang: str = DEFAULT) -> str:
    """A game's name in ``lang`` outside a request (the consoles of ``companion run`` and
    ``companion dashboard``): the pages' own names (:func:`companion.games.registry.title`),
    «Череп и розы (на купюрах)» for ``skull``; the id when unknown."""
    return render(registry.title(game_id), lang)


def term(value: str, game_id: str | None = None) -> str:
    """A game term (an option's choice such as ``odd``) in the request's language, game
    ``game_id``'s own word first; else the value itself."""
    table = _table()
    word = table.get(f"{game_id}:t_{value}") if game_id else None
    if word is None:
        word = table.get(f"t_{value}")
    return _say(word) if word is not None else str(value)


def field_word(name: str) -> str:
    """An action field's name in the request's language (``"serials"`` → «Номера купюр»), the
    same word the page script shows as the field's placeholder: a UI word, else the game term
    (``"slot"`` → «место», ``"leader"`` → «ведущий»), else the name with spaces for underscores.
    Every field of the five games' actions has a word (``tests/dashboard/test_manual_entry_games.py``).
    A field's name is a label: in sentence case («Место», not «место»)."""
    table = _table()
    word = table.get(name)
    if word is None:
        word = table.get(f"t_{name}")
    return sentence(_say(word) if word is not None else name.replace("_", " "))


def _game_words() -> dict[str, str]:
    """Words one game says differently from the others, as ``"<game id>:<key>"`` (each spec's
    ``terms``, translated with the game id as the message context): the page script looks them up
    first on that game's pages. Call it with a request's locale in force. The joker game's banker
    is «банкомет», the seed's word (seed 002), while the lottery's stays «банкир» (seed 004): the
    same view key ``banker``, two words. Skull's notes lie «номером вниз» (seed 000, as its history
    says), not «рубашкой вверх»: a banknote has no card back. One term per game, as its seed and its
    history say it: the lottery's and doubt's dealer is «сдающий» (seed 004; doubt's options and
    refusals), skull's «дилер» (seed 000); the joker game's deal is a «сдача» (seed 002: «Сдача
    расклада»), 6100's a «партия» (seed 003: «оговоренное количество партий»), doubt's game of the
    match a «партия»."""
    return {f"{spec.id}:{key}": pgettext(spec.id, msgid) for spec in registry.specs()
            for key, msgid in spec.terms.items()}


def js_words() -> dict[str, str]:
    """The script's words in the request's language (translated once per language)."""
    from flask_babel import get_locale

    lang = str(get_locale() or DEFAULT)
    key = (lang, tuple(map(id, registry.specs())))  # a game registered later brings its words
    words = _CACHE.get(key)
    if words is None:
        words = {k: _say(v) for k, v in _table().items()}
        words.update({f"game_{spec.id}": _(spec.title) for spec in registry.specs()})
        words.update(_game_words())
        _CACHE[key] = words
    return words


__all__ = ["LANGUAGES", "DEFAULT", "COOKIE", "select_locale", "js_words", "field_word", "option_label",
           "game_name", "game_title", "term", "sentence", "_"]
