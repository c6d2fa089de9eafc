"""TensorFlow 1's Session after a change: the three costs Answer 1's "perhaps 200usec" can be confused with.

At the start of every ``Session.run``, TensorFlow 1 sends the nodes added since the last run to the runtime
(``_extend_graph``, the line the answer points at): in ``c_api.cc`` they are copied into a ``GraphDef`` and passed
to ``Session::Extend``, which builds a new execution state of the whole graph. Separately, the session keeps one
*executor* per request (per combination of fetches, feeds and targets), built on the first run of that request
after pruning and optimizing (Grappler) what it needs, and reused afterwards -- an extension does not drop them.
So three costs hide behind "modify the graph, then run":

=================================  ==================================================================================
``extend only (old fetch)``        add a node, then run a fetch that ran before: the extension alone (Answer 1's cost)
``new fetch, unchanged graph``     run a request never run before: a new executor, no change to the graph
``extend + new fetch``             add a node and run *it*: both at once
=================================  ==================================================================================

Each is measured after a steady ``Session.run`` of the same graph. TensorFlow is imported (quietly) only when
:func:`tf1_costs` runs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ...adapters.loader import load_tensorflow
from ...i18n import N_, say
from ...i18n import gettext as _
from ...measure import Measurement, measure
from .chains import C, W, X, chain_from
from .progress import Progress, ticker
from .tables import TIMED, Table, timed

__all__ = ["LABELS", "TF1Costs", "tf1_costs", "tf1_table"]

#: The three costs, labelled as the notebooks print them (in English: shown with ``_(LABELS[key])``).
LABELS = {"extend": N_("extend only (old fetch)"), "new_fetch": N_("new fetch, unchanged graph"),
          "both": N_("extend + new fetch")}
STEADY = N_("steady Session.run (same fetch, same graph)")
TOO_SHORT = N_("tf1_costs needs a chain of at least 2 ops, got n={n}")


@dataclass
class TF1Costs:
    """A TF1 ``Session`` (``tf.compat.v1``) on a chain of ``n`` ops: a steady run and the three costs of a change.

    Counts that do not vary: ``edits`` nodes added (each one op: ``ops_after - ops_before == edits``) and
    ``new_fetches`` requests run for the first time."""

    n: int
    steady_s: Measurement
    extend_only_s: Measurement
    new_fetch_s: Measurement
    extend_and_new_fetch_s: Measurement
    ops_before: int
    ops_after: int
    edits: int
    new_fetches: int

    @property
    def per_op_s(self) -> float:
        """A steady run divided by the number of ops: the cost of one op "in a previously defined graph"."""
        return self.steady_s.median / self.n

    def cost(self, which: str) -> Measurement:
        """One of the three costs by its key in :data:`LABELS`."""
        return {"extend": self.extend_only_s, "new_fetch": self.new_fetch_s, "both": self.extend_and_new_fetch_s}[which]

    def table(self) -> Table:
        return tf1_table([self])


def tf1_table(costs: list[TF1Costs]) -> Table:
    """One row per measurement and graph size: median, spread (interquartile range), and calls timed."""
    rows = []
    for c in costs:
        for label, m in [(STEADY, c.steady_s)] + [(LABELS[k], c.cost(k)) for k in LABELS]:
            rows.append((_("{n} ops").format(n=c.n), *timed(_(label), m)))
    return Table([_("graph"), _("TF1 Session"), *TIMED], rows)


def tf1_costs(n: int = 100, repeat: int = 5, number: int = 4, progress: Progress | None = None) -> TF1Costs:
    """Measure a steady ``Session.run`` and the three costs of :data:`LABELS` on one ``tf.Graph`` holding a chain
    of ``n`` ops (``n >= 2``). Each timed call of a change makes one new edit or one new request."""
    if int(n) < 2:
        raise ValueError(say(TOO_SHORT, n=n))
    tf = load_tensorflow()
    tick = ticker(progress)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=(), name="x")
        c = tf.compat.v1.placeholder(tf.float64, shape=(), name="c")
        w = tf.constant(W, dtype=tf.float64, name="w")
        steps = [x]
        for k in range(int(n)):
            steps.append(chain_from(tf.math, steps[-1], w, c, k, 1))
        sess = tf.compat.v1.Session(graph=g)
    y = steps[-1]
    feeds = {x: X, c: C}
    sess.run(y, feeds)
    tick(_("steady runs"))
    steady = measure(lambda: sess.run(y, feeds), repeat=repeat, budget=0.15)
    ops_before = len(g.get_operations())
    state = {"edits": 0, "tip": y}

    def add_node() -> object:
        with g.as_default():
            state["tip"] = tf.sin(state["tip"])
        state["edits"] += 1
        return state["tip"]

    tick(_(LABELS["extend"]))
    extend = measure(lambda: (add_node(), sess.run(y, feeds)), repeat=repeat, number=number, warmup=1)
    tick(_(LABELS["new_fetch"]))
    # requests never run before, each needing all of y's graph: y with one more tensor, then with two, ...; then
    # the same with the constant w fed too (a new feed is a new request): enough for a graph of 2 ops
    others = steps[:-1] + [w, c]
    requests = ((fetch, feed) for feed in (feeds, {**feeds, w: W})
                for fetch in ([y, *more] for r in range(1, len(others) + 1)
                              for more in itertools.combinations(others, r)))
    fresh = {"count": 0}

    def new_fetch() -> None:
        sess.run(*next(requests))
        fresh["count"] += 1

    new = measure(new_fetch, repeat=repeat, number=number, warmup=1)
    tick(_(LABELS["both"]))
    both = measure(lambda: sess.run(add_node(), feeds), repeat=repeat, number=number, warmup=1)
    tick()
    ops_after = len(g.get_operations())
    sess.close()
    return TF1Costs(int(n), steady, extend, new, both, ops_before, ops_after, state["edits"], fresh["count"])
