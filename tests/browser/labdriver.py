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
from pathlib import Path

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run", "--disable-dev-shm-usage"]


def chromium_path() -> str | None:
    found = os.environ.get("COURSE_CHROMIUM")
    if found and Path(found).exists():
        return found
    return next((p for p in CHROMIUM_CANDIDATES if Path(p).exists()), shutil.which("chromium"))


class Lab:
    """Start with :meth:`start`, stop with :meth:`stop`; ``url(path)`` gives an address with the token."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root, self.home = root, home
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
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited at start-up; see {self.home / 'jupyterlab.log'}")
            try:
                urllib.request.urlopen(self.url("api/status"), timeout=2)
                return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"JupyterLab did not answer within {timeout} s; see {self.home / 'jupyterlab.log'}")

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
HAS_KERNEL = "() => !!window.jupyterapp?.shell?.currentWidget?.sessionContext?.session?.kernel"


def open_notebook(page, lab: Lab, rel: str, timeout_ms: int = 120_000) -> None:
    """Open a notebook, accept the kernel dialog if one comes, wait until a kernel is attached."""
    page.goto(lab.url(f"lab/tree/{rel}") + "&reset")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=timeout_ms)
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        dialog = page.locator(".jp-Dialog .jp-mod-accept")
        if dialog.count():
            dialog.first.click()
        if page.evaluate(HAS_KERNEL) and page.evaluate(KERNEL_IDLE):
            return
        time.sleep(0.3)
    raise TimeoutError(f"no idle kernel for {rel} after {timeout_ms / 1000:.0f} s")


def run_all(page, timeout_ms: int = 240_000) -> None:
    """Clear the saved outputs (so nothing old can pass for new), run every cell, wait for an idle kernel.

    JupyterLab's run-all command returns a promise that settles when the last cell has run; evaluate awaits it.
    """
    page.set_default_timeout(timeout_ms)
    page.evaluate("window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(KERNEL_IDLE, timeout=timeout_ms, polling=300)
