"""The two engines, their errors (each message must say what is wrong and what to do), and deep graphs.

An error is checked by the message it was said with (``i18n.message_of``: the module constant and its values), not
by its English words; tests/test_i18n_engines.py checks the words, in English and in French."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import course_lib as cl
from course_lib import dynamic as dy
from course_lib import graph as ir
from course_lib import ops, programs
from course_lib import static as st
from course_lib.i18n import message_of
from course_lib.static import autodiff, session
from course_lib.static import build as building
from course_lib.static import compile as plans


def said(info):
    """The message an error caught by ``pytest.raises(...) as info`` was raised with."""
    return message_of(info.value)


def build(fn):
    g = st.Graph()
    with g.as_default():
        out = fn()
    return g, out


# ---------------------------------------------------------------- graph IR
def test_ir_cycle_is_refused_with_the_loop_named():
    g = ir.Graph()
    a = g.add("placeholder", name="a", kind="input")
    b = g.add("sin", [a])
    c = g.add("exp", [b])
    with pytest.raises(ir.CycleError) as info:
        g.add_edge(c, b)
    assert said(info).msgid is ir.CYCLE_EDGE and said(info).values == {"src": "exp", "dst": "sin",
                                                                       "loop": "sin -> exp -> sin"}
    with pytest.raises(ir.CycleError) as info:
        g.add_edge(a, a)
    assert said(info).values["loop"] == "a -> a"
    g.add_edge(a, c)  # not a cycle: allowed
    assert c.input_ids == (1, 0)


def test_ir_topological_order_is_deterministic_and_iterative():
    g = ir.Graph()
    n = g.add("placeholder", name="x", kind="input")
    for _ in range(20000):
        n = g.add("sin", [n])
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        order = g.topological_order()
        assert len(g.ancestors([n])) == 20001
    finally:
        sys.setrecursionlimit(limit)
    assert [m.id for m in order] == list(range(20001))
    assert g["sin_19999"] is n


def test_the_one_topological_order_walks_a_100000_deep_chain_of_anything():
    """graph.topological works on any values with a parents function, iteratively (recursion limit 200); the two
    engines' walks are this one (test_ten_thousand_node_chain_runs_forward_and_backward runs them deep)."""
    parents = {k: ([k - 1] if k else []) for k in range(100_000)}
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        order = ir.topological([99_999], parents.__getitem__, key=int)
        shuffled = ir.topological([0], {0: [1], 1: []}.__getitem__, key=int)  # keys against the edges: Kahn's way
    finally:
        sys.setrecursionlimit(limit)
    assert order == list(range(100_000)) and shuffled == [1, 0]


def test_the_one_topological_order_breaks_ties_by_creation_and_follows_edges_added_later():
    g = ir.Graph()
    a, b = g.add("placeholder", name="a", kind="input"), g.add("placeholder", name="b", kind="input")
    c = g.add("sin", [b])
    d = g.add("exp", [a])
    g.add_edge(d, c)  # c (id 2) now reads d (id 3): creation order alone is no longer an order
    assert [n.name for n in g.topological_order()] == ["a", "b", "exp", "sin"]
    back: dict[int, list[int]] = {}
    cyclic = {0: [], 1: [2, 0], 2: [1]}  # 1 <-> 2: a loop, as TF1's while_loop has
    assert ir.topological([0, 1, 2], cyclic.__getitem__, key=int, back_edges=back) == [0, 1, 2] and back == {1: [2]}
    with pytest.raises(ir.CycleError) as info:
        ir.topological([2], cyclic.__getitem__, key=int, name=str)
    assert said(info).msgid is ir.CYCLE and said(info).values == {"cycle": "1 <- 2 <- 1"}


