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

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ... import i18n
from ...adapters.loader import load_tensorflow
from ...i18n import N_, Plural, Said, say
from ...i18n import gettext as _
from ...measure import Measurement, fmt_seconds, measure, summarize
from .chains import C, W, X, chain_from
from .progress import Progress, ticker
from .tables import Table

__all__ = ["COLUMNS", "Requests", "TF1Costs", "TF1Sweep", "edits_batched", "line", "no_gc", "tf1_costs", "tf1_steps",
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

    points = list(zip(xs, ys, strict=True))
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


@dataclass
class _Setup:
    """One size: its graph (a chain of ``n`` ops ending in ``y``, and ``s = sin(x)``), its session, the nodes its
    new fetches will run, and the requests its session hands to the runtime."""

    n: int
    graph: Any
    sess: Any
    x: Any
    y: Any
    s: Any
    feeds: dict[Any, float]
    never_fetched: list[Any]
    requests: Requests

    def add_node(self, after: Any) -> Any:
        """One new node, ``sin(after)``: the graph grows by one op."""
        with self.graph.as_default():
            return load_tensorflow().sin(after)

    def ops(self) -> int:
        return len(self.graph.get_operations())


def _build(tf: Any, n: int, new_fetches: int) -> _Setup:
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=(), name="x")
        c = tf.compat.v1.placeholder(tf.float64, shape=(), name="c")
        y = chain_from(tf.math, x, tf.constant(W, dtype=tf.float64, name="w"), c, 0, int(n))
        s = tf.sin(x, name="s")
        # nodes never fetched, each needing the whole chain: made now, so the graph does not change when they run
        never_fetched = [tf.sin(y, name=f"new_fetch_{k}") for k in range(new_fetches)]
        sess = tf.compat.v1.Session(graph=g)
    setup = _Setup(int(n), g, sess, x, y, s, {x: X, c: C}, never_fetched, Requests(sess))
    sess.run(y, setup.feeds), sess.run(s, setup.feeds)
    return setup


@contextmanager
def no_gc() -> Iterator[None]:
    """Python's garbage collector off while timing (as ``timeit`` does): a collection walks every live object, and
    the other sizes' graphs hold hundreds of thousands of them, so it would charge a small graph for a large one."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _interleaved(setups: list[_Setup], call: Callable[[_Setup], Callable[[], Any]], repeat: int, number: int,
                 warmup: int) -> list[tuple[Measurement, tuple[int, int]]]:
    """Time ``call(setup)`` at every size, the rounds taken in turn (size 1, size 2, ..., then size 1 again), so a
    busy spell of the machine falls on every size alike; per size, the measurement and ``(executors built, runs)``."""
    import time

    calls = [call(u) for u in setups]
    before = [(len(u.requests.seen), u.requests.runs) for u in setups]
    rounds: list[list[float]] = [[] for _u in setups]
    with no_gc():
        for fn in calls:
            for _k in range(warmup):
                fn()
        for _round in range(repeat):
            for k, fn in enumerate(calls):
                t0 = time.perf_counter()
                for _k in range(number):
                    fn()
                rounds[k].append((time.perf_counter() - t0) / number)
    out = []
    for k, u in enumerate(setups):
        out.append((summarize(rounds[k], number),
                    (len(u.requests.seen) - before[k][0], u.requests.runs - before[k][1])))
    return out


def tf1_sweep(sizes: tuple[int, ...] = (10, 300, 1_000, 3_000), full: tuple[int, ...] = (10, 1_000),
              repeat: int = 5, number: int = 2, progress: Progress | None = None) -> TF1Sweep:
    """The costs of :data:`COLUMNS` on one ``tf.Graph`` per size (a chain of ``n`` ops, ``n >= 2``, and ``s``),
    smallest first; the new fetches and extend + new fetch only at the sizes in ``full``. The steady runs are timed
    in turns across the sizes (a slope is read across them, so a busy spell must fall on every size alike); each
    timed call of a change makes one edit or one new request (``repeat`` rounds of ``number`` calls, after one
    warm-up call), one size after the other."""
    for n in sizes:
        if int(n) < 2:
            raise ValueError(say(TOO_SHORT, n=n))
    tf = load_tensorflow()
    tick = ticker(progress)
    calls = 1 + repeat * number  # warm-up included: each one a new node or a new request
    setups = []
    for n in sorted(sizes):
        tick(str(say(CHAIN, ops=i18n.number(n, spec=","), n=n)))
        setups.append(_build(tf, n, calls if n in full else 0))
    before = [u.ops() for u in setups]
    tick(_("steady runs"))
    # a fixed number of calls per round, so the counts printed beside the timings are the same on every machine
    steady = _interleaved(setups, lambda u: lambda: u.sess.run(u.y, u.feeds), repeat, 20, 20)
    one_op = _interleaved(setups, lambda u: lambda: u.sess.run(u.s, u.feeds), repeat, 20, 20)
    costs = []
    for k, u in enumerate(setups):
        # one size after the other: an extension right after a large graph's would pay for the caches that one
        # filled (measured: about twice the time on a graph of 10 ops), so extensions are not taken in turns
        tick(_("extensions"))
        with no_gc():
            extend, ran = u.requests.during(
                lambda u=u: measure(lambda: (u.add_node(u.x), u.sess.run(u.s, u.feeds)), repeat=repeat,
                                    number=number))
        executors = {"steady": tuple(a + b for a, b in zip(steady[k][1], one_op[k][1], strict=True)), "extension": ran}
        new_fetch = both = fetched = None
        if u.never_fetched:
            tick(_("new fetches"))
            fetched = len(ops_needed(u.never_fetched[0].op))
            fresh: Iterator[Any] = iter(u.never_fetched)
            with no_gc():
                new_fetch, executors["new_fetch"] = u.requests.during(
                    lambda u=u, fresh=fresh: measure(lambda: u.sess.run(next(fresh), u.feeds), repeat=repeat,
                                                     number=number))
            tick(_("extend + new fetch"))
            with no_gc():
                both, executors["both"] = u.requests.during(
                    lambda u=u: measure(lambda: u.sess.run(u.add_node(u.y), u.feeds), repeat=repeat, number=number))
        costs.append(TF1Costs(u.n, steady[k][0], one_op[k][0], extend, new_fetch, both, (before[k], u.ops()),
                              executors, fetched))
        u.sess.close()
    tick()
    return TF1Sweep(costs)


def tf1_costs(n: int, repeat: int = 5, number: int = 2, new_requests: bool = True,
              progress: Progress | None = None) -> TF1Costs:
    """:func:`tf1_sweep` at one size: the new fetches and extend + new fetch only when ``new_requests``."""
    return tf1_sweep((n,), (n,) if new_requests else (), repeat, number, progress).costs[0]


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


def tf1_steps(sizes: tuple[int, ...] = (10, 300, 1_000, 3_000), full: tuple[int, ...] = (10, 1_000)) -> int:
    """How many times :func:`tf1_sweep` ticks its progress bar."""
    return 2 * len(sizes) + 2 + 2 * len(set(full) & set(sizes))


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
