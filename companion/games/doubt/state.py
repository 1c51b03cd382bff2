"""The state of a "Верю — не верю" table (:class:`DoubtState`): hand sizes, the pile and the claim,
and the small queries every part of the engine asks, the deck's kinds by name among them."""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.games.base import Game
from companion.games.doubt.deck import KIND_FORMS, normalize_deck
from companion.sanitise import fold_words
from companion.games.doubt.options import DoubtOptions

#: :data:`~companion.games.doubt.deck.KIND_FORMS` folded as typed words are (case, «ё»)
_FORMS: dict[str, frozenset[str]] = {fold_words(name): frozenset(map(fold_words, forms))
                                     for name, forms in KIND_FORMS.items()}


class DoubtState(Game):
    """A "Верю — не верю" table's state and its helpers; :class:`companion.games.doubt.rules.DoubtGame`
    adds the checks, the moves and the views."""

    options: DoubtOptions

    def __init__(self, seats, options=None) -> None:
        super().__init__(seats, options)
        self.deck = normalize_deck(self.options.deck)
        self.kind_count = {k["id"]: k["count"] for k in self.deck["kinds"]}
        self.deck_size = sum(self.kind_count.values())
        n = len(self.seats)
        if self.options.first_dealer >= n:
            raise IllegalAction("bad_option", f"first_dealer {self.options.first_dealer} is not a seat")
        if self.deck_size < n:
            raise IllegalAction("bad_option", f"{self.deck_size} cards cannot be dealt to {n} players")
        self.phase = "deal"
        self.dealer = self.options.first_dealer
        self.game_no = 1
        self.turn: int | None = self.dealer
        self.hands = [0] * n
        self.in_game = [True] * n
        self.pile: list[list] = []  # [seat, count] per placement, in order
        self.pile_cards = 0
        self.claim: str | None = None
        self.answer: list | None = None  # [seat, "believe"|"doubt"] awaiting the check
        self.discard = 0
        self.discard_known = {k: 0 for k in self.kind_count}
        self.out_order: list[int] = []
        self.last_check: dict | None = None
        self.games_log: list[dict] = []  # per finished game: {"game", "loser", "out_order", "dealer"}
        self.checks = 0  # piles resolved by a check, whole match

    # ------------------------------------------------------------------ helpers
    def _next_in(self, seat: int) -> int:
        """Next seat clockwise that is still in the game (RULINGS §0 "left")."""
        n = len(self.seats)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.in_game[s]:
                return s
        return seat

    def deal_sizes(self, dealer: int) -> list[int]:
        """Cards per seat when ``dealer`` deals the whole deck: equal shares, the remainder one each
        to the seats nearest the dealer's left (RULINGS §2)."""
        n = len(self.seats)
        base, extra = divmod(self.deck_size, n)
        sizes = [base] * n
        for i in range(extra):
            sizes[(dealer + 1 + i) % n] += 1
        return sizes

    def conserved(self) -> dict[str, int]:
        """Once dealt, every card is in a hand, the pile or the discard: ``cards`` is their sum
        minus the deck, always 0."""
        if self.phase == "deal":
            return {"cards": 0}
        return {"cards": sum(self.hands) + self.pile_size() + self.discard - self.deck_size}

    def pile_size(self) -> int:
        """Cards in the pile on the table (all placements of the current round)."""
        return self.pile_cards

    def kind_for_name(self, text: str) -> str | None:
        """The kind id a written name stands for, or ``None``: the id itself or the deck's
        Russian or English name of a kind (the names the dashboard shows), in any letter case,
        with е for ё («ЁЖ», «еж», ``Hedgehog`` → ``hedgehog``), or a built-in name in another
        common form (:data:`~companion.games.doubt.deck.KIND_FORMS`: «гриба», «грибов», «белки»,
        ``owls``). The deck profile is the one source of the names (a table's own deck brings its own)."""
        key = fold_words(text)
        for k in self.deck["kinds"]:
            if key in (fold_words(k["id"]), fold_words(k["name"]), fold_words(k["name_en"])):
                return k["id"]
        # the other forms of a built-in name («гриба», «белок», "owls": KIND_FORMS), when one kind has it
        hits = {k["id"] for k in self.deck["kinds"] for name in (k["name"], k["name_en"])
                if key in _FORMS.get(fold_words(name), ())}
        return hits.pop() if len(hits) == 1 else None

    def kind_names(self) -> list[dict[str, str]]:
        """The deck's kind names, deck order, as the deck profile carries them: ``{"ru": name,
        "en": name_en}`` each (:func:`companion.i18n.render` picks the language)."""
        return [{"ru": k["name"], "en": k["name_en"]} for k in self.deck["kinds"]]

    def _kind_words(self, kind: str) -> dict[str, str]:
        """A kind's names for a refusal's facts: ``{"ru": «Гриб», "en": "Mushroom"}`` (the id
        when the deck has no such kind)."""
        for k in self.deck["kinds"]:
            if k["id"] == kind:
                return {"ru": k["name"], "en": k["name_en"]}
        return {"ru": kind, "en": kind}

    def _unknown_kind_facts(self, kind) -> dict:
        """The facts of an ``unknown_kind`` refusal: the kind typed and this deck's kinds by name
        in both languages (the dashboard names them: the deck's own cards, not another game's)."""
        return {"card": kind, "kinds": [{"ru": k["name"], "en": k["name_en"]} for k in self.deck["kinds"]]}

    def _kind_name(self, kind: str | None) -> str | None:
        for k in self.deck["kinds"]:
            if k["id"] == kind:
                return k["name"]
        return None
