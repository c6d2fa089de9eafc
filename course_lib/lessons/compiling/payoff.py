"""After how many runs compiling pays: the break-even of a compiled and an eager way of running one graph.

With ``C`` the one-off compile, ``s`` one compiled run and ``e`` one eager run::

    compiled, n runs:   C + n · s          eager, n runs:   n · e
    break-even:         n* = ceil(C / (e - s))   when e > s, else compiling never pays

>>> break_even(compile_s=2e-3, compiled_run_s=10e-6, eager_run_s=50e-6)
50
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ... import render
from ...adapters.loader import load_tensorflow
from ...adapters.quiet import captured
from ...i18n import N_, Plural, Said, number, say
from ...i18n import gettext as _
from ...measure import Measurement, first_calls, fmt_seconds, measure
from .chains import C, StaticChain, W, X, chain, dynamic_chain
from .progress import Progress, ticker
from .tables import Table, runs_count, runs_text, stamp_line
from .tf_function import TFFunctionCosts

__all__ = ["PAIRS", "BreakEven", "break_even", "break_even_experiment", "plot_break_even"]

#: How each way of running is named where it is shown (the keys of ``BreakEven.pairs`` stay as they are).
NAMES = {"TF eager": N_("TF eager"), "our static engine": N_("our static engine"),
         "our dynamic engine": N_("our dynamic engine")}
#: Each size of graph, named where it is shown; ``{n}``: its number of ops (another size: :data:`SIZED`).
GRAPHS = {"small": Plural("small graph ({n} op)", "small graph ({n} ops)"),
          "large": Plural("large graph ({n} op)", "large graph ({n} ops)")}
SIZED = Plural("{size} graph ({n} op)", "{size} graph ({n} ops)")
CHAINS = {"small": Plural("small graph: a chain of {n} op", "small graph: a chain of {n} ops"),
          "large": Plural("large graph: a chain of {n} op", "large graph: a chain of {n} ops")}
SIZED_CHAIN = Plural("{size} graph: a chain of {n} op", "{size} graph: a chain of {n} ops")
#: The graph alone, in progress lines and trace counts.
SIZE_WORDS = {"small": N_("small graph"), "large": N_("large graph")}
#: What :meth:`BreakEven.sentences` says of one pair: compiling never pays, or it pays after ``k`` runs.
NEVER_PAYS = N_("{head} on this run compiling never pays, since a compiled run takes {ratio}× the time of an eager "
                "one.")
#: The first call of a pair measured elsewhere in the notebook (``tf_small`` of :func:`break_even_experiment`).
MEASURED_IN_6 = N_("as in §6")
PAYS_AFTER = N_("{head} it pays after {runs}: the compile step ({compile}) divided by what each run saves "
                "({saved}).")


def break_even(compile_s: float, compiled_run_s: float, eager_run_s: float) -> int | None:
    """The smallest number of runs ``n`` for which compiling once and running compiled is no slower than running
    eagerly every time: ``C + n·s ≤ n·e``. None when compiled runs are not faster (it never pays off).

    >>> break_even(1.0, 0.5, 1.5)
    1
    >>> break_even(1.0, 2.0, 1.5) is None
    True
    """
    if eager_run_s <= compiled_run_s:
        return None
    return max(1, math.ceil(compile_s / (eager_run_s - compiled_run_s) - 1e-12))


@dataclass
class BreakEven:
    """Cumulative costs for a small and a large graph: ``pairs[size][name] = (first call, later calls)``, both
    medians; ``first[size][name]`` the first calls' measurement with its spread."""

    sizes: dict[str, int]
    pairs: dict[str, dict[str, tuple[float, float]]]
    traces: dict[str, int]
    first: dict[str, dict[str, Measurement]] | None = None
    reused: tuple[tuple[str, str], ...] = ()

    def point(self, size: str, compiled: str, eager: str) -> int | None:
        c_first, c_run = self.pairs[size][compiled]
        _e_first, e_run = self.pairs[size][eager]
        return break_even(c_first - c_run, c_run, e_run)

    def graph(self, size: str) -> str:
        """``"small graph (2 ops)"``: a size of graph as the sentences and the table name it."""
        return str(say(GRAPHS.get(size, SIZED), size=size, n=self.sizes[size]))

    def sentences(self) -> list[Said]:
        """What this run's medians say, pair by pair, in words computed from them (no verdict typed in advance).
        Each is a :class:`~course_lib.i18n.Said` whose ``msgid`` is :data:`NEVER_PAYS` or :data:`PAYS_AFTER`."""
        out = []
        for size in self.sizes:
            for compiled, eager in PAIRS:
                (c_first, c_run), (_e_first, e_run) = self.pairs[size][compiled], self.pairs[size][eager]
                head = _("{graph}, {compiled} vs {eager}:").format(graph=self.graph(size), compiled=_(compiled),
                                                                   eager=_(eager))
                k = self.point(size, compiled, eager)
                if k is None:
                    out.append(say(NEVER_PAYS, head=head, ratio=number(c_run / e_run, spec=".2g")))
                else:
                    out.append(say(PAYS_AFTER, head=head, runs=runs_count(k), compile=fmt_seconds(c_first - c_run),
                                   saved=fmt_seconds(e_run - c_run)))
        return out

    def table(self) -> Table:
        rows = []
        for size in self.sizes:
            for compiled, eager in PAIRS:
                m = (self.first or {}).get(size, {}).get(compiled)
                first = f"{fmt_seconds(m.median)} ({fmt_seconds(m.low)}–{fmt_seconds(m.high)})" if m else "—"
                if (size, compiled) in self.reused:  # shown where it was measured, not twice
                    first = _(MEASURED_IN_6)
                rows.append((_("{graph}: {compiled} vs {eager}").format(graph=self.graph(size), compiled=_(compiled),
                                                                        eager=_(eager)),
                             first, runs_text(self.point(size, compiled, eager))))
        return Table([_("after how many runs does compiling pay off?"), _("first call: median (IQR)"),
                      _("break-even (from medians)")], rows)


