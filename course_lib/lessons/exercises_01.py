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
from ..i18n import N_, say
from . import dag_checks
from .exercises import Exercise, choice, count_is, same

__all__ = ["CONSTANT_CHOICES", "COUNT_TEXT", "constant_choice", "constant_nodes", "constant_verdict",
           "cycle", "framework_counts", "node_count", "topological_order"]

#: The expression of exercises 01.1 and 01.4.
COUNT_TEXT = "x * y + sin(x)"

# The verdicts (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
NODES_WHY = N_("{n} nodes: x and y (placeholders), mul, sin and add. x is read twice but it is one node with two "
               "outgoing edges")
ANSWER_A_PAIR = N_("answer with a pair: (TensorFlow graph ops, PyTorch autograd nodes)")
COUNTS_WHY = N_("TensorFlow {tf} (two Placeholders, Mul, Sin, AddV2: one op per input and per operation, like our "
                "engine), PyTorch {torch} (one leaf node for x and one for y, then MulBackward0, SinBackward0, "
                "AddBackward0)")
TF_COUNT_WRONG = N_("the TensorFlow count is not right")
TORCH_COUNT_WRONG = N_("the PyTorch count is not right")
BOTH_COUNTS_WRONG = N_("the TensorFlow count and the PyTorch count are not right")


def _static_graph(text: str) -> Graph:
    e = expr.parse(text)
    g = st.Graph(text)
    with g.as_default():
        e.program(st, **{v: st.placeholder(v) for v in e.variables})
    return g


@functools.cache
def node_count() -> Exercise:
    """01.1: how many nodes the define-then-run graph of ``x * y + sin(x)`` has (forward only)."""
    check = count_is(lambda: len(_static_graph(COUNT_TEXT)), "nodes", lambda truth: say(NODES_WHY, n=truth))
    return Exercise("01.1", say(N_("How many nodes does the define-then-run graph of {text} have?"), text=COUNT_TEXT),
                    check,
                    hints=[N_("every placeholder is a node and every operation is a node; draw it on paper first"),
                           N_("x appears twice in the text but is one node; count x, y, then the operations")])


@functools.cache
def topological_order(graph: Graph) -> Exercise:
    """01.2: a valid topological order of ``graph`` other than the one :meth:`Graph.topological_order` printed."""
    printed = [n.name for n in graph.topological_order()]
    return Exercise("01.2", N_("Write another valid topological order of the graph (a list of node names)."),
                    dag_checks.order_checker(graph, different_from=printed),
                    hints=[N_("a node may come as soon as all of its inputs are listed; x and w have no inputs"),
                           N_("the constant Const has no input either: it can come first")])


@functools.cache
def cycle(graph: Graph) -> Exercise:
    """01.3: an edge ``(src, dst)`` that ``graph.add_edge`` refuses because it would close a cycle."""
    return Exercise("01.3", N_("Name an edge (src, dst) that graph.add_edge would refuse."),
                    dag_checks.cycle_checker(graph),
                    hints=[N_("an edge src -> dst makes dst read src; it is refused when src already depends on dst"),
                           N_("take the output as src and one of its inputs, direct or indirect, as dst")])


@functools.cache
def framework_counts() -> Exercise:
    """01.4: the node counts of ``x * y + sin(x)`` in TensorFlow's graph (built the TensorFlow 1 way, one
    placeholder per input) and in PyTorch's autograd graph, as a pair ``(tf_ops, torch_autograd_nodes)``; the
    truth comes from the real frameworks at check time."""
    from ..adapters.frameworks import node_counts

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, (list, tuple)) or len(answer) != 2:
            return False, say(ANSWER_A_PAIR)
        counts = node_counts(expr.parse(COUNT_TEXT), {"x": 1.0, "y": 2.0})
        tf_n, torch_n = counts["TF tf.compat.v1 graph"], counts["PyTorch autograd"]
        right = [same(answer[0], tf_n), same(answer[1], torch_n)]
        if all(right):
            return True, say(COUNTS_WHY, tf=tf_n, torch=torch_n)
        return False, say({(False, True): TF_COUNT_WRONG, (True, False): TORCH_COUNT_WRONG}.get(tuple(right),
                                                                                            BOTH_COUNTS_WRONG))

    hints = [N_("TensorFlow's graph has one op per placeholder and per operation, as in the table of section 5"),
             N_("PyTorch: one leaf node per input tensor that requires grad (x once, however often it is read), "
                "one ...Backward0 per operation")]
    return Exercise("01.4", say(N_("How many nodes do TensorFlow (graph) and PyTorch (autograd) make for {text}?"),
                                text=COUNT_TEXT), check, hints=hints)


#: 01.5's options: what happens to PyTorch's graph of ``sin(x*w + c)`` when ``c`` requires grad.
CONSTANT_CHOICES = {
    "a": N_("nothing changes: autograd never records a node for a number written in the code"),
    "b": N_("one more node, a leaf for c: autograd records a node for every tensor that requires grad, and now c "
            "does"),
    "c": N_("it fails: a tensor made from a constant cannot require grad"),
    "d": N_("two more nodes: one for c and one for c's gradient"),
}


def constant_nodes(c_requires_grad: bool) -> int:
    """Nodes of PyTorch's autograd graph of ``sin(x*w + c)`` (x, w leaves that require grad; ``c = 1.0``)."""
    from ..adapters.frameworks import load_torch
    from ..adapters.torch import to_graph

    torch = load_torch()
    x, w = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (3.0, 2.0))
    c = torch.tensor(1.0, dtype=torch.float64, requires_grad=c_requires_grad)
    return len(to_graph(torch.sin(x * w + c)))


def constant_verdict() -> str:
    """01.5's answer, decided by real PyTorch: the option that matches how many nodes ``c.requires_grad`` adds."""
    try:
        added = constant_nodes(True) - constant_nodes(False)
    except RuntimeError:
        return "c"
    return {0: "a", 1: "b", 2: "d"}.get(added, "a")


@functools.cache
def constant_choice() -> Exercise:
    """01.5: a prediction with its reason, checked against real PyTorch when the answer is checked."""
    why = {
        "a": N_("autograd does not look at where a value came from, only at whether it requires grad"),
        "b": N_("the gradient has to be delivered somewhere: a tensor that requires grad gets a leaf node that "
                "receives it, and the add now needs a gradient for both of its inputs"),
        "c": N_("any floating-point tensor may require grad, a constant's too"),
        "d": N_("a leaf's gradient is stored on the tensor itself (c.grad), not in a node of its own"),
    }
    return Exercise("01.5", say(N_("What happens to PyTorch's graph of {program} when {c}, and why?"),
                                program="sin(x*w + c)", c="c = torch.tensor(1.0, requires_grad=True)"),
                    choice(CONSTANT_CHOICES, constant_verdict, why),
                    hints=[N_("what decides whether PyTorch records a node for a tensor?"),
                           N_("look again at which tensors of section 5 got a node of their own")])
