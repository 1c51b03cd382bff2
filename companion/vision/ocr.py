"""OCR engines behind one small interface: RapidOCR (PP-OCR ONNX models) and Tesseract.

Both engines read *lines*: an image holding one line of text (H×W×3 BGR uint8) in, ``(text,
score)`` out, ``score`` in 0..1. RapidOCR also offers a text *detector* (quadrilaterals of text
lines in a whole frame).

* :class:`RapidEngine` loads the detection and recognition models that ship inside the ``rapidocr``
  wheel (``rapidocr/models/*.onnx``); it never downloads anything: a missing model file raises
  :class:`~companion.errors.VisionError` instead.
* :class:`TesseractEngine` reads with Tesseract 5. :meth:`TesseractEngine.read_lines` stacks all
  the lines of one photo into a single image (a "sheet") and reads it once (``--psm 6``), one
  line per strip. The sheet is read in-process through tesserocr (Tesseract's C++ API, models
  loaded once: ≈ 20 ms a sheet here) when it is installed and finds the language files, else by
  the ``tesseract`` binary through pytesseract, which starts one process per call (≈ 135 ms a
  sheet here, most of it loading the language model).
"""

from __future__ import annotations

import math
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from companion.errors import VisionError


@dataclass(frozen=True)
class LineRead:
    """One recognised line: ``text`` as the engine returned it and its ``score`` (0..1)."""

    text: str
    score: float


def _threads() -> int:
    """onnxruntime intra-op threads: ``COMPANION_OCR_THREADS`` or 2. With the worker threads'
    spin-waiting switched off (:func:`_session`), two threads cut the wall time of detection
    and recognition on the shared 2-core build machine under load by 15–30 % for about 10 %
    more CPU time; with spinning on, the second thread only burnt CPU (``docs/vision-notes.md``)."""
    try:
        return max(1, min(4, int(os.environ.get("COMPANION_OCR_THREADS", "2"))))
    except ValueError:
        return 2


