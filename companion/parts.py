"""The seams between the table service and the parts other modules provide.

``companion run`` assembles parts that live in their own packages — the Table session and the
Flask dashboard (``companion.table``, ``companion.dashboard``), the button-box driver, virtual box
and lights (``companion.devices``), camera sources and readers (``companion.vision``). Each function
here imports one part and adapts it to the small interface the service uses, so a part that is not
installed, or whose interface changed, fails *here*, loudly, with :class:`MissingPart` naming the
part and what was expected — never a silent fallback to something else.

The interfaces the service uses are declared here as :class:`typing.Protocol` classes
(:class:`CameraSource`, :class:`PushSource`, :class:`ButtonBoxDevice`, :class:`VirtualBoxDevice`,
:class:`TableSignals`): a backend is anything with those methods, checked by the type checker
(and, where a part is chosen at run time, by ``isinstance`` on the runtime-checkable ones) rather
than by probing for one of several method names.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Iterable, Protocol, runtime_checkable

import numpy as np

from companion import camview
from companion.errors import CompanionError
from companion.i18n import M


# ---------------------------------------------------------------------- the device interfaces
@runtime_checkable
class CameraSource(Protocol):
    """A camera (:mod:`companion.vision.camera`): ``read()`` gives the next frame."""

    def read(self) -> np.ndarray:
        """The next frame, H×W×3 BGR uint8.

        Raises:
            CameraError: no frame (``CameraMissing`` when the camera is not there now).
        """
        ...

    def close(self) -> None:
        """Release the device (idempotent)."""
        ...


@runtime_checkable
class PushSource(CameraSource, Protocol):
    """A camera whose frames are put in by the program: the simulated table's scene camera
    (:class:`companion.vision.camera.RenderedSource`)."""

    def push(self, frame: np.ndarray) -> None:
        """Show ``frame``: the next :meth:`read` returns it."""
        ...


@runtime_checkable
class ButtonBoxDevice(Protocol):
    """The host driver of the button box (:class:`companion.devices.buttonbox.ButtonBox`):
    events go to the callback it was opened with, on its own thread."""

    @property
    def status(self) -> Any:
        """The link's state (``to_dict()``: ``port``, ``connected``, ``alive``, ``firmware`` …)."""
        ...

    def wait_connected(self, timeout: float = 5.0) -> bool:
        """Wait until the box answers; False after ``timeout`` seconds."""
        ...

    def set_light(self, seat: int, mode: str) -> Any:
        """Set one pad's seat light (the table's signals drive it)."""
        ...

    def close(self) -> None:
        """Stop the driver and close the port."""
        ...


@runtime_checkable
class VirtualBoxDevice(Protocol):
    """The simulated button box (:class:`companion.devices.virtualbox.VirtualButtonBox`) on a
    pty: the bots press its buttons, the host driver reads the frames on :attr:`port`."""

    port: str
    #: its seat pads (1..:data:`companion.devices.protocol.MAX_SEATS`)
    seats: int

    def start(self) -> Any:
        """Start the firmware logic on the pty."""
        ...

    def press(self, seat: int, button: str, duration_ms: int | None = None) -> None:
        """Press one button of one pad (returns at once)."""
        ...

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every press was played and acknowledged."""
        ...

    def close(self) -> None:
        ...


@runtime_checkable
class TableSignals(Protocol):
    """The table's lights and sounds (:class:`companion.devices.lights.TableLights`)."""

    seats: int

    def show_turn(self, current: int | None = None, must_act: Iterable[int] = ()) -> None: ...

    def waiting(self) -> None: ...

    def alert(self, seats: Iterable[int] = (), on: bool = True) -> None: ...

    def all_off(self) -> None: ...

    def success(self, wait: bool = False) -> None: ...

    def failure(self, wait: bool = False) -> None: ...

    def close(self) -> None: ...


class MissingPart(CompanionError, RuntimeError):
    """A part of the table is not installed or does not offer what the service needs.

    Attributes:
        part: which part (``"button box driver"``, ``"note reader"``…).
        need: the module/attribute that was looked for.
    """

    def __init__(self, part: str, need: str, detail: str = "") -> None:
        self.part = part
        self.need = need
        msg = f"{part} is not available: need {need}"
        if detail:
            msg += f" ({detail})"
        super().__init__(msg)


