"""The font files card faces are rendered with, per split: training's, and the held-out and
calibration sets' own (fonts training never saw)."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

#: Index fonts per split: training renders use DejaVu and Liberation; the held-out set only fonts
#: training never saw (GNU FreeFont, URW base35), when installed.
_FONT_GLOBS = {
    "train": ["/usr/share/fonts/truetype/dejavu/DejaVu*.ttf", "/usr/share/fonts/truetype/liberation/Liberation*.ttf"],
    "heldout": ["/usr/share/fonts/truetype/freefont/Free*.ttf", "/usr/share/fonts/opentype/urw-base35/*.otf"],
    # more training fonts for the ninth pass's classifier (tools/train_cards.py --extra-fonts): in
    # neither the held-out nor the calibration split (fonts-open-sans, fonts-roboto,
    # fonts-bebas-neue, fonts-league-spartan, fonts-croscore)
    "extra": ["/usr/share/fonts/truetype/open-sans/*.ttf", "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/*.ttf",
              "/usr/share/fonts/opentype/bebas-neue/*.otf", "/usr/share/fonts/opentype/league-spartan/*.otf",
              "/usr/share/fonts/truetype/croscore/*.ttf"],
    # the confidence calibration's own fonts (tools/calibrate_cards.py): neither trained on nor in
    # the held-out set (fonts-paratype, fonts-ocr-b)
    "calib": ["/usr/share/fonts/truetype/paratype/PT[SFNCZ][57]5F.ttf", "/usr/share/fonts/truetype/paratype/PTN[57]7F.ttf",
              "/usr/share/fonts/opentype/ocr-b/OCRB.otf"],
}
_FONT_SKIP = ("Mono", "Italic", "Oblique", "Light", "ExtraLight", "Z003", "D050000L", "StandardSymbols",
              "Math", "Thin", "Cousine")


@functools.lru_cache(maxsize=None)
def fonts(split: str = "train", cyrillic: bool = False) -> tuple[str, ...]:
    """Font files of a split (``train`` or ``heldout``), upright text faces only; with
    ``cyrillic`` only those that draw Т К Д В. Empty when none is installed."""
    import glob

    out = []
    for g in _FONT_GLOBS[split]:
        for p in sorted(glob.glob(g)):
            if any(s in Path(p).name for s in _FONT_SKIP):
                continue
            if cyrillic and not _draws(p, "Д"):
                continue
            out.append(p)
    return tuple(out)


def _draws(path: str, ch: str) -> bool:
    """Whether the font has a glyph for ``ch`` (not its missing-glyph box)."""
    from PIL import ImageFont
    try:
        f = ImageFont.truetype(path, 48)
    except OSError:
        return False
    a = np.array(f.getmask(ch))
    b = np.array(f.getmask("\U000f0000"))
    return a.size > 0 and (a.shape != b.shape or not np.array_equal(a, b))

