"""One renderer for every graph of the course: Graph (+ a step's state) -> DOT -> layout (once) -> SVG.

The path, and why each stage is where it is:

1. **Plan** what is drawn: one box per node, except that big name scopes may be *collapsed* into one box with
   a count, and a graph beyond ``max_nodes`` boxes is *capped* with a note (layout time grows fast).
2. **DOT**: deterministic text (node names from ``node.id``, ordered containers only), clusters per name scope.
   :func:`draw` returns it as a ``graphviz.Digraph`` that displays itself in Jupyter.
3. **Layout, once**: in-process with pygraphviz (a few ms), else with the ``dot`` program, else give up politely
   (the DOT text and an install hint, never a traceback). Positions are cached per DOT text, so a step, a new
   value or a second drawing of the same structure never lays out again and never moves a node.
4. **SVG**, written here from the positions: a step only changes the styles and labels of boxes that already
   have their place, and nodes that do not exist yet are laid out but not drawn, so nothing jumps. Writing the SVG
   ourselves keeps it small (no comments, no whitespace) and makes a step cost microseconds, not a render.

Visual language (DESIGN.md): shapes by kind (input = parallelogram, constant = box, variable = cylinder,
operation = ellipse, output = double border, collapsed scope = 3-D box); states by outline/fill/mark
(defined = dashed outline, running = thick outline, orange fill, mark ``▶``; done = blue fill, mark ``✓``, value
in the label); gradient nodes italic and vermillion, their edges dotted. Colours are Okabe–Ito, and every state is
also readable without colour.

>>> from course_lib.graph import Graph
>>> g = Graph(); x = g.add("placeholder", name="x", kind="input"); y = g.add("sin", [x]); g.mark_output(y)
>>> "n1 -> " in to_dot(g) or "n0 -> n1" in to_dot(g)
True
>>> to_svg(g).startswith("<svg")
True
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import json
import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .graph import Graph, Node, short_value

__all__ = [
    "DEFAULT_MAX_NODES",
    "INSTALL_HINT",
    "THEMES",
    "CourseDigraph",
    "Frames",
    "Layout",
    "Theme",
    "clear_cache",
    "draw",
    "get_theme",
    "legend_svg",
    "set_theme",
    "to_dot",
    "to_svg",
]

STATUSES = ("hidden", "defined", "running", "done")
DEFAULT_MAX_NODES = 300
DRAW_MAX_WIDTH = 680.0  # pt (about 900 px): the widest a cl.draw picture declares itself (see CourseDigraph.svg)
BIG_LAYOUT = 60  # boxes; above it the layout trades a little tidiness for bounded time
BIG_CLUSTER = 30  # boxes in one scope; above it the whole graph is ranked at once (see _dot_body)
LONG_SPAN = 6  # ranks; in a big drawing, longer edges are drawn after the layout instead of steering it
INSTALL_HINT = (
    "No Graphviz layout engine was found, so here is the graph as DOT text. To see it drawn, install one of:\n"
    "  pip install pygraphviz        (wheels bundle Graphviz; nothing else needed)\n"
    "  conda install -c conda-forge graphviz pygraphviz\n"
    "  apt-get install graphviz  /  brew install graphviz  /  winget install graphviz   (the `dot` program)"
)
MARKS = {"running": "▶ ", "done": "✓ "}
# room kept for a value line when values change under a slider: most 4-digit values fit ("-0.7539", "4.54e-05");
# a wider one (-1.235e+10) gets a new layout, which is correct, just not motionless
VALUE_ROOM = "= -0.00000"
GRAD_ROOM = "grad = -0.00000"


# ---------------------------------------------------------------------------------------------------- themes
@dataclass(frozen=True)
class Theme:
    """Fonts, line widths and the Okabe–Ito colours of one look. Change the default with :func:`set_theme`."""

    name: str = "classroom"
    fontname: str = "Helvetica"  # Graphviz measures text with it (Liberation Sans / Arial have the same metrics)
    font_family: str = "Helvetica,Arial,'Liberation Sans',sans-serif"
    fontsize: float = 14.0
    penwidth: float = 1.3
    running_penwidth: float = 3.2
    arrowsize: float = 0.8
    text: str = "#111111"
    stroke: str = "#333333"
    defined_stroke: str = "#555555"
    defined_text: str = "#333333"
    dash: str = "5,3"
    running_fill: str = "#F7D58E"  # Okabe–Ito orange #E69F00, tinted so black text stays readable
    done_fill: str = "#C6E5F8"  # Okabe–Ito sky blue #56B4E9, tinted
    gradient: str = "#D55E00"  # Okabe–Ito vermillion
    gradient_fill: str = "#F5CDB3"
    edge: str = "#444444"
    edge_defined: str = "#9A9A9A"
    edge_running: str = "#B87700"  # a darker orange: thin lines need more contrast than fills
    cluster_fill: str = "#F5F5F5"
    cluster_stroke: str = "#B0B0B0"
    cluster_text: str = "#444444"
    background: str = "#FFFFFF"
    nodesep: float = 0.25
    ranksep: float = 0.35


THEMES: dict[str, Theme] = {
    "classroom": Theme(),
    # projector: bigger text, thicker lines, black strokes, saturated fills (black text on them keeps > 7:1)
    "presenter": Theme(
        name="presenter", fontsize=20.0, penwidth=2.6, running_penwidth=5.5, arrowsize=1.2, text="#000000",
        stroke="#000000", defined_stroke="#222222", defined_text="#000000", dash="9,5", running_fill="#E69F00",
        done_fill="#56B4E9", gradient="#D55E00", gradient_fill="#F0A878", edge="#000000", edge_defined="#555555",
        edge_running="#A86A00", cluster_fill="#EEEEEE", cluster_stroke="#555555", cluster_text="#000000",
        nodesep=0.3, ranksep=0.45,
    ),
}
_theme: Theme = THEMES["classroom"]


def set_theme(theme: str | Theme = "classroom") -> Theme:
    """Switch every later drawing to a theme: ``set_theme("presenter")`` for a projector, ``"classroom"`` back.

    >>> set_theme("presenter").fontsize > set_theme("classroom").fontsize
    True
    """
    global _theme
    _theme = get_theme(theme)
    return _theme


def get_theme(theme: str | Theme | None = None) -> Theme:
    """The theme named (or given), or the current default."""
    if theme is None:
        return _theme
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[str(theme)]
    except KeyError:
        raise ValueError(f"unknown theme {theme!r}; choose one of {', '.join(THEMES)}") from None


# ---------------------------------------------------------------------------------------------------- planning
@dataclass
class _Item:
    """One box of the drawing: a node, or a collapsed scope standing for several nodes."""

    key: str  # DOT node name: "n<id>" or "c<k>"
    kind: str  # input | constant | variable | op | group
    scope: str  # the cluster it sits in
    members: tuple[Node, ...]
    title: str
    tooltip: str
    gradient: bool = False
    output: bool = False


@dataclass
class _Plan:
    items: list[_Item]
    edges: list[tuple[str, str, bool]]  # (src key, dst key, gradient style)
    key_of: dict[int, str]  # node id -> item key (only for drawn nodes)
    note: str
    hidden_count: int = 0


def _title(node: Node) -> str:
    """What a box says on its first line; framework op names (``AddmmBackward0``, ``MatMul``) kept as they are."""
    if node.kind == "constant" and node.value is not None:
        return short_value(node.value)
    if node.kind != "op":
        return node.name.rsplit("/", 1)[-1]
    last = node.name.rsplit("/", 1)[-1]
    if last == node.op or re.fullmatch(re.escape(node.op) + r"_\d+", last):
        return node.op
    return f"{last} = {node.op}"


def _tooltip(node: Node) -> str:
    args = ", ".join(i.name for i in node.inputs)
    what = f"{node.name} = {node.op}({args})" if node.kind == "op" else f"{node.name}: {node.kind} ({node.op})"
    if node.scope:
        what += f"  [scope {node.scope}]"
    if node.gradient:
        what += "  [gradient]"
    return what


def _prefixes(scope: str) -> list[str]:
    parts = [p for p in scope.split("/") if p]
    return ["/".join(parts[: k + 1]) for k in range(len(parts))]


def _plan(graph: Graph, max_nodes: int, collapse: Any) -> _Plan:
    """Decide the boxes: collapse scopes (explicit, by size, or automatically past ``max_nodes``), then cap."""
    nodes = graph.nodes
    outputs = {n.id for n in graph.outputs}
    counts: dict[str, int] = {}
    for n in nodes:
        for p in _prefixes(n.scope):
            counts[p] = counts.get(p, 0) + 1
    # deepest scopes first: an inner scope collapses before the scope that contains it
    order = sorted(counts, key=lambda p: (-p.count("/"), -counts[p], p))

    def effective(p: str, chosen: list[str]) -> int:
        """How many boxes scope p shows when the scopes in `chosen` are already single boxes."""
        inner = [c for c in chosen if c.startswith(p + "/")]
        hidden = sum(counts[c] - 1 for c in inner if not any(c.startswith(o + "/") for o in inner))
        return counts[p] - hidden

    chosen: list[str] = []
    if collapse is None or collapse is True:
        budget = len(nodes)
        for p in order:
            if budget <= max_nodes:
                break
            if any(p.startswith(c + "/") or p == c for c in chosen):
                continue
            eff = effective(p, chosen)
            if eff > 1:
                budget -= eff - 1
                chosen = [c for c in chosen if not c.startswith(p + "/")] + [p]
    elif isinstance(collapse, bool) or collapse == 0:
        pass
    elif isinstance(collapse, int):
        for p in order:
            if effective(p, chosen) > collapse:
                chosen = [c for c in chosen if not c.startswith(p + "/")] + [p]
    elif isinstance(collapse, (str, list, tuple)):
        wanted = [collapse] if isinstance(collapse, str) else [str(c) for c in collapse]
        for p in wanted:
            p = p.strip("/")
            if p in counts and not any(p.startswith(c + "/") for c in chosen):
                chosen = [c for c in chosen if not c.startswith(p + "/")] + [p]
    else:
        raise TypeError("collapse= takes None (automatic), False, a size (int) or scope names (str or list)")
    chosen.sort(key=lambda c: min(n.id for n in nodes if n.scope == c or n.scope.startswith(c + "/")))

    items: list[_Item] = []
    key_of: dict[int, str] = {}
    groups: dict[str, _Item] = {}
    # a define-then-run trace marks each input with the node computing d(output)/d(input): say so on that node,
    # or a student sees three gradient "mul"s and cannot tell which one is the derivative they asked for
    grad_of = {n.attrs["grad_node"]: n.name for n in nodes if isinstance(n.attrs.get("grad_node"), int)}
    for n in nodes:
        home = next((c for c in chosen if n.scope == c or n.scope.startswith(c + "/")), None)
        if home is None:
            title = f"∂/∂{grad_of[n.id]} = {_title(n)}" if n.id in grad_of else _title(n)
            item = _Item(f"n{n.id}", n.kind, n.scope, (n,), title, _tooltip(n), n.gradient, n.id in outputs)
            items.append(item)
            key_of[n.id] = item.key
            continue
        group = groups.get(home)
        if group is None:
            k = len(groups)
            parent = home.rsplit("/", 1)[0] if "/" in home else ""
            group = _Item(f"c{k}", "group", parent, (), home.rsplit("/", 1)[-1], home)
            groups[home] = group
            items.append(group)
        group.members = group.members + (n,)
        key_of[n.id] = group.key
    for g in groups.values():
        g.title = f"{g.title}\n{len(g.members)} nodes"
        g.tooltip = f"scope {g.tooltip}: {len(g.members)} nodes drawn as one box"
        g.gradient = all(m.gradient for m in g.members)
        g.output = any(m.id in outputs for m in g.members)

    note = ""
    if chosen:
        names = ", ".join(chosen[:4]) + (", …" if len(chosen) > 4 else "")
        note = f"{len(chosen)} scope(s) drawn as one box each: {names}."
    hidden = 0
    if len(items) > max_nodes:
        hidden = len(items) - max_nodes
        kept = items[:max_nodes]
        kept_keys = {i.key for i in kept}
        key_of = {nid: k for nid, k in key_of.items() if k in kept_keys}
        note = (note + " " if note else "") + (
            f"Showing the first {max_nodes} of {len(items)} boxes (max_nodes={max_nodes}); "
            "pass a larger max_nodes= or collapse= to see more."
        )
        items = kept

    edges: dict[tuple[str, str], bool] = {}
    for n in nodes:
        dst = key_of.get(n.id)
        if dst is None:
            continue
        for i in n.inputs:
            src = key_of.get(i.id)
            if src is None or src == dst:
                continue
            edges[(src, dst)] = edges.get((src, dst), True) and n.gradient
    return _Plan(items, [(s, d, g) for (s, d), g in edges.items()], key_of, note, hidden)


# ---------------------------------------------------------------------------------------------------- state
def _normalize(status: Any) -> str:
    s = str(status)
    return s if s in STATUSES else "defined"


def _node_state(node: Node, state: Any, values: Mapping[int, Any] | None, grads: Mapping[int, Any] | None
                ) -> tuple[str, Any, Any]:
    """(status, value, grad) of one node: from a trace's NodeState, a plain status, or the node's own value."""
    value = node.value
    grad = None
    if isinstance(state, str):
        status = _normalize(state)
    elif state is None:
        status = "done" if value is not None else "defined"
    else:
        st = state.get(node.id)
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


def _lines(item: _Item, status: str, value: Any, grad: Any) -> tuple[str, ...]:
    """The label of a box in one state: mark + title, then ``= value`` and ``grad = ...`` when known."""
    title = item.title.split("\n")
    lines = [MARKS.get(status, "") + title[0], *title[1:]]
    if item.kind != "group" and status in ("running", "done"):
        if value is not None and item.kind != "constant":
            lines.append("= " + _fmt(value))
        if grad is not None:
            lines.append("grad = " + _fmt(grad))
    return tuple(lines)


def _fmt(v: Any) -> str:
    if type(v) is float or (type(v) is np.ndarray and v.ndim == 0):
        return f"{float(v):.4g}"  # short_value's scalar format, without its array machinery (per-step hot path)
    try:
        return short_value(v)
    except (TypeError, ValueError):
        return str(v)[:12]


def _item_states(plan: _Plan, state: Any, values: Any, grads: Any) -> dict[str, tuple[str, tuple[str, ...]]]:
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for item in plan.items:
        if item.kind == "group":
            status = _group_status([_node_state(m, state, values, grads)[0] for m in item.members])
            out[item.key] = (status, _lines(item, status, None, None))
        else:
            status, value, grad = _node_state(item.members[0], state, values, grads)
            out[item.key] = (status, _lines(item, status, value, grad))
    return out


def _long_edges(plan: _Plan) -> set[tuple[str, str]]:
    """Edges spanning more than ``LONG_SPAN`` ranks in a big drawing: left out of the layout, drawn afterwards.

    dot turns a long edge into a chain of virtual nodes, one per rank it crosses; forward values feeding a
    backward pass make hundreds of them (3.5 s for a 300-node gradient graph measured here). Laid out without
    them, the graph takes milliseconds, and the few long edges are drawn as curves between the placed boxes.
    """
    if len(plan.items) <= BIG_LAYOUT:
        return set()
    order = {item.key: k for k, item in enumerate(plan.items)}
    preds: dict[str, list[str]] = {item.key: [] for item in plan.items}
    for src, dst, _g in plan.edges:
        preds[dst].append(src)
    if any(order[s] >= order[d] for d, ss in preds.items() for s in ss):
        return set()  # collapsed scopes can make item order disagree with the edges: keep every edge
    rank: dict[str, int] = {}
    for item in plan.items:  # creation order is a topological order here
        rank[item.key] = 1 + max((rank[s] for s in preds[item.key]), default=-1)
    return {(s, d) for s, d, _g in plan.edges if rank[d] - rank[s] > LONG_SPAN}


# ---------------------------------------------------------------------------------------------------- DOT
_SHAPES = {"input": "parallelogram", "constant": "box", "variable": "cylinder", "op": "ellipse", "group": "box3d"}


def _q(s: str) -> str:
    """A DOT double-quoted string (newlines become DOT's centred line breaks)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(d: Mapping[str, Any]) -> str:
    return "[" + " ".join(f"{k}={_q(str(v))}" for k, v in d.items()) + "]"


def _dot_body(plan: _Plan, theme: Theme, prefix: str, labels: Mapping[str, Sequence[str]],
              styles: Mapping[str, tuple[str, tuple[str, ...]]] | None, rankdir: str,
              skip: set[tuple[str, str]] | frozenset = frozenset()) -> list[str]:
    """DOT statements (graphviz.Digraph ``body`` lines). ``styles`` None: layout only (shapes, sizes)."""
    t = theme
    g_attrs = {"id": prefix, "rankdir": rankdir, "nodesep": t.nodesep, "ranksep": t.ranksep,
               "fontname": t.fontname, "fontsize": t.fontsize, "bgcolor": "transparent"}
    in_scope: dict[str, int] = {}
    for item in plan.items:
        for p in _prefixes(item.scope):
            in_scope[p] = in_scope.get(p, 0) + 1
    if max(in_scope.values(), default=0) > BIG_CLUSTER:
        # rank the whole graph at once, not cluster by cluster: with one big cluster (a "gradients" scope) that is
        # 3.6 s -> 0.1 s for a 300-node gradient graph here; with many small clusters it is slower, so only then
        g_attrs["newrank"] = "true"
    if len(plan.items) > BIG_LAYOUT:
        # dot's network simplex can take minutes on a big graph with long edges (14 s at 100 nodes measured here,
        # 0.2 s with these limits); small graphs keep the full-quality layout
        g_attrs.update({"nslimit": 1, "nslimit1": 1, "mclimit": 0.5})
    n_attrs = {"fontname": t.fontname, "fontsize": t.fontsize, "penwidth": t.penwidth, "margin": "0.12,0.05",
               "height": 0.4}
    body = [
        f"\tgraph {_attrs(g_attrs)}\n",
        f"\tnode {_attrs(n_attrs)}\n",
        f"\tedge {_attrs({'arrowsize': t.arrowsize, 'penwidth': t.penwidth})}\n",
    ]
    # clusters: a tree of scopes, each opened once, children in first-appearance order (deterministic)
    tree: dict[str, list[str]] = {"": []}
    members: dict[str, list[_Item]] = {"": []}
    for item in plan.items:
        path = _prefixes(item.scope)
        parent = ""
        for p in path:
            if p not in tree:
                tree[p] = []
                members[p] = []
                tree[parent].append(p)
            parent = p
        members[item.scope if item.scope in members else ""].append(item)
    cluster_ids = {p: k for k, p in enumerate(p for p in tree if p)}

    def node_line(item: _Item, indent: str) -> str:
        a: dict[str, Any] = {"id": f"{prefix}_{item.key}", "shape": _SHAPES.get(item.kind, "ellipse"),
                             "label": "\n".join(labels[item.key])}
        if item.kind == "input" and styles is None:
            # Graphviz inflates a parallelogram around a multi-line label; lay it out as a wider box and draw
            # the parallelogram inside it (we draw every shape ourselves)
            a.update({"shape": "box", "margin": "0.3,0.05"})
        if item.output:
            a["peripheries"] = 2
        if item.kind == "group":
            a["style"] = "rounded"
        if styles is not None:
            status = styles[item.key][0]
            a.update(_dot_style(item, status, theme))
            a["tooltip"] = item.tooltip
        return f"{indent}{item.key} {_attrs(a)}\n"

    stack: list[tuple[str, int, bool]] = [("", 0, False)]
    while stack:  # iterative walk of the scope tree (deep nesting must not recurse)
        scope, depth, closing = stack.pop()
        if closing:
            body.append("\t" * depth + "}\n")
            continue
        indent = "\t" * (depth + 1)
        if scope:
            c_attrs = {"label": scope.rsplit("/", 1)[-1], "style": "rounded,dashed", "labeljust": "l",
                       "fontsize": round(t.fontsize * 0.85, 1)}
            if styles is not None:
                c_attrs.update({"color": t.cluster_stroke, "fontcolor": t.cluster_text})
            body.append("\t" * depth + f"subgraph cluster_{cluster_ids[scope]} {{\n")
            body.append(f"{indent}graph {_attrs(c_attrs)}\n")
            stack.append((scope, depth, True))
        for item in members[scope]:
            body.append(node_line(item, indent))
        for child in reversed(tree[scope]):
            stack.append((child, depth + 1, False))
    for src, dst, grad in plan.edges:
        if (src, dst) in skip:
            continue
        a = {}
        if styles is not None:
            a = _dot_edge_style(styles[src][0], styles[dst][0], grad, theme)
        body.append(f"\t{src} -> {dst}" + (f" {_attrs(a)}" if a else "") + "\n")
    if plan.note and styles is not None:
        body.append(f"\tgraph {_attrs({'label': plan.note, 'labelloc': 'b'})}\n")
    return body


def _dot_style(item: _Item, status: str, t: Theme) -> dict[str, Any]:
    stroke = t.gradient if item.gradient else t.stroke
    fill = t.gradient_fill if item.gradient else t.done_fill
    font = t.fontname + ("-Oblique" if item.gradient else "")
    if status == "hidden":
        return {"style": "invis"}
    if status == "running":
        return {"style": "filled,bold", "fillcolor": t.running_fill, "color": stroke, "penwidth": t.running_penwidth,
                "fontname": font}
    if status == "done":
        return {"style": "filled", "fillcolor": fill, "color": stroke, "fontname": font}
    return {"style": "dashed", "color": t.gradient if item.gradient else t.defined_stroke, "fontcolor": t.defined_text,
            "fontname": font}


def _dot_edge_style(src: str, dst: str, grad: bool, t: Theme) -> dict[str, Any]:
    if "hidden" in (src, dst):
        return {"style": "invis"}
    style = "dotted" if grad else ("dashed" if dst == "defined" else "solid")
    color = t.gradient if grad else {"running": t.edge_running, "done": t.edge}.get(dst, t.edge_defined)
    a: dict[str, Any] = {"style": style, "color": color}
    if dst == "running":
        a["penwidth"] = t.running_penwidth * 0.7
    return a


# ---------------------------------------------------------------------------------------------------- layout engines
@dataclass
class _Geometry:
    """Positions read back from Graphviz, in Graphviz points (y up)."""

    bb: tuple[float, float, float, float]
    nodes: dict[str, tuple[float, float, float, float]]  # key -> x, y, width, height
    edges: dict[tuple[str, str], tuple[list[tuple[float, float]], tuple[float, float] | None]]
    clusters: list[tuple[str, tuple[float, float, float, float], tuple[float, float] | None]]  # label, bb, lp
    engine: str


class LayoutUnavailable(RuntimeError):
    """Neither pygraphviz nor the ``dot`` program could lay the graph out."""


def _floats(s: str) -> list[float]:
    return [float(v) for v in s.replace(",", " ").split()]


def _spline(pos: str) -> tuple[list[tuple[float, float]], tuple[float, float] | None]:
    end = None
    pts: list[tuple[float, float]] = []
    for tok in pos.split(";")[0].split():
        if tok.startswith("e,"):
            x, y = tok[2:].split(",")
            end = (float(x), float(y))
        elif tok.startswith("s,"):
            continue
        else:
            x, y = tok.split(",")[:2]
            pts.append((float(x), float(y)))
    return pts, end


_fontconfig_quieted = False
#: What the Graphviz libraries bundled in pygraphviz wheels print on first use: an older fontconfig's harmless
#: "Fontconfig warning ... reset-dirs". ipykernel forwards C-level stderr into the notebook, where it would look like
#: an error (and break nbval); anything else written there is passed on.
FONTCONFIG_NOISE = (re.compile(r"Fontconfig"),)


@contextlib.contextmanager
def _quiet_stderr_once() -> Iterator[None]:
    """Swallow the fontconfig notice of the first in-process layout (later layouts print nothing)."""
    global _fontconfig_quieted
    if _fontconfig_quieted:
        yield
        return
    _fontconfig_quieted = True
    from .adapters.quiet import quiet_stderr

    with quiet_stderr(FONTCONFIG_NOISE):
        yield


def _geometry_from_json(data: dict[str, Any], engine: str) -> _Geometry:
    """Positions from Graphviz's ``-Tjson`` output (the same for pygraphviz and the ``dot`` program)."""
    objects = data.get("objects", [])
    names = {o["_gvid"]: o["name"] for o in objects}
    nodes, clusters = {}, []
    for o in objects:
        if "nodes" in o or "subgraphs" in o or "edges" in o:  # a cluster
            if "bb" in o:
                lp = o.get("lp")
                clusters.append((o.get("label", ""), tuple(_floats(o["bb"])), tuple(_floats(lp)[:2]) if lp else None))
        elif "pos" in o:
            x, y = _floats(o["pos"])[:2]
            nodes[o["name"]] = (x, y, float(o["width"]) * 72, float(o["height"]) * 72)
    # a parent cluster is bigger than its children: drawing by decreasing area puts children on top
    clusters.sort(key=lambda c: -(c[1][2] - c[1][0]) * (c[1][3] - c[1][1]))
    edges = {}
    for e in data.get("edges", []):
        if "pos" in e:
            edges[(names[e["tail"]], names[e["head"]])] = _spline(e["pos"])
    return _Geometry(tuple(_floats(data["bb"])), nodes, edges, clusters, engine)  # type: ignore[arg-type]


_GVC: Any = None  # one Graphviz context for the process: creating one loads every plugin (~1-2 ms per layout)


def _layout_pygraphviz(dot: str) -> _Geometry:
    import pygraphviz  # imported here so a missing package (or a test's simulation of it) only skips this engine
    from pygraphviz import graphviz as gv

    global _GVC
    with _quiet_stderr_once():
        graph = pygraphviz.AGraph(string=dot)
        if _GVC is None:
            _GVC = gv.gvContextWithBuiltins()
        if gv.gvLayout(_GVC, graph.handle, b"dot") != 0:
            raise RuntimeError("Graphviz could not lay this graph out")
        try:
            # positions as JSON in the same C call: reading them back through pygraphviz's attribute objects cost
            # more than the layout (2,300 attribute objects for a 100-node graph)
            err, out = gv.gvRenderData(_GVC, graph.handle, b"json0")
        finally:
            gv.gvFreeLayout(_GVC, graph.handle)
    if err:
        raise RuntimeError(f"Graphviz could not write the layout (error {err})")
    return _geometry_from_json(json.loads(out.decode("utf-8")), "pygraphviz")


def _layout_dot_program(dot: str) -> _Geometry:
    import graphviz  # the Python package; it runs the `dot` program and raises ExecutableNotFound without it

    data = json.loads(graphviz.Source(dot).pipe(format="json0", engine="dot").decode("utf-8"))
    return _geometry_from_json(data, "dot program")


ENGINES = (("pygraphviz", _layout_pygraphviz), ("dot program", _layout_dot_program))
_LAYOUTS: OrderedDict[str, _Geometry] = OrderedDict()
_CACHE_SIZE = 64


def clear_cache() -> None:
    """Forget every layout (tests use it; nothing else needs to)."""
    _LAYOUTS.clear()


def _layout(dot: str) -> tuple[_Geometry | None, list[str]]:
    """Positions for a DOT text, from the cache or the first engine that works; (None, reasons) if none does."""
    geo = _LAYOUTS.get(dot)
    if geo is not None:
        _LAYOUTS.move_to_end(dot)
        return geo, []
    reasons = []
    for name, engine in ENGINES:
        try:
            geo = engine(dot)
        except Exception as exc:  # noqa: BLE001 - ImportError, ExecutableNotFound, a Graphviz error: next engine
            reasons.append(f"{name}: {type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc) else ''}")
            continue
        _LAYOUTS[dot] = geo
        if len(_LAYOUTS) > _CACHE_SIZE:
            _LAYOUTS.popitem(last=False)
        return geo, reasons
    return None, reasons


# ---------------------------------------------------------------------------------------------------- SVG
def _n(v: float) -> str:
    """A coordinate with one decimal and no trailing zeros: small SVG, same text every time."""
    s = f"{v:.1f}"
    s = s.removesuffix(".0")
    return "0" if s == "-0" else s


_NEEDS_ESCAPE = re.compile(r"[&<>\"']")


def _e(s: str) -> str:
    return html.escape(s, quote=True) if _NEEDS_ESCAPE.search(s) else s


def _shape(kind: str, cx: float, cy: float, w: float, h: float) -> str:
    """The outline of a box as an SVG element without style (the style is added per state)."""
    L, R, T, B = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    if kind == "op":
        return f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(w / 2)}" ry="{_n(h / 2)}"'
    if kind == "input":  # laid out as a box with wide margins (see _dot_body): the skew fits in them
        s = min(0.5 * h, 0.25 * w, 36.0)
        pts = [(L + s, T), (R, T), (R - s, B), (L, B)]
        return '<polygon points="' + " ".join(f"{_n(x)},{_n(y)}" for x, y in pts) + '"'
    if kind == "variable":
        rx, ry = w / 2, max(3.0, 0.1 * h)
        d = (f"M{_n(L)},{_n(T + ry)}A{_n(rx)},{_n(ry)} 0 0 1 {_n(R)},{_n(T + ry)}L{_n(R)},{_n(B - ry)}"
             f"A{_n(rx)},{_n(ry)} 0 0 1 {_n(L)},{_n(B - ry)}ZM{_n(L)},{_n(T + ry)}A{_n(rx)},{_n(ry)} 0 0 0 "
             f"{_n(R)},{_n(T + ry)}")
        return f'<path d="{d}"'
    if kind == "group":  # a box with depth, as Graphviz's box3d
        o = 4.0
        d = (f"M{_n(L)},{_n(T + o)}L{_n(L + o)},{_n(T)}H{_n(R)}V{_n(B - o)}L{_n(R - o)},{_n(B)}H{_n(L)}Z"
             f"M{_n(L)},{_n(T + o)}H{_n(R - o)}V{_n(B)}M{_n(R - o)},{_n(T + o)}L{_n(R)},{_n(T)}")
        return f'<path d="{d}"'
    return f'<rect x="{_n(L)}" y="{_n(T)}" width="{_n(w)}" height="{_n(h)}"'  # constant


