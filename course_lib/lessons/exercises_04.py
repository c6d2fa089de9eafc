"""Checked exercises of notebook 04, *Side by side*, that need more than a line of the notebook (04.1-04.4 are
built in the notebook from :mod:`~course_lib.lessons.graph_checks`). Both are decisions or predictions *with a
reason* (:func:`~course_lib.lessons.exercises.choice`), and the right option is decided by real TensorFlow when
the answer is checked (:mod:`~course_lib.lessons.tf_debugging`), never typed in. Each function returns the same
:class:`Exercise` on every call, so a re-run cell keeps counting attempts. Worked solutions:
``instructor/04_side_by_side_solutions.md``.

>>> debug_choice().check("z").ok
False
>>> retrace_choice().check("a").message.startswith("a: ")
True
"""

from __future__ import annotations

import functools

from ..i18n import N_, say
from .exercises import Exercise, choice
from .tf_debugging import EAGER, RELAXED, TRACED, python_runs, retraces

__all__ = ["DEBUG_CHOICES", "RETRACE_CHOICES", "RETRACE_LENGTHS", "debug_choice", "debug_verdict", "retrace_choice",
           "retrace_verdict"]

#: 04.5's options: a print inside a tf.function showed one line for many calls; what to do, and why.
DEBUG_CHOICES = {
    "a": N_("nothing is wrong: a print in a tf.function runs on every call, so the function ran only once"),
    "b": N_("turn on tf.config.run_functions_eagerly(True) while debugging: the Python body then runs on every "
            "call, so the print sees each call's real values"),
    "c": N_("add reduce_retracing=True: with fewer traces, the print runs more often"),
    "d": N_("nothing can be done: a print inside a graph breaks it in two, so its values are lost"),
}

#: 04.6's vector lengths, in call order.
RETRACE_LENGTHS = (4, 4, 7, 2, 9)

#: 04.6's options: how many lines a print of the shape prints under reduce_retracing=True, and why.
RETRACE_CHOICES = {
    "a": N_("5 lines: a print in a tf.function runs on every call"),
    "b": N_("4 lines: one trace per new length; reduce_retracing only changes the warning"),
    "c": N_("2 lines: length 4 gets its own trace, then length 7 a generic one (length None) that also serves 2 and "
            "9"),
    "d": N_("1 line: with reduce_retracing the very first trace already has length None"),
}


def debug_verdict(calls: int = 3) -> str:
    """04.5's answer, decided by real TensorFlow: ``"b"`` when the body ran once traced and on every call with
    ``run_functions_eagerly(True)``, ``"a"`` otherwise.

    >>> debug_verdict()
    'b'
    """
    runs = python_runs(calls)
    return "b" if runs == {TRACED: 1, EAGER: calls} else "a"


@functools.cache
def debug_choice() -> Exercise:
    """04.5: a decision with its reason, checked against real TensorFlow when the answer is checked.

    >>> debug_choice().check("b").ok
    True
    """
    why = {
        "a": N_("a Python print runs while tracing, once per trace, not on every call (section 3 counted 1 line for 3 "
                "calls)"),
        "b": N_("with run_functions_eagerly(True) the body ran, and printed real values, on each of 3 calls; switch "
                "it off again afterwards, it slows every tf.function down (tf.print, a graph op, is the other way)"),
        "c": N_("reduce_retracing makes traces rarer, so a Python print runs even less often"),
        "d": N_("that is torch.compile's graph break; a tf.function runs the print once, while tracing, and keeps "
                "one graph"),
    }
    return Exercise("04.5", N_("A print in a tf.function showed one line for many calls: what do you do, and why?"),
                    choice(DEBUG_CHOICES, debug_verdict, why),
                    hints=[N_("when does Python run the body of a tf.function?"),
                           N_("which lever printed 3 lines for 3 calls?")])


def retrace_verdict(lengths: tuple[int, ...] = RETRACE_LENGTHS) -> str:
    """04.6's answer, decided by real TensorFlow: the option whose line count is what a ``print`` in the body of
    a ``reduce_retracing=True`` function printed for ``lengths`` (``"c"`` also needs the last trace to be generic);
    ``""`` (no option right) for any other count.

    >>> retrace_verdict()
    'c'
    """
    printed = retraces(lengths)[RELAXED].printed
    if len(printed) == 2:
        return "c" if "None" in printed[-1] else ""
    return {len(lengths): "a", len(set(lengths)): "b", 1: "d"}.get(len(printed), "")


@functools.cache
def retrace_choice() -> Exercise:
    """04.6: a prediction with its reason, checked against real TensorFlow when the answer is checked.

    >>> retrace_choice().check("c").ok
    True
    """
    why = {
        "a": N_("a print runs while tracing, not on every call: the second vector of length 4 reuses the first "
                "trace"),
        "b": N_("that is the default (one trace each for 4, 7, 2 and 9); with reduce_retracing the second new length "
                "already gets a generic trace"),
        "c": N_("the first trace is exact, shape (4,); the next new length makes tf.function trace the generic shape "
                "(None,), which every later vector matches, so it prints 2 lines"),
        "d": N_("the first trace is exact, shape (4,): tf.function generalizes only once it has seen a second "
                "shape"),
    }
    lengths = ", ".join(map(str, RETRACE_LENGTHS))
    return Exercise("04.6", say(N_("A print of the shape in a reduce_retracing=True function, called on vectors of "
                                   "lengths {lengths}: how many lines, and why?"), lengths=lengths),
                    choice(RETRACE_CHOICES, retrace_verdict, why),
                    hints=[N_("a Python print runs once per trace: count the traces"),
                           N_("section 3 printed the shape of each trace for five lengths: what was the second "
                              "shape?")])
