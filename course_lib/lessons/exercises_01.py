"""The checked exercises of notebook 01, *Graphs are DAGs*: defined here so the answers stay out of the notebook.

Each function returns the same :class:`Exercise` object every time it is called, so a re-run cell keeps counting
attempts and the hints move on. Every expected answer is computed from the engines or the real frameworks at check
time, never typed in, so a check cannot drift from what the notebook shows. 01.2 and 01.3 ask about a graph the
notebook never prints (:func:`order_graph`); ``REVEALS`` lists what would give each exercise away above it. The
worked solutions for instructors are in ``instructor/01_graphs_are_dags_solutions.md``.

>>> ex = node_count()
>>> ex.check(...).ok is None          # unanswered: shows the first hint
True
>>> ex.check(4).ok
False
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from .. import expr
from .. import static as st
from ..graph import Graph
from ..i18n import N_, say
from . import dag_checks
from .exercises import Exercise, choice, count_is, same

__all__ = ["CONSTANT_CHOICES", "COUNT_TEXT", "ORDER_BEFORE", "ORDER_TEXT", "REVEALS", "constant_choice",
           "constant_nodes", "constant_verdict", "cycle", "framework_counts", "node_count", "order_graph",
           "topological_order"]

#: The expression of exercises 01.1 and 01.4.
COUNT_TEXT = "x * y + sin(x)"
#: The expression of exercises 01.2 and 01.3, and the two nodes 01.2's order must put in this order.
ORDER_TEXT = "exp(x) * (x + w)"
ORDER_BEFORE = ("add", "exp")

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
def order_graph() -> Graph:
    """The graph of exercises 01.2 and 01.3, :data:`ORDER_TEXT` built define-then-run (nodes ``x``, ``w``, ``exp``,
    ``add``, ``mul``); never printed above them, so its orders and cycles are the student's to find."""
    return _static_graph(ORDER_TEXT)


@functools.cache
def topological_order() -> Exercise:
    """01.2: a topological order of :func:`order_graph` in which ``add`` comes before ``exp`` (a graph whose orders
    the notebook never prints)."""
    return Exercise("01.2", say(N_("Write a topological order of the graph of {text} in which add comes before exp."),
                                text=ORDER_TEXT),
                    dag_checks.order_checker(order_graph(), before=ORDER_BEFORE),
                    hints=[N_("draw the graph first: which nodes does add read, and which does exp read?"),
                           N_("a node may come as soon as every node it reads is listed")])


@functools.cache
def cycle() -> Exercise:
    """01.3: an edge ``(src, dst)`` that ``add_edge`` refuses in :func:`order_graph` because it would close a
    cycle."""
    return Exercise("01.3", say(N_("Name an edge (src, dst) that add_edge would refuse in the graph of {text}."),
                                text=ORDER_TEXT),
                    dag_checks.cycle_checker(order_graph()),
                    hints=[N_("an edge src -> dst makes dst read src; it is refused when src already depends on dst"),
                           N_("which node depends on every other one?")])


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
    "a": N_("one more node: c now requires grad, so it gets a leaf"),
    "b": N_("no change: autograd never records a number written in the code"),
    "c": N_("an error: a tensor made from a constant cannot require grad"),
    "d": N_("two more nodes: one for c, and one more to hold c's gradient"),
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
    """01.5's answer, decided by real PyTorch: the option that matches how many nodes ``c.requires_grad`` adds
    (an error: ``"c"``)."""
    try:
        added = constant_nodes(True) - constant_nodes(False)
    except RuntimeError:
        return "c"
    return {0: "b", 1: "a"}.get(added, "d")


@functools.cache
def constant_choice() -> Exercise:
    """01.5: a prediction with its reason, checked against real PyTorch when the answer is checked."""
    why = {
        "a": N_("the gradient has to be delivered somewhere: a tensor that requires grad gets a leaf node that "
                "receives it, and the add now needs a gradient for both of its inputs"),
        "b": N_("autograd does not look at where a value came from, only at whether it requires grad"),
        "c": N_("any floating-point tensor may require grad, a constant's too"),
        "d": N_("a leaf's gradient is stored on the tensor itself (c.grad), not in a node of its own"),
    }
    return Exercise("01.5", say(N_("What happens to PyTorch's graph of {program} when {c}, and why?"),
                                program="sin(x*w + c)", c="c = torch.tensor(1.0, requires_grad=True)"),
                    choice(CONSTANT_CHOICES, constant_verdict, why),
                    hints=[N_("what decides whether PyTorch records a node for a tensor?"),
                           N_("look again at which tensors of section 5 got a node of their own")])


def _orders(graph: Graph, before: tuple[str, str]) -> list[list[str]]:
    """Every topological order of ``graph`` with ``before[0]`` ahead of ``before[1]`` (small graphs only)."""
    names = [n.name for n in graph.nodes]
    return [list(p) for p in itertools.permutations(names) if dag_checks.order_problem(graph, p) is None
            and p.index(before[0]) < p.index(before[1])]


def _refused(graph: Graph) -> list[tuple[str, str]]:
    """Every edge ``(src, dst)`` of ``graph``'s nodes that would close a cycle (``dst`` is ``src`` or feeds it)."""
    check = dag_checks.cycle_checker(graph)
    names = [n.name for n in graph.nodes]
    return [(a, b) for a in names for b in names if check((a, b))[0]]


#: What would give each exercise of notebook 01 away if it showed above it (tests/test_exercise_spoilers.py): the
#: count of 01.1's graph as printed, 01.2's orders and 01.3's refused edges as a student would write them (worked
#: out from the graph itself), 01.4's pair, 01.5's right option (English and French).
REVEALS: dict[str, tuple[str, ...]] = {
    "01.1": (f"'{COUNT_TEXT}': {len(_static_graph(COUNT_TEXT))} nodes",
             f"{len(_static_graph(COUNT_TEXT))} nodes: x and y"),
    "01.2": tuple(form for order in _orders(order_graph(), ORDER_BEFORE)
                  for form in (repr(order), str(order).replace("'", '"'), " → ".join(order))),
    "01.3": tuple(form for src, dst in _refused(order_graph()) for form in (repr((src, dst)), f'("{src}", "{dst}")')),
    "01.4": ("(5, 5)", "TensorFlow 5 (two Placeholders"),
    "01.5": ("one more node: c now requires grad", "un nœud de plus : c requiert maintenant un gradient"),
}
