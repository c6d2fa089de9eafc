"""The cost of compiling: what a graph change costs, what a run costs, and after how many runs compiling pays.

Answer 1 of the Q&A compares TensorFlow to a compiler and PyTorch/numpy to an interpreter. In numbers, with
``C`` the one-off cost of turning a graph into something runnable (TensorFlow 1: extending the session and
building an executor; ``tf.function``: tracing; ``torch.compile``: capturing, maybe compiling; our static engine:
:func:`course_lib.static.compile_plan`), ``s`` the cost of one compiled run and ``e`` the cost of one eager
(interpreted) run of the same computation::

    compiled, n runs:   C + n · s          eager, n runs:   n · e
    break-even:         n* = ceil(C / (e - s))   when e > s, else compiling never pays (see :func:`break_even`)

Every experiment below returns its timings (which vary from run to run: notebooks mark them
``NBVAL_IGNORE_OUTPUT``) *and* counts that are the same on every machine (compiles, traces, captured graphs,
graph sizes), which the notebooks assert. Repeat counts are small on purpose: each experiment takes a few
seconds on two cores. TensorFlow and PyTorch are imported only inside the experiments that need them.

>>> costs = engine_costs(n=8, repeat=2)
>>> costs.compiles_after_runs, costs.compiles_after_edits - costs.compiles_after_runs == costs.edits
(1, True)
>>> break_even(compile_s=2e-3, compiled_run_s=10e-6, eager_run_s=50e-6)
50
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Self

import numpy as np

from .. import dynamic as dy
from .. import static as st
from ..measure import Measurement, fmt_seconds, measure, stamp

__all__ = [
    "CLAIMS_2017",
    "BreakEven",
    "EngineCosts",
    "Progress",
    "StaticChain",
    "TF1Costs",
    "TFFunctionCosts",
    "Table",
    "TorchCompileCosts",
    "break_even",
    "break_even_experiment",
    "chain",
    "engine_costs",
    "per_op_costs",
    "plot_break_even",
    "plot_per_op",
    "stamp_line",
    "tf1_costs",
    "tf_function_costs",
    "then_and_now",
    "torch_compile_costs",
]

#: The figures Answer 1 gave in 2017 (seconds).
CLAIMS_2017 = {"graph change": 200e-6, "op": 1e-6}
X, W, C = 0.3, 1.1, 0.2  # inputs of every chain


def _tf() -> Any:
    """TensorFlow, imported quietly (no C++ log lines on stderr: they would differ between runs)."""
    from ..adapters.frameworks import load_tensorflow

    return load_tensorflow()


def _torch() -> Any:
    from ..adapters.frameworks import load_torch

    return load_torch()


@contextmanager
def _tf_quiet(tf: Any) -> Iterator[None]:
    """While timing fresh tf.functions on purpose, silence TensorFlow's "triggered tf.function retracing" warning
    (it is the lesson, shown in the notebook where it belongs, not noise inside a measurement)."""
    logger = tf.get_logger()
    level = logger.level
    logger.setLevel("ERROR")
    try:
        yield
    finally:
        logger.setLevel(level)


# ---------------------------------------------------------------------------------------------- progress
class Progress:
    """A progress bar for a measurement (an ipywidgets ``IntProgress``; silent where widgets are missing).

    >>> with Progress(3, "demo") as bar:
    ...     bar.tick(); bar.tick(); bar.tick()
    >>> bar.done
    3
    """

    def __init__(self, total: int, label: str = "measuring") -> None:
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self._bar: Any = None

    def __enter__(self) -> Self:
        try:
            import ipywidgets as W
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:
            return self
        if get_ipython() is None:
            return self
        self._bar = W.IntProgress(value=0, min=0, max=self.total, description=self.label,
                                  style={"description_width": "initial"}, layout=W.Layout(width="min(100%, 560px)"))
        display(self._bar)
        return self

    def tick(self, what: str | None = None) -> None:
        """One step done (``what``: what comes next, shown on the bar)."""
        self.done += 1
        if self._bar is not None:
            self._bar.value = min(self.done, self.total)
            if what:
                self._bar.description = f"{self.label}: {what}"

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.value = self.total
            self._bar.bar_style = "success" if exc[0] is None else "danger"
            self._bar.description = f"{self.label}: done" if exc[0] is None else f"{self.label}: failed"


def _ticker(progress: Progress | None) -> Callable[[str], None]:
    return (lambda what="": progress.tick(what)) if progress is not None else (lambda what="": None)


def stamp_line() -> str:
    """Versions and hardware in one line, printed under every table and plot of measured numbers."""
    s = stamp()
    libs = ", ".join(f"{k} {s[k]}" for k in ("python", "numpy", "tensorflow", "torch") if k in s)
    return f"measured with {libs} on {s.get('cpu', s.get('machine', '?'))} ({s.get('cpus', '?')} CPUs)"


# ---------------------------------------------------------------------------------------------- the workload
def chain(ops: Any, x: Any, w: Any, c: Any, n: int) -> Any:
    """``n`` scalar ops in a row, cycling sin, ·w, +c, tanh (nothing to fold, nothing shared).

    Works with any ``ops`` that has ``sin`` and ``tanh``: numpy, ``torch``, ``tf.math``, our two engines.

    >>> float(chain(np, 0.3, 1.1, 0.2, 2)) == float(np.sin(0.3) * 1.1)
    True
    """
    y = x
    for k in range(int(n)):
        r = k % 4
        if r == 0:
            y = ops.sin(y)
        elif r == 1:
            y = y * w
        elif r == 2:
            y = y + c
        else:
            y = ops.tanh(y)
    return y


class StaticChain:
    """The chain in our define-then-run engine, built in name scopes of ``block`` ops (for drawing), plus a
    Session. ``add_node()`` appends one op after the current output: the graph changed, so the next run compiles.
    """

    def __init__(self, n: int, block: int = 8) -> None:
        self.n = int(n)
        self.graph = st.Graph(f"chain of {self.n} ops")
        with self.graph.as_default():
            self.x, self.c = st.placeholder("x"), st.placeholder("c")
            self.w = st.Variable(W, name="w")
            y = self.x
            for start in range(0, self.n, block):
                size = min(block, self.n - start)
                with st.name_scope(f"ops {start + 1}-{start + size}"):
                    y = _chain_from(st, y, self.w, self.c, start, size)
        self.y = y
        self.session = st.Session(self.graph)
        self.edits = 0

    @property
    def feeds(self) -> dict[st.Tensor, float]:
        return {self.x: X, self.c: C}

    def run(self) -> float:
        return float(self.session.run(self.y, self.feeds))

    def add_node(self) -> st.Tensor:
        """Append one op (the next of the cycle) after the output and make it the new output."""
        with self.graph.as_default(), st.name_scope("added"):
            self.y = _chain_from(st, self.y, self.w, self.c, self.n + self.edits, 1)
        self.edits += 1
        return self.y

    def compile_only(self) -> st.Plan:
        """Compile the current fetch without running it (what the first run of a new graph pays)."""
        return st.compile_plan(self.graph, [self.y.node], [self.x.node, self.c.node])


def _chain_from(ops: Any, y: Any, w: Any, c: Any, start: int, n: int) -> Any:
    for k in range(start, start + n):
        r = k % 4
        y = ops.sin(y) if r == 0 else y * w if r == 1 else y + c if r == 2 else ops.tanh(y)
    return y


def _dynamic_chain(n: int) -> Callable[[], dy.Tensor]:
    x, w, c = dy.Tensor(X, requires_grad=True), dy.Parameter(W, name="w"), dy.Tensor(C)
    return lambda: chain(dy, x, w, c, n)


# ---------------------------------------------------------------------------------------------- our engines
@dataclass
class EngineCosts:
    """Our two engines on the same chain of ``n`` ops (timings in seconds, counts exact)."""

    n: int
    compile_s: Measurement
    static_run_s: Measurement
    dynamic_run_s: Measurement
    edit_and_run_s: Measurement
    runs: int
    compiles_after_runs: int
    edits: int
    compiles_after_edits: int
    dynamic_nodes_per_run: int
    plan_source: str
    plan_report: dict[str, int]

    def table(self) -> Table:
        return Table([f"our engines, chain of {self.n} ops", "time"], [
            ("static engine: compile the graph (once)", fmt_seconds(self.compile_s.median)),
            ("static engine: one run of the compiled plan", fmt_seconds(self.static_run_s.median)),
            ("dynamic engine: one run (records the graph again)", fmt_seconds(self.dynamic_run_s.median)),
            ("static engine: add a node, recompile, run", fmt_seconds(self.edit_and_run_s.median)),
            ("break-even: runs after which compiling pays",
             _runs(break_even(self.compile_s.median, self.static_run_s.median, self.dynamic_run_s.median))),
        ])


def engine_costs(n: int = 100, repeat: int = 5, progress: Progress | None = None) -> EngineCosts:
    """Compile once then run (static) vs record on every run (dynamic), and what one graph edit costs."""
    tick = _ticker(progress)
    sc = StaticChain(n)
    sc.run()  # the first run compiles
    compile_s = measure(sc.compile_only, repeat=repeat, budget=0.1)
    tick("static runs")
    static_run_s = measure(sc.run, repeat=repeat, budget=0.1)
    runs = 1 + 1 + repeat * static_run_s.number  # first run, measure's warm-up, the timed runs
    compiles_after_runs = sc.session.compile_count
    tick("dynamic runs")
    dyn = _dynamic_chain(n)
    dynamic_run_s = measure(dyn, repeat=repeat, budget=0.1)
    dynamic_nodes = len(dyn().graph().nodes)
    tick("graph edits")

    def edit_and_run() -> None:
        sc.add_node()
        sc.run()

    number = 10
    edit_s = measure(edit_and_run, repeat=repeat, number=number, warmup=1)
    tick()
    return EngineCosts(n, compile_s, static_run_s, dynamic_run_s, edit_s, runs, compiles_after_runs,
                       sc.edits, sc.session.compile_count, dynamic_nodes, StaticChain(min(n, 6)).compile_only()
                       .source(), dict(StaticChain(n).compile_only().report))


# ---------------------------------------------------------------------------------------------- TensorFlow 1
@dataclass
class TF1Costs:
    """A TF1 ``Session`` (``tf.compat.v1``) on a chain of ``n`` ops: steady runs vs runs after a change."""

    n: int
    steady_s: Measurement
    new_fetch_s: Measurement
    add_node_and_run_s: Measurement
    ops_before: int
    ops_after: int
    edits: int
    new_fetches: int

    @property
    def per_op_s(self) -> float:
        """A steady run divided by the number of ops: the cost of one op "in a previously defined graph"."""
        return self.steady_s.median / self.n

    def table(self) -> Table:
        return Table([f"TF1 Session, chain of {self.n} ops", "time"], [
            ("steady Session.run (same fetch, same graph)", fmt_seconds(self.steady_s.median)),
            ("  … per op of the graph", fmt_seconds(self.per_op_s)),
            ("first run of a tensor never fetched before (graph unchanged)", fmt_seconds(self.new_fetch_s.median)),
            ("add one node, then run it", fmt_seconds(self.add_node_and_run_s.median)),
        ])


def tf1_costs(n: int = 100, repeat: int = 5, progress: Progress | None = None) -> TF1Costs:
    """Steady ``Session.run`` vs the first run of a new fetch vs add-a-node-and-run, in one ``tf.Graph``."""
    tf = _tf()
    tick = _ticker(progress)
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=(), name="x")
        c = tf.compat.v1.placeholder(tf.float64, shape=(), name="c")
        w = tf.constant(W, dtype=tf.float64, name="w")
        steps = [x]
        for k in range(n):
            steps.append(_chain_from(tf.math, steps[-1], w, c, k, 1))
        sess = tf.compat.v1.Session(graph=g)
    y = steps[-1]
    feeds = {x: X, c: C}
    sess.run(y, feeds)
    tick("steady runs")
    steady = measure(lambda: sess.run(y, feeds), repeat=repeat, budget=0.15)
    tick("new fetches")
    # tensors never fetched yet, from the end of the chain (each needs about as many ops as the fetch of y):
    # each first run builds a new executor, although the graph does not change
    fresh = iter(steps[-2:0:-1])
    number = max(1, min(4, (n - 2) // (repeat + 1)))
    new_fetch = measure(lambda: sess.run(next(fresh), feeds), repeat=repeat, number=number, warmup=1)
    tick("graph edits")
    ops_before = len(g.get_operations())
    state = {"y": y, "edits": 0}

    def add_node_and_run() -> None:
        with g.as_default():
            state["y"] = tf.sin(state["y"])
        state["edits"] += 1
        sess.run(state["y"], feeds)

    edit = measure(add_node_and_run, repeat=repeat, number=4, warmup=1)
    tick()
    ops_after = len(g.get_operations())
    sess.close()
    return TF1Costs(n, steady, new_fetch, edit, ops_before, ops_after, state["edits"], (repeat * number) + 1)


# ---------------------------------------------------------------------------------------------- one op, eagerly
def per_op_costs(repeat: int = 5, progress: Progress | None = None) -> dict[str, Any]:
    """The cost of ONE ``sin`` on a float64 scalar, run at once: numpy, PyTorch eager, TensorFlow eager, and our
    dynamic engine; plus facts that hold on every machine (what each call leaves behind)."""
    tf, torch = _tf(), _torch()
    tick = _ticker(progress)
    xn = np.float64(X)
    xt = torch.tensor(X, dtype=torch.float64)
    xg = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    xf = tf.constant(X, dtype=tf.float64)
    xd = dy.Tensor(X, requires_grad=True)
    out: dict[str, Any] = {}
    for label, fn in (("numpy", lambda: np.sin(xn)), ("PyTorch eager", lambda: torch.sin(xt)),
                      ("PyTorch eager, recording autograd", lambda: torch.sin(xg)),
                      ("TensorFlow eager", lambda: tf.sin(xf)), ("our dynamic engine", lambda: dy.sin(xd))):
        tick(label)
        out[label] = measure(fn, repeat=repeat, budget=0.08)
    from ..adapters.torch import count_autograd_nodes

    out["facts"] = {
        "tensorflow executes eagerly": bool(tf.executing_eagerly()),
        "TF eager result already has its value": bool(np.isclose(tf.sin(xf).numpy(), np.sin(X))),
        "torch result records no graph without requires_grad": torch.sin(xt).grad_fn is None,
        "autograd nodes behind torch.sin(x) with requires_grad": count_autograd_nodes(torch.sin(xg)),
        "nodes our dynamic engine records for sin(x)": len(dy.sin(xd).graph().nodes),
    }
    tick()
    return out


def plot_per_op(costs: dict[str, Any], extra: dict[str, float] | None = None) -> Any:
    """A horizontal bar chart (log scale) of per-op costs, with the Q&A's "1 µs" as a line."""
    import matplotlib.pyplot as plt

    rows = [(k, v.median) for k, v in costs.items() if isinstance(v, Measurement)] + list((extra or {}).items())
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.6))
    ax.barh([r[0] for r in rows], [r[1] * 1e6 for r in rows], color="#0072B2")
    ax.axvline(1.0, color="#D55E00", linestyle="--")
    ax.set_ylim(len(rows) - 0.5, -1.3)  # room above the first bar for the label of the 2017 line
    ax.text(0.92, -0.85, "Answer 1 (2017): “as low as 1 µs” →", color="#A23B00", fontsize=9, va="center", ha="right")
    ax.set_xscale("log")
    ax.set_xlim(left=0.05)
    ticks = [t for t in (0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000) if t <= 2 * max(r[1] * 1e6 for r in rows)]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel("µs per op (log scale)")
    ax.set_title("One op, run at once", loc="left")
    fig.text(0.01, 0.005, stamp_line(), fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    plt.close(fig)
    return fig


# ---------------------------------------------------------------------------------------------- tf.function
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
        return Table(["tf.function(lambda x: tf.sin(x) * 2.0)", "time"], [
            ("first call: trace the Python function into a graph, then run it", fmt_seconds(self.first_call_s.median)),
            ("steady call: same input signature, graph reused", fmt_seconds(self.steady_s.median)),
            ("call with a new shape: trace again (retrace)", fmt_seconds(self.retrace_s.median)),
            ("the same two ops eagerly (no tf.function)", fmt_seconds(self.eager_s.median)),
        ])


def tf_function_costs(repeat: int = 5, progress: Progress | None = None) -> TFFunctionCosts:
    """Trace counts after each phase (``experimental_get_tracing_count``) and the time of each phase."""
    tf = _tf()
    tick = _ticker(progress)

    def small(x: Any) -> Any:
        return tf.sin(x) * tf.constant(2.0, tf.float64)

    x = tf.constant(X, dtype=tf.float64)
    firsts = []
    with _tf_quiet(tf):
        for _ in range(repeat):  # a first call can only happen once per function: time `repeat` fresh ones
            f = tf.function(small)
            t0 = time.perf_counter()
            f(x)
            firsts.append(time.perf_counter() - t0)
        tick("steady calls")
        traces = {"after the first call": f.experimental_get_tracing_count()}
        steady = measure(lambda: f(x), repeat=repeat, budget=0.1)
        traces["after many calls with the same signature"] = f.experimental_get_tracing_count()
        tick("retraces")
        retraces = []
        for k in range(2, 2 + repeat):  # a vector of a length never seen before: a new graph each time
            v = tf.constant(np.full(k, X), dtype=tf.float64)
            t0 = time.perf_counter()
            f(v)
            retraces.append(time.perf_counter() - t0)
        traces[f"after {repeat} calls with new shapes"] = f.experimental_get_tracing_count()
    tick("eager")
    eager = measure(lambda: small(x), repeat=repeat, budget=0.1)
    graph_ops = len(f.get_concrete_function(x).graph.get_operations())
    tick()
    return TFFunctionCosts(_from_samples(firsts), steady, _from_samples(retraces), eager, traces, graph_ops)


def _from_samples(samples: list[float]) -> Measurement:
    """A Measurement of single-call samples (first calls cannot be repeated in a loop)."""
    q = np.percentile(samples, [25, 50, 75])
    return Measurement(float(q[1]), float(q[0]), float(q[2]), len(samples), 1)


# ---------------------------------------------------------------------------------------------- torch.compile
@dataclass
class TorchCompileCosts:
    """``torch.compile`` on a small function: capture (first call), steady call, recompile on a new shape."""

    backend: str
    fallback_reason: str | None
    first_call_s: Measurement
    steady_s: Measurement
    recompile_s: float
    eager_s: Measurement
    graphs: dict[str, int]
    fx_nodes: int
    capture: Any = field(repr=False, default=None)

    @property
    def first_graph(self) -> Any:
        """The first FX graph Dynamo captured and kept (a ``torch.fx.GraphModule``)."""
        return _kept(self.capture)[0]

    def table(self) -> Table:
        return Table([f"torch.compile(…, backend={self.backend!r})", "time"], [
            ("first call: capture the graph (Dynamo)" + (", compile it (inductor)" if self.backend == "inductor"
                                                         else ", no code generated"),
             fmt_seconds(self.first_call_s.median)),
            ("steady call: guards pass, the captured graph is reused", fmt_seconds(self.steady_s.median)),
            ("call with a new shape: capture again (recompile)", fmt_seconds(self.recompile_s)),
            ("the same function eagerly", fmt_seconds(self.eager_s.median)),
        ])


def torch_compile_costs(inductor: bool = False, repeat: int = 5, progress: Progress | None = None
                        ) -> TorchCompileCosts:
    """Capture with a counting backend (``eager`` unless ``inductor``: then really compile, 10-30 s, needs a C++
    compiler; without one it falls back to ``aot_eager`` and says why). Graph counts after each phase."""
    torch = _torch()
    from ..adapters.torch import capture_compiled

    tick = _ticker(progress)

    def small(x: Any) -> Any:
        return torch.sin(x) * 2.0

    x = torch.tensor(X, dtype=torch.float64)
    backend = "inductor" if inductor else "eager"
    firsts = []
    for _ in range(2 if not inductor else 1):  # the very first capture also warms Dynamo up: take two
        torch._dynamo.reset()
        t0 = time.perf_counter()
        cap = capture_compiled(small, x, backend=backend)
        firsts.append(time.perf_counter() - t0)
        tick("capture")
    graphs = {"after the first call": len(_kept(cap))}
    steady = measure(lambda: cap.compiled(x), repeat=repeat, budget=0.1)
    graphs["after many calls with the same input"] = len(_kept(cap))
    tick("recompile")
    t0 = time.perf_counter()
    cap.compiled(torch.ones(3, dtype=torch.float64))
    recompile = time.perf_counter() - t0
    graphs["after a new shape (3,)"] = len(_kept(cap))
    for k in (4, 5):
        cap.compiled(torch.ones(k, dtype=torch.float64))
    graphs["after shapes (4,) and (5,)"] = len(_kept(cap))
    eager = measure(lambda: small(x), repeat=repeat, budget=0.05)
    tick()
    return TorchCompileCosts(cap.used, cap.fallback_reason, Measurement(firsts[-1], min(firsts), max(firsts),
                             len(firsts), 1), steady, recompile, eager, graphs, len(_kept(cap)[0].graph.nodes), cap)


def _kept(capture: Any) -> list[Any]:
    """The graphs a counting backend received, minus captures Dynamo abandoned and restarted.

    With inductor on a cold cache, Dynamo may call the backend, abort inside it (``TensorifyScalarRestartAnalysis``)
    and trace again; :class:`course_lib.adapters.torch.CountingBackend` records the aborted graph too, which Dynamo
    then empties. Only graphs that still have nodes were really captured.
    """
    return [g for g in capture.graphs if len(g.graph.nodes)]


# ---------------------------------------------------------------------------------------------- break-even
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


def _runs(n: int | None) -> str:
    return "never (a compiled run is not faster)" if n is None else f"{n:,} runs"


@dataclass
class BreakEven:
    """Cumulative costs for a small and a large graph: ``pairs[size][name] = (first call, later calls)``."""

    sizes: dict[str, int]
    pairs: dict[str, dict[str, tuple[float, float]]]
    traces: dict[str, int]

    def point(self, size: str, compiled: str, eager: str) -> int | None:
        c_first, c_run = self.pairs[size][compiled]
        _e_first, e_run = self.pairs[size][eager]
        return break_even(c_first - c_run, c_run, e_run)

    def table(self) -> Table:
        rows = []
        for size in self.sizes:
            for compiled, eager in _PAIRS:
                rows.append((f"{size} graph ({self.sizes[size]} ops): {compiled} vs {eager}",
                             _runs(self.point(size, compiled, eager))))
        return Table(["after how many runs does compiling pay off?", "break-even"], rows)


_PAIRS = (("tf.function", "TF eager"), ("our static engine", "our dynamic engine"))


def break_even_experiment(small: int = 2, large: int = 200, repeat: int = 3, progress: Progress | None = None
                          ) -> BreakEven:
    """For a chain of ``small`` and of ``large`` ops: first and later calls of tf.function vs TF eager, and of
    our static engine (compile + run) vs our dynamic engine. Each tf.function must trace exactly once."""
    tf = _tf()
    tick = _ticker(progress)
    xf, wf, cf = (tf.constant(v, dtype=tf.float64) for v in (X, W, C))
    sizes = {"small": int(small), "large": int(large)}
    pairs: dict[str, dict[str, tuple[float, float]]] = {}
    traces: dict[str, int] = {}
    with _tf_quiet(tf):
        tf.function(lambda: chain(tf.math, xf, wf, cf, 2))()  # warm-up: the first trace of a process costs extra
    StaticChain(2).run()
    for size, n in sizes.items():
        def eager(n: int = n) -> Any:
            return chain(tf.math, xf, wf, cf, n)

        fn = tf.function(eager)
        with _tf_quiet(tf):
            t0 = time.perf_counter()
            fn()
            first = time.perf_counter() - t0
        steady = measure(fn, repeat=repeat, budget=0.08).median
        traces[f"tf.function, {size} graph"] = fn.experimental_get_tracing_count()
        tick(f"{size}: eager")
        e = measure(eager, repeat=repeat, budget=0.08).median
        sc = StaticChain(n)
        t0 = time.perf_counter()
        sc.run()
        static_first = time.perf_counter() - t0
        static_run = measure(sc.run, repeat=repeat, budget=0.08).median
        traces[f"our static engine compiles, {size} graph"] = sc.session.compile_count
        d = measure(_dynamic_chain(n), repeat=repeat, budget=0.08).median
        pairs[size] = {"tf.function": (first, steady), "TF eager": (e, e),
                       "our static engine": (static_first, static_run), "our dynamic engine": (d, d)}
        tick(f"{size}: done")
    return BreakEven(sizes, pairs, traces)


def plot_break_even(be: BreakEven, max_runs: int = 100_000) -> Any:
    """Total time after n runs (log-log), compiled vs eager, for the small and the large graph."""
    import matplotlib.pyplot as plt

    n = np.unique(np.logspace(0, np.log10(max_runs), 200).astype(int))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    styles = {"tf.function": ("#D55E00", "-"), "TF eager": ("#D55E00", ":"),
              "our static engine": ("#0072B2", "-"), "our dynamic engine": ("#0072B2", ":")}
    for ax, size in zip(axes, be.sizes):
        for name, (first, later) in be.pairs[size].items():
            colour, ls = styles[name]
            ax.plot(n, first + (n - 1) * later, color=colour, linestyle=ls, label=name, linewidth=2)
        for compiled, eager in _PAIRS:
            k = be.point(size, compiled, eager)
            if k is not None and k <= max_runs:
                first, later = be.pairs[size][compiled]
                ax.plot([k], [first + (k - 1) * later], "o", color=styles[compiled][0], markersize=8)
                ax.annotate(f"pays off after {k:,} runs", (k, first + (k - 1) * later), textcoords="offset points",
                            xytext=(6, -14), fontsize=8, color=styles[compiled][0])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{size} graph: a chain of {be.sizes[size]} ops", loc="left")
        ax.set_xlabel("number of runs (log)")
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel("total time in seconds (log)")
    axes[0].legend(loc="upper left", fontsize=8)
    fig.text(0.01, 0.005, "solid: compile once, then run compiled; dotted: run eagerly every time.  "
             + stamp_line(), fontsize=7, color="#555555")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    plt.close(fig)
    return fig


# ---------------------------------------------------------------------------------------------- 2017 vs today
@dataclass
class Table:
    """A small table of measured numbers; HTML in Jupyter, aligned text elsewhere, stamped with versions."""

    header: list[str]
    rows: list[tuple[str, ...]]
    caption: str = field(default_factory=stamp_line)

    def _repr_html_(self) -> str:
        head = "".join(f'<th style="text-align:left;padding:3px 10px">{html.escape(h)}</th>' for h in self.header)
        body = "".join("<tr>" + "".join(f'<td style="text-align:left;padding:3px 10px">{html.escape(str(c))}</td>'
                                        for c in row) + "</tr>" for row in self.rows)
        return (f'<table style="border-collapse:collapse;font-size:14px"><thead><tr>{head}</tr></thead>'
                f'<tbody>{body}</tbody></table><div style="font-size:11px;color:#555">{html.escape(self.caption)}</div>')

    def __repr__(self) -> str:
        cols = list(zip(*([tuple(self.header)] + [tuple(map(str, r)) for r in self.rows])))
        widths = [max(len(c) for c in col) for col in cols]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
                 for row in [tuple(self.header)] + [tuple(map(str, r)) for r in self.rows]]
        return "\n".join(lines + [self.caption])


