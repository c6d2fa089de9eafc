"""The look: themes, and the one table of styles that both the DOT writer and the SVG writer read.

A theme holds fonts, line widths and the Okabe–Ito colours. The style tables say, for each state of a box or an
edge, *which* of the theme's values it uses: both writers read them (:func:`node_style`, :func:`edge_style`), so
the DOT text of ``cl.draw`` and the SVG the course draws cannot drift apart. Every state is also readable without
colour: defined boxes are dashed, running ones bold with a ``▶`` mark, done ones filled with a ``✓``; gradient
boxes are italic with dotted edges.

>>> node_style("running", False, get_theme("classroom")).penwidth
3.2
>>> edge_style("defined", False, get_theme("classroom")).dash
'5,3'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import N_, say

__all__ = [
    "EDGE_STYLES",
    "MARKS",
    "NODE_STYLES",
    "SHAPES",
    "THEMES",
    "UNKNOWN_THEME",
    "EdgeStyle",
    "NodeStyle",
    "Theme",
    "edge_style",
    "get_theme",
    "node_style",
    "plot_style",
    "set_theme",
]


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
    edge_defined: str = "#8A8A8A"  # an edge shows what feeds what: 3:1 on the page and in a scope (WCAG 1.4.11)
    edge_running: str = "#B87700"  # a darker orange: thin lines need more contrast than fills
    cluster_fill: str = "#F5F5F5"
    cluster_stroke: str = "#8A8A8A"  # a scope's edge tells which boxes it holds: 3:1 as well
    cluster_text: str = "#444444"
    background: str = "#FFFFFF"
    #: a stepper's step 0 shows where the graph will appear: outlines and edges faded to this opacity, the names in
    #: ghost_text, a grey still 5.3:1 on the page (WCAG 1.4.3: the names are content, not decoration)
    ghost_opacity: float = 0.3
    ghost_text: str = "#6B6B6B"
    nodesep: float = 0.25
    ranksep: float = 0.35
    #: one line per box ("✓ mul = 6", the gradient a second line only once it exists), operations in a stadium
    #: and tight margins: what a projector needs (a label twice the pixels of a laptop's in the same room), and a
    #: laptop too (03's chain of 9 rounds: 942 pt tall stacked, 559 pt compact). False: the stacked labels
    #: ("✓ mul" / "= 6" in an ellipse) the course drew before issue 26
    compact: bool = True
    #: two-graph widgets draw define-then-run's gradient nodes as one box until asked (or until the backward pass):
    #: on a projector two full graphs side by side leave labels too small to read
    fold_gradients: bool = False


THEMES: dict[str, Theme] = {
    "classroom": Theme(),
    # projector: bigger text, thicker lines, black strokes, saturated fills (black text on them keeps > 7:1)
    "presenter": Theme(
        name="presenter", fontsize=20.0, penwidth=2.6, running_penwidth=5.5, arrowsize=1.2, text="#000000",
        stroke="#000000", defined_stroke="#222222", defined_text="#000000", dash="9,5", running_fill="#E69F00",
        done_fill="#56B4E9", gradient="#D55E00", gradient_fill="#F0A878", edge="#000000", edge_defined="#555555",
        edge_running="#A86A00", cluster_fill="#EEEEEE", cluster_stroke="#555555", cluster_text="#000000",
        nodesep=0.12, ranksep=0.18,  # tight: a projector has few pixels to spare in height
        fold_gradients=True,
    ),
}
_theme: Theme = THEMES["classroom"]
UNKNOWN_THEME = N_("unknown theme {theme!r}; choose one of {themes}")


def set_theme(theme: str | Theme = "classroom") -> None:
    """Switch every later drawing to a theme: ``set_theme("presenter")`` for a projector, ``"classroom"`` back.
    Returns nothing, so a cell that ends with it shows nothing; :func:`get_theme` reads the theme in force.

    >>> set_theme("presenter"); big = get_theme().fontsize
    >>> set_theme("classroom"); big > get_theme().fontsize
    True
    """
    global _theme
    _theme = get_theme(theme)


def plot_style(theme: str | Theme | None = None) -> dict[str, Any]:
    """matplotlib settings for a plot in a theme, for ``plt.rc_context``: its words scale with the graph labels,
    so the presenter theme enlarges a plot's title, axes, ticks and legend too, and thickens its lines.

    Text inside a plot is given in sizes relative to these (``fontsize="small"``), never in points.

    >>> plot_style("presenter")["font.size"] > plot_style("classroom")["font.size"]
    True
    """
    t = get_theme(theme)
    base = round(0.75 * t.fontsize, 1)  # 10.5 pt beside 14 pt labels (matplotlib's own default is 10)
    return {"font.size": base, "axes.titlesize": "large", "axes.labelsize": "medium", "xtick.labelsize": "medium",
            "ytick.labelsize": "medium", "legend.fontsize": "medium", "lines.linewidth": round(1.5 * t.penwidth, 1),
            "lines.markersize": round(0.45 * t.fontsize, 1)}


def get_theme(theme: str | Theme | None = None) -> Theme:
    """The theme named (or given), or the current default."""
    if theme is None:
        return _theme
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[str(theme)]
    except KeyError:
        raise ValueError(say(UNKNOWN_THEME, theme=theme, themes=", ".join(THEMES))) from None


# ---------------------------------------------------------------------------------------------------- the table
#: Box shapes by kind: input = parallelogram, constant = box, variable = cylinder, op = ellipse (drawn as a stadium,
#: a box with round ends, in a compact theme: an ellipse needs about 1.4 times its text's width and height),
#: a collapsed scope = 3-D box; an output gets a double border.
SHAPES = {"input": "parallelogram", "constant": "box", "variable": "cylinder", "op": "ellipse", "group": "box3d"}
#: The mark in front of a box's title, so a state reads without colour.
MARKS = {"running": "▶ ", "done": "✓ "}

#: status -> (plain box, gradient box); each a row of Theme attribute names:
#: (fill, stroke, penwidth, dash or None, text colour, bold)
NODE_STYLES: dict[str, tuple[tuple[str, str, str, str | None, str, bool], ...]] = {
    "running": (("running_fill", "stroke", "running_penwidth", None, "text", True),
                ("running_fill", "gradient", "running_penwidth", None, "text", True)),
    "done": (("done_fill", "stroke", "penwidth", None, "text", False),
             ("gradient_fill", "gradient", "penwidth", None, "text", False)),
    "defined": (("background", "defined_stroke", "penwidth", "dash", "defined_text", False),
                ("background", "gradient", "penwidth", "dash", "defined_text", False)),
}
#: status of the edge's head -> (colour, dash, penwidth, width factor); gradient edges use the "gradient" row.
#: The dash is a Theme attribute name or a literal dash pattern; "1.5,3" is a dotted line.
EDGE_STYLES: dict[str, tuple[str, str | None, str, float]] = {
    "running": ("edge_running", None, "running_penwidth", 0.7),
    "done": ("edge", None, "penwidth", 1.0),
    "defined": ("edge_defined", "dash", "penwidth", 1.0),
    "gradient": ("gradient", "1.5,3", "penwidth", 1.0),
}


@dataclass(frozen=True)
class NodeStyle:
    """How a box is drawn in one state: resolved from :data:`NODE_STYLES` and a theme."""

    fill: str
    stroke: str
    penwidth: float
    dash: str | None  # None: a solid outline
    text: str
    bold: bool
    italic: bool  # gradient boxes
    hidden: bool = False


@dataclass(frozen=True)
class EdgeStyle:
    """How an edge is drawn: resolved from :data:`EDGE_STYLES` and a theme (``dash`` None: solid)."""

    color: str
    dash: str | None
    penwidth: float
    dotted: bool
    hidden: bool = False


_HIDDEN_NODE = NodeStyle("none", "none", 0.0, None, "none", False, False, hidden=True)
_HIDDEN_EDGE = EdgeStyle("none", None, 0.0, False, hidden=True)


def node_style(status: str, gradient: bool, t: Theme) -> NodeStyle:
    """The style of a box in ``status`` ("hidden", "defined", "running" or "done")."""
    if status == "hidden":
        return _HIDDEN_NODE
    fill, stroke, width, dash, text, bold = NODE_STYLES.get(status, NODE_STYLES["defined"])[int(gradient)]
    return NodeStyle(getattr(t, fill), getattr(t, stroke), getattr(t, width), dash and getattr(t, dash),
                     getattr(t, text), bold, gradient)


def edge_style(head: str, gradient: bool, t: Theme, tail: str = "done") -> EdgeStyle:
    """The style of an edge whose head (the box it points to) is in state ``head``; hidden if either end is."""
    if "hidden" in (head, tail):
        return _HIDDEN_EDGE
    color, dash, width, factor = EDGE_STYLES["gradient" if gradient else head if head in EDGE_STYLES else "defined"]
    pattern = getattr(t, dash, dash) if dash else None
    return EdgeStyle(getattr(t, color), pattern, getattr(t, width) * factor, gradient)
