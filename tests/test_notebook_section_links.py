"""Links inside a notebook to its own sections: every `(#anchor)` link in any notebook must land on a heading; the
notebooks with a table of contents (03, 04) must have such links; and every row of 04's "easy or hard" table must
point at a section that demonstrates it with code. Read from the .ipynb files, no kernel.

JupyterLab gives a heading the anchor of its text with spaces replaced by "-" (``## 2. Intermediate values`` ->
``#2.-Intermediate-values``), in the heading's ``data-jupyter-id``; that is the rule checked here.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
# The course's notebooks only: JupyterLab's autosaved copies (.ipynb_checkpoints, left by the browser tests) are not.
PATHS = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
#: Notebooks whose prose links to their own sections (a table of contents, a table of topics).
WITH_CONTENTS = ["03_define_by_run_pytorch.ipynb", "04_side_by_side.ipynb"]
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$")
LINK = re.compile(r"\]\(#([^)\s]+)\)")


def anchor(text: str) -> str:
    return text.strip().replace(" ", "-")


def sections(path: Path) -> list[tuple[str, list]]:
    """(anchor, cells under that heading until the next heading of the same or a higher level)."""
    cells = nbformat.read(path, as_version=4).cells
    heads = []
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            m = HEADING.match(line)
            if m:
                heads.append((i, len(m.group(1)), anchor(m.group(2))))
    out = []
    for k, (i, level, name) in enumerate(heads):
        end = next((j for j, lvl, _ in heads[k + 1:] if lvl <= level and j > i), len(cells))
        out.append((name, cells[i:end]))
    return out


def internal_links(path: Path) -> list[str]:
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    return LINK.findall(text)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_every_internal_link_lands_on_a_heading(path: Path) -> None:
    targets = {a for a, _ in sections(path)}
    broken = sorted({link for link in internal_links(path) if link not in targets})
    assert not broken, f"{path.name}: links with no heading of that anchor: {broken}; headings: {sorted(targets)}"


@pytest.mark.parametrize("name", WITH_CONTENTS)
def test_notebooks_with_contents_link_to_their_sections(name: str) -> None:
    # a missing or renamed notebook fails here (it is listed on purpose), instead of being skipped
    assert (NOTEBOOKS / name).exists(), f"{name} is gone: update WITH_CONTENTS"
    assert internal_links(NOTEBOOKS / name), f"{name} should link to its own sections"


def test_every_row_of_the_easy_or_hard_table_points_at_code_that_shows_it() -> None:
    path = NOTEBOOKS / "04_side_by_side.ipynb"
    secs = dict(sections(path))
    table_section = next(cells for a, cells in secs.items() if "easy-or-hard" in a)
    rows = [line for c in table_section if c.cell_type == "markdown" for line in c.source.splitlines()
            if line.startswith("|") and not set(line) <= set("|- ")]
    body = rows[1:]  # the first row is the header
    assert len(body) >= 5, "intermediate values, debugging, control flow, optimisation, deployment at least"
    for row in body:
        links = LINK.findall(row)
        assert links, f"table row without a link to the cell that shows it: {row[:60]}"
        for link in links:
            assert link in secs, f"row links to #{link}, which is no heading"
            assert any(c.cell_type == "code" for c in secs[link]), f"section #{link} has no code cell"
    for topic in ("intermediate", "debug", "control flow", "optimis", "deploy"):
        assert any(topic in row.lower() for row in body), f"the table has no row about {topic}"
