"""The OCR models' onnxruntime sessions and the project's int8 copies of the rapidocr wheel's
models (``companion/vision/models/int8.json``)."""

from __future__ import annotations

import os
from pathlib import Path


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

#: x86 instruction-set flags with an int8 dot product (VNNI): without one, onnxruntime's uint8 ×
#: int8 kernels (AVX2 ``vpmaddubsw``) saturate, and the int8 detector misreads (docs/vision-notes.md).
VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})


def cpu_flags() -> frozenset[str]:
    """The CPU's feature flags from ``/proc/cpuinfo`` (empty when unreadable)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def int8_safe() -> bool:
    """Whether this CPU runs the int8 copies as they were measured: x86-64 with VNNI only."""
    import platform

    return platform.machine().lower() in ("x86_64", "amd64") and bool(cpu_flags() & VNNI_FLAGS)


def int8_flag() -> str:
    """``COMPANION_OCR_INT8`` as :func:`int8_model` reads it (``auto`` when unset)."""
    return os.environ.get("COMPANION_OCR_INT8", "auto").strip().lower()


def int8_held_back_by_cpu() -> bool:
    """Whether the int8 copies stay unused only because this CPU is not :func:`int8_safe`."""
    return int8_flag() in ("auto", "") and not int8_safe()


def int8_model(model_path: str | Path) -> Path | None:
    """The project's int8 copy of one of the rapidocr wheel's model files, or ``None``.

    ``companion/vision/models/int8.json`` (written by ``tools/quantize_models.py``) names, for
    each quantised model, the wheel file it was made from and that file's SHA-256; a copy is used
    only when the installed wheel's file still has that hash (another rapidocr release keeps its
    own float models) and the copy itself has its recorded hash. ``COMPANION_OCR_INT8`` unset or
    ``auto``: the copies only on a CPU where :func:`int8_safe`; ``1`` on any CPU; ``0`` off (float
    models everywhere); a comma list (``det,cls``) keeps only those, on any CPU. Static int8
    (QDQ, per-channel weights) runs the text detector ≈ 4–5 × faster than float on x86 with VNNI;
    figures in ``docs/vision-notes.md``.
    """
    flag = int8_flag()
    if flag in ("0", "no", "false", "off") or int8_held_back_by_cpu():
        return None
    wanted = None if flag in ("1", "yes", "true", "on", "auto", "") else set(flag.split(","))
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
