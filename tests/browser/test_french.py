"""The French edition in a real JupyterLab (issue 16): French notebooks run top to bottom with no error, and their
widgets speak French: the core widgets (steppers, the side-by-side, the expression and control-flow explorers) and
the lessons' own (session explorer in 02, compile explorer in 05, padding explorer in 06, tree and batching
explorers in 07): French words on buttons, sliders, badges, tables and counters, none of the English ones.
Screenshots: french-<notebook>-widget<k>.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .labdriver import Lab, open_notebook, run_all, wait_for_widget_views
from .test_notebooks import saved_widget_views

ROOT = Path(__file__).resolve().parents[2]
#: French notebook -> words its widgets must show (03's stepper and control-flow explorer are 01's and 04's kinds:
#: left out to keep the browser stage short)
FRENCH = {
    "notebooks/fr/01_graphs_are_dags.ipynb": ["Suivant ▶", "◀ Précédent", "étape 0 sur"],
    "notebooks/fr/04_side_by_side.ipynb": ["Suivant ▶", "◀ Précédent", "étape 0 sur", "DÉBUT"],
    "notebooks/fr/02_define_then_run_tensorflow.ipynb": ["demander", "alimenter x"],
    "notebooks/fr/05_the_cost_of_compiling.ipynb": ["ajouter un nœud, puis exécuter", "l'exécuter 100 fois"],
    "notebooks/fr/06_variable_length_sequences.ipynb": ["écart des longueurs", "compartiments"],
    "notebooks/fr/07_recursive_networks.ipynb": ["arbres dans le lot", "graine aléatoire"],
}
#: English words of the same widgets that must not be left in a French page
ENGLISH = ["Next ▶", "◀ Previous", "step 0 of", "nothing has happened yet", "START", "Problem:", "Note:", "ms per step",
           "add a node", "run it 100 times", "length spread", "buckets", "draw the sentence", "trees in the batch",
           "random seed", "loop steps", "feed x", "Define-then-run", "Define-by-run", "nodes", "the graph"]

#: a control's name cut short with an ellipsis ("ms par ét…"): French words are longer than the English ones
CLIPPED = """() => [...document.querySelectorAll('.jupyter-widgets .widget-label, .jupyter-widgets button')]
  .filter(el => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim())"""
WIDGET_TEXT = """() => [...document.querySelectorAll('.jp-OutputArea-output .jupyter-widgets')]
  .filter(el => !el.closest('.lm-mod-hidden')).map(el => el.innerText).join('\\n')"""


@pytest.mark.parametrize("rel", list(FRENCH))
def test_french_notebook_widgets_speak_french(rel, lab, page, artifacts):
    if not (ROOT / rel).exists():
        pytest.fail(f"{rel} is missing")
    open_notebook(page, lab, rel)
    run_all(page)
    wait_for_widget_views(page, saved_widget_views(ROOT / rel))
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']")
    assert errors.count() == 0, f"{rel}: {errors.first.inner_text()[:300]}"
    text = page.evaluate(WIDGET_TEXT)
    views = page.locator(".jp-OutputArea-output:has(> .jupyter-widgets)")
    for k in range(min(views.count(), 3)):
        views.nth(k).scroll_into_view_if_needed()
        views.nth(k).screenshot(path=str(artifacts / f"french-{Path(rel).stem}-widget{k + 1}.png"))
    missing = [w for w in FRENCH[rel] if w not in text]
    left = [w for w in ENGLISH if w in text]
    assert not missing, f"{rel}: French words missing from its widgets: {missing}"
    assert not left, f"{rel}: English left in its widgets: {left}"
    clipped = page.evaluate(CLIPPED)
    assert not clipped, f"{rel}: words cut short in their box: {clipped}"


#: JupyterLab's menu bar, as a student sees it.
MENUS = """() => [...document.querySelectorAll('.lm-MenuBar-itemLabel')].map(el => el.textContent.trim())"""


@pytest.fixture(scope="module")
def french_lab(tmp_path_factory: pytest.TempPathFactory):
    """A second JupyterLab with the French settings of ./course start --lang fr (its language pack chosen)."""
    server = Lab(ROOT, tmp_path_factory.mktemp("jupyterlab-fr"), french_menus=True)
    server.start()
    yield server
    server.stop()


def test_jupyterlab_menus_are_french_in_the_french_edition(french_lab, page, artifacts):
    """./course start --lang fr: JupyterLab's own menus are French too (its French language pack, pinned)."""
    open_notebook(page, french_lab, "notebooks/fr/00_start_here.ipynb")
    page.wait_for_function(f"() => ({MENUS})().includes('Fichier')", timeout=60_000)
    menus = page.evaluate(MENUS)
    page.screenshot(path=str(artifacts / "french-jupyterlab-menus.png"))
    assert {"Fichier", "Noyau"} <= set(menus) and not {"File", "Kernel"} & set(menus), menus
