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


# --- the instructor's setup, and what a widget shows on it ------------------------------------------------------

#: a classroom projector and a common laptop
SCREENS = {"projector": {"width": 1280, "height": 720}, "laptop": {"width": 1366, "height": 768}}
#: how the README and the start page say to present: the notebook's first cell (tests/test_present.py checks both
#: say this very line)
PRESENT_LINE = "import course_lib as cl; cl.present()"
#: issue 26's targets: graph labels on the projector (one graph or one focused graph / both graphs shown), the
#: widget's words on the projector, graph labels on the laptop (classroom theme)
MIN_LABEL_ONE, MIN_LABEL_TWO, MIN_WORDS, MIN_LABEL_LAPTOP = 24, 20, 20, 12


def present_screen(page) -> None:
    """The projector's JupyterLab: Presentation Mode on and the left side bar hidden, as cl.present() says."""
    for command in ("application:toggle-presentation-mode", "application:toggle-left-area"):
        page.evaluate(f"window.jupyterapp.commands.execute('{command}')")


# Every label line of every box inside ``root`` (the page when null) against the box's outline: an ellipse by its
# equation, a parallelogram by its slanted sides, a rounded box (the presenter theme's stadium) by its round ends,
# any other shape by its bounding box; returns the lines that spill.
LABEL_SPILLS = """(root) => {
  const out = [];
  const pad = 0.5;  // SVG units of tolerance: anti-aliasing, not a visible overlap
  for (const g of (root || document).querySelectorAll('g.node')) {
    if (!g.getClientRects().length) continue;  // not drawn (a hidden pane): nothing to see cross
    const shape = g.querySelector('ellipse, polygon, rect, path');
    for (const t of g.querySelectorAll('text')) {
      const b = t.getBBox();
      const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]];
      let bad = false;
      if (shape.tagName === 'ellipse') {
        const cx = +shape.getAttribute('cx'), cy = +shape.getAttribute('cy');
        const rx = +shape.getAttribute('rx') + pad, ry = +shape.getAttribute('ry') + pad;
        // the glyphs' ink, not the line box: a line box is taller than its letters by about a third
        const inset = b.height * 0.15;
        const inkY = y => Math.min(Math.max(y, b.y + inset), b.y + b.height - inset);
        bad = corners.some(([x, y]) => ((x - cx) / rx) ** 2 + ((inkY(y) - cy) / ry) ** 2 > 1);
      } else if (shape.tagName === 'polygon') {
        const p = shape.getAttribute('points').trim().split(/\\s+/).map(s => s.split(',').map(Number));
        // parallelogram (top-left, top-right, bottom-right, bottom-left): x limits at a height y
        const [tl, tr, br, bl] = p;
        const left = y => bl[0] + (tl[0] - bl[0]) * (bl[1] - y) / (bl[1] - tl[1]);
        const right = y => br[0] + (tr[0] - br[0]) * (br[1] - y) / (br[1] - tr[1]);
        const inset = b.height * 0.15;
        for (const y of [b.y + inset, b.y + b.height - inset]) {
          if (b.x < left(y) - pad || b.x + b.width > right(y) + pad) bad = true;
        }
      } else if (shape.tagName === 'rect' && +shape.getAttribute('rx') > 0) {
        // a rounded box (the presenter theme's stadium: ends of radius height/2): inside the box, and inside the
        // corner's circle where the ink's corner lies in a corner's square
        const x0 = +shape.getAttribute('x'), y0 = +shape.getAttribute('y');
        const w = +shape.getAttribute('width'), h = +shape.getAttribute('height');
        const r = Math.min(+shape.getAttribute('rx'), w / 2, h / 2);
        const inset = b.height * 0.15;
        const ink = [[b.x, b.y + inset], [b.x + b.width, b.y + inset], [b.x, b.y + b.height - inset],
                     [b.x + b.width, b.y + b.height - inset]];
        bad = ink.some(([x, y]) => {
          if (x < x0 - pad || x > x0 + w + pad || y < y0 - pad || y > y0 + h + pad) return true;
          const cx = Math.min(Math.max(x, x0 + r), x0 + w - r), cy = Math.min(Math.max(y, y0 + r), y0 + h - r);
          return Math.hypot(x - cx, y - cy) > r + pad;
        });
      } else {
        const s = shape.getBBox();
        bad = b.x < s.x - pad || b.x + b.width > s.x + s.width + pad;
      }
      if (bad) out.push({svg: g.closest('svg').id, box: g.getAttribute('data-id'), text: t.textContent});
    }
  }
  return out;
}"""

