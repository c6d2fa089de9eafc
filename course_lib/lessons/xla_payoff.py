"""A real compiler paying off: XLA, through ``tf.function(jit_compile=True)``, on a batched model (notebook 08).

Plain ``tf.function`` traces a graph and runs TensorFlow's ready-made kernels one op at a time; it saves Python's
overhead, not the ops' work. With ``jit_compile=True`` the traced graph goes to XLA, which (in the words of
``tf.function``'s docstring) "performs compiler optimizations, such as fusion, and attempts to emit more efficient
code": code generated for this model and these shapes, paid for once, on the first call. This module measures
that trade on a small float32 MLP (GELU layers) over a batch of a few hundred rows, three ways:

* ``TF eager``: every op runs as Python reaches it;
* ``tf.function``: traced once, TensorFlow's kernels;
* ``tf.function(jit_compile=True)``: traced once, compiled by XLA.

Each way's first call is timed on ``repeat`` fresh functions, its steady call with :func:`course_lib.measure.measure`
(medians and quartiles both). The break-even is computed from medians (:func:`break_even_calls`). Optionally,
PyTorch's ``torch.compile`` with its default backend, inductor (a C++ compiler and an opt-in flag needed).

What the notebook asserts are counts, not times: one trace per fresh function, the three outputs equal within a
tolerance, and fewer XLA kernels than graph ops (:func:`xla_kernels`). Sentences about who won are computed from
the medians and say "on this run" (:meth:`XlaPayoff.sentences`).

>>> break_even_calls(first_a=0.1, steady_a=0.001, first_b=0.01, steady_b=0.002)
91
>>> break_even_calls(first_a=0.1, steady_a=0.002, first_b=0.01, steady_b=0.002) is None
True
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..adapters.loader import load_tensorflow, load_torch
from ..adapters.quiet import captured
from ..i18n import N_, Said, ngettext, number, say
from ..i18n import gettext as _
from ..measure import Measurement, fmt_seconds, measure, stamp
from .compiling.tables import compare, measured_with

__all__ = ["EAGER", "TF_FUNCTION", "XLA", "Way", "XlaPayoff", "break_even_calls", "captured_note", "compare",
           "graph_ops", "kernel_counts", "mlp_params", "run", "tf_mlp", "torch_mlp", "xla_kernels"]

#: The ways, by their names: keys of ``XlaPayoff.ways`` (shown with ``_(name)``: "TF eager" is said in French).
EAGER, TF_FUNCTION, XLA = N_("TF eager"), "tf.function", "tf.function(jit_compile=True)"
TORCH_EAGER, INDUCTOR = N_("PyTorch eager"), "torch.compile (inductor)"
#: What happened to the optional inductor rows (``XlaPayoff.inductor``), when they did not run.
NOT_ASKED, NO_COMPILER = N_("not run (USE_INDUCTOR = False)"), N_("not run: no C++ compiler found")
#: The sentences of :meth:`XlaPayoff.sentences` on a break-even: never caught up, or caught up after ``calls``.
NEVER_CAUGHT_UP = N_("On this run, a steady {compiled} call ({steady_a}) was not cheaper than a {base} call "
                     "({steady_b}), so by the medians it never caught up.")
CAUGHT_UP = N_("On this run, by the medians, {compiled} caught up with {base} after {calls}: its first call cost "
               "{first} more, and each later call saved {saved}.")
#: Ops of a TensorFlow graph that move data in or out rather than compute (not counted by :func:`graph_ops`).
PLUMBING = frozenset({"Placeholder", "Const", "Identity", "NoOp", "ReadVariableOp", "VarHandleOp"})
#: HLO instructions that compute nothing themselves (not counted by :func:`xla_kernels`).
HLO_PLUMBING = frozenset({"parameter", "constant", "bitcast", "tuple", "get-tuple-element", "copy"})


def mlp_params(features: int = 64, hidden: int = 256, layers: int = 3, seed: int = 0
               ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Weights and biases (float32) of an MLP: ``layers`` GELU layers of ``hidden`` units, then one output unit.

    >>> [(w.shape, b.shape) for w, b in mlp_params(features=4, hidden=8, layers=2)]
    [((4, 8), (8,)), ((8, 8), (8,)), ((8, 1), (1,))]
    """
    rng = np.random.default_rng(seed)
    sizes = [features] + [hidden] * layers + [1]
    return [((rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32), np.full(b, 0.01, np.float32))
            for a, b in itertools.pairwise(sizes)]


