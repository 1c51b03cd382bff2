"""A seat's move typed by the operator in the words of the seat's buttons («Ставка 3», «Верю»,
«Не верю», "Bid 3") turned into the move the seat's page sends (``bid 3``, ``believe``): the
console's «Играть место с пульта» move field (see *The operator console* in
``docs/dashboard.md``)."""

from __future__ import annotations

import re

from companion.games import registry
from companion.sanitise import fold_words, other_layout
from companion.i18n import LANGUAGES, M, Message, render, translations

#: what a typed word loses before it is compared: case, «ё», quotes and the labels' separators
_QUOTES = re.compile(r"[«»\"“”„'’!?.]")


def fold(text: str) -> str:
    """``text`` as compared with a button's words: lower case, «ё» as «е», no quotes or closing
    marks, single spaces (``"«Не  Верю!»"`` → ``"не верю"``)."""
    return fold_words(_QUOTES.sub(" ", str(text)))


def _label(word, lang: str) -> str:
    if isinstance(word, str):
        return translations(lang).gettext(word)
    return render(word, lang) or ""


_CACHE: dict[tuple[str, int], dict[str, str]] = {}

#: the endings of a Russian verb's infinitive: a label's first word that is one («Выложить карты»,
#: «Снять ставку») names the verb alone too, as a person says the move («выложить 2 гриба»)
_INFINITIVE = ("ть", "ти", "чь")


def _verb_word(game_id: str, verb: str):
    """The word of ``verb``'s button in game ``game_id`` (a message id or a message), or ``None``."""
    from companion.dashboard.i18n import _WORDS

    spec = registry.find(game_id)
    own = spec.page_words if spec is not None else {}
    return own.get(f"v_{game_id}_{verb}") or own.get(f"v_{verb}") or _WORDS.get(f"v_{verb}")


def verb_words(game_id: str) -> dict[str, str]:
    """``{folded words: verb}`` for each verb of game ``game_id``: its button's label in every
    language the pages speak (the game's own ``v_<id>_<verb>`` or ``v_<verb>`` page word, else the
    shared one), each part of a two-language label («Верю · I believe») on its own, the first word
    of a Russian label when it is the verb's infinitive («выложить» of «Выложить карты»), and the
    verb itself. Words two verbs share name neither. An unknown game has none."""
    spec = registry.find(game_id)
    if spec is None:
        return {}
    key = (game_id, id(spec))
    if key in _CACHE:
        return _CACHE[key]
    found: dict[str, set[str]] = {}
    for verb in spec.engine._verbs():
        word = _verb_word(game_id, verb)
        names = {verb, verb.replace("_", " ")}
        if word is not None:
            for lang in LANGUAGES:
                names.update(part for part in _label(word, lang).split(" · "))
        for name in filter(None, map(fold, names)):
            found.setdefault(name, set()).add(verb)
            first = name.split()[0]
            if first != name and first.endswith(_INFINITIVE):  # «выложить» of «Выложить карты»
                found.setdefault(first, set()).add(verb)
    words = _CACHE[key] = {name: next(iter(verbs)) for name, verbs in found.items() if len(verbs) == 1}
    return words


def typed_move(game_id: str | None, text: str) -> str:
    """The move the seat's page would send for ``text`` typed by the operator: its leading words,
    when they are a verb's button label in any language (the longest that fits), become the verb;
    the rest stays as typed (cards are read as on the pages by the entry's own normalisation).
    ``"Ставка 3"`` → ``"bid 3"``, ``"не верю"`` → ``"doubt"`` (doubt), ``"bid 3"`` unchanged; the
    move of ``table as N <move>`` likewise (``"table as 3 Согласен"`` → ``"table as 3 agree"``);
    anything else (another ``table …`` directive, an unknown word) is returned unchanged, for the
    engine to say what is wrong with it."""
    words = str(text).split()
    if game_id and len(words) > 3 and words[:2] == ["table", "as"] and words[2].isdigit():
        return " ".join(words[:3] + [typed_move(game_id, " ".join(words[3:]))])
    if not game_id or not words or words[0] == "table":
        return str(text)
    verbs = verb_words(game_id)
    for n in range(len(words), 0, -1):
        verb = verbs.get(fold(" ".join(words[:n])))
        if verb is not None:
            return " ".join([verb, *words[n:]])
    # the keyboard left on the Latin layout («dskj;bnm 2 uhb,» for «выложить 2 гриб»): the
    # leading words read as the Russian keys, when they name no verb as typed (the rest is read
    # by the entry's own normalisation: a card code stays Latin)
    for n in range(len(words), 0, -1):
        meant = other_layout(" ".join(words[:n]))
        verb = verbs.get(fold(meant)) if meant else None
        if verb is not None:
            return " ".join([verb, *words[n:]])
    return str(text)


#: the reasons of a typed move the engine could not read at all (no such verb, or not its form)
UNREAD = frozenset({"unknown_action", "bad_syntax"})


def unread_move(game_id: str | None, typed: str, player: str, legal: list[str]) -> Message:
    """The refusal of a seat's move the engine could not read (:data:`UNREAD`), typed as
    ``typed`` for ``player``: the moves the seat can make now, by their buttons' words (the verbs
    of ``legal``, the seat's legal actions as ``"<seat> <verb> …"``, in their order), each in «»."""
    verbs: list[str] = []
    for action in legal:
        words = action.split()
        if len(words) > 1 and words[1] not in verbs:
            verbs.append(words[1])
    if not verbs:
        return M("The move «%(typed)s» was not understood, and %(player)s has no move to make now.", typed=typed,
                 player=player)
    moves = []
    for verb in verbs:
        word = _verb_word(game_id, verb) if game_id else None
        label = M(word) if isinstance(word, str) else (word or verb)
        moves.append(M("«%(text)s»", text=label))
    return M("The move «%(typed)s» was not understood. %(player)s can now: %(moves)s.", typed=typed, player=player,
             moves=moves)
