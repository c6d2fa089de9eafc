"""A real compiler paying off: XLA, through ``tf.function(jit_compile=True)``, on a chain of elementwise ops (08).

Plain ``tf.function`` traces a graph and runs it with TensorFlow's ready-made kernels, one kernel per op. On a chain
of elementwise ops over a large array, each kernel reads its input array from memory and writes a new array for
the next one. With ``jit_compile=True`` the traced graph goes to XLA, which (``tf.function``'s docstring) performs
compiler optimizations such as fusion: XLA's architecture page (https://www.tensorflow.org/xla/architecture) names
fusing pipelined operations to reduce memory overhead and eliminating intermediate buffers. For the chain, XLA's
CPU backend builds a single loop fusion that reads the input once and writes the output once; it is code made for
these shapes, paid for on the first call. (The fused loop is split into parallel tasks over the CPU's cores, as
TensorFlow's kernels are: ``xla/service/cpu/parallel_task_assignment``.)

The workload, :func:`chain`: :data:`OPS` elementwise ops (multiply by 0.99, add 0.01, alternately) over a
:data:`SHAPE` float32 matrix, 16 MB. Its memory traffic, in bytes moved per call: plain ``tf.function``
``2 · ops · 16 MB`` (each kernel reads one array and writes one), XLA ``2 · 16 MB``. Three ways are timed:

* ``TF eager``: every op runs as Python reaches it;
* ``tf.function``: traced once, TensorFlow's kernels;
* ``tf.function(jit_compile=True)``: traced once, compiled by XLA.

Each way's first call is timed on ``repeat`` fresh functions, its steady call with :func:`course_lib.measure.measure`
(medians and quartiles both). Calls are not followed by ``.numpy()``: TensorFlow executes synchronously by default
(``tf.config.experimental.get_synchronous_execution()``), so a call returns when its result is computed, and a copy
to NumPy would add the same 16 MB copy to every way. The break-even is computed from medians
(:func:`break_even_calls`). Optionally, PyTorch's ``torch.compile`` with its default backend, inductor (a C++
compiler and an opt-in flag needed), on the same chain.

What the notebook asserts are counts, not times: one trace per fresh function, the outputs equal within a
tolerance, the kernels plain ``tf.function`` really ran (:func:`runtime_kernels`: its graph after Grappler's
rewrites, as the runtime recorded it) and the kernels of XLA's optimized program (:func:`xla_kernels`, a fusion
counted once; :func:`fused_ops`, the ops inside the fusions). Sentences about who won are computed from the medians
and say "on this run" (:meth:`XlaPayoff.sentences`).

>>> break_even_calls(first_a=0.1, steady_a=0.001, first_b=0.01, steady_b=0.002)
91
>>> break_even_calls(first_a=0.1, steady_a=0.002, first_b=0.01, steady_b=0.002) is None
True
"""

from __future__ import annotations

import gc
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..adapters.loader import load_tensorflow, load_torch
from ..adapters.quiet import captured
from ..i18n import N_, Plural, Said, number, say
from ..i18n import gettext as _
from ..measure import Measurement, first_calls, fmt_seconds, measure, stamp, summarize
from .compiling.tables import compare, measured_with

__all__ = ["EAGER", "OPS", "SHAPE", "TF_FUNCTION", "XLA", "Way", "XlaPayoff", "break_even_calls", "captured_note",
           "chain", "compare", "fused_ops", "kernel_counts", "run", "runtime_kernels", "xla_kernels"]

#: The ways, by their names: keys of ``XlaPayoff.ways`` (shown with ``_(name)``: "TF eager" is said in French).
EAGER, TF_FUNCTION, XLA = N_("TF eager"), "tf.function", "tf.function(jit_compile=True)"
TORCH_EAGER, INDUCTOR = N_("PyTorch eager"), "torch.compile (inductor)"
#: What happened to the optional inductor rows (``XlaPayoff.inductor``), when they did not run.
NOT_ASKED, NO_COMPILER = N_("not run (USE_INDUCTOR = False)"), N_("not run: no C++ compiler found")
#: The sentences of :meth:`XlaPayoff.sentences` on a break-even: never caught up, ahead from the first call on, or
#: caught up after ``calls``.
NEVER_CAUGHT_UP = N_("On this run, a steady call of {compiled} ({steady_a}) was not cheaper than a call of {base} "
                     "({steady_b}), so by the medians it never caught up.")
AHEAD_FROM_THE_START = N_("On this run, by the medians, {compiled} cost no more than {base} from its first call on: "
                          "its first call cost {first} less, and each later call saved {saved}.")
CAUGHT_UP = N_("On this run, by the medians, {compiled} caught up with {base} after {calls}: its first call cost "
               "{first} more, and each later call saved {saved}.")
