"""Presenting in class: ``cl.set_theme`` and ``cl.present()`` as the notebooks reach them (``import course_lib as
cl``), quiet return values, and menu labels that are those of the installed JupyterLab."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import course_lib as cl
from course_lib import render
from course_lib.i18n import message_of
from course_lib.render import theme


@pytest.fixture(autouse=True)
def _classroom_after():
    yield
    render.set_theme("classroom")


def test_set_theme_is_reachable_from_cl_and_returns_nothing() -> None:
    assert cl.set_theme("presenter") is None and render.set_theme("presenter") is None
    big = render.get_theme().fontsize
    cl.set_theme("classroom")
    assert render.get_theme().fontsize < big
    with pytest.raises(ValueError) as info:
        cl.set_theme("disco")
    assert message_of(info.value).msgid is theme.UNKNOWN_THEME and message_of(info.value).values["theme"] == "disco"


def test_present_sets_the_presenter_theme_and_says_what_to_click(capsys) -> None:
    assert cl.present() is None
    assert render.get_theme() is render.get_theme("presenter")
    out = capsys.readouterr().out
    for step in cl.PRESENT_STEPS:
        assert step in out
    assert "cl.set_theme('classroom')" in out


def test_the_menu_items_named_exist_in_the_installed_jupyterlab() -> None:
    static = Path(sys.prefix) / "share" / "jupyter" / "lab" / "static"
    bundles = sorted(static.glob("jlab_core*.js"))
    if not bundles:
        pytest.skip("JupyterLab's static files are not installed in this environment")
    text = "".join(b.read_text(encoding="utf-8", errors="replace") for b in bundles)
    named = {m for step in cl.PRESENT_STEPS for m in re.findall(r"Appearance → ([A-Z][A-Za-z ]+?)(?: \(|:)", step)}
    assert named == {"Presentation Mode", "Simple Interface", "Show Left Sidebar"}
    for label in named:
        assert f'"{label}"' in text, \
            f"JupyterLab has no menu item labelled {label!r}: update PRESENT_STEPS and the README"


ONE_LINE = "import course_lib as cl; cl.present()"
ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_and_both_start_pages_give_the_same_one_line_call() -> None:
    """Wherever an instructor reads how to present, the call is one line that imports what it needs (a bare
    cl.present() as a notebook's first cell stopped Run All with a NameError: the import came in the next cell)."""
    import nbformat

    assert f"`{ONE_LINE}`" in (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("notebooks/00_start_here.ipynb", "notebooks/fr/00_start_here.ipynb"):
        prose = "".join(c.source for c in nbformat.read(ROOT / page, as_version=4).cells if c.cell_type == "markdown")
        assert f"`{ONE_LINE}`" in prose, page
        assert "**`cl.present()`**" not in prose, page  # the bare call, which fails as a first cell


def test_the_one_line_call_runs_as_a_notebooks_first_cell_and_run_all_goes_on(tmp_path) -> None:
    """In a real kernel: the call first, then the notebook's own first cell (the French one, which sets the
    language); the theme is the presenter's when the notebook's cells run."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(ROOT / "notebooks" / "fr" / "01_graphs_are_dags.ipynb", as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code")
    probe = "from course_lib import render\nprint(render.get_theme().name)"
    nb.cells = [nbformat.v4.new_code_cell(ONE_LINE), first, nbformat.v4.new_code_cell(probe)]
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}
                   ).execute()
    assert "Presenter theme on" in "".join(o.get("text", "") for o in nb.cells[0].outputs)
    assert "".join(o.get("text", "") for o in nb.cells[2].outputs).strip() == "presenter"
