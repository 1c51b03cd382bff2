"""What skull says to people: its events, standings, refusals and page view in words
(the game's :class:`companion.games.spec.Presenter`)."""

from __future__ import annotations

from typing import Callable, Sequence

from companion.games.base import Event, seat_namer
from companion.games.spec import Moment, PlainPresenter, Spoken
from companion.games.words import CAMERA, OPERATOR, awaiting, money, names_and, notes, seat_args, seat_name
from companion.i18n import M, MN, MP, Message, N_, NC_
from companion.games.skull.rules import ROSE, SERIAL_SHAPES, SKULL, SkullGame, SkullOptions


def reason_message(reason: str, options: "SkullOptions | None" = None) -> Message | None:
    """The words of a reason code with the table's facts filled in (the expected serial shape of
    the table's currency for ``serial_format``, the set's composition for ``wrong_note_count`` /
    ``wrong_skull_count``), else ``None`` (then the plain :mod:`companion.dashboard.reasons`
    sentence applies)."""
    currency = getattr(options, "currency", None)
    if reason == "serial_format" and currency in SERIAL_SHAPES:
        shape, example = SERIAL_SHAPES[currency]
        return M("The serial does not fit the %(currency)s format: %(shape)s, e.g. %(example)s.",
                 currency=currency, shape=M(shape), example=example)
    if options is not None and reason == "wrong_note_count":
        return M("A player's set has the wrong number of notes: each player registers %(n)s.",
                 n=options.notes_per_player)
    if options is not None and reason == "wrong_skull_count":
        return M("A player's set has the wrong number of skulls: %(k)s of %(n)s notes.",
                 k=options.skulls_per_player, n=options.notes_per_player)
    return None


# ---------------------------------------------------------------------------- words
_ROLES = {ROSE: N_("rose"), SKULL: N_("skull")}


def _role(r) -> Message | str:
    word = _ROLES.get(r)
    return M(word) if word else str(r)


#: The ``why`` codes of ``foreign_note`` and ``round_void`` events in words (message ids).
#: A ``table void`` (why ``operator``) is told without a reason: it may be the operator's button or
#: the simulated table's stand-in for it (``companion run --sim``), and the event cannot tell which.
_WHY_WORDS = {
    "other_owner": N_("it is registered to another player"),
    "in_bank": N_("it is already in the bank"),
    "last_opponent_left": N_("the dealer's last opponent left"),
    "dealer_left": N_("the dealer left"),
}


def _why(code) -> Message | str:
    word = _WHY_WORDS.get(code)
    return M(word) if word else str(code)


def _money(value, currency):
    """The bank's face value after the notes' count («, 42 000 ₽»; :func:`companion.games.words.money`)."""
    if value is None:
        return ""
    return {lang: ", " + text for lang, text in money(value, currency).items()}


def replay_lines(game: SkullGame) -> list[Message]:
    """``companion replay``'s audit of a skull log (:attr:`companion.games.spec.GameSpec.
    replay_lines`): the bank's notes and their face value so far, over or not (those with no
    recorded denomination counted apart), then the notes each seat still holds, or that it is out.
    A log is the operator's: these lines name serials no public view shows."""
    summary = game.replay_summary()
    total, unknown = game.bank_face_value()
    value: Message | str = ""
    if total is not None:  # the money as every screen writes it («4 500 ₽»; words.money)
        value = M(" = %(money)s", money=money(total, game.options.currency))
        if unknown:
            value = M("%(value)s (+%(n)s of unknown value)", value=value, n=unknown)
    bank = summary["bank"]
    lines = [MN("bank: %(n)s note(s)%(value)s: %(serials)s", "bank: %(n)s note(s)%(value)s: %(serials)s",
                len(bank), value=value, serials=", ".join(bank) or "-")]
    for seat in summary["seats"]:
        held = ", ".join(seat["notes"]) or "-"
        lines.append(M("  %(name)s: %(notes)s (out)", name=seat["name"], notes=held) if seat["out"]
                     else M("  %(name)s: %(standing)s", name=seat["name"], standing=held))
    return lines


def describe_event(event: Event, seats: Sequence[str]):
    """One line of words for a public event (a message; ``None`` for a private event or an
    unknown kind, ``""`` for an event told by another line of the same action: the history leaves
    it out). A message, rendered by the caller.

    Args:
        event: an event returned by :meth:`SkullGame.apply`.
        seats: the players' names by seat.
    """
    msg = _event(event, seats)
    return msg


