"""The checked exercises of notebook 05, *The cost of compiling*: defined here so the answers stay out of the
notebook. Expected answers are computed at check time (by running our engine, real TensorFlow or real PyTorch),
never typed in; the frameworks are imported only when an answer is checked. Each function returns the same
:class:`Exercise` on every call, so a re-run cell keeps counting attempts and the hints move on.
Worked solutions: ``instructor/05_the_cost_of_compiling_solutions.md``.

>>> static_compiles().check(4).ok
True
>>> break_even_runs().check(16).ok
False
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .. import i18n
from ..i18n import N_, Plural, Said, say
from .compiling import StaticChain, break_even
from .exercises import A_LIST_OF_SPECS, TF_REFUSED_IT, Exercise, choice, count_is

__all__ = ["BREAK_EVEN", "EXTENSION_CHOICES", "REVEALS", "SHAPES", "batch_letter", "break_even_runs",
           "compile_scenario", "extension_choice", "input_signature", "static_compiles", "torch_graphs",
           "torch_scenario", "trace_count", "trace_scenario"]

#: 05.3's numbers (seconds): a tf.function's first call, its later calls, and the same function run eagerly.
BREAK_EVEN = {"first call": 30e-3, "later call": 150e-6, "eager call": 2e-3}

# The verdicts (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
COMPILES_WHY = N_("one compile for the first run, one per edit; runs of an unchanged graph reuse the plan")
PLAN_CACHED = N_("a run of an unchanged graph does not compile: the plan is cached")
TRACES_WHY = N_("a new shape traces; a new Python number traces (it is baked into the graph as a constant); a tensor "
                "k is an input, so a new value of it does not")
TOO_FEW_TRACES = N_("too few: one of the calls you counted as 'same' brings a new signature")
TOO_MANY_TRACES = N_("too many: the same shapes and dtypes with new tensor values reuse the graph")
BREAK_EVEN_WHY = N_("{n} calls: {first} + {rest} × {later} ms ≤ {n} × {eager} ms, and one call fewer is not enough")
ONE_SHORT = N_("one short: at that count the compiled calls still take a little longer")
WITH_N_CALLS = Plural("with {n} call, compiled takes {compiled} s, eager {eager} s",
                      "with {n} calls, compiled takes {compiled} s, eager {eager} s")
OTHER_NUMBERS = N_("the function ran, but gave other numbers: keep the dtype float64")
TRACED_TIMES = N_("it traced {n} times: the length must be left open")
ONE_TRACE = N_("one trace for every length: the graph was built for shape [None]")
DYNAMO_WHY = N_("the first graph is specialised to (3, 2); (4, 2) makes Dynamo recompile with a symbolic first "
                "dimension, which serves (5, 2) too; (5, 3) changes the second dimension, still specialised: one more "
                "capture, now with both dimensions symbolic (automatic dynamic shapes, one dimension at a time)")
ONE_PER_SHAPE = N_("that would be one graph per new shape: tf.function without a signature; Dynamo learns")
TOO_FEW_GRAPHS = N_("too few: a dimension becomes symbolic only after it has changed once")
#: 05.5's shapes, in the order of the calls.
SHAPES = ((3, 2), (3, 2), (4, 2), (5, 2), (5, 3))


def compile_scenario() -> int:
    """05.1's calls on our engine; returns ``compile_count`` at the end."""
    chain = StaticChain(10)
    for _ in range(1000):
        chain.run()
    for _ in range(3):
        chain.add_node()
        chain.run()
    for _ in range(10):
        chain.run()
    return chain.session.compile_count


@functools.cache
def static_compiles() -> Exercise:
    """05.1: compiles after 1,000 runs, three edits (each followed by a run) and ten more runs."""

    def mistake(got: int, truth: int) -> Said | None:
        return say(PLAN_CACHED) if got > 100 else None  # a compile per run

    check = count_is(compile_scenario, "", COMPILES_WHY, mistake)
    return Exercise("05.1", N_("How many times has the session compiled?"), check,
                    hints=[N_("which calls change the graph, or ask for something new? only those compile"),
                           N_("the first run compiles; each add_node() changes the graph; plain runs reuse the plan")])


