"""The card reader's worker thread and its per-read patch memo.

:meth:`companion.vision.cards.CardReader.read` opens a memo for its image; the learned read and
the corner detector may run on the worker (:func:`_beside`) and share it.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor

#: The patches cut while :meth:`~companion.vision.cards.CardReader.read` reads one image (per thread): the learned and
#: the template read of a card cut the same corners (and ask the same picture test).
_PATCH_MEMO = threading.local()
#: Whether a card's learned read and the corner detector run on a second thread beside the
#: template read (the results are the same either way; a core of its own halves the wait).
PARALLEL = (os.cpu_count() or 1) > 1
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="card-reader")


def _new_worker() -> None:
    """A forked child's own worker: the parent's executor believes its thread is running, but
    the child has no thread, and work submitted to it would wait for ever (a benchmark's or a
    tool's process pool forked after a read)."""
    global _WORKER
    _WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="card-reader")


os.register_at_fork(after_in_child=_new_worker)


def _beside(fn, *args) -> Future:
    """``fn(*args)`` on the reader's worker thread, cutting patches into the calling thread's
    memo; run at once (a finished future) without :data:`PARALLEL` or on the worker itself."""
    image, patches = getattr(_PATCH_MEMO, "image", None), getattr(_PATCH_MEMO, "patches", None)

    def task():
        _PATCH_MEMO.image, _PATCH_MEMO.patches = image, patches
        try:
            return fn(*args)
        finally:
            _PATCH_MEMO.image = _PATCH_MEMO.patches = None

    if PARALLEL and not threading.current_thread().name.startswith("card-reader"):
        return _WORKER.submit(task)
    done: Future = Future()
    try:
        done.set_result(fn(*args))
    except Exception as e:  # raised again by .result(), as the worker's would be
        done.set_exception(e)
    return done
