"""``companion deck learn|list|show`` — deck profiles (see :mod:`companion.vision.decks`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.errors import VisionError
from companion.commands._lang import add_lang_option
from companion.games.words import cards_count
from companion.i18n import M, MN, MPN, N_, render
from companion.i18n import cli as words
from companion.i18n.cli import _


def register(subparsers) -> None:
    p = subparsers.add_parser("deck", help=_("learn, list and show deck profiles"),
                              description=_("Deck profiles: learned from one photo per face; "
                                          "folders you can copy between tables."))
    p.add_argument("--root", type=Path, default=None,
                   help=_("profiles folder (default $COMPANION_DECKS, else $COMPANION_DATA/decks, else ~/.local/share/companion/decks)"))
    sub = p.add_subparsers(dest="deck_command", metavar=_("ACTION"))
    learn = sub.add_parser("learn", help=_("build a profile from a folder of photos, one per face"))
    learn.add_argument("name", metavar=_("NAME"), help=_("profile name: 1-64 letters, digits, _ . - (checked first; a bad "
                                    "name exits 2 before any photo is read)"))
    learn.add_argument("directory", metavar=_("FOLDER"), type=Path, help=_("folder of photos; label = file name without "
                                                    "extension, unless --labels is given"))
    learn.add_argument("--kind", choices=["picture", "numbered", "standard"], default="picture",
                       help=_("picture kinds with names (Верю — не верю), numbered values (6100 game), "
                            "or a physical standard deck (labels are codes like QH); default picture"))
    learn.add_argument("--labels", type=Path, default=None,
                       help=_("labels file: 'filename, label[, name[, count]]' per line (tab or comma)"))
    learn.add_argument("--alphabet", default="auto", choices=["en", "ru", "de", "auto"],
                       help=_("corner-index alphabet (standard decks)"))
    learn.add_argument("--deck-size", type=words.integer, default=52, choices=[52, 36, 32])
    learn.add_argument("--force", action="store_true", help=_("replace an existing profile"))
    listing = sub.add_parser("list", help=_("list the profiles"))
    show = sub.add_parser("show", help=_("show one profile's faces"))
    show.add_argument("name", metavar=_("NAME"))
    show.add_argument("--json", action="store_true")
    for each in (learn, listing, show):
        add_lang_option(each)
    p.set_defaults(func=run, _parser=p)


#: the deck kinds in words (``--kind``)
KINDS = {"picture": N_("pictures"), "numbered": N_("numbered"), "standard": N_("standard deck")}


def _kind(kind: str):
    return M(KINDS[kind]) if kind in KINDS else kind


def run(args: argparse.Namespace) -> int:
    from companion.vision import decks

    lang = getattr(args, "lang", None) or words.current()

    def say(msg, file=None) -> None:
        print(render(msg, lang), file=file)

    def refuse(why) -> None:
        """An error line, after the subcommand's own name (``companion deck learn: …``), as every
        command's errors are told."""
        command = " ".join(["companion deck", *([args.deck_command] if args.deck_command else [])])
        print(f"{command}: {render(why, lang)}", file=sys.stderr)

    try:
        if args.deck_command == "learn":
            try:
                decks.check_name(args.name)  # before any photo is read: an unusable argument
            except ValueError as e:
                refuse(_error(e, lang))
                return 2
            photos, skipped = survey(args.directory) if args.labels is None else ([], [])
            refusal = None if args.labels is not None else not_a_deck(args.directory, photos, skipped, args.kind,
                                                                         args.deck_size)
            if refusal is not None:
                refuse(refusal)
                return 1
            prof, folder = decks.learn(args.name, args.directory, args.kind, args.labels,
                                       args.alphabet, args.deck_size, args.root, args.force)
            say(MN("learned deck %(name)r (%(kind)s, %(n)s face) → %(folder)s",
                   "learned deck %(name)r (%(kind)s, %(n)s faces) → %(folder)s", len(prof.faces),
                   name=prof.name, kind=_kind(prof.kind), folder=str(folder)))
            merged = prof.meta.get("merged_photos") or {}
            if merged:  # one face photographed several times is one face (companion.vision.deck_repeats)
                say(MN("note: %(n)s face was photographed several times and is learned as one face (%(photos)s "
                       "photos, %(faces)s faces in all): %(list)s",
                       "note: %(n)s faces were photographed several times, each learned as one face (%(photos)s "
                       "photos, %(faces)s faces in all): %(list)s", len(merged), photos=len(prof.feature_labels) // 2,
                       faces=len(prof.faces), list=", ".join(f"{face} ×{len(labs)}" for face, labs in merged.items())),
                    sys.stderr)
            if skipped:
                say(skipped_words(skipped), sys.stderr)
            if args.kind == "standard" and len(photos) > args.deck_size:
                say(M("note: %(found)s photos for a %(size)s-card deck — the extra ones (a back, jokers) are "
                      "faces of their own", found=len(photos), size=args.deck_size), sys.stderr)
            return 0
        if args.deck_command == "list":
            names = decks.list_profiles(args.root)
            for n in names:
                try:
                    prof = decks.DeckProfile.load(n, args.root)
                    say(MN("%(name)s\t%(kind)s\t%(n)s face", "%(name)s\t%(kind)s\t%(n)s faces", len(prof.faces),
                           name=n, kind=_kind(prof.kind)))
                except VisionError as e:
                    say(M("%(name)s\tunreadable: %(why)s", name=n, why=_error(e, lang)))
            if not names:
                say(M("no deck profiles in %(folder)s", folder=str(args.root or decks.decks_root())))
            return 0
        if args.deck_command == "show":
            prof = decks.DeckProfile.load(args.name, args.root)
            if args.json:
                print(json.dumps({"name": prof.name, "kind": prof.kind, "alphabet": prof.alphabet,
                                  "deck_size": prof.deck_size,
                                  "faces": [f.__dict__ for f in prof.faces]}, ensure_ascii=False))
            else:
                say(M("%(name)s: %(kind)s, %(faces)s, %(cards)s", name=prof.name, kind=_kind(prof.kind),
                      faces=MN("%(n)s face", "%(n)s faces", len(prof.faces)),
                      cards=cards_count(sum(f.count for f in prof.faces))))
                for f in prof.faces:
                    print(f"  {f.label}\t{f.name or f.label}\t×{f.count}")
            return 0
        args._parser.print_help()
        return 2
    except (VisionError, ValueError, FileExistsError) as e:
        refuse(_error(e, lang))
        return 1


