"""A course drawing as inline HTML, so a wide graph shrinks to the width of the page.

``cl.draw`` returns a ``graphviz.Digraph`` whose ``image/svg+xml`` output JupyterLab shows at its natural size: a
graph wider than the notebook column is cut off at the right edge. :func:`show` draws with the same renderer
(:func:`course_lib.render.to_svg`) but hands the SVG to the notebook as HTML, where the SVG's own
``max-width:100%`` applies, as it does inside the course's widgets. Its text repr is one short line (nbval
compares it).

>>> from course_lib import dynamic as dy
>>> show(dy.sin(dy.Tensor(1.0, requires_grad=True)))
<figure 'define-by-run': 2 nodes>
"""

from __future__ import annotations

from typing import Any

from . import render
from . import to_graph as _to_graph

__all__ = ["Figure", "show"]


class Figure:
    """The SVG of one drawing (``.svg``), its graph (``.graph``); displays itself as HTML in Jupyter."""

    def __init__(self, obj: Any, **options: Any) -> None:
        convert = {k: options.pop(k) for k in ("saved_tensors", "params") if k in options}
        self.graph = _to_graph(obj, **convert)
        options.setdefault("legend", False)
        self.svg = render.to_svg(self.graph, **options)

    def _repr_html_(self) -> str:
        return f'<div class="course-figure" style="max-width:100%">{self.svg}</div>'

    def __repr__(self) -> str:
        n = len(self.graph.nodes)
        return f"<figure {self.graph.name!r}: {n} node{'s' * (n != 1)}>"


def show(obj: Any, **options: Any) -> Figure:
    """Draw anything ``cl.draw`` accepts (same options: ``rankdir``, ``collapse``, ``params`` ...), scaled to the
    page; the legend is off unless ``legend=True``."""
    return Figure(obj, **options)