def _node_style(item: _Item, status: str, t: Theme) -> tuple[str, str, str]:
    """(shape style attributes, text colour, extra text attributes) of a box in a state."""
    stroke = t.gradient if item.gradient else t.stroke
    if status == "running":
        return (f' fill="{t.running_fill}" stroke="{stroke}" stroke-width="{_n(t.running_penwidth)}"', t.text,
                ' font-weight="bold"')
    if status == "done":
        fill = t.gradient_fill if item.gradient else t.done_fill
        return f' fill="{fill}" stroke="{stroke}" stroke-width="{_n(t.penwidth)}"', t.text, ""
    stroke = t.gradient if item.gradient else t.defined_stroke
    return (f' fill="{t.background}" stroke="{stroke}" stroke-width="{_n(t.penwidth)}" stroke-dasharray="{t.dash}"',
            t.defined_text, "")


def _curve(a: tuple[float, float, float, float], b: tuple[float, float, float, float], rankdir: str,
           head: float) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """A Bezier from box a to box b leaving and arriving along the rank direction (Graphviz coordinates, y up)."""
    (ax, ay, aw, ah), (bx, by, bw, bh) = a, b
    dx, dy = {"TB": (0, -1), "BT": (0, 1), "LR": (1, 0), "RL": (-1, 0)}[rankdir]
    start = (ax + dx * aw / 2, ay + dy * ah / 2)
    end = (bx - dx * bw / 2, by - dy * bh / 2)
    base = (end[0] - dx * head, end[1] - dy * head)
    pull = max(30.0, (abs(base[0] - start[0]) + abs(base[1] - start[1])) / 3)
    c1 = (start[0] + dx * pull, start[1] + dy * pull)
    c2 = (base[0] - dx * pull, base[1] - dy * pull)
    return [start, c1, c2, base], end


