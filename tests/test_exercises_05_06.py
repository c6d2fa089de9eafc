"""Exercises of notebooks 05 and 06: the right answer passes, typical wrong answers fail with a reason, ``...``
shows a hint, and nothing a student types can crash the check."""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # before any TensorFlow import (importorskip below)

import pytest

from course_lib.lessons import exercises
from course_lib.lessons import exercises_05 as ex5
from course_lib.lessons import exercises_06 as ex6

ALL = [ex5.static_compiles, ex5.trace_count, ex5.break_even_runs, ex5.input_signature, ex5.torch_graphs,
       ex6.padded_steps, ex6.bucket_boundaries, ex6.ragged_signature, ex6.packed_batch_sizes]


@pytest.mark.parametrize("make", ALL, ids=lambda f: f.__name__)
def test_unanswered_shows_a_hint_and_junk_never_crashes(make) -> None:
    ex = make()
    assert make() is ex  # the same object: attempts and hints carry over between runs of a cell
    first = ex.check(...)
    assert first.ok is None and first.hint == 0
    assert first.message.startswith("Hint: ")  # end to end, in English
    for junk in ("seven", object(), {"a": 1}, [None]):
        assert ex.check(junk).ok is False


def test_static_compiles() -> None:
    assert ex5.compile_scenario() == 4
    assert ex5.static_compiles().check(4).ok
    assert ex5.static_compiles().check(1014).said.msgid is ex5.PLAN_CACHED
    assert ex5.static_compiles().check(5).said.msgid is exercises.NOT_IT


def test_break_even_runs() -> None:
    ex = ex5.break_even_runs()
    assert ex.check(17).ok and ex.check(17.0).ok
    why = ex.check(17).said
    assert why.msgid is ex5.BREAK_EVEN_WHY and (why.values["n"], why.values["later"]) == (17, "0.15")
    assert ex.check(16).said.msgid is ex5.ONE_SHORT
    assert "one short" in ex.check(16).message  # end to end, in English
    far = ex.check(18).said
    assert not ex.check(18).ok and far.msgid is ex5.WITH_N_CALLS and far.values["n"] == 18
    assert ex.check(2.5).said.msgid is exercises.NUMBER_OF["calls"]


def test_trace_count_matches_real_tensorflow() -> None:
    pytest.importorskip("tensorflow")
    assert ex5.trace_scenario() == 4
    assert ex5.trace_count().check(4).ok
    assert ex5.trace_count().check(3).said.msgid is ex5.TOO_FEW_TRACES
    assert ex5.trace_count().check(6).said.msgid is ex5.TOO_MANY_TRACES


def test_input_signature() -> None:
    tf = pytest.importorskip("tensorflow")
    ex = ex5.input_signature()
    assert ex.check([tf.TensorSpec([None], tf.float64)]).ok
    assert ex.check((tf.TensorSpec(shape=(None,), dtype=tf.float64),)).ok
    assert ex.check([tf.TensorSpec([3], tf.float64)]).said.msgid is ex5.TF_REFUSED_IT
    assert ex.check(tf.TensorSpec([None], tf.float64)).said.msgid is ex5.A_LIST_OF_SPECS


def test_torch_graphs() -> None:
    pytest.importorskip("torch")
    assert ex5.torch_scenario() == 3  # (3, 2); (4, 2) makes dim 0 symbolic; (5, 3) then dim 1
    assert ex5.torch_graphs().check(3).ok
    assert ex5.torch_graphs().check(4).said.msgid is ex5.ONE_PER_SHAPE
    assert ex5.torch_graphs().check(2).said.msgid is ex5.TOO_FEW_GRAPHS


def test_padded_steps() -> None:
    ex = ex6.padded_steps()
    assert ex.check(21).ok
    assert ex.check(48).said.msgid is ex6.EVERY_STEP
    assert ex.check(27).said.msgid is ex6.REAL_WORDS
    wrong = ex.check(20)
    assert wrong.said.msgid is exercises.NOT_IT and wrong.said.values == {"answer": "20"} and not wrong.ok
    assert ex.check(20.5).said.msgid is exercises.NUMBER_OF["cell steps"]  # a count is a whole number


def test_bucket_boundaries() -> None:
    ex = ex6.bucket_boundaries()
    assert ex.check([5, 12]).ok and ex.check((8, 19)).ok and ex.check([12, 5]).ok
    assert not ex.check([10]).ok  # one boundary is not enough here
    assert not ex.check([9, 20]).ok
    assert ex.check([9, 20]).said.msgid is ex6.OVER_TARGET
    three = ex.check([4, 8, 15]).said
    assert three.msgid is ex6.TOO_MANY_BOUNDARIES and three.values == {"n": 3, "buckets": 4}


def test_ragged_signature() -> None:
    """06.3 asks for a batch of reviews (sentences of words): two ragged dimensions, a setting section 5 never shows
    (its spec, ragged_rank=1, is refused here)."""
    tf = pytest.importorskip("tensorflow")
    ex = ex6.ragged_signature()
    assert ex.check([tf.RaggedTensorSpec(shape=[None, None, None, 3], dtype=tf.float64, ragged_rank=2)]).ok
    assert ex.check([tf.RaggedTensorSpec(shape=[None, None, None, None], dtype=tf.float64, ragged_rank=2)]).ok
    shown_above = ex.check([tf.RaggedTensorSpec(shape=[None, None, 3], dtype=tf.float64, ragged_rank=1)]).said
    assert shown_above.msgid is ex6.RAGGED_DIMENSIONS and shown_above.values == {"n": 1}
    assert ex.check([tf.RaggedTensorSpec(shape=[None, None, None, 3], dtype=tf.float64)]).said.values == {"n": 3}
    assert ex.check([tf.TensorSpec(shape=[None, None, None, 3], dtype=tf.float64)]).said.msgid is ex6.NEEDS_RAGGED_SPEC
    assert not ex.check([tf.RaggedTensorSpec(shape=[2, None, None, 3], dtype=tf.float64, ragged_rank=2)]).ok
    assert not ex.check([tf.RaggedTensorSpec(shape=[None, None, None, 3], dtype=tf.float32, ragged_rank=2)]).ok


def test_packed_batch_sizes() -> None:
    pytest.importorskip("torch")
    ex = ex6.packed_batch_sizes()
    assert ex.check([3, 3, 2, 1, 1]).ok
    short = ex.check([3, 2, 1]).said
    assert short.msgid is ex6.STEPS_OF_LONGEST and short.values == {"n": 5}
    assert not ex.check([1, 1, 2, 3, 3]).ok and ex.check([1, 1, 2, 3, 3]).said.msgid is exercises.NOT_IT


def test_05_6_extension_choice_is_decided_by_real_tensorflow_and_explains_every_option() -> None:
    """Many edits then one run pay one extension; an edit before each run pays one per run (live run: letter a)."""
    pytest.importorskip("tensorflow")
    from course_lib.lessons import exercises_05

    ex = exercises_05.extension_choice()
    assert exercises_05.batch_letter() == "a"
    assert ex.check("a").ok
    wrong = [k for k in exercises_05.EXTENSION_CHOICES if k != "a"]
    for k in wrong:
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k
    assert ex.check("e").said.msgid is exercises.ONE_LETTER
    assert ex.check("e").message.startswith("answer with one letter among a, b, c, d")  # end to end, in English


def test_06_5_loop_choice_is_decided_by_real_tensorflow() -> None:
    pytest.importorskip("tensorflow")
    assert ex6.loop_verdict() == "b"  # three traces, and the graph holds a While op
    ex = ex6.loop_choice()
    assert ex.check("b").ok
    for k in "acd":
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k
