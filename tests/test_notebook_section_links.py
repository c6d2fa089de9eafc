"""Notebooks 03 and 04 point at their own sections: every `(#anchor)` link must land on a heading, and every row of
04's "easy or hard" table must point at a section that demonstrates it with code (read from the .ipynb, no kernel).

JupyterLab gives a heading the anchor of its text with spaces replaced by "-" (``## 2. Intermediate values`` ->
``#2.-Intermediate-values``), in the heading's ``data-jupyter-id``; that is the rule checked here.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
MINE = ["03_define_by_run_pytorch.ipynb", "04_side_by_side.ipynb"]
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


@pytest.mark.parametrize("name", MINE)
def test_every_internal_link_lands_on_a_heading(name: str) -> None:
    path = NOTEBOOKS / name
    if not path.exists():
        pytest.skip(f"{name} not written yet")
    targets = {a for a, _ in sections(path)}
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    links = LINK.findall(text)
    assert links, "the notebook should link to its own sections"
    broken = sorted({link for link in links if link not in targets})
    assert not broken, f"{name}: links with no heading of that anchor: {broken}; headings: {sorted(targets)}"


def test_every_row_of_the_easy_or_hard_table_points_at_code_that_shows_it() -> None:
    path = NOTEBOOKS / "04_side_by_side.ipynb"
    if not path.exists():
        pytest.skip("04 not written yet")
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
