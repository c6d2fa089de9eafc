"""TensorFlow's debugging levers (course_lib/lessons/tf_levers.py) and exercise 04.5, against real TensorFlow."""

from __future__ import annotations

import pytest

pytest.importorskip("tensorflow")

from course_lib.lessons import exercises_04, tf_levers  # noqa: E402


def test_run_functions_eagerly_runs_the_body_on_every_call_and_is_switched_off_again() -> None:
    import tensorflow as tf

    assert tf_levers.python_runs(calls=4) == {"traced graph": 1, "run_functions_eagerly(True)": 4}
    assert tf.config.functions_run_eagerly() is False


def test_a_variable_created_on_every_call_is_refused_and_the_fix_works() -> None:
    error, fixed = tf_levers.variable_per_call()
    assert error is not None and error.kind == "ValueError" and "singleton" in str(error)
    assert fixed == 6.0


def test_reduce_retracing_traces_fewer_graphs() -> None:
    counts = tf_levers.retraces((1, 2, 3, 4, 5, 6))
    assert counts["default"] == 6
    assert 1 <= counts["reduce_retracing=True"] < 6


def test_04_5_debug_choice_is_decided_by_tensorflow() -> None:
    assert exercises_04.debug_verdict() == "b"
    ex = exercises_04.debug_choice()
    assert ex.check("b").ok
    for k in "acd":
        result = ex.check(k)
        assert result.ok is False and result.message.startswith(f"{k}: ")