def _arrow(end: tuple[float, float], base: tuple[float, float], half: float) -> str:
    dx, dy = end[0] - base[0], end[1] - base[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    nx, ny = -dy / length * half, dx / length * half
    pts = [end, (base[0] + nx, base[1] + ny), (base[0] - nx, base[1] - ny)]
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)


class Layout:
    """A graph laid out once; :meth:`svg` draws any state of it at fixed positions.

    ``reserve``: step states (mappings node id -> NodeState / status) the boxes must have room for, so labels that
    grow later (``▶`` marks, values, gradients) never need a new layout. ``room="value"`` / ``"value+grad"`` also
    reserves room for any scalar value (explorers whose values change with a slider).

    >>> from course_lib.graph import Graph
    >>> g = Graph(); a = g.add("placeholder", name="a", kind="input"); b = g.add("exp", [a])
    >>> lay = Layout(g, reserve=[{0: "done", 1: "running"}])
    >>> lay.svg({0: "done", 1: "hidden"}).count('class="node ')
    1
    """

    def __init__(self, graph: Graph, *, theme: str | Theme | None = None, max_nodes: int = DEFAULT_MAX_NODES,
                 collapse: Any = None, prefix: str | None = None, reserve: Iterable[Any] | None = None,
                 room: str = "", rankdir: str = "TB") -> None:
        if not isinstance(graph, Graph):
            raise TypeError(f"Layout needs a course_lib Graph, got {type(graph).__name__}; use cl.to_graph(obj)")
        if rankdir not in ("TB", "LR", "BT", "RL"):
            raise ValueError("rankdir must be one of TB, LR, BT, RL")
        self.graph = graph
        self.theme = get_theme(theme)
        self.plan = _plan(graph, max(1, int(max_nodes)), collapse)
        self.prefix = prefix or _structure_prefix(graph)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_\-]*", self.prefix):
            raise ValueError(f"prefix {self.prefix!r} must be a plain identifier (letters, digits, _ and -)")
        self.rankdir = rankdir
        self.labels = self._reserve(list(reserve) if reserve is not None else [None], room)
        self.dot = "".join(["digraph ", _q(self.prefix), " {\n",
                            *_dot_body(self.plan, self.theme, self.prefix, self.labels, None, rankdir,
                                       _long_edges(self.plan)), "}\n"])
        self.geometry, self.reasons = _layout(self.dot)
        self._fragments: dict[tuple, str] = {}
        self._parts: dict[tuple, tuple[str, tuple[str, ...]]] = {}
        self._prepared = self.geometry is not None and self._prepare()

    # -------------------------------------------------------------- sizes
    def _reserve(self, states: list[Any], room: str) -> dict[str, tuple[str, ...]]:
        """For each box, the widest label line by line over every state it will be drawn in."""
        widest: dict[str, list[str]] = {}
        for state in states:
            for key, (status, lines) in _item_states(self.plan, state, None, None).items():
                cur = widest.setdefault(key, [])
                if status != "running":  # room for the mark, whatever state comes later
                    lines = (MARKS["running"] + lines[0].removeprefix(MARKS.get(status, "")),) + lines[1:]
                for k, line in enumerate(lines):
                    if k == len(cur):
                        cur.append(line)
                    elif len(line) > len(cur[k]):
                        cur[k] = line
        if room:
            for item in self.plan.items:
                if item.kind in ("group", "constant"):
                    continue
                cur = widest[item.key]
                extra = [VALUE_ROOM] + ([GRAD_ROOM] if "grad" in room else [])
                for k, line in enumerate(extra, start=len(item.title.split("\n"))):
                    if k == len(cur):
                        cur.append(line)
                    elif len(line) >= len(cur[k]):  # ties go to the template: the same DOT whatever the value
                        cur[k] = line
        return {k: tuple(v) for k, v in widest.items()}

    @property
    def ok(self) -> bool:
        """True when a layout engine worked (else :meth:`svg` returns the DOT text and an install hint)."""
        return self.geometry is not None

    @property
    def engine(self) -> str | None:
        return None if self.geometry is None else self.geometry.engine

    @property
    def message(self) -> str:
        """Why there is no picture, in words, with the install hint (empty when there is one)."""
        if self.ok:
            return ""
        return INSTALL_HINT + "\n(" + "; ".join(self.reasons) + ")"

    # -------------------------------------------------------------- geometry, computed once
    def _prepare(self) -> bool:
        geo = self.geometry
        assert geo is not None
        t = self.theme
        llx, lly, urx, ury = geo.bb
        m = 4.0
        self._m = m
        self.width = urx - llx + 2 * m
        self.height = ury - lly + 2 * m

        def X(x: float) -> float:
            return x - llx + m

        def Y(y: float) -> float:
            return ury - y + m

        self._shape: dict[str, tuple[str, str | None, float, float]] = {}
        for item in self.plan.items:
            x, y, w, h = geo.nodes[item.key]
            cx, cy = X(x), Y(y)
            outline = _shape(item.kind, cx, cy, w, h)
            inner = _shape(item.kind, cx, cy, w - 8, h - 8) if item.output else None
            self._shape[item.key] = (outline, inner, cx, cy)
        self._edge_path: dict[tuple[str, str], tuple[str, str]] = {}
        half = 3.6 * t.arrowsize * (1 + 0.25 * (t.penwidth - 1))
        for src, dst, _grad in self.plan.edges:
            pts, end = geo.edges.get((src, dst), ([], None))
            if not pts and src in geo.nodes and dst in geo.nodes:  # a long edge left out of the layout
                pts, end = _curve(geo.nodes[src], geo.nodes[dst], self.rankdir, 10 * t.arrowsize)
            if not pts:
                continue
            p = [(X(x), Y(y)) for x, y in pts]
            d = f"M{_n(p[0][0])},{_n(p[0][1])}C" + " ".join(f"{_n(x)},{_n(y)}" for x, y in p[1:])
            head = _arrow((X(end[0]), Y(end[1])), p[-1], half) if end else ""
            self._edge_path[(src, dst)] = (d, head)
        parts = []
        fs = t.fontsize * 0.85
        self._cluster_boxes: list[tuple[str, tuple[float, float, float, float]]] = []
        for label, (cx0, cy0, cx1, cy1), lp in geo.clusters:
            frag = (f'<rect x="{_n(X(cx0))}" y="{_n(Y(cy1))}" width="{_n(cx1 - cx0)}" height="{_n(cy1 - cy0)}" '
                    f'rx="6" fill="{t.cluster_fill}" stroke="{t.cluster_stroke}" stroke-dasharray="4,3"/>')
            if lp and label:
                frag += (f'<text x="{_n(X(cx0) + 8)}" y="{_n(Y(lp[1]) + 0.35 * fs)}" font-size="{_n(fs)}" '
                         f'fill="{t.cluster_text}" text-anchor="start">{_e(label)}</text>')
            parts.append(frag)
            self._cluster_boxes.append((frag, (X(cx0), Y(cy1), X(cx0) + cx1 - cx0, Y(cy1) + cy1 - cy0)))
        self._clusters = "".join(parts)
        return True

    def _visible_clusters(self, shown: list[str]) -> str:
        """The scope boxes that hold at least one box shown: a scope whose nodes do not exist yet is not drawn
        either (an empty "gradients" frame before the backward pass would be noise)."""
        centers = [self._shape[k][2:4] for k in shown]
        return "".join(frag for frag, (x0, y0, x1, y1) in self._cluster_boxes
                       if any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in centers))

    # -------------------------------------------------------------- drawing one state
    def _node_svg(self, item: _Item, status: str, lines: tuple[str, ...]) -> str:
        key = (item.key, status, lines)
        frag = self._fragments.get(key)
        if frag is not None:
            return frag
        # everything but the label text is cached per (box, state, number of lines): a step that only brings new
        # values formats the numbers and joins strings (the per-step cost the benchmark measures)
        pkey = (item.key, status, len(lines))
        parts = self._parts.get(pkey)
        if parts is None:
            outline, inner, cx, cy = self._shape[item.key]
            style, color, extra = _node_style(item, status, self.theme)
            if item.gradient:
                extra += ' font-style="italic"'
            hollow = style.replace(self._fill_attr(style), ' fill="none"')
            head = (f'<g class="node {status}" data-id="{item.key}"><title>{_e(item.tooltip)}</title>{outline}{style}/>'
                    + (f"{inner}{hollow}/>" if inner else ""))
            size = self.theme.fontsize
            lh = size * 1.2
            starts = tuple(f'<text x="{_n(cx)}" y="{_n(cy - (len(lines) - 1) * lh / 2 + k * lh + 0.35 * size)}" '
                           f'fill="{color}"{extra}>' for k in range(len(lines)))
            parts = self._parts[pkey] = (head, starts)
        head, starts = parts
        frag = head + "".join(f"{a}{_e(t)}</text>" for a, t in zip(starts, lines)) + "</g>"
        if len(self._fragments) > 50_000:  # explorers create new values forever: keep memory bounded
            self._fragments.clear()
        self._fragments[key] = frag
        return frag

    @staticmethod
    def _fill_attr(style: str) -> str:
        return style[: style.index('" ') + 1] if style.startswith(" fill=") else ""

    def _edge_svg(self, src: str, dst: str, grad: bool, s_status: str, d_status: str) -> str:
        key = ("edge", src, dst, s_status == "hidden" or d_status == "hidden", d_status)
        frag = self._fragments.get(key)
        if frag is not None:
            return frag
        path = self._edge_path.get((src, dst))
        if path is None or "hidden" in (s_status, d_status):
            frag = ""
        else:
            t = self.theme
            d, head = path
            if grad:
                color, dash, width = t.gradient, ' stroke-dasharray="1.5,3"', t.penwidth
            elif d_status == "running":
                color, dash, width = t.edge_running, "", t.running_penwidth * 0.7
            elif d_status == "done":
                color, dash, width = t.edge, "", t.penwidth
            else:
                color, dash, width = t.edge_defined, f' stroke-dasharray="{t.dash}"', t.penwidth
            frag = (f'<path d="{d}" fill="none" stroke="{color}" stroke-width="{_n(width)}"{dash}/>'
                    + (f'<polygon points="{head}" fill="{color}" stroke="{color}"/>' if head else ""))
        self._fragments[key] = frag
        return frag

    def svg(self, state: Any = None, values: Mapping[int, Any] | None = None, grads: Mapping[int, Any] | None = None,
            *, legend: bool = False, svg_id: str | None = None, max_width: float | None = None) -> str:
        """The SVG of one state (see :func:`draw` for ``state``/``values``); without an engine, the DOT in words.

        Positions come from the single layout, so two states of one Layout differ only in styles and labels.
        ``max_width`` (pt) caps the declared size (the drawing scales down inside it).
        """
        if not self.ok:
            return _fallback_html(self.dot, self.message)
        t = self.theme
        states = _item_states(self.plan, state, values, grads)
        status_of = {k: s for k, (s, _l) in states.items()}
        # a running box that already has its gradient is a backward step: the gradient arrives from its
        # consumers, so its outgoing edges are highlighted instead of its incoming ones
        back = {k for k, (s, lines) in states.items() if s == "running" and any(x.startswith("grad = ") for x in lines)}
        hidden = [k for k, st in status_of.items() if st == "hidden"]
        body = [self._visible_clusters([k for k, st in status_of.items() if st != "hidden"]) if hidden
                else self._clusters]
        for src, dst, grad in self.plan.edges:
            d_status = status_of[dst]
            if src in back and d_status != "hidden":
                d_status = "running"
            elif dst in back:
                d_status = "done"
            body.append(self._edge_svg(src, dst, grad, status_of[src], d_status))
        for item in self.plan.items:
            status, lines = states[item.key]
            if status != "hidden":
                body.append(self._node_svg(item, status, lines))
        width, height = self.width, self.height
        extra = ""
        if self.plan.note:
            extra += (f'<text x="{_n(self._m)}" y="{_n(height + t.fontsize)}" font-size="{_n(t.fontsize * 0.85)}" '
                      f'text-anchor="start" fill="{t.text}">{_e(self.plan.note)}</text>')
            height += t.fontsize * 1.6
        if legend:
            parts, lw, lh = _legend_parts(t, max(width, 600.0), height)
            extra += parts
            width, height = max(width, lw), height + lh
        return _svg_root(svg_id or self.prefix, width, height, t, "".join(body) + extra, max_width)