def test_backward_hands_gradients_on_in_reverse_creation_order_as_gradients_builds_them():
    """The dynamic engine's backward walks graph.topological's order, outputs first: reverse creation order."""
    x, y = dy.Tensor(1.0, requires_grad=True, name="x"), dy.Tensor(2.0, requires_grad=True, name="y")
    a = x * 2.0
    b = y * 3.0
    out = b + a
    seen: list[int] = []
    out.backward(on_grad=lambda t, g: seen.append(t.id))
    assert seen == [t.id for t in reversed(out.history()) if t.requires_grad]
    assert seen == sorted(seen, reverse=True)


def test_ir_round_trips_through_json_and_rejects_foreign_nodes():
    g, _y = build(lambda: st.sin(st.placeholder("x") * 2.0))
    data = g.to_json()
    h = ir.Graph.from_dict(__import__("json").loads(data))
    assert [(n.op, n.name, n.input_ids) for n in h] == [(n.op, n.name, n.input_ids) for n in g]
    other = ir.Graph()
    with pytest.raises(ir.GraphError) as info:
        other.add("sin", [g.nodes[0]])
    assert said(info).msgid is ir.NODE_OF_ANOTHER_GRAPH and said(info).values["name"] == "x"
    with pytest.raises(ir.GraphError) as info:
        other.add("x", kind="weird")
    assert said(info).msgid is ir.UNKNOWN_KIND and said(info).values["kind"] == "weird"


# ---------------------------------------------------------------- define-then-run
def test_static_api_of_the_design():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        w = st.Variable(2.0, name="w")
        y = st.sin(x * w + st.constant(1.0))
    sess = st.Session(g)
    assert sess.run(y, feed_dict={x: 3.0}) == pytest.approx(np.sin(7.0))
    assert isinstance(sess.run(y, feed_dict={x: 3.0}), np.floating)
    dx, dw = st.gradients(y, [x, w])
    assert all(n.gradient for n in g.nodes if n.name.startswith("gradients/"))
    got = sess.run([dx, dw], {x: 3.0})
    np.testing.assert_allclose(got, [2 * np.cos(7.0), 3 * np.cos(7.0)])
    g.finalize()
    with pytest.raises(st.GraphFinalizedError) as info, g.as_default():
        st.exp(x)
    assert said(info).msgid is building.FINALIZED and said(info).values == {"name": "exp"}
    assert issubclass(st.GraphFinalizedError, RuntimeError)


def test_missing_feed_names_the_placeholder():
    g, y = build(lambda: st.placeholder("x") * st.placeholder("speed"))
    with pytest.raises(st.MissingFeedError) as info:
        st.Session(g).run(y)
    assert said(info).msgid is plans.MISSING_FEED and said(info).values["name"] in ("x", "speed")
    assert said(info).values["feed"] == f"feed_dict={{{said(info).values['name']}: value}}"
    x = g["x"]
    with pytest.raises(st.MissingFeedError) as info:
        st.Session(g).run(y, {st.Tensor(x, g): 1.0})
    assert said(info).values["name"] == "speed" and said(info).values["users"] == "'mul'"


def test_session_runs_only_the_subgraph_the_fetch_needs():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        unused = st.placeholder("never_fed")
        a = st.sin(x)
        st.log(unused)  # another branch of the graph: must not be required
    sess = st.Session(g)
    assert sess.run(a, {x: 0.5}) == pytest.approx(np.sin(0.5))
    assert sess.last_plan.report["needed"] == 2


