"""Every number and verdict earned (course_lib/lessons/prose.py, claims.py): the rules over the committed notebooks,
and each rule planted with a violation, which it must report.

- No measured figure typed into markdown (a time or a speed-up outside the Q&A's words, 2017 figures, running-time
  notes and exercise data): the cell that measured prints it.
- Quotation marks only around the Q&A's exact words.
- Each Verdict row names its claim and gives the ledger's status; each claim has its row in its notebook.
- Every notebook opens with the same attribution; Answer 3's references are listed once, on the start page.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course_lib.lessons import claims, prose

ROOT = Path(__file__).resolve().parent.parent
QA = (ROOT / "qa" / "qa-en.txt").read_text(encoding="utf-8")
PATHS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source(cell: dict) -> str:
    src = cell["source"]
    return "".join(src) if isinstance(src, list) else src


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_prose_has_no_typed_figures_and_only_verbatim_quotes(path: Path) -> None:
    assert prose.notebook_problems(str(path), QA) == []


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_verdicts_are_the_ledgers(path: Path) -> None:
    assert claims.verdict_problems(path) == []


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.name)
def test_every_notebook_opens_with_the_attribution(path: Path) -> None:
    first = cells(path)[:2]
    assert first[0]["cell_type"] == "markdown" and source(first[0]).startswith("# ")
    assert source(first[1]) == claims.ATTRIBUTION, "copy claims.ATTRIBUTION into the cell after the title"


def test_attribution_names_the_question_and_the_licence() -> None:
    assert claims.QUESTION_URL.startswith("https://stackoverflow.com/questions/46154189/")
    assert claims.QUESTION_URL in claims.ATTRIBUTION and "CC BY-SA" in claims.ATTRIBUTION
    title = QA.splitlines()[0].strip()
    assert title in claims.ATTRIBUTION  # the question's title, verbatim


def test_answer_3_references_are_listed_once_on_the_start_page() -> None:
    for ref in claims.REFERENCES:
        assert ref in QA
        where = [p.name for p in PATHS for c in cells(p) if c["cell_type"] == "markdown" and ref in source(c)]
        assert where == ["00_start_here.ipynb"], f"{ref} is listed in {where}"


# --- each rule must fail on a planted violation ------------------------------------------------------------------

def planted(tmp_path: Path, name: str, markdown: str) -> Path:
    """A notebook named like a real one whose cells are its title, the attribution and ``markdown``."""
    path = tmp_path / name
    md = [f"# {name}", claims.ATTRIBUTION, markdown]
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": m} for m in md],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.mark.parametrize("text, figure", [
    ("The batched run was two to three times faster.", "two to three times faster"),
    ("A first call takes ~30 ms on this laptop.", "30 ms"),
    ("That is 93× the old figure.", "93×"),
    ("Recording costs about 0.96x of a run.", "0.96x"),
    ("Compiling took 1.5 seconds here.", "1.5 seconds"),
])
def test_a_typed_figure_is_reported(tmp_path: Path, text: str, figure: str) -> None:
    problems = prose.notebook_problems(str(planted(tmp_path, "05_the_cost_of_compiling.ipynb", text)), QA)
    assert len(problems) == 1 and repr(figure) in problems[0]


@pytest.mark.parametrize("text", [
    "In 2017 the answer said 200 µs.",                               # a 2017 figure
    "> \"perhaps 200usec\" — Answer 1",                              # the Q&A's words
    "*Running time: about 40 s on two cores.*",                     # a running-time note
    "**05.3** A first call takes 30 ms, each later one 0.15 ms.",   # exercise data
    "Call `time.sleep(2 s)` and read 3 nodes.",                     # code, and a count
])
def test_allowed_figures_are_not_reported(text: str) -> None:
    assert prose.typed_figures(text) == []


@pytest.mark.parametrize("text, piece", [
    ('As Answer 2 puts it, "Once defined, your graph is immutable".', "Once defined, your graph is immutable"),
    ("The answer says “~200 µs to change a graph, ~1 µs per op”.", "~200 µs to change a graph, ~1 µs per op"),
    ('Press "add a node, then run".', "add a node, then run"),
    ("> “first you have to define the graph, then you execute it”\n> — Answer 2",
     "first you have to define the graph, then you execute it"),
])
def test_a_quote_that_is_not_verbatim_is_reported(tmp_path: Path, text: str, piece: str) -> None:
    problems = prose.notebook_problems(str(planted(tmp_path, "02_define_then_run_tensorflow.ipynb", text)), QA)
    assert len(problems) == 1 and piece[:60] in problems[0]


def test_verbatim_quotes_pass_with_ellipses_brackets_and_a_capital() -> None:
    text = ('> "It will serialize the graph, and then the underlying runtime will rerun some optimizations ... '
            'perhaps 200usec."\n> — Answer 1\n\n“They differ drastically on how you can define them” and '
            '“the graphs was said to be [dynamic]”; ‘data as code and code is data’.')
    assert prose.unquoted(text, QA) == []


def test_a_verdict_that_differs_from_the_ledger_is_reported(tmp_path: Path) -> None:
    claim = claims.by_key("A2.2")
    mine = [c for c in claims.CLAIMS if c.notebook == claim.notebook]
    rows = [f"| {c.key} x | §1 | **{'Still true' if c is claim else c.status.capitalize()}.** Why. |" for c in mine]
    table = "## Verdict\n\n| Claim | In | Verdict |\n| --- | --- | --- |\n" + "\n".join(rows)
    problems = claims.verdict_problems(planted(tmp_path, claim.notebook, table))
    expected = (f"{claim.notebook}: A2.2's verdict is **Still true.** here but '{claim.status}' in the "
                "ledger (course_lib/lessons/claims.py)")
    assert problems == [expected]


def test_a_verdict_row_without_a_key_and_a_missing_claim_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "02_define_then_run_tensorflow.ipynb"
    table = "## Verdict\n\n| Claim | In | Verdict |\n| --- | --- | --- |\n| “first define” | §1 | **True.** |"
    path.write_text(json.dumps({"cells": [{"cell_type": "markdown", "metadata": {}, "source": table}],
                                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    problems = claims.verdict_problems(path)
    assert any("names no claim" in p for p in problems)
    mine = [c.key for c in claims.CLAIMS if c.notebook == path.name]
    assert sum("has no row for it" in p for p in problems) == len(mine)
