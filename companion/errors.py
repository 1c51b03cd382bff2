"""The exception tree of Table Companion.

Every error the package raises on purpose derives from :class:`CompanionError`; each leaf also
derives from the builtin it most resembles, so ``except ValueError`` keeps working for callers that
do not know this package (the gpiozero / python-chess convention, ``../shared/DESIGN.md``).
"""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error raised on purpose by Table Companion.

    ``str()`` is the English message (logs, scripts). A raiser whose message a person reads (a
    CLI line, the console's refusals before the table starts: a bad flag, setting or ``--resume``
    log) gives it as a :class:`companion.i18n.Message`, ``CompanionError(M("no such file: %(path)s",
    path=p))``; :meth:`words` renders it in the reader's language (``--lang``, Russian by
    default). An error raised with plain English words is told in English in both languages.
    """

    #: the message, when the raiser gave one
    message = None

    def __init__(self, *args) -> None:
        from companion.i18n import Message, render

        if args and isinstance(args[0], Message):
            self.message = args[0]
            args = (render(args[0], "en"),) + args[1:]
        super().__init__(*args)

    def words(self, lang: str = "ru") -> str:
        """The message in ``lang`` (``"ru"`` or ``"en"``); the English words when the raiser gave
        no message."""
        if self.message is None:
            return str(self)
        from companion.i18n import render

        return render(self.message, lang)


class IllegalAction(CompanionError, ValueError):
    """An action the rules do not allow now; the game state is left untouched.

    Attributes:
        reason: a stable, machine-readable reason code (``snake_case``), listed in the game's
            ``docs/rules/<game>.md``. Common codes are in :data:`COMMON_REASONS`.
        detail: a human-readable sentence (English) saying what was wrong.
        facts: the table's facts a person needs to put it right, JSON-safe, e.g.
            ``{"player": "Борис", "dealt": 3, "entered": 2}`` for ``wrong_count``: the dashboard
            words them in the page's language (``companion.dashboard.reasons``); ``{}`` when the
            plain sentence for the reason says all.
    """

    def __init__(self, reason: str, detail: str = "", facts: dict | None = None) -> None:
        self.reason = reason
        self.detail = detail or reason
        self.facts = dict(facts or {})
        super().__init__(f"{reason}: {self.detail}")


class ActionSyntaxError(IllegalAction):
    """An action's text form could not be parsed (reason ``bad_syntax`` or ``unknown_action``)."""


#: Reason codes shared by all games (each game adds its own).
COMMON_REASONS = {
    "bad_syntax": "the action text does not parse",
    "unknown_action": "no such action verb in this game",
    "unknown_seat": "the seat number is not at this table",
    "game_over": "the game has ended; no more actions",
    "not_your_turn": "another seat must act now",
    "wrong_phase": "this action is not allowed in the current phase",
    "nothing_to_undo": "there is no accepted action to undo",
}


class LogError(CompanionError, ValueError):
    """A table log (SQLite or JSON Lines) is malformed or belongs to another game."""


class VisionError(CompanionError, ValueError):
    """An image or camera frame could not be used (missing, corrupt, wrong shape)."""

    #: a refusal's code and facts (``too_small``, ``{"w": …}``), when one was set
    #: (:func:`companion.vision.images._refuse`); ``None`` otherwise
    code: str | None = None
    facts: dict | None = None


class CameraError(CompanionError, OSError):
    """A camera source could not be opened or stopped delivering frames."""


class CameraMissing(CameraError):
    """The table's camera is not connected now (never found, or unplugged); it is being looked
    for again (:class:`companion.vision.camera.RetryingSource`) — observations are typed by hand
    meanwhile."""


class DeviceError(CompanionError, OSError):
    """A table device (button box, lights) failed or is not connected."""


class ProtocolError(CompanionError, ValueError):
    """A button-box wire frame is malformed (bad length, checksum or field)."""
