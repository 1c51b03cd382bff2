"""Build the int8 copies of the RapidOCR models that the banknote and card readers run.

    /work/venv/bin/pip install onnx          # a build-time tool only, never a runtime dependency
    python tools/quantize_models.py [--models det,rec,cls] [--scenes 48]

What it does, per model of the installed ``rapidocr`` wheel (``rapidocr/models/*.onnx``):

1. converts the model to ONNX opset 17 (the wheel's models are opset 11, too old for
   per-channel quantisation);
2. collects calibration inputs (the detector at both of the reader's passes, 384 and 640 px) by running the project's own readers on **rendered** material only
   (:mod:`companion.vision.render_notes` scenes of every currency and their serial strips,
   :mod:`companion.vision.render_cards` layouts), exactly as the readers feed the models — never
   the real photos of ``shared/data`` (those are the test set);
3. quantises statically (onnxruntime's ``quantize_static``: QDQ format, int8 weights per output
   channel, uint8 activations, MinMax calibration);
4. writes ``companion/vision/models/<name>.int8.onnx`` and records in
   ``companion/vision/models/int8.json`` the SHA-256 of the source model and of the result.

:class:`companion.vision.rapid_engine.RapidEngine` loads an int8 copy only when the wheel's model
still has the recorded source hash (a different rapidocr release falls back to its own float
models).
Seeds are fixed, so a rerun on the same wheel gives the same calibration set.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.vision.ocr_models import _sha256  # noqa: E402  (the hash the engine checks)

OUT = ROOT / "companion" / "vision" / "models"


class Recorder:
    """Stands in for an onnxruntime session and keeps a copy of every input it is fed."""

    def __init__(self, session, limit: int) -> None:
        self._s = session
        self.feeds: list[dict[str, np.ndarray]] = []
        self.limit = limit

    def run(self, names, feed, *a, **k):
        if len(self.feeds) < self.limit:
            self.feeds.append({n: np.array(v) for n, v in feed.items()})
        return self._s.run(names, feed, *a, **k)

    def __getattr__(self, name):
        return getattr(self._s, name)


def calibration_feeds(n_scenes: int, float_models: bool = True) -> dict[str, list[dict]]:
    """Run the readers on rendered material with float sessions and record each model's inputs."""
    import os
    os.environ["COMPANION_OCR_INT8"] = "0" if float_models else "1"
    from companion.vision import render_notes as RN
    from companion.vision.notes import NoteReader
    from companion.vision.rapid_engine import RapidEngine

    engine = RapidEngine()
    det, rec = engine._models()
    engine.upside_down([np.full((48, 200, 3), 255, np.uint8)])  # load the angle classifier
    recorders = {}
    for key, model in (("det", det), ("rec", rec), ("cls", engine._cls)):
        inner = model.session
        recorders[key] = Recorder(inner.session, limit=1000)
        inner.session = recorders[key]
    rng = random.Random(20261130)
    readers = {}
    for i in range(n_scenes):
        cur = ("RUB", "RUB", "EUR", "USD", "INR", "KRW", "JPY")[i % 7]
        reader = readers.setdefault(cur, NoteReader(currency=cur, engine=engine, second_opinion=False))
        serial = RN.random_serial(cur, rng)
        note = RN.render_note(serial, cur, seed=70000 + i)
        scene = RN.render_scene([note], background=("felt", "wood", "cloth")[i % 3], seed=71000 + i,
                                blur=rng.choice((0, 0.6, 1.0)), glare=rng.choice((0, 0, 0.25)),
                                jpeg=rng.choice((70, 85, 95)))
        reader.read_frame(scene.image)
        engine.detect(scene.image, 640)  # the reader's finer pass, when the first decides nothing
        if cur != "RUB":
            # the sorter-crop path: a tight strip of the serial, as scanners cut it
            h, w = note.image.shape[:2]
            strip = note.image[int(0.76 * h):int(0.93 * h), int(0.06 * w):int(0.62 * w)]
            strip = cv2.cvtColor(cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
            reader.read_strip(cv2.resize(strip, (160, max(20, round(160 * strip.shape[0]
                                                                     / strip.shape[1])))))
    return {k: r.feeds for k, r in recorders.items()}


def quantize(src: Path, dst: Path, feeds: list[dict]) -> None:
    import onnx
    from onnx import version_converter
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.it = iter(feeds)

        def get_next(self):
            return next(self.it, None)

    with tempfile.TemporaryDirectory() as tmp:
        up = Path(tmp) / "opset17.onnx"
        pre = Path(tmp) / "pre.onnx"
        onnx.save(version_converter.convert_version(onnx.load(str(src)), 17), str(up))
        quant_pre_process(str(up), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(dst), Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8)
    # keep the source's metadata (the recogniser's character list lives there)
    m = onnx.load(str(dst))
    src_meta = {p.key: p.value for p in onnx.load(str(src), load_external_data=False).metadata_props}
    have = {p.key for p in m.metadata_props}
    for k, v in src_meta.items():
        if k not in have:
            p = m.metadata_props.add()
            p.key, p.value = k, v
    onnx.save(m, str(dst))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="det",
                    help="comma list of det, rec, cls (default det: an int8 recogniser loses exact "
                         "serials, and the angle classifier costs little; docs/vision-notes.md)")
    ap.add_argument("--scenes", type=int, default=48, help="rendered scenes for calibration")
    args = ap.parse_args()
    from importlib.metadata import version

    import rapidocr
    wheel = Path(rapidocr.__file__).parent / "models"
    pick = {"det": "*det*.onnx", "rec": "*rec*.onnx", "cls": "*cls*.onnx"}
    wanted = [m.strip() for m in args.models.split(",") if m.strip()]
    print(f"collecting calibration inputs from {args.scenes} rendered scenes …")
    feeds = calibration_feeds(args.scenes)
    OUT.mkdir(parents=True, exist_ok=True)
    index_path = OUT / "int8.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {}
    for key in wanted:
        src = sorted(wheel.glob(pick[key]))[0]
        dst = OUT / (src.stem + ".int8.onnx")
        print(f"{key}: {src.name} with {len(feeds[key])} calibration inputs → {dst.name}")
        quantize(src, dst, feeds[key])
        index[key] = {"source": src.name, "source_sha256": _sha256(src), "file": dst.name,
                      "sha256": _sha256(dst), "rapidocr": version("rapidocr"),
                      "calibration_inputs": len(feeds[key])}
    index_path.write_text(json.dumps(index, indent=2) + "\n")
    print(f"wrote {index_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
