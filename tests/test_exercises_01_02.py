"""The exercises of notebooks 01 and 02: the solutions in instructor/ are accepted, wrong answers get a reason and a
hint, junk never crashes, and the facts they rest on are those of the engines and of real TensorFlow/PyTorch."""

from __future__ import annotations

import ast

import pytest

from course_lib import expr, trace
from course_lib.lessons import dag_checks, exercises
from course_lib.lessons import exercises_01 as ex1
from course_lib.lessons import exercises_02 as ex2


@pytest.fixture()
def graph():
    return trace.record(expr.parse("sin(x*w + 1)"), "define-then-run", {"x": 3.0, "w": 2.0}, backward=False).graph


JUNK = ("five", None, [1, 2, 3], {"a": 1}, 3.5, object())


def answers_behave(ex, right, wrong) -> None:
    unanswered = ex.check(...)
    assert unanswered.ok is None and unanswered.hint == 0
    good = ex.check(right)
    assert good.ok is True and good.hint is None and good.said.msgid, good.message  # a course message says why
    bad = ex.check(wrong)
    assert bad.ok is False and bad.hint is not None and bad.said.msgid
    for junk in JUNK:
        assert ex.check(junk).ok is not True


def test_01_node_count() -> None:
    answers_behave(ex1.node_count(), 5, 6)


def test_01_order() -> None:
    """01.2 asks for an order of exp(x) * (x + w), a graph whose orders the notebook never prints, with add before
    exp: exactly two orders qualify."""
    ex = ex1.topological_order()
    answers_behave(ex, ["x", "w", "add", "exp", "mul"], ["x", "w", "exp", "add", "mul"])
    assert ex.check(["w", "x", "add", "exp", "mul"]).ok
    assert ex.check(["x", "w", "exp", "add", "mul"]).said.msgid is dag_checks.NOT_BEFORE  # valid, not what was asked
    assert ex.check(["x", "add", "w", "exp", "mul"]).said.msgid is dag_checks.COMES_BEFORE


def test_01_cycle() -> None:
    answers_behave(ex1.cycle(), ("mul", "x"), ("x", "mul"))
    assert ex1.cycle().check(("add", "w")).ok and not ex1.cycle().check(("exp", "w")).ok


def test_01_reveals_are_the_answers_the_checks_accept() -> None:
    """REVEALS of 01.2 and 01.3 are worked out from the graph: every order and edge listed is accepted, and 01.3 lists
    every refused edge (the five nodes give 25 pairs; the refused ones are those where dst is src or feeds it)."""
    orders = [r for r in ex1.REVEALS["01.2"] if r.startswith("[")]
    assert len(orders) == 4 and all(ex1.topological_order().check(ast.literal_eval(r)).ok for r in orders)
    edges = [ast.literal_eval(r) for r in ex1.REVEALS["01.3"]]
    assert all(ex1.cycle().check(e).ok for e in edges)
    names = [n.name for n in ex1.order_graph().nodes]
    refused = {(a, b) for a in names for b in names if ex1.cycle().check((a, b)).ok}
    assert refused == set(edges) and ("mul", "x") in refused and ("x", "mul") not in refused


def test_01_framework_counts() -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("torch")
    ex = ex1.framework_counts()
    answers_behave(ex, (5, 5), (6, 5))  # 6: tf.function's count (with its Identity), not the graph's
    assert ex.check((6, 5)).said.msgid is ex1.TF_COUNT_WRONG
    assert ex.check((5, 4)).said.msgid is ex1.TORCH_COUNT_WRONG and ex.check((1, 1)).said.msgid is ex1.BOTH_COUNTS_WRONG
    assert "the PyTorch count" in ex.check((5, 4)).message  # end to end, in English
    assert ex.check("5, 5").said.msgid is ex1.ANSWER_A_PAIR


def test_01_5_constant_choice_is_decided_by_pytorch() -> None:
    pytest.importorskip("torch")
    # The fact the answer rests on: a constant that requires grad adds exactly one (leaf) node.
    assert ex1.constant_nodes(True) == ex1.constant_nodes(False) + 1
    assert ex1.constant_verdict() == "a"
    ex = ex1.constant_choice()
    assert ex.check("a").ok
    for k in "bcd":
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k
    assert ex.check("e").ok is False and ex.check("e").said.msgid is exercises.ONE_LETTER
    assert ex.check(None).ok is not True


def test_02_needed_feeds() -> None:
    answers_behave(ex2.needed_feeds(), {"x", "w", "b"}, {"x", "w"})
    assert ex2.needed_feeds().check("x, w, b").ok and ex2.needed_feeds().check(["B", "W", "X"]).ok
    missing = ex2.needed_feeds().check({"x", "w"}).said
    assert missing.msgid is ex2.MISSING and missing.values == {"names": "b"}
    assert ex2.needed_feeds().check({"x", "w", "b", "y"}).said.msgid is ex2.NOT_NEEDED
    assert ex2.needed_feeds().check({"x", "y"}).said.msgid is ex2.BOTH


def test_02_compile_count() -> None:
    assert ex2.compile_scenario() == 3
    answers_behave(ex2.compile_count(), 3, 4)


def test_02_tf_feed_dict_and_finalize() -> None:
    pytest.importorskip("tensorflow")
    ex = ex2.tf_feed_dict()
    answers_behave(ex, {"x": 3.0, "w": 2.0, "b": 0.5}, {"x": 3.0, "w": 2.0})
    refused = ex.check({"x": 3.0, "w": 2.0}).said
    assert refused.msgid is ex2.TF_REFUSED and "placeholder tensor 'b'" in refused.values["line"]  # TensorFlow's words
    unknown = ex.check({"q": 1.0}).said
    assert unknown.msgid is ex2.NOT_A_TENSOR and unknown.values["name"] == "q"
    assert ex.check({"x": "three"}).said.msgid is ex2.EVERY_VALUE_A_NUMBER
    assert ex2.finalize_outcomes() == {"a": True, "b": False, "c": True, "d": False}
    answers_behave(ex2.after_finalize(), {"a", "c"}, {"a"})
    assert ex2.after_finalize().check("a, c").ok


def test_the_same_exercise_object_so_hints_move_on() -> None:
    assert ex1.node_count() is ex1.node_count() and ex1.cycle() is ex1.cycle()
    assert ex2.needed_feeds() is ex2.needed_feeds()
    ex = ex1.topological_order()
    ex.attempts = 0  # the cached object keeps its own count from earlier tests; start this one afresh
    first = ex.check(["mul"])
    second = ex.check(["mul"])
    assert (first.hint, second.hint) == (0, 1)  # the second wrong answer shows the next hint
    assert first.message != second.message


def test_02_5_growing_graph_is_decided_by_tensorflow() -> None:
    pytest.importorskip("tensorflow")
    from course_lib.lessons import exercises_02

    ex = exercises_02.growing_graph()
    assert ex.check("b").ok
    for k in "acd":
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k
    assert ex.check("a").message.startswith("a: ")  # end to end, in English
