"""Exercises of notebook 04 (course_lib/lessons/exercises_04.py): code exercises judged by running the answer,
predictions decided by real TensorFlow, starting code that is not an attempt, and reveals that really answer their
exercise (tests/test_exercise_spoilers.py checks that none is shown before it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("tensorflow")
pytest.importorskip("torch")

from course_lib import static as st
from course_lib.adapters.quiet import ErrorSummary
from course_lib.i18n import set_language
from course_lib.lessons import exercises, exercises_04
from course_lib.lessons.tf_debugging import EagerVariables

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CHOICES = [(exercises_04.debug_choice, exercises_04.DEBUG_CHOICES, "a"),
           (exercises_04.retrace_choice, exercises_04.RETRACE_CHOICES, "c")]


# ---------------------------------------------------------------------------------------------------- 04.1-04.4
def _stub_branch(ops, x):
    ...  # your code: the notebook's starting code


def _my_branch(ops, x):
    y = ops.cond(x > 0, lambda: ops.sin(x) * x, lambda: ops.exp(x) - 1.0)
    return y * 2.0


def _no_doubling(ops, x):
    return ops.cond(x > 0, lambda: ops.sin(x) * x, lambda: ops.exp(x) - 1.0)


def _fetched() -> list[float]:
    g = st.Graph()
    with g.as_default():
        x, w = st.placeholder("x"), st.placeholder("w")
        h = x * w
        y = st.sin(h + 1.0)
    return st.Session(g).run([h, y], feed_dict={x: 0.5, w: 3.0})


def _stub_export(x):
    ...  # your code


def _my_export(x):
    import torch

    return torch.cond(x.mean() > 1.0, lambda x: x * x - 1.0, lambda x: x.tanh(), (x,))


def _greater_or_equal(x):
    import torch

    return torch.cond(x.mean() >= 1.0, lambda x: x * x - 1.0, lambda x: x.tanh(), (x,))


CODE = [(exercises_04.cond_rewrite, _stub_branch, _my_branch, _no_doubling),
        (exercises_04.compile_counts, (..., ..., ...), (1, 1, 1), (1, 2, 1)),
        (exercises_04.fetched_values, [..., ...], _fetched(), [1.5, 0.6]),
        (exercises_04.export_rewrite, _stub_export, _my_export, _greater_or_equal)]


@pytest.mark.parametrize(("make", "untouched", "right", "wrong"), CODE)
def test_code_exercises_judge_by_running_and_starting_code_is_no_attempt(make, untouched, right, wrong):
    ex = make()
    assert make() is ex, "one exercise per notebook run: attempts keep counting"
    first = ex.check(untouched)
    assert first.ok is None and first.hint == 0 and ex.attempts == 0, "Run All over the starting code spends nothing"
    assert ex.check(wrong).ok is False and ex.attempts == 1
    assert ex.check(right).ok is True


def test_the_wrong_answers_fail_for_their_own_reason():
    from course_lib.lessons import graph_checks as gc

    assert exercises_04.cond_rewrite().check(_no_doubling).said.msgid is gc.GIVES_OTHER
    assert exercises_04.export_rewrite().check(exercises_04.with_if2).said.msgid is gc.EXPORT_FAILED
    assert exercises_04.export_rewrite().check(_greater_or_equal).said.msgid is gc.EXPORTED_BUT_GIVES, \
        "the third example, mean exactly 1.0, catches >= for >"


# ---------------------------------------------------------------------------------------------------- 04.5, 04.6
@pytest.mark.parametrize(("make", "options", "right"), CHOICES)
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


@pytest.mark.parametrize(("make", "options", "right"), CHOICES)
def test_options_are_of_similar_length_and_the_right_one_is_not_the_longest(make, options, right):
    lengths = {k: len(v) for k, v in options.items()}
    assert min(lengths.values()) >= 2 / 3 * max(lengths.values()), lengths
    assert lengths[right] < max(lengths.values()), "the longest option would give the answer away"
    assert make().expect.letter() == right, "the live run puts the true option at the letter the course assigns"


def _eager(error_at: int | None, variables: int) -> EagerVariables:
    error = ErrorSummary("ValueError", "tf.function only supports singleton tf.Variables") if error_at else None
    return EagerVariables((6.0,) * ((error_at or 4) - 1), variables, error, error_at)


def test_04_5_is_decided_by_a_live_run(monkeypatch):
    seen = exercises_04.variable_per_call_eagerly(exercises_04.EAGER_XS)
    assert seen.error is None and seen.variables == len(exercises_04.EAGER_XS)
    assert exercises_04.debug_verdict() == "a"
    for error_at, variables, letter in [(1, 1, "b"), (2, 2, "c"), (None, 1, "d"), (None, 2, "")]:
        monkeypatch.setattr(exercises_04, "variable_per_call_eagerly",
                            lambda xs, e=error_at, v=variables: _eager(e, v))
        assert exercises_04.debug_verdict() == letter
    assert exercises_04.debug_choice().check("a").ok is False, "the check follows the run, not a stored letter"


def test_04_6_is_decided_by_a_live_run(monkeypatch):
    printed = exercises_04.python_value_traces(exercises_04.PYTHON_NUMBERS, exercises_04.TENSORS)
    assert printed[:2] == ("x = 1.0", "x = 2.0") and "Tensor(" in printed[2] and len(printed) == 3
    assert exercises_04.retrace_verdict() == "c"
    for count, letter in [(5, "a"), (2, "b"), (4, "d"), (1, "")]:
        monkeypatch.setattr(exercises_04, "python_value_traces", lambda n, t, c=count: ("x = 1.0",) * c)
        assert exercises_04.retrace_verdict() == letter
    assert exercises_04.retrace_choice().check("c").ok is False


def _options_in_notebook(key: str) -> dict[str, str]:
    """The options a student reads under exercise ``key`` in notebook 04 (code spans unwrapped, lines joined)."""
    nb = json.loads((NOTEBOOKS / "04_side_by_side.ipynb").read_text(encoding="utf-8"))
    text = next("".join(c["source"]) for c in nb["cells"]
                if c["cell_type"] == "markdown" and "".join(c["source"]).startswith(f"**{key} "))
    items = re.findall(r"^\* \*\*(\w)\*\* (.*?)(?=^\* |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    return {k: " ".join(body.replace("`", "").split()) for k, body in items}


@pytest.mark.parametrize(("key", "options"), [("04.5", exercises_04.DEBUG_CHOICES),
                                              ("04.6", exercises_04.RETRACE_CHOICES)])
def test_the_notebook_shows_the_options_that_are_checked(key, options):
    assert _options_in_notebook(key) == options


# ---------------------------------------------------------------------------------------------------- REVEALS
def _norm(text: str) -> str:
    return " ".join(text.lower().split())


RIGHT = {"04.1": _my_branch, "04.2": (1, 1, 1), "04.3": _fetched(), "04.4": _my_export, "04.5": "a", "04.6": "c"}
MAKE = {"04.1": exercises_04.cond_rewrite, "04.2": exercises_04.compile_counts, "04.3": exercises_04.fetched_values,
        "04.4": exercises_04.export_rewrite, "04.5": exercises_04.debug_choice, "04.6": exercises_04.retrace_choice}
SOLUTION_LINES = {"04.1": "y = ops.cond(x > 0, lambda: ops.sin(x) * x, lambda: ops.exp(x) - 1.0)",
                  "04.4": "torch.cond(x.mean() > 1.0, lambda x: x * x - 1.0, lambda x: x.tanh(), (x,))"}


@pytest.mark.parametrize("key", sorted(MAKE))
def test_every_reveal_is_honest_seeing_it_answers_the_exercise(key):
    """A reveal is in what answers the exercise: the right answer's verdict or its option (English or French), or
    the key line of the worked solution."""
    reveals = exercises_04.REVEALS[key]
    assert reveals
    answered = []
    for lang in ("en", "fr"):
        set_language(lang)
        result = MAKE[key]().check(RIGHT[key])
        assert result.ok, (key, lang, result)
        answered.append(_norm(result.message))
        options = {"04.5": exercises_04.DEBUG_CHOICES, "04.6": exercises_04.RETRACE_CHOICES}.get(key)
        if options:
            answered.append(_norm(exercises.shown(options[RIGHT[key]])))
    set_language("en")
    answered += [_norm(SOLUTION_LINES.get(key, "")), _norm(str(RIGHT[key]))]
    for reveal in reveals:
        assert any(_norm(reveal) in text for text in answered), (key, reveal)
