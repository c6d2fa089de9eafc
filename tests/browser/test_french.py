"""The French edition in a real JupyterLab (issue 16): JupyterLab's own menus are French with the settings of
./course start --lang fr. The French notebooks themselves run in the browser in test_notebooks.py (each lesson once,
in French where its widgets have words to check: French words on buttons, sliders, badges, tables and counters, none
of the English ones, none cut short).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .labdriver import Lab, open_notebook

ROOT = Path(__file__).resolve().parents[2]


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
