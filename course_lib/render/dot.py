"""DOT text: deterministic (node names from ``node.id``, ordered containers only), clusters per name scope.

The same plan is written twice: once *unstyled* (shapes and label sizes only) for the layout, which is then the
same for every state of a drawing, and once *styled* for ``cl.draw``'s ``.source``, with the styles of
:mod:`.theme` — the same table the SVG writer reads.

>>> q('say "hi"\\nthere')
'"say \\\\"hi\\\\"\\\\nthere"'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .plan import BIG_LAYOUT, TITLE_CHARS, Item, Plan, clean, prefixes
from .theme import SHAPES, Theme, edge_style, node_style

__all__ = ["BIG_CLUSTER", "CHAIN_WEIGHT", "INPUT_MARGIN", "MARGIN", "attrs", "body", "q"]

BIG_CLUSTER = 30  # boxes in one scope; above it the whole graph is ranked at once (see _graph_attrs)
CHAIN_WEIGHT = 3  # Graphviz's edge weight (1 by default) between two operations
#: (x, y) inches of room around a label, classroom and compact (the presenter theme's one-line labels)
MARGIN = {False: "0.12,0.05", True: "0.05,0.01"}
#: an input's parallelogram is laid out as a box with side margins wide enough for its slant (svg.shape's cap)
INPUT_MARGIN = {False: "0.3,0.05", True: "0.11,0.01"}

States = Mapping[str, tuple[str, tuple[str, ...]]]


def q(s: str) -> str:
    """A DOT double-quoted string (newlines become DOT's centred line breaks)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def attrs(d: Mapping[str, Any]) -> str:
    return "[" + " ".join(f"{k}={q(str(v))}" for k, v in d.items()) + "]"


def _graph_attrs(p: Plan, t: Theme, prefix: str, rankdir: str) -> dict[str, Any]:
    g = {"id": prefix, "rankdir": rankdir, "nodesep": t.nodesep, "ranksep": t.ranksep, "fontname": t.fontname,
         "fontsize": t.fontsize, "bgcolor": "transparent"}
    in_scope: dict[str, int] = {}
    for item in p.items:
        for s in prefixes(item.scope):
            in_scope[s] = in_scope.get(s, 0) + 1
    if max(in_scope.values(), default=0) > BIG_CLUSTER:
        # rank the whole graph at once, not cluster by cluster: with one big cluster (a "gradients" scope) that is
        # 3.6 s -> 0.1 s for a 300-node gradient graph here; with many small clusters it is slower, so only then
        g["newrank"] = "true"
    if len(p.items) > BIG_LAYOUT:
        # dot's network simplex can take minutes on a big graph with long edges (14 s at 100 nodes measured here,
        # 0.2 s with these limits); small graphs keep the full-quality layout
        g.update({"nslimit": 1, "nslimit1": 1, "mclimit": 0.5})
    return g


def _scope_tree(p: Plan) -> tuple[dict[str, list[str]], dict[str, list[Item]]]:
    """Scope -> child scopes and scope -> its boxes, children in first-appearance order (deterministic)."""
    tree: dict[str, list[str]] = {"": []}
    members: dict[str, list[Item]] = {"": []}
    for item in p.items:
        parent = ""
        for s in prefixes(item.scope):
            if s not in tree:
                tree[s] = []
                members[s] = []
                tree[parent].append(s)
            parent = s
        members[item.scope if item.scope in members else ""].append(item)
    return tree, members


def node_attrs(status: str, gradient: bool, t: Theme) -> dict[str, Any]:
    """A box's DOT style attributes, from the style table."""
    s = node_style(status, gradient, t)
    if s.hidden:
        return {"style": "invis"}
    a: dict[str, Any] = {"style": "dashed" if s.dash else ("filled,bold" if s.bold else "filled")}
    if not s.dash:  # a dashed (defined) box is left unfilled
        a["fillcolor"] = s.fill
    a["color"] = s.stroke
    if s.penwidth != t.penwidth:
        a["penwidth"] = s.penwidth
    if s.dash:
        a["fontcolor"] = s.text
    a["fontname"] = t.fontname + ("-Oblique" if s.italic else "")
    return a


def edge_attrs(tail: str, head: str, gradient: bool, t: Theme) -> dict[str, Any]:
    """An edge's DOT style attributes, from the style table."""
    s = edge_style(head, gradient, t, tail)
    if s.hidden:
        return {"style": "invis"}
    a: dict[str, Any] = {"style": "dotted" if s.dotted else "dashed" if s.dash else "solid", "color": s.color}
    if s.penwidth != t.penwidth:
        a["penwidth"] = s.penwidth
    return a


def _node_line(item: Item, prefix: str, labels: Mapping[str, Sequence[str]], states: States | None,
               t: Theme) -> dict[str, Any]:
    a: dict[str, Any] = {"id": f"{prefix}_{item.key}", "shape": SHAPES.get(item.kind, "ellipse"),
                         "label": "\n".join(labels[item.key])}
    if item.kind == "input" and states is None:
        # Graphviz inflates a parallelogram around a multi-line label; lay it out as a wider box and draw
        # the parallelogram inside it (the course draws every shape itself)
        a.update({"shape": "box", "margin": INPUT_MARGIN[t.compact]})
    elif item.kind == "op" and t.compact:  # a stadium: a box with round ends, hugging one line of text
        a["shape"] = "box"
    if item.output:
        a["peripheries"] = 2
    if item.kind == "group":
        a["style"] = "rounded"
    if states is not None:
        a.update(node_attrs(states[item.key][0], item.gradient, t))
        if a["shape"] == "box" and item.kind == "op" and a["style"] != "invis":
            a["style"] = "rounded," + a["style"]
        a["tooltip"] = item.tooltip
    return a


def _clusters(p: Plan, prefix: str, labels: Mapping[str, Sequence[str]], states: States | None,
              t: Theme) -> list[str]:
    """The boxes, each inside the clusters of its scopes (an iterative walk: deep nesting must not recurse)."""
    tree, members = _scope_tree(p)
    cluster_ids = {s: k for k, s in enumerate(s for s in tree if s)}
    out: list[str] = []
    stack: list[tuple[str, int, bool]] = [("", 0, False)]
    while stack:
        scope, depth, closing = stack.pop()
        if closing:
            out.append("\t" * depth + "}\n")
            continue
        indent = "\t" * (depth + 1)
        if scope:
            c = {"label": clean(scope.rsplit("/", 1)[-1], TITLE_CHARS), "style": "rounded,dashed", "labeljust": "l",
                 "fontsize": round(t.fontsize * 0.85, 1)}
            if t.compact:  # Graphviz's default is 8 pt around a scope's boxes
                c["margin"] = 4
            if states is not None:
                c.update({"color": t.cluster_stroke, "fontcolor": t.cluster_text})
            out.append("\t" * depth + f"subgraph cluster_{cluster_ids[scope]} {{\n")
            out.append(f"{indent}graph {attrs(c)}\n")
            stack.append((scope, depth, True))
        out += [f"{indent}{item.key} {attrs(_node_line(item, prefix, labels, states, t))}\n"
                for item in members[scope]]
        stack += [(child, depth + 1, False) for child in reversed(tree[scope])]
    return out


def body(p: Plan, t: Theme, prefix: str, labels: Mapping[str, Sequence[str]], states: States | None,
         rankdir: str, skip: set[tuple[str, str]] | frozenset = frozenset()) -> list[str]:
    """DOT statements (graphviz.Digraph ``body`` lines). ``states`` None: layout only (shapes, sizes)."""
    n_attrs = {"fontname": t.fontname, "fontsize": t.fontsize, "penwidth": t.penwidth, "margin": MARGIN[t.compact],
               "height": 0.3 if t.compact else 0.4}
    if t.compact:  # Graphviz's least width (0.75 in) drew an input "a" 54 pt wide: 07's batch of trees
        n_attrs["width"] = 0.3
    out = [
        f"\tgraph {attrs(_graph_attrs(p, t, prefix, rankdir))}\n",
        f"\tnode {attrs(n_attrs)}\n",
        f"\tedge {attrs({'arrowsize': t.arrowsize, 'penwidth': t.penwidth})}\n",
        *_clusters(p, prefix, labels, states, t),
    ]
    kinds = {item.key: item.kind for item in p.items}
    for src, dst, grad in p.edges:
        if (src, dst) in skip:
            continue
        a = {} if states is None else edge_attrs(states[src][0], states[dst][0], grad, t)
        if kinds[src] in ("op", "group") and kinds[dst] in ("op", "group"):
            # a chain of operations pulls straight: without it each op sat between its predecessor and its constant,
            # a staircase (08's loop unrolled 3 times: 481 pt wide, 275 pt with it)
            a["weight"] = CHAIN_WEIGHT
        out.append(f"\t{src} -> {dst}" + (f" {attrs(a)}" if a else "") + "\n")
    if p.note and states is not None:
        out.append(f"\tgraph {attrs({'label': p.note, 'labelloc': 'b'})}\n")
    return out