#: the fewest faces a learned deck may have (one photo is a stray image, not a deck)
MIN_FACES = 2


def survey(directory: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """The photos ``deck learn`` would read in ``directory`` (file names) and what it would skip:
    ``(name, why)`` with ``why`` ``"folder"``, ``"hidden"`` or ``"not_photo"`` (another
    extension). Empty when ``directory`` is not a folder (:func:`decks.learn` says so)."""
    from companion.vision.images import IMAGE_SUFFIXES

    directory = Path(directory)
    if not directory.is_dir():
        return [], []
    photos, skipped = [], []
    for p in sorted(directory.iterdir(), key=lambda p: p.name):
        if p.is_dir():
            skipped.append((p.name, "folder"))
        elif p.suffix.lower() in IMAGE_SUFFIXES:
            photos.append(p.name)
        else:
            skipped.append((p.name, "hidden" if p.name.startswith(".") else "not_photo"))
    return photos, skipped


def _skip_count(why: str, n: int):
    """``n`` skipped entries of one kind, in words."""
    if why == "folder":
        return MN("%(n)s folder", "%(n)s folders", n)
    if why == "hidden":
        return MN("%(n)s hidden file", "%(n)s hidden files", n)
    return MN("%(n)s file that is not a photo", "%(n)s files that are not photos", n)


def skipped_words(skipped: list[tuple[str, str]], shown: int = 5):
    """``skipped`` (:func:`survey`) in words: how many of each kind and the first few names."""
    from companion.vision.images import IMAGE_SUFFIXES

    kinds = []
    for why in ("not_photo", "hidden", "folder"):
        names = [n for n, w in skipped if w == why]
        if names:
            kinds.append(M("%(what)s (%(names)s%(more)s)", what=_skip_count(why, len(names)),
                           names=", ".join(names[:shown]), more="…" if len(names) > shown else ""))
    return M("skipped: %(kinds)s; only %(exts)s photos are read", kinds=kinds,
             exts=", ".join(e.lstrip(".") for e in IMAGE_SUFFIXES))


def not_a_deck(directory: Path, photos: list[str], skipped, kind: str, deck_size: int):
    """Why the photos in ``directory`` do not look like a deck of ``kind`` (a message), or
    ``None``: a standard deck needs a photo of each of its ``deck_size`` faces, another kind at
    least :data:`MIN_FACES`. No photo at all is :func:`decks.learn`'s own refusal."""
    if not photos:
        return None
    need = deck_size if kind == "standard" else MIN_FACES
    if len(photos) >= need:
        return None
    found = MPN("deck photos found", "%(n)s face photo", "%(n)s face photos", len(photos))
    if kind == "standard":
        why = M("%(folder)s does not look like a deck: %(found)s found, a %(size)s-card deck needs "
                "%(size)s (one photo per face)", folder=str(directory), found=found, size=deck_size)
    else:
        why = M("%(folder)s does not look like a deck: %(found)s found, a deck needs at least %(need)s "
                "(one photo per face)", folder=str(directory), found=found, need=need)
    if skipped:
        return M("%(why)s; %(skipped)s", why=why, skipped=skipped_words(skipped))
    return why


def _error(exc: Exception, lang: str) -> str:
    """An error's words in ``lang``: its own when it has them (:meth:`CompanionError.words`)."""
    words_of = getattr(exc, "words", None)
    return words_of(lang) if callable(words_of) else str(exc)