def test_wrong_shape_and_unknown_fetch_errors():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x", shape=(None, 3))
        s = st.sum(x)
        v = st.placeholder("v", shape=(2,))
    sess = st.Session(g)
    assert sess.run(s, {x: np.ones((4, 3))}) == 12.0
    with pytest.raises(st.ShapeError) as info:
        sess.run(s, {x: np.ones((2, 2))})
    assert said(info).msgid is session.FED_SHAPE
    assert said(info).values == {"name": "x", "expected": "shape (None, 3) (None = any size)", "shape": (2, 2)}
    with pytest.raises(st.ShapeError) as info, g.as_default():
        x + v
    assert said(info).msgid is ops.BROADCAST and said(info).values["shapes"] == "(None, 3) and (2,)"
    with pytest.raises(st.FetchError) as info:
        sess.run("nope")
    assert said(info).msgid is session.NO_TENSOR_NAMED and said(info).values["name"] == "nope"
    with pytest.raises(st.FetchError) as info:
        sess.run(3)
    assert said(info).msgid is session.CANNOT_FETCH and said(info).values == {"kind": "int", "value": 3}
    h = st.Graph()
    with h.as_default():
        other = st.constant(1.0)
    with pytest.raises(st.FetchError) as info:
        sess.run(other)
    assert said(info).msgid is session.FETCH_OTHER_GRAPH and said(info).values == {"name": "Const"}
    with pytest.raises(TypeError) as info:
        sess.run(s, {x: "abc"})
    assert said(info).msgid is ops.NOT_NUMBERS and said(info).values["what"] == "the value fed to 'x'"


def test_run_time_shape_error_names_the_node():
    g = st.Graph()
    with g.as_default():
        a = st.placeholder("a", shape=None)
        b = st.placeholder("b", shape=None)
        c = a + b
    with pytest.raises(st.ShapeError) as info:
        st.Session(g).run(c, {a: np.ones(2), b: np.ones(3)})
    assert said(info).msgid is plans.RUN_SHAPES and said(info).values == {"name": "add", "op": "add",
                                                                         "shapes": "(2,), (3,)"}


def test_python_if_on_a_symbol_explains_cond():
    g = st.Graph()
    with g.as_default(), pytest.raises(st.SymbolicBoolError) as info:
        programs.branch_with_python_if(st, st.placeholder("x"))
    assert said(info).msgid is building.NEEDS_TRUE_OR_FALSE and said(info).values == {"name": "greater"}
    assert "st.cond(pred, true_fn, false_fn)" in str(info.value)
    with g.as_default(), pytest.raises(st.SymbolicBoolError) as info:
        float(st.placeholder("y"))
    assert said(info).msgid is building.NO_VALUE_YET and said(info).values == {"name": "y"}


def test_compile_cache_counts_recompiles_when_the_graph_changes():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = x * 2.0
    sess = st.Session(g)
    for v in range(5):
        sess.run(y, {x: float(v)})
    assert sess.compile_count == 1
    with g.as_default():
        z = y + 1.0  # the graph changed: the cached plan is stale
    assert sess.run(z, {x: 1.0}) == 3.0
    assert sess.run(y, {x: 1.0}) == 2.0
    assert sess.compile_count == 3


def test_compile_folds_constants_and_merges_duplicates():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        k = st.constant(2.0) * st.constant(3.0)  # foldable
        y = st.sin(x) * k + st.sin(x)  # sin(x) twice: one is merged
    sess = st.Session(g)
    assert sess.run(y, {x: 0.3}) == pytest.approx(7 * np.sin(0.3))
    plan = sess.last_plan
    assert plan.report["folded"] == 1 and plan.report["merged"] == 1
    src = plan.source()
    assert src.startswith("def plan(x_0):") and "folded" in src and src.count("sin(") == 1
    # the shown source is faithful: running it gives the same value (exec in the test only)
    ns = {"sin": np.sin}
    exec(src, ns)  # noqa: S102 - our own generated code, in a test
    assert ns["plan"](0.3) == pytest.approx(7 * np.sin(0.3))


def test_cond_runs_only_the_branch_taken_and_differentiates_it():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = st.cond(x > 0, lambda: st.log(x), lambda: -x)  # log of a negative would be nan if run
        (d,) = st.gradients(y, [x])
    sess = st.Session(g)
    assert sess.run(y, {x: np.e}) == pytest.approx(1.0)
    assert sess.run([y, d], {x: -2.0}) == [2.0, -1.0]
    assert sess.run(d, {x: 4.0}) == pytest.approx(0.25)
    scopes = {n.scope for n in g.nodes}
    assert {"cond/then", "cond/else"} <= scopes


