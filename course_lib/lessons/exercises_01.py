"""The checked exercises of notebook 01, *Graphs are DAGs*: defined here so the answers stay out of the notebook.

Each function returns the same :class:`Exercise` object every time it is called (with the same graph), so a
re-run cell keeps counting attempts and the hints move on. Every expected answer is computed from the engines
or the real frameworks at check time, never typed in, so a check cannot drift from what the notebook shows. The worked solutions for instructors are in
``instructor/01_graphs_are_dags_solutions.md``.

>>> ex = node_count()
>>> ex.check(...).ok is None          # unanswered: shows the first hint
True
>>> ex.check(4).ok
False
"""

from __future__ import annotations

import functools
from typing import Any

from .. import expr
from .. import static as st
from ..graph import Graph
from . import dag_checks
from .exercises import Exercise, count_is, same

__all__ = ["COUNT_TEXT", "cycle", "framework_counts", "node_count", "topological_order"]

#: The expression of exercises 01.1 and 01.4.
COUNT_TEXT = "x * y + sin(x)"


def _static_graph(text: str) -> Graph:
    e = expr.parse(text)
    g = st.Graph(text)
    with g.as_default():
        e.program(st, **{v: st.placeholder(v) for v in e.variables})
    return g


@functools.cache
def node_count() -> Exercise:
    """01.1: how many nodes the define-then-run graph of ``x * y + sin(x)`` has (forward only)."""
    check = count_is(lambda: len(_static_graph(COUNT_TEXT)), "nodes",
                     lambda truth: (f"{truth} nodes: x and y (placeholders), mul, sin and add. x is read twice but "
                                    "it is one node with two outgoing edges"))
    return Exercise("01.1", f"How many nodes does the define-then-run graph of {COUNT_TEXT} have?", check,
                    hints=["every placeholder is a node and every operation is a node; draw it on paper first",
                           "x appears twice in the text but is one node; count x, y, then the operations"])


@functools.cache
def topological_order(graph: Graph) -> Exercise:
    """01.2: a valid topological order of ``graph`` other than the one :meth:`Graph.topological_order` printed."""
    printed = [n.name for n in graph.topological_order()]
    return Exercise("01.2", "Write another valid topological order of the graph (a list of node names).",
                    dag_checks.order_checker(graph, different_from=printed),
                    hints=["a node may come as soon as all of its inputs are listed; x and w have no inputs",
                           "the constant Const has no input either: it can come first"])


@functools.cache
def cycle(graph: Graph) -> Exercise:
    """01.3: an edge ``(src, dst)`` that ``graph.add_edge`` refuses because it would close a cycle."""
    return Exercise("01.3", "Name an edge (src, dst) that graph.add_edge would refuse.",
                    dag_checks.cycle_checker(graph),
                    hints=["an edge src -> dst makes dst read src; it is refused when src already depends on dst",
                           "take the output as src and one of its inputs, direct or indirect, as dst"])


@functools.cache
def framework_counts() -> Exercise:
    """01.4: the node counts of ``x * y + sin(x)`` in TensorFlow's tf.function graph and PyTorch's autograd graph,
    as a pair ``(tf_function_ops, torch_autograd_nodes)``; the truth comes from the real frameworks."""
    from ..adapters.frameworks import node_counts

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, (list, tuple)) or len(answer) != 2:
            return False, "answer with a pair: (TensorFlow tf.function ops, PyTorch autograd nodes)"
        counts = node_counts(expr.parse(COUNT_TEXT), {"x": 1.0, "y": 2.0})
        tf_n, torch_n = counts["TF tf.function"], counts["PyTorch autograd"]
        right = [same(answer[0], tf_n), same(answer[1], torch_n)]
        if all(right):
            return True, (f"TensorFlow {tf_n} (two Placeholders, Mul, Sin, AddV2 and the Identity that returns the "
                          f"result), PyTorch {torch_n} (two AccumulateGrad leaves, MulBackward0, SinBackward0, "
                          "AddBackward0)")
        wrong = " and ".join(w for w, ok in zip(("the TensorFlow count", "the PyTorch count"), right) if not ok)
        return False, f"{wrong} is not right"

    hints = ["TensorFlow: one op per placeholder and per operation, plus one Identity for the function's result",
             "PyTorch: one AccumulateGrad per leaf (x once, y once), one ...Backward0 per operation needing a gradient"]
    return Exercise("01.4", f"How many nodes do TensorFlow (tf.function) and PyTorch (autograd) make for {COUNT_TEXT}?",
                    check, hints=hints)
