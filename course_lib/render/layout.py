"""A graph laid out once, drawn in any state: the object every picture of the course comes from.

:class:`Layout` plans the boxes (:mod:`.plan`), writes the unstyled DOT (:mod:`.dot`), gets positions once
(:mod:`.engines`), then :meth:`Layout.svg` draws a state at those positions (:mod:`.svg`): a step changes the
styles and labels of boxes that already have their place, and nodes that do not exist yet are laid out but not
drawn, so nothing jumps.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ..graph import Graph
from ..i18n import N_, say
from ..i18n import gettext as _
from . import dot, engines
from .plan import DEFAULT_MAX_NODES, Item, item_states, long_edges, plan
from .speech import spoken
from .svg import INSTALL_HINT, arrow, curve, e, fallback_html, legend_parts, n, node_svg_style, shape, svg_root
from .theme import MARKS, Theme, edge_style, get_theme, node_style
from .words import wrap

__all__ = ["BAD_COUNTS", "BAD_MAX_NODES", "BAD_PREFIX", "BAD_RANKDIR", "GRAD_ROOM", "NOT_A_GRAPH", "VALUE_ROOM",
           "Layout"]

NOT_A_GRAPH = N_("Layout needs a course_lib Graph, got {type}; use cl.to_graph(obj)")
BAD_RANKDIR = N_("rankdir must be one of TB, LR, BT, RL")
BAD_MAX_NODES = N_("max_nodes must be a whole number of boxes, like max_nodes=300; got {value!r}")
BAD_COUNTS = N_("counts must be 'beside' (a collapsed scope's count after its name) or 'under'; got {value!r}")
BAD_PREFIX = N_("prefix {prefix!r} must be a plain identifier (letters, digits, _ and -)")

# room kept for a value line when values change under a slider: most 4-digit values fit ("-0.7539", "4.54e-05");
# a wider one (-1.235e+10) gets a new layout, which is correct, just not motionless
VALUE_ROOM = "= -0.00000"
GRAD_ROOM = "grad = -0.00000"
MARGIN = 4.0  # pt around the drawing
NOTE_CHAR = 0.6  # a character of the note's sans-serif text is at most about this many font sizes wide, on average


def structure_prefix(graph: Graph) -> str:
    """A DOT/SVG id prefix from the graph's content: the same graph always gets the same one, others another."""
    h = hashlib.sha1()
    for node in graph.nodes:
        h.update(f"{node.id}|{node.op}|{node.name}|{node.kind}|{node.input_ids}|{node.scope}|{node.gradient};".encode())
    h.update(str([o.id for o in graph.outputs]).encode())
    return "g" + h.hexdigest()[:10]


