"""``CourseDigraph``: the ``graphviz.Digraph`` that ``cl.draw`` returns, showing the course's SVG in Jupyter.

This module imports graphviz, so the package imports it only when a first drawing needs it
(``course_lib.render.CourseDigraph`` is resolved here, lazily, and is always this one class).
"""

from __future__ import annotations

import re
from typing import Any

import graphviz

from ..i18n import gettext as _
from ..i18n import number
from .engines import quiet_stderr_once
from .jupyter import COURSE_GRAPH, describe
from .layout import Layout
from .svg import DRAW_MAX_WIDTH, INSTALL_HINT, fallback_html

__all__ = ["DRAW_MAX_WIDTH", "CourseDigraph"]

class CourseDigraph(graphviz.Digraph):
    """A ``graphviz.Digraph`` (``.source`` is the DOT text) that displays itself in the course's look.

    Displaying never needs the ``dot`` program and never raises: pygraphviz lays it out in-process, else the
    ``dot`` program, else the DOT text is shown with an install hint.
    """

    _course_layout: Layout | None = None
    _course_args: tuple = ()
    _course_source: str = ""
    _course_max_width: float = DRAW_MAX_WIDTH

    def svg(self) -> str:
        """The SVG text (or an HTML fallback that explains how to get one)."""
        if self._course_layout is not None and self.source == self._course_source:
            state, values, grads, legend = self._course_args
            # JupyterLab shows image/svg+xml as an <img> at its declared size, cut at the column's edge: a
            # declared width of at most DRAW_MAX_WIDTH makes a wide graph shrink to fit instead
            return self._course_layout.svg(state, values, grads, legend=legend, max_width=self._course_max_width)
        return self._render_edited()

    def _render_edited(self) -> str:
        """DOT edited after draw(): rendered as it is, by pygraphviz or the ``dot`` program, else shown as text."""
        reasons = []
        try:
            import pygraphviz

            with quiet_stderr_once():
                return pygraphviz.AGraph(string=self.source).draw(format="svg", prog="dot").decode("utf-8")
        except Exception as exc:  # noqa: BLE001 - missing package or bad DOT: try the dot program
            reasons.append(f"pygraphviz: {type(exc).__name__}")  # a package's name
        try:
            return self.pipe(format="svg", encoding="utf-8")
        except Exception as exc:  # noqa: BLE001 - never a traceback in a student's notebook
            reasons.append(_("dot program: {error}").format(error=type(exc).__name__))
            return fallback_html(self.source, INSTALL_HINT + f"\n({'; '.join(reasons)})")

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **_: Any) -> dict[str, str]:
        try:
            out = self.svg()
        except Exception as exc:  # noqa: BLE001 - never a traceback in a student's notebook
            out = fallback_html(self.source, _("drawing failed ({error})").format(error=f"{type(exc).__name__}: {exc}"))
        if out.startswith(("<svg", "<?xml")):
            return {"image/svg+xml": out, "text/plain": self._summary(out)}
        return {"text/html": out, "text/plain": self._summary(out) + "\n" + INSTALL_HINT}

    def _repr_image_svg_xml(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        """One line that nbval compares and an untrusted notebook shows instead of the picture.

        Its width is the one the SVG declares, in words that hold on every machine: "at most 680 pt wide" (a wide
        graph is shrunk to the column), else "wider than 680 pt, not shrunk to the column" (then nbval fails).
        """
        try:
            return self._summary(self.svg())
        except Exception as exc:  # noqa: BLE001 - a repr never raises
            return _("<course graph: drawing failed ({error})>").format(error=type(exc).__name__)

    def _summary(self, svg: str) -> str:
        """The repr, from the SVG (or fallback HTML) that is displayed."""
        lay = self._course_layout
        if lay is None:
            return _("<course graph>")
        if self.source != self._course_source:
            return _("<course graph {name}: DOT edited after drawing, drawn from its text>").format(
                name=repr(lay.graph.name))
        if not lay.ok:
            return describe(COURSE_GRAPH, lay, "", False)
        declared = re.match(r'<svg [^>]*?\bwidth="([0-9.]+)pt"', svg)
        width = float(declared.group(1)) if declared else float("inf")
        cap = self._course_max_width
        if width <= cap + 0.05:
            words = _("at most {width} pt wide").format(width=number(cap))
        else:
            words = _("wider than {width} pt, not shrunk to the column").format(width=number(cap))
        return describe(COURSE_GRAPH, lay, words, True)
