"""What a notebook gets: :func:`draw` (a ``graphviz.Digraph``), :func:`to_dot`, :func:`to_svg`, :class:`Frames`
(every step of a trace, for the steppers) and :class:`Figure` (``cl.show``: an HTML figure scaled to the page)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..graph import Graph
from ..i18n import N_, Plural, number, say
from ..i18n import gettext as _
from ..trace import style_name
from . import dot
from .layout import Layout
from .plan import DEFAULT_MAX_NODES, item_states
from .theme import Theme

__all__ = ["COURSE_GRAPH", "FIGURE", "FIGURE_STYLE", "Figure", "Frames", "describe", "draw", "laid_out", "node_boxes",
           "to_dot", "to_svg"]

#: rankdir in words, for the text summaries of drawings (translated when a summary is made)
DIRECTIONS = {"TB": N_("top to bottom"), "BT": N_("bottom to top"), "LR": N_("left to right"),
              "RL": N_("right to left")}
#: what a summary calls the drawing (``describe``'s ``kind``)
COURSE_GRAPH, FIGURE = N_("course graph"), N_("figure")


def draw(graph: Graph, state: Any = None, values: Mapping[int, Any] | None = None, theme: str | Theme | None = None,
         legend: bool = True, max_nodes: int = DEFAULT_MAX_NODES, collapse: Any = None, prefix: str | None = None,
         grads: Mapping[int, Any] | None = None, rankdir: str = "TB",
         grad_nodes: Mapping[int, int] | None = None) -> Any:
    """Draw a graph in the course's visual language; returns a ``graphviz.Digraph`` that displays itself.

    ``state``: None (a node with a known value is *done*, else *defined, not run*), one status for every node
    (``"defined"``), or a mapping node id -> NodeState (from a trace) or status. ``values`` / ``grads``: mappings
    node id -> value shown in the label. ``collapse``: None (automatic past ``max_nodes``), False, a size (scopes
    with more boxes become one box), or scope names. ``legend``: add the legend under the graph. ``grad_nodes``:
    input node id -> its gradient node (a trace's ``grad_nodes``), titled ``∂/∂x = …``.

    >>> from course_lib.graph import Graph
    >>> g = Graph(); x = g.add("placeholder", name="x", kind="input"); _ = g.add("exp", [x])
    >>> d = draw(g)
    >>> d.source.startswith("digraph g")
    True
    """
    from .digraph import CourseDigraph  # imports graphviz: only when something is drawn

    lay = Layout(graph, theme=theme, max_nodes=max_nodes, collapse=collapse, prefix=prefix,
                 reserve=[state], rankdir=rankdir, grad_nodes=grad_nodes)
    states = item_states(lay.plan, state, values, grads, lay.theme.compact)
    labels = {k: lines for k, (_s, lines) in states.items()}
    d = CourseDigraph(name=lay.prefix, body=dot.body(lay.plan, lay.theme, lay.prefix, labels, states, lay.rankdir))
    d._course_layout = lay
    d._course_args = (state, values, grads, legend)
    d._course_source = d.source
    return d


def describe(kind: str, lay: Layout, width: str, shown: bool) -> str:
    """The one-line text of a drawing: what nbval compares (the picture's coordinates vary with the machine's fonts,
    so the summary holds what does not) and what an untrusted notebook shows in place of the picture.

    ``kind``: :data:`COURSE_GRAPH` or :data:`FIGURE` (an English message, translated here); ``width``: how wide it
    is declared, in words that are the same on every machine (already translated); ``shown``: a picture was made
    (else the DOT text is shown with an install hint).

    >>> from course_lib.graph import Graph
    >>> g = Graph("demo"); x = g.add("placeholder", name="x", kind="input"); _ = g.add("exp", [x])
    >>> describe(COURSE_GRAPH, Layout(g), "at most 680 pt wide", True)
    "<course graph 'demo': 2 nodes, 2 boxes, top to bottom, at most 680 pt wide, 14 pt text;
     run the cell to see the graph>"
    """
    n, boxes = len(lay.graph.nodes), len(lay.plan.items)
    parts = [say(Plural("{n} node", "{n} nodes"), n=n), say(Plural("{n} box", "{n} boxes"), n=boxes),
             _(DIRECTIONS[lay.rankdir])]
    parts += [width] if shown else []
    parts.append(_("{size} pt text").format(size=number(lay.theme.fontsize)))
    end = _("run the cell to see the graph") if shown else _("no layout engine, shown as DOT text")
    return _("<{kind} {name}: {parts}; {end}>").format(kind=_(kind), name=repr(lay.graph.name), parts=", ".join(parts),
                                                        end=end)


def to_dot(graph: Graph, state: Any = None, values: Mapping[int, Any] | None = None, **options: Any) -> str:
    """The DOT text :func:`draw` would display (deterministic: the same graph gives the same text)."""
    return draw(graph, state, values, **options).source


def to_svg(graph: Graph, state: Any = None, values: Mapping[int, Any] | None = None, theme: str | Theme | None = None,
           legend: bool = True, max_nodes: int = DEFAULT_MAX_NODES, collapse: Any = None, prefix: str | None = None,
           grads: Mapping[int, Any] | None = None, rankdir: str = "TB",
           grad_nodes: Mapping[int, int] | None = None, max_height: str | None = None) -> str:
    """The SVG text of :func:`draw` (or, with no layout engine, HTML with the DOT text and an install hint);
    ``max_height`` (CSS) scales it down to a height, e.g. what a widget leaves of the screen."""
    return laid_out(graph, state, values, theme, legend, max_nodes, collapse, prefix, grads, rankdir, grad_nodes,
                    max_height)[0]


def laid_out(graph: Graph, state: Any = None, values: Mapping[int, Any] | None = None,
             theme: str | Theme | None = None, legend: bool = True, max_nodes: int = DEFAULT_MAX_NODES,
             collapse: Any = None, prefix: str | None = None, grads: Mapping[int, Any] | None = None,
             rankdir: str = "TB", grad_nodes: Mapping[int, int] | None = None,
             max_height: str | None = None) -> tuple[str, Layout]:
    """:func:`to_svg` and the :class:`Layout` it drew (a :class:`Figure` describes itself from it)."""
    lay = Layout(graph, theme=theme, max_nodes=max_nodes, collapse=collapse, prefix=prefix,
                 reserve=[state], rankdir=rankdir, grad_nodes=grad_nodes)
    return lay.svg(state, values, grads, legend=legend, max_height=max_height), lay


@dataclass
class Frames:
    """Every step of a trace (a :class:`course_lib.trace.Trace`) drawn at the positions of one layout:
    ``frames.svg(k)`` after the first k events.

    Building it is linear in the trace's length: the layout reserves room for each node's own states
    (``Trace.distinct_states``), not for every step's state of every node, and a step's state is computed when its
    frame is drawn.

    >>> from course_lib import programs, trace
    >>> frames = Frames(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}))
    >>> len(frames), frames.svg(0).count('class="node '), frames.svg(len(frames) - 1).count('class="node ')
    (12, 0, 6)
    """

    trace: Any
    theme: str | Theme | None = None
    max_nodes: int = DEFAULT_MAX_NODES
    collapse: Any = None
    prefix: str | None = None
    max_height: str | None = None  # CSS: every frame scales down to this height (see svg_root)
    layout: Layout = field(init=False)

    def __post_init__(self) -> None:
        self.layout = Layout(self.trace.graph, theme=self.theme, max_nodes=self.max_nodes, collapse=self.collapse,
                             prefix=self.prefix, reserve=self.trace.distinct_states(),
                             grad_nodes=getattr(self.trace, "grad_nodes", None))

    def __len__(self) -> int:
        return len(self.trace) + 1

    def svg(self, step: int) -> str:
        step = min(max(int(step), 0), len(self.trace))
        return self.layout.svg(self.trace.state(step), svg_id=f"{self.layout.prefix}-s{step}",
                               max_height=self.max_height, title=style_name(self.trace.style),
                               step=(step, len(self.trace)))


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
        self.svg, self.layout = laid_out(graph, **options)

    def _repr_html_(self) -> str:
        return f'<div class="course-figure" style="{FIGURE_STYLE}">{self.svg}</div>'

    def __repr__(self) -> str:
        # the width the page gives it, read from the HTML it is shown in (the same words on every machine)
        scaled = f'style="{FIGURE_STYLE}"' in self._repr_html_()
        width = _("scaled to the page width") if scaled else _("at natural size")
        return describe(FIGURE, self.layout, width, self.layout.ok)


#: the HTML style of a :class:`Figure`: a wide graph shrinks to the width of the page
FIGURE_STYLE = "max-width:100%"
