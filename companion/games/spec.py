"""The declared interface of a game: :class:`GameSpec` (what the table needs to run it) and
:class:`Presenter` (what it says to people).

A game is one package ``companion/games/<id>/`` whose ``SPEC`` the registry
(:mod:`companion.games.registry`) serves by id. Everything the table knows about a game beyond
the State API comes from here — its title and terms, its bots, the readers and deck its
observations need, what the pad's yes/no buttons submit, its words — so the dashboard, the pads,
the console and the camera watcher are the same code for every game (``docs/architecture.md``,
"Adding a game").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, Union, runtime_checkable

from companion.games.fields import Kind, fields_of
from companion.games.words import refusal_words, waiting_by_verb
from companion.i18n import N_, NC_, Message  # noqa: F401  (N_, NC_: the games' title and term markers)

if TYPE_CHECKING:  # pragma: no cover
    from companion.games.base import Event, Game
    from companion.games.simulator import TableSim


@runtime_checkable
class Presenter(Protocol):
    """What a game says about itself, from public facts (events, views) only, as
    :class:`~companion.i18n.Message` values: no method takes or returns a language; the table
    renders them at the edge (:func:`companion.i18n.render`).

    Every method may return ``None``: the table then falls back to its generic words. Words are
    for pages and the console; nothing here changes the game.

    Attributes:
        narrates: :meth:`event` words the game's events (the console prints a generic line for
            the events of a game that does not).
        notable: substrings of the event kinds the console tells as they happen (rounds, deals,
            results, the end).
        widgets: the page's game-specific parts (``"joker_layout"``: the 4×8 layout and its bets,
            ``"bet_grid"``: a bet placed on a picture of the layout).
        seat_keys: view and event keys whose whole numbers are seats (shown as names).
        refusals: the plain sentence of each reason code only this game raises, ``{code:
            message}`` (the table's shared codes: ``companion.dashboard.reasons``).
        refusals_with_facts: ``{code: words(facts) -> message}`` for those whose fix needs the facts.
    """

    # Read-only members (properties to the type checker): a game's class attribute of a narrower
    # type (``notable = ("round_end", "game_over")``, a ``dict`` of refusals) fits them.
    @property
    def narrates(self) -> bool: ...
    @property
    def notable(self) -> tuple[str, ...]: ...
    @property
    def widgets(self) -> tuple[str, ...]: ...
    @property
    def seat_keys(self) -> tuple[str, ...]: ...
    @property
    def refusals(self) -> Mapping[str, "Said"]: ...
    @property
    def refusals_with_facts(self) -> Mapping[str, Callable[[dict], "Said"]]: ...

    def event(self, event: "Event", seats: Sequence[str]) -> "Said | None":
        """A public event in words (``""``: told by another line of the same action)."""

    def private_event(self, event: "Event", seats: Sequence[str]) -> "Said | None":
        """An event private to one seat in words, for that seat's history only."""

    def standings(self, view: dict, seats: Sequence[str]) -> "Said | None":
        """How the game stands (or ended) in words, from a view."""

    def progress(self, view: dict) -> "Said | None":
        """How far the game went, from its public view, in the game's own unit: the rounds
        played, the deal or draw under way («раундов: 4», «партия 2 из 3», «тираж 5»)."""

    def seat_line(self, view: dict, seat: int, seats: Sequence[str]) -> "Said | None":
        """How one seat stands, from the public view («130 фишек, банкомет», «3 карты»)."""

    def page(self, view: dict, seats: Sequence[str]) -> dict:
        """The view a page shows (``view`` worded for people, words as ``{"ru", "en"}``
        (:func:`companion.i18n.both`); never more than ``view``)."""

    def waiting(self, seat: int, view: dict, tasks: Mapping[str, list[list[str]]],
                seats: Sequence[str]) -> "Said | None":
        """What seat ``seat``'s phone waits for when only the table acts: ``tasks`` maps each
        pending table verb to its templates' arguments."""

    def whose(self, verb: str, view: dict) -> int | None:
        """The seat a table action's manual form is about when its arguments name none."""

    def refusal(self, reason: str, options: Any = None, facts: dict | None = None) -> "Said | None":
        """A refusal (reason code) in this game's own words, or ``None`` for the table's."""

    def choice_label(self, field: str, value: Any, view: dict, seats: Sequence[str]) -> "Said | None":
        """A choice field's value (a bet's id) in words, from ``view``."""

    def spoken(self, event: "Event", seats: Sequence[str]) -> "Spoken | None":
        """What the table's voice says aloud for a public event (:mod:`companion.voice`), or
        ``None``: not a moment the table listens for."""

    def moment(self, event: "Event", seats: Sequence[str]) -> "Moment | None":
        """What the table display (``/tv``) shows large for a public event, or ``None``."""


#: what a presenter returns: a message, a text in both languages (``{"ru": …, "en": …}``: words
#: the game's data carries, such as a deck's kind names), or ``""`` (nothing to tell)
Said = Union[Message, Mapping[str, str], str]

#: one of a game's page words: an English message id (marked ``N_``), a :class:`Message` (a count
#: with its plural forms: ``MN``), or a text in both languages (``{"ru": …, "en": …}``: a game
#: whose words the catalogue does not have)
Word = Union[str, Message, Mapping[str, str]]


@dataclass(frozen=True)
class Spoken:
    """One sentence for the table's voice: ``message``, whose only facts are seat names (never a
    serial, a card or a note face down), and its ``priority`` when a burst fills the voice's
    queue (the least goes first: 1 a minor moment such as «купюра в банк», 2 the rest)."""

    message: Message
    priority: int = 2


@dataclass(frozen=True)
class Moment:
    """What the table display (``/tv``) shows large for a public event: its ``style`` (the page's
    stylesheet draws ``.moment.m-<style>``: ``skull``, ``hoy``, ``prize``, ``joker``) and its words
    (a :data:`Said`), which name no face-down card."""

    style: str
    words: Said


class PlainPresenter:
    """A presenter that says nothing of its own: the table's generic words are used and the page
    shows the view as it is. Games subclass it and fill in what they word: the methods, or the
    tables the default :meth:`waiting` and :meth:`refusal` read (``waiting_words``: ``{table verb:
    fn(seat, view, templates, seats)}``; ``refusals``, ``refusals_with_facts``; ``own_refusal`` for
    words that need the game's options)."""

    narrates: bool = False
    notable: tuple[str, ...] = ("game_over",)
    widgets: tuple[str, ...] = ()
    #: view and event keys every game uses for a seat
    seat_keys: tuple[str, ...] = ("seat", "turn", "dealer", "winner", "winners", "bidder", "button",
                                  "current_seats", "players", "order")
    refusals: Mapping[str, Said] = {}
    refusals_with_facts: Mapping[str, Callable[[dict], Said]] = {}
    waiting_words: Mapping[str, Callable[..., Said | None]] = {}

    def event(self, event, seats):
        return None

    def private_event(self, event, seats):
        return None

    def standings(self, view, seats):
        return None

    def progress(self, view):
        return None

    def seat_line(self, view, seat, seats):
        return None

    def page(self, view, seats):
        return view

    def waiting(self, seat, view, tasks, seats):
        return waiting_by_verb(self.waiting_words, seat, view, tasks, seats)

    def whose(self, verb, view):
        return None

    def own_refusal(self, reason: str, options: Any = None) -> Said | None:
        """Words for a refusal that need the game's options (skull: the currency's serial shape)."""
        return None

    def refusal(self, reason, options=None, facts=None):
        return refusal_words(reason, facts, self.refusals, self.refusals_with_facts,
                             own=lambda: self.own_refusal(reason, options))

    def choice_label(self, field, value, view, seats):
        return None

    def spoken(self, event, seats):
        return None

    def moment(self, event, seats):
        return None


@dataclass(frozen=True)
class PadVerbs:
    """What a seat pad's yes and no buttons submit: the first of each tuple that is legal."""

    yes: tuple[str, ...] = ()
    no: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deck:
    """The cards a game is played with, for the card reader and the simulated table's renderer.

    Attributes:
        kind: ``"standard"`` (52 cards), ``"standard32"`` (7–A), ``"picture"`` (named pictures)
            or ``"numbered"`` (values printed on the cards).
        learned: the table's own cards, learned from one photo per kind (``companion deck learn``)
            before the reader can read them (RULINGS §2).
        labels: the labels to learn, from the game's state (its deck profile), for a learned deck.
    """

    kind: str = "standard"
    learned: bool = False
    #: takes the game's own engine (its deck profile is that engine's): no common Game attribute
    labels: Callable[[Any], list[str]] | None = None


@dataclass(frozen=True)
class GameSpec:
    """Everything the table knows about one game.

    Attributes:
        id: the game id (table logs, ``--game``, URLs).
        title: the game's name, an English message id the catalogue translates.
        engine: the :class:`companion.games.base.Game` subclass.
        simulator: the bots' :class:`companion.games.simulator.TableSim` subclass, or ``None``.
        presenter: the game's :class:`Presenter`.
        deck: the cards, or ``None`` for a game without cards.
        pad_verbs: the pad's yes/no verbs.
        terms: view keys this game words its own way: ``{key: English message id}``, translated
            with the game id as the message context (``pgettext``).
        page_words: the words the page script looks up for this game's views, events, values,
            verbs and board, ``{key: word}`` with the key as the script looks it up: a view key or
            a board's caption (``"skull_owner"``), a value (``"val_rose"``), a phase
            (``"phase_auction"``), a verb (``"v_flip"``), a term that a view key, an event kind
            and a value share (``"t_round_end"``) (:data:`Word`; ``docs/architecture.md``, "The
            page's words").
        option_labels: the house-rule options' labels on the new-game form, ``{option name: word}``.
        result_rows: the club's reader of the finished game's public view, ``(view, seats) ->
            [row, …]`` (:mod:`companion.games.standing`; ``None``: who won).
        redact: what the public page shows but a club never carries, taken out of a page model or
            an ``events`` payload in place (``None``: nothing).
        board_script: the game's board, an ES module in its package (``static/board.js``: the
            contract is ``web/static/js/board.js``'s), served at ``/games/<id>/board.js`` with the
            ``.js`` modules beside it at ``/games/<id>/<name>.js`` (``None``: the generic board).
        replay_lines: the lines ``companion replay``'s report gives after who won, ``(engine) ->
            [Said, …]`` from the game's own engine: the operator's audit of a log, which tells
            hidden facts (skull: the bank, its worth so far and each seat's notes). ``None``: a
            line per seat from :meth:`Presenter.seat_line`.
    """

    id: str
    title: str
    engine: type["Game"]
    presenter: Presenter = field(default_factory=PlainPresenter)
    simulator: type["TableSim"] | None = None
    deck: Deck | None = None
    pad_verbs: PadVerbs = PadVerbs()
    terms: Mapping[str, str] = field(default_factory=dict)
    page_words: Mapping[str, Word] = field(default_factory=dict)
    option_labels: Mapping[str, Word] = field(default_factory=dict)
    result_rows: Callable[[dict, list[str]], list[dict]] | None = None
    redact: Callable[[dict], None] | None = None
    board_script: Path | None = None
    #: takes the game's own engine (the audit reads its hidden state): no common Game attribute
    replay_lines: Callable[[Any], Sequence[Said]] | None = None

    @property
    def readers(self) -> tuple[str, ...]:
        """The readers the game's observations need (``"note"``, ``"card"``), from its actions'
        field kinds, in the order first needed."""
        out: list[str] = []
        for cls in self.engine.ACTIONS:
            for f in fields_of(cls):
                if f.reader and f.reader not in out:
                    out.append(f.reader)
        return tuple(out)

    def action_schema(self, cls: type) -> list[dict]:
        """The schema of one of the game's Action classes for the pages: each field's
        :meth:`~companion.games.fields.Field.schema`, a card field with its ``"spelling"`` —
        ``"name"`` for a deck of named pictures (typed as the names the page shows), else
        ``"code"`` (``QH``, ``500``: capitals, several separated by spaces too)."""
        out = []
        for f in fields_of(cls):
            entry = f.schema()
            if f.kind is Kind.CARD:
                entry["spelling"] = "name" if self.deck is not None and self.deck.kind == "picture" else "code"
            out.append(entry)
        return out

    def schema(self) -> dict:
        """The page's description of the game's actions and parts: ``{"verbs": {verb: [field
        schema, …]}, "widgets": […], "seat_keys": […]}`` (:meth:`action_schema`)."""
        return {"verbs": {cls.VERB: self.action_schema(cls) for cls in self.engine.ACTIONS},
                "widgets": list(self.presenter.widgets), "seat_keys": list(self.presenter.seat_keys)}

