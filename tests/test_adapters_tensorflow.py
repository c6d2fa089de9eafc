"""TensorFlow -> IR: real graphs, node counts checked against what TensorFlow itself reports.

A TF1 graph is counted by ``len(graph.get_operations())``; a ``tf.function`` with ``cond``/``while`` by its
graph's operations plus those of every body ``FuncGraph`` (rebuilt here with TensorFlow's own
``function_def_to_graph``, independently of the adapter). Eager execution stays on in this process: TF1 graphs
are built inside ``with tf.Graph().as_default()``, never with ``disable_eager_execution()``.
"""

from __future__ import annotations

import os
import sys

import pytest

import course_lib as cl  # course_lib imports no framework (tests/test_lazy_imports.py): safe before the skip
from course_lib.adapters import counters
from course_lib.adapters import tensorflow as tfa
from course_lib.i18n import message_of

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

BODY_ATTRS = ("then_branch", "else_branch", "cond", "body", "branches", "f")


def reported_op_count(graph: tf.Graph) -> int:
    """What TensorFlow reports: this graph's operations plus, for every op with function-valued attributes, the
    operations of each body FuncGraph, recursively (an explicit stack, no adapter code)."""
    from tensorflow.python.framework.function_def_to_graph import function_def_to_graph

    library = {f.signature.name: f for f in graph.as_graph_def().library.function}
    total, stack = 0, [graph]
    while stack:
        g = stack.pop()
        total += len(g.get_operations())
        for op in g.get_operations():
            for key in BODY_ATTRS:
                if key not in op.node_def.attr:
                    continue
                val = op.node_def.attr[key]
                names = [val.func.name] if val.HasField("func") else [f.name for f in val.list.func]
                stack.extend(function_def_to_graph(library[n]) for n in names if n)
    return total


def tf1_graph() -> tuple[tf.Graph, tf.Tensor, tf.Tensor, tf.Operation]:
    """y = sin(x @ w + 1) with a placeholder, a variable and an initializer, the TF1 way."""
    with tf.Graph().as_default() as g:
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.compat.v1.Variable(tf.ones([3, 1]), name="w")
        y = tf.sin(tf.matmul(x, w) + tf.constant(1.0), name="y")
        init = tf.compat.v1.global_variables_initializer()
    return g, x, y, init


@tf.function
def branchy(x: tf.Tensor, n: tf.Tensor) -> tf.Tensor:
    if tf.reduce_sum(x) > 0:  # a tensor-dependent if: AutoGraph makes it a cond (StatelessIf)
        y = x * 2.0
    else:
        y = x - 1.0
    i = tf.constant(0)
    while i < n:  # a tensor-dependent while: a while_loop (StatelessWhile)
        y = y + 1.0
        i += 1
    return y


BRANCHY_SPEC = (tf.TensorSpec([3], tf.float32), tf.TensorSpec([], tf.int32))


# ---------------------------------------------------------------------------------------------- TF1 graphs
def test_tf1_placeholder_graph_one_node_per_operation_and_it_really_runs() -> None:
    g, x, y, init = tf1_graph()
    with tf.compat.v1.Session(graph=g) as sess:  # the same graph, run the TF1 way
        sess.run(init)
        value = sess.run(y, feed_dict={x: [[1.0, 2.0, 3.0]]})
    assert value[0, 0] == pytest.approx(float(tf.sin(7.0)))

    ir = cl.to_graph(g)
    assert len(ir) == len(g.get_operations()) == 12
    assert [n.attrs["tf_name"] for n in ir.nodes] == [op.name for op in g.get_operations()]  # TF's own order here
    assert (ir["x"].kind, ir["x"].op, ir["x"].attrs["shape"]) == ("input", "Placeholder", [None, 3])
    assert (ir["w"].kind, ir["w"].op) == ("variable", "VarHandleOp")
    assert (ir["Const"].kind, float(ir["Const"].value)) == ("constant", 1.0)
    assert [i.name for i in ir["MatMul"].inputs] == ["x", "MatMul/ReadVariableOp"]
    assert ir["init"].attrs["control_inputs"] == ["w/Assign"] and ir["init"].inputs == ()
    assert ir.outputs == []  # a TF1 graph has no outputs until you fetch; name them:
    assert [n.name for n in tfa.to_graph(g, outputs=[y]).outputs] == ["y"]
    assert [n.name for n in cl.to_graph(y).outputs] == ["y"]  # a symbolic tensor: its graph, it as output


