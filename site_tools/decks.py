"""The slides' own copies of the notebooks: the same code run with the presenter theme, for a projector.

A notebook's committed outputs are drawn in the classroom theme (14 pt graph labels, 15 px widget words) for a
screen read up close; on a 1280×720 slide they fall to about 10 px. So each deck is built from a copy of its
notebook executed with ``cl.set_theme("presenter")`` run first (``tools/run_notebooks.py --slides``), kept in
``site_tools/decks/`` (``site_tools/decks/fr/`` for the French twins): never under ``notebooks/``, which nbval runs,
and out of the students' way in JupyterLab's file browser.

The deck takes only the copy's *outputs* (and its saved widget state): its prose comes from the notebook, so a
markdown edit shows on the slides at once. A copy whose code cells differ from its notebook's is stale and is not
used (the deck falls back to the notebook's own outputs, and the build says which copy to re-make and how).

>>> nb = {"cells": [{"cell_type": "markdown", "source": "# T"}, {"cell_type": "code", "source": "1 + 1",
...       "outputs": [{"output_type": "stream", "text": "classroom"}]}], "metadata": {}}
>>> copy = {"cells": [{"cell_type": "code", "source": "1 + 1", "outputs": [{"output_type": "stream",
...         "text": "presenter"}]}], "metadata": {"widgets": {}}}
>>> deck, problem = for_slides(nb, copy)
>>> deck["cells"][1]["outputs"][0]["text"], problem
('presenter', '')
>>> stale(nb, {"cells": [{"cell_type": "code", "source": "1 + 2"}]})
'code cell 1 differs'
"""

from __future__ import annotations

import copy as copying
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
DECKS = ROOT / "site_tools" / "decks"
#: run before a copy's first cell (and left out of the copy written): every widget and graph after it is drawn in
#: the presenter theme
THEME_CELL = 'import course_lib as cl\n\ncl.set_theme("presenter")  # the slides\' copy: drawn for a projector'
#: written into a copy's metadata: what it is and how it was made
COPY_KEY = "course_deck"


def copy_path(notebook: Path, notebooks: Path = NOTEBOOKS, decks: Path = DECKS) -> Path:
    """Where the slides' copy of ``notebook`` lives: ``notebooks/fr/04_x.ipynb`` -> ``site_tools/decks/fr/04_x.ipynb``.

    >>> copy_path(NOTEBOOKS / "fr" / "04_x.ipynb").relative_to(ROOT).as_posix()
    'site_tools/decks/fr/04_x.ipynb'
    """
    return decks / notebook.resolve().relative_to(notebooks.resolve())


def code_of(nb: dict) -> list[str]:
    """The sources of the code cells, in order (a list joined, as nbformat may store it)."""
    return ["".join(c.get("source", "")) for c in nb.get("cells", []) if c.get("cell_type") == "code"]


def stale(nb: dict, copy: dict) -> str:
    """'' when ``copy`` has the code cells of ``nb``; else what differs (the first code cell that does, counted
    from 1, or the counts)."""
    mine, theirs = code_of(nb), code_of(copy)
    if len(mine) != len(theirs):
        return f"{len(theirs)} code cells, the notebook {len(mine)}"
    return next((f"code cell {k} differs" for k, (a, b) in enumerate(zip(mine, theirs, strict=True), 1) if a != b), "")


def for_slides(nb: dict, copy: dict) -> tuple[dict, str]:
    """(the notebook with the copy's outputs and widget state, '') or (``nb`` itself, why the copy is not used)."""
    problem = stale(nb, copy)
    if problem:
        return nb, problem
    deck = copying.deepcopy(nb)
    ran = iter([c for c in copy["cells"] if c.get("cell_type") == "code"])
    for cell in deck["cells"]:
        if cell.get("cell_type") == "code":
            done = next(ran)
            cell["outputs"] = copying.deepcopy(done.get("outputs", []))
            cell["execution_count"] = done.get("execution_count")
    deck.setdefault("metadata", {}).pop("widgets", None)
    if "widgets" in copy.get("metadata", {}):
        deck["metadata"]["widgets"] = copying.deepcopy(copy["metadata"]["widgets"])
    return deck, ""
