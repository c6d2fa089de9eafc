"""The safe expression parser (never eval): what it accepts, what it refuses and why, and that both engines run it."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import expr
from course_lib import static as st


@pytest.mark.parametrize(("text", "variables"), [
    ("sin(x * w + 1)", ["x", "w"]),
    ("  x ** (1/2) + pi", ["x"]),
    ("-a / b - +c", ["a", "b", "c"]),
    ("relu(x) @ w", ["x", "w"]),
    ("x" + "+x" * 240, ["x"]),  # a long sum is a deep tree: parsed without recursion
])
def test_accepted_expressions(text, variables):
    assert expr.parse(text).variables == variables


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("   ", "empty"),
    ("x +", "not a valid expression"),
    ("(x", "not a valid expression"),
    ("__import__('os')", "not allowed|strings|unknown function"),
    ("x.__class__", "attribute"),
    ("x[0]", "indexing"),
    ("lambda: 1", "lambda"),
    ("[i for i in x]", "comprehensions"),
    ("x if y else z", "conditional"),
    ("x > 1", "comparisons"),
    ("x and y", "and/or"),
    ("'abc'", "only numbers"),
    ("True + x", "only numbers"),
    ("1j * x", "only numbers"),
    ("open(x)", "unknown function 'open'"),
    ("sine(x)", "did you mean sin"),
    ("sin(x, y)", "exactly one argument"),
    ("sin(x=1)", "exactly one argument"),
    ("sin + x", "is a function"),
    ("2 ** x", "exponent of \\*\\* must be a number"),
    ("x // 2", "FloorDiv"),
    ("x % 2", "Mod"),
    ("~x", "Invert"),
    ("x; y", "one expression only"),
    ("x\ny", "one expression only"),
    ("(x := 3)", "assignment"),
    ("_secret + 1", "underscore"),
    ("x" * 600, "limit"),
    ("+".join(f"v{i}" for i in range(20)), "variables"),
    (3.5, "must be text"),
])
def test_refused_expressions_say_why(text, message):
    with pytest.raises(expr.ExpressionError, match=message):
        expr.parse(text)


def test_error_position_points_at_the_problem():
    with pytest.raises(expr.ExpressionError) as e:
        expr.parse("x + open(y)")
    assert e.value.position == 4
    assert e.value.pointer("x + open(y)").splitlines()[1] == "    ^"


def test_expression_runs_the_same_in_both_engines():
    e = expr.parse("sin(x * w + 1) ** 2 / (1 + exp(-x))")
    want = np.sin(3 * 2 + 1) ** 2 / (1 + np.exp(-3))
    assert float(e.program(dy, x=dy.Tensor(3.0), w=dy.Tensor(2.0)).data) == pytest.approx(want)
    g = st.Graph()
    with g.as_default():
        x, w = st.placeholder("x"), st.placeholder("w")
        y = e.program(st, x=x, w=w)
    assert st.Session(g).run(y, {x: 3.0, w: 2.0}) == pytest.approx(want)
    with pytest.raises(expr.ExpressionError, match="no value given for w"):
        e.program(dy, x=dy.Tensor(1.0))


def test_names_and_constants_that_used_to_slip_through():
    with pytest.raises(expr.ExpressionError, match="'ops' cannot be a variable"):
        expr.parse("ops + x")
    e = expr.parse("2 ** 10000 + x")
    assert np.isinf(float(e.program(dy, x=dy.Tensor(1.0)).data))
