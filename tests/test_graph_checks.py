"""course_lib.lessons.graph_checks: exercise checkers that compute the truth from the program, and say which way it
is off."""

from __future__ import annotations

import pytest

from course_lib import programs
from course_lib.i18n import Said
from course_lib.lessons import exercises
from course_lib.lessons import graph_checks as gc
from course_lib.lessons.exercises import Exercise


def said(text: str, msgid: str, **values) -> bool:
    """``text`` is the course message ``msgid`` said with (at least) ``values``."""
    return isinstance(text, Said) and text.msgid is msgid and all(text.values[k] == v for k, v in values.items())


def test_node_count_is_and_its_direction():
    check = gc.node_count_is(programs.repeat_until_large, "define-by-run", {"x": 0.5})
    assert gc.node_count(programs.repeat_until_large, "define-by-run", {"x": 0.5}) == 13  # 4 rounds of mul, 1, add
    assert check(13) == (True, "yes: 13 nodes")  # end to end, in English
    assert said(check(13)[1], gc.YES_NODES, n=13)
    assert said(check(14)[1], gc.TOO_MANY) and said(check(7)[1], gc.TOO_FEW) and not check(14)[0]
    assert check(12.5)[0] is False and said(check("many")[1], exercises.NUMBER_OF["nodes"])
    static = gc.node_count_is(programs.branch_with_cond, "define-then-run", {"x": 1.0})
    assert static(gc.node_count(programs.branch_with_cond, "define-then-run", {"x": -1.0}))[0], "one graph for all"


def test_graph_changes_between():
    check = gc.graph_changes_between({"x": 1.0}, {"x": -1.0})
    ok, msg = check(programs.branch_with_python_if)
    assert ok and said(msg, gc.GRAPH_DIFFERS, inputs_a="x = 1", inputs_b="x = -1")
    assert "nodes for x = 1" in msg  # end to end, in English
    ok, msg = check(programs.affine_sin)  # two inputs: x and w; called with x only
    assert not ok and said(msg, gc.PROGRAM_RAISED, error="ValueError")

    def straight(ops, x):
        return ops.sin(x) * 2.0

    ok, msg = check(straight)
    assert not ok and said(msg, gc.SAME_GRAPH)
    assert check(len)[0] is False and said(check(len)[1], gc.FIRST_ARGUMENT_OPS)
    assert check(42)[0] is False and said(check(42)[1], gc.PASS_YOUR_FUNCTION)


def test_local_value_is():
    check = gc.local_value_is(programs.affine_sin, "z", {"x": 0.5, "w": 3.0})
    assert check(2.5)[0] and check("2.5")[0] and said(check(2.5)[1], gc.YES_VALUE, name="z", value="2.5")
    ok, msg = check(2.4)
    assert not ok and said(msg, gc.NOT_THE_VALUE, name="z", guess="2.4", inputs="x = 0.5, w = 3")
    assert "z is not 2.4" in msg  # end to end, in English
    assert said(gc.local_value_is(programs.affine_sin, "q", {"x": 1.0, "w": 1.0})(1.0)[1], gc.NOT_A_VARIABLE,
                name="q", program="affine_sin")
    assert check(float("nan"))[0] is False and said(check(float("nan"))[1], gc.ANSWER_THE_NUMBER)


def test_builds_like_accepts_a_cond_rewrite_and_rejects_the_python_if():
    check = gc.builds_like(programs.branch_with_python_if, [-2.0, -0.5, 0.5, 2.0])
    ok, msg = check(programs.branch_with_cond)
    assert ok and said(msg, gc.BUILDS_WITH_COND, points="-2, -0.5, 0.5, 2")
    ok, msg = check(programs.branch_with_python_if)
    assert not ok and said(msg, gc.CANNOT_BUILD)

    def only_then(ops, x):
        return ops.sin(x) * x * 2.0

    ok, msg = check(only_then)
    assert not ok and said(msg, gc.GIVES_OTHER, name="x", x="-2")
    assert "x = -2" in msg and "the original gives" in msg  # end to end, in English

    def returns_number(ops, x):
        return 1.0

    assert said(check(returns_number)[1], gc.MUST_RETURN)


