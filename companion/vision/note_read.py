"""The note reader's verdicts: :class:`NoteRead` (one image's serial, or an abstention with its
reason, and the evidence) and :class:`NoteVoter` (a serial decided over a stream's frames), with
the reason codes and the small rules that group and combine readings."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from companion.i18n import N_
from companion.vision import serials as S


#: Reason codes of abstentions (stable; shown by ``companion scan-note``), their words message ids.
REASONS = {
    "no_serial": N_("no serial number found: show the serial side of the note, closer (rescan)"),
    "low_confidence": N_("serial read but not sure: rescan"),
    "copies_disagree": N_("the two printed copies of the serial read differently: rescan"),
    "several_notes": N_("two different serials read: with one note in view rescan it, with more "
                        "scan one note at a time"),
    "ambiguous_currency": N_("the text fits several currencies with different digits: give --currency"),
    "corrected_parity_digit": N_("the last digit was unclear: rescan"),
    "letters_unread": N_("the serial's digits were read but not its two letters: rescan"),
    # given by the table (companion/parts.py), not by read(): scan-note reports such a read with
    # letters_confirmed=false instead
    "letters_unconfirmed": N_("the serial's letters are not sure (one engine only): rescan"),
}

#: Abstentions that come from conflicting evidence: a second, finer detection pass must not
#: overrule them.
CONFLICTS = frozenset({"copies_disagree", "several_notes", "ambiguous_currency"})

#: Placeholder letters of a RUB reading whose digits fit but whose letter part the primary engine
#: could not read (RapidOCR's models know no Cyrillic); never part of a decided serial.
UNREAD_LETTERS = "??"


@dataclass
class Evidence:
    """One line reading that fits a format (for logs and tests)."""

    text: str
    score: float
    engine: str
    match: S.SerialMatch
    line: int
    image: int = 0


@dataclass
class NoteRead:
    """The reader's verdict for one image.

    Attributes:
        serial: canonical serial, or ``None`` when the reader abstains.
        currency: the currency whose format the serial fits (``None`` on abstention).
        confidence: 0..1; the reader decides only at ≥ ``NoteReader.min_confidence``.
        reason: ``None`` when decided, else a code of :data:`REASONS`.
        candidate: the best serial seen even when abstaining (never to be used for a decision).
        evidence: the matching line readings.
        letters_confirmed: ``False`` when the serial's letters rest on one engine's Latin
            look-alikes (RUB without Tesseract's agreement): the digits — hence the parity — are
            validated, the two Cyrillic letters may not be (``docs/vision-notes.md``).
    """

    serial: str | None
    currency: str | None
    confidence: float
    reason: str | None
    candidate: str | None = None
    evidence: list[Evidence] = field(default_factory=list)
    letters_confirmed: bool = True
    #: the serial recogniser's candidates → their share of its posterior (empty for PP-OCR)
    shares: dict = field(default_factory=dict)
    #: the lines (indices) the serial recogniser read turned round
    turned: frozenset = frozenset()
    #: where the serial (or, abstaining, the best candidate) was read: ``[x, y, w, h]`` px in the
    #: frame round its line(s), as ``CardRead.box``; ``None`` when no line carried it (the camera
    #: set-up view draws it, companion/camview.py)
    box: list | None = None

    @property
    def decided(self) -> bool:
        return self.serial is not None

    @property
    def last_digit(self) -> int | None:
        return S.last_digit(self.serial) if self.serial else None

    @property
    def parity(self) -> str | None:
        return S.parity(self.serial) if self.serial else None

    def to_json(self, image: str) -> dict:
        """The ``companion scan-note --json`` object for this read."""
        return {
            "image": image,
            "serial": self.serial,
            "last_digit": self.last_digit,
            "parity": self.parity,
            "confidence": round(float(self.confidence), 3),
            "reason": None if self.reason is None else REASONS.get(self.reason, self.reason),
        }


def combine(probs: Iterable[float]) -> float:
    """Independent agreeing readings: 1 - Π(1 - p)."""
    rest = 1.0
    for p in probs:
        rest *= 1.0 - min(max(p, 0.0), 0.999)
    return 1.0 - rest


def same_note(m: S.SerialMatch, res: NoteRead) -> bool:
    """Whether a reading (``m``) is of the serial a decided ``res`` names (a RUB reading by its
    seven digits: its letters may be unread); ``False`` when ``res`` decided nothing."""
    if not res.decided or m.currency != res.currency:
        return False
    return m.serial == res.serial or (m.currency == "RUB" and m.serial[2:] == res.serial[2:])


def group_key(m: S.SerialMatch) -> tuple[str, str]:
    """Readings that are the same note: same serial; for RUB the same seven digits (the
    Cyrillic letters are the unsure part, see :class:`NoteRead`)."""
    return (m.currency, m.serial[2:]) if m.currency == "RUB" else (m.currency, m.serial)


def hamming_close(a: str, b: str) -> bool:
    if len(a) != len(b):
        return abs(len(a) - len(b)) <= 1
    return sum(x != y for x, y in zip(a, b)) <= 3


class NoteVoter:
    """Decides a serial over several frames of a stream before committing it.

    Feed every frame's :class:`NoteRead`; :meth:`decision` returns a serial once it has been read
    (decided) in ``need`` of the last ``window`` frames and no *other* serial was decided in that
    window. Abstaining frames neither count for nor against.

    Args:
        need: decided frames that must agree (≥ 1).
        window: how many recent frames are considered.
    """

    def __init__(self, need: int = 3, window: int = 8) -> None:
        if need < 1 or window < need:
            raise ValueError("need ≥ 1 and window ≥ need")
        self.need = need
        self.window = window
        self._recent: list[NoteRead] = []

    def add(self, read: NoteRead) -> str | None:
        """Record one frame's read; returns the committed serial or ``None`` (keep scanning)."""
        self._recent.append(read)
        self._recent = self._recent[-self.window:]
        return self.decision()

    def decision(self) -> str | None:
        """The committed serial, or ``None`` while frames disagree or are too few."""
        decided = Counter(r.serial for r in self._recent if r.decided)
        if len(decided) != 1:
            return None
        serial, n = decided.most_common(1)[0]
        return serial if n >= self.need else None

    def reset(self) -> None:
        """Forget every frame (call after committing a serial, before the next note)."""
        self._recent.clear()
