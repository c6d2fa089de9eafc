"""A live widget for notebook 06: how much of a padded batch is padding, and which graph each style needs.

Move the **length spread** and the sentences of a batch get more unequal: the padded grid shows the zeros a
fixed-length (define-then-run) graph must run on, the counts say how many cell steps are wasted, and the two
graphs are rebuilt -- the static one has as many steps as the *longest* sentence (a new length means a new graph
to build and compile), the dynamic one exactly as many as the sentence you pick. **Buckets** pad each group only
to its own longest sentence, at the price of one graph per bucket.

Everything shown is counted (:mod:`course_lib.lessons.sequences`), so the same slider positions give the same numbers on
every machine; ``counts()`` returns them for notebooks and tests.

>>> e = PaddingExplorer(spread=0)
>>> e.counts()["padded"].padded
0
>>> e.set(spread=3); e.counts()["padded"].padded > 0
True
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from .. import render
from .. import trace as tr
from ..graph import Graph
from ..i18n import N_, Plural, number, say
from ..i18n import gettext as _
from ..widgets.base import CourseWidget, guarded
from ..widgets.base import ipywidgets as W
from ..widgets.focus import Focus, Shown
from ..widgets.html import esc
from ..widgets.inputs import read_number
from ..widgets.sizing import fit_height, wider
from . import sequences as sq

__all__ = ["PaddingExplorer", "fold_steps", "wider"]

_ids = itertools.count(1)
MAX_SENTENCES, MAX_MEAN, MAX_SPREAD = 40, 30, 20  # beyond these the grid and the graphs no longer fit the page


#: px over each unrolled graph when it is scrolled to the top of the screen: its two-line title
GRAPH_TITLE = 70

#: steps drawn one box each at the start of an unrolled graph (and the last one): those between are one box, so a
#: graph of 11 steps fits a projector's height with readable labels
KEEP_STEPS = 2
STEPS_FOLDED = N_("steps {first}–{last}")

RNN_NOT_TINY = N_("PaddingExplorer's rnn must be a sequences.TinyRNN (e.g. sequences.TinyRNN.make()), or None for "
                  "the course's own; got {type} {rnn}")


def fold_steps(graph: Graph, steps: int, keep: int = KEEP_STEPS) -> Graph:
    """A copy of an unrolled graph whose steps ``keep + 1`` to ``steps - 1`` are one name scope, ``steps 3–8``:
    drawn collapsed, they are one box that says how many nodes it holds (the same structure repeated, the count
    said). Steps ``1 … keep`` and the last stay boxes of their own; a short graph is copied unchanged.

    >>> from course_lib import static as st
    >>> g = st.Graph("chain")
    >>> with g.as_default():
    ...     h = st.placeholder("x")
    ...     for t in range(1, 6):
    ...         with st.name_scope(f"step {t}"):
    ...             h = st.tanh(h)
    >>> sorted({n.scope for n in fold_steps(g, 5).nodes})
    ['', 'step 1', 'step 2', 'step 5', 'steps 3–4']
    """
    data = graph.to_dict()
    first, last = keep + 1, steps - 1
    if last - first >= 1:  # two steps or more to fold: one would gain nothing
        folded = _(STEPS_FOLDED).format(first=first, last=last)
        inner = {_(sq.STEP).format(t=t) for t in range(first, last + 1)}
        for node in data["nodes"]:
            top, _sep, rest = node["scope"].partition("/")
            if top in inner:
                node["scope"] = folded
    return Graph.from_dict(data)


class PaddingExplorer(CourseWidget):
    """Sliders: length spread, number of buckets, the sentence whose dynamic graph is drawn."""

    def __init__(self, spread: int = 3, buckets: int = 1, sentence: int = 1, *, n: int = 8, mean: int = 6,
                 max_spread: int = 5, rnn: sq.TinyRNN | None = None, theme: str | render.Theme | None = None
                 ) -> None:
        super().__init__(theme=theme)
        if rnn is not None and not isinstance(rnn, sq.TinyRNN):
            raise TypeError(say(RNN_NOT_TINY, type=type(rnn).__name__, rnn=f"{rnn!r:.40}"))
        self.rnn = rnn or sq.TinyRNN.make()
        problems: list[str] = []

        def read(value: Any, name: str, default: int, low: int, high: int) -> int:
            got, problem = read_number(value, name, default, whole=True, low=low, high=high)
            problems.append(problem)
            return int(got)

        self.n, self.mean = read(n, "n", 8, 1, MAX_SENTENCES), read(mean, "mean", 6, 1, MAX_MEAN)
        max_spread = read(max_spread, "max_spread", 5, 0, MAX_SPREAD)
        spread = read(spread, "spread", min(3, max_spread), 0, max_spread)
        buckets = read(buckets, "buckets", 1, 1, 4)
        sentence = read(sentence, "sentence", 1, 1, self.n)
        self._uid = next(_ids)
        self._static: dict[int, tuple[sq.StaticUnroll, str]] = {}  # T -> (graph + session, its picture)
        labels = (N_("length spread"), N_("buckets"), N_("draw sentence"))
        style = {"description_width": wider(8.7, "em", labels)}  # the three sliders start at one line
        size = W.Layout(width="min(calc(100% - 4px), 480px)", height="36px")  # its 2 px margins inside the column
        self.spread = W.IntSlider(value=spread, min=0, max=max_spread,
                                  description=_(labels[0]), style=style, layout=size)
        self.buckets = W.IntSlider(value=buckets, min=1, max=4, description=_(labels[1]),
                                   style=style, layout=size)
        self.sentence = W.IntSlider(value=sentence, min=1, max=self.n,
                                    description=_(labels[2]), style=style, layout=size)
        self.summary, self.grid = W.HTML(), W.HTML()
        self.static_view = W.HTML(layout=W.Layout(min_height="300px", width="auto"))
        self.dynamic_view = W.HTML(layout=W.Layout(min_height="300px", width="auto"))
        for s in (self.spread, self.buckets, self.sentence):
            s.observe(self._changed, "value")
        self.static_title, self.dynamic_title = W.HTML(), W.HTML()  # filled in by _update
        # Show: both unrolled graphs side by side, or one enlarged with the other as a thumbnail
        self.focus = Focus([Shown(tr.style_name(style), [title, view], view) for style, title, view in
                            zip(tr.STYLES, (self.static_title, self.dynamic_title),
                                (self.static_view, self.dynamic_view), strict=True)], self.sizes)
        key = self.html(_("Each box is one time step (its nodes counted inside); <i>dashed</i>: defined in the graph, "
                          "no value kept; <i>filled with ✓</i>: recorded while it ran, value shown. The static step "
                          "has more nodes: the mask that keeps a finished sentence's state."), "small", "color:#333")
        # the sliders beside the grid they change, then the counts: on a projector the sliders and the grid are
        # on the screen together; each graph below scales to a screen's height when scrolled to
        sliders = W.VBox([self.spread, self.buckets, self.sentence], layout=W.Layout(flex="0 1 480px", min_width="0"))
        self.grid.layout = W.Layout(flex="1 1 360px", min_width="0")
        self.children = [self.html(_("<b>Padding explorer</b>: make the sentences more unequal, then bucket them"),
                                   "heading"),
                         W.HBox([sliders, self.grid], layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.message, self.summary, W.HBox(self.focus.row, layout=W.Layout(align_items="center")),
                         self.focus.view, key]
        self._update()
        self.show_problems(problems)

    def __repr__(self) -> str:
        return (f"PaddingExplorer(spread={self.spread.value}, buckets={self.buckets.value}, "
                f"sentence={self.sentence.value})")

    # ------------------------------------------------------------------ state
    @property
    def lengths(self) -> list[int]:
        return sq.lengths_with_spread(self.spread.value, self.n, self.mean)

    def counts(self) -> dict[str, Any]:
        """What the widget shows, as numbers: lengths, cell steps of each strategy, graphs each one needs."""
        lens = self.lengths
        groups = sq.buckets(lens, k=self.buckets.value)
        return {
            "lengths": lens,
            "padded": sq.padding_count(lens),
            "bucketed": sq.bucketed_count(lens, groups),
            "dynamic": sq.PaddingCount(sum(lens), 0),
            "static graph steps": max(lens),
            "bucket graph steps": sorted({max(lens[i] for i in g) for g in groups}),
            "dynamic graph steps": lens[self.sentence.value - 1],
            "static graphs compiled": sum(s.session.compile_count for s, _ in self._static.values()),
        }

    def set(self, spread: int | None = None, buckets: int | None = None, sentence: int | None = None) -> None:
        """Move sliders from code (clipped to their ranges, as a slider would, and said so)."""
        problems = []
        for name, slider, v in (("spread", self.spread, spread), ("buckets", self.buckets, buckets),
                                ("sentence", self.sentence, sentence)):
            if v is not None:
                got, problem = read_number(v, name, slider.value, whole=True, low=slider.min, high=slider.max)
                problems.append(problem)
                slider.value = int(got)
        self.show_problems(problems)

    # ------------------------------------------------------------------ drawing
    @guarded
    def _changed(self, _change: dict[str, Any]) -> None:
        self._update()

    def _static_for(self, T: int, xs: list[np.ndarray]) -> str:
        """The static graph of T steps (built, compiled and drawn once per T) after running this batch."""
        if T not in self._static:
            unroll = sq.StaticUnroll(self.rnn, T)
            svg = render.to_svg(fold_steps(unroll.drawn(), T), collapse=3, legend=False,
                                max_height=fit_height(GRAPH_TITLE),
                                prefix=f"pe{self._uid}s{T}", theme=self.theme)
            self._static[T] = (unroll, svg)
        unroll, svg = self._static[T]
        unroll.run(*sq.pad(xs, T))
        return svg

    def _update(self) -> None:
        self.clear_message()
        lens = self.lengths
        sentences = sq.sentences_with_spread(self.spread.value, self.n, self.mean)
        xs = [self.rnn.embed(s) for s in sentences]
        groups = sq.buckets(lens, k=self.buckets.value)
        T = max(lens)
        self.static_view.value = self._static_for(T, xs)
        k = self.sentence.value
        run = sq.dynamic_unroll(self.rnn, xs[k - 1])
        self.dynamic_view.value = render.to_svg(fold_steps(run.graph(), lens[k - 1]), collapse=3, legend=False,
                                                max_height=fit_height(GRAPH_TITLE),
                                                prefix=f"pe{self._uid}d{k}l{lens[k - 1]}", theme=self.theme)
        c = self.counts()
        z = self.sizes
        title = f'<div style="font-size:{z.title}px;font-weight:bold;margin-top:6px">'
        self.static_title.value = title + say(Plural(
            "Define-then-run: ONE graph of {n} step (the longest sentence) for every sentence",
            "Define-then-run: ONE graph of {n} steps (the longest sentence) for every sentence"), n=T) + "</div>"
        recorded = Plural("Define-by-run: the graph recorded for sentence {k} has {n} step",
                          "Define-by-run: the graph recorded for sentence {k} has {n} steps")
        self.dynamic_title.value = (title + say(recorded, k=k, n=lens[k - 1]) + "</div>"
                                    f'<div style="font-size:{z.small}px">'
                                    + _("“{sentence}”").format(sentence=esc(sentences[k - 1])) + "</div>")
        self.grid.value = sq.grid_svg(lens, groups if len(groups) > 1 else None, svg_id=f"pe{self._uid}grid",
                                      scale=self.sizes.ui / 12)  # its 12 px words as large as the widget's
        self.summary.value = self._summary(c, lens, len(groups), T)

    def _summary(self, c: dict[str, Any], lens: list[int], groups: int, T: int) -> str:
        """The lengths, the table of cell steps and graphs of each strategy, and the compiles so far (HTML)."""
        z = self.sizes
        pad, bucket = c["padded"], c["bucketed"]

        def steps(n: int) -> str:
            return say(Plural("{n} step", "{n} steps"), n=n)

        def spent(count: sq.PaddingCount) -> str:
            return _("{total} ({padded} on padding, {wasted} wasted)").format(
                total=number(count.total), padded=number(count.padded), wasted=number(count.wasted, spec=".0%"))

        graphs = c["bucket graph steps"]
        rows = [
            (_("pad every sentence to the longest"), spent(pad),
             say(Plural("1 graph of {n} step", "1 graph of {n} steps"), n=T)),
            (say(Plural("bucketing into {n} group", "bucketing into {n} groups"), n=groups), spent(bucket),
             say(Plural("{n} graph: {steps}", "{n} graphs: {steps}"), n=len(graphs),
                 steps=", ".join(steps(t) for t in graphs))),
            (_("define-by-run, one sentence at a time"), _("{real} (none on padding)").format(real=number(pad.real)),
             say(Plural("{n} graph recorded, one per sentence, as it runs",
                        "{n} graphs recorded, one per sentence, as it runs"), n=self.n)),
        ]
        body = "".join(f'<tr><td style="padding:2px 10px">{esc(a)}</td><td style="padding:2px 10px">'
                       f'{esc(b)}</td><td style="padding:2px 10px">{esc(d)}</td></tr>'
                       for a, b, d in rows)
        head = "".join(f'<th style="text-align:left;padding:2px 10px">{esc(_(h))}</th>'
                       for h in (N_("strategy"), N_("cell steps run"), N_("graphs needed")))
        total, compiled = sum(lens), c["static graphs compiled"]
        return (f'<div style="font-size:{z.ui}px">'
                + _("Sentence lengths: {lengths} (total {words})").format(
                    lengths=", ".join(map(str, lens)),
                    words=say(Plural("{n} word", "{n} words", count="words"), n=number(total), words=total))
                + f"</div><table style=\"font-size:{z.ui}px;border-collapse:collapse\"><tr>{head}</tr>"
                f"{body}</table><div style=\"font-size:{z.small}px;color:#444\">"
                + say(Plural("The static engine has compiled {n} graph so far in this widget: one per longest length "
                             "seen.",
                             "The static engine has compiled {n} graphs so far in this widget: one per longest length "
                             "seen."), n=compiled)
                + "</div>")