def need(module: str, *names: str, part: str) -> Any:
    """Import ``module`` and return the first of ``names`` it defines (the module itself when no
    names are given).

    Raises:
        MissingPart: the module does not import or defines none of ``names``.
    """
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise MissingPart(part, module, f"import failed: {exc}") from None
    if not names:
        return mod
    for name in names:
        if hasattr(mod, name):
            return getattr(mod, name)
    raise MissingPart(part, f"{module}.{' or '.join(names)}", "not defined")


# ---------------------------------------------------------------------- button box
def virtual_box(seats: int) -> VirtualBoxDevice:
    """Start the virtual button box (branch buttons) with ``seats`` pads on a pty.

    Presses are short (12 ms closed, 1 ms bounce: still longer than the firmware's 5 ms debounce)
    so bots play quickly; the firmware logic is the real one.

    Raises:
        MissingPart: ``companion.devices.virtualbox`` is not installed.
    """
    cls = need("companion.devices.virtualbox", "VirtualButtonBox", part="virtual button box (branch buttons)")
    box: VirtualBoxDevice = cls(seats=seats, press_ms=12, bounce_ms=1)
    box.start()
    return box


def button_box(url: str, on_event: Callable) -> ButtonBoxDevice:
    """Open the host driver (branch buttons) on ``url``; events go to ``on_event(ButtonEvent)``.

    Raises:
        MissingPart: ``companion.devices.buttonbox`` is not installed.
    """
    cls = need("companion.devices.buttonbox", "ButtonBox", part="button box driver (branch buttons)")
    return cls(url, on_event).open()


# ---------------------------------------------------------------------- lights
class Lights:
    """Whose turn it is and what just happened, on the table's signals (branch buttons'
    :class:`companion.devices.lights.TableLights`: the pads' seat lights through the button box,
    the Pi's turn and alert lights and buzzer through gpiozero).

    * seats that must act blink; when the game waits for the camera or the operator the turn
      light pulses;
    * an event whose kind says a round was won/lost plays the success/failure sound; a halt
      (skull's foreign note) raises the alert;
    * game over: every light off and the success sound.
    """

    def __init__(self, signals: TableSignals) -> None:
        self.signals = signals
        self._waiting = False

    def show(self, current_seats, over: bool, events=()) -> None:
        sig = self.signals
        kinds = [getattr(e, "kind", "") for e in events]
        if over:
            sig.all_off()
            sig.success()
            return
        sig.show_turn(None, [s for s in current_seats if 0 <= s < sig.seats])
        if not current_seats and not self._waiting:
            sig.waiting()
        self._waiting = not current_seats
        if any("halt" in k or "foreign" in k for k in kinds):
            sig.alert()
        elif any(w in k for k in kinds for w in ("fail", "lost", "wrong")):
            sig.failure()
        elif any(w in k for k in kinds for w in ("success", "won", "right")):
            sig.success()

    def close(self) -> None:
        self.signals.close()


def lights(kind: str, seats: int, box):
    """The table signals for backend ``kind``: ``gpio`` (gpiozero's default pins: real on a Pi),
    ``mock`` (gpiozero's MockFactory with PWM pins) or ``none`` (pad lights only).

    Raises:
        MissingPart: ``companion.devices.lights`` (branch buttons) is not installed.
        CompanionError: ``gpio`` where gpiozero finds no pins (not a Raspberry Pi), or a pin is
            unavailable — with the way out (``--lights mock``).
    """
    mod = need("companion.devices.lights", part="table lights (branch buttons)")
    factory = mod.mock_factory() if kind in ("mock", "none") else None
    import warnings

    try:
        with warnings.catch_warnings():
            # gpiozero warns once per pin library it falls back from; the error below says it all
            warnings.simplefilter("ignore")
            signals = mod.TableLights(seats, seat_lights=box, pin_factory=factory)
    except Exception as exc:  # gpiozero.GPIOZeroError and its pin-factory fall-back errors
        if factory is not None:
            raise
        raise CompanionError(f"GPIO lights are not available here ({type(exc).__name__}: {exc}); "
                             "on a machine that is not a Raspberry Pi use --lights mock "
                             "(or none)") from None
    return Lights(signals)


