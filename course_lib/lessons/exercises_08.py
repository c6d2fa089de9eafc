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
from .exercises import NOT_QUITE, Exercise, choice, count_is, names, numbers_of

__all__ = [
    "CAPTURES",
    "EXPORT_CHOICES",
    "MIXED_SHAPE",
    "REVEALS",
    "UNROLL_N",
    "XLA_CHOICES",
    "export_shapes",
    "export_verdict",
    "h",
    "mixed_counts",
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
TRACE_IS_WRONG = N_("h doubles this x, but the trace replays the branch it saw on torch.ones(3), whose largest "
                    "value is not above 1: it returns -x, silently")
TRACE_IS_RIGHT = N_("the traced function is right on this input")
A_SET_OF_NAMES = N_("answer with a set of names, like {example}")
UNKNOWN_NAMES = N_("unknown names {names}; choose from {known}")
CAPTURES_WHY = N_("torch.compile splits the function at the branch and compiles each side when it is taken; "
                  "torch.export keeps both branches when they are written with torch.cond. fx refuses the branch, "
                  "jit.trace silently keeps one")


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


def h(x: Any) -> Any:
    """08.3's function: ``x * 2`` when its largest value is above 1, else ``-x`` (a branch on a tensor's value)."""
    if x.max() > 1:
        return x * 2
    return -x


@functools.cache
def wrong_input() -> Exercise:
    """08.3: an input (3 numbers) on which the ``torch.jit.trace`` of :func:`h` (traced on ``torch.ones(3)``) is
    wrong. The trace is made here, when the exercise is built: the notebook shows only ``h``'s one-line rule."""
    from ..adapters.loader import load_torch
    from ..adapters.quiet import captured

    torch = load_torch()
    with captured():  # the TracerWarning (and jit.trace's deprecation) are the lesson of section 5, not of this check
        traced = torch.jit.trace(h, (torch.ones(3),))

    def check(answer: Any) -> tuple[bool, str]:
        values = numbers_of(answer)  # NaN would make h and the trace differ on every input: it is no number
        if values is None:
            return False, say(THREE_NUMBERS, example="[1.0, 2.0, 3.0]")
        if len(values) != 3:
            return False, say(EXACTLY_THREE, n=len(values))
        x = torch.tensor(values)
        if not torch.allclose(h(x), traced(x)):
            return True, say(TRACE_IS_WRONG)
        return False, say(TRACE_IS_RIGHT)

    return Exercise("08.3", N_("Give an input x (3 numbers) on which the trace of h differs from h."), check,
                    hints=[N_("which branch did h take for the example torch.ones(3)? Work its condition out by hand"),
                           N_("the trace replays that branch for every input: which inputs would send h itself the "
                              "other way?")])


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


#: 08.5's options: what a program exported with a dynamic length on a (3,) example returns for ``x * x.shape[0]``
#: on a (5,) input. Each is a different outcome a live run tells apart (the right one lands on "b").
EXPORT_CHOICES = {
    "a": N_("it returns threes: export baked the example's length 3 into the graph as a constant"),
    "b": N_("it returns fives: the length is a symbol in the graph, read from each input"),
    "c": N_("it returns fives, after a recompile for the new length, as torch.compile would do"),
    "d": N_("it is refused: the graph was exported for length 3 and checks it on every call"),
}


@functools.cache
def export_verdict() -> str:
    """08.5's answer, decided by real ``torch.export`` now: export ``x * x.shape[0]`` on ``torch.ones(3)`` with
    dimension 0 declared dynamic, call the program on ``torch.ones(5)``. ``"d"``: refused; ``"a"``: threes; ``"b"``:
    fives, and the graph reads the length from its input (an ``aten.sym_size`` node); ``"c"``: fives without such a
    node (the length would have been baked in again)."""
    from ..adapters.loader import load_torch
    from ..adapters.quiet import captured

    torch = load_torch()

    class Scale(torch.nn.Module):
        def forward(self, x: Any) -> Any:
            return x * x.shape[0]

    with captured("torch"):
        program = torch.export.export(Scale(), (torch.ones(3),), dynamic_shapes={"x": {0: torch.export.Dim("n")}})
        try:
            out = program.module()(torch.ones(5))
        except Exception:  # noqa: BLE001 - a refusal is one of the outcomes we are looking for
            return "d"
    if torch.allclose(out, torch.full((5,), 3.0)):
        return "a"
    reads_length = any("sym_size" in str(node.target) for node in program.graph.nodes)
    return "b" if reads_length else "c"


@functools.cache
def export_shapes() -> Exercise:
    """08.5: a prediction with its reason, checked against real ``torch.export`` when the answer is checked."""
    why = {
        "a": N_("that is what torch.jit.trace does with a Python value; a dimension declared with Dim stays a "
                "symbol"),
        "b": N_("a dimension declared with torch.export.Dim becomes a symbolic integer: the graph reads it from "
                "each input (an aten.sym_size node), so shape arithmetic follows the input"),
        "c": N_("an exported program never recompiles: it has no Python and no compiler behind it, only its graph"),
        "d": N_("the guard checks the range Dim allows, not the example's length: 5 is inside it"),
    }
    return Exercise("08.5", N_("What does x * x.shape[0], exported with a dynamic length on a (3,) example, return "
                               "for a (5,) input?"),
                    choice(EXPORT_CHOICES, export_verdict, why),
                    hints=[N_("what did dynamic_shapes change in the last cell of section 5: which lengths passed?"),
                           N_("jit.trace turned a Python value into a constant; is x.shape[0] a Python value here?")])


#: 08.6's matrices: x and w for ``mixed`` (small: the count does not depend on the size, and the plain run is quick).
MIXED_SHAPE = (512, 512)
#: 08.6's options: how many kernels XLA's program runs for section 6's chain cut in two by a matrix product.
XLA_CHOICES = {
    "a": N_("1: XLA fuses the whole program, the matrix product included, into one loop"),
    "b": N_("31: one kernel per op, as plain tf.function runs the same graph"),
    "c": N_("3: a fusion before the matrix product, the product alone, a fusion after"),
    "d": N_("2: the product fused with the ops before it, then one fusion after it"),
}


@functools.cache
def mixed_counts() -> tuple[int, int]:
    """``(plain kernels, XLA kernels)`` of ``mixed``: the first half of section 6's chain, a matrix product with
    ``w`` (``tf.matmul``), then the second half, on :data:`MIXED_SHAPE` matrices."""
    import numpy as np

    from ..adapters.loader import load_tensorflow
    from .xla_payoff import OPS, chain, kernel_counts

    tf = load_tensorflow()
    rng = np.random.default_rng(0)
    x, w = (tf.constant(rng.standard_normal(MIXED_SHAPE).astype(np.float32)) for _k in range(2))

    def mixed(x: Any) -> Any:
        return chain(tf.matmul(chain(x, OPS // 2), w), OPS - OPS // 2)

    return kernel_counts(mixed, x)


def xla_verdict() -> str:
    """08.6's answer, decided by real XLA: which option's count its optimized program for ``mixed`` has."""
    plain, kernels = mixed_counts()
    return {1: "a", plain: "b", 3: "c", 2: "d"}.get(kernels, "none")


@functools.cache
def xla_kernels_choice() -> Exercise:
    """08.6: a prediction with its reason, checked against XLA's optimized program when the answer is checked."""
    why = {
        "a": N_("XLA fuses elementwise work; the matrix product stays a kernel of its own"),
        "b": N_("that is plain tf.function's count; XLA's point is to run fewer, larger kernels"),
        "c": N_("XLA fuses each run of elementwise ops into one loop, and keeps the matrix product as a kernel of "
                "its own between them"),
        "d": N_("the ops before the product are fused into a loop of their own: the product reads its result"),
    }
    return Exercise("08.6", N_("The chain cut in two by a matrix product: how many kernels does XLA's program run, "
                               "and why?"),
                    choice(XLA_CHOICES, xla_verdict, why),
                    hints=[N_("what did XLA do with the 30 elementwise ops of section 6?"),
                           N_("is a matrix product an elementwise op: does each output value need one input value, "
                              "or a whole row and column?")])


#: For each exercise of notebook 08, the texts whose sight answers it (tests/test_exercise_spoilers.py): none may
#: appear above the exercise, in its prompt or in its hints, in English or in French.
REVEALS: dict[str, tuple[str, ...]] = {
    "08.1": ("102 ops", "range(n) -> 102", "102 opérations"),
    "08.2": ("4 traces", "traces: 4", "4 traçages"),
    "08.3": ("an entry greater than 1", "a value above 1", "largest value above 1", "une valeur supérieure à 1"),
    "08.4": ("{'compile', 'export+cond'}", "{'export+cond', 'compile'}", "compile and export+cond",
             "compile et export+cond"),
    "08.5": ("the length is a symbol in the graph", "la longueur est un symbole du graphe"),
    "08.6": ("a fusion before the matrix product, the product alone", "fusion, dot, fusion",
             "une fusion avant le produit matriciel, le produit seul"),
}
