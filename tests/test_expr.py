"""The safe expression parser (never eval): what it accepts, what it refuses and why, and that both engines run it."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import expr
from course_lib import static as st
from course_lib.i18n import message_of


@pytest.mark.parametrize(("text", "variables"), [
    ("sin(x * w + 1)", ["x", "w"]),
    ("  x ** (1/2) + pi", ["x"]),
    ("-a / b - +c", ["a", "b", "c"]),
    ("relu(x) @ w", ["x", "w"]),
    ("x" + "+x" * 240, ["x"]),  # a long sum is a deep tree: parsed without recursion
])
def test_accepted_expressions(text, variables):
    assert expr.parse(text).variables == variables


@pytest.mark.parametrize(("text", "msgid", "values"), [
    ("", expr.EMPTY, {}),
    ("   ", expr.EMPTY, {}),
    ("x +", expr.NOT_VALID, {}),
    ("(x", expr.NOT_VALID, {}),
    ("__import__('os')", expr.UNKNOWN_FUNCTION, {"name": "__import__"}),
    ("x.__class__", expr.REFUSED[ast.Attribute], {}),
    ("x[0]", expr.REFUSED[ast.Subscript], {}),
    ("lambda: 1", expr.REFUSED[ast.Lambda], {}),
    ("[i for i in x]", expr.COMPREHENSIONS, {}),
    ("x if y else z", expr.REFUSED[ast.IfExp], {}),
    ("x > 1", expr.REFUSED[ast.Compare], {}),
    ("x and y", expr.REFUSED[ast.BoolOp], {}),
    ("'abc'", expr.ONLY_NUMBERS_NOT_TEXT, {"value": "abc"}),
    ("True + x", expr.ONLY_NUMBERS, {"kind": "bool", "value": True}),
    ("1j * x", expr.ONLY_NUMBERS, {"kind": "complex", "value": 1j}),
    ("open(x)", expr.UNKNOWN_FUNCTION, {"name": "open"}),
    ("sine(x)", expr.UNKNOWN_FUNCTION, {"name": "sine"}),
    ("sin(x, y)", expr.ONE_ARGUMENT, {"name": "sin"}),
    ("sin(x=1)", expr.ONE_ARGUMENT, {"name": "sin"}),
    ("sin + x", expr.IS_A_FUNCTION, {"name": "sin"}),
    ("2 ** x", expr.EXPONENT, {}),
    ("x // 2", expr.OPERATOR, {"name": "FloorDiv"}),
    ("x % 2", expr.OPERATOR, {"name": "Mod"}),
    ("~x", expr.OPERATOR, {"name": "Invert"}),
    ("x; y", expr.ONE_LINE, {}),
    ("x\ny", expr.ONE_LINE, {}),
    ("(x := 3)", expr.REFUSED[ast.NamedExpr], {}),
    ("_secret + 1", expr.UNDERSCORE, {"name": "_secret"}),
    ("x" * 600, expr.TOO_LONG, {"length": 600, "limit": expr.MAX_LENGTH}),
    ("+".join(f"v{i}" for i in range(20)), expr.TOO_MANY_VARIABLES, {"count": 20, "limit": expr.MAX_VARIABLES}),
    (3.5, expr.NOT_TEXT, {"kind": "float"}),
])
def test_refused_expressions_say_why(text, msgid, values):
    with pytest.raises(expr.ExpressionError) as e:
        expr.parse(text)
    said = message_of(e.value)
    assert said.msgid is msgid and said is e.value.message
    assert {k: said.values[k] for k in values} == values


def test_an_unknown_function_close_to_a_known_one_is_named_in_the_hint():
    with pytest.raises(expr.ExpressionError) as e:
        expr.parse("sine(x)")
    assert e.value.hint.msgid is expr.DID_YOU_MEAN and e.value.hint.values["close"] == "sin"
    with pytest.raises(expr.ExpressionError) as e:
        expr.parse("open(x)")
    assert e.value.hint.msgid is expr.THE_FUNCTIONS and "sin" in e.value.hint.values["functions"]


def test_the_english_text_of_an_error_is_message_column_and_hint():
    with pytest.raises(expr.ExpressionError) as e:
        expr.parse("x + open(y)")
    assert str(e.value) == f"unknown function 'open' at column 5. the functions are {', '.join(expr.functions())}"


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
    with pytest.raises(expr.ExpressionError) as info:
        e.program(dy, x=dy.Tensor(1.0))
    assert message_of(info.value).msgid is expr.NO_VALUE and message_of(info.value).values == {"names": "w"}


def test_names_and_constants_that_used_to_slip_through():
    with pytest.raises(expr.ExpressionError) as info:
        expr.parse("ops + x")
    assert message_of(info.value).msgid is expr.RESERVED_NAME and message_of(info.value).values == {"name": "ops"}
    assert info.value.hint.msgid is expr.PICK_ANOTHER_NAME
    e = expr.parse("2 ** 10000 + x")
    assert np.isinf(float(e.program(dy, x=dy.Tensor(1.0)).data))
