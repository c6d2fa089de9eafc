"""course_lib.lessons.graph_checks: exercise checkers that compute the truth from the program, and say which way it is off."""

from __future__ import annotations

import pytest

from course_lib import programs
from course_lib.lessons import graph_checks as gc
from course_lib.lessons.exercises import Exercise


def test_node_count_is_and_its_direction():
    check = gc.node_count_is(programs.repeat_until_large, "define-by-run", {"x": 0.5})
    assert gc.node_count(programs.repeat_until_large, "define-by-run", {"x": 0.5}) == 13  # 4 rounds of mul, 1, add
    assert check(13) == (True, "yes: 13 nodes")
    assert check(14) == (False, "too many") and check(7) == (False, "too few")
    assert check(12.5)[0] is False and check("many")[0] is False
    static = gc.node_count_is(programs.branch_with_cond, "define-then-run", {"x": 1.0})
    assert static(gc.node_count(programs.branch_with_cond, "define-then-run", {"x": -1.0}))[0], "one graph for all"


def test_graph_changes_between():
    check = gc.graph_changes_between({"x": 1.0}, {"x": -1.0})
    ok, msg = check(programs.branch_with_python_if)
    assert ok and "nodes for x = 1" in msg
    ok, msg = check(programs.affine_sin)  # two inputs: x and w; called with x only
    assert not ok and "raised" in msg

    def straight(ops, x):
        return ops.sin(x) * 2.0

    ok, msg = check(straight)
    assert not ok and "same graph" in msg
    assert check(len)[0] is False and "first argument is `ops`" in check(len)[1]
    assert check(42)[0] is False


def test_local_value_is():
    check = gc.local_value_is(programs.affine_sin, "z", {"x": 0.5, "w": 3.0})
    assert check(2.5)[0] and check("2.5")[0]
    ok, msg = check(2.4)
    assert not ok and "z is not 2.4" in msg
    assert "not a variable" in gc.local_value_is(programs.affine_sin, "q", {"x": 1.0, "w": 1.0})(1.0)[1]
    assert check(float("nan"))[0] is False


def test_builds_like_accepts_a_cond_rewrite_and_rejects_the_python_if():
    check = gc.builds_like(programs.branch_with_python_if, [-2.0, -0.5, 0.5, 2.0])
    ok, msg = check(programs.branch_with_cond)
    assert ok and "with a cond" in msg
    ok, msg = check(programs.branch_with_python_if)
    assert not ok and "ops.cond" in msg

    def only_then(ops, x):
        return ops.sin(x) * x * 2.0

    ok, msg = check(only_then)
    assert not ok and "x = -2" in msg and "the original gives" in msg

    def returns_number(ops, x):
        return 1.0

    assert "must return" in check(returns_number)[1]


def test_compile_report():
    def wasteful(ops, x):
        unused = ops.exp(x) * 10.0  # noqa: F841 - built, never fetched: pruned
        k = ops.sin(ops.constant(1.0) * 2.0)  # constants only: folded
        return x * k + x * k  # the same product twice: merged

    report = gc.compile_report(wasteful, {"x": 1.0})
    assert report["pruned"] == 3 and report["merged"] == 1 and report["folded"] == 2
    check = gc.compile_report_is(wasteful, {"x": 1.0})
    assert check((3, 2, 1))[0]
    ok, msg = check((3, 0, 1))
    assert not ok and "folded" in msg and "pruned" not in msg
    assert check(3)[0] is False


def test_values_are():
    check = gc.values_are(programs.affine_sin, ["h", "y"], {"x": 3.0, "w": 2.0})
    import numpy as np

    assert check([6.0, np.sin(7.0)])[0]
    ok, msg = check([6.0, 0.0])
    assert not ok and msg == "y is not right"
    assert check([6.0])[0] is False


def test_checkers_plug_into_exercises_and_never_crash():
    ex = Exercise("t", "?", expect=gc.graph_changes_between({"x": 1.0}, {"x": -1.0}), hints=["use an if"])
    assert ex.check(...).ok is None
    assert ex.check(programs.branch_with_python_if).ok is True
    assert "Hint: use an if" in ex.check(programs.reuse).message


def test_torch_checkers():
    torch = pytest.importorskip("torch")

    def make():
        return torch.tensor(1.0, requires_grad=True)

    check = gc.torch_node_count_is(6, make)

    def grow(x):
        return torch.sin(torch.exp(x * 2.0) + 1.0) * 3.0  # AccumulateGrad + mul, exp, add, sin, mul

    assert check(grow) == (True, "yes: 6 autograd nodes")
    ok, msg = check(lambda x: x * 2.0)
    assert not ok and "2 autograd nodes" in msg
    assert check(lambda x: x.detach())[0] is False  # no graph: an error message, not a crash


def test_torch_export_checker():
    torch = pytest.importorskip("torch")

    def with_if(x):
        if x.sum() > 0:
            return torch.sin(x) * x
        return torch.exp(x) - 1.0

    def with_cond(x):
        return torch.cond(x.sum() > 0, lambda x: torch.sin(x) * x, lambda x: torch.exp(x) - 1.0, (x,))

    examples = [torch.tensor([1.0, 2.0]), torch.tensor([-1.0, -3.0])]
    check = gc.torch_export_matches(with_if, examples)
    ok, msg = check(with_cond)
    assert ok and "agrees on all 2" in msg
    ok, msg = check(with_if)
    assert not ok and "torch.export failed" in msg

    def wrong(x):
        return torch.cond(x.sum() > 0, lambda x: torch.sin(x) * x, lambda x: torch.exp(x), (x,))

    assert "not" in check(wrong)[1]
