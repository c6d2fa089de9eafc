"""A live widget for notebook 08: a Python loop inside ``tf.function`` unrolls; a ``tf.range`` loop becomes one
``while`` op. Move the slider and both real TensorFlow graphs are traced again and redrawn.

AutoGraph rewrites a loop only when its condition is a tensor. ``for i in range(n)`` over a Python int ``n`` runs in
Python *while tracing*, so the traced graph holds ``n`` copies of the body (and a new ``n`` means a new trace);
``for i in tf.range(n)`` becomes a ``While`` op whose body is traced once, whatever ``n`` is at run time.

>>> UnrollExplorer(unrolled, looped, n=3)             # doctest: +SKIP
UnrollExplorer(n = 3: Python range 14 ops, tf.range 43 ops)
"""

from __future__ import annotations

import itertools
from typing import Any

from .. import render
from .. import to_graph as _to_graph
from ..graph import Graph
from ..i18n import N_, say
from ..i18n import gettext as _
from ..widgets.base import CourseWidget, guarded
from ..widgets.base import ipywidgets as W
from ..widgets.focus import Focus, Shown
from ..widgets.inputs import read_number
from ..widgets.sizing import PAGE_PX, ROW_PX, fit_height, lines_px, share_width, text_lines, wider

__all__ = ["UnrollExplorer", "fold_range", "loop_graphs"]

_ids = itertools.count(1)
MAX_N = 50  # the largest slider: 50 unrolled steps are 200 ops, already too many to read

NOT_A_TF_FUNCTION = N_("UnrollExplorer's {name} must be a tf.function (decorate the loop with @tf.function): "
                       "unrolled(x, n) loops over Python range(n), looped(x, n) over tf.range(n); got {type} {fn}")


#: the scope the tf.range op and the ops AutoGraph adds to compute its length are drawn in, as one box (code: the
#: same in every language)
RANGE = "tf.range"
#: the ops of that part of the graph: the range itself, and what autograph.utils.misc.get_range_len builds (its
#: last op a Maximum)
RANGE_OPS, RANGE_LENGTH_END = ("Range",), "Maximum"


def fold_range(graph: Graph) -> Graph:
    """A copy of the tf.range loop's graph with the ``Range`` op and the ops AutoGraph adds to compute the range's
    length (a hint for the while loop's maximum iterations: ``max((n - start) // delta + ((n - start) % delta !=
    0), 0)``) in one name scope, ``tf.range``, drawn collapsed as one box that says how many ops it holds. The inputs
    and constants the loop reads too stay boxes of their own.

    >>> g = Graph("loop"); n = g.add("Placeholder", name="n", kind="input")
    >>> d = g.add("Sub", [n, n], name="sub"); m = g.add("Maximum", [d, d], name="Maximum")
    >>> r = g.add("Range", [n], name="range"); _ = g.add("StatelessWhile", [n], name="while", scope="while")
    >>> [(x.name, x.scope) for x in fold_range(g).nodes]
    [('n', ''), ('sub', 'tf.range'), ('Maximum', 'tf.range'), ('range', 'tf.range'), ('while', 'while')]
    """
    data = graph.to_dict()
    top = [x for x in graph.nodes if not x.scope]
    ends = [x for x in top if x.op == RANGE_LENGTH_END] + [x for x in top if x.op in RANGE_OPS]
    part = {x.id for x in graph.ancestors(ends) if x.kind != "input"}
    used_outside = {i.id for x in graph.nodes if x.id not in part for i in x.inputs}
    part -= used_outside  # start and delta feed the loop too: they stay in sight
    for node in data["nodes"]:
        if node["id"] in part:
            node["scope"] = RANGE
    return Graph.from_dict(data)


def loop_graphs(unrolled: Any, looped: Any, n: int) -> tuple[Any, Any]:
    """The concrete functions of both loops for ``n`` steps: ``unrolled(x, n)`` with ``n`` a Python int (traced
    per value), ``looped(x, n)`` with ``n`` a tensor (traced once for every n)."""
    from ..adapters.loader import load_tensorflow

    tf = load_tensorflow()
    x = tf.TensorSpec([], tf.float32)
    return (unrolled.get_concrete_function(x, int(n)),
            looped.get_concrete_function(x, tf.TensorSpec([], tf.int32)))


