"""``companion scan-note`` — read banknote serials from image files.

    companion scan-note [--currency auto|RUB|EUR|USD|INR|KRW|JPY] [--json] [--lang ru|en] IMAGE...

One result per image, in words in the console's language (``--lang``: Russian by default, like
``companion run``; ``en`` for English — :mod:`companion.commands._lang`). With ``--json`` each line is one JSON object
``{"image", "serial", "last_digit", "parity", "confidence", "reason"}``; ``serial``,
``last_digit`` and ``parity`` are ``null`` with a ``reason`` when the reader abstains ("not sure,
rescan"); the JSON is the same whatever ``--lang`` says. A missing or corrupt file gets an error
line (text: ``IMAGE: ошибка: ПРИЧИНА`` / ``IMAGE: error: REASON`` on stderr; JSON: ``"error"`` key and
a ``reason``) and the other images are still read. A folder stands for the
images in it, sorted by name (:mod:`companion.commands._images`); a folder without images gets an
error line. With ``--set`` a last line checks the images as one player's
skull set (``companion.games.skull.validate_note_set``: composition, no serial twice) in the
notes' currency — with ``--currency auto``, the one currency the notes read as; notes read as
different currencies are not judged as a set: the line says so, naming each currency with its
images and serials (problem ``mixed_currency``). Exit status: 0 when every image was read (a "not
sure" read included); 1 when an argument could not be used at all (a missing or unreadable file, a
folder without images: said on its line, the others still read) or the ``--set`` notes read as
different currencies (the set could not be checked); 2 when the command line was unusable (no
image given, unknown currency — argparse, worded in the ``--lang`` language too).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from companion.commands._lang import add_lang_option
from companion.errors import VisionError
from companion.vision.serials import CURRENCIES, currency_code
from companion.i18n import M, MN, MP, NC_, decimal, render
from companion.i18n.cli import _


def _currency(text: str) -> str:
    """argparse ``type`` of ``--currency``: a code, a name or a sign (``руб``, ``€``:
    :func:`companion.vision.serials.currency_code`); an unknown one is refused quoting what was
    typed, with the codes."""
    from companion.i18n import cli as words

    code = currency_code(text)
    if code not in ("auto",) + CURRENCIES:
        raise argparse.ArgumentTypeError(words.tell(M(
            "invalid choice: %(value)r (choose from %(choices)s)", value=text,
            choices=", ".join(repr(c) for c in ("auto",) + CURRENCIES))))
    return code


def register(subparsers) -> None:
    """Add the ``scan-note`` sub-parser."""
    p = subparsers.add_parser(
        "scan-note",
        help=_("read banknote serial numbers (parity for the skull game) from images"),
        description=_("Read the serial number of the banknote in each image (a photo of a note on "
                    "the table, or a tight crop of its serial strip) and print its last digit and "
                    "parity; abstains with a reason when not sure."),
    )
    p.add_argument("--currency", default="auto", type=_currency, choices=("auto",) + CURRENCIES,
                   help=_("serial format to expect (default: auto, tries them all)"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per image per line"))
    p.add_argument("--no-second-opinion", action="store_true",
                   help=_("do not ask Tesseract to confirm uncertain reads"))
    p.add_argument("--set", action="store_true", dest="note_set",
                   help=_("the images are one player's notes for the skull game: also check the set "
                        "(default composition three even + one odd, no serial twice)"))
    p.add_argument("images", nargs="+", metavar=_("IMAGE"), help=_("image files (jpg, png, bmp…) or folders of them"))
    add_lang_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read every image; returns the exit status (0; 1 when an argument gave no image)."""
    from companion.vision.notes import NoteReader

    lang = getattr(args, "lang", "ru")
    reader = NoteReader(currency=args.currency, second_opinion=not args.no_second_opinion)
    out = sys.stdout
    serials: list[str] = []
    #: the decided reads by currency, in the images' order: ``{currency: [(image, serial)]}``
    currencies: dict[str, list[tuple[str, str]]] = {}
    unread: list[str] = []
    unusable = 0  # arguments that gave no image at all
    from companion.commands._images import UNREADABLE, error_line, expand, read_image

    for path, problem in expand(args.images):
        try:
            if problem:
                raise VisionError(problem)
            read = reader.read(read_image(path))
        except VisionError as exc:
            unread.append(path)
            unusable += 1
            if args.json:
                out.write(json.dumps({"image": path, "serial": None, "last_digit": None,
                                      "parity": None, "confidence": 0.0, "reason": str(exc),
                                      "error": UNREADABLE}, ensure_ascii=False) + "\n")
            else:
                print(error_line(path, exc, lang), file=sys.stderr)
            out.flush()
            continue
        if read.serial is not None:  # (read.decided)
            assert read.currency is not None  # a decided serial fits one currency's format
            serials.append(read.serial)
            currencies.setdefault(read.currency, []).append((path, read.serial))
        else:
            unread.append(path)
        if args.json:
            out.write(json.dumps(read.to_json(path), ensure_ascii=False) + "\n")
        else:
            out.write(read_words(path, read, args.currency, lang) + "\n")
        out.flush()
    if getattr(args, "note_set", False):
        # the set is checked against the notes' currency (the skull engine checks the serial shape):
        # the one given, else the one the notes read as; notes of several currencies make no set
        if len(currencies) > 1:
            _mixed_set(serials, currencies, unread, args.json, out, lang)
            return 1
        currency = args.currency if args.currency != "auto" else next(iter(currencies), "auto")
        _check_set(serials, unread, args.json, out, currency, lang)
    return 1 if unusable else 0


