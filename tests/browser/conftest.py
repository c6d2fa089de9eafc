"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium for the whole session.

Skipped (with the reason) only when COURSE_SKIP_BROWSER=1; a missing Chromium or Playwright is an error with the
fix, because CI must run these tests (./course test installs both).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .labdriver import CHROMIUM_ARGS, Lab, chromium_path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"


def pytest_collection_modifyitems(config, items):
    if os.environ.get("COURSE_SKIP_BROWSER") == "1":
        skip = pytest.mark.skip(reason="COURSE_SKIP_BROWSER=1: browser tests skipped (CI runs them)")
        for item in items:
            if "browser" in str(item.fspath):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory):
    server = Lab(ROOT, tmp_path_factory.mktemp("jupyterlab-home"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright Python package is missing: run ./course test (it installs it), or "
                    ".venv/bin/pip install -r requirements.txt")
    exe = chromium_path()
    if exe is None:
        pytest.fail("Chromium was not found (/usr/bin/chromium): run ./course test, which installs it with apt-get, "
                    "or install it yourself (Debian/Ubuntu: sudo apt-get install chromium), or set COURSE_CHROMIUM")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    yield pg
    ctx.close()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if ARTIFACTS.exists() and any(ARTIFACTS.iterdir()):
        terminalreporter.write_line(f"browser test screenshots: {ARTIFACTS}")
