"""«Карточная лотерея»: seed 004, RULINGS §5, ``docs/rules/lottery.md``.

One package, everything the game knows: the rules (:mod:`.rules`), its actions (:mod:`.actions`),
its words (:mod:`.presenter`; on the pages, :mod:`.pagewords`), its bots (:mod:`.sim`) and its
board on the pages (``static/board.js``); :data:`SPEC` declares it to the registry
(:mod:`companion.games.registry`).
"""

from __future__ import annotations

from pathlib import Path

from companion.games.standing import chips_rows
from companion.games.spec import NC_, N_, Deck, GameSpec, PadVerbs
from companion.games.lottery.actions import (
    Cards, Cover, Lead, PlayCard, PrizeCard, Spread, Take, Void,
)
from companion.games.lottery.rules import (
    canonical, find_spread, FULL_DECK, GAME, LotteryGame, LotteryOptions, parse_card, PRIZE_SLOTS,
    rank_index, RANKS, REASONS, SUIT_FINES, suit_of, SUIT_ORDER, SUITS,
)
from companion.games.lottery.presenter import (
    describe_event, describe_standings, LotteryPresenter, page_view, PRESENTER, OWN_REASONS,
    REFUSALS, REFUSALS_WITH_FACTS,
)
from companion.games.lottery.pagewords import OPTION_LABELS, PAGE_WORDS
from companion.games.lottery.sim import LotterySim

SPEC = GameSpec(
    id="lottery",
    title=N_("Card lottery"),
    engine=LotteryGame,
    simulator=LotterySim,
    presenter=PRESENTER,
    deck=Deck("standard"),
    pad_verbs=PadVerbs(),
    terms={"dealer": NC_("lottery", "Dealer")},
    page_words=PAGE_WORDS,
    option_labels=OPTION_LABELS,
    result_rows=chips_rows,
    board_script=Path(__file__).parent / "static" / "board.js",
)

#: the package's names: its spec and what the table imports from the game's modules
__all__ = [
    "SPEC", "Cards", "Cover", "Lead", "PlayCard", "PrizeCard", "Spread", "Take", "Void",
    "canonical", "find_spread", "FULL_DECK", "GAME", "LotteryGame", "LotteryOptions",
    "parse_card", "PRIZE_SLOTS", "rank_index", "RANKS", "REASONS", "SUIT_FINES", "suit_of",
    "SUIT_ORDER", "SUITS", "describe_event", "describe_standings", "LotteryPresenter",
    "page_view", "PRESENTER", "OWN_REASONS", "REFUSALS", "REFUSALS_WITH_FACTS", "LotterySim",
]