class Layout:
    """A graph laid out once; :meth:`svg` draws any state of it at fixed positions.

    ``reserve``: step states (mappings node id -> NodeState / status) the boxes must have room for, so labels that
    grow later (``▶`` marks, values, gradients) never need a new layout. ``room="value"`` / ``"value+grad"`` also
    reserves room for any scalar value (explorers whose values change with a slider). ``grad_nodes``: input node
    id -> the node of its gradient (a trace's ``grad_nodes``), titled ``∂/∂x = …``. ``counts="under"``: a
    collapsed scope's count on a line under its name (see :func:`.plan.plan`).

    >>> from course_lib.graph import Graph
    >>> g = Graph(); a = g.add("placeholder", name="a", kind="input"); b = g.add("exp", [a])
    >>> lay = Layout(g, reserve=[{0: "done", 1: "running"}])
    >>> lay.svg({0: "done", 1: "hidden"}).count('class="node ')
    1
    """

    def __init__(self, graph: Graph, *, theme: str | Theme | None = None, max_nodes: int = DEFAULT_MAX_NODES,
                 collapse: Any = None, prefix: str | None = None, reserve: Iterable[Any] | None = None,
                 room: str = "", rankdir: str = "TB", grad_nodes: Mapping[int, int] | None = None,
                 counts: str = "beside") -> None:
        if not isinstance(graph, Graph):
            raise TypeError(say(NOT_A_GRAPH, type=type(graph).__name__))
        if rankdir not in ("TB", "LR", "BT", "RL"):
            raise ValueError(say(BAD_RANKDIR))
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, (int, np.integer)):
            raise TypeError(say(BAD_MAX_NODES, value=max_nodes))
        if counts not in ("beside", "under"):
            raise ValueError(say(BAD_COUNTS, value=counts))
        self.graph = graph
        self.theme = get_theme(theme)
        self.plan = plan(graph, max(1, int(max_nodes)), collapse, grad_nodes, counts == "under")
        self.prefix = prefix or structure_prefix(graph)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_\-]*", self.prefix):
            raise ValueError(say(BAD_PREFIX, prefix=self.prefix))
        self.rankdir = rankdir
        self.labels = self._reserve(list(reserve) if reserve is not None else [None], room, marks=reserve is None)
        self.dot = "".join(["digraph ", dot.q(self.prefix), " {\n",
                            *dot.body(self.plan, self.theme, self.prefix, self.labels, None, rankdir,
                                      long_edges(self.plan)), "}\n"])
        self.geometry, self.reasons = engines.layout(self.dot)
        self._fragments: dict[tuple, str] = {}
        self._parts: dict[tuple, tuple[str, tuple[str, ...]]] = {}
        if self.geometry is not None:
            self._place()

    # -------------------------------------------------------------- sizes
    def _reserve(self, states: list[Any], room: str, marks: bool) -> dict[str, tuple[str, ...]]:
        """For each box, the widest label line by line over every state it will be drawn in; ``marks``: room for
        the running mark too, whatever the states (a layout told no states may be drawn in any). A picture drawn
        in the states it was given (``to_svg``, a stepper's frames, which hold their running states) saves that
        room: 25 pt per box, 07's batch of trees 832 -> 755 pt wide."""
        widest: dict[str, list[str]] = {}

        def widen(cur: list[str], k: int, line: str, ties: bool = False) -> None:
            if k == len(cur):
                cur.append(line)
            elif len(line) > len(cur[k]) or ties and len(line) == len(cur[k]):
                cur[k] = line

        for state in states:
            for key, (status, lines) in item_states(self.plan, state, None, None, self.theme.compact).items():
                cur = widest.setdefault(key, [])
                if marks and status != "running":  # room for the mark, whatever state comes later
                    lines = (MARKS["running"] + lines[0].removeprefix(MARKS.get(status, "")),) + lines[1:]
                for k, line in enumerate(lines):
                    widen(cur, k, line)
        if room:
            extra = [VALUE_ROOM] + ([GRAD_ROOM] if "grad" in room else [])
            for item in self.plan.items:
                if item.kind not in ("group", "constant"):
                    if self.theme.compact:  # the value on the title's line, the gradient under it
                        extra = [MARKS["running"] + item.title + " " + VALUE_ROOM, *extra[1:]]
                    for k, line in enumerate(extra, start=0 if self.theme.compact else len(item.title.split("\n"))):
                        widen(widest[item.key], k, line, ties=True)  # ties: the same DOT whatever the value
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
        refused = [r for r in self.reasons if not engines.missing(r)]
        if refused:  # an engine ran and refused this graph: installing one would not help
            return _("Graphviz could not lay this graph out, so here is the graph as DOT text ({reasons}). Names "
                     "with unusual characters or thousands of boxes can cause this: try collapse= or a smaller "
                     "max_nodes=.").format(reasons="; ".join(refused))
        return INSTALL_HINT + "\n(" + "; ".join(self.reasons) + ")"

    # -------------------------------------------------------------- geometry, computed once
    def _xy(self, x: float, y: float) -> tuple[float, float]:
        """Graphviz points (y up, origin at the bounding box) -> SVG coordinates (y down, with a margin)."""
        llx, _lly, _urx, ury = self.geometry.bb  # type: ignore[union-attr]
        return x - llx + MARGIN, ury - y + MARGIN

    def _place(self) -> None:
        geo = self.geometry
        assert geo is not None
        llx, lly, urx, ury = geo.bb
        self.width, self.height = urx - llx + 2 * MARGIN, ury - lly + 2 * MARGIN
        self._shape: dict[str, tuple[str, str | None, float, float]] = {}
        for item in self.plan.items:
            x, y, w, h = geo.nodes[item.key]
            cx, cy = self._xy(x, y)
            inner = shape(item.kind, cx, cy, w - 8, h - 8, self.theme.compact) if item.output else None
            self._shape[item.key] = (shape(item.kind, cx, cy, w, h, self.theme.compact), inner, cx, cy)
        self._edge_path = {edge: path for edge in self.plan.edges if (path := self._edge(*edge[:2]))}
        self._cluster_boxes = [self._cluster(*c) for c in geo.clusters]
        self._clusters = "".join(frag for frag, _box in self._cluster_boxes)

    def _edge(self, src: str, dst: str) -> tuple[str, str] | None:
        """The path and arrow head of an edge, or None if the layout has no room for it."""
        geo, t = self.geometry, self.theme
        assert geo is not None
        pts, end = geo.edges.get((src, dst), ([], None))
        if not pts and src in geo.nodes and dst in geo.nodes:  # a long edge left out of the layout
            pts, end = curve(geo.nodes[src], geo.nodes[dst], self.rankdir, 10 * t.arrowsize)
        if not pts:
            return None
        p = [self._xy(x, y) for x, y in pts]
        d = f"M{n(p[0][0])},{n(p[0][1])}C" + " ".join(f"{n(x)},{n(y)}" for x, y in p[1:])
        half = 3.6 * t.arrowsize * (1 + 0.25 * (t.penwidth - 1))
        return d, arrow(self._xy(*end), p[-1], half) if end else ""

    def _cluster(self, label: str, bb: tuple[float, float, float, float], lp: tuple[float, float] | None
                 ) -> tuple[str, tuple[float, float, float, float]]:
        """A scope's box and label, and its extent (to hide it while none of its boxes exists)."""
        t = self.theme
        cx0, cy0, cx1, cy1 = bb
        x0, y0 = self._xy(cx0, cy1)
        fs = t.fontsize * 0.85
        frag = (f'<rect x="{n(x0)}" y="{n(y0)}" width="{n(cx1 - cx0)}" height="{n(cy1 - cy0)}" '
                f'rx="6" fill="{t.cluster_fill}" stroke="{t.cluster_stroke}" stroke-dasharray="4,3"/>')
        if lp and label:
            frag += (f'<text x="{n(x0 + 8)}" y="{n(self._xy(0, lp[1])[1] + 0.35 * fs)}" font-size="{n(fs)}" '
                     f'fill="{t.cluster_text}" text-anchor="start">{e(label)}</text>')
        return frag, (x0, y0, x0 + cx1 - cx0, y0 + cy1 - cy0)

    def _visible_clusters(self, shown: list[str]) -> str:
        """The scope boxes that hold at least one box shown: a scope whose nodes do not exist yet is not drawn
        either (an empty "gradients" frame before the backward pass would be noise)."""
        centers = [self._shape[k][2:4] for k in shown]
        return "".join(frag for frag, (x0, y0, x1, y1) in self._cluster_boxes
                       if any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in centers))

    # -------------------------------------------------------------- drawing one state
    def _node_svg(self, item: Item, status: str, lines: tuple[str, ...]) -> str:
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
            style, hollow, text = node_svg_style(node_style(status, item.gradient, self.theme))
            head = (f'<g class="node {status}" data-id="{item.key}"><title>{e(item.tooltip)}</title>{outline}{style}/>'
                    + (f"{inner}{hollow}/>" if inner else ""))
            size = self.theme.fontsize
            lh = size * 1.2
            starts = tuple(f'<text x="{n(cx)}" y="{n(cy - (len(lines) - 1) * lh / 2 + k * lh + 0.35 * size)}"'
                           f'{text}>' for k in range(len(lines)))
            parts = self._parts[pkey] = (head, starts)
        head, starts = parts
        frag = head + "".join(f"{a}{e(t)}</text>" for a, t in zip(starts, lines, strict=True)) + "</g>"
        if len(self._fragments) > 50_000:  # explorers create new values forever: keep memory bounded
            self._fragments.clear()
        self._fragments[key] = frag
        return frag

    def _edge_svg(self, src: str, dst: str, grad: bool, s_status: str, d_status: str) -> str:
        key = ("edge", src, dst, s_status == "hidden" or d_status == "hidden", d_status)
        frag = self._fragments.get(key)
        if frag is None:
            path = self._edge_path.get((src, dst, grad))
            s = edge_style(d_status, grad, self.theme, s_status)
            if path is None or s.hidden:
                frag = ""
            else:
                d, head = path
                dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
                frag = (f'<path d="{d}" fill="none" stroke="{s.color}" stroke-width="{n(s.penwidth)}"{dash}/>'
                        + (f'<polygon points="{head}" fill="{s.color}" stroke="{s.color}"/>' if head else ""))
            self._fragments[key] = frag
        return frag

    def svg(self, state: Any = None, values: Mapping[int, Any] | None = None, grads: Mapping[int, Any] | None = None,
            *, legend: bool = False, svg_id: str | None = None, max_width: float | None = None,
            max_height: str | None = None, title: str | None = None, step: tuple[int, int] | None = None) -> str:
        """The SVG of one state (see :func:`draw` for ``state``/``values``); without an engine, the DOT in words.

        Positions come from the single layout, so two states of one Layout differ only in styles and labels.
        ``max_width`` (pt) caps the declared size (the drawing scales down inside it); ``max_height`` (CSS) scales
        it down to a height, e.g. what is left of the screen under a widget's controls. ``title`` (default: the
        graph's name) and ``step`` ((k, n): step k of n) go into what a screen reader says of it (:mod:`.speech`).
        """
        if not self.ok:
            return fallback_html(self.dot, self.message)
        t = self.theme
        states = item_states(self.plan, state, values, grads, t.compact)
        body = self._body(states)
        width, height = self.width, self.height
        if self.plan.note:
            note, height = self._note_svg(width, height)
            body += note
        if legend:
            parts, lw, lh = legend_parts(t, max(width, 600.0), height)
            body += parts
            width, height = max(width, lw), height + lh
        name, description = spoken(self.plan, states, title=self.graph.name if title is None else title, step=step)
        return svg_root(svg_id or self.prefix, width, height, t, body, max_width, max_height, name, description)

    def _note_svg(self, width: float, height: float) -> tuple[str, float]:
        """The plan's note under the drawing, wrapped at spaces to the drawing's width (an SVG text line is not
        wrapped by the browser: a long one was cut at the picture's edge, mid-word); returns (svg, new height)."""
        t = self.theme
        fs = t.fontsize * 0.85
        lines = wrap(self.plan.note, (width - 2 * MARGIN) / (fs * NOTE_CHAR))
        out = []
        for k, line in enumerate(lines):
            out.append(f'<text x="{n(MARGIN)}" y="{n(height + t.fontsize + k * fs * 1.25)}" font-size="{n(fs)}" '
                       f'text-anchor="start" fill="{t.text}">{e(line)}</text>')
        # the whole note once more as the group's title: a screen reader (and a tooltip) reads it unbroken
        return (f'<g class="note"><title>{e(self.plan.note)}</title>{"".join(out)}</g>',
                height + t.fontsize * 1.6 + (len(lines) - 1) * fs * 1.25)

    def _body(self, states: Mapping[str, tuple[str, tuple[str, ...]]]) -> str:
        """Scope boxes, edges, then boxes, for one state."""
        status_of = {k: s for k, (s, _l) in states.items()}
        # a running box that already has its gradient is a backward step: the gradient arrives from its
        # consumers, so its outgoing edges are highlighted instead of its incoming ones
        back = {k for k, (s, lines) in states.items() if s == "running" and any(x.startswith("grad = ") for x in lines)}
        shown = [k for k, st in status_of.items() if st != "hidden"]
        body = [self._visible_clusters(shown) if len(shown) < len(status_of) else self._clusters]
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
        return "".join(body)
