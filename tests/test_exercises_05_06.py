"""Exercises of notebooks 05 and 06: the right answer passes, typical wrong answers fail with a reason, ``...``
shows a hint, and nothing a student types can crash the check."""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # before any TensorFlow import (importorskip below)

import pytest

from course_lib.lessons import exercises_05 as ex5
from course_lib.lessons import exercises_06 as ex6

ALL = [ex5.static_compiles, ex5.trace_count, ex5.break_even_runs, ex5.input_signature, ex5.torch_graphs,
       ex6.padded_steps, ex6.bucket_boundaries, ex6.ragged_signature, ex6.packed_batch_sizes]




@pytest.mark.parametrize("make", ALL, ids=lambda f: f.__name__)
def test_unanswered_shows_a_hint_and_junk_never_crashes(make) -> None:
    ex = make()
    assert make() is ex  # the same object: attempts and hints carry over between runs of a cell
    first = ex.check(...)
    assert first.ok is None and "Hint:" in first.message
    for junk in ("seven", object(), {"a": 1}, [None]):
        assert ex.check(junk).ok is False


def test_static_compiles() -> None:
    assert ex5.compile_scenario() == 4
    assert ex5.static_compiles().check(4).ok
    assert "cached" in ex5.static_compiles().check(1014).message


def test_break_even_runs() -> None:
    ex = ex5.break_even_runs()
    assert ex.check(17).ok and ex.check(17.0).ok
    assert "one short" in ex.check(16).message
    assert not ex.check(18).ok


def test_trace_count_matches_real_tensorflow() -> None:
    pytest.importorskip("tensorflow")
    assert ex5.trace_scenario() == 4
    assert ex5.trace_count().check(4).ok
    assert "too few" in ex5.trace_count().check(3).message
    assert "too many" in ex5.trace_count().check(6).message


def test_input_signature() -> None:
    tf = pytest.importorskip("tensorflow")
    ex = ex5.input_signature()
    assert ex.check([tf.TensorSpec([None], tf.float64)]).ok
    assert ex.check((tf.TensorSpec(shape=(None,), dtype=tf.float64),)).ok
    assert "refused" in ex.check([tf.TensorSpec([3], tf.float64)]).message
    assert "one spec per argument" in ex.check(tf.TensorSpec([None], tf.float64)).message


def test_torch_graphs() -> None:
    pytest.importorskip("torch")
    assert ex5.torch_scenario() == 2
    assert ex5.torch_graphs().check(2).ok
    assert "one graph per length" in ex5.torch_graphs().check(4).message


def test_padded_steps() -> None:
    ex = ex6.padded_steps()
    assert ex.check(21).ok
    assert "every step" in ex.check(48).message
    assert "real words" in ex.check(27).message


def test_bucket_boundaries() -> None:
    ex = ex6.bucket_boundaries()
    assert ex.check([5, 12]).ok and ex.check((8, 19)).ok and ex.check([12, 5]).ok
    assert not ex.check([10]).ok  # one boundary is not enough here
    assert not ex.check([9, 20]).ok
    assert "use at most two" in ex.check([4, 8, 15]).message


def test_ragged_signature() -> None:
    tf = pytest.importorskip("tensorflow")
    ex = ex6.ragged_signature()
    assert ex.check([tf.RaggedTensorSpec(shape=[None, None, 3], dtype=tf.float64, ragged_rank=1)]).ok
    assert not ex.check([tf.TensorSpec(shape=[None, None, 3], dtype=tf.float64)]).ok
    assert not ex.check([tf.RaggedTensorSpec(shape=[2, None, 3], dtype=tf.float64, ragged_rank=1)]).ok


def test_packed_batch_sizes() -> None:
    pytest.importorskip("torch")
    ex = ex6.packed_batch_sizes()
    assert ex.check([3, 3, 2, 1, 1]).ok
    assert "one number per time step" in ex.check([3, 2, 1]).message
    assert not ex.check([1, 1, 2, 3, 3]).ok


def test_05_6_extension_choice_explains_every_option() -> None:
    from course_lib.lessons import exercises_05

    ex = exercises_05.extension_choice()
    assert ex.check("b").ok
    wrong = [k for k in exercises_05.EXTENSION_CHOICES if k != "b"]
    for k in wrong:
        result = ex.check(k)
        assert result.ok is False and result.message.startswith(f"{k}: ")
    assert ex.check("e").message.startswith("answer with one letter among a, b, c, d")


def test_06_5_serving_choice_explains_every_option() -> None:
    from course_lib.lessons import exercises_06

    ex = exercises_06.serving_choice()
    assert ex.check("c").ok
    for k in "abd":
        result = ex.check(k)
        assert result.ok is False and result.message.startswith(f"{k}: ")