class UnrollExplorer(CourseWidget):
    """Slider ``n`` -> both loops traced for ``n`` steps, their graphs drawn, their ops and traces counted."""

    monospace_messages = True  # as it was when it shared the tree widgets' message box

    def __init__(self, unrolled: Any, looped: Any, n: int = 3, max_n: int = 10, *,
                 theme: str | render.Theme | None = None) -> None:
        for name, fn in (("unrolled", unrolled), ("looped", looped)):
            if not callable(getattr(fn, "get_concrete_function", None)):
                raise TypeError(say(NOT_A_TF_FUNCTION, name=name, type=type(fn).__name__, fn=f"{fn!r:.40}"))
        super().__init__(theme=theme)
        self.unrolled, self.looped = unrolled, looped
        self._prefix = f"ue{next(_ids)}"
        max_n, max_problem = read_number(max_n, "max_n", 10, whole=True, low=1, high=MAX_N)
        n, n_problem = read_number(n, "n", min(3, max_n), whole=True, low=1, high=max_n)
        label = N_("loop steps n")
        self.slider = W.IntSlider(value=int(n), min=1, max=int(max_n), description=_(label),
                                  style={"description_width": wider(7.5, "em", [label])},
                                  layout=W.Layout(width="min(100%, 520px)", height="36px"))
        self.summary = W.HTML("")
        title = self.title
        self.left = W.HTML("", layout=W.Layout(min_height="300px", width="auto"))
        self.right = W.HTML("", layout=W.Layout(min_height="300px", width="auto"))
        self.counts: tuple[int, int] = (0, 0)
        self.titles = (_("for i in range(n): unrolled while tracing"),
                       _("for i in tf.range(n): one While op, body traced once"))
        # Show: both loops side by side (at one scale), or one enlarged with the other as a thumbnail
        self.focus = Focus([Shown(name, [title(words), picture], picture) for name, words, picture in
                            zip(("range(n)", "tf.range(n)"), self.titles, (self.left, self.right), strict=True)],
                           self.sizes)
        self.panes = self.focus.view.children[0].children
        # the slider and the focus control on one row, the graphs under it, the counts under them: the graphs
        # start high and get the screen's height
        self.children = [W.HBox([self.slider, *self.focus.row], layout=W.Layout(flex_flow="row wrap",
                                                                                align_items="center")),
                         self.message, self.focus.view, self.summary]
        self.slider.observe(self._on_change, "value")
        self._on_change({})  # guarded: a loop that fails to trace is shown in the message box
        self.show_problems([max_problem, n_problem])

    def room(self) -> int:
        """px of the widget above its graphs: the slider's row and the panes' titles (each pane about half the
        width)."""
        z = self.sizes
        return ROW_PX + lines_px(z.title, max(text_lines(t, z.title, PAGE_PX // 2) for t in self.titles)) + 6

    def __repr__(self) -> str:
        return (f"UnrollExplorer(n = {self.slider.value}: Python range {self.counts[0]} ops, "
                f"tf.range {self.counts[1]} ops)")

    @guarded
    def _on_change(self, change: dict[str, Any]) -> None:
        self._update()

    def _update(self) -> None:
        from ..adapters.tensorflow import count_ops

        n = self.slider.value
        cu, cl = loop_graphs(self.unrolled, self.looped, n)
        self.counts = (count_ops(cu).total, count_ops(cl).total)
        unrolled = render.Layout(_to_graph(cu), prefix=f"{self._prefix}u", theme=self.theme)
        height = fit_height(self.room())
        self.left.value = unrolled.svg(max_height=height)
        looped_graph = fold_range(_to_graph(cl))
        bodies = sorted({n.scope for n in looped_graph.nodes if "/" in n.scope})  # while/cond, while/body
        bodies += [RANGE] * any(n.scope == RANGE for n in looped_graph.nodes)
        # cond, body and tf.range side by side in one rank: their counts under their names (795 -> 556 pt wide)
        looped = render.Layout(looped_graph, prefix=f"{self._prefix}l", collapse=bodies, theme=self.theme,
                               counts="under")
        self.right.value = looped.svg(max_height=height)
        # the panes in proportion to their graphs: both drawn at one scale (a wide while loop beside a tall chain
        # had labels half the size of the chain's)
        share_width([(pane, lay.width if lay.ok else None) for pane, lay in zip(self.panes, (unrolled, looped),
                                                                                  strict=True)])
        traces = (self.unrolled.experimental_get_tracing_count(), self.looped.experimental_get_tracing_count())
        self.summary.value = (
            f'<div style="font-size:{self.sizes.ui}px">'
            + _("n = {n}: the unrolled graph has <b>{unrolled}</b> ops (4 per step), the while_loop graph "
                "<b>{looped}</b> ops (its cond and body, drawn as one box each, included) for any n. Traces so far: "
                "<b>{range}</b> for range (one per n tried), <b>{tf_range}</b> for tf.range.").format(
                n=n, unrolled=self.counts[0], looped=self.counts[1], range=traces[0], tf_range=traces[1])
            + "</div>")
        self.clear_message()

