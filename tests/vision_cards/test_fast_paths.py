"""The per-frame fast paths of the card reader (eighth pass) compute what the slower code they
replaced computed: percentiles from histograms, the local-contrast paper mask by OpenCV's
saturating arithmetic, and corner patches cut once per read."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision import card_find as F
from companion.vision import card_patches as CP
from companion.vision import card_worker as CW
from companion.vision import cards as C
from companion.vision import percentiles as P
from companion.vision import table_scenes as T


def test_histogram_percentiles_are_numpys():
    rng = np.random.default_rng(3)
    for shape in ((124, 72), (360, 640), (7, 5)):
        a = rng.integers(0, 256, shape, dtype=np.uint8)
        a[: shape[0] // 3] = 250  # a paper-like plateau
        for q in (10, 37.3, 90, 99):
            assert P.percentile(a, q) == float(np.percentile(a, q))
            hist = cv2.calcHist([a], [0], None, [256], [0, 256]).ravel()
            assert P.percentile_hist(hist, a.size, q, numpy_lerp=True) == float(np.percentile(a, q))
            assert P.percentile_u8(a, q, numpy_lerp=True) == float(np.percentile(a, q))
        img = rng.integers(0, 256, shape + (3,), dtype=np.uint8)
        assert P.channel_percentiles(img, 90) == [float(np.percentile(img[..., k], 90)) for k in range(3)]


def _reference_local_mask(small: np.ndarray) -> np.ndarray:
    """The local-contrast mask as first written (numpy, int16 comparisons)."""
    f = small[::3, ::3].reshape(-1, 3)
    k = int(0.99 * (len(f) - 1))
    top = np.partition(f, k, axis=0)[k].astype(np.float32) + 1
    wb = np.clip(small.astype(np.float32) * (245.0 / top), 0, 255).astype(np.uint8)
    lo = wb.min(axis=2)
    chroma = wb.max(axis=2).astype(np.int16) - lo
    h, w = lo.shape
    kk = max(15, (max(h, w) // 5) | 1)
    bg = cv2.blur(lo, (kk, kk))
    m = ((lo.astype(np.int16) > bg.astype(np.int16) + F.LOCAL_DELTA) & (chroma < F.CHROMA_MAX)).astype(np.uint8) * 255
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def test_local_paper_mask_is_the_numpy_one():
    for i in range(6):
        frame = T.heldout_scene(i)[0]
        h, w = frame.shape[:2]
        s = min(1.0, 640 / max(h, w))
        small = cv2.resize(frame, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        assert np.array_equal(F.local_paper_mask(small), _reference_local_mask(small)), i


def test_corner_patches_are_cut_once_per_read_and_only_then():
    frame = T.heldout_scene(2)[0]
    quad = np.array([[100, 100], [180, 100], [180, 220], [100, 220]], np.float32)
    assert CP.corner_patch(frame, quad, 0) is not CP.corner_patch(frame, quad, 0)  # outside a read
    CW._PATCH_MEMO.image, CW._PATCH_MEMO.patches = frame, {}
    try:
        a = CP.corner_patch(frame, quad, 1, 1.4)
        assert CP.corner_patch(frame, quad.copy(), 1, 1.4) is a
        assert np.array_equal(a, CP._corner_patch(frame, quad, 1, 1.4))
        assert CP.corner_patch(frame.copy(), quad, 1, 1.4) is not a  # another image
    finally:
        CW._PATCH_MEMO.image = CW._PATCH_MEMO.patches = None


def _facts(reads) -> list:
    return [(r.card, r.reason, round(r.confidence, 9), [round(float(v), 3) for v in r.box]) for r in reads]


def test_second_thread_reads_what_one_thread_reads(monkeypatch):
    """The learned read and the corner detector on the worker thread (PARALLEL) give the reads
    one thread gives, on held-out tables of 1–4 cards; the worker really ran, and its patches
    cut its patches into the read's one memo."""
    from companion.vision import learned_read as LR

    reader = C.CardReader("standard", "en")
    frames = [T.heldout_scene(i)[0] for i in (1, 4, 9, 12)]
    monkeypatch.setattr(CW, "PARALLEL", False)
    alone = [_facts(reader.read(f)) for f in frames]
    assert any(r[0] for reads in alone for r in reads)  # the scenes have cards to read
    threads, cut = set(), []
    real, learned = CP._corner_patch, LR.read_frame_learned

    def spy_patch(*a, **k):
        cut.append(threading.current_thread().name)
        return real(*a, **k)

    def spy_learned(*a, **k):
        threads.add(threading.current_thread().name)
        return learned(*a, **k)

    monkeypatch.setattr(CW, "PARALLEL", True)
    monkeypatch.setattr(CP, "_corner_patch", spy_patch)
    monkeypatch.setattr(LR, "read_frame_learned", spy_learned)
    beside = [_facts(reader.read(f)) for f in frames]
    assert beside == alone
    assert "card-reader_0" in threads  # (the corner detector's extra reads stay on the caller's)
    n_beside = len(cut)
    cut.clear()
    monkeypatch.setattr(CW, "PARALLEL", False)
    [reader.read(f) for f in frames]
    # one memo for both threads: a patch is cut twice only when both threads want it at once
    assert len(cut) <= n_beside < 1.25 * len(cut)


def test_worker_failure_is_raised_in_the_reader(monkeypatch):
    def broken(*a, **k):
        raise VisionError("corner model broken")

    from companion.vision import card_corners as CC

    reader = C.CardReader("standard", "en")
    for parallel in (True, False):
        monkeypatch.setattr(CW, "PARALLEL", parallel)
        monkeypatch.setattr(reader, "corner_net", None)
        monkeypatch.setattr(CC.CornerNet, "detect", broken)
        try:
            reader.read(T.heldout_scene(1)[0])
        except VisionError as e:
            assert "corner model broken" in str(e)
        else:
            raise AssertionError("the worker's error was lost")


def test_a_forked_process_reads_with_a_worker_of_its_own(monkeypatch):
    """A process forked after the worker thread started (a process pool of the benchmark or a
    tool) gets a worker of its own: work given to the parent's executor would never run there."""
    import os

    monkeypatch.setattr(CW, "PARALLEL", True)
    assert CW._beside(lambda: 1).result(timeout=30) == 1  # the parent's worker is running
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer through the pipe, never return into pytest
        try:
            ok = CW._beside(lambda: 42).result(timeout=10) == 42
        except BaseException:
            ok = False
        os.write(w, b"1" if ok else b"0")
        os._exit(0)
    os.close(w)
    got = os.read(r, 1)
    os.close(r)
    os.waitpid(pid, 0)
    assert got == b"1", "the forked child's work never ran on its worker"
