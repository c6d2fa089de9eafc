"""Every lesson opened in a real JupyterLab in headless Chromium and run top to bottom as a student would, once:
in French where its widgets have French words to check (FRENCH below), in English otherwise, so both editions run.

Fails on any error output, any "Error displaying widget", a widget view the notebook saved that did not render, or a
control's name cut short in its box; a French notebook also fails on a French word missing from its widgets or an
English one left in them (issue 16: steppers, the side-by-side, the explorers, the lessons' own widgets).

Why each lesson once and not once per edition: the notebook stage of ./course test (nbval) runs every cell of both
editions in a kernel and compares every output, and tests/test_fr_twins.py proves each French notebook is its English
twin's program (strings, comments and the language line aside). What the browser adds is JupyterLab's front end:
the live widgets of that program drawn by its widget manager. The French twin draws the same widgets from the same
code, in French, so its run checks what the English run would and the French words besides.
Screenshots: <notebook>.png and <notebook>-widget<k>.png (French: french-<notebook>...).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from .labdriver import open_notebook, run_all, wait_for_widget_views

ROOT = Path(__file__).resolve().parents[2]
#: lesson -> words its widgets must show in French (the core widgets, and 02's session explorer, 05's compile
#: explorer, 06's padding explorer, 07's tree and batching explorers); the other lessons run in English
FRENCH = {
    "01_graphs_are_dags": ["Suivant ▶", "◀ Précédent", "étape 0 sur"],
    "02_define_then_run_tensorflow": ["demander", "alimenter x"],
    "04_side_by_side": ["Suivant ▶", "◀ Précédent", "étape 0 sur", "DÉBUT"],
    "05_the_cost_of_compiling": ["ajouter un nœud, puis exécuter", "l'exécuter 100 fois"],
    "06_variable_length_sequences": ["écart des longueurs", "compartiments"],
    "07_recursive_networks": ["arbres dans le lot", "graine aléatoire"],
}
#: English words of the same widgets that must not be left in a French page
ENGLISH = ["Next ▶", "◀ Previous", "step 0 of", "nothing has happened yet", "START", "Problem:", "Note:", "ms per step",
           "add a node", "run it 100 times", "length spread", "buckets", "draw the sentence", "trees in the batch",
           "random seed", "loop steps", "feed x", "Define-then-run", "Define-by-run", "nodes", "the graph"]
LESSONS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
RUNS = [f"notebooks/fr/{stem}.ipynb" if stem in FRENCH else f"notebooks/{stem}.ipynb" for stem in LESSONS]

#: a control's name cut short with an ellipsis ("ms par ét…"): French words are longer than the English ones
CLIPPED = """() => [...document.querySelectorAll('.jupyter-widgets .widget-label, .jupyter-widgets button')]
  .filter(el => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim())"""
WIDGET_TEXT = """() => [...document.querySelectorAll('.jp-OutputArea-output .jupyter-widgets')]
  .filter(el => !el.closest('.lm-mod-hidden')).map(el => el.innerText).join('\\n')"""


def saved_widget_views(path: Path) -> int:
    """How many widget views the committed notebook displays (outputs of type widget-view)."""
    nb = json.loads(path.read_text())
    return sum(1 for c in nb["cells"] for o in c.get("outputs", [])
               if "application/vnd.jupyter.widget-view+json" in o.get("data", {}))


def test_each_lesson_runs_once_and_every_french_word_list_names_a_lesson():
    assert len(RUNS) == len(LESSONS) >= 9 and set(FRENCH) <= set(LESSONS)
    assert all((ROOT / rel).exists() for rel in RUNS), [rel for rel in RUNS if not (ROOT / rel).exists()]


@pytest.mark.parametrize("rel", RUNS)
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
    french = rel.startswith("notebooks/fr/")
    name = ("french-" if french else "") + Path(rel).stem
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=False)
    for k in range(min(rendered, 4)):  # what a student sees of each live widget
        views.nth(k).scroll_into_view_if_needed()
        views.nth(k).screenshot(path=str(artifacts / f"{name}-widget{k + 1}.png"), animations="disabled")
    print(f"{rel}: ran in {seconds:.1f} s, {rendered} widget views rendered (notebook saved {expected})")
    assert not error_text, f"{rel}: error outputs in the browser: {error_text}"
    assert broken == 0, f"{rel}: {broken} 'Error displaying widget' in the browser"
    assert broken_views == 0, f"{rel}: {broken_views} widget views failed to render (the error widget is shown)"
    assert rendered - broken_views >= expected, \
        f"{rel}: only {rendered - broken_views} of the {expected} widget views the notebook saved rendered"
    clipped = page.evaluate(CLIPPED)
    assert not clipped, f"{rel}: words cut short in their box: {clipped}"
    if french:
        text = page.evaluate(WIDGET_TEXT)
        missing = [w for w in FRENCH[Path(rel).stem] if w not in text]
        left = [w for w in ENGLISH if w in text]
        assert not missing, f"{rel}: French words missing from its widgets: {missing}"
        assert not left, f"{rel}: English left in its widgets: {left}"