def tf_mlp(params: list[tuple[np.ndarray, np.ndarray]]) -> Callable[[Any], Any]:
    """The MLP as a plain Python function of TensorFlow ops, its parameters held in ``tf.Variable`` s (as a model's
    are): ``gelu(x @ W + b)`` per hidden layer, then ``x @ W + b``."""
    tf = load_tensorflow()
    weights = [(tf.Variable(w), tf.Variable(b)) for w, b in params]

    def mlp(x: Any) -> Any:
        for w, b in weights[:-1]:
            x = tf.nn.gelu(tf.matmul(x, w) + b)
        w, b = weights[-1]
        return tf.matmul(x, w) + b

    return mlp


def torch_mlp(params: list[tuple[np.ndarray, np.ndarray]]) -> Callable[[Any], Any]:
    """The same MLP in PyTorch (exact GELU, like ``tf.nn.gelu``'s default), for ``torch.compile``."""
    torch = load_torch()
    weights = [(torch.from_numpy(w.copy()), torch.from_numpy(b.copy())) for w, b in params]

    def mlp(x: Any) -> Any:
        for w, b in weights[:-1]:
            x = torch.nn.functional.gelu(x @ w + b)
        w, b = weights[-1]
        return x @ w + b

    return mlp


def graph_ops(concrete: Any) -> int:
    """Ops of a traced graph (a ``ConcreteFunction``) that compute, i.e. that plain ``tf.function`` runs as
    kernels of their own: everything but inputs, constants, variable reads and identities (:data:`PLUMBING`)."""
    return sum(op.type not in PLUMBING for op in concrete.graph.get_operations())


def xla_kernels(hlo_text: str) -> int:
    """Instructions of the entry computation of XLA's optimized HLO that compute (a ``fusion`` counts once, however
    many ops it fused; parameters, bitcasts and tuples do not count, :data:`HLO_PLUMBING`).

    >>> xla_kernels('''HloModule m
    ... %fused (p: f32[2]) -> f32[2] {
    ...   %p = f32[2]{0} parameter(0)
    ...   ROOT %e = f32[2]{0} exponential(%p)
    ... }
    ... ENTRY %main (a: f32[2], b: f32[2,2]) -> f32[2] {
    ...   %a = f32[2]{0} parameter(0)
    ...   %b = f32[2,2]{1,0} parameter(1)
    ...   %d = f32[2]{0} dot(%b, %a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
    ...   ROOT %f = f32[2]{0} fusion(%d), kind=kLoop, calls=%fused
    ... }''')
    2
    """
    entry = hlo_text[hlo_text.index("\nENTRY"):]
    body = entry[entry.index("{") + 1:]
    opcodes = re.findall(r"^\s*(?:ROOT\s+)?%\S+\s*=\s*.*?\s([a-z][a-z0-9\-]*)\(", body, flags=re.MULTILINE)
    return sum(op not in HLO_PLUMBING for op in opcodes)


def kernel_counts(layers: int = 3, batch: int = 64, features: int = 64, hidden: int = 256) -> tuple[int, int]:
    """``(graph ops, XLA kernels)`` of the MLP with ``layers`` GELU layers: the ops of the traced graph that
    compute (what plain ``tf.function`` runs, one kernel each) and the kernels of XLA's optimized program. Counts
    only, nothing timed; they depend on the installed TensorFlow/XLA, not on the machine."""
    tf = load_tensorflow()
    fn = tf.function(tf_mlp(mlp_params(features, hidden, layers)), jit_compile=True)
    xt = tf.constant(np.ones((batch, features), np.float32))
    with captured("tensorflow"):
        ops = graph_ops(fn.get_concrete_function(xt))
        kernels = xla_kernels(fn.experimental_get_compiler_ir(xt)(stage="optimized_hlo"))
    return ops, kernels


def break_even_calls(first_a: float, steady_a: float, first_b: float, steady_b: float) -> int | None:
    """After how many calls way A (first call ``first_a``, then ``steady_a`` each) has cost no more in total than
    way B: the smallest ``n`` with ``first_a + (n-1)·steady_a ≤ first_b + (n-1)·steady_b``. None when A's steady
    call is not cheaper (then A never catches up, or falls behind).

    >>> break_even_calls(1.0, 0.5, 1.0, 0.6), break_even_calls(2.0, 0.5, 1.0, 1.0)
    (1, 3)
    """
    if steady_a >= steady_b:
        return None
    return max(1, math.ceil(1 + (first_a - first_b) / (steady_b - steady_a) - 1e-12))


@dataclass(frozen=True)
class Way:
    """One way of running the model: its ``first`` call (fresh functions, one call each) and ``steady`` call,
    and ``traces``: the most traces (or captured graphs) any of its fresh functions made (None: nothing traced)."""

    name: str
    first: Measurement
    steady: Measurement
    traces: int | None = None


