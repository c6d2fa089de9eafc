"""TensorFlow 1's Session: what a steady run costs, and what a change costs, timed and counted.

Answer 1 points at one line of ``session.py``: at the start of every ``Session.run``, the nodes added since the
last run are sent to the runtime (``Session._extend_graph``; in ``tensorflow/c/c_api.cc``,
``ExtendSessionGraphHelper`` copies them into a ``GraphDef`` and calls ``Session::Extend``). In
``tensorflow/core/common_runtime/direct_session.cc``, ``ExtendLocked`` then replaces the session's state of the
graph: ``GraphExecutionState::Extend`` (``graph_execution_state.cc``) copies the old ``GraphDef`` and the new nodes
into one, converts it to a ``Graph``, and ``InitBaseGraph`` runs the pre-placement passes, the placer and the
post-placement passes over **every** node. So the extension grows with the whole graph, not with what is fetched.

Separately, the session keeps one *executor* per request, keyed by its sorted feeds, fetches and targets
(``DirectSession::GetOrCreateExecutors``): the first run of a request builds it (``BuildGraph``: Grappler, pruning,
partitioning) and later runs reuse it, even after an extension (``ExtendLocked`` leaves ``executors_`` alone).

The graph of one size holds a chain of ``n`` ops (placeholders ``x``, ``c``; a constant ``w``) and, beside it, a
1-op node ``s = sin(x)``. Measured, each after warm-up:

=====================  ==============================================================================================
``steady``             the chain's last node, run again and again: nothing new
``extension``          add one node nothing fetches, then run ``s`` (which ran before); minus a steady run of ``s``
``new fetch``          run a node never fetched and not fed (``sin`` of the chain's end: ``n + 1`` ops); no edit
``both``               add ``sin`` of the chain's end and run it: the extension and an executor for ``n + 1`` ops
=====================  ==============================================================================================

Executors are counted where ``session.py`` hands a run to TensorFlow's C API (``Session._do_run``, after it has
dropped every fetch that is also fed): each request the session has not handed over before is one executor built.
The per-op cost of a steady run is the slope of the run's time against ``n`` (:meth:`TF1Sweep.per_op`), not a run
divided by ``n``: a run has a fixed cost of its own. TensorFlow is imported (quietly) only when something is timed.

>>> line([10, 20, 30], [1.0, 2.0, 3.0])  # the per-op slope, and the fixed cost of a run
(0.1, 0.0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ... import i18n
from ...adapters.loader import load_tensorflow
from ...i18n import N_, Plural, Said, say
from ...i18n import gettext as _
from ...measure import Measurement, fmt_seconds, measure
from .chains import C, W, X, chain_from
from .progress import Progress, ticker
from .tables import Table

__all__ = ["COLUMNS", "Requests", "TF1Costs", "TF1Sweep", "edits_batched", "line", "tf1_costs", "tf1_steps",
           "tf1_sweep", "tf1_table"]

#: The columns of :func:`tf1_table` after the graph's size, by key (shown with ``_(COLUMNS[key])``).
COLUMNS = {"steady": N_("steady run of the chain"), "extension": N_("extension alone"),
           "new_fetch": N_("new fetch (n + 1 ops)"), "both": N_("extend + new fetch (n + 1 ops)")}
CHAIN = Plural("chain of {ops} op", "chain of {ops} ops")
TOO_SHORT = N_("tf1_costs needs a chain of at least 2 ops, got n={n}")
#: What the counting cell prints for one size: the graph's nodes before and after the timing, then the executors
#: built (``BUILT``) by each kind of run; the new requests only where they were measured.
COUNTS = N_("{chain} (graph of {before} → {after} nodes): executors built by steady runs {steady}, by extensions "
            "{extension}")
COUNTS_NEW = N_("{counts}, by new fetches of {fetched} ops {new_fetch}, by extend + new fetch {both}")
BUILT = Plural("{built} in {runs} run", "{built} in {runs} runs")
PER_OP = N_("A steady run costs about {fixed} plus {slope} per op of the chain (the median slope between the "
            "{sizes} sizes, {first} to {last} ops, robust to one noisy size).")
GROWTH = N_("The extension alone went from {first} at {n_first} ops to {last} at {n_last} ops: {ratio}× for {size}× "
            "the ops.")


@dataclass
class TF1Costs:
    """One graph size: the timings, the graph's node counts and the executors the runs built.

    ``executors[key] = (built, runs)`` for each key of :data:`COLUMNS` that was measured (``steady`` covers the
    chain's and ``s``'s steady runs, ``extension`` the edit-then-run calls). ``new_fetch_s`` and ``both_s`` are
    None for a size measured without them."""

    n: int
    steady_s: Measurement
    one_op_s: Measurement
    extend_s: Measurement
    new_fetch_s: Measurement | None
    both_s: Measurement | None
    nodes: tuple[int, int]
    executors: dict[str, tuple[int, int]]
    fetched_ops: int | None = None

    @property
    def extension_s(self) -> float:
        """The extension alone: (add a node, run ``s``) minus a steady run of ``s``, from the medians."""
        return self.extend_s.median - self.one_op_s.median

    @property
    def chain(self) -> str:
        return str(say(CHAIN, ops=i18n.number(self.n, spec=","), n=self.n))

    def cells(self) -> tuple[str, ...]:
        """The row of :func:`tf1_table`: the chain, then each cost as "median (quartiles)"."""
        shift = self.one_op_s.median  # the extension's quartiles: those of its edit-then-run calls, less the run
        alone = spread_text(self.extension_s, self.extend_s.low - shift, self.extend_s.high - shift)
        return (self.chain, spread_of(self.steady_s), alone, spread_of(self.new_fetch_s), spread_of(self.both_s))

    def counts(self) -> str:
        """What does not vary from machine to machine: the graph's nodes, and the executors each kind of run built
        (each ``built in runs``)."""
        said = {k: str(say(BUILT, built=i18n.number(b, spec=","), runs=i18n.number(r, spec=","), n=r))
                for k, (b, r) in self.executors.items()}
        line = _(COUNTS).format(chain=self.chain, before=i18n.number(self.nodes[0], spec=","),
                                after=i18n.number(self.nodes[1], spec=","), **said)
        if self.fetched_ops is None:
            return line
        return _(COUNTS_NEW).format(counts=line, fetched=i18n.number(self.fetched_ops, spec=","), **said)


def spread_text(median: float, low: float, high: float) -> str:
    """A median and its quartiles (the middle half of the rounds), the unit written once when they share it.

    >>> spread_text(1.3e-3, 1.2e-3, 1.5e-3), spread_text(1.3e-3, 900e-6, 1.5e-3)
    ('1.3 ms (1.2–1.5)', '1.3 ms (900 µs–1.5 ms)')
    """
    texts = [fmt_seconds(t) for t in (median, low, high)]
    units = {t.rsplit(" ", 1)[-1] for t in texts}
    if len(units) == 1:
        return f"{texts[0]} ({texts[1].rsplit(' ', 1)[0]}–{texts[2].rsplit(' ', 1)[0]})"
    return f"{texts[0]} ({texts[1]}–{texts[2]})"


def spread_of(m: Measurement | None) -> str:
    return "—" if m is None else spread_text(m.median, m.low, m.high)


def tf1_table(costs: list[TF1Costs]) -> Table:
    """One row per graph size; a cell is a median and, in brackets, its spread (the quartiles of its rounds)."""
    return Table([_("TF1 Session: median (spread)"), *(_(c) for c in COLUMNS.values())],
                 [c.cells() for c in costs])


def line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """The line ``y = slope · x + intercept`` through the points, robust to one noisy point (Siegel's repeated
    median): for each point, the median of its slopes to the others; the slope is the median of those, and the
    intercept the median of ``y - slope · x``.

    >>> line([10, 300, 1000, 3000], [0.203, 0.29, 0.5, 5.0])  # the last point is far off the line 0.2 + 0.0003 x
    (0.0003, 0.2)
    """
    import statistics

    points = list(zip(xs, ys))
    slope = statistics.median(statistics.median((yb - ya) / (xb - xa) for xb, yb in points if xb != xa)
                              for xa, ya in points)
    return round(slope, 12), round(statistics.median(y - slope * x for x, y in points), 12)


@dataclass
class TF1Sweep:
    """The costs at several graph sizes (:func:`tf1_sweep`)."""

    costs: list[TF1Costs] = field(default_factory=list)

    def table(self) -> Table:
        return tf1_table(self.costs)

    def per_op(self) -> tuple[float, float]:
        """``(slope, fixed)`` in seconds: one more op of the chain in a steady run, and a run's fixed cost."""
        return line([c.n for c in self.costs], [c.steady_s.median for c in self.costs])

    def per_op_sentence(self) -> Said:
        slope, fixed = self.per_op()
        return say(PER_OP, fixed=fmt_seconds(fixed), slope=fmt_seconds(slope), sizes=len(self.costs),
                   first=i18n.number(self.costs[0].n, spec=","), last=i18n.number(self.costs[-1].n, spec=","))

    def growth_sentence(self) -> Said:
        first, last = self.costs[0], self.costs[-1]
        ratio = last.extension_s / first.extension_s
        return say(GROWTH, first=fmt_seconds(first.extension_s), n_first=i18n.number(first.n, spec=","),
                   last=fmt_seconds(last.extension_s), n_last=i18n.number(last.n, spec=","),
                   ratio=i18n.number(ratio, spec=",.0f" if ratio >= 10 else ".2g"),
                   size=i18n.number(last.n / first.n, spec=",.0f"))


