"""The 36-card «6100» trick game with the Infinity card and «ХОЙ!»: seed 003, RULINGS §4,
``docs/rules/infinity.md``.

One package, everything the game knows: the rules (:mod:`.rules`), its actions (:mod:`.actions`),
its words (:mod:`.presenter`; on the pages, :mod:`.pagewords`), its bots (:mod:`.sim`) and its
board on the pages (``static/board.js``); :data:`SPEC` declares it to the registry
(:mod:`companion.games.registry`).
"""

from __future__ import annotations

from pathlib import Path

from companion.games.standing import points_rows
from companion.games.spec import NC_, N_, Deck, GameSpec, PadVerbs
from companion.games.infinity.actions import (
    DealCards, Face, Kept, Play, Void,
)
from companion.games.infinity.rules import (
    canonical_card, card_rank, DEAL_LEADER_RULES, DECK_CARDS, DECK_POINTS, DEFAULT_DECK, GAME, INF,
    InfinityGame, InfinityOptions, REASONS,
)
from companion.games.infinity.presenter import (
    card, describe_event, describe_standings, InfinityPresenter, page_view, PRESENTER,
    REFUSALS, REFUSALS_WITH_FACTS,
)
from companion.games.infinity.pagewords import OPTION_LABELS, PAGE_WORDS
from companion.games.infinity.sim import InfinitySim

SPEC = GameSpec(
    id="infinity",
    title=N_("6100 (Infinity)"),
    engine=InfinityGame,
    simulator=InfinitySim,
    presenter=PRESENTER,
    deck=Deck("numbered", learned=True, labels=lambda game: [str(k) for k in game.deck]),
    pad_verbs=PadVerbs(),
    terms={"deal": NC_("infinity", "Deal"), "deal_scores": NC_("infinity", "Deal scores"), "half": NC_("infinity", "Half"),
           "INF": NC_("infinity", "Infinity")},  # the Infinity card as a key of the deck's counts («Подробнее»)
    page_words=PAGE_WORDS,
    option_labels=OPTION_LABELS,
    result_rows=points_rows,
    board_script=Path(__file__).parent / "static" / "board.js",
)

#: the package's names: its spec and what the table imports from the game's modules
__all__ = [
    "SPEC", "DealCards", "Face", "Kept", "Play", "Void", "canonical_card", "card_rank",
    "DEAL_LEADER_RULES", "DECK_CARDS", "DECK_POINTS", "DEFAULT_DECK", "GAME", "INF",
    "InfinityGame", "InfinityOptions", "REASONS", "card", "describe_event",
    "describe_standings", "InfinityPresenter", "page_view", "PRESENTER", "REFUSALS",
    "REFUSALS_WITH_FACTS", "InfinitySim",
]
