"""``companion scan-card`` — read every card in one or more photos.

Text output, in the console's language (``--lang``: Russian by default, like ``companion run``;
``en`` for English — :mod:`companion.commands._lang`): one line per image, the card codes left to
right (rank and suit sign, as the dashboard writes them: Т К Д В in Russian, A K Q J in English)
with an abstained card as ``?``. English: ``IMAGE: Q♥ 10♠ ?(weak_index)`` (the reason code in
brackets); Russian: ``IMAGE: 3 карты: Д♥ 10♠ ? — карта 3 не распознана: <why, in words>; пересканируйте``
(:data:`companion.vision.cards.REASONS`). ``--json`` (the same whatever ``--lang`` says): one
JSON object per image per line, ``{"image", "cards": [{"card" (the code, ``QH``), "box":
[x, y, w, h], "confidence"}], "reason"}``, cards left to right; ``box`` is the card's bounding box
in px (left, top, width, height) of the image as decoded, EXIF orientation applied. An abstained card has ``"card": null`` and its own ``"reason"``; a missing or corrupt file
gives ``"cards": []``, ``"error": "unreadable_file"`` and a ``"reason"`` (``no such file``, ``not a readable
image …``; text: ``IMAGE: ошибка: ПРИЧИНА`` / ``IMAGE: error: REASON`` on stderr, as scan-note), and the other images are
still read. A folder stands for the images in it (:mod:`companion.commands._images`). Exit status:
0 when every image was read; 1 when an argument could not be used at all (a missing or unreadable
file, a folder without images: reported on its line, the other images still read); 2 when the
command line was unusable (unknown deck, bad option — argparse) — the same rule as
``companion scan-note``.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.commands._lang import add_lang_option
from companion.errors import VisionError
from companion.i18n import M, MP, N_, NC_, render
from companion.i18n.cli import _


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "scan-card", help=_("read the cards in photos (standard or learned deck)"),
        description=_("Find and read every card in each IMAGE. Abstains (card null, with a reason) "
                    "rather than guess."))
    p.add_argument("images", nargs="+", metavar=_("IMAGE"),
                   help=_("photo files (JPEG, PNG, …) or folders of photos"))
    p.add_argument("--deck", default="standard",
                   help=_("standard, standard36, standard32, or a learned deck profile name/folder "
                        "(see companion deck list); default standard"))
    p.add_argument("--alphabet", default="auto", choices=["en", "ru", "de", "auto"],
                   help=_("corner-index alphabet of a standard deck: en (A K Q J), ru (Т К Д В), "
                        "de (A K D B) or auto (any of them); default auto (an unknown deck "
                        "reads right or abstains; see docs/vision-cards.md)"))
    p.add_argument("--ocr", action="store_true",
                   help=_("let RapidOCR re-read weak rank glyphs (slower, still images only)"))
    p.add_argument("--layout", action="store_true",
                   help=_("read the Hoggenheimer 4×8 layout instead (slots, 33rd card, misplaced cards)"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per image per line"))
    add_lang_option(p)
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
    """Read every image; returns the exit status (0; 1 when an argument gave no image; 2 for an
    unknown deck)."""
    lang = getattr(args, "lang", "ru")
    try:
        reader = make_reader(args.deck, args.alphabet, args.ocr)
    except (VisionError, ValueError) as e:
        words = getattr(e, "words", None)
        print(f"companion scan-card: {words(lang) if callable(words) else e}", file=sys.stderr)
        return 2
    from companion.commands._images import UNREADABLE, error_line, expand, read_image

    unusable = 0  # arguments that gave no image at all
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
                text = _layout_text(lay, lang)
            else:
                reads = reader.read(img)
                out["cards"] = [r.to_json() for r in reads]
                if not reads:
                    out["reason"] = "no_card_found"
                text = cards_words(reads, lang)
        except VisionError as e:
            out["reason"] = str(e)
            out["error"] = UNREADABLE
            unusable += 1
            if not args.json:  # errors on stderr, as scan-note prints them
                print(error_line(name, e, lang), file=sys.stderr, flush=True)
                continue
        if args.json:
            print(json.dumps(out, ensure_ascii=False), flush=True)
        else:
            print(f"{name}: {text}", flush=True)
    return 1 if unusable else 0


def card_reason_words(reason: str | None, lang: str = "ru") -> str:
    """An abstained card's reason code in ``lang``: Russian words
    (:data:`companion.vision.cards.REASONS`), or the code itself in English (the codes are
    explained in ``docs/vision-cards.md``)."""
    from companion.vision.cards import reason_message

    return render(reason_message(reason or "unreadable"), lang)


def cards_words(reads, lang: str = "ru") -> str:
    """One image's cards (``CardRead`` list, left to right) as its text line after ``IMAGE: ``,
    each card as the dashboard writes it (:func:`companion.games.cardnames.card_words`: rank letter
    of the language's decks and suit sign).

    English: ``Q♥ 10♠ ?(weak_index)``; Russian: ``3 карты: Д♥ 10♠ ? — карта 3 не распознана: <why>;
    пересканируйте`` (each abstained card by its place from the left; no rescan for a card lying
    face down), ``(карт не найдено)`` / ``(no card found)`` for none. ``--json`` keeps the codes."""
    if not reads:
        return render(M("(no card found)"), lang)
    from companion.games.cardnames import card_words

    if lang != "ru":  # the English line keeps each reason code in place (scripts read it)
        return " ".join(card_words(r.card, lang) if r.card else f"?({r.reason})" for r in reads)
    from companion.games.words import cards_count

    codes = render(cards_count(len(reads)), lang) + ": " + " ".join(card_words(r.card, lang) if r.card else "?"
                                                                     for r in reads)
    unsure = [(i, r.reason or "unreadable") for i, r in enumerate(reads, 1) if not r.card]
    if not unsure:
        return codes
    # a card lying face down is not misread: it is turned, not rescanned
    rescan = any(reason != "face_down" for _, reason in unsure)
    said = [M("card %(i)s not read: %(why)s", i=i, why=card_reason_words(reason, lang)) for i, reason in unsure]
    told = M("%(cards)s — %(unsure)s", cards=codes, unsure="; ".join(render(m, lang) for m in said))
    return render(M("%(line)s; rescan", line=told) if rescan else told, lang)


#: Words of the Hoggenheimer layout's text (``--layout``): a slot's state, the 33rd card's (message
#: ids in the context ``layout``; English is the word itself).
LAYOUT_WORDS = {w: MP("layout", w) for w in (
    NC_("layout", "33rd card"), NC_("layout", "misplaced"), NC_("layout", "on"), NC_("layout", "face_down"),
    NC_("layout", "face_up"), NC_("layout", "missing"), NC_("layout", "unknown"))}

#: The layout reader's reasons (``LayoutRead.reason``, the JSON's words) as message ids.
LAYOUT_REASONS = (N_("layout_not_found: no 4×8 lattice"), N_("layout_not_found: cards are not on a lattice"))


def layout_reason_words(reason: str, lang: str = "ru") -> str:
    """The layout reader's ``reason`` (``layout_not_found: …``) in ``lang``."""
    import re

    m = re.match(r"^layout_not_found: (\d+) whole cards seen$", reason)
    if m:
        return render(M("layout_not_found: %(n)s whole cards seen", n=m.group(1)), lang)
    return render(M(reason), lang) if reason in LAYOUT_REASONS else reason


def _layout_text(lay, lang: str = "ru") -> str:
    """The 4×8 grid and its 33rd card, each card as :func:`cards_words` writes it."""
    from companion.games.cardnames import card_words

    if lay.reason:
        return layout_reason_words(lay.reason, lang)
    rows = []
    for r in range(4):
        cells = []
        for c in range(8):
            s = lay.slot(r, c)
            cells.append({"face_down": "##", "empty": "..", "unknown": "??"}.get(
                s.state, card_words(s.card, lang) if s.card else "??") + ("!" if s.misplaced else ""))
        rows.append(" ".join(f"{x:>4}" for x in cells))
    word = {k: render(m, lang) for k, m in LAYOUT_WORDS.items()}
    extra = card_words(lay.extra_card, lang) if lay.extra_card else word.get(lay.extra_state, lay.extra_state)
    mis = ", ".join(f"{card_words(s.card, lang)} {word['on']} {card_words(s.expected, lang)}" for s in lay.misplaced)
    third, misplaced = word["33rd card"], word["misplaced"]
    return "\n" + "\n".join(rows) + f"\n{third}: {extra}" + (f"\n{misplaced}: {mis}" if mis else "")