def trace_scenario() -> int:
    """05.2's calls on a real ``tf.function``; returns its tracing count."""
    from ..adapters.loader import load_tensorflow

    tf = load_tensorflow()
    f = tf.function(lambda x, k: tf.sin(x) * k)
    f(tf.constant(1.0), 2.0)
    f(tf.constant(5.0), 2.0)
    f(tf.constant([1.0, 2.0]), 2.0)
    f(tf.constant(1.0), 3.0)
    f(tf.constant(1.0), tf.constant(3.0))
    f(tf.constant(2.0), tf.constant(4.0))
    return int(f.experimental_get_tracing_count())


@functools.cache
def trace_count() -> Exercise:
    """05.2: predict ``experimental_get_tracing_count()`` after :func:`trace_scenario` (printed in the notebook)."""

    def mistake(got: int, truth: int) -> Said:
        return say(TOO_FEW_TRACES if got < truth else TOO_MANY_TRACES)

    check = count_is(trace_scenario, "graphs", TRACES_WHY, mistake)
    return Exercise("05.2", N_("How many graphs has the tf.function traced?"), check,
                    hints=[N_("a call traces when its signature is new: tensor shapes and dtypes, and Python values"),
                           N_("go call by call: 1, same, new shape, new Python value, tensor instead of float, "
                              "same")])


@functools.cache
def break_even_runs() -> Exercise:
    """05.3: the break-even number of calls for :data:`BREAK_EVEN`."""
    first, later, eager = BREAK_EVEN["first call"], BREAK_EVEN["later call"], BREAK_EVEN["eager call"]

    def ms(seconds: float) -> str:
        return i18n.number(seconds * 1e3, spec="g")

    def why(truth: int) -> Said:
        return say(BREAK_EVEN_WHY, n=truth, first=ms(first), rest=truth - 1, later=ms(later), eager=ms(eager))

    def mistake(got: int, truth: int) -> Said:
        if got == truth - 1:
            return say(ONE_SHORT)
        return say(WITH_N_CALLS, n=got, compiled=i18n.number(first + (got - 1) * later, spec=".4g"),
                   eager=i18n.number(got * eager, spec=".4g"))

    check = count_is(lambda: break_even(first - later, later, eager), "calls", why, mistake)
    return Exercise("05.3", N_("After how many calls does the tf.function pay off?"), check,
                    hints=[N_("n calls cost first + (n - 1) × later compiled, and n × eager eagerly"),
                           N_("solve first + (n - 1) × later ≤ n × eager for the smallest whole n")])


@functools.cache
def input_signature() -> Exercise:
    """05.4: an ``input_signature`` that makes ``tf.function`` trace once for vectors of lengths 3, 5 and 7."""

    def check(answer: Any) -> tuple[bool, str]:
        from ..adapters.loader import load_tensorflow

        tf = load_tensorflow()
        if not isinstance(answer, (list, tuple)):
            return False, say(A_LIST_OF_SPECS, example="[tf.TensorSpec(...)]")
        try:
            f = tf.function(lambda x: tf.reduce_sum(tf.sin(x)), input_signature=list(answer))
            results = [float(f(tf.constant(np.linspace(0.0, 1.0, n)))) for n in (3, 5, 7)]
        except (TypeError, ValueError) as err:
            return False, say(TF_REFUSED_IT, line=str(err).splitlines()[0][:160])
        want = [float(np.sum(np.sin(np.linspace(0.0, 1.0, n)))) for n in (3, 5, 7)]
        traces = f.experimental_get_tracing_count()
        if not np.allclose(results, want):
            return False, say(OTHER_NUMBERS)
        if traces != 1:
            return False, say(TRACED_TIMES, n=traces)
        return True, say(ONE_TRACE)

    return Exercise("05.4", N_("Write an input_signature that traces once for every vector length."), check,
                    hints=[N_("one tf.TensorSpec per argument; shape and dtype"),
                           N_("the three calls differ only in their length: which part of the shape must stay open?")])


def torch_scenario() -> int:
    """05.5's calls (:data:`SHAPES`) of a ``torch.compile``d function (counting backend, no code generated)."""
    from ..adapters.loader import load_torch
    from ..adapters.torch import capture_compiled

    torch = load_torch()
    torch._dynamo.reset()
    cap = capture_compiled(lambda x: torch.sin(x) * 2.0, torch.ones(*SHAPES[0], dtype=torch.float64))
    for shape in SHAPES[1:]:
        cap.compiled(torch.ones(*shape, dtype=torch.float64))
    return cap.count