def test_the_same_program_gives_the_same_graph_in_both_styles():
    g = st.Graph()
    with g.as_default():
        y_st = programs.affine_sin(st, st.placeholder("x"), st.placeholder("w"))
    y_dy = programs.affine_sin(dy, dy.Tensor(3.0, requires_grad=True, name="x"),
                               dy.Tensor(2.0, requires_grad=True, name="w"))
    ops_st = [n.op for n in cl.to_graph(y_st).nodes]
    ops_dy = [n.op for n in cl.to_graph(y_dy).nodes]
    assert [o.replace("placeholder", "input") for o in ops_st] == ops_dy


def test_dynamic_graph_changes_with_the_input_static_one_does_not():
    sizes = {len(programs.repeat_until_large(dy, dy.Tensor(v, requires_grad=True)).graph())
             for v in (0.5, 2.0, 20.0)}
    assert len(sizes) == 3
    st_sizes = set()
    for _value in (0.5, -0.5):  # the graph is built before any value is known: the same graph for both
        g = st.Graph()
        with g.as_default():
            x = st.placeholder("x")
            programs.branch_with_cond(st, x)
        st_sizes.add(len(g))
    dy_sizes = {len(programs.branch_with_cond(dy, dy.Tensor(v, requires_grad=True)).graph()) for v in (0.5, -0.5)}
    assert len(st_sizes) == 1 and len(dy_sizes) == 2


# ---------------------------------------------------------------- define-by-run
def test_dynamic_api_of_the_design():
    a = dy.Tensor(3.0, requires_grad=True)
    assert a.grad is None
    b = dy.sin(a * 2.0 + 1.0)
    b.backward()
    assert isinstance(a.data, np.ndarray) and a.data.dtype == np.float64
    assert float(a.grad) == pytest.approx(2 * np.cos(7.0))
    g = b.graph()
    assert isinstance(g, ir.Graph) and [n.op for n in g.nodes] == ["input", "constant", "mul", "constant", "add",
                                                                   "sin"]
    assert g.outputs == [g.nodes[-1]]
    with dy.no_grad():
        c = a * 2.0
    assert not c.requires_grad and c.is_leaf


def test_dynamic_reused_node_accumulates_gradient():
    x = dy.Tensor(1.3, requires_grad=True)
    programs.reuse(dy, x).backward()
    assert float(x.grad) == pytest.approx(np.sin(1.3) + 1.3 * np.cos(1.3) + 2 * 1.3)


def test_dynamic_errors_say_what_to_do():
    x = dy.Tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        (x * 2.0).backward()
    assert said(info).msgid is dy.NOT_A_NUMBER and said(info).values == {"shape": (2,)}
    with pytest.raises(RuntimeError) as info:
        dy.Tensor(1.0).backward()
    assert said(info).msgid is dy.NOTHING_RECORDED
    with pytest.raises(dy.ShapeError) as info:
        x + dy.Tensor([1.0, 2.0, 3.0])
    assert said(info).msgid is ops.BROADCAST and said(info).values == {"op": "add", "shapes": "(2,) and (3,)"}
    with pytest.raises(dy.ShapeError) as info:
        dy.Tensor(np.ones((2, 3))) @ dy.Tensor(np.ones((2, 3)))
    assert said(info).msgid is ops.MATMUL_INNER and said(info).values == {"a": (2, 3), "b": (2, 3), "m": 3, "n": 2}
    with pytest.raises(TypeError) as info:
        x ** x
    assert said(info).msgid is ops.POW_NEEDS_NUMBER is dy.POW_NEEDS_NUMBER
    with pytest.raises(TypeError) as info:
        x + "a"
    assert said(info).msgid is ops.NOT_NUMBERS and said(info).values == {"what": "add(): input 2", "got": "'a'"}
    with pytest.raises(ValueError) as info:
        bool(x)
    assert said(info).msgid is dy.AMBIGUOUS and said(info).values == {"shape": (2,)}