class Requests:
    """The requests a ``tf.compat.v1.Session`` hands to TensorFlow's C API, read where ``session.py`` does it
    (``Session._do_run``, after dropping every fetch that is also fed). A request is its sorted feeds, fetches and
    targets: the key of ``DirectSession``'s executor cache, so each request not seen before is one executor built.
    """

    def __init__(self, sess: Any) -> None:
        self.seen: set[tuple[tuple[str, ...], ...]] = set()
        self.runs = 0
        hand_over = sess._do_run

        def counted(handle: Any, targets: Any, fetches: Any, feeds: Any, *rest: Any) -> Any:
            self.runs += 1
            self.seen.add((tuple(sorted(t.deref().name for t in feeds)), tuple(sorted(t.name for t in fetches)),
                           tuple(sorted(op.name for op in targets))))
            return hand_over(handle, targets, fetches, feeds, *rest)

        sess._do_run = counted

    def during(self, fn: Callable[[], Any]) -> tuple[Any, tuple[int, int]]:
        """``fn()``'s result, and ``(executors built, runs)`` while it ran."""
        built, runs = len(self.seen), self.runs
        out = fn()
        return out, (len(self.seen) - built, self.runs - runs)


def tf1_costs(n: int, repeat: int = 5, number: int = 2, new_requests: bool = True,
              progress: Progress | None = None) -> TF1Costs:
    """The costs of :data:`COLUMNS` on one ``tf.Graph`` holding a chain of ``n`` ops (``n >= 2``) and ``s``; the
    new fetches and extend + new fetch only when ``new_requests``. Each timed call of a change makes one edit or
    one new request (``repeat`` rounds of ``number`` calls, after one warm-up call)."""
    if int(n) < 2:
        raise ValueError(say(TOO_SHORT, n=n))
    tf = load_tensorflow()
    tick = ticker(progress)
    calls = 1 + repeat * number  # warm-up included: each one a new node or a new request
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=(), name="x")
        c = tf.compat.v1.placeholder(tf.float64, shape=(), name="c")
        w = tf.constant(W, dtype=tf.float64, name="w")
        y = chain_from(tf.math, x, w, c, 0, int(n))
        s = tf.sin(x, name="s")
        # nodes never fetched, each needing the whole chain: made now, so the graph does not change when they run
        never_fetched = [tf.sin(y, name=f"new_fetch_{k}") for k in range(calls if new_requests else 0)]
        sess = tf.compat.v1.Session(graph=g)
    requests = Requests(sess)
    feeds = {x: X, c: C}
    sess.run(y, feeds), sess.run(s, feeds)
    fresh: Iterator[Any] = iter(never_fetched)
    before = len(g.get_operations())
    tick(_("steady runs"))
    # a fixed number of calls per round, so the counts printed beside the timings are the same on every machine
    (steady, one_op), ran = requests.during(lambda: (
        measure(lambda: sess.run(y, feeds), repeat=repeat, number=20, warmup=20),
        measure(lambda: sess.run(s, feeds), repeat=repeat, number=20, warmup=20)))
    executors = {"steady": ran}

    def add_node(after: Any) -> Any:
        with g.as_default():
            return tf.sin(after)

    tick(_("extensions"))
    extend, executors["extension"] = requests.during(
        lambda: measure(lambda: (add_node(x), sess.run(s, feeds)), repeat=repeat, number=number))
    new_fetch = both = fetched = None
    if new_requests:
        tick(_("new fetches"))
        fetched = len(ops_needed(never_fetched[0].op))
        new_fetch, executors["new_fetch"] = requests.during(
            lambda: measure(lambda: sess.run(next(fresh), feeds), repeat=repeat, number=number))
        tick(_("extend + new fetch"))
        both, executors["both"] = requests.during(
            lambda: measure(lambda: sess.run(add_node(y), feeds), repeat=repeat, number=number))
    tick()
    after = len(g.get_operations())
    sess.close()
    return TF1Costs(int(n), steady, one_op, extend, new_fetch, both, (before, after), executors, fetched)


