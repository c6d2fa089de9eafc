"""TensorFlow 1's Session on a chain: a steady run, the first run of a new fetch, and a run after a graph edit.

Answer 1's figures are about this: "as low as 1 µs" per op in a previously defined graph, "perhaps 200 µs" to
modify the graph. TensorFlow is imported (quietly) only when :func:`tf1_costs` runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...adapters.loader import load_tensorflow
from ...measure import Measurement, fmt_seconds, measure
from .chains import C, W, X, chain_from
from .progress import Progress, ticker
from .tables import Table

__all__ = ["TF1Costs", "tf1_costs"]


@dataclass
class TF1Costs:
    """A TF1 ``Session`` (``tf.compat.v1``) on a chain of ``n`` ops: steady runs vs runs after a change."""

    n: int
    steady_s: Measurement
    new_fetch_s: Measurement
    add_node_and_run_s: Measurement
    ops_before: int
    ops_after: int
    edits: int
    new_fetches: int

    @property
    def per_op_s(self) -> float:
        """A steady run divided by the number of ops: the cost of one op "in a previously defined graph"."""
        return self.steady_s.median / self.n

    def table(self) -> Table:
        return Table([f"TF1 Session, chain of {self.n} ops", "time"], [
            ("steady Session.run (same fetch, same graph)", fmt_seconds(self.steady_s.median)),
            ("  … per op of the graph", fmt_seconds(self.per_op_s)),
            ("first run of a tensor never fetched before (graph unchanged)", fmt_seconds(self.new_fetch_s.median)),
            ("add one node, then run it", fmt_seconds(self.add_node_and_run_s.median)),
        ])


def tf1_costs(n: int = 100, repeat: int = 5, progress: Progress | None = None) -> TF1Costs:
    """Steady ``Session.run`` vs the first run of a new fetch vs add-a-node-and-run, in one ``tf.Graph``."""
    tf = load_tensorflow()
    tick = ticker(progress)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=(), name="x")
        c = tf.compat.v1.placeholder(tf.float64, shape=(), name="c")
        w = tf.constant(W, dtype=tf.float64, name="w")
        steps = [x]
        for k in range(n):
            steps.append(chain_from(tf.math, steps[-1], w, c, k, 1))
        sess = tf.compat.v1.Session(graph=g)
    y = steps[-1]
    feeds = {x: X, c: C}
    sess.run(y, feeds)
    tick("steady runs")
    steady = measure(lambda: sess.run(y, feeds), repeat=repeat, budget=0.15)
    tick("new fetches")
    # tensors never fetched yet, from the end of the chain (each needs about as many ops as the fetch of y):
    # each first run builds a new executor, although the graph does not change
    fresh = iter(steps[-2:0:-1])
    number = max(1, min(4, (n - 2) // (repeat + 1)))
    new_fetch = measure(lambda: sess.run(next(fresh), feeds), repeat=repeat, number=number, warmup=1)
    tick("graph edits")
    ops_before = len(g.get_operations())
    state = {"y": y, "edits": 0}

    def add_node_and_run() -> None:
        with g.as_default():
            state["y"] = tf.sin(state["y"])
        state["edits"] += 1
        sess.run(state["y"], feeds)

    edit = measure(add_node_and_run, repeat=repeat, number=4, warmup=1)
    tick()
    ops_after = len(g.get_operations())
    sess.close()
    return TF1Costs(n, steady, new_fetch, edit, ops_before, ops_after, state["edits"], (repeat * number) + 1)