@pytest.mark.parametrize("engine", ["static", "dynamic"])
def test_ten_thousand_node_chain_runs_forward_and_backward(engine):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(300)  # proves no step recurses per node
    try:
        if engine == "dynamic":
            x = dy.Tensor(0.5, requires_grad=True)
            y = x
            for _ in range(10000):
                y = dy.sin(y) + 0.0001
            y.backward()
            grad, val = float(x.grad), float(y.data)
            assert len(y.graph()) > 10000
        else:
            g = st.Graph()
            with g.as_default():
                xp = st.placeholder("x")
                y = xp
                for _ in range(10000):
                    y = st.sin(y) + 0.0001
                (d,) = st.gradients(y, [xp])
            val, grad = st.Session(g).run([y, d], {xp: 0.5})
    finally:
        sys.setrecursionlimit(limit)
    v, gr = 0.5, 1.0
    for _ in range(10000):
        gr *= np.cos(v)
        v = np.sin(v) + 0.0001
    assert val == pytest.approx(v) and grad == pytest.approx(gr)


def test_a_graph_with_cond_runs_after_a_json_round_trip():
    import json

    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = programs.branch_with_cond(st, x)
    h = st.Graph.from_dict(json.loads(g.to_json()))
    sess = st.Session(h)
    for v in (1.0, -1.0):
        assert sess.run(y.name, {"x": v}) == pytest.approx(st.Session(g).run(y, {x: v}))
    with h.as_default():
        z = st.cond(st.Tensor(h["x"], h) > 2.0, lambda: st.Tensor(h["x"], h) * 3.0, lambda: st.constant(0.0))
    assert sess.run(z, {"x": 3.0}) == 9.0 and sess.run(z, {"x": 1.0}) == 0.0


def test_scalar_plans_give_numpy_answers_where_math_refuses():
    """The float-specialized plan falls back to numpy for inf/nan, so it agrees with define-by-run everywhere."""
    cases = {"log": lambda o, x: o.log(x), "div": lambda o, x: 1.0 / x, "exp": lambda o, x: o.exp(x * 1000.0),
             "pow": lambda o, x: x ** (1 / 3), "sigmoid": lambda o, x: o.sigmoid(x * 1000.0),
             "sin": lambda o, x: o.sin(1.0 / x)}
    for name, f in cases.items():
        for v in (-1.0, 0.0, 2.0):
            g = st.Graph()
            with g.as_default():
                x = st.placeholder("x")
                y = f(st, x)
            sess = st.Session(g)
            got = sess.run(y, {x: v})
            assert sess.last_plan.scalar
            with np.errstate(all="ignore"):
                want = f(dy, dy.Tensor(v)).data
            np.testing.assert_equal(got, want, err_msg=f"{name}({v})")
            assert isinstance(got, np.float64)
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x", shape=(2,))
        y = st.sum(x * 2.0)
    sess = st.Session(g)
    assert sess.run(y, {x: [1.0, 2.0]}) == 6.0 and not sess.last_plan.scalar


def test_to_graph_of_a_tensor_leaves_the_users_graph_as_it_is():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = st.sin(x)
        z = st.cos(x)
    version, outputs = g.version, list(g.outputs)
    view = cl.to_graph(y)
    assert view.outputs == [y.node]
    assert [n.name for n in view.nodes] == ["x", "sin", "cos"]
    assert g.outputs == outputs and g.version == version
    assert cl.to_graph(z).outputs == [z.node]  # the first drawing marked nothing in the user's graph


