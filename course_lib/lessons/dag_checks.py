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
they never raise, whatever the student types, and never change the graph they check.

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

from collections.abc import Sequence
from typing import Any

from ..graph import CycleError, Graph, GraphError
from .exercises import Checker

__all__ = ["cycle_checker", "order_checker", "order_problem"]

def _names(answer: Any) -> list[str] | None:
    """A list/tuple of names (or of nodes, which are read by name), else None."""
    if isinstance(answer, str) or not isinstance(answer, (list, tuple)):
        return None
    return [getattr(a, "name", a) if not isinstance(a, str) else a for a in answer]


def order_problem(graph: Graph, names: Sequence[str]) -> str | None:
    """What is wrong with ``names`` as a topological order of ``graph`` (None when it is a valid one).

    Checks, in this order: every entry is a node name, none repeats, none is missing, and every node comes after
    each of its inputs (the first violation in the given order is named).
    """
    known = {n.name for n in graph.nodes}
    unknown = [a for a in names if not isinstance(a, str) or a not in known]
    if unknown:
        sample = ", ".join(repr(n.name) for n in graph.nodes[:6])
        return f"{unknown[0]!r} is not a node of this graph (its nodes are named {sample}...)"
    seen: set[str] = set()
    for a in names:
        if a in seen:
            return f"{a!r} appears twice; each node is evaluated exactly once"
        seen.add(a)
    missing = [n.name for n in graph.nodes if n.name not in seen]
    if missing:
        first = f"{missing[0]!r} is missing" if len(missing) == 1 else f"{len(missing)} nodes are missing, e.g. {missing[0]!r}"
        return f"{first}; a topological order lists every node"
    position = {a: k for k, a in enumerate(names)}
    for a in names:
        node = graph[a]
        late = [i.name for i in node.inputs if position[i.name] > position[a]]
        if late:
            return f"{a!r} comes before its input {late[0]!r}"
    return None


def order_checker(graph: Graph, different_from: Sequence[str] | None = None) -> Checker:
    """A checker accepting *any* topological order of ``graph`` (a list of node names); with ``different_from``,
    that order itself is refused, so the student has to find another one."""
    banned = list(different_from) if different_from is not None else None

    def check(answer: Any) -> tuple[bool, str]:
        names = _names(answer)
        if names is None:
            return False, "answer with a list of node names, e.g. ['x', 'w', ...]"
        problem = order_problem(graph, names)
        if problem:
            return False, problem
        if banned is not None and names == banned:
            return False, "that is the order the engine printed; find a different valid one"
        return True, f"a valid order: every node comes after its inputs ({' → '.join(names)})"

    return check


def cycle_checker(graph: Graph) -> Checker:
    """A checker for "name an edge ``(src, dst)`` that ``graph.add_edge`` would refuse": correct when adding it
    would close a cycle. The edge is tried on a copy (``Graph.from_dict``), so the graph itself never changes."""

    def check(answer: Any) -> tuple[bool, str]:
        names = _names(answer)
        if names is None or len(names) != 2:
            return False, "answer with a pair of node names (src, dst), e.g. ('sin', 'x')"
        copy = Graph.from_dict(graph.to_dict())
        try:
            src, dst = copy[names[0]], copy[names[1]]
        except GraphError as err:
            return False, str(err)
        try:
            copy.add_edge(src, dst)
        except CycleError as err:
            return True, str(err)
        return False, (f"{src.name} -> {dst.name} is allowed: {src.name} does not depend on {dst.name}, so the "
                       "graph stays acyclic")

    return check