#: The workload, as the table's title says it.
TITLE = N_("A chain of {ops} elementwise ops on a float32 matrix of {rows} × {columns} ({megabytes} MB)")
#: The counts of :meth:`XlaPayoff.counts`: what plain tf.function ran, what XLA built.
PLAIN_RAN = Plural("plain tf.function ran {n} kernel (its graph after Grappler), each reading an array of "
                   "{megabytes} MB and writing a new one",
                   "plain tf.function ran {n} kernels (its graph after Grappler), each reading an array of "
                   "{megabytes} MB and writing a new one")
XLA_BUILT = Plural("XLA's optimized program runs {n} kernel (a fusion counted once), with {fused} ops inside its "
                   "fusions",
                   "XLA's optimized program runs {n} kernels (a fusion counted once), with {fused} ops inside its "
                   "fusions")
#: The chain's length and the matrix it runs on (16 MB of float32: far more than a core's caches hold).
OPS, SHAPE = 30, (2048, 2048)
#: Ops of a TensorFlow graph that move data in or out rather than compute (not counted by :func:`runtime_kernels`).
PLUMBING = frozenset({"Placeholder", "Const", "Identity", "NoOp", "ReadVariableOp", "VarHandleOp", "_Arg",
                      "_Retval", "_DeviceArg", "_DeviceRetval"})
#: HLO instructions that compute nothing themselves (not counted by :func:`xla_kernels` and :func:`fused_ops`).
HLO_PLUMBING = frozenset({"parameter", "constant", "bitcast", "tuple", "get-tuple-element", "copy", "broadcast",
                          "reshape"})
_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%\S+\s*=\s*.*?\s([a-z][a-z0-9\-]*)\(", re.MULTILINE)


def chain(x: Any, ops: int = OPS) -> Any:
    """``ops`` elementwise ops on ``x``: multiply by 0.99, add 0.01, alternately. Operators only, so the same
    function runs on a TensorFlow tensor or a PyTorch one; nothing in it can be folded away.

    >>> float(chain(np.float32(1.0), ops=2))  # 1 * 0.99 + 0.01
    1.0
    """
    for k in range(ops):
        x = x * 0.99 if k % 2 == 0 else x + 0.01
    return x


def _chain_of(ops: int) -> Callable[[Any], Any]:
    """``chain`` with its length fixed (a function of one tensor, as ``experimental_get_compiler_ir`` wants)."""
    def chained(x: Any) -> Any:
        return chain(x, ops)

    return chained


def runtime_kernels(fn: Callable[..., Any], *args: Any) -> list[str]:
    """The op types of the kernels plain ``tf.function`` really runs for ``fn(*args)``: a fresh ``tf.function`` is
    called once with the runtime's metadata on (``enable_run_metadata`` of the eager context); its
    ``RunMetadata.function_graphs`` hold the graph the executor ran, after Grappler's rewrites (the partition
    graphs). Inputs, outputs, constants and identities are left out (:data:`PLUMBING`).

    The context records every function run meanwhile: the garbage collector is held off during the call (a
    collection runs other objects' clean-up functions, which were recorded beside ours in a long test session), and
    the function's own record is the one whose graph before Grappler shares the most node names with the traced
    graph."""
    tf = load_tensorflow()
    from tensorflow.python.eager import context  # the eager context's run metadata has no public name

    fresh, ctx = tf.function(fn), context.context()
    traced = {op.name for op in fresh.get_concrete_function(*args).graph.get_operations()}
    gc.collect()  # a collection during the call runs other objects' clean-up functions, recorded with ours
    gc.disable()
    ctx.enable_run_metadata()
    try:
        fresh(*args)
        metadata = ctx.export_run_metadata()
    finally:
        ctx.disable_run_metadata()
        gc.enable()
    if not metadata.function_graphs:
        return []
    ran = max(metadata.function_graphs,
              key=lambda fg: len(traced & {node.name for node in fg.pre_optimization_graph.node}))
    return [node.op for part in ran.partition_graphs for node in part.node if node.op not in PLUMBING]


def _entry(hlo_text: str) -> str:
    entry = hlo_text[hlo_text.index("\nENTRY"):]
    return entry[entry.index("{") + 1:]


def xla_kernels(hlo_text: str) -> int:
    """Instructions of the entry computation of XLA's optimized HLO that compute (a ``fusion`` counts once, however
    many ops it fused; parameters, bitcasts, broadcasts and tuples do not count, :data:`HLO_PLUMBING`).

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
    return sum(op not in HLO_PLUMBING for op in _INSTRUCTION.findall(_entry(hlo_text)))


def fused_ops(hlo_text: str) -> int:
    """Instructions that compute inside the fused computations of XLA's optimized HLO (everything before the
    entry computation), :data:`HLO_PLUMBING` left out: the ops XLA runs inside its fusions.

    >>> fused_ops('''HloModule m
    ... %fused (p: f32[2]) -> f32[2] {
    ...   %p = f32[2]{0} parameter(0)
    ...   %c = f32[] constant(2)
    ...   %b = f32[2]{0} broadcast(%c), dimensions={}
    ...   %m = f32[2]{0} multiply(%p, %b)
    ...   ROOT %e = f32[2]{0} exponential(%m)
    ... }
    ... ENTRY %main (a: f32[2]) -> f32[2] {
    ...   %a = f32[2]{0} parameter(0)
    ...   ROOT %f = f32[2]{0} fusion(%a), kind=kLoop, calls=%fused
    ... }''')
    2
    """
    return sum(op not in HLO_PLUMBING for op in _INSTRUCTION.findall(hlo_text[:hlo_text.index("\nENTRY")]))


def kernel_counts(fn: Callable[[Any], Any], x: Any) -> tuple[int, int]:
    """``(plain kernels, XLA kernels)`` for ``fn(x)``: the kernels plain ``tf.function`` ran (:func:`runtime_kernels`)
    and the kernels of XLA's optimized program (:func:`xla_kernels`, compiled, not run). Counts only, nothing timed;
    they depend on the installed TensorFlow/XLA, not on the machine's speed."""
    tf = load_tensorflow()
    with captured("tensorflow"):
        plain = len(runtime_kernels(fn, x))
        hlo = tf.function(fn, jit_compile=True).experimental_get_compiler_ir(x)(stage="optimized_hlo")
    return plain, xla_kernels(hlo)


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
    """One way of running the chain: its ``first`` call (fresh functions, one call each) and ``steady`` call,
    and ``traces``: the most traces (or captured graphs) any of its fresh functions made (None: nothing traced)."""

    name: str
    first: Measurement
    steady: Measurement
    traces: int | None = None