def _ratio(today: float, then: float) -> str:
    r = today / then
    if r >= 1:
        return f"{r:,.0f}× the 2017 figure" if r >= 10 else f"{r:.2g}× the 2017 figure"
    return f"{1 / r:.2g}× below the 2017 figure"


def _op_verdict(seconds: float) -> str:
    """Answer 1's "as low as 1 µs" against one measured op."""
    r = seconds / CLAIMS_2017["op"]
    if r <= 2:
        return "holds: about 1 µs"
    if r <= 10:
        return "same order: a few µs"
    return "no: well above 1 µs"


def _change_verdict(seconds: float) -> str:
    """Answer 1's "perhaps 200 µs" against one measured compile step."""
    r = seconds / CLAIMS_2017["graph change"]
    if r < 0.5:
        return "cheaper than 200 µs"
    if r <= 2:
        return "holds: about 200 µs"
    return "the penalty is larger today"


def then_and_now(engines: EngineCosts | None = None, tf1: TF1Costs | None = None,
                 per_op: dict[str, Any] | None = None, tf_fn: TFFunctionCosts | None = None,
                 torch_c: TorchCompileCosts | None = None) -> Table:
    """Answer 1's 2017 figures next to today's measurements, with a verdict per row (rows for what was measured).

    >>> then_and_now(per_op={"numpy": Measurement(0.4e-6, 0.3e-6, 0.5e-6, 5, 1000)}).rows[0][-1]
    'holds: about 1 µs'
    """
    rows: list[tuple[str, ...]] = []

    def change(what: str, claim: str, seconds: float) -> None:
        rows.append((what, claim, fmt_seconds(seconds), _ratio(seconds, CLAIMS_2017["graph change"]),
                     _change_verdict(seconds)))

    def op(what: str, claim: str, seconds: float) -> None:
        rows.append((what, claim, fmt_seconds(seconds), _ratio(seconds, CLAIMS_2017["op"]), _op_verdict(seconds)))

    if tf1 is not None:
        change("TF1: modify the graph, then run", "perhaps 200 µs", tf1.add_node_and_run_s.median)
        op("TF1: run an op in a previously defined graph", "as low as 1 µs", tf1.per_op_s)
        rows.append(("TF1: one Session.run call (whole graph)", "—", fmt_seconds(tf1.steady_s.median), "—",
                     "a fixed cost per run"))
    for label, claim in (("numpy", "as low as 1 µs"), ("PyTorch eager", "as low as 1 µs"),
                         ("PyTorch eager, recording autograd", "—"), ("TensorFlow eager", "did not exist")):
        if per_op and label in per_op:
            op(f"{label}: one op", claim, per_op[label].median)
    if tf_fn is not None:
        change("tf.function: first call (trace)", "did not exist", tf_fn.first_call_s.median)
        change("tf.function: retrace on a new shape", "did not exist", tf_fn.retrace_s.median)
    if torch_c is not None:
        change(f"torch.compile ({torch_c.backend}): first call", "did not exist", torch_c.first_call_s.median)
    if engines is not None:
        change(f"our static engine: add a node, recompile, run ({engines.n} ops)", "—",
               engines.edit_and_run_s.median)
    return Table(["what", "Answer 1 (2017)", "today, this machine", "today vs 2017", "verdict"], rows)