# Widget view k of the page (the k-th output holding a live widget) scrolled to the top of the notebook, then what
# the screen shows of it: every picture drawn (its box), every graph among them (pictures with labels: smallest and
# median label px on screen; a focus control's thumbnails apart, class course-thumbnail), the main control (by
# its name, else the first control), the words outside the pictures (px), names cut short, label lines crossing
# their shapes, and every box inside the widget's output that scrolls sideways (a scrollbar of its own) with what
# sticks out of it and by how many px; the page's own scrollers too.
MEASURE_WIDGET = """([k, control]) => {
  const out = [...document.querySelectorAll('.jp-OutputArea-output:has(> .jupyter-widgets)')][k];
  const cell = out.closest('.jp-CodeCell');
  const source = cell ? (cell.querySelector('.jp-InputArea-editor .cm-content') || {}).innerText || '' : '';
  out.scrollIntoView({block: 'start'});
  const vh = window.innerHeight, vw = window.innerWidth;
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  const bounds = (g) => ({top: g.top, bottom: g.bottom, left: g.left, right: g.right});
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b), n = s.length;
    return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : null;
  };
  const name = (el) => el.tagName.toLowerCase()
    + [...el.classList].filter(c => /^(widget|course|jupyter|jp-|lm-)/.test(c)).slice(0, 3).map(c => '.' + c).join('')
    + (el.innerText ? ' "' + el.innerText.trim().slice(0, 30) + '"' : '');
  const pictures = [...out.querySelectorAll('svg[role=img][id]')]
    .filter(s => shown(s) && !s.id.startsWith('course-legend'));
  const measured = pictures.map(s => {
      const px = [...s.querySelectorAll('g.node text')].filter(shown).map(t => {
        const m = t.getScreenCTM();
        return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      });
      return {id: s.id, ...box(s), labels: px.length, min: px.length ? Math.min(...px) : null, median: median(px),
              px, thumbnail: !!s.closest('.course-thumbnail')};
    });
  // the graphs a class reads: pictures with labels, not the small copies a focus control keeps beside its choice
  const graphs = measured.filter(g => g.labels > 0 && !g.thumbnail);
  const thumbnails = measured.filter(g => g.labels > 0 && g.thumbnail);
  const labelMedian = median(graphs.flatMap(g => g.px));
  measured.forEach(g => delete g.px);
  const controls = [...out.querySelectorAll('button, input, select, textarea, .widget-slider')].filter(shown);
  const main = control ? controls.find(b => (b.innerText || '').trim() === control) : controls[0];
  const words = [...out.querySelectorAll('*')].filter(el => shown(el) && !el.closest('svg')
      && [...el.childNodes].some(c => c.nodeType === 3 && c.textContent.trim()))
    .map(el => [parseFloat(getComputedStyle(el).fontSize), el.textContent.trim().slice(0, 40),
                !!el.closest('[class*="course-ui-"]')]);
  words.sort((a, b) => a[0] - b[0]);
  const clipped = [...out.querySelectorAll('.widget-label, .jupyter-widget-label, button, select')]
    .filter(el => shown(el) && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim());
  // a scrollbar of its own: a box that scrolls sideways (overflow-x auto or scroll) and has more than its width;
  // named with the outermost elements that stick out of it
  const scrolls = [out, ...out.querySelectorAll('*')].filter(el => shown(el) && !el.closest('svg')
      && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
    .map(el => {
      const edge = el.getBoundingClientRect().left + el.clientLeft + el.clientWidth;
      const over = (e) => e.getBoundingClientRect().right > edge + 0.5;
      const by = [...el.querySelectorAll('*')].filter(e => shown(e) && over(e) && !(e.parentElement !== el
          && over(e.parentElement) && el.contains(e.parentElement))).slice(0, 3)
        .map(e => [name(e), Math.round((e.getBoundingClientRect().right - edge) * 10) / 10]);
      return {box: name(el), over: el.scrollWidth - el.clientWidth, by};
    });
  const pageScrollers = [document.scrollingElement,
                         ...document.querySelectorAll('.jp-WindowedPanel-outer, .jp-NotebookPanel-notebook')];
  const hscroll = pageScrollers.filter(e => e && e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.tagName);
  return {vh, vw, source, control: main ? box(main) : null, pictures: measured.filter(g => !g.thumbnail).map(bounds),
          graphs, thumbnails, labelMedian, words: words.slice(0, 3),
          courseWords: words.filter(w => w[2]).slice(0, 3), clipped, scrolls, hscroll,
          spills: (""" + LABEL_SPILLS + """)(out)};
}"""


def measure_widget(page, k: int, control: str | None = None) -> dict[str, Any]:
    """What the screen shows of widget view ``k`` scrolled to the top (MEASURE_WIDGET), with the summary the
    targets read: ``shown`` graphs, ``min_label`` and ``median_label`` (px, over every label of the graphs shown;
    None without a graph) and ``min_words`` (px, the course widget's words; None for a widget that is not the
    course's, whose smallest words are ``any_words``)."""
    m = page.evaluate(MEASURE_WIDGET, [k, control])
    m["shown"] = len(m["graphs"])
    m["min_label"] = min((g["min"] for g in m["graphs"]), default=None)
    m["median_label"] = m["labelMedian"]
    m["min_words"] = m["courseWords"][0][0] if m["courseWords"] else None
    m["any_words"] = m["words"][0][0] if m["words"] else None
    return m


def label_target(shown: int) -> int:
    """The smallest graph label (px) a projector must show: 24 with one graph, 20 with both graphs shown."""
    return MIN_LABEL_ONE if shown <= 1 else MIN_LABEL_TWO


def fit_problems(m: dict[str, Any], in_view: int | None = None) -> list[str]:
    """What keeps a widget from being seen whole on the screen, in words (empty: it fits): its main control and
    its first ``in_view`` pictures (all when None; a focus control's thumbnails apart) inside the viewport, no
    horizontal scrollbar on the page."""
    problems = []
    if m["control"] is None:
        problems.append("no control found")
    elif not (0 <= m["control"]["top"] and m["control"]["bottom"] <= m["vh"]):
        problems.append(f"control off screen: {m['control']}")
    if not m["pictures"]:
        problems.append("no graph shown")
    for g in m["pictures"][:in_view]:
        if not (g["top"] >= 0 and g["bottom"] <= m["vh"] + 1):
            problems.append(f"graph not inside the viewport: {_rounded(g)}")
        if g["right"] > m["vw"] + 1:
            problems.append(f"graph wider than the viewport: {_rounded(g)}")
    if m["hscroll"]:
        problems.append(f"horizontal scrollbar on {m['hscroll']}")
    return problems


def _rounded(box: dict[str, Any]) -> dict[str, int]:
    return {k: round(box[k]) for k in ("top", "bottom", "left", "right")}
