"""Every notebook, opened in a real JupyterLab in headless Chromium and run top to bottom as a student would.

Fails on any error output, any "Error displaying widget", or a widget view the notebook saved that did not render.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from .labdriver import open_notebook, run_all, wait_for_widget_views

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("*.ipynb"))


def saved_widget_views(path: Path) -> int:
    """How many widget views the committed notebook displays (outputs of type widget-view)."""
    nb = json.loads(path.read_text())
    return sum(1 for c in nb["cells"] for o in c.get("outputs", [])
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {}))


@pytest.mark.parametrize("rel", NOTEBOOKS)
def test_notebook_runs_in_the_browser_without_errors(rel, lab, page, artifacts):
    t0 = time.monotonic()
    open_notebook(page, lab, rel)
    run_all(page)
    seconds = time.monotonic() - t0
    expected = saved_widget_views(ROOT / rel)
    wait_for_widget_views(page, expected)  # run-all settles before the last views attach
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error'], "
                          ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']")
    error_text = [errors.nth(k).inner_text()[:300] for k in range(min(errors.count(), 3))]
    broken = page.get_by_text("Error displaying widget").count()
    views = page.locator(".jp-OutputArea-output:has(> .jupyter-widgets)")
    failed = page.locator(".jupyter-widgets-error-widget")  # what ipywidgets shows when a view cannot render
    rendered, broken_views = views.count(), failed.count()
    name = Path(rel).stem
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=False)
    for k in range(min(rendered, 4)):  # what a student sees of each live widget
        views.nth(k).scroll_into_view_if_needed()
        views.nth(k).screenshot(path=str(artifacts / f"{name}-widget{k + 1}.png"))
    print(f"{rel}: ran in {seconds:.1f} s, {rendered} widget views rendered (notebook saved {expected})")
    assert not error_text, f"{rel}: error outputs in the browser: {error_text}"
    assert broken == 0, f"{rel}: {broken} 'Error displaying widget' in the browser"
    assert broken_views == 0, f"{rel}: {broken_views} widget views failed to render (the error widget is shown)"
    assert rendered - broken_views >= expected, \
        f"{rel}: only {rendered - broken_views} of the {expected} widget views the notebook saved rendered"