def _svg_root(svg_id: str, width: float, height: float, t: Theme, inner: str, max_width: float | None = None) -> str:
    # width in pt like Graphviz (1pt = 1.33px: 14pt text reads well); scales down to the output's width in HTML
    scale = min(1.0, max_width / width) if max_width and width > 0 else 1.0
    return (f'<svg xmlns="http://www.w3.org/2000/svg" id="{_e(svg_id)}" width="{_n(width * scale)}pt" '
            f'height="{_n(height * scale)}pt" viewBox="0 0 {_n(width)} {_n(height)}" style="max-width:100%;height:auto" '
            'role="img">'
            f'<g font-family="{_e(t.font_family)}" font-size="{_n(t.fontsize)}" text-anchor="middle">'
            f"{inner}</g></svg>")


def _fallback_html(dot: str, message: str) -> str:
    return (f'<div class="course-graph-fallback"><p><b>No picture: </b>{_e(message)}</p>'
            f"<pre style=\"max-height:20em;overflow:auto\">{_e(dot)}</pre></div>")


def _structure_prefix(graph: Graph) -> str:
    """A DOT/SVG id prefix from the graph's content: the same graph always gets the same one, others another."""
    h = hashlib.sha1()
    for n in graph.nodes:
        h.update(f"{n.id}|{n.op}|{n.name}|{n.kind}|{n.input_ids}|{n.scope}|{n.gradient};".encode())
    h.update(str([n.id for n in graph.outputs]).encode())
    return "g" + h.hexdigest()[:10]


