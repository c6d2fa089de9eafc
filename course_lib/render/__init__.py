"""One renderer for every graph of the course: Graph (+ a step's state) -> DOT -> layout (once) -> SVG.

The path, one module per stage:

1. :mod:`.plan` — what is drawn: one box per node, except that big name scopes may be *collapsed* into one box
   with a count, and a graph beyond ``max_nodes`` boxes is *capped* with a note (layout time grows fast).
2. :mod:`.dot` — deterministic DOT text (node names from ``node.id``, ordered containers only), clusters per
   name scope. :func:`draw` returns it as a ``graphviz.Digraph`` that displays itself in Jupyter.
3. :mod:`.engines` — layout, once: in-process with pygraphviz (a few ms), else with the ``dot`` program, else give
   up politely (the DOT text and an install hint, never a traceback). Positions are cached per DOT text, so a step,
   a new value or a second drawing of the same structure never lays out again and never moves a node.
4. :mod:`.svg` and :mod:`.layout` — the SVG, written here from the positions: a step only changes the styles and
   labels of boxes that already have their place, and nodes that do not exist yet are laid out but not drawn.
5. :mod:`.jupyter` (and :mod:`.digraph`) — what a notebook gets: ``draw``, ``Frames`` for steppers, ``Figure``.

:mod:`.words` holds the words around the pictures, for the widgets too: ``plain`` shows a numpy scalar as the
number it is, ``wrap`` breaks a caption at spaces (a count with its noun is an ``i18n.Plural``).

Visual language, in :mod:`.theme`: shapes by kind (input = parallelogram, constant = box, variable =
cylinder, operation = stadium (a box with round ends), output = double border, collapsed scope = 3-D box; one line
per box, "✓ mul = 6"); states by outline/fill/mark
(defined = dashed outline, running = thick outline, orange fill, mark ``▶``; done = blue fill, mark ``✓``, value
in the label); gradient nodes italic and vermillion, their edges dotted. Colours are Okabe–Ito, and every state is
also readable without colour. One table of styles serves the DOT writer and the SVG writer.

>>> from course_lib.graph import Graph
>>> g = Graph(); x = g.add("placeholder", name="x", kind="input"); y = g.add("sin", [x]); g.mark_output(y)
>>> "n0 -> n1" in to_dot(g)
True
>>> to_svg(g).startswith("<svg")
True
"""

from __future__ import annotations

import sys
import types
from typing import Any

from . import engines
from .engines import LayoutUnavailable, clear_cache
from .jupyter import Figure, Frames, draw, node_boxes, to_dot, to_svg
from .layout import GRAD_ROOM, VALUE_ROOM, Layout
from .plan import DEFAULT_MAX_NODES, STATUSES
from .svg import DRAW_MAX_WIDTH, INSTALL_HINT, faded, legend_svg
from .theme import MARKS, THEMES, Theme, get_theme, plot_style, set_theme
from .words import plain, wrap

__all__ = [
    "DEFAULT_MAX_NODES",
    "DRAW_MAX_WIDTH",
    "ENGINES",
    "GRAD_ROOM",
    "INSTALL_HINT",
    "MARKS",
    "STATUSES",
    "THEMES",
    "VALUE_ROOM",
    "CourseDigraph",
    "Figure",
    "Frames",
    "Layout",
    "LayoutUnavailable",
    "Theme",
    "clear_cache",
    "draw",
    "engines",
    "faded",
    "get_theme",
    "legend_svg",
    "node_boxes",
    "plain",
    "plot_style",
    "set_theme",
    "to_dot",
    "to_svg",
    "wrap",
]


def __getattr__(name: str) -> Any:
    # CourseDigraph subclasses graphviz.Digraph: importing it imports graphviz, which `import course_lib.render`
    # does not; the class is created once, so render.CourseDigraph is the same object before and after a drawing
    if name == "CourseDigraph":
        from .digraph import CourseDigraph

        return CourseDigraph
    raise AttributeError(f"module 'course_lib.render' has no attribute {name!r}")


class _RenderPackage(types.ModuleType):
    """``course_lib.render`` itself, so that ``render.ENGINES`` reads and *replaces* the engines tried in order.

    A plain module attribute would be a second copy: assigning it (as tests and benchmarks do to force an engine)
    would leave :func:`engines.layout` on the old engines without a word. A property makes the one list the name.
    """

    @property
    def ENGINES(self) -> tuple:  # upper case: the name of the module attribute it stands for
        return engines.ENGINES

    @ENGINES.setter
    def ENGINES(self, value: tuple) -> None:
        engines.ENGINES = value


sys.modules[__name__].__class__ = _RenderPackage