def _event(event: Event, seats: Sequence[str]):
    if event.private_to is not None:
        return None
    d = event.data
    name = seat_namer(d, seats)
    k = event.kind
    if k == "registered":
        return M("%(name)s: notes registered — %(roses)s rose(s), %(skulls)s skull(s)", name=name(),
                 roses=d["roses"], skulls=d["skulls"])
    if k == "dealer":
        return M("First dealer: %(name)s", name=name())
    if k == "round_start":
        # the player with the button who starts the round (seed: «начнет Этап 2»); the one who
        # reveals is the highest bidder, named so at the reveal — two roles, two words
        return M("— Round %(round)s, %(dealer)s starts —", round=d["round"], dealer=name("dealer"))
    if k == "place":
        return M("%(name)s puts a note face down (%(stack)s in the stack)", name=name(), stack=d["stack"])
    if k == "stage2":
        return M("Stage 2: %(turn)s to play", turn=name("turn"))
    if k == "bid":
        return M("%(name)s bids %(bid)s and takes the button", name=name(), bid=d["bid"])
    if k == "raise":
        return M("%(name)s raises to %(bid)s and takes the button", name=name(), bid=d["bid"])
    if k == "agree":
        return M("%(name)s agrees (%(bid)s)", name=name(), bid=d["bid"])
    if k == "pass":
        return M("%(name)s passes", name=name())
    if k == "must_raise":
        return M("Everybody agreed: %(name)s takes the button and must raise above %(bid)s", name=name(), bid=d["bid"])
    if k == "forced_pass":
        return M("Everybody agreed at the maximum bid: %(name)s passes", name=name())
    if k == "reveal_start":
        return M("Reveal: the highest bidder %(dealer)s must turn up %(bid)s rose(s)", dealer=name("dealer"), bid=d["bid"])
    if k == "flip":
        # a name is never declined nor stacked after «игрока» («купюра игрока Игрок 4»): it
        # stands before a colon, whatever it is
        return M("%(name)s's note turned: %(serial)s — %(role)s", name=name(), serial=d["serial"], role=_role(d["role"]))
    if k == "foreign_note":
        return M("Foreign note in %(name)s's stack: %(why)s. Round halted — the operator voids it", name=name(),
                 why=_why(d.get("why")))
    if k == "outcome":
        losers = ", ".join(seats[s] for s in d["losers"])
        if d["outcome"] == "success":
            return MN("Success! %(dealer)s turned up %(n)s rose. Paying the bank: %(losers)s; %(chooser)s chooses",
                      "Success! %(dealer)s turned up %(n)s roses. Paying the bank: %(losers)s; %(chooser)s chooses",
                      d["bid"], dealer=name("dealer"), losers=losers, chooser=name("chooser"))
        return M("%(owner)s's skull! Paying the bank: %(losers)s; %(chooser)s chooses", owner=name("skull_owner"),
                 losers=losers, chooser=name("chooser"))
    if k == "note_to_bank":
        if d.get("auto"):
            return M("%(name)s: one note to the bank (last note a skull); bank holds %(bank)s", name=name(), bank=d["bank"])
        return M("%(name)s: one note to the bank; bank holds %(bank)s", name=name(), bank=d["bank"])
    if k == "out":
        return M("%(name)s is out", name=name())
    if k == "leave":
        return M("%(name)s leaves the game", name=name())
    if k == "left":
        return M("%(name)s takes back his %(n)s note(s) and leaves", name=name(), n=d["notes_back"])
    if k == "round_void":
        if d.get("why") == "operator":  # a `table void`: told without naming who pressed it (see _WHY_WORDS)
            return M("Round %(round)s void: every note returned", round=d["round"])
        return M("Round %(round)s void (%(why)s): every note returned", round=d["round"], why=_why(d.get("why")))
    if k == "round_end":
        return ""  # told by the outcome or void line before it
    if k == "game_over":
        if d["winner"] is None:
            return M("Game over, no winner")
        return _takes_bank(name("winner"), len(d["bank"]), _money(d.get("face_value"), d.get("currency")))
    return None


def _takes_bank(winner: str, n: int, told) -> Message:
    return MN("Game over! %(winner)s takes the bank: %(n)s note(s)%(money)s",
              "Game over! %(winner)s takes the bank: %(n)s note(s)%(money)s", n, winner=winner, money=told)