@dataclass
class XlaPayoff:
    """What :func:`run` measured and counted. ``shape``: the matrix; ``ways`` by name; ``max_diff[name]``: the
    largest absolute difference of that way's output from TF eager's; ``graph_ops``: the kernels plain tf.function
    ran; ``kernels``: the kernels of XLA's optimized program; ``inductor``: what happened to the optional inductor
    rows, in words; ``ops``: the chain's length; ``fused``: the ops inside XLA's fusions."""

    shape: tuple[int, int]
    ways: dict[str, Way]
    max_diff: dict[str, float]
    tolerance: float
    graph_ops: int
    kernels: int
    inductor: str
    stamp: dict[str, str] = field(default_factory=stamp)
    ops: int = OPS
    fused: int = 0

    @property
    def megabytes(self) -> float:
        """The size of one float32 matrix of ``shape``, in MB (2²⁰ bytes)."""
        return self.shape[0] * self.shape[1] * 4 / 2**20

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
        mb = number(self.megabytes, spec=".3g")
        return "\n".join([
            _("traces (or graphs) per fresh function: {traces}").format(traces=traces),
            outputs.format(tolerance=number(self.tolerance), n=len(self.max_diff)),
            say(PLAIN_RAN, n=self.graph_ops, megabytes=mb),
            say(XLA_BUILT, n=self.kernels, fused=self.fused),
            _("inductor: {note}").format(note=self.inductor)])

    def table(self) -> str:
        """A Markdown table: first and steady call of each way, medians with their quartiles, and the stamp."""
        def cell(m: Measurement) -> str:
            return (f"{fmt_seconds(m.median)} ({fmt_seconds(m.low)}–{fmt_seconds(m.high)}, "
                    f"{number(m.repeat)}×{number(m.number)})")

        rows = [f"| {_(w.name)} | {cell(w.first)} | {cell(w.steady)} |" for w in self.ways.values()]
        libs = ", ".join(f"{k} {self.stamp[k]}" for k in ("tensorflow", "torch") if k in self.stamp)
        measured = measured_with(libs, self.stamp.get("cpu", "?"), self.stamp.get("cpus", "?"))
        title = say(TITLE, ops=self.ops, rows=number(self.shape[0], spec=","),
                    columns=number(self.shape[1], spec=","), megabytes=number(self.megabytes, spec=".3g"))
        return "\n".join([title + "\n",
                          _("| way | first call: median (IQR, calls) | steady call: median (IQR, calls) |"),
                          "| --- | --- | --- |", *rows, "", f"<small>{measured}</small>"])

    def sentences(self) -> list[Said]:
        """Who won on this run, computed from the medians and their spreads (each sentence says "on this run").
        Each is a :class:`~course_lib.i18n.Said` (a :func:`compare` sentence, or :data:`CAUGHT_UP`,
        :data:`AHEAD_FROM_THE_START` / :data:`NEVER_CAUGHT_UP`)."""
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
        saved = fmt_seconds(b.steady.median - a.steady.median)
        if a.first.median < b.first.median:
            return say(AHEAD_FROM_THE_START, compiled=_(compiled), base=_(base),
                       first=fmt_seconds(b.first.median - a.first.median), saved=saved)
        calls = say(Plural("{n} call", "{n} calls", count="calls"), n=number(n, spec=","), calls=n)
        return say(CAUGHT_UP, compiled=_(compiled), base=_(base), calls=calls,
                   first=fmt_seconds(a.first.median - b.first.median), saved=saved)