def test_tf1_cond_and_while_loop_in_a_session_graph_have_their_bodies() -> None:
    with tf.Graph().as_default() as g:
        x = tf.compat.v1.placeholder(tf.float32, [], name="x")
        y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
        _, z = tf.while_loop(lambda i, z: i < 3, lambda i, z: (i + 1, z * 2.0), [tf.constant(0), y])
        with tf.compat.v1.Session() as sess:
            assert sess.run(z, feed_dict={x: 1.0}) == 16.0
    ir = cl.to_graph(g, outputs=[z])
    assert len(ir) == reported_op_count(g) == tfa.count_ops(g).total > len(g.get_operations())
    assert {"cond/then", "cond/else", "while/cond", "while/body"} <= {n.scope for n in ir.nodes}


def test_tf1_control_edges_on_request() -> None:
    g, *_ = tf1_graph()
    ir = tfa.to_graph(g, control_edges=True)
    assert [i.name for i in ir["init"].inputs] == ["w/Assign"]


def test_tf1_symbolic_gradients_are_gradient_nodes() -> None:
    with tf.Graph().as_default() as g:
        x = tf.compat.v1.placeholder(tf.float32, [], name="x")
        y = tf.sin(x * 3.0)
        (dx,) = tf.compat.v1.gradients(y, [x])  # TF1: gradients are more ops in the same graph
    ir = cl.to_graph(g, outputs=[y, dx])
    assert len(ir) == len(g.get_operations())
    grads = [n for n in ir.nodes if n.gradient]
    assert grads and all(n.attrs["tf_name"].startswith("gradients/") for n in grads)
    assert len(grads) == sum(op.name.startswith("gradients/") for op in g.get_operations())
    assert [n.gradient for n in ir.outputs] == [False, True]


def test_a_2000_op_graph_under_a_tiny_recursion_limit() -> None:
    with tf.Graph().as_default() as g:
        y = tf.compat.v1.placeholder(tf.float32, [], name="x")
        for _ in range(1000):
            y = y * 1.0001  # a Mul and its Const each step
    assert len(g.get_operations()) == 2001
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)  # far below the chain's depth: a recursive walk would fail
    try:
        ir = tfa.to_graph(g, outputs=[y])
    finally:
        sys.setrecursionlimit(limit)
    assert len(ir) == 2001 and ir.depths()[ir.outputs[0].id] == 1000


def test_a_cycle_in_a_v1_graph_def_becomes_a_reported_back_edge() -> None:
    """TF1's own while_loop (control flow v1) has real cycles: Merge <- NextIteration <- ... <- Merge."""
    from tensorflow.core.framework import graph_pb2

    gd = graph_pb2.GraphDef()
    for name, op, inputs in [
        ("x", "Placeholder", []),
        ("merge", "Merge", ["x", "next"]),
        ("add", "AddV2", ["merge", "x"]),
        ("next", "NextIteration", ["add"]),
    ]:
        nd = gd.node.add(name=name, op=op)
        nd.input.extend(inputs)
    ir = cl.to_graph(gd)
    assert [n.name for n in ir.nodes] == ["x", "merge", "add", "next"]
    assert ir["merge"].attrs["back_edges"] == ["next"] and [i.name for i in ir["merge"].inputs] == ["x"]


