"""The claim ledger (course_lib/lessons/claims.py) against the notebooks on disk: the one source notebook 08 displays.

A notebook the ledger names must have a markdown cell headed "Verdict" as soon as it exists, and its claims must
then carry a verdict here; a notebook not written yet must not have verdicts here. Each check below can fail.
The French ledger (claims_fr.py) against the French notebooks: tests/test_claims_fr.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from course_lib.i18n import message_of
from course_lib.lessons import claims

ROOT = Path(__file__).resolve().parent.parent
QA = ROOT / "qa" / "qa-en.txt"  # the copy kept with the course
NOTEBOOKS = ROOT / "notebooks"


@pytest.mark.parametrize("name", claims.notebooks())
def test_each_notebook_and_its_verdicts_are_in_step(name: str) -> None:
    path = NOTEBOOKS / name
    mine = [c for c in claims.CLAIMS if c.notebook == name]
    if path.exists():
        assert claims.verdict_cells(path), f"{name}: add a markdown cell headed '## Verdict' (claims.py reads it)"
        assert all(c.verdict and c.status for c in mine), f"{name} exists: copy its verdicts into claims.py"
    else:
        assert not any(c.verdict or c.status for c in mine), f"{name} is not written: no verdict can exist yet"


def test_check_reports_nothing_for_the_real_notebooks() -> None:
    assert claims.check(NOTEBOOKS) == []


def test_check_sees_a_missing_verdict_cell_and_a_premature_verdict(tmp_path: Path, monkeypatch) -> None:
    """Guard against a vacuous check: fake notebooks that break each rule are reported."""
    judged = next(c.notebook for c in claims.CLAIMS if c.verdict)
    unjudged = "99_not_yet_judged.ipynb"
    monkeypatch.setattr(claims, "CLAIMS", claims.CLAIMS + (
        claims.Claim("Z1", "Answer 3", "quote", "plain", unjudged),))
    cell = {"cell_type": "markdown", "metadata": {}, "source": ["## Nothing to see\n", "text"]}
    for name in (judged, unjudged):
        (tmp_path / name).write_text(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4,
                                                 "nbformat_minor": 5}))
    problems = claims.check(tmp_path)
    assert any(judged in p and "no markdown cell headed 'Verdict'" in p for p in problems)
    assert any(unjudged in p and "copy its verdicts for Z1" in p for p in problems)
    empty = tmp_path / "empty"
    empty.mkdir()
    problems = claims.check(empty)
    assert any(judged in p and "does not exist" in p for p in problems)
    assert not any(unjudged in p for p in problems)  # not written and not judged: nothing to report


def test_verdict_cells_are_found_by_their_heading(tmp_path: Path) -> None:
    nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "## Verdict for today\nstill true"},
                    {"cell_type": "markdown", "metadata": {}, "source": "The verdict is in the next cell"},
                    {"cell_type": "markdown", "metadata": {}, "source": ["A paragraph first.\n", "\n",
                                                                         "## 8. Verdict\n", "| a | b |"]},
                    {"cell_type": "code", "metadata": {}, "source": "# Verdict", "outputs": [],
                     "execution_count": None}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    p = tmp_path / "x.ipynb"
    p.write_text(json.dumps(nb))
    assert claims.verdict_cells(p) == ["## Verdict for today\nstill true",
                                       "A paragraph first.\n\n## 8. Verdict\n| a | b |"]


def test_every_quote_is_in_the_qa() -> None:
    """Quotes are the Q&A's words (pieces joined by '...'; the question's bracketed words are ours)."""
    text = " ".join(QA.read_text(encoding="utf-8").split())
    for c in claims.CLAIMS:
        for piece in c.quote.split("..."):
            piece = " ".join(piece.replace("[in TensorFlow]", "").replace("[dynamic]", "").split()).strip()
            assert piece in text, f"{c.key}: {piece!r} is not in the Q&A"


def test_keys_are_unique_and_every_answer_is_covered() -> None:
    keys = [c.key for c in claims.CLAIMS]
    assert len(keys) == len(set(keys))
    assert {c.answer for c in claims.CLAIMS} == {"Question", "Answer 1", "Answer 2", "Answer 3"}
    with pytest.raises(KeyError) as info:
        claims.by_key("A9.9")
    said = message_of(info.value)
    assert said.msgid is claims.NO_CLAIM and said.values == {"key": "A9.9", "keys": ", ".join(keys)}


def test_ledger_shows_every_claim() -> None:
    led = claims.ledger()
    html = led._repr_html_()
    assert all(c.key in html for c in claims.CLAIMS)
    judged = sum(1 for c in claims.CLAIMS if c.verdict)
    assert repr(led) == (f"Claim ledger: {len(claims.CLAIMS)} claims from the Q&A, {judged} with a verdict today, "
                         f"{len(claims.CLAIMS) - judged} still to be tested")


#: Sentences of the answers that make no claim of their own (Answer 3's references are on the start page).
NOT_CLAIMS = ("Not too convenient, huh.",)


def test_every_sentence_of_the_answers_is_a_claim_of_the_ledger() -> None:
    """One row per claim: every sentence of the three answers contains a piece of some claim's quote."""
    import re

    text = QA.read_text(encoding="utf-8")
    answers = text[text.index("Answer 1"):text.index("Reference:")]
    sentences = [s.strip() for s in re.split(r"(?<=[.?!])\s+", " ".join(answers.split()))]
    pieces = [p.strip() for c in claims.CLAIMS for p in c.quote.split("...") if len(p.strip()) >= 15]
    pieces = [" ".join(p.replace("[in TensorFlow]", "").replace("[dynamic]", "").split()) for p in pieces]
    missing = [s for s in sentences
               if s and not s.startswith(("Answer ", "http")) and s not in NOT_CLAIMS
               and not any(p.rstrip(".") in s or s.rstrip(".") in p for p in pieces)]
    assert missing == [], f"sentences of the Q&A with no row in the ledger: {missing}"


def test_the_ledger_is_folded_by_part_of_the_qa_and_keeps_every_claim() -> None:
    page = claims.ledger()._repr_html_()
    parts = list(dict.fromkeys(c.answer for c in claims.CLAIMS))
    assert page.count("<details") == len(parts) and "<details open" not in page  # folded: no wall of rows
    for c in claims.CLAIMS:
        assert f"<b>{c.key}</b>" in page