PAIRS = (("tf.function", "TF eager"), ("our static engine", "our dynamic engine"))


def break_even_experiment(small: int = 2, large: int = 200, repeat: int = 3, progress: Progress | None = None,
                          tf_small: TFFunctionCosts | None = None) -> BreakEven:
    """For a chain of ``small`` and of ``large`` ops: first and later calls of tf.function vs TF eager, and of
    our static engine (compile + run) vs our dynamic engine. First calls are timed on ``repeat`` fresh functions
    (median), later calls by :func:`~course_lib.measure.measure` (median). ``traces`` holds the most traces or
    compiles any one compiled function made: 1 when each paid its compile step exactly once.

    ``tf_small``: the small graph's tf.function and eager timings already measured by :func:`tf_function_costs`
    (a two-op function), used instead of timing the same two ops a second time."""
    tf = load_tensorflow()
    tick = ticker(progress)
    xf, wf, cf = (tf.constant(v, dtype=tf.float64) for v in (X, W, C))
    sizes = {"small": int(small), "large": int(large)}
    pairs: dict[str, dict[str, tuple[float, float]]] = {}
    traces: dict[str, int] = {}
    first: dict[str, dict[str, Measurement]] = {}
    with captured("tensorflow"):  # retracing notes: the lesson elsewhere, noise here
        tf.function(lambda: chain(tf.math, xf, wf, cf, 2))()  # warm-up: the first trace of a process costs extra
    StaticChain(2).run()
    for size, n in sizes.items():
        def eager(n: int = n) -> Any:
            return chain(tf.math, xf, wf, cf, n)

        graph = _(SIZE_WORDS[size]) if size in SIZE_WORDS else size
        if size == "small" and tf_small is not None:
            tf_first, steady, e = tf_small.first_call_s, tf_small.steady_s.median, tf_small.eager_s.median
        else:
            with captured("tensorflow"):  # retracing notes: the lesson elsewhere, noise here
                tf_first, fns = first_calls(lambda eager=eager: tf.function(eager), repeat)
            steady = measure(fns[-1], repeat=repeat, budget=0.08).median
            traces[_("tf.function, {graph}").format(graph=graph)] = max(f.experimental_get_tracing_count()
                                                                         for f in fns)
            e = measure(eager, repeat=repeat, budget=0.08).median
        tick(_("{graph}: eager").format(graph=graph))
        chains = [StaticChain(n) for _k in range(max(1, repeat))]
        runs = iter([c.run for c in chains])
        static_first, _fns = first_calls(lambda runs=runs: next(runs), repeat)
        sc = chains[-1]
        static_run = measure(sc.run, repeat=repeat, budget=0.08).median
        compiles = max(c.session.compile_count for c in chains)
        traces[_("our static engine compiles, {graph}").format(graph=graph)] = compiles
        d = measure(dynamic_chain(n), repeat=repeat, budget=0.08).median
        first[size] = {"tf.function": tf_first, "our static engine": static_first}
        pairs[size] = {"tf.function": (tf_first.median, steady), "TF eager": (e, e),
                       "our static engine": (static_first.median, static_run), "our dynamic engine": (d, d)}
        tick(_("{graph}: done").format(graph=graph))
    return BreakEven(sizes, pairs, traces, first, (("small", "tf.function"),) if tf_small is not None else ())


