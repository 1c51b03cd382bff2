"""``companion scan-card`` — read every card in one or more photos.

Text output: one line per image (``IMAGE: QH 10S ?(weak_index)``: an abstained card as ``?`` with
its reason); ``--json``: one JSON object per image per line, ``{"image", "cards": [{"card", "box":
[x, y, w, h], "confidence"}], "reason"}``, cards left to right; ``box`` is the card's bounding box
in px (left, top, width, height) of the image as decoded, EXIF orientation applied. An abstained card has ``"card": null`` and its own ``"reason"``; a missing or corrupt file
gives ``"cards": []``, ``"error": "unreadable_file"`` and a ``"reason"`` (``no such file``, ``not a readable
image …``; text: ``IMAGE: error: REASON`` on stderr, as scan-note), and the other images are
still read. A folder stands for the images in it (:mod:`companion.commands._images`). Exit status:
0 (also when a file was missing or unreadable: that is reported on its line), or 2 when an argument
was unusable (unknown deck, bad option — argparse) — the same rule as ``companion scan-note``.
"""

from __future__ import annotations

import argparse
import json
import sys


from companion.errors import VisionError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "scan-card", help="read the cards in photos (standard or learned deck)",
        description="Find and read every card in each IMAGE. Abstains (card null, with a reason) "
                    "rather than guess.")
    p.add_argument("images", nargs="+", metavar="IMAGE",
                   help="photo files (JPEG, PNG, …) or folders of photos")
    p.add_argument("--deck", default="standard",
                   help="standard, standard36, standard32, or a learned deck profile name/folder "
                        "(see `companion deck list`); default standard")
    p.add_argument("--alphabet", default="auto", choices=["en", "ru", "de", "auto"],
                   help="corner-index alphabet of a standard deck: en (A K Q J), ru (Т К Д В), "
                        "de (A K D B) or auto (any of them); default auto (an unknown deck "
                        "reads right or abstains; see docs/vision-cards.md)")
    p.add_argument("--ocr", action="store_true",
                   help="let RapidOCR re-read weak rank glyphs (slower, still images only)")
    p.add_argument("--layout", action="store_true",
                   help="read the Hoggenheimer 4×8 layout instead (slots, 33rd card, misplaced cards)")
    p.add_argument("--json", action="store_true", help="one JSON object per image per line")
    p.set_defaults(func=run)


def make_reader(deck: str, alphabet: str = "auto", ocr: bool = False):
    """A :class:`~companion.vision.cards.CardReader` for ``deck`` (standard name or profile).

    Raises:
        VisionError: an unknown deck name / unreadable profile.
    """
    from companion.vision.cards import CardReader
    from companion.vision.decks import DeckProfile
    if deck in ("standard", "standard52", "standard36", "standard32"):
        return CardReader(deck, alphabet, ocr=ocr)
    return CardReader(DeckProfile.load(deck), alphabet, ocr=ocr)


def run(args: argparse.Namespace) -> int:
    try:
        reader = make_reader(args.deck, args.alphabet, args.ocr)
    except (VisionError, ValueError) as e:
        print(f"companion scan-card: {e}", file=sys.stderr)
        return 2
    from companion.commands._images import UNREADABLE, expand, read_image

    for name, problem in expand(args.images):
        out: dict = {"image": name, "cards": [], "reason": None}
        text = ""
        try:
            if problem:
                raise VisionError(problem)
            img = read_image(name)
            if args.layout:
                from companion.vision.layout import read_layout
                lay = read_layout(img, reader if args.deck != "standard" else make_reader("standard32", args.alphabet, args.ocr))
                out = {"image": name, **lay.to_json()}
                text = _layout_text(lay)
            else:
                reads = reader.read(img)
                out["cards"] = [r.to_json() for r in reads]
                if not reads:
                    out["reason"] = "no_card_found"
                text = " ".join(r.card or f"?({r.reason})" for r in reads) or "(no card found)"
        except VisionError as e:
            out["reason"] = str(e)
            out["error"] = UNREADABLE
            if not args.json:  # errors on stderr, as scan-note prints them
                print(f"{name}: error: {e}", file=sys.stderr, flush=True)
                continue
        if args.json:
            print(json.dumps(out, ensure_ascii=False), flush=True)
        else:
            print(f"{name}: {text}", flush=True)
    return 0


def _layout_text(lay) -> str:
    if lay.reason:
        return lay.reason
    rows = []
    for r in range(4):
        cells = []
        for c in range(8):
            s = lay.slot(r, c)
            cells.append({"face_down": "##", "empty": "..", "unknown": "??"}.get(s.state, s.card or "??")
                         + ("!" if s.misplaced else ""))
        rows.append(" ".join(f"{x:>4}" for x in cells))
    extra = lay.extra_card or lay.extra_state
    mis = ", ".join(f"{s.card} on {s.expected}" for s in lay.misplaced)
    return "\n" + "\n".join(rows) + f"\n33rd card: {extra}" + (f"\nmisplaced: {mis}" if mis else "")
