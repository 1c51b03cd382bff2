"""Copy the portable firmware files and the pin map into the host package.

The Pico runs firmware/wire.py, firmware/boxfw.py and hardware/pinmap.json; the host package
needs the very same files (the driver uses wire.py's parser, the virtual box runs boxfw.py, the
lights read the pin map), and an installed wheel cannot reach firmware/ or hardware/. So the
canonical files stay where the hardware people expect them and byte-identical copies live in
companion/devices/firmware/ (shipped as package data). tests/devices/test_pinmap.py fails when a
copy differs.

    python firmware/sync.py          # refresh the copies
    python firmware/sync.py --check  # exit 1 and name the stale copies
"""

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "companion" / "devices" / "firmware"
SOURCES = [ROOT / "firmware" / "wire.py", ROOT / "firmware" / "boxfw.py", ROOT / "hardware" / "pinmap.json"]


def stale() -> list[Path]:
    """Canonical files whose packaged copy is missing or differs."""
    return [src for src in SOURCES
            if not (DEST / src.name).is_file() or (DEST / src.name).read_bytes() != src.read_bytes()]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check, do not copy")
    args = parser.parse_args(argv)
    bad = stale()
    if args.check:
        for src in bad:
            print(f"stale copy: {DEST / src.name} (canonical: {src})")
        return 1 if bad else 0
    for src in bad:
        shutil.copyfile(src, DEST / src.name)
        print(f"copied {src.relative_to(ROOT)} -> {(DEST / src.name).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
