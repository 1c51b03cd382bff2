"""``companion deck learn|list|show`` — deck profiles (see :mod:`companion.vision.decks`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.errors import VisionError


def register(subparsers) -> None:
    p = subparsers.add_parser("deck", help="learn, list and show deck profiles",
                              description="Deck profiles: learned from one photo per face; "
                                          "folders you can copy between tables.")
    p.add_argument("--root", type=Path, default=None,
                   help="profiles folder (default $COMPANION_DECKS, else $COMPANION_DATA/decks, else ~/.local/share/companion/decks)")
    sub = p.add_subparsers(dest="deck_command", metavar="ACTION")
    learn = sub.add_parser("learn", help="build a profile from a folder of photos, one per face")
    learn.add_argument("name", help="profile name: 1-64 letters, digits, _ . - (checked first; a bad "
                                    "name exits 2 before any photo is read)")
    learn.add_argument("directory", type=Path, help="folder of photos; label = file name without "
                                                    "extension, unless --labels is given")
    learn.add_argument("--kind", choices=["picture", "numbered", "standard"], default="picture",
                       help="picture kinds with names (Верю — не верю), numbered values (6100 game), "
                            "or a physical standard deck (labels are codes like QH); default picture")
    learn.add_argument("--labels", type=Path, default=None,
                       help="labels file: 'filename, label[, name[, count]]' per line (tab or comma)")
    learn.add_argument("--alphabet", default="auto", choices=["en", "ru", "de", "auto"],
                       help="corner-index alphabet (standard decks)")
    learn.add_argument("--deck-size", type=int, default=52, choices=[52, 36, 32])
    learn.add_argument("--force", action="store_true", help="replace an existing profile")
    sub.add_parser("list", help="list the profiles")
    show = sub.add_parser("show", help="show one profile's faces")
    show.add_argument("name")
    show.add_argument("--json", action="store_true")
    p.set_defaults(func=run, _parser=p)


def run(args: argparse.Namespace) -> int:
    from companion.vision import decks
    try:
        if args.deck_command == "learn":
            try:
                decks.check_name(args.name)  # before any photo is read: an unusable argument
            except ValueError as e:
                print(f"companion deck learn: {e}", file=sys.stderr)
                return 2
            prof, folder = decks.learn(args.name, args.directory, args.kind, args.labels,
                                       args.alphabet, args.deck_size, args.root, args.force)
            print(f"learned deck {prof.name!r} ({prof.kind}, {len(prof.faces)} faces) → {folder}")
            return 0
        if args.deck_command == "list":
            names = decks.list_profiles(args.root)
            for n in names:
                try:
                    prof = decks.DeckProfile.load(n, args.root)
                    print(f"{n}\t{prof.kind}\t{len(prof.faces)} faces")
                except VisionError as e:
                    print(f"{n}\tunreadable: {e}")
            if not names:
                print(f"no deck profiles in {args.root or decks.decks_root()}")
            return 0
        if args.deck_command == "show":
            prof = decks.DeckProfile.load(args.name, args.root)
            if args.json:
                print(json.dumps({"name": prof.name, "kind": prof.kind, "alphabet": prof.alphabet,
                                  "deck_size": prof.deck_size,
                                  "faces": [f.__dict__ for f in prof.faces]}, ensure_ascii=False))
            else:
                print(f"{prof.name}: {prof.kind} deck, {len(prof.faces)} faces, "
                      f"{sum(f.count for f in prof.faces)} cards")
                for f in prof.faces:
                    print(f"  {f.label}\t{f.name or f.label}\t×{f.count}")
            return 0
        args._parser.print_help()
        return 2
    except (VisionError, ValueError, FileExistsError) as e:
        print(f"companion deck: {e}", file=sys.stderr)
        return 1