# ---------------------------------------------------------------------------------------------------- legend
def _legend_parts(t: Theme, max_width: float, top: float) -> tuple[str, float, float]:
    """Legend entries (sample shape + words) in rows that fit ``max_width``; returns (svg, width, height)."""
    fs = t.fontsize * 0.85
    sw, sh = fs * 3.2, fs * 1.8
    probe = _Item("legend", "op", "", (), "", "")
    entries: list[tuple[str, str, str]] = [  # (kind, status or "", words)
        ("input", "defined", "input (placeholder)"), ("constant", "defined", "constant"),
        ("variable", "defined", "variable (parameter)"), ("op", "defined", "operation"),
        ("output", "defined", "output (fetched result)"), ("op", "defined", "defined, not run yet (dashed)"),
        ("op", "running", "▶ running now"), ("op", "done", "✓ done (value shown)"),
        ("gradient", "done", "gradient (backward), dotted edges"),
    ]
    parts, x, y, row_h = [], 8.0, top + 6, sh + 8
    width = 0.0
    for kind, status, words in entries:
        w_words = len(words) * fs * 0.56
        if x + sw + 8 + w_words > max_width and x > 8:
            x, y = 8.0, y + row_h
        cx, cy = x + sw / 2, y + sh / 2
        shape_kind = {"output": "op", "gradient": "op"}.get(kind, kind)
        item = replace(probe, kind=shape_kind, gradient=kind == "gradient", output=kind == "output")
        style, _c, _x = _node_style(item, status, t)
        parts.append(_shape(shape_kind, cx, cy, sw, sh) + style + "/>")
        if kind == "output":
            parts.append(_shape("op", cx, cy, sw - 8, sh - 8) + style.replace(Layout._fill_attr(style), ' fill="none"')
                         + "/>")
        if status in MARKS:
            parts.append(f'<text x="{_n(cx)}" y="{_n(cy + 0.35 * fs)}" font-size="{_n(fs)}" fill="{t.text}">'
                         f"{MARKS[status].strip()}</text>")
        if kind == "gradient":
            parts.append(f'<path d="M{_n(x + sw + 2)},{_n(cy)}h14" stroke="{t.gradient}" '
                         f'stroke-width="{_n(t.penwidth)}" stroke-dasharray="1.5,3"/>')
        parts.append(f'<text x="{_n(x + sw + (20 if kind == "gradient" else 6))}" y="{_n(cy + 0.35 * fs)}" '
                     f'font-size="{_n(fs)}" text-anchor="start" fill="{t.text}">{_e(words)}</text>')
        x += sw + 14 + w_words + (14 if kind == "gradient" else 0) + 10
        width = max(width, x)
    return "".join(parts), width, y + row_h - top + 4


