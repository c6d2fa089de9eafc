"""``tf.function`` on a small function: first call (trace + run), steady call, retrace, and the same ops eagerly.

The counts (``experimental_get_tracing_count`` after each phase) are the same on every machine; the times are not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ...adapters.loader import load_tensorflow
from ...adapters.quiet import captured
from ...i18n import N_, Plural, say
from ...i18n import gettext as _
from ...measure import Measurement, first_calls, measure, once_each
from .chains import X
from .progress import Progress, ticker
from .tables import TIMED, Table, compare, timed

__all__ = ["TFFunctionCosts", "after_new_shapes", "tf_function_costs"]

#: The rows of :meth:`TFFunctionCosts.table`, in order.
ROWS = (N_("first call: trace the Python function into a graph, then run it"),
        N_("steady call: same input signature, graph reused"), N_("call with a new shape: trace again (retrace)"))


@dataclass
class TFFunctionCosts:
    """``tf.function`` on a small function: first call (trace + run), steady call, retrace, and eager."""

    first_call_s: Measurement
    steady_s: Measurement
    retrace_s: Measurement
    eager_s: Measurement
    traces: dict[str, int]
    graph_ops: int

    def table(self) -> Table:
        """First call, steady call, retrace (the eager time is shown where it is compared: the break-even)."""
        measured = (self.first_call_s, self.steady_s, self.retrace_s)
        return Table(["tf.function(lambda x: tf.sin(x) * 2.0)", *TIMED],
                     [timed(_(label), m) for label, m in zip(ROWS, measured, strict=True)])

    def steady_vs_eager(self) -> str:
        """Which costs more for this two-op function, computed from this run's medians and spreads."""
        return compare(_("a steady tf.function call"), self.steady_s, _("the two ops run eagerly"), self.eager_s)


def tf_function_costs(repeat: int = 5, progress: Progress | None = None) -> TFFunctionCosts:
    """Trace counts after each phase (``experimental_get_tracing_count``) and the time of each phase."""
    tf = load_tensorflow()
    tick = ticker(progress)

    def small(x: Any) -> Any:
        return tf.sin(x) * tf.constant(2.0, tf.float64)

    x = tf.constant(X, dtype=tf.float64)
    with captured("tensorflow"):  # retracing notes: the lesson elsewhere, noise here
        # a first call can only happen once per function: time `repeat` fresh ones
        first, calls = first_calls(lambda: partial(tf.function(small), x), repeat)
        f = calls[-1].func
        tick(_("steady calls"))
        # traces after each phase, said in the language of the moment (the notebook prints them)
        traces = {_("after the first call"): f.experimental_get_tracing_count()}
        steady = measure(lambda: f(x), repeat=repeat, budget=0.1)
        traces[_("after many calls with the same signature")] = f.experimental_get_tracing_count()
        tick(_("retraces"))
        # a vector of a length never seen before: a new graph each time
        news = [tf.constant(np.full(k, X), dtype=tf.float64) for k in range(2, 2 + repeat)]
        retrace = once_each(partial(f, v) for v in news)
        traces[after_new_shapes(repeat)] = f.experimental_get_tracing_count()
    tick(_("eager"))
    eager = measure(lambda: small(x), repeat=repeat, budget=0.1)
    graph_ops = len(f.get_concrete_function(x).graph.get_operations())
    tick()
    return TFFunctionCosts(first, steady, retrace, eager, traces, graph_ops)


def after_new_shapes(n: int) -> str:
    """The trace count's label after ``n`` calls, each with a shape never seen: "after 3 calls with new shapes"."""
    return say(Plural("after {n} call with a new shape", "after {n} calls with new shapes"), n=n)