def captured_note(graphs: int) -> str:
    """The inductor row's note when it ran: ``"run, 2 graphs captured and compiled"`` ("1 graph" for one)."""
    return say(Plural("run, {n} graph captured and compiled", "run, {n} graphs captured and compiled"), n=graphs)


def _tensorflow_ways(fn: Callable[[Any], Any], x: np.ndarray, repeat: int, budget: float
                     ) -> tuple[dict[str, Way], dict[str, np.ndarray], Any]:
    tf = load_tensorflow()
    xt = tf.constant(x)
    with captured("tensorflow"):  # warm-ups: the first trace and the first XLA compile of a process cost extra
        tf.function(lambda v: v * 2.0)(xt)
        tf.function(lambda v: v * 2.0 + 1.0, jit_compile=True)(xt)
    ways, outputs = {}, {}
    for name, options in ((EAGER, None), (TF_FUNCTION, {}), (XLA, {"jit_compile": True})):
        def make(options: Any = options) -> Callable[[], Any]:
            traced = fn if options is None else tf.function(fn, **options)
            def call() -> Any:
                return traced(xt)  # synchronous: returns when the result is computed

            call.traced = traced  # type: ignore[attr-defined]
            return call

        with captured("tensorflow"):
            first, fns = first_calls(make, repeat)
            steady = measure(fns[-1], repeat=repeat + 2, budget=budget)
        outputs[name] = fns[-1]().numpy()
        ways[name] = Way(name, first, steady, None if options is None
                         else max(f.traced.experimental_get_tracing_count() for f in fns))
    return ways, outputs, xt


def _inductor_ways(fn: Callable[[Any], Any], x: np.ndarray, budget: float
                   ) -> tuple[dict[str, Way], dict[str, np.ndarray]]:
    torch = load_torch()
    from ..adapters.torch import capture_compiled

    xt = torch.from_numpy(x)
    eager_first, _fns = first_calls(lambda: lambda: fn(xt), 1)
    eager = measure(lambda: fn(xt), repeat=5, budget=budget)
    torch._dynamo.reset()
    t0 = time.perf_counter()
    with captured("torch"):
        cap = capture_compiled(fn, xt, backend="inductor")
    first = time.perf_counter() - t0
    steady = measure(lambda: cap.compiled(xt), repeat=5, budget=budget)
    once = summarize([first])  # inductor compiles for tens of seconds: once
    ways = {TORCH_EAGER: Way(TORCH_EAGER, eager_first, eager),
            INDUCTOR: Way(INDUCTOR, once, steady, len([g for g in cap.graphs if len(g.graph.nodes)]))}
    return ways, {TORCH_EAGER: fn(xt).numpy(), INDUCTOR: cap.compiled(xt).detach().numpy()}


def run(inductor: bool = False, shape: tuple[int, int] = SHAPE, ops: int = OPS, repeat: int = 5,
        budget: float = 1.0, tolerance: float = 1e-4) -> XlaPayoff:
    """Measure the three TensorFlow ways (and, with ``inductor`` and a C++ compiler, PyTorch eager and
    ``torch.compile``'s default backend) on :func:`chain` of ``ops`` ops over a ``shape`` matrix; count traces,
    kernels and output differences.

    A few seconds on two cores with the defaults (inductor adds tens of seconds); ``repeat`` fresh functions per
    first call, ``budget`` seconds per steady measurement.
    """
    tf = load_tensorflow()
    fn = _chain_of(ops)
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    ways, outputs, xt = _tensorflow_ways(fn, x, repeat, budget)
    with captured("tensorflow"):
        plain = len(runtime_kernels(fn, xt))
        hlo = tf.function(fn, jit_compile=True).experimental_get_compiler_ir(xt)(stage="optimized_hlo")
    from ..adapters.torch import cxx_compiler

    if not inductor:
        note: str = say(NOT_ASKED)
    elif cxx_compiler() is None:
        note = say(NO_COMPILER)
    else:
        more, more_out = _inductor_ways(fn, x, budget)
        ways.update(more)
        outputs.update(more_out)
        note = captured_note(more[INDUCTOR].traces or 0)
    diffs = {k: float(np.max(np.abs(v - outputs[EAGER]))) for k, v in outputs.items() if k != EAGER}
    return XlaPayoff(shape, ways, diffs, tolerance, plain, xla_kernels(hlo), note, ops=ops, fused=fused_ops(hlo))
