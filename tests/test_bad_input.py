"""Bad input to the core gets a clear message that says what was wrong and what to do — never a wrong value, never
a traceback from deep inside the library. One case each; every test checks which message was said and its values
(``i18n.message_of``), not its English words, so the same test passes in French (tests/test_i18n_engines.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import course_lib as cl
from course_lib import dynamic as dy
from course_lib import expr, ops
from course_lib import graph as ir
from course_lib import static as st
from course_lib.graph import Graph, GraphError
from course_lib.i18n import message_of
from course_lib.static import autodiff, build, session


@pytest.fixture
def g():
    graph = st.Graph()
    with graph.as_default():
        yield graph


# ---------------------------------------------------------------------- None is never a number
@pytest.mark.parametrize("value", [None, [1.0, None], "abc", {"a": 1}, [[1.0], [1.0, 2.0]]])
def test_a_dynamic_tensor_refuses_what_is_not_numbers(value):
    with pytest.raises(TypeError) as info:
        dy.Tensor(value)
    said = message_of(info.value)
    assert said.msgid is ops.NOT_NUMBERS and said.values["what"] == dy.A_TENSOR == "a Tensor"


@pytest.mark.parametrize("make", [st.constant, st.Variable])
def test_static_constants_and_variables_refuse_none(g, make):
    with pytest.raises(TypeError) as info:
        make(None)
    said = message_of(info.value)
    assert said.msgid is ops.NOT_NUMBERS and said.values == {"what": make.__name__, "got": "None"}


def test_feeding_none_is_refused_naming_the_placeholder(g):
    x = st.placeholder("x")
    with pytest.raises(TypeError) as info:
        st.Session(g).run(x * 2.0, {x: None})
    said = message_of(info.value)
    assert said.msgid is ops.NOT_NUMBERS and said.values == {"what": "the value fed to 'x'", "got": "None"}


def test_a_cond_branch_that_returns_none_is_refused(g):
    with pytest.raises(TypeError) as info:
        st.cond(st.placeholder("p"), lambda: 1.0, lambda: None)
    assert message_of(info.value).msgid is build.BRANCH_RETURNED_NONE[False]
    with pytest.raises(TypeError) as info:
        st.cond(st.placeholder("q"), lambda: None, lambda: 1.0)
    assert message_of(info.value).msgid is build.BRANCH_RETURNED_NONE[True]


# ---------------------------------------------------------------------- placeholders
@pytest.mark.parametrize(("shape", "msgid"), [
    ("abc", build.SHAPE_NOT_SIZES), (5, build.SHAPE_IS_A_NUMBER), ((3, -1), build.SHAPE_NOT_SIZES),
    ((2.5,), build.SHAPE_NOT_SIZES), ((True,), build.SHAPE_NOT_SIZES),
])
def test_a_placeholder_shape_must_be_sizes(g, shape, msgid):
    with pytest.raises(TypeError) as info:
        st.placeholder("x", shape=shape)
    said = message_of(info.value)
    assert said.msgid is msgid and said.values["name"] == "x"
    assert said.values.get("shape", said.values.get("size")) == shape


def test_a_placeholder_shape_accepts_lists_and_unknown_sizes(g):
    assert st.placeholder("x", shape=[None, 3]).shape == (None, 3)


@pytest.mark.parametrize("name", [123, "", None])
def test_a_placeholder_name_must_be_text(g, name):
    with pytest.raises(TypeError) as info:
        st.placeholder(name)
    said = message_of(info.value)
    assert said.msgid is build.NAME_NOT_TEXT and said.values == {"what": "placeholder", "name": name}


# ---------------------------------------------------------------------- the two styles do not mix
def test_a_dynamic_tensor_in_a_static_graph_is_refused_naming_both_styles(g):
    with pytest.raises(TypeError) as info:
        _ = st.placeholder("x") + dy.Tensor(1.0)
    assert message_of(info.value).msgid is build.MIXED_STYLES
    assert isinstance(message_of(info.value).values["value"], dy.Tensor)
    with pytest.raises(TypeError) as info:
        st.constant(dy.Tensor(1.0))
    assert message_of(info.value).msgid is build.MIXED_STYLES


def test_a_static_symbol_in_a_dynamic_operation_is_refused_naming_both_styles(g):
    with pytest.raises(TypeError) as info:
        _ = dy.Tensor(1.0) + st.placeholder("x")
    assert message_of(info.value).msgid is dy.MIXED_STYLES
    assert isinstance(message_of(info.value).values["value"], st.Tensor)
    with pytest.raises(TypeError) as info:
        dy.sin(st.placeholder("y"))
    assert message_of(info.value).msgid is dy.MIXED_STYLES


# ---------------------------------------------------------------------- backward and gradients
@pytest.mark.parametrize("shape", [(2, 3), (5,), ()])
def test_backward_checks_the_shape_of_the_given_gradient(shape):
    t = dy.Tensor(np.ones(3), requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        (t * 2.0).backward(grad=np.ones(shape))
    said = message_of(info.value)
    assert said.msgid is dy.GRAD_SHAPE and said.values == {"grad_shape": shape, "shape": (3,)}
    assert t.grad is None  # nothing was accumulated


def test_backward_with_a_gradient_of_the_right_shape_weights_the_outputs():
    t = dy.Tensor(np.ones(3), requires_grad=True)
    (t * 2.0).backward(grad=[1.0, 10.0, 100.0])
    assert t.grad.tolist() == [2.0, 20.0, 200.0]


def test_the_derivative_of_x_to_the_zero_is_zero_at_zero_as_in_pytorch(g):
    x = dy.Tensor(0.0, requires_grad=True)
    (x ** 0).backward()
    assert float(x.grad) == 0.0
    p = st.placeholder("x")
    (d,) = st.gradients(p ** 0, [p])
    assert float(st.Session(g).run(d, {p: 0.0})) == 0.0


@pytest.mark.parametrize(("xs", "kind"), [(3.0, "float"), ([None], "NoneType")])
def test_gradients_name_what_is_not_a_tensor(g, xs, kind):
    with pytest.raises(TypeError) as info:
        st.gradients(st.placeholder("x") * 2.0, xs)
    said = message_of(info.value)
    assert said.msgid is autodiff.NOT_TENSORS and said.values["what"] == "xs" and said.values["kind"] == kind


def test_gradients_refuse_outputs_that_are_not_tensors(g):
    with pytest.raises(TypeError) as info:
        st.gradients(2.0, [st.placeholder("x")])
    said = message_of(info.value)
    assert said.msgid is autodiff.NOT_TENSORS and said.values["what"] == "ys"


# ---------------------------------------------------------------------- Session
@pytest.mark.parametrize("graph", ["abc", 3, [Graph("in a list")]])
def test_a_session_needs_a_graph(graph):
    with pytest.raises(TypeError) as info:
        st.Session(graph)
    said = message_of(info.value)
    assert said.msgid is session.NOT_A_GRAPH and said.values["kind"] == type(graph).__name__


@pytest.mark.parametrize("feeds", [[1.0], (1.0,), 1.0])
def test_feed_dict_must_be_a_dict(g, feeds):
    x = st.placeholder("x")
    with pytest.raises(TypeError) as info:
        st.Session(g).run(x * 2.0, feeds)
    said = message_of(info.value)
    assert said.msgid is session.FEED_DICT_NOT_A_DICT and said.values["kind"] == type(feeds).__name__
    assert str(info.value).startswith("feed_dict must be a dict {placeholder: value}, like feed_dict={x: 3.0}; ")


# ---------------------------------------------------------------------- graphs read back from data
@pytest.mark.parametrize(("data", "msgid", "values"), [
    ({}, ir.NOT_GRAPH_DATA, {"kind": "dict"}), ([], ir.NOT_GRAPH_DATA, {"kind": "list"}),
    ({"nodes": [{"op": "sin", "name": "s", "inputs": [5]}]}, ir.NOT_NODE_DATA,
     {"k": 0, "earlier": "(none: it is the first node)"}),
    ({"nodes": [{"op": "x", "name": "x", "inputs": []}, {"name": "s", "inputs": [0]}]}, ir.NOT_NODE_DATA,
     {"k": 1, "earlier": "by index, 0..0"}),
    ({"nodes": [{"op": "x", "name": "x", "inputs": []}], "outputs": [3]}, ir.BAD_OUTPUTS,
     {"outputs": "[3]", "last": 0}),
])
def test_graph_from_dict_says_what_is_wrong_with_the_data(data, msgid, values):
    with pytest.raises(GraphError) as info:
        Graph.from_dict(data)
    said = message_of(info.value)
    assert said.msgid is msgid and {k: said.values[k] for k in values} == values


def test_a_graph_round_trips_through_its_dict():
    a = Graph("g")
    x = a.add("placeholder", name="x", kind="input")
    a.mark_output(a.add("sin", [x]))
    b = Graph.from_dict(a.to_dict())
    assert [(n.op, n.name, n.input_ids) for n in b.nodes] == [("placeholder", "x", ()), ("sin", "sin", (0,))]
    assert [n.name for n in b.outputs] == ["sin"]


# ---------------------------------------------------------------------- the expression parser folds as numpy does
@pytest.mark.parametrize(("text", "check"), [
    ("0/0", np.isnan), ("1/0", lambda v: v == np.inf), ("-1/0", lambda v: v == -np.inf),
    ("1" * 400, lambda v: v == np.inf),
])
def test_numbers_alone_give_what_numpy_gives(text, check):
    assert check(float(expr.parse(text).program(dy)))


def test_a_constant_division_by_zero_next_to_a_variable_gives_inf_in_both_engines():
    e = expr.parse("1/0 + x")
    assert float(e.program(dy, x=dy.Tensor(1.0)).data) == np.inf
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = e.program(st, x=x)
    assert float(st.Session(g).run(y, {x: 1.0})) == np.inf


def test_matmul_of_two_numbers_is_explained():
    with pytest.raises(expr.ExpressionError) as info:
        expr.parse("2 @ 3").program(dy)
    assert message_of(info.value).msgid is expr.MATMUL_OF_NUMBERS and info.value.hint.msgid is expr.MULTIPLY_NUMBERS


# ---------------------------------------------------------------------- drawing options
@pytest.mark.parametrize("max_nodes", ["abc", 2.5, None, True])
def test_draw_says_max_nodes_must_be_a_whole_number(max_nodes):
    with pytest.raises(TypeError, match=r"max_nodes must be a whole number of boxes"):
        cl.draw(dy.sin(dy.Tensor(1.0, requires_grad=True)), max_nodes=max_nodes)


@pytest.mark.parametrize(("option", "value", "words"), [
    ("state", 42, r"state must be None, one status for every node"),
    ("values", [1.0], r"values must be a mapping node id -> value"),
    ("grads", "x", r"grads must be a mapping node id -> value"),
])
def test_draw_says_what_a_state_or_values_must_be(option, value, words):
    with pytest.raises(TypeError, match=words):
        cl.draw(dy.sin(dy.Tensor(1.0, requires_grad=True)), **{option: value})


def test_as_array_keeps_numbers_and_refuses_the_rest():
    assert ops.as_array(True, "x").dtype == np.float64
    with pytest.raises(TypeError) as info:
        ops.as_array(1j, "x")
    said = message_of(info.value)
    assert said.msgid is ops.NOT_NUMBERS and said.values == {"what": "x", "got": "1j"}
    assert str(info.value) == "x needs a number or an array of numbers, got 1j"  # English, word for word


# ---------------------------------------------------------------------- layout: names Graphviz cannot take
@pytest.mark.parametrize(("name", "shown"), [("x" * 100_000, "x" * 59 + "…"), ("a\x00b", "a\ufffdb"),
                                             ("tab\there", "tab\ufffdhere")])
def test_names_graphviz_cannot_take_are_cleaned_and_drawn(name, shown):
    from course_lib import render

    g = Graph()
    g.add("sin", [g.add("placeholder", name=name, kind="input")])
    lay = render.Layout(g)
    assert lay.ok, lay.reasons
    assert lay.plan.items[0].title == shown


def test_a_layout_refused_by_graphviz_says_so_not_that_graphviz_is_missing(monkeypatch):
    from course_lib import render

    def refuse(dot):
        raise RuntimeError("Graphviz could not lay this graph out")

    def absent(dot):
        raise ImportError("No module named 'pygraphviz'")

    g = Graph()
    g.add("sin", [g.add("placeholder", name="x", kind="input")])
    monkeypatch.setattr(render.engines, "ENGINES", (("pygraphviz", absent), ("dot program", refuse)))
    render.clear_cache()
    message = render.Layout(g).message
    assert message.startswith("Graphviz could not lay this graph out") and "dot program: RuntimeError" in message
    assert "No Graphviz layout engine was found" not in message
    monkeypatch.setattr(render.engines, "ENGINES", (("pygraphviz", absent),))
    render.clear_cache()
    assert render.Layout(g).message.startswith("No Graphviz layout engine was found")
