"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium for the whole session.

Skipped (with the reason) only when COURSE_SKIP_BROWSER=1; a missing Chromium or Playwright is an error with the
fix, because CI must run these tests (./course test installs both).
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
import time
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
#: files that run in another file's scope, on its worker, to use the same session fixture once: test_axe.py reads the
#: site test_site.py builds; test_keyboard.py walks the laptop page of widgets test_layout.py measures, after it
#: (its keys step, play and type into the widgets: measured first, then driven)
WITH = {"test_axe.py": "test_site.py", "test_keyboard.py": "test_layout.py"}


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
            name = Path(file).name
            return nodeid if name in SPREAD else str(Path(file).with_name(WITH[name])) if name in WITH else file

    return FilesAndSpreadTests(config, log)


def pytest_collection_modifyitems(config, items):
    # a WITH file's tests run right after its host file's (the same order on every worker, as xdist requires)
    for guest, host in WITH.items():
        moved = [it for it in items if it.path.name == guest]
        hosts = [k for k, it in enumerate(items) if it.path.name == host]
        if moved and hosts:
            rest = [it for it in items if it.path.name != guest]
            at = max(k for k, it in enumerate(rest) if it.path.name == host) + 1
            items[:] = rest[:at] + moved + rest[at:]
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


@pytest.fixture(scope="session")
def laptop(lab, browser, artifacts):
    """JupyterLab on a laptop (1366×768, the file browser open, the classroom theme) with one widget of each kind
    run (test_layout.open_widgets): measured by test_layout.py, then walked with the keyboard by test_keyboard.py."""
    from .test_layout import open_widgets

    ctx, page = open_widgets(lab, browser, artifacts, "laptop")
    yield page
    ctx.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the tests report what matters themselves
        pass


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The static edition built once (test_site.py opens it page by page, test_axe.py checks every page)."""
    from site_tools import build as site_build
    from site_tools import decks

    if not (site_build.NODE_MODULES / "@jupyter-widgets" / "html-manager").is_dir():
        pytest.fail("site_tools/node_modules is missing: run ./course site once (it runs npm ci in site_tools), "
                    "or ./course test, which installs it")
    out = tmp_path_factory.mktemp("static-edition") / "site"
    t0 = time.perf_counter()
    report = site_build.build(out, decks=decks.DECKS)
    print(f"site built in {time.perf_counter() - t0:.1f} s, {report.total_bytes / 1e6:.1f} MB")
    return report


@pytest.fixture(scope="session")
def base_url(site):
    """The built site served on loopback."""
    handler = functools.partial(_Quiet, directory=str(site.out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    yield pg
    ctx.close()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if ARTIFACTS.exists() and any(ARTIFACTS.iterdir()):
        terminalreporter.write_line(f"browser test screenshots: {ARTIFACTS}")
