"""The joker banking game on a 4×8 layout: seed 002, RULINGS §3, ``docs/rules/hoggenheimer.md``.

One package, everything the game knows: the rules (:mod:`.rules`), its layout and bet shapes
(:mod:`.layout`), its actions (:mod:`.actions`), its words (:mod:`.presenter`; on the pages,
:mod:`.pagewords`), its bots (:mod:`.sim`) and its board and bet grid on the pages
(``static/board.js``, ``static/betgrid.js``); :data:`SPEC` declares it to the registry
(:mod:`companion.games.registry`).
"""

from __future__ import annotations

from pathlib import Path

from companion.games.standing import chips_rows
from companion.games.spec import NC_, N_, Deck, GameSpec, PadVerbs
from companion.games.hoggenheimer.actions import (
    Bet, Close, Turn, Void, Withdraw,
)
from companion.games.hoggenheimer.layout import (
    all_bet_targets, AT, CARD_FACTS, CARDS, JOKER, parse_bet, POS, RANKS, SHAPES, SUIT_SYMBOL, SUITS,
    win_probability,
)
from companion.games.hoggenheimer.rules import GAME, HoggenheimerGame, HoggenheimerOptions, REASONS
from companion.games.hoggenheimer.presenter import (
    bet, bet_target, bet_targets, choice_label, describe_event, describe_standings,
    HoggenheimerPresenter, page_view, PRESENTER, REFUSALS, REFUSALS_WITH_FACTS,
)
from companion.games.hoggenheimer.pagewords import OPTION_LABELS, PAGE_WORDS
from companion.games.hoggenheimer.sim import HoggenheimerSim

SPEC = GameSpec(
    id="hoggenheimer",
    title=N_("Hoggenheimer (joker bank)"),
    engine=HoggenheimerGame,
    simulator=HoggenheimerSim,
    presenter=PRESENTER,
    deck=Deck("standard32"),
    pad_verbs=PadVerbs(),
    # the view's bet shapes are ids ("square"); the page names them here (the seed's «колонка»)
    terms={"banker": NC_("hoggenheimer", "Banker"), "deal": NC_("hoggenheimer", "Deal"),
           "shape_card": NC_("hoggenheimer", "card"), "shape_pair": NC_("hoggenheimer", "pair"),
           "shape_square": NC_("hoggenheimer", "square"), "shape_column": NC_("hoggenheimer", "column"),
           "shape_row": NC_("hoggenheimer", "row")},
    page_words=PAGE_WORDS,
    option_labels=OPTION_LABELS,
    result_rows=chips_rows,
    board_script=Path(__file__).parent / "static" / "board.js",
)

#: the package's names: its spec and what the table imports from the game's modules
__all__ = [
    "SPEC", "Bet", "Close", "Turn", "Void", "Withdraw", "all_bet_targets", "AT", "CARD_FACTS",
    "CARDS", "GAME", "HoggenheimerGame", "HoggenheimerOptions", "JOKER", "parse_bet", "POS",
    "RANKS", "REASONS", "SHAPES", "SUIT_SYMBOL", "SUITS", "win_probability",
    "bet", "bet_target", "bet_targets", "choice_label", "describe_event",
    "describe_standings", "HoggenheimerPresenter", "page_view", "PRESENTER", "REFUSALS",
    "REFUSALS_WITH_FACTS", "HoggenheimerSim",
]