def legend_svg(theme: str | Theme | None = None, width: float | None = None) -> str:
    """The legend alone (widgets show it once, under frames drawn without it).

    >>> "running now" in legend_svg()
    True
    """
    t = get_theme(theme)
    parts, w, h = _legend_parts(t, width or 640.0 * t.fontsize / 14.0, 0.0)  # rows as long as the font is large
    return _svg_root("course-legend-" + t.name, max(w, 10.0), h, t, parts)


# ---------------------------------------------------------------------------------------------------- public API
class CourseDigraph:
    """Placeholder replaced below by a ``graphviz.Digraph`` subclass (graphviz is imported lazily)."""


_DIGRAPH_CLASS: type | None = None


def _digraph_class() -> type:
    """``graphviz.Digraph`` that shows our SVG in Jupyter instead of calling the ``dot`` program."""
    global _DIGRAPH_CLASS, CourseDigraph
    if _DIGRAPH_CLASS is not None:
        return _DIGRAPH_CLASS
    import graphviz

    class _CourseDigraph(graphviz.Digraph):
        """A ``graphviz.Digraph`` (``.source`` is the DOT text) that displays itself in the course's look.

        Displaying never needs the ``dot`` program and never raises: pygraphviz lays it out in-process, else the
        ``dot`` program, else the DOT text is shown with an install hint.
        """

        _course_layout: Layout | None = None
        _course_args: tuple = ()
        _course_source: str = ""

        def svg(self) -> str:
            """The SVG text (or an HTML fallback that explains how to get one)."""
            if self._course_layout is not None and self.source == self._course_source:
                state, values, grads, legend = self._course_args
                # JupyterLab shows image/svg+xml as an <img> at its declared size, cut at the column's edge: a
                # declared width of at most DRAW_MAX_WIDTH makes a wide graph shrink to fit instead
                return self._course_layout.svg(state, values, grads, legend=legend, max_width=DRAW_MAX_WIDTH)
            geo_dot = self.source  # edited after draw(): render the edited DOT as it is
            reasons = []
            try:
                import pygraphviz

                with _quiet_stderr_once():
                    return pygraphviz.AGraph(string=geo_dot).draw(format="svg", prog="dot").decode("utf-8")
            except Exception as exc:  # noqa: BLE001 - missing package or bad DOT: try the dot program
                reasons.append(f"pygraphviz: {type(exc).__name__}")
            try:
                return self.pipe(format="svg", encoding="utf-8")
            except Exception as exc:  # noqa: BLE001 - never a traceback in a student's notebook
                reasons.append(f"dot program: {type(exc).__name__}")
                return _fallback_html(geo_dot, INSTALL_HINT + f"\n({'; '.join(reasons)})")

        def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **_: Any) -> dict[str, str]:
            try:
                out = self.svg()
            except Exception as exc:  # noqa: BLE001 - never a traceback in a student's notebook
                out = _fallback_html(self.source, f"drawing failed ({type(exc).__name__}: {exc})")
            if out.startswith(("<svg", "<?xml")):
                return {"image/svg+xml": out, "text/plain": repr(self)}
            return {"text/html": out, "text/plain": repr(self) + "\n" + INSTALL_HINT}

        def _repr_image_svg_xml(self) -> str:
            return self.svg()

        def __repr__(self) -> str:
            lay = self._course_layout
            if lay is None:
                return "<course graph>"
            n = len(lay.graph.nodes)
            return f"<course graph {lay.graph.name!r}: {n} node{'s' * (n != 1)}, drawn as {len(lay.plan.items)} boxes>"

    _CourseDigraph.__name__ = _CourseDigraph.__qualname__ = "CourseDigraph"
    _DIGRAPH_CLASS = _CourseDigraph
    CourseDigraph = _CourseDigraph  # type: ignore[misc]
    return _CourseDigraph


