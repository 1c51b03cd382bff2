"""Generate hardware/wiring.svg from hardware/pinmap.json, so the drawing cannot drift.

    python hardware/wiring.py           # rewrite wiring.svg
    python hardware/wiring.py --check   # exit 1 when wiring.svg is not what the pin map gives

The drawing shows: the Pico's matrix rows (one per seat) and columns (one per button) with the
per-switch diodes, the seat-light lines through the TBD62083APG sink driver, the RJ45 pad cable
pin-out, and the Pi header pins of the turn light, alert light and buzzer. Output is deterministic
(no timestamps), checked by tests/devices/test_pinmap.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
PINMAP = HERE / "pinmap.json"
SVG = HERE / "wiring.svg"

LABELS = {"yes": ("Верю", "yes"), "no": ("Не верю", "no"), "plus": ("+", "plus"), "ok": ("OK", "ok")}
COLOURS = {"row": "#1f6feb", "col": "#d29922", "light": "#2da44e", "pi": "#cf222e", "gnd": "#57606a"}


def render(pinmap: dict) -> str:
    """The wiring diagram of ``pinmap`` as SVG text."""
    pico = pinmap["pico"]
    rows = pico["matrix"]["rows"]
    cols = pico["matrix"]["columns"]
    buttons = pico["matrix"]["buttons"]
    lights = pico["seat_lights"]["pins"]
    pi = pinmap["pi"]
    pad_w, pad_h, gap = 330, 150, 14
    x0, y0 = 330, 70
    width = x0 + 2 * (pad_w + gap) + 40
    n_pairs = (len(rows) + 1) // 2
    height = y0 + n_pairs * (pad_h + gap) + 200
    out: list[str] = []
    a = out.append
    a(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
      f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11">')
    a('<rect width="100%" height="100%" fill="white"/>')
    a('<text x="20" y="28" font-size="16" font-weight="bold">Table Companion button box - wiring '
      '(generated from hardware/pinmap.json)</text>')

    # Pico block
    a(f'<rect x="20" y="{y0}" width="240" height="{30 + 14 * (len(rows) + len(cols) + len(lights) + 3)}" '
      'fill="#f6f8fa" stroke="black"/>')
    a(f'<text x="30" y="{y0 + 18}" font-weight="bold">Raspberry Pi Pico</text>')
    y = y0 + 36
    for seat, gp in enumerate(rows):
        a(f'<text x="30" y="{y}" fill="{COLOURS["row"]}">GP{gp}  row seat {seat} (pad {seat + 1})</text>')
        y += 14
    for b, gp in enumerate(cols):
        a(f'<text x="30" y="{y}" fill="{COLOURS["col"]}">GP{gp}  col {buttons[b]} (pull-up)</text>')
        y += 14
    for seat, gp in enumerate(lights):
        a(f'<text x="30" y="{y}" fill="{COLOURS["light"]}">GP{gp}  light seat {seat} -&gt; driver IN{seat + 1}</text>')
        y += 14
    a(f'<text x="30" y="{y}">GP{pico["status_led"]} on-board status LED</text>')
    y += 14
    a(f'<text x="30" y="{y}">VBUS 5 V, GND -&gt; pads; USB -&gt; Pi</text>')

    # Driver block
    dy = y + 30
    a(f'<rect x="20" y="{dy}" width="240" height="60" fill="#f6f8fa" stroke="black"/>')
    a(f'<text x="30" y="{dy + 18}" font-weight="bold">TBD62083APG</text>')
    a(f'<text x="30" y="{dy + 34}">8-ch low-side driver</text>')
    a(f'<text x="30" y="{dy + 50}">OUTn -&gt; pad light_sink</text>')

    # buses
    bus_x = 280
    for i, gp in enumerate(cols):
        x = bus_x + 12 * i
        a(f'<line x1="{x}" y1="{y0}" x2="{x}" y2="{y0 + n_pairs * (pad_h + gap)}" '
          f'stroke="{COLOURS["col"]}" stroke-width="2"/>')
        a(f'<text x="{x - 3}" y="{y0 - 6}" font-size="9" fill="{COLOURS["col"]}" '
          f'transform="rotate(-60 {x - 3} {y0 - 6})">GP{gp}</text>')

    # pads
    for seat, gp in enumerate(rows):
        px = x0 + (seat % 2) * (pad_w + gap)
        py = y0 + (seat // 2) * (pad_h + gap)
        a(f'<rect x="{px}" y="{py}" width="{pad_w}" height="{pad_h}" rx="8" fill="#fffbe6" stroke="black"/>')
        a(f'<text x="{px + 8}" y="{py + 16}" font-weight="bold">Pad {seat + 1} (seat {seat}) - '
          f'row GP{gp}, light GP{lights[seat]}</text>')
        row_y = py + pad_h - 36
        a(f'<line x1="{px + 10}" y1="{row_y}" x2="{px + pad_w - 10}" y2="{row_y}" '
          f'stroke="{COLOURS["row"]}" stroke-width="2"/>')
        for b, name in enumerate(buttons):
            bx = px + 16 + b * 66
            ru, en = LABELS.get(name, (name, name))
            a(f'<circle cx="{bx + 12}" cy="{py + 40}" r="11" fill="white" stroke="black"/>')
            a(f'<text x="{bx + 12}" y="{py + 64}" font-size="10" text-anchor="middle">{escape(ru)}</text>')
            a(f'<text x="{bx + 12}" y="{py + 75}" font-size="9" text-anchor="middle" '
              f'fill="{COLOURS["col"]}">{escape(en)} GP{cols[b]}</text>')
            # switch -> diode (cathode to row); the column wire enters the switch from the bus
            a(f'<line x1="{bx + 12}" y1="{py + 78}" x2="{bx + 12}" y2="{py + 84}" stroke="black"/>')
            a(f'<polygon points="{bx + 7},{py + 84} {bx + 17},{py + 84} {bx + 12},{py + 94}" fill="black"/>')
            a(f'<line x1="{bx + 6}" y1="{py + 95}" x2="{bx + 18}" y2="{py + 95}" stroke="black" stroke-width="2"/>')
            a(f'<line x1="{bx + 12}" y1="{py + 95}" x2="{bx + 12}" y2="{row_y}" stroke="black"/>')
        a(f'<circle cx="{px + pad_w - 20}" cy="{py + 40}" r="8" fill="{COLOURS["light"]}" stroke="black"/>')
        a(f'<text x="{px + pad_w - 20}" y="{py + 64}" font-size="9" text-anchor="middle">light</text>')
        cable = sorted(pinmap["pad_cable"]["pins"].items())
        for line_no, part in enumerate((cable[:4], cable[4:])):
            a(f'<text x="{px + 8}" y="{py + pad_h - 20 + 12 * line_no}" font-size="9" fill="{COLOURS["gnd"]}">'
              + ("RJ45 " if line_no == 0 else "          ")
              + escape("  ".join(f"{k}={v}" for k, v in part)) + "</text>")

    # Pi block
    py0 = y0 + n_pairs * (pad_h + gap) + 20
    a(f'<rect x="{x0}" y="{py0}" width="{2 * pad_w + gap}" height="170" fill="#ffeef0" stroke="black"/>')
    a(f'<text x="{x0 + 10}" y="{py0 + 20}" font-weight="bold">Raspberry Pi 40-pin header '
      f'({escape(pi["numbering"])} numbering) - companion/devices/lights.py</text>')
    yy = py0 + 44
    for key in ("turn_light", "alert_light", "buzzer"):
        dev = pi[key]
        a(f'<text x="{x0 + 10}" y="{yy}" fill="{COLOURS["pi"]}" font-weight="bold">GPIO{dev["gpio"]} '
          f'(header pin {dev["header_pin"]}) - {key} ({dev["device"]})</text>')
        a(f'<text x="{x0 + 24}" y="{yy + 13}" font-size="10">{escape(dev["comment"])}</text>')
        yy += 32
    a(f'<text x="{x0 + 10}" y="{yy + 6}">Pico USB -&gt; Pi USB (udev: /dev/buttonbox, '
      'hardware/99-table-companion.rules)</text>')
    a('</svg>')
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Generate hardware/wiring.svg from the pin map.")
    parser.add_argument("--check", action="store_true", help="only compare, exit 1 on drift")
    args = parser.parse_args(argv)
    svg = render(json.loads(PINMAP.read_text(encoding="utf-8")))
    if args.check:
        if not SVG.is_file() or SVG.read_text(encoding="utf-8") != svg:
            print(f"{SVG} is stale: run python hardware/wiring.py")
            return 1
        return 0
    SVG.write_text(svg, encoding="utf-8")
    print(f"wrote {SVG}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