def read_words(path: str, read, currency: str = "auto", lang: str = "ru") -> str:
    """The text line for one image's :class:`~companion.vision.notes.NoteRead` in ``lang``: the
    serial, its last digit and parity, or "no decision" with the reason and what to do."""
    if read.decided:
        return render(M("%(path)s: %(serial)s (%(currency)s) last digit %(digit)s %(parity)s — confidence "
                        "%(confidence)s", path=path, serial=read.serial, currency=read.currency,
                        digit=read.last_digit, parity=MP("parity", read.parity),
                        confidence=decimal(read.confidence, 2)), lang)
    return render(M("%(path)s: no decision — %(why)s (confidence %(confidence)s)", path=path,
                    why=reason_words(read.reason, currency, lang),
                    confidence=decimal(read.confidence, 2)), lang)


#: A decided note's parity (``NoteRead.parity``) as the text line says it.
PARITIES = (NC_("parity", "even"), NC_("parity", "odd"))


def reason_words(reason: str, currency: str = "auto", lang: str = "ru") -> str:
    """The human words in ``lang`` for an abstaining read's ``reason`` code
    (:data:`companion.vision.notes.REASONS`, message ids): with a currency given (not ``auto``),
    ``no_serial`` adds that the note may be of another currency — a euro note scanned with
    ``--currency RUB`` shows no RUB serial. The JSON keeps the English words."""
    from companion.vision.notes import REASONS

    why = M(REASONS[reason]) if reason in REASONS else reason
    if reason == "no_serial" and currency != "auto":
        why = M("%(why)s; or the note is not in %(currency)s (try --currency auto)", why=why, currency=currency)
    return render(why, lang)


def _check_set(serials: list[str], unread: list[str], as_json: bool, out, currency: str = "auto",
               lang: str = "ru") -> None:
    """Print the skull set check (``companion.games.skull.validate_note_set``) of the serials
    read; a set with an unread note is reported incomplete instead of being judged. The JSON's
    messages are the engine's English ones; the text line is in ``lang``."""
    from companion.games.skull import validate_note_set

    if unread:
        problems = [_unread_problem(unread)]
    else:
        # a currency the skull options know (never "auto": no note was decided then, so unread)
        problems = validate_note_set(serials, {"currency": currency} if currency in CURRENCIES else {})
    if as_json:
        out.write(json.dumps({"set": serials, "ok": not problems,
                              "problems": [{"reason": r, "message": m} for r, m in problems]},
                             ensure_ascii=False) + "\n")
        return
    for line in set_words(serials, unread, problems, currency, lang):
        out.write(line + "\n")


def _unread_problem(unread: list[str]) -> tuple[str, str]:
    """The ``unread_note`` problem of the ``--set`` check (reason code, English message)."""
    return ("unread_note", f"{len(unread)} note(s) not read: rescan {', '.join(unread)}")


