"""course_lib.lessons.debugging: breakpoints that print instead of waiting, a function's locals when it returned, and
when each style had its graph and its first value."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import programs, trace
from course_lib import static as st
from course_lib.i18n import message_of
from course_lib.lessons import debugging


def model(ops, x):
    h = x * 2.0
    breakpoint()  # noqa: T100 - the breakpoint under test
    y = ops.sin(h)
    return y


def test_define_by_run_stops_with_values(capsys):
    with debugging.peek_at_breakpoints() as stops:
        model(dy, dy.Tensor(3.0))
        model(dy, dy.Tensor(0.5))
    assert [s.line for s in stops] == [3, 3] and [s.function for s in stops] == ["model", "model"]
    assert stops[0].values == {"ops": "<module course_lib.dynamic>", "x": "Tensor(3.)", "h": "Tensor(6.)"}
    assert stops[1].values["h"] == "Tensor(1.)"
    out = capsys.readouterr().out
    assert out.count("breakpoint in model, line 3:") == 2 and "    h = Tensor(6.)" in out
    assert "/" not in out, "no file paths (they differ between machines and would break nbval)"


def test_define_then_run_stops_once_with_symbols():
    g = st.Graph()
    with debugging.peek_at_breakpoints(show=False) as stops, g.as_default():
        x = st.placeholder("x")
        y = model(st, x)
    sess = st.Session(g)
    sess.run(y, feed_dict={x: 1.0})
    sess.run(y, feed_dict={x: 2.0})
    assert len(stops) == 1, "the program ran once, to build; running the graph does not run the Python lines"
    assert "no value until Session.run" in stops[0].values["h"]


def test_hook_is_restored_even_after_an_error():
    before = sys.breakpointhook
    with pytest.raises(ZeroDivisionError), debugging.peek_at_breakpoints():
        _ = 1 / 0
    assert sys.breakpointhook is before


def test_describe_is_short_and_hides_helpers():
    assert debugging.describe(np.arange(100)).endswith("…") and len(debugging.describe(np.arange(100))) == 90
    assert debugging.describe(programs.affine_sin) == "<function affine_sin>"
    assert debugging.describe(object()) == "<object object>", "no memory address"

    def f():
        ag__, retval_, _private, shown = 1, 2, 3, 4  # noqa: F841 - AutoGraph-style names are hidden
        breakpoint()  # noqa: T100 - the breakpoint under test

    with debugging.peek_at_breakpoints(show=False) as stops:
        f()
    assert stops[0].values == {"shown": "4"}


def test_locals_at_return_sees_the_outermost_call_and_restores_the_profiler():
    def fact(n):
        r = 1 if n <= 1 else n * fact(n - 1)
        return r

    def profiler(*_):
        return None

    sys.setprofile(profiler)
    try:
        result, seen = debugging.locals_at_return(fact, 4)
        assert sys.getprofile() is profiler
    finally:
        sys.setprofile(None)
    assert result == 24 and (seen["n"], seen["r"]) == (4, 24)
    _, seen = debugging.locals_at_return(programs.affine_sin, dy, dy.Tensor(3.0), dy.Tensor(2.0))
    assert float(seen["h"].data) == 6.0 and float(seen["z"].data) == 7.0
    with pytest.raises(TypeError) as info:
        debugging.locals_at_return(print, 1)
    assert message_of(info.value).msgid is debugging.NOT_A_FUNCTION
    assert message_of(info.value).values == {"kind": "builtin_function_or_method"}


def two_layers(ops, x, w):
    h = ops.tanh(x * w)
    return ops.sin(h * w + 1.0)


@pytest.mark.parametrize("program", [programs.affine_sin, two_layers])
def test_moments_same_graph_made_at_two_moments(program):
    inputs = {name: 0.5 + k for k, name in enumerate(trace.input_names(program))}
    then, by = (debugging.moments(trace.record(program, s, inputs, backward=False)) for s in trace.STYLES)
    assert (then.style, by.style) == trace.STYLES
    assert then.structure == by.structure, "the same ops on the same inputs, in both styles"
    n = len(then.structure)
    assert then.complete_at == by.complete_at == n, "one event per node until the graph is complete"
    assert then.first_value_at == n + 1, "define-then-run: no value before the whole graph is defined"
    assert by.first_value_at == 1, "define-by-run: the first node has its value as it appears"


def test_moments_tell_different_graphs_apart_and_ignore_gradient_nodes():
    inputs = {"x": 0.5, "w": 1.5}
    a = debugging.moments(trace.record(programs.affine_sin, "define-by-run", inputs, backward=False))
    b = debugging.moments(trace.record(two_layers, "define-by-run", inputs, backward=False))
    assert a.structure != b.structure
    with_backward = debugging.moments(trace.record(two_layers, "define-then-run", inputs))
    assert with_backward.structure == b.structure, "gradient nodes are not part of the forward graph"
