"""What is drawn: one box per node, except that big name scopes may be *collapsed* into one box with a count, and
a graph beyond ``max_nodes`` boxes is *capped* with a note (layout time grows fast). Then, per step, each box's
state and label.

>>> from course_lib.graph import Graph
>>> g = Graph(); x = g.add("placeholder", name="x", kind="input"); y = g.add("sin", [x])
>>> [(i.key, i.title) for i in plan(g, 300, None).items]
[('n0', 'x'), ('n1', 'sin')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..graph import Graph, Node, value_text
from ..i18n import N_, Plural, get_language, number, say
from ..i18n import gettext as _
from .theme import MARKS

__all__ = ["BAD_COLLAPSE", "BAD_MAPPING", "BAD_STATE", "DEFAULT_MAX_NODES", "STATUSES", "Item", "Plan", "item_states",
           "long_edges", "plan", "prefixes"]

BAD_COLLAPSE = N_("collapse= takes None (automatic), False, a size (int) or scope names (str or list)")
BAD_STATE = N_("state must be None, one status for every node (one of {statuses}) or a mapping node id -> status (a "
               "trace's trace.state(step)); got {state}")
BAD_MAPPING = N_("{what} must be a mapping node id -> value, like {{0: 3.0}}; got {value}")

STATUSES = ("hidden", "defined", "running", "done")
DEFAULT_MAX_NODES = 300
BIG_LAYOUT = 60  # boxes; above it the layout trades a little tidiness for bounded time
LONG_SPAN = 6  # ranks; in a big drawing, longer edges are drawn after the layout instead of steering it


@dataclass
class Item:
    """One box of the drawing: a node, or a collapsed scope standing for several nodes."""

    key: str  # DOT node name: "n<id>" or "c<k>"
    kind: str  # input | constant | variable | op | group
    scope: str  # the cluster it sits in
    members: tuple[Node, ...]
    title: str
    tooltip: str
    gradient: bool = False
    output: bool = False
    short: str = ""  # the title a compact label uses when it differs ("∂/∂x" for "∂/∂x = mul")
    stacked: bool = False  # a compact label keeps the title's lines (a collapsed scope's count under its name)


@dataclass
class Plan:
    items: list[Item]
    edges: list[tuple[str, str, bool]]  # (src key, dst key, gradient style)
    key_of: dict[int, str]  # node id -> item key (only for drawn nodes)
    note: str
    hidden_count: int = 0
    #: what :mod:`.speech` computes once per plan (names, inputs), per set of boxes shown (a summary) and per state
    #: drawn (what it says)
    said: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)


TITLE_CHARS = 60  # a box's first line; longer names are cut with "…" (Graphviz refuses labels of 100,000 chars)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean(text: str, limit: int) -> str:
    """Text safe for a label: control characters (a NUL breaks Graphviz) shown as "\ufffd", cut at ``limit``."""
    text = _CONTROL.sub("\ufffd", str(text))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _title(node: Node) -> str:
    """What a box says on its first line; framework op names (``AddmmBackward0``, ``MatMul``) kept as they are."""
    last = node.name.rsplit("/", 1)[-1]
    if node.kind == "constant" and node.value is not None:
        if np.size(node.value) == 0:  # e.g. TensorFlow's gradients/Shape of a scalar: a bare "[]" reads as nothing
            return clean(_("{name} = [] (empty)").format(name=last), TITLE_CHARS)
        return value_text(node.value)
    if node.kind != "op":
        return clean(last, TITLE_CHARS)
    if last == node.op or re.fullmatch(re.escape(node.op) + r"_\d+", last):
        return clean(node.op, TITLE_CHARS)
    return clean(f"{last} = {node.op}", TITLE_CHARS)


def _tooltip(node: Node) -> str:
    return clean(_describe(node), 400)


#: a node's kind in its tooltip ("x: input (Placeholder)"), translated when a drawing is made
KIND_WORDS = {"input": N_("input"), "constant": N_("constant"), "variable": N_("variable")}


def _describe(node: Node) -> str:
    args = ", ".join(i.name for i in node.inputs)
    if node.kind == "op":
        what = f"{node.name} = {node.op}({args})"  # code: an op applied to its inputs
    else:
        kind = _(KIND_WORDS[node.kind]) if node.kind in KIND_WORDS else node.kind
        what = _("{name}: {kind} ({op})").format(name=node.name, kind=kind, op=node.op)
    if node.scope:
        what += _("  [scope {scope}]").format(scope=node.scope)
    if node.gradient:
        what += _("  [gradient]")
    return what


def prefixes(scope: str) -> list[str]:
    """``"a/b/c"`` -> ``["a", "a/b", "a/b/c"]``: the scopes a node sits in, outermost first."""
    parts = [p for p in scope.split("/") if p]
    return ["/".join(parts[: k + 1]) for k in range(len(parts))]


# ---------------------------------------------------------------------------------------------------- collapsing
def _inside(scope: str, outer: str) -> bool:
    return scope == outer or scope.startswith(outer + "/")


def _choose(chosen: list[str], p: str) -> list[str]:
    """``chosen`` with scope ``p`` collapsed (its inner scopes no longer need their own box)."""
    return [c for c in chosen if not c.startswith(p + "/")] + [p]


def _collapsed(nodes: list[Node], max_nodes: int, collapse: Any) -> list[str]:
    """The scopes drawn as one box each: explicit names, every scope above a size, or automatically (deepest and
    biggest first) until the graph fits ``max_nodes``."""
    counts: dict[str, int] = {}
    for n in nodes:
        for p in prefixes(n.scope):
            counts[p] = counts.get(p, 0) + 1
    order = sorted(counts, key=lambda p: (-p.count("/"), -counts[p], p))  # an inner scope before its container

    def effective(p: str, chosen: list[str]) -> int:
        """How many boxes scope p shows when the scopes in `chosen` are already single boxes."""
        inner = [c for c in chosen if c.startswith(p + "/")]
        return counts[p] - sum(counts[c] - 1 for c in inner if not any(c.startswith(o + "/") for o in inner))

    chosen: list[str] = []
    if collapse is None or collapse is True:
        budget = len(nodes)
        for p in order:
            if budget <= max_nodes:
                break
            eff = effective(p, chosen)
            if eff > 1 and not any(_inside(p, c) for c in chosen):
                budget -= eff - 1
                chosen = _choose(chosen, p)
    elif isinstance(collapse, bool) or collapse == 0:
        pass
    elif isinstance(collapse, int):
        for p in order:
            if effective(p, chosen) > collapse:
                chosen = _choose(chosen, p)
    elif isinstance(collapse, (str, list, tuple)):
        for p in [collapse] if isinstance(collapse, str) else [str(c) for c in collapse]:
            p = p.strip("/")
            if p in counts and not any(p.startswith(c + "/") for c in chosen):
                chosen = _choose(chosen, p)
    else:
        raise TypeError(say(BAD_COLLAPSE))
    return sorted(chosen, key=lambda c: min(n.id for n in nodes if _inside(n.scope, c)))


# ---------------------------------------------------------------------------------------------------- the plan
def _boxes(graph: Graph, chosen: list[str], grad_nodes: Mapping[int, int] | None
           ) -> tuple[list[Item], dict[int, str]]:
    """One item per node outside the collapsed scopes, one per collapsed scope (with its members)."""
    outputs = {n.id for n in graph.outputs}
    items: list[Item] = []
    key_of: dict[int, str] = {}
    groups: dict[str, Item] = {}
    # the node computing d(output)/d(input) of a define-then-run trace says so, or a student sees three gradient
    # "mul"s and cannot tell which one is the derivative they asked for
    grad_of = {gid: clean(graph.nodes[iid].name, TITLE_CHARS) for iid, gid in (grad_nodes or {}).items()}
    for n in graph.nodes:
        home = next((c for c in chosen if _inside(n.scope, c)), None)
        if home is None:
            title = f"∂/∂{grad_of[n.id]} = {_title(n)}" if n.id in grad_of else _title(n)
            items.append(Item(f"n{n.id}", n.kind, n.scope, (n,), title, _tooltip(n), n.gradient, n.id in outputs,
                              f"∂/∂{grad_of[n.id]}" if n.id in grad_of else ""))
            key_of[n.id] = items[-1].key
            continue
        if home not in groups:
            parent = home.rsplit("/", 1)[0] if "/" in home else ""
            groups[home] = Item(f"c{len(groups)}", "group", parent, (), clean(home.rsplit("/", 1)[-1], TITLE_CHARS),
                                clean(home, 400))
            items.append(groups[home])
        groups[home].members += (n,)
        key_of[n.id] = groups[home].key
    for g in groups.values():
        k = len(g.members)
        g.title = f"{g.title}\n" + say(Plural("{n} node", "{n} nodes"), n=k)
        g.tooltip = say(Plural("scope {scope}: {n} node drawn as one box", "scope {scope}: {n} nodes drawn as one box"),
                        scope=g.tooltip, n=k)
        g.gradient = all(m.gradient for m in g.members)
        g.output = any(m.id in outputs for m in g.members)
    return items, key_of


def _edges(nodes: list[Node], key_of: dict[int, str]) -> list[tuple[str, str, bool]]:
    """Edges between drawn boxes (one per pair), in the gradient style when every edge they stand for is."""
    edges: dict[tuple[str, str], bool] = {}
    for n in nodes:
        dst = key_of.get(n.id)
        if dst is None:
            continue
        for i in n.inputs:
            src = key_of.get(i.id)
            if src is not None and src != dst:
                edges[(src, dst)] = edges.get((src, dst), True) and n.gradient
    return [(s, d, g) for (s, d), g in edges.items()]


def plan(graph: Graph, max_nodes: int, collapse: Any, grad_nodes: Mapping[int, int] | None = None,
         counts_under: bool = False) -> Plan:
    """Decide the boxes: collapse scopes (explicit, by size, or automatically past ``max_nodes``), then cap.

    ``grad_nodes``: input node id -> the node computing the gradient with respect to it (a trace's
    ``grad_nodes``); that node's title says so (``∂/∂x = mul``).
    ``counts_under``: a collapsed scope's count goes under its name even in a compact label (a picture whose
    scopes sit side by side in one rank, 08's while loop, is narrower so).
    """
    chosen = _collapsed(graph.nodes, max_nodes, collapse)
    items, key_of = _boxes(graph, chosen, grad_nodes)
    for item in items:
        item.stacked = counts_under and item.kind == "group"
    note = _collapsed_note(chosen)
    hidden = 0
    if len(items) > max_nodes:
        hidden = len(items) - max_nodes
        kept_keys = {i.key for i in items[:max_nodes]}
        key_of = {nid: k for nid, k in key_of.items() if k in kept_keys}
        note = (note + " " if note else "") + _(
            "Showing the first {shown} of {total} boxes (max_nodes={max_nodes}); "
            "pass a larger max_nodes= or collapse= to see more."
        ).format(shown=number(max_nodes), total=number(len(items)), max_nodes=max_nodes)
        items = items[:max_nodes]
    return Plan(items, _edges(graph.nodes, key_of), key_of, note, hidden)


def _collapsed_note(chosen: list[str]) -> str:
    """The note under a drawing whose scopes were collapsed (empty if none was)."""
    if not chosen:
        return ""
    names = ", ".join(chosen[:4])
    if len(chosen) > 4:
        names = _("{names} and {n} more").format(names=names, n=len(chosen) - 4)
    return say(Plural("{n} scope drawn as one box: {names}.", "{n} scopes drawn as one box each: {names}."),
               n=len(chosen), names=names)


def long_edges(p: Plan) -> set[tuple[str, str]]:
    """Edges spanning more than ``LONG_SPAN`` ranks in a big drawing: left out of the layout, drawn afterwards.

    dot turns a long edge into a chain of virtual nodes, one per rank it crosses; forward values feeding a
    backward pass make hundreds of them (3.5 s for a 300-node gradient graph measured here). Laid out without
    them, the graph takes milliseconds, and the few long edges are drawn as curves between the placed boxes.
    """
    if len(p.items) <= BIG_LAYOUT:
        return set()
    order = {item.key: k for k, item in enumerate(p.items)}
    preds: dict[str, list[str]] = {item.key: [] for item in p.items}
    for src, dst, _g in p.edges:
        preds[dst].append(src)
    if any(order[s] >= order[d] for d, ss in preds.items() for s in ss):
        return set()  # collapsed scopes can make item order disagree with the edges: keep every edge
    rank: dict[str, int] = {}
    for item in p.items:  # creation order is a topological order here
        rank[item.key] = 1 + max((rank[s] for s in preds[item.key]), default=-1)
    return {(s, d) for s, d, _g in p.edges if rank[d] - rank[s] > LONG_SPAN}


# ---------------------------------------------------------------------------------------------------- states
def _normalize(status: Any) -> str:
    s = str(status)
    return s if s in STATUSES else "defined"


def _node_state(node: Node, state: Any, values: Mapping[int, Any] | None, grads: Mapping[int, Any] | None
                ) -> tuple[str, Any, Any]:
    """(status, value, grad) of one node: from a trace's NodeState, a plain status, or the node's own value."""
    value = node.value
    grad = None
    st = state if isinstance(state, str) or state is None else state.get(node.id)
    if st is None:
        status = "done" if value is not None else "defined"
    elif isinstance(st, str):
        status = _normalize(st)
    else:
        status = _normalize(getattr(st, "status", "defined"))
        value = getattr(st, "value", None)
        grad = getattr(st, "grad", None)
    if values is not None and node.id in values and values[node.id] is not None:
        value = values[node.id]
        if status == "defined" and state is None:
            status = "done"
    if grads is not None and node.id in grads:
        grad = grads[node.id]
    return status, value, grad


def _group_status(statuses: list[str]) -> str:
    if all(s == "hidden" for s in statuses):
        return "hidden"
    if "running" in statuses:
        return "running"
    if all(s in ("done", "hidden") for s in statuses) and "done" in statuses:
        return "done"
    return "defined"


def lines(item: Item, status: str, value: Any, grad: Any, compact: bool = False) -> tuple[str, ...]:
    """The label of a box in one state: mark + title, then ``= value`` and ``grad = ...`` when known.

    ``compact`` (the presenter theme): one line, a number after the title (a vector keeps a line of its own), the
    gradient a second line only once it exists; a collapsed scope's count joins its name; a gradient node says
    what it is the derivative of (``∂/∂x = 1.508``), not which op computes it.

    >>> box = Item("n1", "op", "", (), "mul", "")
    >>> lines(box, "done", 6.0, None), lines(box, "done", 6.0, 2.0, compact=True)
    (('✓ mul', '= 6'), ('✓ mul = 6', 'grad = 2'))
    """
    title = item.title.split("\n")
    if compact and not item.stacked:  # "∂/∂x = 1.508": which op computes it is in the tooltip
        title = [item.short or " · ".join(title)]
    out = [MARKS.get(status, "") + title[0], *title[1:]]
    if item.kind != "group" and status in ("running", "done"):
        if value is not None and item.kind != "constant":
            shown = fmt(value)
            if compact and not shown.startswith("["):  # a vector keeps its own line: joined, a tree got too wide
                out[0] += " = " + shown
            else:
                out.append("= " + shown)
        if grad is not None:
            out.append("grad = " + fmt(grad))
    return tuple(out)


def fmt(v: Any) -> str:
    """A value as a label shows it (4 significant digits for a number), in the language of the moment: French
    writes a decimal comma (``= 0,4953``), as :func:`course_lib.graph.value_text` does for the step's words."""
    if type(v) is float or (type(v) is np.ndarray and v.ndim == 0):
        # short_value's scalar format, without its array machinery (per-step hot path)
        return f"{float(v):.4g}" if get_language() != "fr" else number(float(v), 4)
    try:
        return value_text(v)
    except (TypeError, ValueError):
        return str(v)[:12]


def item_states(p: Plan, state: Any, values: Any, grads: Any, compact: bool = False
                ) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Box key -> (status, label lines) for one state of the drawing (``compact``: see :func:`lines`)."""
    if not (state is None or isinstance(state, (str, Mapping))):
        raise TypeError(say(BAD_STATE, statuses=", ".join(STATUSES), state=f"{state!r:.40}"))
    for what, m in (("values", values), ("grads", grads)):
        if m is not None and not isinstance(m, Mapping):
            raise TypeError(say(BAD_MAPPING, what=what, value=f"{m!r:.40}"))
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for item in p.items:
        if item.kind == "group":
            status = _group_status([_node_state(m, state, values, grads)[0] for m in item.members])
            out[item.key] = (status, lines(item, status, None, None, compact))
        else:
            status, value, grad = _node_state(item.members[0], state, values, grads)
            out[item.key] = (status, lines(item, status, value, grad, compact))
    return out
