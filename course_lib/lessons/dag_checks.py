"""Checks for the DAG exercises: is this a topological order? would this edge close a cycle?

A computational graph is a directed acyclic graph: an edge ``a -> b`` means *b reads a's value*. Two facts follow,
and the exercises of notebook 01 ask a student to use them:

* **Topological order.** An order of all nodes in which every node comes after all of its inputs. Evaluating the
  nodes in that order always has every input ready. A graph usually has *many* valid orders (``x`` and ``w`` can
  be read in either order); a checker must accept all of them, not compare to one list.
  Formally: a sequence ``v_1..v_n`` of all nodes with ``i < j`` whenever ``v_i -> v_j`` is an edge.
* **No cycle.** An edge ``a -> b`` closes a cycle exactly when ``a`` already depends on ``b`` (there is a path
  ``b -> ... -> a``): then ``b`` would need its own value before it can be computed.

Each ``*_checker`` returns a function ``answer -> (ok, message)`` for :class:`course_lib.lessons.exercises.Exercise`;
they never raise, whatever the student types, and never change the graph they check. :func:`count_table` prints
notebook 01's node counts (one expression per column, one way of building it per row) with the rows named in the
language of the moment.

>>> from course_lib.graph import Graph
>>> g = Graph(); x = g.add("placeholder", name="x", kind="input"); w = g.add("placeholder", name="w", kind="input")
>>> m = g.add("mul", [x, w]); s = g.add("sin", [m])
>>> order_problem(g, ["w", "x", "mul", "sin"]) is None
True
>>> order_problem(g, ["x", "mul", "w", "sin"])
"'mul' comes before its input 'w'"
>>> cycle_checker(g)(("sin", "x"))[0]
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..graph import CycleError, Graph, GraphError
from ..i18n import N_, Said, said_by, say
from ..i18n import gettext as _
from .exercises import Checker

__all__ = [
    "ANSWER_A_LIST",
    "ANSWER_A_PAIR",
    "APPEARS_TWICE",
    "COMES_BEFORE",
    "COUNT_ROWS",
    "EDGE_ALLOWED",
    "MISSING_MANY",
    "MISSING_ONE",
    "NOT_A_NODE",
    "NOT_BEFORE",
    "VALID_ORDER",
    "count_table",
    "cycle_checker",
    "order_checker",
    "order_problem",
]

NOT_A_NODE = N_("{name!r} is not a node of this graph (its nodes are named {sample}...)")
APPEARS_TWICE = N_("{name!r} appears twice; each node is evaluated exactly once")
MISSING_ONE = N_("{name!r} is missing; a topological order lists every node")
MISSING_MANY = N_("{n} nodes are missing, e.g. {name!r}; a topological order lists every node")
COMES_BEFORE = N_("{name!r} comes before its input {input!r}")
ANSWER_A_LIST = N_("answer with a list of node names, e.g. {example}")
NOT_BEFORE = N_("a valid order, but {first!r} does not come before {second!r} in it")
VALID_ORDER = N_("a valid order: every node comes after its inputs ({order})")
ANSWER_A_PAIR = N_("answer with a pair of node names (src, dst), e.g. {example}")
EDGE_ALLOWED = N_("{src} -> {dst} is allowed: {src} does not depend on {dst}, so the graph stays acyclic")


def _names(answer: Any) -> list[str] | None:
    """A list/tuple of names (or of nodes, which are read by name), else None."""
    if isinstance(answer, str) or not isinstance(answer, (list, tuple)):
        return None
    return [getattr(a, "name", a) if not isinstance(a, str) else a for a in answer]


def order_problem(graph: Graph, names: Sequence[str]) -> Said | None:
    """What is wrong with ``names`` as a topological order of ``graph`` (None when it is a valid one), as a course
    message (its ``msgid`` is one of :data:`NOT_A_NODE`, :data:`APPEARS_TWICE`, :data:`MISSING_ONE`,
    :data:`MISSING_MANY`, :data:`COMES_BEFORE`).

    Checks, in this order: every entry is a node name, none repeats, none is missing, and every node comes after
    each of its inputs (the first violation in the given order is named).
    """
    known = {n.name for n in graph.nodes}
    unknown = [a for a in names if not isinstance(a, str) or a not in known]
    if unknown:
        sample = ", ".join(repr(n.name) for n in graph.nodes[:6])
        return say(NOT_A_NODE, name=unknown[0], sample=sample)
    seen: set[str] = set()
    for a in names:
        if a in seen:
            return say(APPEARS_TWICE, name=a)
        seen.add(a)
    missing = [n.name for n in graph.nodes if n.name not in seen]
    if missing:
        if len(missing) == 1:
            return say(MISSING_ONE, name=missing[0])
        return say(MISSING_MANY, n=len(missing), name=missing[0])
    position = {a: k for k, a in enumerate(names)}
    for a in names:
        node = graph[a]
        late = [i.name for i in node.inputs if position[i.name] > position[a]]
        if late:
            return say(COMES_BEFORE, name=a, input=late[0])
    return None


def order_checker(graph: Graph, before: tuple[str, str] | None = None) -> Checker:
    """A checker accepting *any* topological order of ``graph`` (a list of node names); with ``before = (a, b)``,
    only those in which ``a`` comes before ``b`` (an order the student has to find, not one an engine printed).

    >>> from course_lib.graph import Graph
    >>> g = Graph(); x = g.add("placeholder", name="x", kind="input"); w = g.add("placeholder", name="w", kind="input")
    >>> check = order_checker(g, before=("w", "x"))
    >>> check(["w", "x"])[0], check(["x", "w"])[0]
    (True, False)
    """
    def check(answer: Any) -> tuple[bool, str]:
        names = _names(answer)
        if names is None:
            return False, say(ANSWER_A_LIST, example="['x', 'w', ...]")
        problem = order_problem(graph, names)
        if problem:
            return False, problem
        if before is not None and names.index(before[0]) > names.index(before[1]):
            return False, say(NOT_BEFORE, first=before[0], second=before[1])
        return True, say(VALID_ORDER, order=" → ".join(names))

    return check


def cycle_checker(graph: Graph) -> Checker:
    """A checker for "name an edge ``(src, dst)`` that ``graph.add_edge`` would refuse": correct when adding it
    would close a cycle. The edge is tried on a copy (``Graph.from_dict``), so the graph itself never changes."""

    def check(answer: Any) -> tuple[bool, str]:
        names = _names(answer)
        if names is None or len(names) != 2:
            return False, say(ANSWER_A_PAIR, example="('sin', 'x')")
        copy = Graph.from_dict(graph.to_dict())
        try:
            src, dst = copy[names[0]], copy[names[1]]
        except GraphError as err:
            return False, said_by(err)
        try:
            copy.add_edge(src, dst)
        except CycleError as err:
            return True, said_by(err)
        return False, say(EDGE_ALLOWED, src=src.name, dst=dst.name)

    return check


#: The rows of notebook 01's node-count table: the keys of ``frameworks.node_counts``, each a course message.
COUNT_ROWS = {
    "ours (define-then-run)": N_("ours (define-then-run)"),
    "ours (define-by-run)": N_("ours (define-by-run)"),
    "TF tf.compat.v1 graph": N_("TF tf.compat.v1 graph"),
    "PyTorch autograd": N_("PyTorch autograd"),
}
NODES_OF = N_("nodes of")


def count_table(counts: Mapping[str, Mapping[str, int]], width: int = 18) -> str:
    """``counts[expression][row]`` as a text table: one column per expression (``width`` characters), one line per
    row of :data:`COUNT_ROWS`, named in the language of the moment.

    >>> row = {"ours (define-then-run)": 2, "ours (define-by-run)": 2, "TF tf.compat.v1 graph": 2,
    ...        "PyTorch autograd": 2}
    >>> print(count_table({"x*x": row}, width=5))
    nodes of                  x*x
    ours (define-then-run)      2
    ours (define-by-run)        2
    TF tf.compat.v1 graph       2
    PyTorch autograd            2
    """
    labels = {key: _(message) for key, message in COUNT_ROWS.items()}
    first = max(len(label) for label in [*labels.values(), _(NODES_OF)]) + 2
    lines = [f"{_(NODES_OF):{first}}" + "".join(f"{text:>{width}}" for text in counts)]
    lines += [f"{label:{first}}" + "".join(f"{counts[text][key]:>{width}}" for text in counts)
              for key, label in labels.items()]
    return "\n".join(lines)