@dataclass
class XlaPayoff:
    """What :func:`run` measured and counted. ``ways`` by name; ``max_diff[name]``: the largest absolute
    difference of that way's output from TF eager's; ``graph_ops`` / ``kernels``: ops of the traced graph and
    kernels of XLA's optimized program; ``inductor``: what happened to the optional inductor row, in words."""

    shape: tuple[int, int]
    ways: dict[str, Way]
    max_diff: dict[str, float]
    tolerance: float
    graph_ops: int
    kernels: int
    inductor: str
    stamp: dict[str, str] = field(default_factory=stamp)

    def break_even(self, compiled: str, baseline: str) -> int | None:
        """Calls after which ``compiled`` has cost no more in total than ``baseline`` (medians); None: never."""
        a, b = self.ways[compiled], self.ways[baseline]
        return break_even_calls(a.first.median, a.steady.median, b.first.median, b.steady.median)

    def counts(self) -> str:
        """The counts behind the timings, in words (the same on every run with these versions)."""
        traces = ", ".join(f"{_(w.name)} {w.traces}" for w in self.ways.values() if w.traces is not None)
        agree = all(d <= self.tolerance for d in self.max_diff.values())
        outputs = (_("outputs agree with TF eager's within {tolerance} ({n} compared)") if agree
                   else _("outputs DIFFER with TF eager's within {tolerance} ({n} compared)"))
        return "\n".join([
            _("traces (or graphs) per fresh function: {traces}").format(traces=traces),
            outputs.format(tolerance=number(self.tolerance), n=len(self.max_diff)),
            _("the traced graph has {ops} ops that compute; XLA's optimized program runs {kernels} kernels (its "
              "fusions counted once)").format(ops=self.graph_ops, kernels=self.kernels),
            _("inductor: {note}").format(note=self.inductor)])

    def table(self) -> str:
        """A Markdown table: first and steady call of each way, medians with their quartiles, and the stamp."""
        def cell(m: Measurement) -> str:
            return (f"{fmt_seconds(m.median)} ({fmt_seconds(m.low)}–{fmt_seconds(m.high)}, "
                    f"{number(m.repeat)}×{number(m.number)})")

        rows = [f"| {_(w.name)} | {cell(w.first)} | {cell(w.steady)} |" for w in self.ways.values()]
        libs = ", ".join(f"{k} {self.stamp[k]}" for k in ("tensorflow", "torch") if k in self.stamp)
        measured = measured_with(libs, self.stamp.get("cpu", "?"), self.stamp.get("cpus", "?"))
        return "\n".join([_("MLP on a batch of {rows} × {columns} (float32)").format(rows=self.shape[0],
                                                                                    columns=self.shape[1]) + "\n",
                          _("| way | first call: median (IQR, calls) | steady call: median (IQR, calls) |"),
                          "| --- | --- | --- |", *rows, "", f"<small>{measured}</small>"])

    def sentences(self) -> list[Said]:
        """Who won on this run, computed from the medians and their spreads (each sentence says "on this run").
        Each is a :class:`~course_lib.i18n.Said` (a :func:`compare` sentence, or :data:`CAUGHT_UP` /
        :data:`NEVER_CAUGHT_UP`)."""
        w = self.ways
        xla_first, xla_steady, plain = _("XLA's first call"), _("XLA's steady call"), _("plain tf.function's")
        out = [compare(xla_first, w[XLA].first, plain, w[TF_FUNCTION].first),
               compare(xla_steady, w[XLA].steady, plain, w[TF_FUNCTION].steady),
               compare(xla_steady, w[XLA].steady, _("an eager call"), w[EAGER].steady)]
        for base in (TF_FUNCTION, EAGER):
            out.append(self._break_even_sentence(XLA, base))
        if INDUCTOR in w:
            out.append(compare(_("inductor's steady call"), w[INDUCTOR].steady, _("a PyTorch eager call"),
                               w[TORCH_EAGER].steady))
            out.append(self._break_even_sentence(INDUCTOR, TORCH_EAGER))
        return out

    def _break_even_sentence(self, compiled: str, base: str) -> Said:
        a, b = self.ways[compiled], self.ways[base]
        n = self.break_even(compiled, base)
        if n is None:
            return say(NEVER_CAUGHT_UP, compiled=_(compiled), base=_(base), steady_a=fmt_seconds(a.steady.median),
                       steady_b=fmt_seconds(b.steady.median))
        calls = ngettext("{n} call", "{n} calls", n).format(n=number(n, spec=","))
        return say(CAUGHT_UP, compiled=_(compiled), base=_(base), calls=calls,
                   first=fmt_seconds(a.first.median - b.first.median),
                   saved=fmt_seconds(b.steady.median - a.steady.median))


def captured_note(graphs: int) -> str:
    """The inductor row's note when it ran: ``"run, 2 graphs captured and compiled"`` ("1 graph" for one)."""
    return ngettext("run, {n} graph captured and compiled", "run, {n} graphs captured and compiled",
                    graphs).format(n=graphs)