def test_compile_report():
    def wasteful(ops, x):
        unused = ops.exp(x) * 10.0  # noqa: F841 - built, never fetched: pruned
        k = ops.sin(ops.constant(1.0) * 2.0)  # constants only: folded
        return x * k + x * k  # the same product twice: merged

    report = gc.compile_report(wasteful, {"x": 1.0})
    assert report["pruned"] == 3 and report["merged"] == 1 and report["folded"] == 2
    check = gc.compile_report_is(wasteful, {"x": 1.0})
    assert check((3, 2, 1))[0] and check((3, 2, 1))[1] == "yes: pruned 3, folded 2, merged 1"
    ok, msg = check((3, 0, 1))
    assert not ok and said(msg, gc.LOOK_AGAIN, keys="folded")
    assert said(check((0, 0, 1))[1], gc.LOOK_AGAIN, keys="pruned and folded")
    assert check(3)[0] is False and said(check(3)[1], gc.ANSWER_NUMBERS_IN_ORDER, n=3)


def test_values_are():
    check = gc.values_are(programs.affine_sin, ["h", "y"], {"x": 3.0, "w": 2.0})
    import numpy as np

    ok, msg = check([6.0, np.sin(7.0)])
    assert ok and said(msg, gc.YES_VALUES, values="h = 6, y = 0.656987")
    ok, msg = check([6.0, 0.0])
    assert not ok and said(msg, gc.ONE_NOT_RIGHT, names="y")
    assert msg == "y is not right"  # end to end, in English
    assert said(check([0.0, 0.0])[1], gc.SOME_NOT_RIGHT, names="h and y")
    assert check([6.0])[0] is False and said(check([6.0])[1], gc.ANSWER_VALUES, n=2)


def test_checkers_plug_into_exercises_and_never_crash():
    ex = Exercise("t", "?", expect=gc.graph_changes_between({"x": 1.0}, {"x": -1.0}), hints=["use an if"])
    assert ex.check(...).ok is None
    assert ex.check(programs.branch_with_python_if).ok is True
    wrong = ex.check(programs.reuse)
    assert wrong.ok is False and wrong.hint == 0 and said(wrong.said, gc.SAME_GRAPH, n=5)
    assert "Hint: use an if" in wrong.message  # end to end, in English


def test_torch_checkers():
    torch = pytest.importorskip("torch")

    def make():
        return torch.tensor(1.0, requires_grad=True)

    check = gc.torch_node_count_is(6, make)

    def grow(x):
        return torch.sin(torch.exp(x * 2.0) + 1.0) * 3.0  # AccumulateGrad + mul, exp, add, sin, mul

    assert check(grow) == (True, "yes: 6 autograd nodes")  # end to end, in English
    assert said(check(grow)[1], gc.YES_AUTOGRAD, n=6)
    ok, msg = check(lambda x: x * 2.0)
    assert not ok and said(msg, gc.AUTOGRAD_NODES, got=2, n=6)
    assert check(lambda x: x.detach())[0] is False  # no graph: an error message, not a crash
    assert said(check(3)[1], gc.PASS_YOUR_FUNCTION)


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
    assert ok and said(msg, gc.EXPORTED, k=2)
    ok, msg = check(with_if)
    assert not ok and said(msg, gc.EXPORT_FAILED)

    def wrong(x):
        return torch.cond(x.sum() > 0, lambda x: torch.sin(x) * x, lambda x: torch.exp(x), (x,))

    assert said(check(wrong)[1], gc.EXPORTED_BUT_GIVES, input=[-1.0, -3.0])
    assert said(check(3)[1], gc.PASS_FUNCTION_OR_MODULE)