def _mixed_set(serials: list[str], currencies: dict[str, list[tuple[str, str]]], unread: list[str],
               as_json: bool, out, lang: str = "ru") -> None:
    """Print the ``--set`` check of notes read as different currencies (``--currency auto``): no
    judgement of the set (its serial shape, roses and skulls depend on the one currency of a
    table), but problem ``mixed_currency`` naming each currency with its images and serials, then
    ``unread_note`` when a note was not read. The JSON's problem carries the same as
    ``"currencies": {currency: [{"image", "serial"}]}``; its message is English."""
    problems: list[dict] = [{
        "reason": "mixed_currency",
        "message": "notes in different currencies (" + "; ".join(
            f"{c}: " + ", ".join(f"{image} ({serial})" for image, serial in notes)
            for c, notes in currencies.items()) + "): all of a player's notes are in one currency; give it with --currency",
        "currencies": {c: [{"image": image, "serial": serial} for image, serial in notes]
                       for c, notes in currencies.items()},
    }]
    if unread:
        reason, message = _unread_problem(unread)
        problems.append({"reason": reason, "message": message})
    if as_json:
        out.write(json.dumps({"set": serials, "ok": False, "problems": problems}, ensure_ascii=False) + "\n")
        return
    for line in mixed_set_words(currencies, unread, lang):
        out.write(line + "\n")


def mixed_set_words(currencies: dict[str, list[tuple[str, str]]], unread: Sequence[str] = (),
                    lang: str = "ru") -> list[str]:
    """The text lines of the ``--set`` check in ``lang`` when the notes read as different
    currencies (``{currency: [(image, serial)]}``, in the images' order): the set is not checked
    and why, naming the currencies, then one line per currency with its images and serials
    (``set: EUR — b.jpg (ZG3911878630)``), then the unread notes to rescan, if any."""
    lines = [render(M("set: not checked — the notes are in different currencies (%(currencies)s), but all of a "
                      "player's notes are in one currency: give it with --currency",
                      currencies=list(currencies)), lang)]
    for currency, notes in currencies.items():
        named = [M("%(image)s (%(serial)s)", image=image, serial=serial) for image, serial in notes]
        lines.append(render(M("set: %(currency)s — %(notes)s", currency=currency, notes=named), lang))
    if unread:
        lines.append(unread_words(unread, lang))
    return lines


def unread_words(unread: Sequence[str], lang: str = "ru") -> str:
    """The ``--set`` line in ``lang`` for notes that were not read: how many, and the images to
    rescan."""
    return render(M("set: %(unread)s — rescan %(images)s",
                    unread=MN("%(n)s note not read", "%(n)s notes not read", len(unread)),
                    images=", ".join(unread)), lang)


def set_words(serials: list[str], unread: list[str], problems: list[tuple[str, str]],
              currency: str = "auto", lang: str = "ru") -> list[str]:
    """The text lines of the ``--set`` check in ``lang``: ``set: ok (4 notes: 3 roses, 1 skull)``
    / ``набор: в порядке (4 купюры: 3 розы, 1 череп)``, or one line per problem: the registration
    refusal's sentence for the problem's code, worded for what the set is checked against (the notes'
    currency, the notes and skulls a set holds: :func:`companion.games.skull.note_set_words`), with
    the serials it concerns."""
    from companion.games.skull import SKULL, SkullOptions, note_role, note_set_words
    options = SkullOptions.from_dict({"currency": currency} if currency in CURRENCIES else {})
    if not problems:
        skulls = sum(1 for s in serials if note_role(s, options.skull_parity) == SKULL)
        roses, n = len(serials) - skulls, len(serials)
        return [render(M("set: ok (%(notes)s: %(roses)s, %(skulls)s)", notes=MN("%(n)s note", "%(n)s notes", n),
                         roses=MN("%(n)s rose", "%(n)s roses", roses),
                         skulls=MN("%(n)s skull", "%(n)s skulls", skulls)), lang)]
    lines = []
    for reason, message in problems:
        if reason == "unread_note":
            lines.append(unread_words(unread, lang))
            continue
        words = render(note_set_words(reason, options), lang).rstrip(".")
        words = words[:1].lower() + words[1:]
        # the serials the problem concerns, as the engine's message lists them
        named = [s for s in dict.fromkeys(serials) if s in message]
        if reason == "wrong_note_count":
            words = render(M("%(words)s (%(n)s read)", words=words, n=len(serials)), lang)
        elif reason == "wrong_skull_count":
            skulls = sum(1 for s in serials if note_role(s, options.skull_parity) == SKULL)
            words = render(M("%(words)s (%(skulls)s)", words=words,
                             skulls=MN("%(n)s skull", "%(n)s skulls", skulls)), lang)
        elif named:
            words = ", ".join(named) + " — " + words
        lines.append(render(M("set: %(problem)s", problem=words), lang))
    return lines
