"""A real JupyterLab on loopback, driven by the system Chromium through Playwright (no browser download).

The server gets its own settings, workspace, config, data and runtime folders (so a student's own JupyterLab
settings cannot change what the tests see), a random port and token, ``windowingMode: none`` so every cell stays
attached to the page, and ``expose_app_in_browser`` so a test can run JupyterLab commands (run all cells) and
ask the kernel's status from the page.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run", "--disable-dev-shm-usage"]


def wait_until(condition: Callable[[], Any], what: str, timeout: float, interval: float = 0.2) -> Any:
    """Poll ``condition()`` until it returns something true, and return that; after ``timeout`` seconds raise
    ``TimeoutError`` saying ``what`` did not happen. The one place that pauses between polls: for conditions only
    Python can see (a server answering, a view a test computes); conditions in the page use wait_for_function."""
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if found:
            return found
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what} did not happen within {timeout:g} s")
        time.sleep(interval)


def chromium_path() -> str | None:
    found = os.environ.get("COURSE_CHROMIUM")
    if found and Path(found).exists():
        return found
    return next((p for p in CHROMIUM_CANDIDATES if Path(p).exists()), shutil.which("chromium"))


class Lab:
    """Start with :meth:`start`, stop with :meth:`stop`; ``url(path)`` gives an address with the token."""

    def __init__(self, root: Path, home: Path, french_menus: bool = False) -> None:
        self.root, self.home = root, home
        self.french_menus = french_menus  # JupyterLab's own menus in French, as ./course start --lang fr sets them
        self.proc: subprocess.Popen[bytes] | None = None
        self.token = secrets.token_hex(12)
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()

    def _write_settings(self) -> None:
        settings = self.home / "settings" / "@jupyterlab"
        files = {
            "notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
            "apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
        }
        if self.french_menus:  # the very file ./course start --lang fr copies into its French settings folder
            files["translation-extension/plugin.jupyterlab-settings"] = json.loads(
                (self.root / "tools" / "jupyterlab-french.json").read_text(encoding="utf-8"))
        for rel, content in files.items():
            path = settings / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(content))

    def start(self, timeout: float = 90) -> None:
        self._write_settings()
        env = dict(os.environ, JUPYTER_CONFIG_DIR=str(self.home / "config"), JUPYTER_DATA_DIR=str(self.home / "data"),
                   JUPYTER_RUNTIME_DIR=str(self.home / "runtime"), IPYTHONDIR=str(self.home / "ipython"),
                   TF_CPP_MIN_LOG_LEVEL="3")
        cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--ServerApp.port={self.port}",
               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={self.token}",
               f"--ServerApp.root_dir={self.root}", f"--LabApp.user_settings_dir={self.home / 'settings'}",
               f"--LabApp.workspaces_dir={self.home / 'workspaces'}", "--LabApp.expose_app_in_browser=True",
               "--ServerApp.open_browser=False"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        self.log = open(self.home / "jupyterlab.log", "wb")  # noqa: SIM115 - kept open while the server runs
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        wait_until(self._answers, f"JupyterLab answering on port {self.port} (log: {self.home / 'jupyterlab.log'})",
                   timeout, interval=0.3)

    def _answers(self) -> bool:
        """True once the server answers its status API; an exited server is an error at once, not a timeout."""
        if self.proc is not None and self.proc.poll() is not None:
            raise RuntimeError(f"JupyterLab exited at start-up; see {self.home / 'jupyterlab.log'}")
        try:
            urllib.request.urlopen(self.url("api/status"), timeout=2)
        except OSError:
            return False
        return True

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"http://127.0.0.1:{self.port}/{path}{sep}token={self.token}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


# JavaScript run in the page: is the notebook's kernel idle with no cell still queued/running?
KERNEL_IDLE = """() => {
  const w = window.jupyterapp?.shell?.currentWidget;
  const k = w?.sessionContext?.session?.kernel;
  if (!k || k.status !== 'idle') return false;
  return ![...document.querySelectorAll('.jp-InputArea-prompt')].some(e => e.textContent.includes('*'));
}"""
# Accept a kernel dialog if one is shown (clicked in the page, so the same poll that waits for the kernel does it),
# then: is a kernel attached and idle?
ACCEPT_DIALOG_THEN_KERNEL_IDLE = """() => {
  const accept = document.querySelector('.jp-Dialog .jp-mod-accept');
  if (accept) { accept.click(); return false; }
  return (""" + KERNEL_IDLE + """)();
}"""


def open_notebook(page, lab: Lab, rel: str, timeout_ms: int = 120_000) -> None:
    """Open a notebook, accept the kernel dialog if one comes, wait until a kernel is attached and idle."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.goto(lab.url(f"lab/tree/{rel}") + "&reset")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=timeout_ms)
    try:
        page.wait_for_function(ACCEPT_DIALOG_THEN_KERNEL_IDLE, timeout=timeout_ms, polling=300)
    except PlaywrightTimeout:
        raise TimeoutError(f"{rel}: no idle kernel attached within {timeout_ms / 1000:.0f} s") from None


