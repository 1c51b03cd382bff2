"""``companion say`` — speak a line through the table's voice, to test the speaker.

    companion say [--lang ru|en] [--volume N] [--pace N] [--wav FILE] [TEXT...]

Speaks ``TEXT`` (the voice check «Проверка голоса…» when none is given) with espeak-ng on the
audio output, as the running table would (:mod:`companion.voice`: the ``--lang`` voice, Russian by
default); ``--wav FILE`` writes it to a WAV file instead (no sound card needed). A ``TEXT`` given
but empty (``companion say ""``) is refused as such, before the speaker is looked at. Exit status:
0 when it was said or written; 1 when it could not be (the line names what is missing — the
espeak-ng program, the aplay player, a sound card — and what to do); 2 for an unusable command line (an empty text, a value out of range).
"""

from __future__ import annotations

import argparse
import sys

from companion.commands._lang import add_lang_option
from companion.i18n import M, N_, aside, render
from companion.i18n.cli import _

#: The command's own lines (message ids; companion.i18n renders them in the console's language).
WORDS = {
    "said": N_("Said: “%(text)s”"),
    "wrote": N_("Written to %(path)s: “%(text)s”"),
    "cannot": N_("The voice does not work: %(why)s. Install espeak-ng and alsa-utils (make demo installs them) "
                 "and connect a speaker; or write a file: companion say --wav FILE"),
    "no_espeak": N_("The voice does not work: the speech program espeak-ng is not installed. Install it: "
                    "sudo apt install espeak-ng (make demo installs it)"),
    "no_aplay": N_("The voice does not work: the sound player aplay (package alsa-utils) is not installed. "
                   "Install it: sudo apt install alsa-utils; or write a sound file without it: companion say --wav FILE"),
    "no_card": N_("The voice does not work: this machine has no sound output (aplay -l lists no sound card). "
                  "Connect a speaker — a USB sound card, HDMI or the headphone jack — and check with aplay -l; "
                  "or write a sound file: companion say --wav FILE"),
    "failed": N_("Failed: %(why)s"),
    "no_folder": N_("Cannot write %(path)s: there is no folder %(folder)s"),
    "not_file": N_("Cannot write %(path)s: it is a folder, not a file name"),
    "not_written": N_("Cannot write the sound file %(path)s: %(why)s"),
    "empty": N_("The text to say is empty: give the words (companion say \"Череп!\"), or no text at all "
                "for the voice check."),
}


def _w(key: str, lang: str, **facts) -> str:
    return render(M(WORDS[key], **facts), lang)


def register(subparsers) -> None:
    """Add the ``say`` sub-parser."""
    p = subparsers.add_parser("say", help=_("speak a line in the table's voice to test the speaker"),
                              description=_("Speak the text in the table's voice, as its announcements are "
                                            "spoken, or write it to a sound file."))
    p.add_argument("text", nargs="*", metavar=_("TEXT"), help=_("what to say (default: the voice check)"))
    p.add_argument("--wav", metavar=_("FILE"), help=_("write a sound file (WAV) instead of playing it"))
    p.add_argument("--volume", type=int, default=100,
                   help=_("loudness 0-200 (default 100)"))  # voice.VOLUME_RANGE
    p.add_argument("--pace", type=int, default=160,
                   help=_("words per minute 80-400 (default 160)"))  # voice.PACE_RANGE
    add_lang_option(p)
    p.set_defaults(func=run)


def _missing() -> str | None:
    """What this machine lacks to speak, as a :data:`WORDS` key: ``no_espeak``, ``no_aplay``,
    ``no_card`` (``aplay -l`` lists no sound card), or ``None`` when nothing plain is missing."""
    import shutil
    import subprocess

    if shutil.which("espeak-ng") is None:
        return "no_espeak"
    if shutil.which("aplay") is None:
        return "no_aplay"
    try:
        listed = subprocess.run(["aplay", "-l"], capture_output=True, text=True, timeout=5).stdout or ""
    except (OSError, subprocess.SubprocessError):
        return None
    return None if "card " in listed else "no_card"


def run(args: argparse.Namespace) -> int:
    """Say or write the line; returns the exit status."""
    from companion import voice as V

    lang = getattr(args, "lang", "ru")
    try:
        V.VoiceSettings(lang=lang, volume=args.volume, pace=args.pace).check()
    except V.VoiceError as exc:
        print(_w("failed", lang, why=exc.message or str(exc)), file=sys.stderr)
        return 2
    text = " ".join(args.text).strip()
    if args.text and not text:  # `companion say ""`: a text was meant, and there is none
        print(_w("empty", lang), file=sys.stderr)
        return 2
    text = text or V.phrase("test", lang)
    try:
        if args.wav:
            from pathlib import Path

            target = Path(args.wav)
            if target.is_dir():
                print(_w("not_file", lang, path=args.wav), file=sys.stderr)
                return 1
            folder = target.parent if str(target.parent) else Path(".")
            if not folder.is_dir():
                print(_w("no_folder", lang, path=args.wav, folder=str(folder)), file=sys.stderr)
                return 1
            try:
                V.write_wav(text, args.wav, lang, args.volume, args.pace)
            except RuntimeError as exc:  # espeak-ng's own words are English: said as the cause in English only
                print(_w("not_written", lang, path=args.wav,
                         why=aside(str(exc), M("espeak-ng could not write it there"))),
                      file=sys.stderr)
                return 1
            print(_w("wrote", lang, path=args.wav, text=text))
            return 0
        ok, why = V.probe()
        if not ok:
            missing = _missing()
            print(_w(missing, lang) if missing else _w("cannot", lang, why=why), file=sys.stderr)
            return 1
        V.speak(text, lang, args.volume, args.pace)
    except FileNotFoundError:
        print(_w(_missing() or "no_espeak", lang), file=sys.stderr)
        return 1
    except (OSError, RuntimeError) as exc:  # the program's own words are English: the cause in English only
        print(_w("failed", lang, why=aside(str(exc), M("espeak-ng or aplay did not work"))),
              file=sys.stderr)
        return 1
    print(_w("said", lang, text=text))
    return 0
