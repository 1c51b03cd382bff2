"""``companion say`` — speak a line through the table's voice, to test the speaker.

    companion say [--lang ru|en] [--volume N] [--pace N] [--wav FILE] [TEXT...]

Speaks ``TEXT`` (the voice check «Проверка голоса…» when none is given) with espeak-ng on the
audio output, as the running table would (:mod:`companion.voice`: the ``--lang`` voice, Russian by
default); ``--wav FILE`` writes it to a WAV file instead (no sound card needed). Exit status: 0
when it was said or written; 1 when it could not be (no espeak-ng, no sound card: the line says
why and how to fix it); 2 for an unusable command line.
"""

from __future__ import annotations

import argparse
import sys

from companion.commands._lang import add_lang_option

#: The command's own lines: ``{key: (Russian, English)}``.
WORDS = {
    "said": ("Сказано: «{text}»", "Said: “{text}”"),
    "wrote": ("Записано в {path}: «{text}»", "Written to {path}: “{text}”"),
    "cannot": ("Голос не работает: {why}. Установите espeak-ng и alsa-utils (make demo ставит их) "
               "и подключите динамик; или запишите в файл: companion say --wav FILE",
               "The voice does not work: {why}. Install espeak-ng and alsa-utils (make demo installs them) "
               "and connect a speaker; or write a file: companion say --wav FILE"),
    "failed": ("Не удалось: {why}", "Failed: {why}"),
}


def _w(key: str, lang: str, **facts) -> str:
    ru, en = WORDS[key]
    return (ru if lang == "ru" else en).format(**facts)


def register(subparsers) -> None:
    """Add the ``say`` sub-parser."""
    from companion.voice import PACE_RANGE, VOLUME_RANGE

    p = subparsers.add_parser("say", help="speak a line through the table's voice (espeak-ng) to test the speaker",
                              description="Speak TEXT through the table's voice, as announcements are "
                                          "spoken, or write it to a WAV file.")
    p.add_argument("text", nargs="*", metavar="TEXT", help="what to say (default: the voice check)")
    p.add_argument("--wav", metavar="FILE", help="write a WAV file instead of playing it")
    p.add_argument("--volume", type=int, default=100, help=f"loudness {VOLUME_RANGE[0]}-{VOLUME_RANGE[1]} (default 100)")
    p.add_argument("--pace", type=int, default=160, help=f"words per minute {PACE_RANGE[0]}-{PACE_RANGE[1]} (default 160)")
    add_lang_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Say or write the line; returns the exit status."""
    from companion import voice as V

    lang = getattr(args, "lang", "ru")
    try:
        V.VoiceSettings(lang=lang, volume=args.volume, pace=args.pace).check()
    except V.VoiceError as exc:
        print(_w("failed", lang, why=exc.ru if lang == "ru" else str(exc)), file=sys.stderr)
        return 2
    text = " ".join(args.text).strip() or V.phrase("test", lang)
    try:
        if args.wav:
            V.write_wav(text, args.wav, lang, args.volume, args.pace)
            print(_w("wrote", lang, path=args.wav, text=text))
            return 0
        ok, en, ru = V.probe()
        if not ok:
            print(_w("cannot", lang, why=ru if lang == "ru" else en), file=sys.stderr)
            return 1
        V.speak(text, lang, args.volume, args.pace)
    except FileNotFoundError:
        why = "не установлен espeak-ng" if lang == "ru" else "espeak-ng is not installed"
        print(_w("cannot", lang, why=why), file=sys.stderr)
        return 1
    except (OSError, RuntimeError) as exc:
        print(_w("failed", lang, why=str(exc)), file=sys.stderr)
        return 1
    print(_w("said", lang, text=text))
    return 0
