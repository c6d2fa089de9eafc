"""A live widget for notebook 05: change a define-then-run graph and watch what has to be compiled again.

A chain of ops (:class:`course_lib.lessons.compiling.StaticChain`) in our define-then-run engine:

* the **ops slider** builds a new graph of that size (a new graph: the first run compiles it);
* **add a node, then run** appends one op to the graph: the cached plan no longer matches, so it compiles again;
* **run 100 times** runs the same plan: no compile at all.

The counts (nodes, compiles, runs) and the generated plan are exact. The timings next to them (compile, one
compiled run, one run of the dynamic engine, and the break-even between them) are measured live and vary.

>>> e = CompileExplorer(ops=4, timings=False)
>>> e.run_many(100); e.add_node(); e
CompileExplorer(ops=4, nodes=8, compiles=2, runs=102)
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from .. import render
from ..i18n import N_, Plural, number, say
from ..i18n import gettext as _
from ..measure import fmt_seconds, measure
from ..widgets.base import CourseWidget, guarded
from ..widgets.base import ipywidgets as W
from ..widgets.html import esc
from ..widgets.inputs import read_number, shown
from ..widgets.sizing import fit_height
from .compiling import C, StaticChain, X, break_even, dynamic_chain

__all__ = ["CompileExplorer"]

_ids = itertools.count(1)
SOURCE_LINES = 14
MAX_RUNS = 1_000_000  # run_many's largest k: about a minute on two cores
MAX_OPS = 512  # the largest ops slider: beyond it a rebuild takes seconds and the picture is all collapsed boxes


#: px of the widget above its graph: the heading, the slider and buttons, the counts
GRAPH_TOP = 230

TIMINGS_NOT_BOOL = N_("timings={timings} is not True or False: pass timings=True to measure, False for the counts "
                      "alone (the widget measures for now).")
RUN_MANY_BAD = N_("run_many(k={k}): k must be a whole number of runs from 0 to {most}; nothing was run. Pass e.g. "
                  "run_many(100).")


class CompileExplorer(CourseWidget):
    """Ops slider + two buttons; shows the graph, the counts, the plan source and (optionally) timings."""

    def __init__(self, ops: int = 6, *, max_ops: int = 64, timings: bool = True,
                 theme: str | render.Theme | None = None) -> None:
        super().__init__(theme=theme)
        problems = []
        max_ops, problem = read_number(max_ops, "max_ops", 64, whole=True, low=1, high=MAX_OPS)
        problems.append(problem)
        ops, problem = read_number(ops, "ops", min(6, max_ops), whole=True, low=1, high=max_ops)
        problems.append(problem)
        if not isinstance(timings, (bool, np.bool_)):
            problems.append(say(TIMINGS_NOT_BOOL, timings=f"{timings!r:.40}"))
            timings = True
        self.timings = bool(timings)
        self._uid = next(_ids)
        self.ops = W.IntSlider(value=ops, min=1, max=max_ops,
                               description=_("ops in the graph"), continuous_update=False,
                               style={"description_width": "initial"},
                               layout=W.Layout(width="min(100%, 480px)", height="36px"))
        big = W.Layout(height="40px", width="auto", min_width="200px", margin="2px 8px")
        self.add_button = W.Button(description=_("add a node, then run"), tooltip=_("the graph changes: compile again"),
                                   layout=big, style=self.button_style())
        self.run_button = W.Button(description=_("run it 100 times"), tooltip=_("same graph, same plan: no compile"),
                                   layout=big, style=self.button_style())
        self.stats, self.picture, self.source = W.HTML(), W.HTML(), W.HTML()
        self.picture.layout = W.Layout(min_height="120px", width="auto")
        self.ops.observe(self._on_ops, "value")
        self.add_button.on_click(self._on_add)
        self.run_button.on_click(self._on_run)
        self.children = [self.html(_("<b>Compile explorer</b>: change the graph, or just run it again, and watch the "
                                     "compile count"), "heading"),
                         W.HBox([self.ops, self.add_button, self.run_button],
                                layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.message, self.stats, self.picture, self.source]
        self._times: dict[str, float] = {}
        self.rebuild()
        self.show_problems(problems)

    def __repr__(self) -> str:
        return (f"CompileExplorer(ops={self.ops.value}, nodes={self.nodes}, compiles={self.compiles}, "
                f"runs={self.runs})")

    # ------------------------------------------------------------------ actions
    @property
    def nodes(self) -> int:
        return len(self.chain.graph)

    @property
    def compiles(self) -> int:
        return self.chain.session.compile_count

    def rebuild(self) -> None:
        """A new graph of ``ops`` ops, run once (which compiles it)."""
        self.chain = StaticChain(self.ops.value)
        self.chain.run()
        self.runs = 1
        self._measure()
        self._show()

    def add_node(self) -> None:
        """Append one op and run the new output: the plan cache misses, the graph is compiled again."""
        self.chain.add_node()
        self.chain.run()
        self.runs += 1
        self._measure()
        self._show()

    def run_many(self, k: int = 100) -> None:
        """Run the current output ``k`` times: the cached plan is reused, nothing is compiled."""
        got, problem = read_number(k, "k", 0, whole=True, low=0, high=MAX_RUNS)
        if problem:
            self.show_error(say(RUN_MANY_BAD, k=shown(k), most=number(MAX_RUNS, spec=",")))
            return
        k = int(got)
        for _run in range(k):
            self.chain.run()
        self.runs += k
        self._show()

    def ran_states(self) -> dict[int, str]:
        """Node id -> "done" for every node the last run computed (the fetch and all it depends on: the plan ran
        them, or folded them while compiling), "defined" for the rest. Without it every node was drawn dashed,
        "defined, not run", beside "runs of the graph: 102"."""
        plan = self.chain.session.last_plan
        ran = {n.id for n in self.chain.graph.ancestors(plan.fetches)} if plan is not None and self.runs else set()
        return {n.id: "done" if n.id in ran else "defined" for n in self.chain.graph.nodes}

    # ------------------------------------------------------------------ callbacks (an error shows in the widget)
    @guarded
    def _on_ops(self, _change: Any) -> None:
        self.clear_message()
        self.rebuild()

    @guarded
    def _on_add(self, _button: Any) -> None:
        self.clear_message()
        self.add_node()

    @guarded
    def _on_run(self, _button: Any) -> None:
        self.clear_message()
        self.run_many(100)

    # ------------------------------------------------------------------ numbers and pictures
    def _measure(self) -> None:
        """Time compile, a compiled run and a dynamic run -- on the side: the counts shown are not touched."""
        if not self.timings:
            self._times = {}
            return
        c = self.chain
        plan = c.session.last_plan
        values = {c.x.node.id: np.float64(X), c.c.node.id: np.float64(C)}
        feeds = [values[n.id] for n in plan.fed] if plan is not None else []
        self._times = {
            "compile": measure(c.compile_only, repeat=3, budget=0.02).median,
            "static run": measure(lambda: plan.run(feeds), repeat=3, budget=0.02).median,
            "dynamic run": measure(dynamic_chain(self.ops.value + c.edits), repeat=3, budget=0.02).median,
        }

    def _show(self) -> None:
        c = self.chain
        rows = [(_("nodes in the graph"), str(self.nodes)),
                (_("times compiled (Session.compile_count)"), str(self.compiles)),
                (_("runs of the graph"), number(self.runs, spec=","))]
        if self._times:
            t = self._times
            be = break_even(t["compile"], t["static run"], t["dynamic run"])
            rows += [(_("compile (measured now)"), fmt_seconds(t["compile"])),
                     (_("one compiled run"), fmt_seconds(t["static run"])),
                     (_("one run of the dynamic engine (records the graph each time)"), fmt_seconds(t["dynamic run"])),
                     (_("compiling pays off after"), _("never") if be is None else
                      say(Plural("{n} run", "{n} runs", count="runs"), n=number(be, spec=","), runs=be))]
        body = "".join(f'<tr><td style="padding:2px 12px">{esc(a)}</td><td style="padding:2px 12px">'
                       f"<b>{esc(b)}</b></td></tr>" for a, b in rows)
        self.stats.value = f'<table style="font-size:{self.sizes.ui}px;border-collapse:collapse">{body}</table>'
        collapse: Any = False if self.nodes <= 16 else 4
        self.picture.value = render.to_svg(c.graph, self.ran_states(), collapse=collapse, rankdir="LR",
                                           legend=False, prefix=f"ce{self._uid}n{self.nodes}", theme=self.theme,
                                           max_height=fit_height(GRAPH_TOP))
        lines = c.session.last_plan.source().splitlines() if c.session.last_plan else []
        if len(lines) > SOURCE_LINES:
            hidden = len(lines) - SOURCE_LINES + 1
            more = say(Plural("{n} more line", "{n} more lines"), n=hidden)
            lines = lines[: SOURCE_LINES - 3] + [f"    # … {more} …"] + lines[-2:]
        self.source.value = (f'<div style="font-size:{self.sizes.ui}px;margin-top:6px">'
                             + _("<b>The plan the last compile generated</b> (straight-line Python, run on every "
                                 "<code>Session.run</code> until the graph changes):")
                             + f'</div><pre style="font-size:{self.sizes.mono}px;line-height:1.3;'
                             f'border:1px solid #CCC;padding:6px;max-height:24em;overflow:auto">'
                             f"{esc(chr(10).join(lines))}</pre>")
