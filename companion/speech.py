"""Speaking through espeak-ng (the table's voice, :mod:`companion.voice`; ``companion say``).

``espeak-ng -v <lang> -a <volume> -s <pace> --stdout`` (the text on its stdin, never on its command
line) piped to ``aplay -q``; :func:`write_wav` writes a WAV instead; :func:`probe` says whether
this machine can speak at all and why not. Rationale: docs/voice.md.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from companion.i18n import M, Message

SPEAK_TIMEOUT_S = 30.0
"""The longest one sentence may take to be said (or written)."""


def probe() -> tuple[bool, Message | None]:
    """Can this machine speak? ``(ok, why not)``: espeak-ng and aplay on PATH and at least one
    sound card (``aplay -l``); ``why`` is a message, ``None`` when it can."""
    if shutil.which("espeak-ng") is None:
        return False, M("voice unavailable: espeak-ng is not installed")
    if shutil.which("aplay") is None:
        return False, M("voice unavailable: aplay (alsa-utils) is not installed")
    try:
        out = subprocess.run(["aplay", "-l"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError) as exc:
        return False, M("voice unavailable: aplay -l failed (%(error)s)", error=str(exc))
    if "card " not in (out.stdout or ""):
        return False, M("voice unavailable: no sound card (aplay -l lists none)")
    return True, None


def espeak_args(lang: str, volume: int, pace: int) -> list[str]:
    """The espeak-ng command line (the text goes to its stdin): the voice is the language."""
    return ["espeak-ng", "-v", "en" if lang == "en" else "ru", "-a", str(int(volume)), "-s", str(int(pace)), "--stdin"]


def speak(text: str, lang: str = "ru", volume: int = 100, pace: int = 160) -> None:
    """Say ``text`` on the audio output now (blocks until said).

    Raises:
        OSError: espeak-ng or aplay cannot be started. RuntimeError: either failed (its message).
    """
    synth = subprocess.Popen(espeak_args(lang, volume, pace) + ["--stdout"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert synth.stdin is not None and synth.stdout is not None and synth.stderr is not None  # PIPEs
    try:
        play = subprocess.Popen(["aplay", "-q"], stdin=synth.stdout, stderr=subprocess.PIPE)
    except OSError:
        synth.kill()
        synth.wait()
        raise
    synth.stdout.close()  # aplay holds it now
    synth.stdin.write(text.encode("utf-8"))
    synth.stdin.close()
    try:
        play_err = play.communicate(timeout=SPEAK_TIMEOUT_S)[1]
        synth_err = synth.stderr.read()
        synth.wait(timeout=5)
    except subprocess.TimeoutExpired:
        play.kill()
        synth.kill()
        raise RuntimeError("speech took too long") from None
    finally:
        synth.stderr.close()
    if synth.returncode or play.returncode:
        why = (synth_err or play_err or b"").decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(why[0] if why else f"espeak-ng {synth.returncode}, aplay {play.returncode}")


def write_wav(text: str, path, lang: str = "ru", volume: int = 100, pace: int = 160) -> Path:
    """Write ``text`` spoken to the WAV file ``path`` (``companion say --wav``). Returns the path.

    Raises:
        OSError: espeak-ng cannot be started. RuntimeError: it failed or wrote nothing.
    """
    path = Path(path)
    run = subprocess.run(espeak_args(lang, volume, pace) + ["-w", str(path)], input=text.encode("utf-8"),
                         capture_output=True, timeout=SPEAK_TIMEOUT_S)
    if run.returncode or not path.is_file() or path.stat().st_size <= 44:
        why = run.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError(why[0] if why else f"espeak-ng wrote no sound to {path}")
    return path
