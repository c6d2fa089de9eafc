"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium for the whole session.

Skipped (with the reason) only when COURSE_SKIP_BROWSER=1; a missing Chromium or Playwright is an error with the
fix, because CI must run these tests (./course test installs both).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .labdriver import CHROMIUM_ARGS, Lab, chromium_path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "browser"


#: browser test files whose tests are independent runs, spread one by one over the workers; every other file's tests
#: stay together on one worker, where its module fixture (a built site, a page of widgets, a second JupyterLab) is
#: made once (./course test: -n N --dist loadscope, with the scheduler below)
SPREAD = {"test_notebooks.py"}


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: without xdist, never called
def pytest_xdist_make_scheduler(config, log):
    """--dist loadscope with a scope per browser test file, but one per test in the SPREAD files. (xdist's own
    --dist loadgroup cannot do this with pytest 9: it renames items through ``_nodeid``, which pytest 9 ignores.)"""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FilesAndSpreadTests(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return nodeid if Path(file).name in SPREAD else file

    return FilesAndSpreadTests(config, log)


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
