"""Camera sources behind one interface: frames are H×W×3 BGR uint8.

* :class:`PiCamera` — picamera2 (Raspberry Pi OS ships it through apt). Written against the
  documented picamera2 API: ``Picamera2()``, ``create_still_configuration`` /
  ``create_video_configuration`` with ``main={"format": "RGB888", "size": ...}`` (the "RGB888"
  format delivers arrays in B, G, R byte order, which is OpenCV's BGR), ``configure``, ``start``,
  ``capture_array``, ``stop``, ``close``.
* :class:`OpenCVCamera` — ``cv2.VideoCapture`` on a device index (USB webcam) or a URL/file.
* :class:`FolderSource` — the images of a folder, in name order (optionally looping).
* :class:`ImageSource` — one image file, the same frame every time.
* :class:`RenderedSource` — frames pushed by a program or pulled from a callable (the simulated
  table's scene renderer).
* :class:`RetryingSource` — any of the above that may be missing: the table starts without it,
  says so, and picks it up when it appears (a capped backoff, as the button box reconnects).

Every source is a context manager with ``read() -> ndarray``, ``close()`` and a useful ``repr``;
:func:`open_source` picks one from a camera spec (:func:`parse_spec`: ``scene``, ``picamera2``,
``opencv:0``, ``folder:PATH``, ``image:PATH``, or a bare index, URL, folder or file).
"""

from __future__ import annotations

import collections
import logging
import threading
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from companion.i18n import M
from companion.errors import CameraError, CameraMissing
from companion.vision.images import IMAGE_SUFFIXES, image_files, load_image, to_bgr


class FrameSource:
    """Base class: a context manager delivering H×W×3 BGR uint8 frames."""

    closed = False

    def read(self) -> np.ndarray:
        """The next frame (H×W×3 BGR uint8).

        Raises:
            CameraError: the source is closed, exhausted or failed.
        """
        raise NotImplementedError

    def close(self) -> None:
        """Release the device; further reads raise :class:`CameraError`."""
        self.closed = True

    def _check_open(self) -> None:
        if self.closed:
            raise CameraError(f"{self!r} is closed")

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __iter__(self):
        """Frames until the source is exhausted (a CameraError ends the iteration)."""
        while True:
            try:
                yield self.read()
            except CameraError:
                return


def _bgr(frame: np.ndarray, where: str) -> np.ndarray:
    return to_bgr(frame, f"{where}: frame", CameraError)


class PiCamera(FrameSource):
    """Raspberry Pi camera through picamera2.

    Args:
        size: frame size (width, height) in px.
        still: use a still configuration (full sensor quality) instead of a video one.

    Raises:
        CameraError: picamera2 is not installed or the camera cannot be started.
    """

    def __init__(self, size: tuple[int, int] = (2028, 1520), still: bool = False) -> None:
        try:
            from picamera2 import Picamera2  # Raspberry Pi OS: apt install python3-picamera2
        except ImportError as exc:
            raise CameraError(M("picamera2 is not installed (Raspberry Pi OS only)")) from exc
        self.size = tuple(size)
        self.still = still
        try:
            self._cam = Picamera2()
            make = self._cam.create_still_configuration if still else \
                self._cam.create_video_configuration
            self._cam.configure(make(main={"format": "RGB888", "size": self.size}))
            self._cam.start()
        except Exception as exc:  # the library raises RuntimeError and friends
            raise CameraError(M("cannot start the Pi camera: %(error)s", error=str(exc))) from exc

    def read(self) -> np.ndarray:
        self._check_open()
        try:
            frame = self._cam.capture_array()
        except Exception as exc:
            raise CameraError(f"Pi camera capture failed: {exc}") from exc
        return _bgr(frame, repr(self))[:, :, :3]

    def close(self) -> None:
        if not self.closed:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                super().close()

    def __repr__(self) -> str:
        return f"PiCamera(size={self.size}, still={self.still})"


class OpenCVCamera(FrameSource):
    """``cv2.VideoCapture`` on a device index (USB webcam) or a URL / video file.

    Args:
        device: device index (``0``) or URL/path.
        size: requested (width, height) in px, or ``None`` for the device default.

    Raises:
        CameraError: the device cannot be opened.
    """

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = None) -> None:
        self.device = device
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(M("cannot open camera %(device)r", device=device))
        if size:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray:
        self._check_open()
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"{self!r}: no frame (device unplugged or stream ended)")
        return _bgr(frame, repr(self))

    def close(self) -> None:
        if not self.closed:
            self._cap.release()
            super().close()

    def __repr__(self) -> str:
        return f"OpenCVCamera({self.device!r})"


def _load(path: Path) -> np.ndarray:
    return load_image(path, CameraError)


