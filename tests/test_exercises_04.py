"""Exercises 04.5 and 04.6 (course_lib/lessons/exercises_04.py): decisions with reasons, decided by real TensorFlow."""

from __future__ import annotations

import pytest

pytest.importorskip("tensorflow")

from course_lib.lessons import exercises, exercises_04
from course_lib.lessons.tf_debugging import EAGER, RELAXED, TRACED, Traces

CASES = [(exercises_04.debug_choice, exercises_04.DEBUG_CHOICES, "b"),
         (exercises_04.retrace_choice, exercises_04.RETRACE_CHOICES, "c")]


@pytest.mark.parametrize(("make", "options", "right"), CASES)
def test_the_right_option_passes_and_each_wrong_one_fails_with_its_own_reason(make, options, right):
    ex = make()
    assert make() is ex, "one exercise per notebook run: attempts keep counting"
    assert ex.check(right.upper()).ok, "letters in any case"
    reasons = set()
    for k in options:
        if k == right:
            continue
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k
        reasons.add(result.said.values["reason"])
    assert len(reasons) == len(options) - 1, "every wrong option says what is wrong with it"
    bad = ex.check("z")
    assert bad.ok is False and bad.said.msgid is exercises.ONE_LETTER
    assert "one letter" in bad.message  # end to end, in English


def test_04_5_is_decided_by_a_live_run(monkeypatch):
    assert exercises_04.debug_verdict() == "b"
    monkeypatch.setattr(exercises_04, "python_runs", lambda calls: {TRACED: calls, EAGER: calls})
    assert exercises_04.debug_verdict() == "a"
    assert exercises_04.debug_choice().check("b").ok is False, "the check follows the run, not a stored letter"


def test_04_6_is_decided_by_a_live_run(monkeypatch):
    assert exercises_04.retrace_verdict() == "c"
    lengths = exercises_04.RETRACE_LENGTHS
    assert "4, 4, 7, 2, 9" in exercises_04.retrace_choice().prompt_text()

    def every_length(_lengths):
        shapes = tuple(f"shape ({n},)" for n in dict.fromkeys(_lengths))
        return {"default": Traces(len(shapes), shapes), RELAXED: Traces(len(shapes), shapes)}

    monkeypatch.setattr(exercises_04, "retraces", every_length)
    assert exercises_04.retrace_verdict() == "b" and len(set(lengths)) == 4
    assert exercises_04.retrace_choice().check("c").ok is False


def _options_in_notebook(key: str) -> dict[str, str]:
    """The options a student reads under exercise ``key`` in notebook 04 (code spans unwrapped, lines joined)."""
    import json
    import re
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parent.parent / "notebooks" / "04_side_by_side.ipynb").read_text())
    text = next("".join(c["source"]) for c in nb["cells"]
                if c["cell_type"] == "markdown" and "".join(c["source"]).startswith(f"**{key} "))
    items = re.findall(r"^\* \*\*(\w)\*\* (.*?)(?=^\* |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    return {k: " ".join(body.replace("`", "").split()) for k, body in items}


@pytest.mark.parametrize(("key", "options"), [("04.5", exercises_04.DEBUG_CHOICES),
                                              ("04.6", exercises_04.RETRACE_CHOICES)])
def test_the_notebook_shows_the_options_that_are_checked(key, options):
    assert _options_in_notebook(key) == options