def test_a_plan_is_built_whole_and_never_changed_afterwards():
    import dataclasses

    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = st.sin(x * 2.0)
    plan = st.Session(g).plan([y], [x])
    assert plan.scalar and plan.report["scalar"] == 1
    assert [step.node.op for step in plan.steps] == ["mul", "sin"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.scalar = False  # type: ignore[misc]


@pytest.mark.parametrize(("op", "expected"), [
    (lambda a, b: a > b, [0.0, 0.0, 1.0]), (lambda a, b: a < b, [1.0, 0.0, 0.0]),
    (lambda a, b: a >= b, [0.0, 1.0, 1.0]), (lambda a, b: a <= b, [1.0, 1.0, 0.0]),
])
def test_comparisons_give_zeros_and_ones_and_no_gradient_in_both_engines(op, expected):
    a, b = np.array([1.0, 2.0, 3.0]), np.array([2.0, 2.0, 2.0])
    t = op(dy.Tensor(a, requires_grad=True), b)
    assert t.data.tolist() == expected and not t.requires_grad  # a constant: nothing to differentiate
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("a", shape=(3,))
        y = op(x, b)
        assert st.gradients(st.sum(y * x), [x])[0] is not None
    assert st.Session(g).run(y, {x: a}).tolist() == expected


def test_matmul_with_a_plain_array_on_the_left_and_its_gradient():
    w = dy.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]), requires_grad=True)
    y = np.array([1.0, -1.0]) @ w
    y.sum().backward()
    assert y.data.tolist() == [-2.0, -2.0]
    assert w.grad.tolist() == [[1.0, 1.0], [-1.0, -1.0]]  # d(sum(v @ W))/dW = outer(v, 1)


def test_gradients_take_explicit_output_gradients_and_refuse_no_outputs_or_a_seed_count_that_differs():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x", shape=(2,))
        y = x * x
        (dx,) = st.gradients(y, [x], grad_ys=st.constant([1.0, 10.0]))
        with pytest.raises(ValueError) as info:
            st.gradients([], [x])
        assert said(info).msgid is autodiff.NO_OUTPUT
        for seeds in ([], [st.constant(1.0), st.constant(2.0)]):  # zip() would drop or ignore the extra silently
            with pytest.raises(ValueError) as info:
                st.gradients(y, [x], grad_ys=seeds)
            assert said(info).msgid is autodiff.SEEDS_PER_OUTPUT
    assert st.Session(g).run(dx, {x: [3.0, 4.0]}).tolist() == [6.0, 80.0]


def test_a_graph_with_an_unknown_op_is_refused_when_compiled_and_differentiated():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        node = g.add("softsign", [x.node], attrs={"shape": ()})
    with pytest.raises(ValueError) as info:
        st.Session(g).run(st.Tensor(node, g), {x: 1.0})
    assert said(info).msgid is plans.UNKNOWN_OP_IN_NODE
    assert {k: said(info).values[k] for k in ("op", "name")} == {"op": "softsign", "name": "softsign"}
    with g.as_default(), pytest.raises(NotImplementedError) as info:
        st.gradients(st.Tensor(node, g), [x])
    assert said(info).msgid is autodiff.NO_GRAD_RULE and said(info).values == {"name": "softsign"}


def test_a_tensor_exponent_is_refused_with_the_way_to_write_it():
    with pytest.raises(TypeError) as info:
        _ = 2.0 ** dy.Tensor(2.0)
    assert said(info).msgid is ops.TENSOR_EXPONENT and "exp(x * log(c))" in str(info.value)
    with st.Graph().as_default(), pytest.raises(TypeError) as info:
        _ = 2.0 ** st.placeholder("x")
    assert said(info).msgid is ops.TENSOR_EXPONENT is building.TENSOR_EXPONENT


def test_the_derivative_of_a_division_does_not_underflow_where_its_value_does_not():
    # d(a/b)/db = -(a/b)/b: written with the output, b*b (1e-400) is never formed
    a, b = dy.Tensor(0.0, requires_grad=True), dy.Tensor(1e-200, requires_grad=True)
    (a / b).backward()
    assert float(b.grad) == 0.0 and float(a.grad) == pytest.approx(1e200)
    g = st.Graph()
    with g.as_default():
        pa, pb = st.placeholder("a"), st.placeholder("b")
        _, db = st.gradients(pa / pb, [pa, pb])
    assert float(st.Session(g).run(db, {pa: 0.0, pb: 1e-200})) == 0.0