def _session(model_path: str, threads: int):
    """An onnxruntime CPU session for one of the wheel's models: all graph optimisations,
    ``threads`` intra-op threads that sleep instead of spinning between runs (a spinning
    idle thread takes a core from the rest of the table), CPU memory arena on."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.enable_cpu_mem_arena = True
    if threads > 1:
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(model_path, sess_options=opts, providers=["CPUExecutionProvider"])


#: The project's int8 copies of the wheel's models (``tools/quantize_models.py``) and their index.
MODELS_DIR = Path(__file__).resolve().parent / "models"


def _sha256(path: Path) -> str:
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


_INT8_CACHE: dict[str, Path | None] = {}


def int8_model(model_path: str | Path) -> Path | None:
    """The project's int8 copy of one of the rapidocr wheel's model files, or ``None``.

    ``companion/vision/models/int8.json`` (written by ``tools/quantize_models.py``) names, for
    each quantised model, the wheel file it was made from and that file's SHA-256; a copy is used
    only when the installed wheel's file still has that hash (another rapidocr release keeps its
    own float models) and the copy itself has its recorded hash. ``COMPANION_OCR_INT8=0`` turns
    the copies off (float models everywhere); a comma list (``det,cls``) keeps only those. Static int8 (QDQ, per-channel weights) runs the
    text detector ≈ 4–5 × faster than float here (x86 with VNNI); figures in
    ``docs/vision-notes.md``.
    """
    flag = os.environ.get("COMPANION_OCR_INT8", "1").strip().lower()
    if flag in ("0", "no", "false", "off"):
        return None
    wanted = None if flag in ("1", "yes", "true", "on", "") else set(flag.split(","))
    key = f"{model_path}|{flag}"
    if key in _INT8_CACHE:
        return _INT8_CACHE[key]
    found = None
    try:
        import json

        index = json.loads((MODELS_DIR / "int8.json").read_text(encoding="utf-8"))
        src = Path(model_path)
        for kind, entry in index.items():
            copy = MODELS_DIR / entry["file"]
            if wanted is not None and kind not in wanted:
                continue
            if (entry["source"] == src.name and copy.is_file()
                    and _sha256(src) == entry["source_sha256"]
                    and _sha256(copy) == entry["sha256"]):
                found = copy
                break
    except (OSError, ValueError, KeyError, TypeError):
        found = None
    _INT8_CACHE[key] = found
    return found


class RapidEngine:
    """RapidOCR (PP-OCR det + rec on onnxruntime), models loaded from the wheel only.

    Args:
        det_side: the longest side (px) a frame is scaled down to for text detection.
        threads: onnxruntime intra-op threads (default :func:`_threads`: 2, without spin-waiting).

    Raises:
        VisionError: the rapidocr package or its bundled model files are missing.
    """

    name = "rapidocr"

    def __init__(self, det_side: int = 640, threads: int | None = None) -> None:
        try:
            import rapidocr
            from rapidocr import RapidOCR
            from rapidocr.ch_ppocr_rec import TextRecInput
        except ImportError as exc:  # pragma: no cover - dependency declared in pyproject
            raise VisionError(f"rapidocr is not installed: {exc}") from exc
        model_dir = Path(rapidocr.__file__).parent / "models"
        if not any(model_dir.glob("*det*.onnx")) or not any(model_dir.glob("*rec*.onnx")):
            raise VisionError(f"rapidocr models are missing from the wheel ({model_dir}); "
                              "they are never downloaded at run time")
        self._TextRecInput = TextRecInput
        self.det_side = det_side
        self.threads = threads or _threads()
        self._ocr = RapidOCR(params={
            "Global.log_level": "error",
            "EngineConfig.onnxruntime.intra_op_num_threads": 1,
            "Det.limit_type": "max",
            "Det.limit_side_len": det_side,
        })
        self._lock = threading.Lock()
        #: the model files the sessions run (``*.int8.onnx`` for the project's int8 copies)
        self.model_files: list[str] = []
        self._det = None
        self._rec = None
        self._cls = None

    def _models(self):
        with self._lock:
            if self._rec is None:
                det = self._ocr._load_det_model()
                rec = self._ocr._load_rec_model()
                for m in (det, rec):
                    self._own_session(m)
                self._det, self._rec = det, rec
        return self._det, self._rec

    def _own_session(self, model) -> None:
        """Swap rapidocr's session of ``model`` for one with :func:`_session`'s options: the
        project's int8 copy of the wheel's model file when :func:`int8_model` has one for it,
        else the same model file (rapidocr's own one-thread session stays if it does not name
        its model file)."""
        inner = getattr(model, "session", None)
        sess = getattr(inner, "session", None)
        if sess is None or not hasattr(sess, "_model_path"):
            return
        path = int8_model(sess._model_path) or sess._model_path
        inner.session = _session(str(path), self.threads)
        self.model_files.append(Path(path).name)

    def detect(self, image: np.ndarray, side: int | None = None) -> list[np.ndarray]:
        """Text-line quadrilaterals in ``image`` (H×W×3 BGR uint8): a list of 4×2 float32 arrays
        (clockwise from top-left, in ``image`` pixels).

        Args:
            side: the longest side (px) the image is scaled down to for detection (default
                ``det_side``). Detection cost grows with its square: 320 px costs about a
                quarter of 640 px.
        """
        det, _ = self._models()
        h, w = image.shape[:2]
        k = min(1.0, (side or self.det_side) / max(h, w))
        small = image if k == 1.0 else cv2.resize(image, (max(1, round(w * k)), max(1, round(h * k))),
                                                  interpolation=cv2.INTER_AREA)
        with self._lock:
            res = det(small)
        if res.boxes is None:
            return []
        return [np.asarray(b, dtype=np.float32) / k for b in res.boxes]

    def upside_down(self, lines: Sequence[np.ndarray]) -> list[tuple[bool, float]]:
        """PP-OCR's text-angle classifier (``ch_ppocr_mobile_v2.0_cls``, from the wheel) on each
        line image (H×W×3 BGR uint8): ``(True, score)`` when the line is upside down (180°),
        ``(False, score)`` when upright; ``score`` is the classifier's probability (0.5..1).
        About 2 ms a line, against 30–50 ms to recognise it a second time turned round."""
        if not lines:
            return []
        with self._lock:
            if self._cls is None:
                self._cls = self._ocr._load_cls_model()
                self._own_session(self._cls)
            res = self._cls(list(lines))
        return [("180" in str(label), float(score)) for label, score in res.cls_res]

    #: The least width (px) of a recognition input of :meth:`read_lines`: every line is scaled
    #: to 48 px height and padded to at least this width, and a batch to its widest line.
    #: PP-OCR's default is 320; 160 gave the same verdicts on the benchmark's 171 photos and on
    #: 156 fresh rendered ones, for 15-23 % less CPU a photo (docs/vision-notes.md).
    REC_MIN_WIDTH = 160
    #: A batch never pads a line to more than this many times its own input width.
    REC_MAX_PAD = 1.3
    #: The widest recognition input (px at 48 px height): a longer line is squeezed, never
    #: scaled to thousands of columns (a 1×20000 strip once took 23 GB at 48 px high).
    MAX_INPUT_WIDTH = 2048

    def read_lines(self, lines: Sequence[np.ndarray], min_width: int | None = None) -> list[LineRead]:
        """Recognise each line image (H×W×3 BGR uint8, text left to right); one result per line.

        Lines go to the model in batches of similar width (a batch is padded to its widest
        line, so one long line would multiply the cost of the short ones).

        Args:
            min_width: the least input width (px, at 48 px height) a line is padded to; default
                :attr:`REC_MIN_WIDTH`. The card reader passes PP-OCR's 320 (its figures were
                measured so).
        """
        if not lines:
            return []
        _, rec = self._models()
        min_width = min_width or self.REC_MIN_WIDTH
        cap = self.MAX_INPUT_WIDTH / 48
        # a line longer than the cap is squeezed to it here: rapidocr scales each batch to its
        # widest line's own aspect, whatever its input shape says
        lines = [l if l.shape[1] <= cap * max(1, l.shape[0]) else
                 cv2.resize(l, (max(1, int(cap * max(1, l.shape[0]))), max(1, l.shape[0])),
                            interpolation=cv2.INTER_AREA) for l in lines]
        ratios = [min(cap, max(min_width / 48, l.shape[1] / max(1, l.shape[0]))) for l in lines]
        order = sorted(range(len(lines)), key=lambda i: ratios[i])
        groups: list[list[int]] = []
        for i in order:
            if groups and ratios[i] <= self.REC_MAX_PAD * ratios[groups[-1][0]]:
                groups[-1].append(i)
            else:
                groups.append([i])
        out: list[LineRead] = [LineRead("", 0.0)] * len(lines)
        with self._lock:
            for g in groups:
                # the batch's input width: its widest line at 48 px height, whole (PP-OCR's own
                # rounding down squeezed that line by a pixel), else the least width
                widest = max(math.ceil(48 * lines[i].shape[1] / max(1, lines[i].shape[0])) for i in g)
                widest = min(widest, self.MAX_INPUT_WIDTH)
                rec.rec_image_shape = [3, 48, max(min_width, widest)]
                res = rec(self._TextRecInput(img=[lines[i] for i in g]))
                txts = res.txts or ("",) * len(g)
                for i, t, sc in zip(g, txts, res.scores):
                    out[i] = LineRead(str(t), float(sc))
        return out

    #: Characters of :meth:`line_probs` columns after the CTC blank (column 0); the last column
    #: is the summed probability of every other character of the model's 18 709.
    SERIAL_CHARSET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ*"

    def line_probs(self, lines: Sequence[np.ndarray], stretch: float = 1.0) -> list[np.ndarray]:
        """The recogniser's per-time-step CTC probabilities for each line image (H×W×3 BGR uint8,
        text left to right), folded onto :attr:`SERIAL_CHARSET`: an array T×(2+len(charset))
        float32 per line, rows summing to 1 — column 0 the CTC blank, then the charset (a lower
        case letter's probability is added to its capital), the last column everything else.
        T grows with the line's width: one step per 8 px of the line scaled to 48 px height.

        Only lines of one width share a batch (padding to a batch's widest line shifts the
        recogniser's output). ``stretch`` widens each line before recognition: the sorter crops
        give only ≈ 2 time steps per glyph, too few for CTC to separate a doubled digit ("44").

        Raises:
            VisionError: a line is empty.
        """
        _, rec = self._models()
        cols = self._charset_columns(rec)
        inputs = []
        for line in lines:
            h, w = line.shape[:2]
            if h == 0 or w == 0:
                raise VisionError("empty line image")
            W = max(8, min(self.MAX_INPUT_WIDTH, int(math.ceil(48 * w * stretch / h))))
            x = cv2.resize(line, (W, 48), interpolation=cv2.INTER_CUBIC if W > w else cv2.INTER_AREA)
            inputs.append((x.astype(np.float32).transpose(2, 0, 1) / 255.0 - 0.5) / 0.5)
        out: list[np.ndarray | None] = [None] * len(inputs)
        by_width: dict[int, list[int]] = {}
        for i, x in enumerate(inputs):
            by_width.setdefault(x.shape[2], []).append(i)
        for ids in by_width.values():  # lines of one width share a batch (no padding)
            with self._lock:
                preds = np.asarray(rec.session(np.stack([inputs[i] for i in ids])), np.float32)
            preds = preds.reshape((len(ids),) + preds.shape[-2:])
            for i, p in zip(ids, preds):
                folded = np.zeros((p.shape[0], len(cols) + 1), np.float32)
                for j, idx in enumerate(cols):
                    folded[:, j] = p[:, idx].sum(axis=1)
                folded[:, -1] = np.clip(1.0 - folded[:, :-1].sum(axis=1), 0.0, 1.0)
                out[i] = folded
        return out  # type: ignore[return-value]

    def _charset_columns(self, rec) -> list[list[int]]:
        if getattr(self, "_cols", None) is None:
            index = {c: i for i, c in enumerate(rec.postprocess_op.character)}
            cols = [[0]]  # the CTC blank
            for ch in self.SERIAL_CHARSET:
                cols.append([index[c] for c in {ch, ch.lower()} if c in index])
            self._cols = cols
        return self._cols


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


_SHARED_RAPID: RapidEngine | None = None
_SHARED_LOCK = threading.Lock()


def shared_rapid() -> RapidEngine:
    """The process's one :class:`RapidEngine` (created on first use, default settings), so the
    card reader, the deck learner and any other reader share one set of loaded models.

    Raises:
        VisionError: the rapidocr package or its bundled model files are missing.
    """
    global _SHARED_RAPID
    with _SHARED_LOCK:
        if _SHARED_RAPID is None:
            _SHARED_RAPID = RapidEngine()
        return _SHARED_RAPID
