"""TensorFlow's debugging levers (course_lib/lessons/tf_debugging.py), against real TensorFlow."""

from __future__ import annotations

import pytest

pytest.importorskip("tensorflow")

from course_lib.adapters.quiet import ErrorSummary
from course_lib.lessons import tf_debugging as tfd


@pytest.fixture
def tf():
    import tensorflow as tf

    yield tf
    tf.config.run_functions_eagerly(False)  # whatever a failing test left behind


def test_a_print_runs_once_traced_and_on_every_call_eagerly(tf):
    calls = 4
    lines = tfd.print_lines(calls)
    assert len(lines[tfd.TRACED]) == 1
    assert "tf.Tensor(" not in lines[tfd.TRACED][0] and "shape=()" in lines[tfd.TRACED][0], "traced: a symbol"
    assert lines[tfd.EAGER] == [f"x = tf.Tensor({float(k)}, shape=(), dtype=float32)" for k in range(calls)]
    assert tf.config.functions_run_eagerly() is False, "switched off again"


def test_eagerly_restores_the_previous_setting_even_on_error(tf):
    with pytest.raises(RuntimeError), tfd.eagerly():
        assert tf.config.functions_run_eagerly() is True
        raise RuntimeError("the body failed")
    assert tf.config.functions_run_eagerly() is False
    tf.config.run_functions_eagerly(True)  # a student who had it on keeps it on
    with tfd.eagerly():
        pass
    assert tf.config.functions_run_eagerly() is True


def test_a_variable_created_on_every_call_is_refused_on_the_second_trace_and_both_fixes_work():
    lesson = tfd.variable_per_call()
    assert lesson.error is not None and lesson.error.kind == "ValueError"
    assert lesson.body_runs == 2, "the first call traces the body twice; the second trace is refused"
    summary = lesson.summary().splitlines()
    assert len(summary) == 2 and summary[0].startswith("ValueError: ") and "singleton" in summary[0]
    assert "outside" in summary[1] and "http" not in lesson.summary() and "File " not in lesson.summary()
    expected = tuple(2.0 * x for x in (3.0, 4.0, 5.0))
    assert lesson.outside == expected and lesson.once == expected
    assert lesson.once_variables == 1, "the guarded body created its variable once"


def test_two_line_summary_keeps_two_sentences_and_falls_back_on_the_message():
    assert tfd.two_line_summary(ErrorSummary("TypeError", "First one. Second one. Third one.")) == \
        "TypeError: First one.\nSecond one."
    only = tfd.two_line_summary(ErrorSummary("ValueError", "in user code:", "ValueError: Just one. See https://a.b"))
    assert only == "ValueError: Just one."


@pytest.mark.parametrize("lengths", [(1, 2, 3, 4, 5), (4, 4, 7, 2, 9)])
def test_reduce_retracing_traces_a_generic_shape_after_the_first(lengths):
    traces = tfd.retraces(lengths)
    default, relaxed = traces["default"], traces[tfd.RELAXED]
    distinct = list(dict.fromkeys(lengths))
    assert default.printed == tuple(f"shape ({n},)" for n in distinct), "one trace, one print, per new length"
    assert default.count == len(distinct)
    assert relaxed.count == len(relaxed.printed) < default.count
    assert relaxed.printed[0] == f"shape ({lengths[0]},)" and relaxed.printed[-1] == "shape (None,)"


def test_run_eagerly_the_refused_body_makes_a_variable_per_call_and_raises_nothing(tf):
    seen = tfd.variable_per_call_eagerly((3.0, 4.0, 5.0))
    assert seen.error is None and seen.failed_at is None
    assert seen.results == (6.0, 8.0, 10.0) and seen.variables == 3, "no trace: plain Python on every call"
    assert tf.config.functions_run_eagerly() is False, "switched off again"
    assert tfd.variable_per_call().error is not None, "traced, the same body is still refused"


@pytest.mark.parametrize("relaxed", [False, True])
def test_each_new_python_number_is_a_trace_tensors_share_one(relaxed):
    printed = tfd.python_value_traces((1.0, 2.0, 1.0, 2.0), (3.0, 4.0, 5.0), reduce_retracing=relaxed)
    assert printed[:2] == ("x = 1.0", "x = 2.0"), "one trace per new Python value, the repeats reuse theirs"
    assert len(printed) == 3 and printed[2].startswith("x = Tensor(") and "shape=()" in printed[2], \
        "one symbolic trace for every scalar tensor"