def _styled_dot(lay: Layout, state: Any, values: Any, grads: Any) -> tuple[list[str], dict[str, Any]]:
    states = _item_states(lay.plan, state, values, grads)
    labels = {k: lines for k, (_s, lines) in states.items()}
    return _dot_body(lay.plan, lay.theme, lay.prefix, labels, states, lay.rankdir), states


def draw(graph: Graph, state: Any = None, values: Mapping[int, Any] | None = None, theme: str | Theme | None = None,
         legend: bool = True, max_nodes: int = DEFAULT_MAX_NODES, collapse: Any = None, prefix: str | None = None,
         grads: Mapping[int, Any] | None = None, rankdir: str = "TB") -> Any:
    """Draw a graph in the course's visual language; returns a ``graphviz.Digraph`` that displays itself.

    ``state``: None (a node with a known value is *done*, else *defined, not run*), one status for every node
    (``"defined"``), or a mapping node id -> NodeState (from a trace) or status. ``values`` / ``grads``: mappings
    node id -> value shown in the label. ``collapse``: None (automatic past ``max_nodes``), False, a size (scopes
    with more boxes become one box), or scope names. ``legend``: add the legend under the graph.

    >>> from course_lib.graph import Graph
    >>> g = Graph(); x = g.add("placeholder", name="x", kind="input"); _ = g.add("exp", [x])
    >>> d = draw(g)
    >>> d.source.startswith("digraph g")
    True
    """
    lay = Layout(graph, theme=theme, max_nodes=max_nodes, collapse=collapse, prefix=prefix,
                 reserve=[state], rankdir=rankdir)
    body, _states = _styled_dot(lay, state, values, grads)
    cls = _digraph_class()
    d = cls(name=lay.prefix, body=body)
    d._course_layout = lay
    d._course_args = (state, values, grads, legend)
    d._course_source = d.source
    return d