def notes_count(n: int) -> Message:
    """``15`` → «15 купюр», ``1`` → «1 купюра», ``3`` → «3 купюры»: a count of banknotes, the
    number first (as the history and the end-of-game box both say it)."""
    return notes(n)


def describe_standings(view: dict, seats: Sequence[str]):
    """The standing of a game in words from its *public* view (``game.view(None)``; counts only,
    never a serial of a note in play): the notes each player still has and the bank's count —
    «Купюр у игроков: Борис 3, Аня 2, Вика 0 (вне игры); в банке 7» — or, once over, who takes the
    bank. For the operator's «Завершить игру» (the public page and console say how it stood)."""
    msg = _standings(view, seats)
    return msg


_GONE = {"out": NC_("skull", "out"), "left": NC_("skull", "left the table")}  # «вне игры», not the value «выбыл»


def _standings(view: dict, seats: Sequence[str]) -> Message:
    rows = view.get("seats") or []
    bank = view.get("bank") or {}
    count = bank.get("count", 0)
    if view.get("over") and view.get("winner") is not None:
        return _takes_bank(seats[view["winner"]], count, _money(bank.get("face_value"), bank.get("currency")))
    parts = []
    for r in sorted(rows, key=lambda r: -r.get("notes", 0)):
        status = _GONE.get(r.get("status"))
        row = f"{r['name']} {r.get('notes', 0)}"
        parts.append(M("%(row)s (%(status)s)", row=row, status=MP("skull", status)) if status else row)
    return M("Notes left: %(parts)s; the bank holds %(bank)s", parts=parts, bank=count)


def describe_private_event(event: Event, seats: Sequence[str]):
    """One line of words for an event private to one seat, shown in that seat's history only
    (``companion.dashboard.model.narrator``): its notes at registration, «Ваши купюры: АК 2444841 —
    роза, …», and the note of its that went to the bank. ``None`` for another kind."""
    msg = _private_event(event)
    return msg


def _private_event(event: Event) -> Message | None:
    d = event.data
    if event.kind == "your_notes":
        told = [M("%(serial)s — %(role)s", serial=s, role=_role(r)) for s, r in zip(d.get("serials", []), d.get("roles", []))]
        return M("Your notes: %(told)s", told=told)
    if event.kind == "your_note_to_bank":
        return M("Your note to the bank: %(serial)s — %(role)s", serial=d.get("serial"), role=_role(d.get("role")))
    return None


def page_view(view: dict, seats: Sequence[str]) -> dict:
    """The dashboard's view of skull (``companion.dashboard.model.page_view``), made from ``view``
    (:meth:`SkullGame.view`) alone: the seat's private box lists its notes as «serial — role» and
    the notes it lost to the bank, without its seat number. Everything else as the view has it."""
    you = view.get("you")
    if not isinstance(you, dict):
        return view
    out = dict(view)
    notes = [{"serial": n.get("serial"), "role": n.get("role")} for n in you.get("notes") or []]
    out["you"] = {"seat": you.get("seat"), "your_notes": notes or None}  # the seat: shown as its name
    if you.get("lost"):
        out["you"]["lost"] = list(you["lost"])
    return out


# ---------------------------------------------------------------------------- refusals
#: This game's refusals in words: ``{code: message id}`` (the table's own codes are in
#: :data:`companion.dashboard.reasons.REASONS`).
REFUSALS: dict[str, str] = {
    "seat_out": N_("That player is out of the game."),
    "bad_serial": N_("A serial number may hold only capital letters and digits, with no spaces."),
    "serial_format": N_("A serial number does not fit the serial format of the table's currency."),
    "wrong_note_count": N_("A player's set has the wrong number of notes."),
    "wrong_skull_count": N_("A player's set has the wrong number of skulls."),
    "duplicate_serial": N_("The same note appears twice in the player's set."),
    "serial_taken": N_("This note is already registered to another player."),
    "bad_denominations": N_("Face values: one positive number per note, or leave empty."),
    "already_registered": N_("This player's notes are already registered."),
    "registration_incomplete": N_("The first dealer is chosen once every player's notes are registered."),
    "already_left": N_("That player has already left."),
    "already_placed": N_("In stage 1 each player places exactly one note."),
    "must_bid": N_("No notes left in hand: the player must bid."),
    "bid_too_low": N_("The bid must be higher than the current bid."),
    "bid_too_high": N_("The bid is more than the notes on the table."),
    "must_raise": N_("Everybody agreed: the new dealer must raise."),
    "dealer_cannot_answer": N_("The dealer does not agree or pass on his own bid."),
    "reveal_in_progress": N_("The notes are being revealed: bids are closed."),
    "own_stack_first": N_("The dealer first reveals all of his own notes."),
    "no_face_down_note": N_("That stack has no face-down note left."),
    "unregistered_serial": N_("No such note was registered at this table: rescan it or check the number typed."),
    "already_revealed": N_("That note is already face up."),
    "round_halted": N_("The round is stopped (a foreign note): the operator must void it."),
    "not_a_loser": N_("That player owes no note to the bank."),
    "not_own_note": N_("This note belongs to another player: rescan it or check the number typed."),
    "note_in_bank": N_("That note is already in the bank."),
    "settlement_in_progress": N_("The round is decided: the losers are paying into the bank."),
}


