"""RapidOCR (PP-OCR text detection, recognition and angle classification on onnxruntime), with
the models that ship inside the ``rapidocr`` wheel: nothing is ever downloaded, a missing model
file raises :class:`~companion.errors.VisionError`."""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision.ocr import LineRead
from companion.vision.ocr_models import _session, _threads, int8_model


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