def run_all(page, timeout_ms: int = 240_000) -> None:
    """Clear the saved outputs (so nothing old can pass for new), run every cell, wait for an idle kernel.

    JupyterLab's run-all command returns a promise that settles when the last cell has run; evaluate awaits it.
    """
    page.set_default_timeout(timeout_ms)
    page.evaluate("window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(KERNEL_IDLE, timeout=timeout_ms, polling=300)


# In the page, polled once per animation frame: true once the elements matched by the selector kept the same boxes
# from one frame to the next, no CSS animation or transition runs inside them, and the fonts are loaded: the layout
# a student sees, ready to measure or to photograph. (A Web Animations list, not a pause: a transition that never
# ends, or a box that keeps resizing, fails with a message instead of passing by luck.)
SETTLED = """(selector) => {
  const els = [...document.querySelectorAll(selector)];
  const now = JSON.stringify(els.map(e => {
    const r = e.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height];
  }));
  const moving = document.getAnimations().some(a => a.playState === 'running'
    && els.some(e => a.effect && a.effect.target && e.contains(a.effect.target)));
  const same = window.__courseLayout === now;
  window.__courseLayout = now;
  return els.length > 0 && same && !moving && document.fonts.status === 'loaded';
}"""


def wait_settled(page, selector: str, what: str, timeout_ms: int = 60_000) -> None:
    """Wait until ``selector``'s elements stop moving (SETTLED); raise ``TimeoutError`` naming ``what`` if they never
    do. The deadline is generous: on a busy machine frames come slowly, and only the condition ends the wait."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate("() => { window.__courseLayout = null; }")
    try:
        page.wait_for_function(SETTLED, arg=selector, polling="raf", timeout=timeout_ms)
    except PlaywrightTimeout:
        raise TimeoutError(f"{what}: still moving or loading fonts after {timeout_ms / 1000:g} s") from None


# How many widget views are on the page: rendered ones, and the error widget ipywidgets shows when one cannot render.
WIDGET_VIEWS = """() => ({
  rendered: document.querySelectorAll('.jp-OutputArea-output:has(> .jupyter-widgets)').length,
  failed: document.querySelectorAll('.jupyter-widgets-error-widget').length,
})"""


def wait_for_widget_views(page, expected: int, timeout_ms: int = 30_000) -> dict:
    """Wait until ``expected`` widget views have attached (or one failed); return the counts either way, so the
    test's own assertions say what is missing (run-all settles before the last views attach to the page)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # A view that failed shows the error widget: no need to wait for the rest, the test fails on it anyway.
    done = f"() => {{ const v = ({WIDGET_VIEWS})(); return v.rendered >= {int(expected)} || v.failed > 0; }}"
    try:
        page.wait_for_function(done, timeout=timeout_ms, polling=200)
    except PlaywrightTimeout:
        pass  # reported by the caller's assertion, with the counts
    return page.evaluate(WIDGET_VIEWS)
