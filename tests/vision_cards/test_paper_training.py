"""The paper segmenter's training scenes (tools/train_card_seg.py): what it trains on never
overlaps what the card reader is measured on, its targets are the cards' paper, and its colour
augmentation keeps card paper light and grey."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("train_card_seg", ROOT / "tools" / "train_card_seg.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_card_seg", mod)
    spec.loader.exec_module(mod)
    return mod


def test_training_seeds_never_touch_the_measured_sets():
    """Held-out (7 000 000+), validation (8 000 000+), calibration (9 000 000+) and the index
    classifier's renders (10 000 000+, 15 000 000+) are out of bounds for every seed."""
    t = _tool()
    for seed in (2, 3, 4):
        tr, va = t.seed_ranges(seed, 3000, 200)
        for r in (tr, va):
            assert r.start >= 20_000_000 and not set(r) & set(range(7_000_000, 7_000_400)), (seed, r)
    with pytest.raises(ValueError, match="overlap the measured sets"):
        t.seed_ranges(1, 3000, 200)  # 10 000 000+: the index classifier's own renders
    with pytest.raises(ValueError):
        t.seed_ranges(0, 7_000_001, 10)  # a range running into the held-out seeds


def test_close_up_target_is_the_card_filling_the_frame():
    """A close-up (``--wide``): one card nearly filling the frame, the target its paper."""
    t = _tool()
    for s in range(3):
        x, y = t.close_up(np.random.default_rng(100 + s))
        assert x.shape[0] == 3 and x.shape[1:] == y.shape and max(y.shape) == 256
        assert 0.3 < y.mean() <= 1.0, y.mean()
        # the paper is lighter than what the target calls table (or there is no table)
        grey = x.astype(np.float32).mean(0)
        if (y == 0).sum() > 200:
            assert grey[y > 0].mean() > grey[y == 0].mean() - 0.05


def test_colour_augmentation_keeps_grey_paper_grey_and_in_range():
    torch = pytest.importorskip("torch")
    t = _tool()
    x = torch.zeros(8, 3, 16, 16)
    x[:, :, :8] = 0.85                                           # grey paper
    x[:, 1, 8:] = 0.6                                            # green felt
    out = t.augment(x.clone(), np.random.default_rng(5))
    assert out.min() >= 0 and out.max() <= 1
    paper = out[:, :, :8].mean((2, 3))                           # per image, per channel
    assert float((paper.max(1).values - paper.min(1).values).max()) < 0.35  # gains only, no hue
    assert float(paper.mean()) > 0.55
    felt = out[:, :, 8:].mean((2, 3))
    moved = (felt.argmax(1) != 1).sum()
    assert moved >= 1, "no felt changed colour: the permutation is off"
