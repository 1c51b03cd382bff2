"""A house-rule check that binds two options, in words: which options, and the rule.

An engine that refuses a combination of options (not one value out of its range) raises
``IllegalAction("bad_option", detail, facts)`` with ``facts["options"]`` the options involved
(their ids, the one to change first) and ``facts["rule"]`` the rule's id, plus the numbers the
rule compares. :func:`rule_words` says it as a message naming each option by its form label
(the game's ``option_labels``), in quotes: «Взнос» (1) с каждого из 2 игроков с картами и
«Касса в начале» (0) дают 2 фишки… — the new-game form shows it in the page's language, and
``companion run --option`` in the console's (``companion.commands.results``), so neither
blames the wrong field nor falls back to «у одного из правил недопустимое значение».

The rules (``facts["rule"]``):

* ``different_seats`` — two seat options must be different players (the lottery's banker and
  dealer);
* ``not_above`` — the first option may not be larger than the second (the joker game's minimum
  and maximum stake), facts ``low`` and ``high`` the values given;
* ``fewer_than`` — the first option must be below the second (skull's skulls among the notes),
  facts ``min``, ``max`` (the range the second allows) and ``than`` (its value);
* ``prize_pool`` — the lottery's box and entries must make four different prizes, facts
  ``entry_stake``, ``box``, ``players`` (card-holding), ``pool`` and ``need``.
"""

from __future__ import annotations

from typing import Callable, Mapping

from companion.games import registry
from companion.games.words import chips
from companion.i18n import M, MN, Message


def option_name(option: str, game_id: str | None = None) -> Message:
    """Option ``option`` as a person reads it: its form label (game ``game_id``'s own, else any
    registered game's) in quotes, «Взнос»; the id itself quoted when no game labels it."""
    word = None
    specs = [registry.find(game_id)] if game_id else []
    for spec in specs + list(registry.specs()):
        word = spec.option_labels.get(option) if spec is not None else None
        if word is not None:
            break
    if word is None:
        return M("«%(text)s»", text=option)
    return M("«%(text)s»", text=M(word) if isinstance(word, str) else word)


def _different_seats(f: dict, name: Callable[[str], Message]) -> Message:
    first, second = f["options"][:2]
    return M("%(options)s must be two different players: choose different numbers.",
             options=M("%(first)s and %(second)s", first=name(first), second=name(second)))


def _not_above(f: dict, name: Callable[[str], Message]) -> Message:
    low, high = f["options"][:2]
    return M("%(low)s (%(low_value)s) may not be larger than %(high)s (%(high_value)s).",
             low=name(low), high=name(high), low_value=int(f["low"]), high_value=int(f["high"]))


def _fewer_than(f: dict, name: Callable[[str], Message]) -> Message:
    option, other = f["options"][:2]
    return M("%(option)s must be fewer than %(other)s (%(than)s): a number from %(min)s to %(max)s.",
             option=name(option), other=name(other), than=int(f["than"]), min=int(f["min"]), max=int(f["max"]))


def _prize_pool(f: dict, name: Callable[[str], Message]) -> Message:
    entry, box = f["options"][:2]
    return MN("%(entry)s (%(stake)s) from %(n)s card-holding player and %(box)s (%(in_box)s) make %(pool)s, "
              "but the four prizes need at least %(need)s (1 + 2 + 3 + 4, all different): raise the stake or "
              "the box.",
              "%(entry)s (%(stake)s) from each of %(n)s card-holding players and %(box)s (%(in_box)s) make "
              "%(pool)s, but the four prizes need at least %(need)s (1 + 2 + 3 + 4, all different): raise the "
              "stake or the box.", int(f["players"]),
              entry=name(entry), stake=int(f["entry_stake"]), box=name(box), in_box=int(f["box"]),
              pool=chips(int(f["pool"])), need=chips(int(f["need"])))


#: ``{rule id: words(facts, name) -> message}`` (the module doc lists the rules)
RULES: Mapping[str, Callable[[dict, Callable[[str], Message]], Message]] = {
    "different_seats": _different_seats,
    "not_above": _not_above,
    "fewer_than": _fewer_than,
    "prize_pool": _prize_pool,
}


def rule_words(facts: dict | None, game_id: str | None = None) -> Message | None:
    """The ``bad_option`` refusal with ``facts`` of a rule binding options, naming them by their
    labels (:func:`option_name`); ``None`` when the facts name no rule this module words (or a
    fact it needs is missing: the caller says it its plainer way)."""
    f = facts or {}
    words = RULES.get(str(f.get("rule") or ""))
    if words is None or not f.get("options"):
        return None
    try:
        return words(f, lambda option: option_name(option, game_id))
    except (KeyError, TypeError, ValueError, IndexError):
        return None
