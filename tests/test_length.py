"""Short beats complete: the markdown of each English notebook stays under a word limit, and the whole course under
another. The counts are printed (``pytest -s tests/test_length.py``) and named in any failure."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: Markdown words, at most, per notebook and for the whole English course.
PER_NOTEBOOK = 2400
COURSE = 18000


def markdown_words(path: Path) -> int:
    """Words (runs of non-blanks) in a notebook's markdown cells: prose, quotes, tables and exercise prompts."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(len("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown")


def counts(paths: list[Path]) -> dict[str, int]:
    return {p.name: markdown_words(p) for p in paths}


def table(words: dict[str, int]) -> str:
    lines = [f"{name:<45} {n:>6}" for name, n in words.items()]
    return "\n".join(lines + [f"{'whole course':<45} {sum(words.values()):>6}"])


def test_no_notebook_and_not_the_course_is_too_long() -> None:
    words = counts(NOTEBOOKS)
    print("\n" + table(words))
    over = {name: n for name, n in words.items() if n > PER_NOTEBOOK}
    assert not over and sum(words.values()) <= COURSE, (
        f"over {PER_NOTEBOOK} words per notebook or {COURSE} in all:\n{table(words)}")


def test_the_count_sees_a_long_notebook(tmp_path: Path) -> None:
    long = {"cells": [{"cell_type": "markdown", "source": ["word " * (PER_NOTEBOOK + 1)]},
                      {"cell_type": "code", "source": ["x = 1 " * 5000]}]}
    path = tmp_path / "long.ipynb"
    path.write_text(json.dumps(long))
    assert markdown_words(path) == PER_NOTEBOOK + 1  # code cells are not counted
