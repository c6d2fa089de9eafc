"""Engine costs side by side, in one run: prints figures and ratios against the targets (never asserts).

    .venv/bin/python benchmarks/engines.py           # the full run (about 15 s)
    .venv/bin/python benchmarks/engines.py --smoke   # every code path once, tiny sizes (what ./course test runs)

Targets (issue "course_lib engines"): static run ≤ 1 µs per node and ≤ 0.3× the dynamic engine per op;
dynamic ≤ 2× torch eager per op (both recording for backward); our recompile after a one-node change ≤ 0.25×
TensorFlow 1's add-a-node-and-run cost. The smoke run prints the same table, but its figures mean nothing: it
exists so that a renamed API breaks CI instead of this script.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from course_lib import dynamic as dy
from course_lib import static as st
from course_lib.measure import fmt_seconds, measure, stamp


@dataclass(frozen=True)
class Config:
    """``n`` ops in the chain; ``smoke``: one timed call per figure instead of 7 rounds."""

    n: int = 100
    smoke: bool = False

    def time(self, fn: Callable[[], Any], number: int | None = None) -> float:
        """Median seconds per call of ``fn``: 7 rounds of ``number`` calls (None: about 0.2 s in all)."""
        if self.smoke:
            return measure(fn, repeat=1, number=1).median
        return measure(fn, repeat=7, number=number).median


FULL = Config()
# 8 ops: two of each of the four kinds, so every op of the chain still runs.
SMOKE = Config(n=8, smoke=True)


def chain(ops, x, w, c, n: int):
    """``n`` scalar ops: sin, *w, +c, tanh, repeated (nothing constant-foldable)."""
    y = x
    for k in range(n):
        if k % 4 == 0:
            y = ops.sin(y)
        elif k % 4 == 1:
            y = y * w
        elif k % 4 == 2:
            y = y + c
        else:
            y = ops.tanh(y)
    return y


def numpy_per_op(cfg: Config) -> float:
    x, w, c = np.array(0.3), np.array(1.1), np.array(0.2)
    return cfg.time(lambda: chain(np, x, w, c, cfg.n)) / cfg.n


def dynamic_per_op(cfg: Config) -> float:
    x = dy.Tensor(0.3, requires_grad=True)
    w, c = dy.Tensor(1.1, requires_grad=True), dy.Tensor(0.2)
    return cfg.time(lambda: chain(dy, x, w, c, cfg.n)) / cfg.n


def torch_per_op(cfg: Config) -> float:
    import torch

    x = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
    w = torch.tensor(1.1, dtype=torch.float64, requires_grad=True)
    c = torch.tensor(0.2, dtype=torch.float64)
    return cfg.time(lambda: chain(torch, x, w, c, cfg.n)) / cfg.n


def static_costs(cfg: Config) -> tuple[float, float, float]:
    g = st.Graph()
    with g.as_default():
        x, w, c = st.placeholder("x"), st.Variable(1.1, name="w"), st.placeholder("c")
        y = chain(st, x, w, c, cfg.n)
    assert len(g) == cfg.n + 3  # x, w, c and exactly n ops: the per-node figure divides by what really runs
    sess = st.Session(g)
    feeds = {x: 0.3, c: 0.2}
    run = cfg.time(lambda: sess.run(y, feeds)) / cfg.n
    compile_time = cfg.time(lambda: st.compile_plan(g, [y.node], [x.node, c.node]))

    def add_node_and_run() -> None:
        with g.as_default():
            z = st.sin(y)
        sess.run(z, feeds)

    before = sess.compile_count
    recompile = cfg.time(add_node_and_run, number=20)
    assert sess.compile_count > before  # every call really recompiled
    return run, compile_time, recompile


def static_vector_per_node(cfg: Config) -> float:
    """The same chain on vectors of 3: no float specialization, every step is a numpy kernel."""
    g = st.Graph()
    with g.as_default():
        x, c = st.placeholder("x", shape=(3,)), st.placeholder("c", shape=(3,))
        w = st.Variable(np.full(3, 1.1), name="w")
        y = chain(st, x, w, c, cfg.n)
    sess = st.Session(g)
    feeds = {x: np.full(3, 0.3), c: np.full(3, 0.2)}
    sess.run(y, feeds)
    assert not sess.last_plan.scalar
    return cfg.time(lambda: sess.run(y, feeds)) / cfg.n


def tf1_costs(cfg: Config) -> tuple[float, float, float]:
    """A steady TF1 run, then Answer 1's cost (add a node, re-run the old fetch: the extension alone), then add a
    node and run it (the extension plus a new executor)."""
    import tensorflow as tf

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=())
        w = tf.constant(1.1, dtype=tf.float64)
        c = tf.compat.v1.placeholder(tf.float64, shape=())
        y = chain(tf.math, x, w, c, cfg.n)
        sess = tf.compat.v1.Session(graph=g)
    feeds = {x: 0.3, c: 0.2}
    steady = cfg.time(lambda: sess.run(y, feeds))

    def extend_only() -> None:
        with g.as_default():
            tf.sin(y)
        sess.run(y, feeds)

    def extend_and_new_fetch() -> None:
        with g.as_default():
            z = tf.sin(y)
        sess.run(z, feeds)

    extend = cfg.time(extend_only, number=10)
    change = cfg.time(extend_and_new_fetch, number=10)
    return steady, extend, change


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one call each: checks the script runs")
    cfg = SMOKE if parser.parse_args(argv).smoke else FULL
    n = cfg.n
    print("stamp:", ", ".join(f"{k}={v}" for k, v in stamp().items()))
    if cfg.smoke:
        print(f"SMOKE RUN ({n}-op chain, one call per figure): the figures below are not measurements")
    np_op = numpy_per_op(cfg)
    dy_op = dynamic_per_op(cfg)
    torch_op = torch_per_op(cfg)
    st_node, compile_time, recompile = static_costs(cfg)
    st_vec = static_vector_per_node(cfg)
    tf_steady, tf_extend, tf_change = tf1_costs(cfg)
    rows = [
        ("numpy, per op", np_op),
        ("torch eager (requires_grad), per op", torch_op),
        ("dynamic engine (recording), per op", dy_op),
        (f"static engine compiled run, per node ({n}-node graph, float-specialized)", st_node),
        ("static engine compiled run, per node (same graph on 3-vectors: numpy kernels)", st_vec),
        (f"static compile of a {n}-node graph", compile_time),
        ("static: add one node + recompile + run", recompile),
        (f"TF1 Session.run steady ({n}-node graph)", tf_steady),
        ("TF1: add a node, re-run the old fetch (the run included)", tf_extend),
        ("TF1: the extension alone (the row above minus a steady run)", tf_extend - tf_steady),
        (f"TF1: extend + new fetch (sin of the chain's end: {n + 1} ops)", tf_change),
    ]
    width = max(len(r[0]) for r in rows)
    for name, sec in rows:
        print(f"  {name:<{width}}  {fmt_seconds(sec):>10}")
    print("ratios (target):")
    checks = [
        ("static per node (≤ 1 µs)", st_node * 1e6, 1.0, "µs"),
        ("static / dynamic per op (≤ 0.3)", st_node / dy_op, 0.3, "×"),
        ("dynamic / torch eager per op (≤ 2)", dy_op / torch_op, 2.0, "×"),
        ("our recompile / TF1 extend + new fetch (≤ 0.25)", recompile / tf_change, 0.25, "×"),
    ]
    for name, value, target, unit in checks:
        verdict = "(smoke run: not judged)" if cfg.smoke else f"{'meets' if value <= target else 'MISSES'} target"
        print(f"  {name:<{width}}  {value:8.3f} {unit}  {verdict}")


if __name__ == "__main__":
    main()