def test_a_real_control_flow_v1_while_loop_keeps_its_cycle_as_a_back_edge() -> None:
    was_v2 = tf.compat.v1.control_flow_v2_enabled()
    tf.compat.v1.disable_control_flow_v2()  # process-wide: restored below, before any other graph is built
    try:
        with tf.Graph().as_default() as g:
            _, total = tf.compat.v1.while_loop(lambda i, t: i < 3, lambda i, t: (i + 1, t + 2.0), [0, 0.0])
    finally:
        if was_v2:
            tf.compat.v1.enable_control_flow_v2()
    ir = cl.to_graph(g, outputs=[total])
    assert len(ir) == len(g.get_operations())
    merges = [n for n in ir.nodes if n.op == "Merge"]
    assert len(merges) == 2 and all(n.attrs["back_edges"] == [n.name.replace("Merge", "NextIteration")] for n in merges)
    assert all(i.name not in n.attrs["back_edges"] for n in merges for i in n.inputs)  # the loop edge is cut


# ---------------------------------------------------------------------------------------------- tf.function
def test_keras_model_inside_tf_function() -> None:
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [keras.Input((4,)), keras.layers.Dense(8, activation="relu", name="hidden"), keras.layers.Dense(2, name="out")]
    )
    f = tf.function(lambda x: model(x))
    concrete = f.get_concrete_function(tf.TensorSpec([None, 4], tf.float32))
    ir = cl.to_graph(concrete)

    assert len(ir) == len(concrete.graph.get_operations()) == reported_op_count(concrete.graph)
    # the captured weights are variables, labelled with Keras's own variable paths
    assert sorted(n.attrs["variable"] for n in ir.nodes if n.kind == "variable") == sorted(
        v.path for v in model.weights
    )
    ops = [n.op for n in ir.nodes if n.kind == "op"]
    assert ops.count("MatMul") == 2 and ops.count("BiasAdd") == 2 and "Relu" in ops
    # grouped by the layers' name scopes
    matmuls = [n for n in ir.nodes if n.op == "MatMul"]
    assert ["hidden" in m.scope.split("/")[-1] for m in matmuls] == [True, False]
    assert ["out" in m.scope.split("/")[-1] for m in matmuls] == [False, True]
    assert [n.op for n in ir.outputs] == ["Identity"] and ir.outputs[0].attrs["shape"] == [None, 2]


def test_cond_and_while_bodies_are_nodes_in_nested_scopes() -> None:
    concrete = branchy.get_concrete_function(*BRANCHY_SPEC)
    graph = concrete.graph
    ir = cl.to_graph(concrete)
    count = tfa.count_ops(concrete)

    ops_top = len(graph.get_operations())
    assert len(ir) == count.total == reported_op_count(graph) > ops_top
    assert count.operations == ops_top
    assert [(scope, n) for scope, _, n in count.bodies] == [
        ("cond/then", 4),
        ("cond/else", 4),
        ("while/cond", 7),
        ("while/body", 15),
    ]
    by_scope: dict[str, list[str]] = {}
    for n in ir.nodes:
        by_scope.setdefault(n.scope, []).append(n.op)
    assert "Mul" in by_scope["cond/then"] and "Sub" in by_scope["cond/else"]
    assert "Less" in by_scope["while/cond"] and by_scope["while/body"].count("AddV2") == 3
    # the control-flow ops head their own clusters, with their bodies nested inside
    assert (ir["cond"].op, ir["cond"].scope, ir["while"].op, ir["while"].scope) == (
        "StatelessIf",
        "cond",
        "StatelessWhile",
        "while",
    )
    # data flows in (x feeds each branch's argument) and out (the If reads each branch's result)
    then_arg = next(n for n in ir.nodes if n.scope == "cond/then" and n.op == "Placeholder")
    assert [i.name for i in then_arg.inputs] == ["x"]
    cond = ir["cond"]
    assert [i.name for i in cond.inputs[: cond.attrs["n_data_inputs"]]] == ["Greater", "x"]
    assert [i.name for i in cond.inputs[cond.attrs["n_data_inputs"] :]] == ["cond/then/Identity", "cond/else/Identity"]
    assert cond.attrs["tf_name"] == "cond" and ir["cond/then/mul"].attrs["tf_name"] == "cond/mul"
    assert [n.name for n in ir.outputs] == ["Identity"]

    flat = tfa.to_graph(concrete, expand_functions=False)
    assert len(flat) == ops_top and not any("/then" in n.scope for n in flat.nodes)


