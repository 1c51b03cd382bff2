"""The decks of "Верю — не верю": the built-in profiles (RULINGS §2) and the check of a table's own
deck profile (option ``deck``)."""

from __future__ import annotations

import re
from typing import Any

from companion.errors import IllegalAction

# --------------------------------------------------------------------------- deck profiles
DEFAULT_DECK: dict = {
    "name": "forest104",
    "title": "Верю — не верю, 104 карты",
    "kinds": [
        {"id": "mushroom", "name": "гриб", "name_en": "mushroom", "count": 13},
        {"id": "berry", "name": "ягода", "name_en": "berry", "count": 13},
        {"id": "acorn", "name": "жёлудь", "name_en": "acorn", "count": 13},
        {"id": "leaf", "name": "лист", "name_en": "leaf", "count": 13},
        {"id": "hedgehog", "name": "ёж", "name_en": "hedgehog", "count": 13},
        {"id": "squirrel", "name": "белка", "name_en": "squirrel", "count": 13},
        {"id": "hare", "name": "заяц", "name_en": "hare", "count": 13},
        {"id": "owl", "name": "сова", "name_en": "owl", "count": 13},
    ],
}

#: The other forms a person types of the built-in kinds' names (a move read aloud and typed as
#: said: «выложить 2 гриба», «три белки», «5 сов»), by the name's nominative as the deck profile
#: writes it: nominative plural, genitive singular and plural (the counts 2–4 and 5+ take them),
#: the accusative singular where it differs, and the English plural. A table's own deck names
#: its kinds in one form (its profile), which :meth:`~companion.games.doubt.state.DoubtState.kind_for_name`
#: also takes.
KIND_FORMS: dict[str, tuple[str, ...]] = {
    "гриб": ("гриба", "грибы", "грибов"), "mushroom": ("mushrooms",),
    "ягода": ("ягоды", "ягод", "ягоду"), "berry": ("berries",),
    "жёлудь": ("жёлудя", "жёлуди", "жёлудей"), "acorn": ("acorns",),
    "лист": ("листа", "листы", "листов", "листья", "листьев"), "leaf": ("leaves",),
    "ёж": ("ежа", "ежи", "ежей"), "hedgehog": ("hedgehogs",),
    "белка": ("белки", "белок", "белку"), "squirrel": ("squirrels",),
    "заяц": ("зайца", "зайцы", "зайцев"), "hare": ("hares",),
    "сова": ("совы", "сов", "сову"), "owl": ("owls",),
}
"""The default deck profile: 104 cards, 8 kinds × 13, no wild cards (RULINGS §2; the leaflet's
"104 (8 видов по 8)" cannot both hold). The leaflet names only the mushroom ("3 гриба"); the other
seven picture names are this project's choice. A table replaces the profile with its own deck
(option ``deck``), e.g. the kinds and counts the card reader learned."""

DECK_PROFILES: dict[str, dict] = {
    "forest104": DEFAULT_DECK,
    "forest64": {
        "name": "forest64",
        "title": "Верю — не верю, 64 карты (8 видов по 8)",
        "kinds": [dict(k, count=8) for k in DEFAULT_DECK["kinds"]],
    },
}
"""Built-in deck profiles by name (option ``deck`` may name one). ``forest64`` is the other reading
of the leaflet's "8 видов по 8" for tables whose deck really has 64 cards."""

_KIND_ID = re.compile(r"^[a-z0-9_]{1,32}$")


_DECK = {"option": "deck"}  # the facts of a refused profile: the option it came from


def normalize_deck(deck: Any) -> dict:
    """Validate a deck profile and return it in canonical form.

    Accepted shapes: ``None`` (the default profile), a name in :data:`DECK_PROFILES`,
    ``{"kinds": [{"id", "name", "count"}, ...]}``
    (``name``/``name_en`` optional, ``count`` default 1) or ``{"kinds": {"id": count, ...}}``.
    Kind ids are ``[a-z0-9_]{1,32}`` (they appear in action text).

    Returns:
        ``{"name": str, "title": str, "kinds": [{"id", "name", "name_en", "count"}, ...]}``.

    Raises:
        IllegalAction: ``bad_option`` — malformed profile, duplicate or bad kind id, count < 1,
            fewer than 2 kinds.
    """
    if deck is None:
        deck = DEFAULT_DECK
    if isinstance(deck, str):
        if deck not in DECK_PROFILES:
            raise IllegalAction("bad_option", f"deck: no deck profile {deck!r}; built in: {', '.join(DECK_PROFILES)}",
                                {"option": "deck", "choices": list(DECK_PROFILES), "value": deck})
        deck = DECK_PROFILES[deck]
    if not isinstance(deck, dict) or "kinds" not in deck:
        raise IllegalAction("bad_option", "deck must be an object with 'kinds'", dict(_DECK))
    raw = deck["kinds"]
    if isinstance(raw, dict):
        raw = [{"id": k, "count": v} for k, v in raw.items()]
    if not isinstance(raw, list):
        raise IllegalAction("bad_option", "deck 'kinds' must be a list or an object id -> count", dict(_DECK))
    kinds = []
    seen = set()
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise IllegalAction("bad_option", f"deck kind {item!r} needs a string 'id'", dict(_DECK))
        kid = item["id"]
        if not _KIND_ID.match(kid) or kid in seen:
            raise IllegalAction("bad_option", f"deck kind id {kid!r} is invalid or repeated", dict(_DECK))
        count = item.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise IllegalAction("bad_option", f"deck kind {kid!r}: count must be a positive integer", dict(_DECK))
        seen.add(kid)
        kinds.append({"id": kid, "name": str(item.get("name", kid)),
                      "name_en": str(item.get("name_en", item.get("name", kid))), "count": count})
    if len(kinds) < 2:
        raise IllegalAction("bad_option", "deck: a deck needs at least 2 kinds", dict(_DECK))
    return {"name": str(deck.get("name", "custom")), "title": str(deck.get("title", deck.get("name", "custom"))),
            "kinds": kinds}
