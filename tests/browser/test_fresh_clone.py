"""A fresh clone, opened in JupyterLab before anything runs, shows its saved graphs drawn and its widgets live.

The committed notebooks are copied into a temporary folder, and JupyterLab gets a new, empty Jupyter data folder:
no trust database, as on a machine that never ran Jupyter. The trust step is the one ``./course start`` applies
(``tools/trust_notebooks.py``, which runs ``jupyter trust``). Then one notebook is opened, never run, and every
graph it saved must be drawn as SVG, not shown as its text fallback; every widget view it saved must render from the
widget state saved in the notebook's metadata, with no "Error displaying widget".
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .labdriver import Lab, open_notebook, wait_for_widget_views

ROOT = Path(__file__).resolve().parents[2]
TRUST_SCRIPT = ROOT / "tools" / "trust_notebooks.py"
NOTEBOOK = "03_define_by_run_pytorch.ipynb"  # six saved graphs and two saved widget views

# In the page: the saved SVG outputs JupyterLab drew (it draws an SVG as an <img> with a data: URL, only when the
# output is trusted), and the outputs that show instead the text fallback of a saved graph or widget (the argument:
# those texts, read from the notebook), or JupyterLab's note for an untrusted SVG.
SHOWN = """(fallbacks) => {
  const drawn = [...document.querySelectorAll('.jp-OutputArea-output[data-mime-type="image/svg+xml"] img')]
    .filter(img => img.complete && img.naturalWidth > 0 && img.src.startsWith('data:image/svg+xml')).length;
  const asText = [...document.querySelectorAll('.jp-OutputArea-output')]
    .map(e => e.innerText.trim())
    .filter(t => fallbacks.includes(t) || t.includes('Cannot display an untrusted SVG'))
    .map(t => t.slice(0, 120));
  return {drawn, asText};
}"""


def text_fallbacks(path: Path) -> list[str]:
    """The text/plain of every saved graph and widget view: what JupyterLab shows when it may not draw them."""
    nb = json.loads(path.read_text())
    texts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if ("image/svg+xml" in data or "application/vnd.jupyter.widget-view+json" in data) and "text/plain" in data:
                plain = data["text/plain"]
                texts.append(("".join(plain) if isinstance(plain, list) else plain).strip())
    return texts


def saved_outputs(path: Path, mime: str) -> int:
    nb = json.loads(path.read_text())
    return sum(1 for c in nb["cells"] for o in c.get("outputs", []) if mime in o.get("data", {}))


def test_course_start_applies_this_trust_step():
    """The test below checks the real step: ./course start runs the same script before opening JupyterLab."""
    script = (ROOT / "course").read_text()
    start = re.search(r"\ncmd_start\(\) \{\n(.*?)\n\}", script, re.DOTALL)
    assert start and "trust_notebooks" in start.group(1), "./course start no longer calls trust_notebooks"
    assert "tools/trust_notebooks.py notebooks" in script, "./course's trust_notebooks no longer runs the script"


@pytest.fixture
def fresh_clone_lab(tmp_path: Path):
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "notebooks", clone / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    home = tmp_path / "jupyterlab-home"
    data = home / "data"  # the JUPYTER_DATA_DIR Lab gives the server: new and empty, so no trust database
    assert not (data / "nbsignatures.db").exists()
    env = {"JUPYTER_DATA_DIR": str(data), "JUPYTER_CONFIG_DIR": str(home / "config")}
    done = subprocess.run([sys.executable, str(TRUST_SCRIPT), str(clone / "notebooks")], capture_output=True,
                          text=True, check=False, env={**os.environ, **env})
    print(f"trust step: exit {done.returncode}; {(done.stdout + done.stderr).strip() or 'quiet'}")
    server = Lab(clone, home)
    server.start()
    try:
        yield server, done
    finally:
        server.stop()


def test_fresh_clone_shows_saved_graphs_and_widgets_without_running(fresh_clone_lab, page, artifacts):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    lab, trust_run = fresh_clone_lab
    saved = ROOT / "notebooks" / NOTEBOOK
    graphs = saved_outputs(saved, "image/svg+xml")
    widgets = saved_outputs(saved, "application/vnd.jupyter.widget-view+json")
    assert graphs >= 2, f"{NOTEBOOK} no longer saves graphs: pick another notebook for this test"

    open_notebook(page, lab, f"notebooks/{NOTEBOOK}")  # a kernel starts, as for a student; no cell runs
    fallbacks = text_fallbacks(saved)
    done = f"(f) => {{ const s = ({SHOWN})(f); return s.drawn >= {graphs} || s.asText.length > 0; }}"
    try:
        page.wait_for_function(done, arg=fallbacks, timeout=30_000, polling=300)
    except PlaywrightTimeout:
        pass  # the assertions below report what the page shows
    views = wait_for_widget_views(page, widgets)
    shown = page.evaluate(SHOWN, fallbacks)
    broken = page.get_by_text("Error displaying widget").count()
    prompts = page.locator(".jp-InputArea-prompt").all_inner_texts()
    page.screenshot(path=str(artifacts / "fresh-clone.png"), full_page=False)
    first = page.locator('.jp-OutputArea-output[data-mime-type="image/svg+xml"], '
                         '.jp-OutputArea-output:has(> .jupyter-widgets)').first
    if first.count():  # what a student sees of the first saved graph (or widget), before running anything
        first.scroll_into_view_if_needed()
        first.screenshot(path=str(artifacts / "fresh-clone-first-output.png"), animations="disabled")
    print(f"{NOTEBOOK} opened without running: {shown['drawn']} of {graphs} saved graphs drawn as SVG, "
          f"{views['rendered']} of {widgets} saved widget views rendered, {views['failed']} failed; "
          f"text shown instead: {shown['asText']}")

    assert not any("*" in p for p in prompts), "a cell ran: the test must open the notebook without running it"
    assert trust_run.returncode == 0, f"the trust step failed: {trust_run.stdout}{trust_run.stderr}"
    assert not shown["asText"], (
        f"{NOTEBOOK} of a fresh clone shows saved outputs as text, not drawn (is the notebook trusted?): "
        f"{shown['asText']}")
    assert shown["drawn"] >= graphs, f"only {shown['drawn']} of the {graphs} saved graphs were drawn as SVG"
    assert broken == 0 and views["failed"] == 0, \
        f"{broken} 'Error displaying widget' / {views['failed']} widget error views after opening without running"
    assert views["rendered"] >= widgets, \
        f"only {views['rendered']} of the {widgets} saved widget views rendered from the notebook's saved state"
