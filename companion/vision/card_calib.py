"""Calibrated confidence of a named card, and the suit-colour check.

A card the combined reader names (:func:`companion.vision.learned_read.combine`) gets one
probability of being right from a logistic model over a few facts of its read
(:data:`FEATURES`): whether both readers named it or only one, the learned classifier's
probability for it and for any other card, the templates' confidence, the measured ink colour
against the suit's colour, whether the frame was a sure card outline, and the card's size.
The model (``companion/vision/models/card_calib.json``) is fitted by ``tools/calibrate_cards.py``
on the calibration scenes only (:func:`companion.vision.table_scenes.calibration_scene`: surface
style ``c`` and the ``calib`` fonts, seeds 9 000 000+), never on the held-out scenes, the
validation scenes or a real photo; its line is the lowest probability at which the
calibration scenes' wrong cards stay within the goal. Below the line the card is reported
unsure (``weak_index``) with its box. Rationale and figures: docs/vision-cards.md.

**Suit colour** is a physical fact the classifier's suit head does not always respect: the
pip's redness against the card's own paper (each channel over the paper's, so coloured light
cancels; :func:`companion.vision.card_segments.segment_index`) must match the suit's colour. A sure
contradiction (:data:`COLOUR_VETO`) vetoes the card (``suit_colour_mismatch``).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import numpy as np

MODEL = Path(__file__).resolve().parent / "models" / "card_calib.json"
#: The model's inputs, in order (see :func:`features`).
FEATURES = ("agree", "learned_only", "classic_only", "learned_logit", "other_logit", "classic_conf",
            "colour", "unverified", "partial", "log_width", "learned_corners")
#: Signed colour agreement (−1 sure contradiction … +1 sure agreement) at or below which the
#: measured ink colour vetoes the suit (set before measuring: the colour is sure, see
#: :data:`companion.vision.card_index_read.RED_SCALE`).
COLOUR_VETO = -1.0
RED_SUITS = frozenset({"H", "D"})


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def colour_agreement(code: str | None, red: float | None) -> float:
    """How the pip's measured redness (:attr:`companion.vision.card_segments.IndexSegments.red`, None
    when no pip was segmented) agrees with the suit of ``code``: +1 sure agreement, −1 sure
    contradiction, 0 unknown (no pip, the joker, a learned label)."""
    from companion.vision.card_index_read import RED_SCALE, RED_SPLIT

    if red is None or not code or code == "JK" or code[-1] not in "SHDC":
        return 0.0
    s = max(-1.0, min(1.0, (red - RED_SPLIT) / RED_SCALE))
    return s if code[-1] in RED_SUITS else -s


def features(classic, learned, final) -> np.ndarray:
    """The :data:`FEATURES` vector of ``final`` (a named :class:`companion.vision.cards.CardRead`)
    from the classic and the learned read of its frame."""
    code = final.card
    probs = learned.detail.get("probs", {})
    lp = probs.get(code, 0.0)
    other = max((p for c, p in probs.items() if c != code), default=0.0)
    both = classic.card == code and learned.card == code
    frame = final.frame
    return np.array([
        float(both),
        float(learned.card == code and classic.card != code),
        float(classic.card == code and learned.card != code),
        _logit(lp), _logit(other),
        float(classic.confidence) if classic.card == code else 0.0,
        colour_agreement(code, learned.detail.get("red")),
        float(bool(frame.verify)),
        float(not frame.complete),
        math.log(max(8.0, float(min(frame.size)))),
        float(learned.detail.get("good", 0)),
    ], np.float64)


class Calibrator:
    """The fitted logistic model (:data:`MODEL`): ``weights`` over :data:`FEATURES` (after
    standardising with ``mean`` / ``scale``), ``bias`` and the acceptance ``line``."""

    def __init__(self, meta: dict) -> None:
        if tuple(meta.get("features", ())) != FEATURES:
            from companion.errors import VisionError
            raise VisionError(f"card calibration model {MODEL} does not match this version (tools/calibrate_cards.py)")
        self.meta = meta
        self.mean = np.asarray(meta["mean"], np.float64)
        self.scale = np.asarray(meta["scale"], np.float64)
        self.weights = np.asarray(meta["weights"], np.float64)
        self.bias = float(meta["bias"])
        self.line = float(meta["line"])
        #: whether the model was fitted with contested template reads (it then decides them)
        self.contest = bool(meta.get("contest", False))

    def probability(self, x: np.ndarray) -> float:
        """Probability that the named card is right."""
        z = float(((x - self.mean) / self.scale) @ self.weights + self.bias)
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def load(path: Path) -> Calibrator | None:
    """The calibration model at ``path``, or None when there is no such file."""
    if not Path(path).is_file():
        return None
    return Calibrator(json.loads(Path(path).read_text(encoding="utf-8")))


@functools.lru_cache(maxsize=1)
def shared() -> Calibrator | None:
    """The committed calibration model, or None when its file is missing (the reader then keeps
    the uncalibrated decision)."""
    return load(MODEL)
