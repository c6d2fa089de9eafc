"""The checked exercises of notebook 08, *Where we are today*: defined here so the answers stay out of the notebook.

The expected answers come from real TensorFlow and PyTorch, traced when the check runs (so they cannot drift from
what the notebook shows). Each function returns the same :class:`Exercise` for the same arguments, so a re-run
cell keeps counting attempts and the hints move on. Worked solutions for instructors:
``instructor/08_where_we_are_today_solutions.md``.

>>> ex = which_capture_keeps_both_branches()
>>> ex.check(...).ok is None
True
>>> ex.check({"fx"}).ok
False
"""

from __future__ import annotations

import functools
from typing import Any

from ..i18n import N_, say
from .exercises import Exercise, choice, count_is, names

__all__ = [
    "CAPTURES",
    "EXPORT_CHOICES",
    "UNROLL_N",
    "XLA_CHOICES",
    "export_shapes",
    "export_verdict",
    "retraces",
    "unrolled_ops",
    "which_capture_keeps_both_branches",
    "wrong_input",
    "xla_kernels_choice",
    "xla_verdict",
]

UNROLL_N = 25
#: The ways to capture a PyTorch graph that exercise 08.4 asks about (names a student types).
CAPTURES = {
    "fx": "torch.fx.symbolic_trace",
    "jit.trace": "torch.jit.trace",
    "compile": N_("torch.compile (graph break, then one graph per branch taken)"),
    "export+cond": N_("torch.export of a model written with torch.cond"),
}

# The verdicts (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
UNROLLED_WHY = N_("{n} = 2 + 4 x {steps}: the input, its Identity output, and 4 ops per unrolled step")
RETRACES_WHY = N_("{n}: one per distinct Python value (1, 2, 3) and one for int32 scalar tensors, whatever their value")
THREE_NUMBERS = N_("answer with a list of 3 numbers, like {example}")
EXACTLY_THREE = N_("give exactly 3 numbers, not {n}")
TRACE_IS_WRONG = N_("the sum is not positive, so f takes the other branch, but the trace replays the branch it saw "
                    "while tracing -- silently")
TRACE_IS_RIGHT = N_("the traced function is right on this input")
A_SET_OF_NAMES = N_("answer with a set of names, like {example}")
UNKNOWN_NAMES = N_("unknown names {names}; choose from {known}")
CAPTURES_WHY = N_("torch.compile splits the function at the branch and compiles each side when it is taken; "
                  "torch.export keeps both branches when they are written with torch.cond. fx refuses the branch, "
                  "jit.trace silently keeps one")
NOT_QUITE = N_("not quite")


@functools.cache
def unrolled_ops(unrolled: Any) -> Exercise:
    """08.1: ops in the traced graph of ``unrolled(x, n)`` (a Python ``range`` loop) for ``n = UNROLL_N``."""

    def truth() -> int:
        from ..adapters.tensorflow import count_ops
        from .unroll import loop_graphs

        return count_ops(loop_graphs(unrolled, unrolled, UNROLL_N)[0]).total

    check = count_is(truth, "ops", lambda t: say(UNROLLED_WHY, n=t, steps=UNROLL_N))
    return Exercise("08.1", say(N_("How many ops does the traced graph of unrolled(x, n) have for n = {n}?"),
                                n=UNROLL_N), check,
                    hints=[N_("move the slider of the widget to 1, 2, 3 and watch how the count grows"),
                           N_("each step adds the same ops (two constants, a Mul and an AddV2); count the rest once")])


@functools.cache
def retraces() -> Exercise:
    """08.2: traces of a fresh ``tf.function`` called with the Python ints 1, 2, 3, 2, 1, then the tensors 4 and 5."""
    calls = "g(1), g(2), g(3), g(2), g(1), g(tf.constant(4)), g(tf.constant(5))"

    def truth() -> int:
        from ..adapters.loader import load_tensorflow

        tf = load_tensorflow()

        @tf.function
        def g(n: Any) -> Any:
            return tf.constant(1.0) * tf.cast(n, tf.float32)

        for v in (1, 2, 3, 2, 1):
            g(v)
        g(tf.constant(4))
        g(tf.constant(5))
        return g.experimental_get_tracing_count()

    check = count_is(truth, "traces", lambda t: say(RETRACES_WHY, n=t))
    return Exercise("08.2", say(N_("g is a fresh @tf.function. After {calls}, how many traces has it made?"),
                                calls=calls), check,
                    hints=[N_("a Python int is part of the trace's key: a new value means a new graph"),
                           N_("a tensor is keyed by its dtype and shape only")])


@functools.cache
def wrong_input(f: Any, traced: Any) -> Exercise:
    """08.3: an input (3 numbers) on which the ``torch.jit.trace`` of ``f`` (traced on ones) is wrong."""

    def check(answer: Any) -> tuple[bool, str]:
        from ..adapters.loader import load_torch

        tt = load_torch()
        try:
            x = tt.tensor([float(v) for v in answer])
        except (TypeError, ValueError):
            return False, say(THREE_NUMBERS, example="[1.0, 2.0, 3.0]")
        if x.shape != (3,):
            return False, say(EXACTLY_THREE, n=x.numel())
        right, got = f(x), traced(x)
        if not tt.allclose(right, got):
            return True, say(TRACE_IS_WRONG)
        return False, say(TRACE_IS_RIGHT)

    return Exercise("08.3", N_("Give an input x (3 numbers) on which the traced function differs from f."), check,
                    hints=[N_("which branch did f take for the example input torch.ones(3)?"),
                           N_("make x.sum() > 0 false")])