def _serials(f: dict, one: str, many: str) -> Message:
    serials = f["serials"]
    return M(one, serial=serials[0]) if len(serials) == 1 else M(many, serials=", ".join(serials))


def _serial_format(f: dict) -> Message:
    """A serial with a letter no serial of the currency holds («Ё» typed for «Е» on a rouble
    table: :func:`companion.games.skull.notes.unused_letter`) names that letter, then the
    currency's shape; without the letter (``KeyError``) :func:`reason_message`'s shape alone."""
    shape, example = SERIAL_SHAPES[f["currency"]]
    return M("In «%(serial)s» the letter «%(letter)s» is never used in banknote serials: type the letter the note "
             "shows (a %(currency)s serial is %(shape)s, e.g. %(example)s).", serial=f["serial"], letter=f["letter"],
             currency=f["currency"], shape=M(shape), example=example)


#: ``{code: words(facts) -> message}``: the refusals whose fix needs the table's facts.
REFUSALS_WITH_FACTS: dict[str, Callable[[dict], Message]] = {
    "serial_format": _serial_format,
    "serial_taken": lambda f: _serials(f, N_("Note %(serial)s is already registered to another player."),
                                       N_("Notes %(serials)s are already registered to other players.")),
    "duplicate_serial": lambda f: _serials(f, N_("Note %(serial)s appears twice in the player's set."),
                                           N_("Notes %(serials)s each appear twice in the player's set.")),
    "wrong_note_count": lambda f: M("Wrong number of notes: the set has %(given)s; each player registers %(each)s.",
                                    given=f["given"], each=f["each"]),
    "wrong_skull_count": lambda f: M(
        "Wrong number of skulls: the set has %(skulls)s; %(want)s of %(each)s notes are needed.",
        skulls=f["skulls"], want=f["want"], each=f["each"]),
    "bid_too_low": lambda f: M("The bid must be higher than the current bid: at least %(least)s.", least=f["least"]),
    "bid_too_high": lambda f: M("There are only %(notes)s on the table: bid no more.", notes=notes(f["on_table"])),
    "must_raise": lambda f: M("Everybody agreed: the new dealer must raise above %(bid)s.", bid=f["bid"]),
    "registration_incomplete": lambda f: M(
        "The first dealer is chosen once every player's notes are registered; still missing: %(missing)s.",
        missing=names_and(f["missing"])),
    "already_registered": lambda f: M("%(player)s's notes are already registered.", player=f["player"]),
    "not_a_loser": lambda f: M("%(player)s owes no note to the bank.", player=f["player"]),
    "seat_out": lambda f: M("%(player)s is out of the game.", player=f["player"]),
}


# ---------------------------------------------------------------------------- what a phone waits for
# Each takes (seat, view, templates of that verb's args, seats) and returns a message or None.

def _waiting_register(seat, view, templates, seats):
    missing = seat_args(templates)
    if seat in missing:
        return awaiting(CAMERA, M("your notes are not registered yet — show them to the camera, serial up"))
    names = [seats[i] for i in missing if seat_name(seats, i)]
    return awaiting(CAMERA, M("notes not registered yet — %(names)s", names=names_and(names)))


def _waiting_dealer(seat, view, templates, seats):
    return M("Waiting for the operator to choose the first dealer")


def _waiting_flip(seat, view, templates, seats):
    dealer = seat_name(seats, view.get("dealer"))
    if dealer is None:
        return None
    return awaiting(CAMERA, M("the dealer, %(dealer)s, is turning notes over", dealer=dealer))