def plot_break_even(be: BreakEven, max_runs: int = 100_000) -> Any:
    """Total time after n runs (log-log), compiled vs eager, for the small and the large graph."""
    import matplotlib.pyplot as plt

    n = np.unique(np.logspace(0, np.log10(max_runs), 200).astype(int))
    with plt.rc_context(render.plot_style()):  # words and lines follow the theme (larger for a projector)
        return _break_even_figure(plt, be, n, max_runs)


def _break_even_figure(plt: Any, be: BreakEven, n: Any, max_runs: int) -> Any:
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    # (line, line style, words): the vermillion line's words darkened to #A23B00, 6.6:1 on white (the line's own
    # 3.9:1 is enough for a line, not for small text; tests/test_contrast.py)
    styles = {"tf.function": ("#D55E00", "-", "#A23B00"), "TF eager": ("#D55E00", ":", "#A23B00"),
              "our static engine": ("#0072B2", "-", "#0072B2"), "our dynamic engine": ("#0072B2", ":", "#0072B2")}
    for ax, size in zip(axes, be.sizes, strict=True):
        for name, (first, later) in be.pairs[size].items():
            colour, ls, _words = styles[name]
            ax.plot(n, first + (n - 1) * later, color=colour, linestyle=ls, label=_(name))
        for compiled, eager in PAIRS:
            k = be.point(size, compiled, eager)
            if k is not None and k <= max_runs:
                first, later = be.pairs[size][compiled]
                ax.plot([k], [first + (k - 1) * later], "o", color=styles[compiled][0])
                ax.annotate(_("pays off after {runs}").format(runs=runs_count(k)), (k, first + (k - 1) * later),
                            textcoords="offset points", xytext=(6, -14), fontsize="small", color=styles[compiled][2])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(str(say(CHAINS.get(size, SIZED_CHAIN), size=size, n=be.sizes[size])), loc="left")
        ax.set_xlabel(_("number of runs (log)"))
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel(_("total time in seconds (log)"))
    axes[0].legend(loc="upper left", fontsize="small")
    fig.text(0.01, 0.005, _("solid: compile once, then run compiled; dotted: run eagerly every time.") + "  "
             + stamp_line(), fontsize="x-small", color="#555555")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    plt.close(fig)
    return fig