@functools.cache
def which_capture_keeps_both_branches() -> Exercise:
    """08.4: which captures keep f's data-dependent branch correct (a set of names from ``CAPTURES``)."""
    truth = {"compile", "export+cond"}

    def check(answer: Any) -> tuple[bool, str]:
        got = names(answer)
        if got is None:
            return False, say(A_SET_OF_NAMES, example="{'fx', 'compile'}")
        unknown = got - set(CAPTURES)
        if unknown:
            return False, say(UNKNOWN_NAMES, names=sorted(unknown), known=sorted(CAPTURES))
        if got == truth:
            return True, say(CAPTURES_WHY)
        return False, say(NOT_QUITE)

    return Exercise("08.4", say(N_("Which captures keep f correct for every input? A set of: {names}"),
                                names=", ".join(CAPTURES)), check,
                    hints=[N_("one of the four raises, one gives a wrong answer without a word"),
                           N_("look at the counts: which one captured a graph for each branch?")])


#: 08.5's options: what a program exported on a (3,) example does with a (4,) input.
EXPORT_CHOICES = {
    "a": N_("it works: an exported program is one graph for every input"),
    "b": N_("it is refused: export recorded the example's shape as a condition of the graph; declare the dimension "
            "with dynamic_shapes to accept other lengths"),
    "c": N_("it works after a recompile for the new length, as with torch.compile"),
    "d": N_("it runs and returns a wrong result without a word, as torch.jit.trace did"),
}


def export_verdict() -> str:
    """What real ``torch.export`` does, tried now: export ``sin(x) * 2`` on a (3,) example without
    ``dynamic_shapes``, call it on a (4,) input; ``"b"`` if refused, ``"a"`` if it runs correctly, ``"d"`` if it
    runs and is wrong."""
    from ..adapters.loader import load_torch
    from ..adapters.quiet import captured

    torch = load_torch()

    class Double(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return torch.sin(x) * 2

    with captured("torch"):
        program = torch.export.export(Double(), (torch.ones(3),))
        x = torch.ones(4)
        try:
            out = program.module()(x)
        except Exception:  # noqa: BLE001 - a refusal is the answer we are looking for
            return "b"
    return "a" if torch.allclose(out, torch.sin(x) * 2) else "d"


@functools.cache
def export_shapes() -> Exercise:
    """08.5: a prediction with its reason, checked against real ``torch.export`` when the answer is checked."""
    why = {
        "a": N_("one graph for every value, but not for every shape: the example's shape became a guard"),
        "b": N_("torch.export specializes to the example's shapes unless dynamic_shapes (torch.export.Dim) says "
                "which dimensions may vary"),
        "c": N_("an exported program never recompiles: it has no Python and no compiler behind it, only its graph"),
        "d": N_("export checks its guards on every call and refuses what they exclude; it does not run silently"),
    }
    return Exercise("08.5", N_("What does a program exported on a (3,) example do with a (4,) input?"),
                    choice(EXPORT_CHOICES, export_verdict, why),
                    hints=[N_("look at the last torch.export cell of section 5"), N_("what did the guard say?")])


#: 08.6's options: how many kernels XLA's program runs for the MLP of section 6 with 5 GELU layers instead of 3.
XLA_CHOICES = {
    "a": N_("11: each GELU layer is one matrix product plus one fusion of its bias add and GELU ops, and the output "
            "layer one kernel more"),
    "b": N_("37: one kernel per op of the traced graph, as plain tf.function runs it"),
    "c": N_("7: the program is compiled once, whatever the number of layers"),
    "d": N_("1: XLA fuses the whole model into a single kernel"),
}


def xla_verdict(layers: int = 5) -> str:
    """08.6's answer, decided by real XLA: which option's count its optimized program for ``layers`` layers has."""
    from .xla_payoff import kernel_counts

    ops, kernels = kernel_counts(layers)
    _, kernels_3 = kernel_counts(3)
    return {2 * layers + 1: "a", ops: "b", kernels_3: "c", 1: "d"}.get(kernels, "none")


@functools.cache
def xla_kernels_choice() -> Exercise:
    """08.6: a prediction with its reason, checked against XLA's optimized program when the answer is checked."""
    why = {
        "a": N_("XLA keeps each matrix product as a kernel of its own and fuses the elementwise ops that follow it "
                "into one kernel, which reads and writes the layer's values once instead of once per op"),
        "b": N_("that is plain tf.function's count; XLA's point is to run fewer, larger kernels"),
        "c": N_("the program is compiled for this model: more layers, more code"),
        "d": N_("the matrix products stay separate kernels: XLA fuses elementwise work around them"),
    }
    return Exercise("08.6", N_("With 5 GELU layers instead of 3, how many kernels does XLA's program run, and why?"),
                    choice(XLA_CHOICES, xla_verdict, why),
                    hints=[N_("compare the counts section 6 printed: ops of the graph, kernels of XLA's program"),
                           N_("which ops of a layer can be computed in one pass over its values?")])
