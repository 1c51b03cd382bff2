"""Image fuzz through every reader (issue #20 item 2): peak memory per image ≤ 1 GB, 0 tracebacks.

Images made here (nothing is kept): sizes 1×1 to 8192×6144 (the largest taken) and bombs up to
30000×30000 (PNG files of a few MB, written row by row, never held decoded), serial strips up to
1:20 and beyond, palette PNG and GIF, 16-bit PNG and TIFF, grey, RGBA with alpha, CMYK JPEG,
WebP, BMP, truncated files, empty and random bytes; plus copies of real US $1 notes
(``../shared/data/real/banknotes/ptbarros__dollar-bill-processor``, truth from its MANIFEST)
converted to GIF, palette PNG, 16-bit PNG and WebP.

One worker process reads every image the way ``companion scan-note`` and ``scan-card`` do
(:func:`companion.vision.images.load_image`, then the note reader and the card reader); its
peak resident memory is reset before each image (``/proc/self/clear_refs``) and read after it
(``VmHWM``), so each image has its own peak. Printed: per kind of image its outcome (read,
refused by the size gate in words, unreadable) and peak memory, the worst peak, the tracebacks
(any exception but a refusal), and on the converted real notes the decided reads and how many
are wrong (the GIF misread of issue #20 item 8 belongs to the note reader's branch).

    python bench/images.py [--quick]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "vision"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bombs import png_bomb  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real" / "banknotes" / "ptbarros__dollar-bill-processor"
LIMIT_MB = 1024

WORKER = textwrap.dedent(
    """
    import json, sys, traceback
    from companion.errors import VisionError
    from companion.vision.images import load_image
    from companion.vision.notes import NoteReader
    from companion.vision.cards import CardReader

    def peak_mb():
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    readers = {}
    def note(currency):
        if currency not in readers:
            readers[currency] = NoteReader(currency=currency)
        return readers[currency]
    cards = CardReader("standard", "auto")
    load_image(sys.argv[1])  # warm up every model on a real photo first
    note("auto").read(load_image(sys.argv[1])); cards.read(load_image(sys.argv[1]))
    print(json.dumps({"ready": True, "base_mb": peak_mb()}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        open("/proc/self/clear_refs", "w").write("5")  # the peak from here on
        out = {"name": job["name"]}
        try:
            img = load_image(job["path"])
            read = note(job.get("currency", "auto")).read(img)
            out.update(outcome="read", serial=read.serial if read.decided else None,
                       confidence=round(float(read.confidence), 3))
            if job.get("cards", True):
                cards.read(img)
            del img
        except VisionError as exc:
            code = getattr(exc, "code", None)
            out.update(outcome="refused" if code else "unreadable", why=getattr(exc, "reason", str(exc))[:120])
        except Exception:
            out.update(outcome="TRACEBACK", why=traceback.format_exc()[-600:])
        out["peak_mb"] = round(peak_mb(), 1)
        print(json.dumps(out), flush=True)
    """
)


def make_images(folder: Path, quick: bool) -> list[dict]:
    """Write the fuzz images; returns the jobs ``{"name", "path", "kind", ...}``."""
    rng = np.random.default_rng(0)
    jobs: list[dict] = []

    def add(name, path, kind, **kw):
        jobs.append({"name": name, "path": str(path), "kind": kind, **kw})

    def noise(w, h, c=3, dtype=np.uint8):
        hi = 65535 if dtype == np.uint16 else 255
        base = rng.integers(0, hi, size=(max(1, h // 8), max(1, w // 8), c), dtype=dtype)
        return cv2.resize(base, (w, h), interpolation=cv2.INTER_NEAREST).reshape(h, w, c)

    sizes = [(1, 1), (2, 2), (3, 40), (16, 16), (64, 48), (640, 480), (1920, 1080), (4000, 3000)]
    if not quick:
        sizes += [(8000, 6000), (8192, 6144), (6144, 8192)]
    for w, h in sizes:
        p = folder / f"noise-{w}x{h}.jpg"
        cv2.imwrite(str(p), noise(w, h))
        add(f"{w}×{h} JPEG", p, "size")
    for w, h in [(400, 40), (640, 32), (800, 20), (20000, 1), (1, 20000), (3000, 150)]:
        p = folder / f"strip-{w}x{h}.png"
        cv2.imwrite(str(p), noise(w, h)) if w * h < 10**6 else png_bomb(p, w, h)
        add(f"strip {w}×{h}", p, "strip")
    bombs = [(20000, 20000, 8, 2), (30000, 30000, 8, 3), (16385, 1000, 8, 2), (7000, 7000, 16, 6), (10000, 10000, 1, 0)]
    for w, h, depth, colour in bombs:
        p = png_bomb(folder / f"bomb-{w}x{h}-{depth}-{colour}.png", w, h, bit_depth=depth, colour=colour)
        add(f"bomb {w}×{h} {depth}-bit type {colour} ({p.stat().st_size // 1024} KB)", p, "bomb")
    from PIL import Image

    base = noise(1200, 900)
    rgb = Image.fromarray(base[:, :, ::-1])
    formats = {
        "palette.png": lambda p: rgb.convert("P", palette=Image.ADAPTIVE, colors=256).save(p),
        "palette.gif": lambda p: rgb.convert("P", palette=Image.ADAPTIVE, colors=256).save(p),
        "grey.png": lambda p: rgb.convert("L").save(p),
        "alpha.png": lambda p: cv2.imwrite(str(p), np.dstack([base, rng.integers(0, 255, base.shape[:2], np.uint8)])),
        "16bit.png": lambda p: cv2.imwrite(str(p), noise(1200, 900, 3, np.uint16)),
        "16bit-grey.png": lambda p: cv2.imwrite(str(p), noise(1200, 900, 1, np.uint16)),
        "16bit.tiff": lambda p: cv2.imwrite(str(p), noise(1200, 900, 3, np.uint16)),
        "cmyk.jpg": lambda p: rgb.convert("CMYK").save(p),
        "photo.webp": lambda p: rgb.save(p),
        "photo.bmp": lambda p: cv2.imwrite(str(p), base),
        "q5.jpg": lambda p: cv2.imwrite(str(p), base, [cv2.IMWRITE_JPEG_QUALITY, 5]),
    }
    for name, write in formats.items():
        p = folder / name
        write(p)
        add(name, p, "format")
    good = folder / "palette.png"
    data = good.read_bytes()
    jpg = (folder / "q5.jpg").read_bytes()
    for name, raw in {"truncated.png": data[: len(data) // 3], "truncated.jpg": jpg[: len(jpg) // 2],
                      "header-only.png": data[:40], "empty.png": b"", "random.jpg": os.urandom(20000),
                      "text.png": b"not an image at all"}.items():
        (folder / name).write_bytes(raw)
        add(name, folder / name, "broken")
    if REAL.is_dir():
        with open(REAL / "MANIFEST.tsv", encoding="utf-8") as fh:
            truth = {r["filename"]: r["label"] for r in csv.DictReader(fh, delimiter="\t")}
        for fname in sorted(truth)[: 4 if quick else 12]:
            im = Image.open(REAL / fname).convert("RGB")
            for conv, write in {"gif": lambda p: im.convert("P", palette=Image.ADAPTIVE, colors=256).save(p),
                                "palette.png": lambda p: im.convert("P", palette=Image.ADAPTIVE, colors=256).save(p),
                                "16bit.png": lambda p: cv2.imwrite(str(p), cv2.imread(str(REAL / fname)).astype(np.uint16) * 257),
                                "webp": lambda p: im.save(p, quality=80)}.items():
                p = folder / f"{Path(fname).stem}.{conv}"
                write(p)
                add(f"{fname} as {conv}", p, "real", currency="USD", truth=truth[fname], cards=False)
    return jobs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer and smaller images")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-images-"))
    w0 = time.monotonic()
    jobs = make_images(folder, args.quick)
    warm = folder / "warm.jpg"
    cv2.imwrite(str(warm), np.full((480, 640, 3), 128, np.uint8))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-c", WORKER, str(warm)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, env=env, cwd=str(ROOT))
    ready = json.loads(p.stdout.readline())
    results = []
    c0 = time.monotonic()
    for job in jobs:
        p.stdin.write(json.dumps(job) + "\n")
        p.stdin.flush()
        line = p.stdout.readline()
        if not line:
            results.append({**job, "outcome": "WORKER DIED", "peak_mb": float("nan")})
            break
        results.append({**job, **json.loads(line)})
    p.stdin.close()
    p.wait(timeout=60)
    print(f"image fuzz: {len(results)} images through load_image + note reader + card reader, one worker "
          f"(models loaded: {ready['base_mb']:.0f} MB resident); {time.monotonic() - c0:.0f} s of reading, "
          f"{time.monotonic() - w0:.0f} s in all")
    print(f"  {'image':<52} {'outcome':<10} {'peak MB':>8}  detail")
    for r in results:
        detail = r.get("why") or (f"serial {r.get('serial')} ({r.get('confidence')})" if r.get("serial") else "abstained")
        if r.get("truth"):
            detail += f" — truth {r['truth']}"
        print(f"  {r['name'][:52]:<52} {r['outcome']:<10} {r['peak_mb']:8.0f}  {str(detail)[:90]}")
    tracebacks = [r for r in results if r["outcome"] in ("TRACEBACK", "WORKER DIED")]
    worst = max(results, key=lambda r: r["peak_mb"] if r["peak_mb"] == r["peak_mb"] else 1e9)
    real = [r for r in results if r["kind"] == "real"]
    decided = [r for r in real if r.get("serial")]
    wrong = [r for r in decided if r["serial"] != r["truth"]]
    print(f"  worst peak: {worst['peak_mb']:.0f} MB ({worst['name']}); goal ≤ {LIMIT_MB} MB per image -> "
          f"{'met' if worst['peak_mb'] <= LIMIT_MB else 'NOT met'}")
    print(f"  tracebacks: {len(tracebacks)}; refused by the size gate: {sum(r['outcome'] == 'refused' for r in results)}; "
          f"unreadable: {sum(r['outcome'] == 'unreadable' for r in results)}")
    print(f"  converted real notes: {len(real)} images, {len(decided)} decided, {len(wrong)} decided wrong"
          + (": " + ", ".join(f"{r['name']} read {r['serial']}" for r in wrong) if wrong else ""))
    for r in tracebacks:
        print(f"  TRACEBACK on {r['name']}:\n{r.get('why')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