def _waiting_deposit(seat, view, templates, seats):
    chooser = seat_name(seats, view.get("chooser"))
    owed = [i for i in (view.get("owed") or seat_args(templates)) if seat_name(seats, i)]
    if chooser is None:
        return None
    if seat in owed:
        return awaiting(CAMERA, M("%(chooser)s is choosing which of your notes goes to the bank", chooser=chooser))
    names = [seats[i] for i in owed]
    return awaiting(CAMERA, M("%(chooser)s is choosing the notes for the bank — paying: %(names)s", chooser=chooser,
                              names=names_and(names)))


#: ``{table verb: words}``: the table's pending task in words (:meth:`Presenter.waiting`).
WAITING = {"register": _waiting_register, "dealer": _waiting_dealer, "flip": _waiting_flip, "deposit": _waiting_deposit}

VOID = awaiting(OPERATOR, M("the round is stopped — the operator voids it"))


# ---------------------------------------------------------------------------- said aloud
def _spoken(event: Event, seats) -> Spoken | None:
    """What the table's voice says (seat names only, never a serial): «Череп! Вера.», «Успех!
    Аня справилась.», «Аня: купюра в банк.» (a minor moment)."""
    d = event.data if isinstance(event.data, dict) else {}
    if event.kind == "outcome":
        if d.get("outcome") == "success":
            name = seat_name(seats, d.get("dealer"))
            return Spoken(M("Success! %(name)s made it.", name=name)) if name else None
        name = seat_name(seats, d.get("skull_owner"))
        return Spoken(M("Skull! %(name)s.", name=name)) if name else None
    name = seat_name(seats, d.get("seat"))
    if event.kind == "note_to_bank" and name:
        return Spoken(M("%(name)s: a note to the bank.", name=name), priority=1)
    return None


def _moment(event: Event, seats: Sequence[str]) -> Moment | None:
    """A skull turned up: the table display shows it large, with whose it is."""
    d = event.data
    if event.kind != "flip" or d.get("role") != SKULL:
        return None
    seat = d.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return Moment("skull", MP("moment", "Skull — %(name)s", name=seats[seat]))
    return Moment("skull", MP("moment", "Skull"))


def _progress(view: dict) -> Message:
    """The rounds played (settled or void), from the public view's last round."""
    last = view.get("last_round") or {}
    return M("rounds: %(rounds)s", rounds=last.get("round") or 0)


def _seat_line(view: dict, seat: int, seats) -> Message | None:
    """One seat's notes in play, or that it is out."""
    rows = view.get("seats") or []
    if not 0 <= seat < len(rows):
        return None
    row = rows[seat]
    if row.get("status") in ("out", "left"):
        return MP("skull", "out")
    return notes(int(row.get("notes") or 0))


class SkullPresenter(PlainPresenter):
    """The words of ``skull`` (:class:`companion.games.spec.Presenter`)."""

    narrates = True
    notable = ('round', 'reveal_start', 'game_over', 'out', 'void')
    seat_keys = PlainPresenter.seat_keys + ('passed', 'agreed', 'owed', 'losers', 'chooser', 'skull_owner', 'owner', 'next_dealer')
    refusals = REFUSALS
    refusals_with_facts = REFUSALS_WITH_FACTS
    waiting_words = WAITING
    event = staticmethod(_event)
    spoken = staticmethod(_spoken)
    moment = staticmethod(lambda event, seats: _moment(event, seats))
    private_event = staticmethod(lambda event, seats: _private_event(event))
    standings = staticmethod(_standings)
    progress = staticmethod(_progress)
    seat_line = staticmethod(_seat_line)
    page = staticmethod(page_view)

    def own_refusal(self, reason, options=None):
        return reason_message(reason, options=options)

    def waiting(self, seat, view, tasks, seats):
        told = super().waiting(seat, view, tasks, seats)
        if told is None and view.get("phase") == "halted" and "void" in tasks:
            return VOID  # a foreign note stopped the round: only the operator's void goes on
        return told


PRESENTER = SkullPresenter()


def note_set_words(reason: str, options: SkullOptions | None = None) -> Message | str:
    """A problem of one player's note set (a :func:`~companion.games.skull.notes.validate_note_set`
    reason code) in words, with what the set is checked against: ``options`` (the notes' currency
    — its serial shape —, the notes and skulls each player registers). The registration refusal's
    sentence without its facts, as the table says it (``companion scan-note --set``); a code that
    is not a note-set problem as it is."""
    return reason_message(reason, options) or (M(REFUSALS[reason]) if reason in REFUSALS else reason)