def ops_needed(op: Any) -> set[Any]:
    """The ops a fetch of ``op`` runs: ``op`` and everything it depends on, placeholders and constants excluded."""
    seen, todo = set(), [op]
    while todo:
        o = todo.pop()
        if o in seen or o.type in ("Placeholder", "Const"):
            continue
        seen.add(o)
        todo += [t.op for t in o.inputs] + list(o.control_inputs)
    return seen


def tf1_sweep(sizes: tuple[int, ...] = (10, 300, 1_000, 3_000), full: tuple[int, ...] = (10, 1_000),
              repeat: int = 5, number: int = 2, progress: Progress | None = None) -> TF1Sweep:
    """:func:`tf1_costs` at each size (smallest first), the new requests only at the sizes in ``full``."""
    return TF1Sweep([tf1_costs(n, repeat, number, n in full, progress) for n in sorted(sizes)])


def tf1_steps(sizes: tuple[int, ...] = (10, 300, 1_000, 3_000), full: tuple[int, ...] = (10, 1_000)) -> int:
    """How many times :func:`tf1_sweep` ticks its progress bar."""
    return sum(5 if n in full else 3 for n in sizes)


def edits_batched(n: int = 300, edits: int = 100) -> tuple[float, float]:
    """Seconds spent on a graph holding a chain of ``n`` ops, whose 1-op fetch ``s`` ran before: (1) add ``edits``
    nodes nothing fetches, then run ``s`` once; (2) ``edits`` times over, add one such node, then run ``s``. Each
    run after a change pays one extension (exercise 05.6 asks which costs more)."""
    import time

    tf = load_tensorflow()
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=(), name="x")
        c = tf.compat.v1.placeholder(tf.float64, shape=(), name="c")
        chain_from(tf.math, x, tf.constant(W, dtype=tf.float64), c, 0, int(n))
        s = tf.sin(x, name="s")
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(s, {x: X})

        def add_node() -> None:
            with g.as_default():
                tf.sin(x)

        t0 = time.perf_counter()
        for _k in range(edits):
            add_node()
        sess.run(s, {x: X})
        batched = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _k in range(edits):
            add_node()
            sess.run(s, {x: X})
        return batched, time.perf_counter() - t0
