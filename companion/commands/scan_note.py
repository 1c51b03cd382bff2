"""``companion scan-note`` — read banknote serials from image files.

    companion scan-note [--currency auto|RUB|EUR|USD|INR|KRW|JPY] [--json] IMAGE...

One result per image. With ``--json`` each line is one JSON object
``{"image", "serial", "last_digit", "parity", "confidence", "reason"}``; ``serial``,
``last_digit`` and ``parity`` are ``null`` with a ``reason`` when the reader abstains ("not sure,
rescan"). A missing or corrupt file gets an error line (text: ``IMAGE: error: REASON`` on stderr; JSON:
``"error"`` key and a ``reason``) and the other images are still read. A folder stands for the
images in it, sorted by name (:mod:`companion.commands._images`); a folder without images gets an
error line. With ``--set`` a last line checks the images as one player's
skull set (``companion.games.skull.validate_note_set``: composition, no serial twice). Exit
status: 0, or 2 when an argument was unusable (no image given, unknown currency — argparse).
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.errors import VisionError
from companion.vision.serials import CURRENCIES, currency_code


def register(subparsers) -> None:
    """Add the ``scan-note`` sub-parser."""
    p = subparsers.add_parser(
        "scan-note",
        help="read banknote serial numbers (parity for the skull game) from images",
        description="Read the serial number of the banknote in each image (a photo of a note on "
                    "the table, or a tight crop of its serial strip) and print its last digit and "
                    "parity; abstains with a reason when not sure.",
    )
    p.add_argument("--currency", default="auto", choices=("auto",) + CURRENCIES,
                   type=currency_code,
                   help="serial format to expect (default: auto, tries them all)")
    p.add_argument("--json", action="store_true", help="one JSON object per image per line")
    p.add_argument("--no-second-opinion", action="store_true",
                   help="do not ask Tesseract to confirm uncertain reads")
    p.add_argument("--set", action="store_true", dest="note_set",
                   help="the images are one player's notes for the skull game: also check the set "
                        "(default composition three even + one odd, no serial twice)")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (jpg, png, bmp…) or folders of them")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read every image; returns the exit status (0)."""
    from companion.vision.notes import REASONS, NoteReader

    reader = NoteReader(currency=args.currency, second_opinion=not args.no_second_opinion)
    out = sys.stdout
    serials: list[str] = []
    currencies: set[str] = set()
    unread: list[str] = []
    from companion.commands._images import UNREADABLE, expand, read_image

    for path, problem in expand(args.images):
        try:
            if problem:
                raise VisionError(problem)
            read = reader.read(read_image(path))
        except VisionError as exc:
            unread.append(path)
            if args.json:
                out.write(json.dumps({"image": path, "serial": None, "last_digit": None,
                                      "parity": None, "confidence": 0.0, "reason": str(exc),
                                      "error": UNREADABLE}, ensure_ascii=False) + "\n")
            else:
                print(f"{path}: error: {exc}", file=sys.stderr)
            out.flush()
            continue
        if read.decided:
            serials.append(read.serial)
            currencies.add(read.currency)
        else:
            unread.append(path)
        if args.json:
            out.write(json.dumps(read.to_json(path), ensure_ascii=False) + "\n")
        elif read.decided:
            out.write(f"{path}: {read.serial} ({read.currency}) last digit {read.last_digit} "
                      f"{read.parity} — confidence {read.confidence:.2f}\n")
        else:
            why = reason_words(read.reason, args.currency)
            out.write(f"{path}: no decision ({read.reason}) — {why} (confidence {read.confidence:.2f})\n")
        out.flush()
    if getattr(args, "note_set", False):
        # the set is checked against the notes' currency (the skull engine checks the serial shape)
        currency = args.currency if args.currency != "auto" else (
            next(iter(currencies)) if len(currencies) == 1 else "auto")
        _check_set(serials, unread, args.json, out, currency)
    return 0


def reason_words(reason: str, currency: str = "auto") -> str:
    """The human words for an abstaining read's ``reason`` code (:data:`companion.vision.notes.REASONS`):
    with a currency given (not ``auto``), ``no_serial`` adds that the note may be of another
    currency — a euro note scanned with ``--currency RUB`` shows no RUB serial. The JSON keeps the
    code alone."""
    from companion.vision.notes import REASONS

    why = REASONS.get(reason, reason)
    if reason == "no_serial" and currency != "auto":
        why += f"; or the note is not in {currency} (try --currency auto)"
    return why


def _check_set(serials: list[str], unread: list[str], as_json: bool, out, currency: str = "auto") -> None:
    """Print the skull set check (``companion.games.skull.validate_note_set``) of the serials
    read; a set with an unread note is reported incomplete instead of being judged."""
    from companion.games.skull import validate_note_set

    if unread:
        problems = [("unread_note", f"{len(unread)} note(s) not read: rescan {', '.join(unread)}")]
    else:
        problems = validate_note_set(serials, {"currency": currency})
    if as_json:
        out.write(json.dumps({"set": serials, "ok": not problems,
                              "problems": [{"reason": r, "message": m} for r, m in problems]},
                             ensure_ascii=False) + "\n")
    elif problems:
        for reason, message in problems:
            out.write(f"set: {reason}: {message}\n")
    else:
        out.write(f"set: ok ({len(serials)} notes)\n")
