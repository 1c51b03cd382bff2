"""Every hex frame in docs/protocol.md's code blocks is a valid frame that decodes."""

from __future__ import annotations

import re
from pathlib import Path

from companion.devices import protocol
from companion.devices.firmware import wire

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def doc_frames():
    blocks = re.findall(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines()
            if re.fullmatch(r"a5( [0-9a-f]{2})+", line.strip())]


def test_doc_examples_are_valid_frames():
    lines = doc_frames()
    assert len(lines) >= 12
    for line in lines:
        data = bytes.fromhex(line)
        parser = wire.Parser()
        frames = parser.feed(data)
        assert len(frames) == 1 and parser.pending() == 0 and parser.junk == 0, line
        ftype, seq, body = frames[0]
        assert wire.encode(ftype, seq, body) == data
        if ftype < 0x80:
            protocol.decode(frames[0])  # box frames decode without ProtocolError


def test_doc_names_the_version_and_timing_constants():
    text = DOC.read_text(encoding="utf-8")
    from companion.devices.firmware import boxfw

    assert f"version {wire.PROTOCOL_VERSION}" in text
    assert f"after {boxfw.RTO_MS} ms" in text and f"at most {boxfw.MAX_RETRIES} times" in text
    assert f"every {boxfw.HEARTBEAT_MS} ms" in text.replace("Heartbeat:** every", "every")
