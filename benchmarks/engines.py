"""Engine costs side by side, in one run: prints figures and ratios against the targets (never asserts).

    .venv/bin/python benchmarks/engines.py

Targets (issue "course_lib engines"): static run ≤ 1 µs per node and ≤ 0.3× the dynamic engine per op;
dynamic ≤ 2× torch eager per op (both recording for backward); our recompile after a one-node change ≤ 0.25×
TensorFlow 1's add-a-node-and-run cost.
"""

from __future__ import annotations

import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from course_lib import dynamic as dy
from course_lib import static as st
from course_lib.measure import fmt_seconds, measure, stamp

N = 100  # ops in the chain


def chain(ops, x, w, c):
    """N scalar ops: sin, *w, +c, tanh, repeated (nothing constant-foldable)."""
    y = x
    for k in range(N):
        if k % 4 == 0:
            y = ops.sin(y)
        elif k % 4 == 1:
            y = y * w
        elif k % 4 == 2:
            y = y + c
        else:
            y = ops.tanh(y)
    return y


def numpy_per_op():
    x, w, c = np.array(0.3), np.array(1.1), np.array(0.2)
    return measure(lambda: chain(np, x, w, c)).median / N


def dynamic_per_op():
    x = dy.Tensor(0.3, requires_grad=True)
    w, c = dy.Tensor(1.1, requires_grad=True), dy.Tensor(0.2)
    return measure(lambda: chain(dy, x, w, c)).median / N


def torch_per_op():
    import torch

    x = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
    w = torch.tensor(1.1, dtype=torch.float64, requires_grad=True)
    c = torch.tensor(0.2, dtype=torch.float64)
    return measure(lambda: chain(torch, x, w, c)).median / N


def static_costs():
    g = st.Graph()
    with g.as_default():
        x, w, c = st.placeholder("x"), st.Variable(1.1, name="w"), st.placeholder("c")
        y = chain(st, x, w, c)
    assert len(g) == N + 3  # x, w, c and exactly N ops: the per-node figure divides by what really runs
    sess = st.Session(g)
    feeds = {x: 0.3, c: 0.2}
    run = measure(lambda: sess.run(y, feeds)).median / N
    compile_time = measure(lambda: st.compile_plan(g, [y.node], [x.node, c.node]), repeat=7).median

    def add_node_and_run():
        with g.as_default():
            z = st.sin(y)
        sess.run(z, feeds)

    before = sess.compile_count
    recompile = measure(add_node_and_run, repeat=7, number=20).median
    assert sess.compile_count > before  # every call really recompiled
    return run, compile_time, recompile


def static_vector_per_node():
    """The same chain on vectors of 3: no float specialization, every step is a numpy kernel."""
    g = st.Graph()
    with g.as_default():
        x, w, c = st.placeholder("x", shape=(3,)), st.Variable(np.full(3, 1.1), name="w"), st.placeholder("c", shape=(3,))
        y = chain(st, x, w, c)
    sess = st.Session(g)
    feeds = {x: np.full(3, 0.3), c: np.full(3, 0.2)}
    sess.run(y, feeds)
    assert not sess.last_plan.scalar
    return measure(lambda: sess.run(y, feeds)).median / N


def tf1_costs():
    import tensorflow as tf

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=())
        w = tf.constant(1.1, dtype=tf.float64)
        c = tf.compat.v1.placeholder(tf.float64, shape=())
        y = chain(tf.math, x, w, c)
        sess = tf.compat.v1.Session(graph=g)
    feeds = {x: 0.3, c: 0.2}
    steady = measure(lambda: sess.run(y, feeds), repeat=7).median

    def add_node_and_run():
        with g.as_default():
            z = tf.sin(y)
        sess.run(z, feeds)

    change = measure(add_node_and_run, repeat=7, number=10).median
    return steady, change


def main() -> None:
    print("stamp:", ", ".join(f"{k}={v}" for k, v in stamp().items()))
    np_op = numpy_per_op()
    dy_op = dynamic_per_op()
    torch_op = torch_per_op()
    st_node, compile_time, recompile = static_costs()
    st_vec = static_vector_per_node()
    tf_steady, tf_change = tf1_costs()
    rows = [
        ("numpy, per op", np_op),
        ("torch eager (requires_grad), per op", torch_op),
        ("dynamic engine (recording), per op", dy_op),
        (f"static engine compiled run, per node ({N}-node graph, float-specialized)", st_node),
        ("static engine compiled run, per node (same graph on 3-vectors: numpy kernels)", st_vec),
        (f"static compile of a {N}-node graph", compile_time),
        ("static: add one node + recompile + run", recompile),
        (f"TF1 Session.run steady ({N}-node graph)", tf_steady),
        ("TF1: add one node + run", tf_change),
    ]
    width = max(len(r[0]) for r in rows)
    for name, sec in rows:
        print(f"  {name:<{width}}  {fmt_seconds(sec):>10}")
    print("ratios (target):")
    checks = [
        ("static per node (≤ 1 µs)", st_node * 1e6, 1.0, "µs"),
        ("static / dynamic per op (≤ 0.3)", st_node / dy_op, 0.3, "×"),
        ("dynamic / torch eager per op (≤ 2)", dy_op / torch_op, 2.0, "×"),
        ("our recompile / TF1 add-a-node (≤ 0.25)", recompile / tf_change, 0.25, "×"),
    ]
    for name, value, target, unit in checks:
        print(f"  {name:<{width}}  {value:8.3f} {unit}  {'meets' if value <= target else 'MISSES'} target")


if __name__ == "__main__":
    main()
