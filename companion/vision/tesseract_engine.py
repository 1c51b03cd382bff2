"""Tesseract 5 on stacked lines: all the lines of one photo read as one image (a "sheet",
``--psm 6``), in-process through tesserocr when it is installed and finds the language files
(models loaded once: ≈ 20 ms a sheet here), else by the ``tesseract`` binary through pytesseract,
one process per call (≈ 135 ms a sheet here, most of it loading the language model)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision.ocr import LineRead


#: How :class:`TesseractEngine` runs Tesseract: ``api`` (in-process, tesserocr) or ``process``
#: (the ``tesseract`` binary through pytesseract). ``COMPANION_TESSERACT`` chooses one; unset,
#: ``api`` when tesserocr imports and finds the languages, else ``process``.
TESSERACT_BACKENDS = ("api", "process")

_TESSDATA: list = []  # cache of tessdata_dir(): [path or None]


def tessdata_dir() -> str | None:
    """The folder of Tesseract's ``*.traineddata`` language files, or ``None``.

    ``$TESSDATA_PREFIX`` when set (the folder itself or its ``tessdata`` subfolder), else the
    folder the ``tesseract`` binary names in ``tesseract --list-langs`` (Debian and Raspberry Pi
    OS: ``/usr/share/tesseract-ocr/5/tessdata``), else the first of the usual install folders
    that holds ``eng.traineddata``. Cached for the process.
    """
    if _TESSDATA:
        return _TESSDATA[0]
    found = None
    env = os.environ.get("TESSDATA_PREFIX")
    cands = [Path(env), Path(env) / "tessdata"] if env else []
    try:
        import re
        import shutil
        import subprocess

        exe = shutil.which("tesseract")
        if exe:
            out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=20)
            m = re.search(r'"([^"]+)"', out.stdout + out.stderr)
            if m:
                cands.append(Path(m.group(1)))
    except (OSError, ValueError, subprocess.SubprocessError):
        pass
    for pattern in ("/usr/share/tesseract-ocr/*/tessdata", "/usr/share/tessdata",
                    "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata"):
        cands += sorted(Path("/").glob(pattern.lstrip("/")), reverse=True)
    for c in cands:
        if c.is_dir() and any(c.glob("*.traineddata")):
            found = str(c).rstrip("/") + "/"
            break
    _TESSDATA.append(found)
    return found


class _TessAPI:
    """One in-process Tesseract (tesserocr ``PyTessBaseAPI``) for a language and whitelist,
    shared by every :class:`TesseractEngine` with the same settings and used under a lock (the
    API object is not thread-safe). Page segmentation: a single block (``--psm 6``)."""

    _all: dict = {}
    _all_lock = threading.Lock()

    def __init__(self, tesserocr, path: str, lang: str, whitelist: str) -> None:
        self._t = tesserocr
        self.api = tesserocr.PyTessBaseAPI(path=path, lang=lang, psm=tesserocr.PSM.SINGLE_BLOCK)
        self.api.SetVariable("tessedit_char_whitelist", whitelist)
        self.lock = threading.Lock()

    @classmethod
    def get(cls, lang: str, whitelist: str) -> "_TessAPI":
        """The shared API object for ``lang`` and ``whitelist``.

        Raises:
            ImportError: tesserocr is not installed.
            RuntimeError: the language files are not found or do not load.
        """
        import tesserocr

        path = tessdata_dir()
        if path is None:
            raise RuntimeError("no tessdata folder found")
        key = (path, lang, whitelist)
        with cls._all_lock:
            if key not in cls._all:
                cls._all[key] = cls(tesserocr, path, lang, whitelist)
            return cls._all[key]

    def words(self, sheet: np.ndarray) -> list[tuple[int, int, int, str, float]]:
        """The words of ``sheet`` (H×W grey uint8): ``(left, top, height, text, conf 0..100)``."""
        t = self._t
        sheet = np.ascontiguousarray(sheet, dtype=np.uint8)
        h, w = sheet.shape[:2]
        out = []
        with self.lock:
            self.api.SetImageBytes(sheet.tobytes(), w, h, 1, w)
            self.api.Recognize()
            it = self.api.GetIterator()
            level = t.RIL.WORD
            while it is not None:
                try:
                    text = it.GetUTF8Text(level)
                except RuntimeError:  # an empty word box
                    text = ""
                box = it.BoundingBox(level)
                if text and box:
                    x0, y0, _x1, y1 = box
                    out.append((x0, y0, y1 - y0, text, float(it.Confidence(level))))
                if not it.Next(level):
                    break
            self.api.Clear()
        return out


class TesseractEngine:
    """Tesseract 5 on stacked lines, in-process (tesserocr) or one process per call (pytesseract).

    Args:
        lang: Tesseract languages (``eng``, ``rus`` or ``eng+rus``).
        whitelist: characters Tesseract may output (serial alphabets).
        height: line height (px) each strip is scaled to before reading.
        backend: ``"api"``, ``"process"`` or ``None`` (:data:`TESSERACT_BACKENDS`: the
            ``COMPANION_TESSERACT`` variable, else ``api`` when available, else ``process``).
            The two backends may carry different Tesseract releases (the tesserocr wheel
            bundles its own libtesseract; the binary is the system's), whose readings differ
            in a character now and then; measured equally good on the reader's own sheets
            (``docs/vision-notes.md``).

    Attributes:
        backend: the backend in use.
        version: the Tesseract release that reads (e.g. ``"5.5.4"``).

    Raises:
        VisionError: neither backend is available (pytesseract or the tesseract binary missing
            and no tesserocr), or ``backend`` is unknown, or ``"api"`` was asked for and cannot
            load.
    """

    name = "tesseract"

    def __init__(self, lang: str = "eng",
                 whitelist: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*",
                 height: int = 64, backend: str | None = None) -> None:
        self.lang = lang
        self.whitelist = whitelist
        self.height = height
        wanted = backend or os.environ.get("COMPANION_TESSERACT", "").strip().lower() or None
        if wanted is not None and wanted not in TESSERACT_BACKENDS:
            raise VisionError(f"unknown Tesseract backend {wanted!r}; use one of "
                              f"{', '.join(TESSERACT_BACKENDS)}")
        self._api: _TessAPI | None = None
        self._pt = None
        if wanted in (None, "api"):
            try:
                import tesserocr

                self._api = _TessAPI.get(lang, whitelist)
                self.version = tesserocr.tesseract_version().split()[1]
                self.backend = "api"
                return
            except (ImportError, RuntimeError, IndexError) as exc:
                if wanted == "api":
                    raise VisionError(f"in-process Tesseract (tesserocr) is not available: {exc}") from exc
        try:
            import pytesseract

            self.version = str(pytesseract.get_tesseract_version())
        except Exception as exc:
            raise VisionError(f"tesseract is not available: {exc}") from exc
        self._pt = pytesseract
        self.backend = "process"

    def _prep(self, line: np.ndarray) -> np.ndarray:
        gray = cv2.cvtColor(line, cv2.COLOR_BGR2GRAY) if line.ndim == 3 else line
        h, w = gray.shape
        scale = self.height / max(1, h)
        gray = cv2.resize(gray, (max(1, int(w * scale)), self.height), interpolation=cv2.INTER_CUBIC)
        gray = cv2.normalize(gray, None, 0, 255, cv2.NORM_MINMAX)
        return gray

    def _words(self, sheet: np.ndarray) -> list[tuple[int, int, int, str, float]]:
        """Words of the sheet (H×W grey uint8) as ``(left, top, height, text, conf 0..100)``."""
        if self._api is not None:
            return self._api.words(sheet)
        config = f"--psm 6 -c tessedit_char_whitelist={self.whitelist}"
        data = self._pt.image_to_data(sheet, lang=self.lang, config=config,
                                      output_type=self._pt.Output.DICT)
        return list(zip(data["left"], data["top"], data["height"], data["text"], data["conf"]))

    def read_lines(self, lines: Sequence[np.ndarray]) -> list[LineRead]:
        """Read each line image (H×W×3 BGR uint8); all lines are read as one sheet, one call.

        Lines are scaled to ``height`` px and stacked with white gaps; the result's text lines are
        mapped back by their vertical position. A line Tesseract did not find reads as ``""``
        with score 0; so does every line when Tesseract fails (no opinion, not an error).
        """
        if not lines:
            return []
        preps = [self._prep(l) for l in lines]
        gap = self.height // 2
        width = max(p.shape[1] for p in preps) + 2 * gap
        rows = [np.full((gap, width), 255, np.uint8)]
        spans = []
        y = gap
        for p in preps:
            canvas = np.full((p.shape[0], width), 255, np.uint8)
            canvas[:, gap:gap + p.shape[1]] = p
            # dark text on light paper, whatever the print
            if np.median(canvas) < 128:
                canvas = 255 - canvas
            rows.append(canvas)
            rows.append(np.full((gap, width), 255, np.uint8))
            spans.append((y, y + p.shape[0]))
            y += p.shape[0] + gap
        sheet = np.vstack(rows)
        try:
            found = self._words(sheet)
        except Exception:  # tesseract crashed or timed out: no opinion, not a failure
            return [LineRead("", 0.0) for _ in lines]
        words: list[list[tuple[int, str, float]]] = [[] for _ in lines]
        for left, top, hgt, text, conf in found:
            text = (text or "").strip()
            if not text:
                continue
            cy = top + hgt / 2
            for i, (a, b) in enumerate(spans):
                if a - gap / 2 <= cy <= b + gap / 2:
                    words[i].append((left, text, float(conf)))
                    break
        out = []
        for ws in words:
            ws.sort()
            if not ws:
                out.append(LineRead("", 0.0))
                continue
            conf = min(c for _, _, c in ws)
            out.append(LineRead(" ".join(w for _, w, _ in ws), max(0.0, conf) / 100.0))
        return out