@functools.cache
def torch_graphs() -> Exercise:
    """05.5: graphs captured by ``torch.compile`` for tensors of the shapes :data:`SHAPES`."""

    def mistake(got: int, truth: int) -> Said | None:
        if got == len(set(SHAPES)):
            return say(ONE_PER_SHAPE)
        return say(TOO_FEW_GRAPHS) if got < truth else None

    check = count_is(torch_scenario, "graphs", DYNAMO_WHY, mistake)
    return Exercise("05.5", N_("How many graphs does torch.compile capture?"), check,
                    hints=[N_("the first call captures a graph for exactly the shape it saw"),
                           N_("go call by call: which dimension changes, and has it changed before?")])


#: 05.6's options: which costs more after ``y`` ran many times on a graph of 300 ops -- (1) add 100 nodes ``y`` does
#: not use, then run ``y`` once; (2) 100 times over, add one such node, then run ``y``.
EXTENSION_CHOICES = {
    "a": N_("(2), far more: every run after a change redoes work over the whole graph"),
    "b": N_("about the same: either way the same 100 new nodes are sent to the runtime once"),
    "c": N_("(1), far more: one large extension is slower than many small ones"),
    "d": N_("about the same: y's executor is kept either way, so no run builds anything"),
}


def batch_letter() -> str:
    """05.6's right letter, decided by a live run (:func:`~course_lib.lessons.compiling.tf1.edits_batched`): "a"
    when (2) takes more than three times as long as (1), "c" when (1) does, "b" otherwise."""
    from .compiling.tf1 import edits_batched

    batched, one_by_one = edits_batched(n=300, edits=100)
    return "a" if one_by_one > 3 * batched else "c" if batched > 3 * one_by_one else "b"


@functools.cache
def extension_choice() -> Exercise:
    """05.6: a prediction with its reason, in a setting section 4 does not show (many edits before one run), decided
    by a live run. TensorFlow's source says why: each run after a change extends the session's graph, and
    ``GraphExecutionState::Extend`` rebuilds and re-places the whole graph, whatever the number of new nodes."""
    why = {
        "a": N_("(1) pays one extension, (2) pays 100, and each one re-places and re-optimizes the whole graph"),
        "b": N_("the nodes are sent once either way, but each run after a change also rebuilds the whole graph's "
                "state: (2) does that 100 times"),
        "c": N_("an extension's cost grows with the whole graph, not with the number of new nodes: (1) is one "
                "extension"),
        "d": N_("no executor is built, true; but each run after a change pays an extension, and (2) makes 100 of "
                "them"),
    }
    return Exercise("05.6", N_("Which costs more in all, (1) or (2), and why?"),
                    choice(EXTENSION_CHOICES, batch_letter, why),
                    hints=[N_("what does the first run after a change do, and over how much of the graph?"),
                           N_("count the runs that come right after a change, in (1) and in (2)")])


#: What would give each exercise away if shown above it (tests/test_exercise_spoilers.py): an answer's printed
#: count, a solution's key line, the right option's own words.
REVEALS: dict[str, tuple[str, ...]] = {  # English, then the French edition's words where they differ
    "05.1": ("compiles: 4", "compile_count == 4", "compiled 4 times", "compilations : 4", "compilé 4 fois"),
    "05.2": ("tracing count: 4", "traced 4 graphs", "4 traces", "4 traçages", "tracé 4 graphes"),
    "05.3": ("n ≥ 16.14", "17 calls", "29.85 ≤ 1.85n", "17 appels"),
    "05.4": ("TensorSpec(shape=[None]", "TensorSpec([None]", "TensorSpec(shape=(None,)", "TensorSpec((None,)"),
    "05.5": ("3 graphs", "graphs captured: 3", "one dimension at a time", "3 graphes", "une dimension à la fois"),
    "05.6": ("every run after a change redoes work over the whole graph", "(1) pays one extension",
             "edits_batched(", "refait un travail sur tout le graphe", "(1) paie une extension"),
}