def _first_calls(make: Callable[[], Callable[[], Any]], repeat: int) -> tuple[Measurement, list[Any]]:
    """Time the first call of ``repeat`` fresh functions (``make()`` builds one): median, quartiles, and the
    functions (to count their traces afterwards)."""
    fns, times = [], []
    for _k in range(max(1, repeat)):
        fn = make()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        fns.append(fn)
    q = statistics.quantiles(times, n=4, method="inclusive") if len(times) >= 2 else [times[0]] * 3
    return Measurement(statistics.median(times), q[0], q[2], len(times), 1), fns


def _tensorflow_ways(params: Any, x: np.ndarray, repeat: int, budget: float
                     ) -> tuple[dict[str, Way], dict[str, np.ndarray], Any]:
    tf = load_tensorflow()
    mlp = tf_mlp(params)
    xt = tf.constant(x)
    with captured("tensorflow"):  # warm-ups: the first trace and the first XLA compile of a process cost extra
        tf.function(mlp)(xt)
        tf.function(lambda v: tf.nn.gelu(v) * 2.0, jit_compile=True)(xt)
    ways, outputs, last = {}, {}, None
    for name, options in ((EAGER, None), (TF_FUNCTION, {}), (XLA, {"jit_compile": True})):
        def make(options: Any = options) -> Callable[[], Any]:
            fn = mlp if options is None else tf.function(mlp, **options)
            return lambda: fn(xt).numpy()  # .numpy(): wait for the result, as a caller would

        with captured("tensorflow"):
            first, fns = _first_calls(make, repeat)
            steady = measure(fns[-1], repeat=repeat + 2, budget=budget)
        outputs[name] = fns[-1]()
        traced = None if options is None else [f.__closure__[0].cell_contents for f in fns]
        ways[name] = Way(name, first, steady, None if traced is None
                         else max(t.experimental_get_tracing_count() for t in traced))
        last = traced[-1] if traced else None
    return ways, outputs, (last, xt)


def _inductor_ways(params: Any, x: np.ndarray, budget: float) -> tuple[dict[str, Way], dict[str, np.ndarray]]:
    torch = load_torch()
    from ..adapters.torch import capture_compiled

    mlp, xt = torch_mlp(params), torch.from_numpy(x)
    eager_first, _fns = _first_calls(lambda: lambda: mlp(xt), 1)
    eager = measure(lambda: mlp(xt), repeat=5, budget=budget)
    torch._dynamo.reset()
    t0 = time.perf_counter()
    with captured("torch"):
        cap = capture_compiled(mlp, xt, backend="inductor")
    first = time.perf_counter() - t0
    steady = measure(lambda: cap.compiled(xt), repeat=5, budget=budget)
    once = Measurement(first, first, first, 1, 1)
    ways = {TORCH_EAGER: Way(TORCH_EAGER, eager_first, eager),
            INDUCTOR: Way(INDUCTOR, once, steady, len([g for g in cap.graphs if len(g.graph.nodes)]))}
    return ways, {TORCH_EAGER: mlp(xt).numpy(), INDUCTOR: cap.compiled(xt).detach().numpy()}


def run(inductor: bool = False, batch: int = 1024, features: int = 64, hidden: int = 256, layers: int = 3,
        repeat: int = 3, budget: float = 0.15, tolerance: float = 1e-4) -> XlaPayoff:
    """Measure the three TensorFlow ways (and, with ``inductor`` and a C++ compiler, PyTorch eager and
    ``torch.compile``'s default backend) on one batch; count traces, kernels and output differences.

    A few seconds on two cores with the defaults (inductor adds tens of seconds); ``repeat`` fresh functions per
    first call, ``budget`` seconds per steady measurement.
    """
    params = mlp_params(features, hidden, layers)
    x = np.random.default_rng(1).standard_normal((batch, features)).astype(np.float32)
    ways, outputs, (xla_fn, xt) = _tensorflow_ways(params, x, repeat, budget)
    with captured("tensorflow"):
        ops = graph_ops(xla_fn.get_concrete_function(xt))
        kernels = xla_kernels(xla_fn.experimental_get_compiler_ir(xt)(stage="optimized_hlo"))
    from ..adapters.torch import cxx_compiler

    if not inductor:
        note: str = say(NOT_ASKED)
    elif cxx_compiler() is None:
        note = say(NO_COMPILER)
    else:
        more, more_out = _inductor_ways(params, x, budget)
        ways.update(more)
        outputs.update(more_out)
        note = captured_note(more[INDUCTOR].traces or 0)
    diffs = {k: float(np.max(np.abs(v - outputs[EAGER]))) for k, v in outputs.items() if k != EAGER}
    return XlaPayoff((batch, features), ways, diffs, tolerance, ops, kernels, note)
