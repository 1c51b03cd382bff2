"""Shared fixtures. Real data lives read-only in ../shared/data/real (never copied here)."""

from __future__ import annotations

from pathlib import Path

import pytest

import os

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("COMPANION_SHARED") or ROOT.parent / "shared")
REAL = SHARED / "data" / "real"
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="session")
def real_data() -> Path:
    """Path to ../shared/data/real; skips the test (saying why) when it is absent."""
    if not REAL.is_dir():
        pytest.skip(f"real photos not available: {REAL} is absent")
    return REAL


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Folder for test artifacts (screenshots, rendered frames); kept after the run."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
