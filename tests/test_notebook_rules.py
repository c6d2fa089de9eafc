"""House rules for the committed notebooks (tests/README.md), checked without a kernel.

nbval (strict) re-runs the notebooks and compares outputs; these checks catch what it cannot see: a notebook
committed without outputs or from an out-of-order session, an over-long cell, a marker that silently weakens
the comparison, an expected error nobody asserts, a notebook missing from the course map.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
MAX_CELL_LINES = 15
#: NBVAL_IGNORE_OUTPUT is for timing cells only; their source says so with one of these words.
TIMING_WORDS = ("time", "measure", "bench", "perf_counter", "median", "speed", "µs", "latency")


def markers(source: str) -> set[str]:
    """nbval comment markers of a cell (a comment line that is exactly the marker, as nbval reads them)."""
    return {line.strip().lstrip("#").strip() for line in source.splitlines() if line.strip().startswith("#")}


def code_cells(path: Path) -> list:
    return [cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]


def test_there_are_notebooks_and_the_start_page_is_first() -> None:
    assert PATHS and PATHS[0].name == "00_start_here.ipynb"


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_name_is_numbered(path: Path) -> None:
    assert re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", path.name), "notebooks are named NN_topic.ipynb"


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_committed_from_a_clean_run_all(path: Path) -> None:
    """Execution counts 1, 2, 3... in page order: one Restart & Run All (tools/run_notebooks.py), nothing skipped."""
    counts = [cell.execution_count for cell in code_cells(path) if cell.source.strip()]
    rerun = f".venv/bin/python tools/run_notebooks.py notebooks/{path.name}"
    assert counts == list(range(1, len(counts) + 1)), f"execution counts {counts}: re-run it with {rerun}"


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_code_cells_are_short(path: Path) -> None:
    long_cells = [i for i, cell in enumerate(code_cells(path)) if len(cell.source.splitlines()) > MAX_CELL_LINES]
    assert not long_cells, f"code cells {long_cells} exceed {MAX_CELL_LINES} lines: move the logic into course_lib"


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_markers_keep_the_comparison_strict(path: Path) -> None:
    cells = code_cells(path)
    for i, cell in enumerate(cells):
        found = markers(cell.source)
        assert "NBVAL_CHECK_OUTPUT" not in found, f"cell {i}: NBVAL_CHECK_OUTPUT is a --nbval-lax marker; CI is strict"
        if "NBVAL_IGNORE_OUTPUT" in found:
            assert any(word in cell.source.lower() for word in TIMING_WORDS), (
                f"cell {i}: NBVAL_IGNORE_OUTPUT is only for timing cells; make the output deterministic instead"
            )
        raises = "NBVAL_RAISES_EXCEPTION" in found or "raises-exception" in cell.metadata.get("tags", [])
        errors = [out for out in cell.get("outputs", []) if out.output_type == "error"]
        if not raises:
            assert not errors, f"cell {i} has an error output but no # NBVAL_RAISES_EXCEPTION marker"
            continue
        assert "raises-exception" in cell.metadata.get("tags", []), (
            f"cell {i}: tag it 'raises-exception' so JupyterLab's Run All goes on (tools/run_notebooks.py adds it)"
        )
        assert errors, f"cell {i} is marked to raise but its committed output has no error"
        following = cells[i + 1].source if i + 1 < len(cells) else ""
        assert "assert" in following, (
            f"cell {i} raises on purpose: the next code cell must assert the message, e.g. "
            "assert 'x' in str(sys.last_value)"
        )


def test_course_map_links_every_notebook() -> None:
    start = nbformat.read(NOTEBOOKS / "00_start_here.ipynb", as_version=4)
    text = "\n".join(cell.source for cell in start.cells if cell.cell_type == "markdown")
    linked = set(re.findall(r"\]\((\d\d_[a-z0-9_]+\.ipynb)\)", text))
    missing = [path.name for path in PATHS if path.name not in linked]
    assert not missing, f"add these notebooks to the course map in 00_start_here.ipynb: {missing}"


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_intended_errors_use_the_problem_style(path: Path) -> None:
    """An error a cell provokes on purpose is shown by ``quiet.error_of`` (two lines, the traceback folded), never
    as a raw traceback: a framework's traceback is a wall of internals (issue 13)."""
    raw = [i for i, cell in enumerate(code_cells(path))
           if any(out.get("output_type") == "error" for out in cell.get("outputs", []))]
    assert not raw, f"code cells {raw} show a raw traceback: call quiet.error_of(fn, *args) and show its summary"