# ---------------------------------------------------------------------- camera and readers
def camera(spec: str) -> "CameraAdapter":
    """The camera source for a camera spec (:func:`companion.vision.camera.parse_spec`: ``scene``,
    ``picamera2``, ``opencv:0``, ``folder:PATH``, ``image:PATH`` …). The result has ``read()`` (a
    frame, H×W×3 BGR uint8), ``close()`` and, for ``scene``, ``push(frame)``.

    Raises:
        MissingPart: ``companion.vision.camera`` does not import.
        CameraError: the spec names nothing usable, or the device cannot be opened.
    """
    open_source = need("companion.vision.camera", "open_source", part="camera sources")
    return CameraAdapter(open_source(spec))


class CameraAdapter:
    """The service's one camera: a :class:`CameraSource` (and, for the scene camera, a
    :class:`PushSource`), whichever backend it is.

    Raises:
        MissingPart: ``source`` is not a :class:`CameraSource`.
    """

    def __init__(self, source: CameraSource) -> None:
        if not isinstance(source, CameraSource):
            raise MissingPart("camera source", f"{type(source).__name__}.read() and .close()")
        self.source = source
        camview.register(self)  # the operator's camera set-up view (companion/camview.py)

    def read(self) -> np.ndarray:
        """The next frame (:meth:`CameraSource.read`); the operator's set-up view keeps it as its
        latest (:func:`companion.camview.offer`)."""
        frame = self.source.read()
        camview.offer(frame)
        return frame

    def push(self, frame: np.ndarray) -> None:
        """Show ``frame`` (the scene camera only).

        Raises:
            MissingPart: the camera is not a :class:`PushSource`.
        """
        if not isinstance(self.source, PushSource):
            raise MissingPart("scene camera", f"{type(self.source).__name__}.push(frame)")
        self.source.push(frame)

    def close(self) -> None:
        self.source.close()


def reader(kind: str, settings, game, sim_renderer=None):
    """The reader of ``kind`` (``note`` or ``card``) as a :data:`companion.observe.Reader`.

    Args:
        game: the current game (its spec's deck decides the card reader's deck).
        sim_renderer: the simulated table's scene renderer; a picture or numbered deck is then
            registered by showing the camera one card of each kind (RULINGS §2), as a real table
            does with ``companion deck learn``.

    Raises:
        MissingPart: the reader module (branch notes / cards) is not installed.
        CompanionError: the game needs a learned deck and none is set (``deck = NAME``).
    """
    if kind == "note":
        return camview.tapped(_note_reader(settings))  # the set-up view draws what it read
    if kind == "card":
        return camview.tapped(_card_reader(settings, game, sim_renderer))
    raise ValueError(f"no reader kind {kind!r}")


def _note_reader(settings):
    from companion.observe import Item

    cls = need("companion.vision.notes", "NoteReader", part="banknote reader (branch notes)")
    note_reader = cls(currency=settings.currency)

    def read(frame):
        """One note per frame (the reader's contract): its serial, or an abstention. Frames
        come from one camera stream: the serial regions of the last decided frame are read
        first (``NoteReader.read_stream``), the whole frame when they read nothing."""
        r = note_reader.read_stream(frame)
        box = _box(getattr(r, "box", None))  # where its serial was read (older readers: not said)
        x = box[0] + box[2] / 2 if box else 0.0
        if r.decided and not r.letters_confirmed:
            # digits (and so the parity) are sure, the letters are one engine's guess: the table
            # never logs a guessed serial (it registers notes and finds them again by it)
            return [Item(None, float(r.confidence), x, "letters_unconfirmed", box)]
        return [Item(r.serial, float(r.confidence), x, r.reason, box)]

    read.describe = f"notes ({settings.currency})"  # type: ignore[attr-defined]  # its log name
    return read


def _box(box) -> tuple[int, int, int, int] | None:
    """A reader's ``[x, y, w, h]`` box as the :class:`companion.observe.Item` keeps it (``None``
    when it gives none or not four numbers)."""
    try:
        x, y, w, h = (int(round(float(v))) for v in box)
    except (TypeError, ValueError):
        return None
    return (x, y, w, h)


#: How close (px) a card region's box must come to the frame's edge to count as cut by it.
EDGE_PX = 3


