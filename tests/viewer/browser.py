"""Debian's chromium, driven by Playwright for Python (never Playwright's own browser build)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("RIPPLEMEM_CHROMIUM", "/usr/bin/chromium"))
#: where the tests leave their screenshots and measurements
ARTIFACTS = Path(os.environ.get("RIPPLEMEM_TEST_ARTIFACTS", Path(__file__).parents[2] / "build" / "test-artifacts")) / "viewer"


def chromium_or_skip() -> None:
    if not CHROMIUM.exists():
        message = f"no chromium at {CHROMIUM}: `apt-get install chromium` (make install does it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        yield launched
        launched.close()


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / name
