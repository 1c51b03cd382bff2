"""Open one of the committed ONNX models with the ``.json`` metadata beside it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.errors import VisionError


def open_model(path: Path | str, what: str, tool: str, threads: int = 1) -> tuple[Any, dict]:
    """An onnxruntime CPU session of ``path`` (``threads`` intra-op threads, one inter-op) and its
    metadata ``path.with_suffix(".json")``; ``what`` names the model and ``tool`` what makes it in
    the errors.

    Raises:
        VisionError: onnxruntime is not installed; the model or its metadata is missing.
    """
    path = Path(path)
    try:
        import onnxruntime as ort
    except ImportError as e:  # pragma: no cover - a runtime dependency
        raise VisionError("onnxruntime is not installed") from e
    meta_path = path.with_suffix(".json")
    if not path.is_file() or not meta_path.is_file():
        raise VisionError(f"{what} model missing: {path} ({tool} makes it)")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"]), meta