def out_of_view(read, shape) -> bool:
    """Whether a card read (``CardRead``) is a region the reader saw as paper but whose corners
    are all out of view (``no_corner_visible``) *and* whose box reaches the frame's edge
    (:data:`EDGE_PX`): a card lying partly outside the camera's view — at a real table the
    players' hands at the border, face down in a fan — is not on the play area the camera
    watches. It is left out of the table's reads instead of making every frame "unsure" (a
    simulated 6100 game retried 71 % of its camera reads for the hands' fan at the top edge).
    A played card that is cut by the edge is not read either, so the observation it was for
    stays unread and the table asks for a rescan: nothing is guessed.

    Args:
        read: a :class:`companion.vision.cards.CardRead` (``box`` [x, y, w, h] px).
        shape: the frame's shape (H, W[, 3]).
    """
    if read.card is not None or read.reason != "no_corner_visible" or not read.box:
        return False
    x, y, w, h = read.box
    H, W = shape[:2]
    return x <= EDGE_PX or y <= EDGE_PX or x + w >= W - EDGE_PX or y + h >= H - EDGE_PX


def _card_reader(settings, game, sim_renderer):
    from companion.observe import Item

    from companion.games import registry
    from companion.games.spec import Deck

    cards = need("companion.vision.cards", "CardReader", part="card reader (branch cards)")
    game_id = game.GAME_ID
    spec_deck = registry.get(game_id).deck or Deck()
    if settings.deck != "standard":
        DeckProfile = need("companion.vision.decks", "DeckProfile", part="deck profiles (branch cards)")
        deck = DeckProfile.load(settings.deck)
    elif spec_deck.learned:
        if sim_renderer is None:
            raise CompanionError(M("%(game)s is played with its own cards: learn them first (companion deck learn NAME "
                                   "DIR, one photo per card) and set deck = NAME in the settings", game=game_id))
        if spec_deck.labels is None:
            raise CompanionError(f"{game_id}: cannot list the deck's cards to register them")
        profile_from_images = need("companion.vision.decks", "profile_from_images", part="deck profiles (branch cards)")
        labels = spec_deck.labels(game)
        shots = {label: sim_renderer.render([("card", label)], attempt=-1) for label in labels}
        deck = profile_from_images(f"sim-{game_id}", shots, kind=spec_deck.kind)
    else:
        deck = spec_deck.kind
    card_reader = cards(deck=deck)

    def read(frame):
        """Every face-up card in the frame; backs (the table's face-down cards) are not read, nor
        is a card region cut by the frame's edge with none of its corners in view
        (:func:`out_of_view`)."""
        out = []
        for r in card_reader.read(frame):
            if r.face_up is False or out_of_view(r, frame.shape):
                continue
            x = r.box[0] + r.box[2] / 2 if r.box else 0.0
            out.append(Item(r.card, float(r.confidence), float(x), r.reason, _box(r.box)))
        return out

    read.describe = f"cards ({deck if isinstance(deck, str) else deck.name})"  # type: ignore[attr-defined]
    return read


# ---------------------------------------------------------------------- dashboard and replay

class _Served:
    """The dashboard server with the URL the console prints (the LAN address when it listens on
    every interface, so a phone on the table's Wi-Fi can open it)."""

    def __init__(self, server, host: str) -> None:
        self.server = server
        self.port = server.port
        from companion.dashboard import shown_url

        self.url = shown_url(host, self.port) + "/"

    def stop(self) -> None:
        self.server.stop()


def dashboard_server(table, host: str, port: int):
    """Serve the dashboard (branch dashboard) for ``table`` on ``host:port``; returns an object
    with ``url``, ``port`` and ``stop()``.

    Raises:
        MissingPart: ``companion.dashboard.DashboardServer`` is not installed.
        OSError: the port is taken.
    """
    cls = need("companion.dashboard", "DashboardServer", part="dashboard (branch dashboard)")
    return _Served(cls(table, host=host, port=port).start(), host)


def replay_summary(table_log) -> dict:
    """The summary object of ``companion replay --json`` for a table log (branch skull).

    Raises:
        MissingPart: ``companion.commands.replay.summary`` is not installed.
    """
    from companion.log import replay

    fn = need("companion.commands.replay", "summary", part="replay command (branch skull)")
    return fn(replay(table_log.header, table_log.records()))