def to_dot(graph: Graph, state: Any = None, values: Mapping[int, Any] | None = None, **options: Any) -> str:
    """The DOT text :func:`draw` would display (deterministic: the same graph gives the same text)."""
    return draw(graph, state, values, **options).source


def to_svg(graph: Graph, state: Any = None, values: Mapping[int, Any] | None = None, theme: str | Theme | None = None,
           legend: bool = True, max_nodes: int = DEFAULT_MAX_NODES, collapse: Any = None, prefix: str | None = None,
           grads: Mapping[int, Any] | None = None, rankdir: str = "TB") -> str:
    """The SVG text of :func:`draw` (or, with no layout engine, HTML with the DOT text and an install hint)."""
    lay = Layout(graph, theme=theme, max_nodes=max_nodes, collapse=collapse, prefix=prefix,
                 reserve=[state], rankdir=rankdir)
    return lay.svg(state, values, grads, legend=legend)


@dataclass
class Frames:
    """Every step of a trace drawn at the positions of one layout: ``frames.svg(k)`` after the first k events.

    >>> # frames = Frames(trace); frames.svg(0); frames.svg(len(frames) - 1)
    """

    trace: Any
    theme: str | Theme | None = None
    max_nodes: int = DEFAULT_MAX_NODES
    collapse: Any = None
    prefix: str | None = None
    states: list[Any] = field(init=False)
    layout: Layout = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.trace)
        self.states = [self.trace.state(k) for k in range(n + 1)]
        self.layout = Layout(self.trace.graph, theme=self.theme, max_nodes=self.max_nodes, collapse=self.collapse,
                             prefix=self.prefix, reserve=self.states)

    def __len__(self) -> int:
        return len(self.states)

    def svg(self, step: int) -> str:
        step = min(max(int(step), 0), len(self.states) - 1)
        return self.layout.svg(self.states[step], svg_id=f"{self.layout.prefix}-s{step}")


# exported for tests/benchmarks that want the numbers behind the picture
def node_boxes(svg: str) -> dict[str, str]:
    """data-id -> the outline element of each drawn box (positions), to check that a step moved nothing."""
    out = {}
    for m in re.finditer(r'<g class="node [a-z]+" data-id="([^"]+)"><title>.*?</title>(<[a-z]+ [^>]*?)(?: fill=)', svg):
        out[m.group(1)] = m.group(2)
    return out



class Figure:
    """A drawing as inline HTML (``.svg``, ``.graph``), so a wide graph shrinks to the width of the page.

    ``cl.draw`` returns a ``graphviz.Digraph`` whose ``image/svg+xml`` output JupyterLab shows at its natural size;
    this hands the same SVG to the notebook as HTML, where the SVG's own ``max-width:100%`` applies. Its text repr
    is one short line (nbval compares it). Made by :func:`course_lib.show`.
    """

    def __init__(self, graph: Graph, **options: Any) -> None:
        self.graph = graph
        options.setdefault("legend", False)
        self.svg = to_svg(graph, **options)

    def _repr_html_(self) -> str:
        return f'<div class="course-figure" style="max-width:100%">{self.svg}</div>'

    def __repr__(self) -> str:
        n = len(self.graph.nodes)
        return f"<figure {self.graph.name!r}: {n} node{'s' * (n != 1)}>"