def test_nested_cond_inside_while() -> None:
    @tf.function
    def halve_while_positive(x: tf.Tensor, n: tf.Tensor) -> tf.Tensor:
        i = tf.constant(0)
        while i < n:
            if tf.reduce_sum(x) > 0:
                x = x * 0.5
            else:
                x = x + 1.0
            i += 1
        return x

    concrete = halve_while_positive.get_concrete_function(*BRANCHY_SPEC)
    ir = cl.to_graph(concrete)
    assert len(ir) == reported_op_count(concrete.graph) == tfa.count_ops(concrete).total
    scopes = {n.scope for n in ir.nodes}
    assert {"while/body/cond/then", "while/body/cond/else", "while/cond"} <= scopes
    assert ir["while/body/cond"].op == "StatelessIf"


def test_same_function_same_ir() -> None:
    a = cl.to_graph(branchy.get_concrete_function(*BRANCHY_SPEC))
    b = cl.to_graph(branchy.get_concrete_function(*BRANCHY_SPEC))  # the cached trace
    assert a.to_json() == b.to_json()
    fresh = tf.function(branchy.python_function).get_concrete_function(*BRANCHY_SPEC)  # a new trace
    c = cl.to_graph(fresh)
    assert [(n.name, n.op, n.kind, n.scope, n.input_ids) for n in c.nodes] == [
        (n.name, n.op, n.kind, n.scope, n.input_ids) for n in a.nodes
    ]


def test_tracing_counter_counts_retraces() -> None:
    @tf.function
    def square(x: tf.Tensor) -> tf.Tensor:
        return x * x

    with counters.counting(square) as traces:
        square(tf.constant([1.0, 2.0]))
        square(tf.constant([3.0, 4.0]))  # same shape and dtype: the traced graph is reused
    assert traces.delta == 1
    with counters.counting(square) as traces:
        square(tf.constant([1.0, 2.0, 3.0]))  # a new shape: traced again
    assert traces.delta == 1 and counters.tf_trace_count(square) == counters.count(square) == 2


def test_tf_function_needs_a_signature_and_errors_teach() -> None:
    with pytest.raises(TypeError) as info:
        cl.to_graph(branchy)
    assert message_of(info.value).msgid is tfa.PICK_A_TRACE
    assert len(tfa.to_graph(branchy, args=BRANCHY_SPEC)) == len(
        cl.to_graph(branchy.get_concrete_function(*BRANCHY_SPEC))
    )
    with pytest.raises(TypeError) as info:
        cl.to_graph(tf.constant(1.0))
    assert message_of(info.value).msgid is tfa.CANNOT_CONVERT and "EagerTensor" in message_of(info.value).values["kind"]
    with pytest.raises(TypeError) as info:
        cl.to_graph(keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)]))
    assert message_of(info.value).msgid is tfa.KERAS_NOT_A_GRAPH
    with pytest.raises(ValueError) as info:
        tfa.to_graph(branchy, args=BRANCHY_SPEC, outputs=["no_such_op"])
    said = message_of(info.value)
    assert said.msgid is tfa.NOT_OUTPUTS and said.values == {"missing": ["no_such_op"], "n": 1}
    assert str(info.value) == "output ['no_such_op'] is not an operation of this graph"  # one: singular
