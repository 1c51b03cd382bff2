"""«Верю — не верю» with picture cards: seed 001, RULINGS §2, ``docs/rules/doubt.md``.

One package, everything the game knows: the rules (:mod:`.rules`), its actions (:mod:`.actions`),
its words (:mod:`.presenter`; on the pages, :mod:`.pagewords`), its bots (:mod:`.sim`) and its
board on the pages (``static/board.js``); :data:`SPEC` declares it to the registry
(:mod:`companion.games.registry`).
"""

from __future__ import annotations

from pathlib import Path

from companion.games.doubt import club
from companion.games.spec import NC_, N_, Deck, GameSpec, PadVerbs
from companion.games.doubt.actions import (
    Add, Believe, Deal, Doubt, Place, Reveal, Void,
)
from companion.games.doubt.rules import (
    DECK_PROFILES, DEFAULT_DECK, DoubtGame, DoubtOptions, GAME, normalize_deck, REASONS,
)
from companion.games.doubt.presenter import (
    describe_event, describe_standings, DoubtPresenter, page_view, PRESENTER, REFUSALS,
    REFUSALS_WITH_FACTS,
)
from companion.games.doubt.pagewords import OPTION_LABELS, PAGE_WORDS
from companion.games.doubt.sim import DoubtSim

SPEC = GameSpec(
    id="doubt",
    title=N_("Believe it or not"),
    engine=DoubtGame,
    simulator=DoubtSim,
    presenter=PRESENTER,
    deck=Deck("picture", learned=True, labels=lambda game: [k["id"] for k in game.deck["kinds"]]),
    pad_verbs=PadVerbs(yes=("believe",), no=("doubt",)),
    terms={"dealer": NC_("doubt", "Dealer"), "game_no": NC_("doubt", "Game")},
    page_words=PAGE_WORDS,
    option_labels=OPTION_LABELS,
    result_rows=club.result_rows,
    board_script=Path(__file__).parent / "static" / "board.js",
)

#: the package's names: its spec and what the table imports from the game's modules
__all__ = [
    "SPEC", "Add", "Believe", "Deal", "Doubt", "Place", "Reveal", "Void", "DECK_PROFILES",
    "DEFAULT_DECK", "DoubtGame", "DoubtOptions", "GAME", "normalize_deck", "REASONS",
    "describe_event", "describe_standings", "DoubtPresenter", "page_view", "PRESENTER",
    "REFUSALS", "REFUSALS_WITH_FACTS", "DoubtSim",
]