class FolderSource(FrameSource):
    """The images of a folder in name order (``.jpg .png .bmp …``).

    Args:
        folder: the folder.
        loop: start again after the last image instead of raising.

    Raises:
        CameraError: the folder is missing or holds no image.
    """

    def __init__(self, folder: str | Path, loop: bool = False) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(M("%(folder)s: no such folder", folder=str(self.folder)))
        self.files = image_files(self.folder)
        if not self.files:
            raise CameraError(M("%(folder)s: no images in the folder", folder=str(self.folder)))
        self.loop = loop
        self.index = 0
        self.last_path: Path | None = None

    def read(self) -> np.ndarray:
        self._check_open()
        if self.index >= len(self.files):
            if not self.loop:
                raise CameraError(f"{self!r}: no more images")
            self.index = 0
        self.last_path = self.files[self.index]
        self.index += 1
        return _load(self.last_path)

    def __repr__(self) -> str:
        return f"FolderSource({str(self.folder)!r}, {len(self.files)} images)"


class ImageSource(FrameSource):
    """One image file; every read returns (a copy of) the same frame.

    Raises:
        CameraError: the file is missing or not an image.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._frame = _load(self.path)

    def read(self) -> np.ndarray:
        self._check_open()
        return self._frame.copy()

    def __repr__(self) -> str:
        return f"ImageSource({str(self.path)!r})"


class RenderedSource(FrameSource):
    """Frames from a program: pushed with :meth:`push` and/or pulled from ``render()``.

    The simulated table pushes the frames its scene renderer draws; a callable source renders a
    frame on every :meth:`read`. Pushed frames are read first (FIFO).

    Args:
        render: optional callable returning an H×W×3 BGR uint8 frame.
        maxlen: pushed frames kept at most (the oldest are dropped).
    """

    def __init__(self, render: Callable[[], np.ndarray] | None = None, maxlen: int = 64) -> None:
        self.render = render
        self._queue: collections.deque = collections.deque(maxlen=maxlen)
        self._lock = threading.Lock()

    def push(self, frame: np.ndarray) -> None:
        """Queue a frame (H×W×3 BGR uint8).

        Raises:
            CameraError: not a BGR uint8 image, or the source is closed.
        """
        self._check_open()
        with self._lock:
            self._queue.append(_bgr(frame, repr(self)))

    def read(self) -> np.ndarray:
        self._check_open()
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.render is None:
            raise CameraError(f"{self!r}: no frame pushed")
        return _bgr(self.render(), repr(self))

    def __repr__(self) -> str:
        name = getattr(self.render, "__name__", type(self.render).__name__) if self.render else None
        return f"RenderedSource(render={name}, queued={len(self._queue)})"


#: The kinds of camera spec :func:`parse_spec` gives.
SPEC_KINDS = ("scene", "picamera2", "opencv", "folder", "image")


def parse_spec(spec: str | int) -> tuple[str, str]:
    """``(kind, argument)`` of a camera spec, the one syntax of ``companion run --camera``, the
    settings file and :func:`open_source`:

    * ``scene`` — rendered frames pushed by the simulated table;
    * ``picamera2`` (also ``picamera``) — the Pi camera;
    * ``opencv:0`` / ``opencv:rtsp://…`` / ``opencv:PATH.mp4`` — OpenCV ``VideoCapture``; a bare
      device index (``0``) or URL (``rtsp://…``, ``http://…``) means the same;
    * ``folder:PATH`` — the images of a folder; a bare path of a folder means the same;
    * ``image:PATH`` — one image, every frame; a bare path of an image file means the same (a
      bare path of another file is a video for OpenCV).

    Raises:
        CameraError: the spec names nothing usable (with the accepted forms).
    """
    if isinstance(spec, int):
        return "opencv", str(spec)
    text = str(spec).strip()
    kind, sep, arg = text.partition(":")
    if text in ("scene", "picamera2", "picamera"):
        return ("picamera2", "") if text.startswith("picamera") else ("scene", "")
    if sep and kind in ("opencv", "folder", "image") and arg:
        return kind, arg
    if text.isdigit() or "://" in text:
        return "opencv", text
    p = Path(text) if text else None
    if p is not None and p.is_dir():
        return "folder", text
    if p is not None and p.is_file():
        return ("image" if p.suffix.lower() in IMAGE_SUFFIXES else "opencv"), text
    raise CameraError(f"no camera source {text!r}: use scene, picamera2, opencv:INDEX|URL|VIDEO, "
                      "folder:PATH, image:PATH (or a device index, a URL, a folder or an image)")


def open_source(spec: str | int) -> FrameSource:
    """The source a camera spec names (:func:`parse_spec`).

    Raises:
        CameraError: the spec names nothing usable, or the device cannot be opened.
    """
    kind, arg = parse_spec(spec)
    if kind == "scene":
        return RenderedSource()
    if kind == "picamera2":
        return PiCamera()
    if kind == "opencv":
        return OpenCVCamera(int(arg) if arg.isdigit() else arg)
    if kind == "folder":
        return FolderSource(Path(arg))
    return ImageSource(Path(arg))


log = logging.getLogger(__name__)


class RetryingSource(FrameSource):
    """A camera that may be missing or unplugged: the table never waits for it.

    The source is opened at once; when that fails (``opencv:7`` with no such device, a folder not
    there yet) a background thread tries again with a backoff doubling from ``delays[0]`` to
    ``delays[1]`` seconds. :meth:`read` gives a frame when the camera is there and raises
    :class:`~companion.errors.CameraMissing` at once when it is not. A device camera (``picamera2``, ``opencv``) that
    fails while reading (unplugged) is closed and reopened the same way; a folder or image source
    that is open passes its errors through (its end is no fault).

    Args:
        spec: the camera spec (:func:`parse_spec`).
        opener: builds the source from the spec (:func:`open_source`; tests pass another).
        on_status: called ``on_status(connected, error)`` from any thread when the camera comes or
            goes (``error``: the last problem in English, ``None`` when connected).
        delays: (first, longest) seconds between attempts.
    """

    def __init__(self, spec: str, opener: Callable[[str], FrameSource] | None = None,
                 on_status: Callable[[bool, str | None], None] | None = None,
                 delays: tuple[float, float] = (0.5, 10.0)) -> None:
        self.spec = spec
        self.kind = parse_spec(spec)[0]
        self._opener = opener or open_source
        self._on_status = on_status
        self._delays = delays
        self._lock = threading.Lock()
        self._source: FrameSource | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.error: str | None = None
        self.attempts = 0
        self._try_open()
        self._thread = threading.Thread(target=self._retry, name=f"camera-retry({spec})", daemon=True)
        self._thread.start()

    @property
    def connected(self) -> bool:
        return self._source is not None

    def _tell(self, connected: bool, error: str | None) -> None:
        if self._on_status is not None:
            try:
                self._on_status(connected, error)
            except Exception:  # a status listener must not stop the camera
                log.exception("camera status listener failed")

    def _try_open(self) -> bool:
        self.attempts += 1
        try:
            source = self._opener(self.spec)
        except CameraError as exc:
            first = self.error is None or self.attempts == 1
            self.error = str(exc)
            if first:
                # said in words on the console and every page (the camera's part status); the
                # system's own text is for the log (-v)
                log.info("camera %s is missing (%s); the table goes on and retries", self.spec, exc)
                self._tell(False, self.error)
            return False
        with self._lock:
            if self._stop.is_set():
                source.close()
                return False
            self._source, self.error = source, None
        log.info("camera %s connected", self.spec)
        self._tell(True, None)
        return True

    def _retry(self) -> None:
        delay = self._delays[0]
        while not self._stop.is_set():
            if self._source is not None:
                self._wake.wait()  # until a read finds the camera gone (or close)
                self._wake.clear()
                delay = self._delays[0]
                continue
            if self._try_open():
                delay = self._delays[0]
                continue
            self._stop.wait(delay)
            delay = min(delay * 2, self._delays[1])

    def read(self) -> np.ndarray:
        self._check_open()
        with self._lock:
            source = self._source
        if source is None:
            raise CameraMissing(M("camera %(camera)s is not connected (%(error)s); retrying", camera=self.spec,
                                  error=self.error))
        try:
            return source.read()
        except CameraError as exc:
            if self.kind not in ("picamera2", "opencv"):
                raise  # a folder's last image, an unreadable file: not a camera gone
            with self._lock:
                if self._source is source:
                    self._source = None
            try:
                source.close()
            except Exception:  # noqa: BLE001 - a device gone may fail to close too
                pass
            self.error = str(exc)
            log.warning("camera %s lost (%s); retrying", self.spec, exc)
            self._tell(False, self.error)
            self._wake.set()
            raise CameraMissing(M("camera %(camera)s was lost (%(error)s); retrying", camera=self.spec,
                                  error=str(exc))) from exc

    def close(self) -> None:
        if self.closed:
            return
        self._stop.set()
        self._wake.set()
        self._thread.join(5.0)
        with self._lock:
            source, self._source = self._source, None
        if source is not None:
            source.close()
        super().close()

    def __repr__(self) -> str:
        state = "connected" if self._source is not None else f"missing, {self.attempts} attempt(s)"
        return f"RetryingSource({self.spec!r}, {state})"


def default_source() -> FrameSource:
    """picamera2 when importable (a Pi), else the first USB camera.

    Raises:
        CameraError: neither is available.
    """
    try:
        return PiCamera()
    except CameraError:
        return OpenCVCamera(0)
