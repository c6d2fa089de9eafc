"""Checked exercises of notebook 04, *Side by side*. Each function returns the same :class:`Exercise` on every
call, so a re-run cell keeps counting attempts. Worked solutions: ``instructor/04_side_by_side_solutions.md``.

- 04.1-04.4 write or predict code: a Python ``if`` rewritten with ``ops.cond`` (:func:`cond_rewrite`), the
  compile report of :func:`wasteful2` (:func:`compile_counts`), two values fetched in one ``Session.run``
  (:func:`fetched_values`), and :func:`with_if2` made exportable with ``torch.cond`` (:func:`export_rewrite`).
  Their checkers (:mod:`~course_lib.lessons.graph_checks`) compute the truth from the program when the answer is
  checked, never from a stored solution.
- 04.5 and 04.6 are predictions *with a reason* (:func:`~course_lib.lessons.exercises.choice`) in settings the
  notebook does not show; the right option is decided by real TensorFlow when the answer is checked
  (:mod:`~course_lib.lessons.tf_debugging`), never typed in.

:data:`REVEALS` lists, for every exercise, the texts whose sight answers it (``tests/test_exercise_spoilers.py``
fails when one appears above the exercise, or in its prompt or hints).

>>> debug_choice().check("z").ok
False
>>> retrace_choice().check("a").message.startswith("a: ")
True
"""

from __future__ import annotations

import functools
from typing import Any

from .. import programs
from ..i18n import N_
from . import graph_checks
from .exercises import Exercise, choice
from .tf_debugging import python_value_traces, variable_per_call_eagerly

__all__ = ["DEBUG_CHOICES", "EAGER_XS", "PYTHON_NUMBERS", "RETRACE_CHOICES", "REVEALS", "TENSORS", "compile_counts",
           "cond_rewrite", "debug_choice", "debug_verdict", "export_rewrite", "fetched_values", "retrace_choice",
           "retrace_verdict", "wasteful2", "with_if2"]

#: The texts whose sight answers each exercise (English and French): a solution's key line, the right option's
#: own words, the values a right answer holds.
REVEALS: dict[str, tuple[str, ...]] = {
    "04.1": ("ops.cond(x > 0", "cond(x > 0, lambda: ops.sin(x) * x"),
    "04.2": ("(1, 1, 1)", "pruned 1, folded 1, merged 1", "élagués 1, repliés 1, fusionnés 1"),
    "04.3": ("y = 0.598472", "y = 0,598472", "h = 1.5, y = 0.598"),
    "04.4": ("torch.cond(x.mean() > 1.0", "x.mean() > 1.0, lambda x: x * x - 1.0"),
    "04.5": ("no error: the body runs as plain Python", "makes a new variable on each call",
             "aucune erreur : le corps s'exécute en Python ordinaire", "crée une nouvelle variable à chaque appel"),
    "04.6": ("each new Python number gets its own trace", "3 lines: each new Python number",
             "chaque nouveau nombre Python a son propre traçage", "3 lignes : chaque nouveau nombre Python"),
}


# ---------------------------------------------------------------------------------------------------- 04.1-04.4
def wasteful2(ops: Any, x: Any) -> Any:
    """04.2's program: a repeated ``tanh``, a constant subexpression and an unused value."""
    a = ops.tanh(x) * ops.tanh(x)
    b = ops.exp(ops.constant(2.0))
    unused = ops.sin(a)  # noqa: F841 - on purpose: a value nobody needs
    return a + b


def with_if2(x: Any) -> Any:
    """04.4's function: a Python ``if`` on a tensor's value, which ``torch.export`` cannot trace."""
    if x.mean() > 1.0:
        return x * x - 1.0
    return x.tanh()


#: 04.1's test points: both signs, both branches.
COND_XS = (-2.0, -0.5, 0.5, 2.0)
#: 04.3's feeds.
FEEDS = {"x": 0.5, "w": 3.0}


@functools.cache
def cond_rewrite() -> Exercise:
    """04.1: ``branch_with_python_if`` rewritten with ``ops.cond``, built by define-then-run, same results.

    >>> cond_rewrite().check(programs.branch_with_cond).ok
    True
    """
    return Exercise("04.1", N_("branch_with_python_if rewritten so that define-then-run builds it"),
                    graph_checks.builds_like(programs.branch_with_python_if, COND_XS),
                    hints=[N_("section 4's refusal (SymbolicBoolError) says what to write instead of the if"),
                           N_("ops.cond takes each branch as a function without arguments (a lambda with no "
                              "parameters); the line after the if stays as it is")])


@functools.cache
def compile_counts() -> Exercise:
    """04.2: predict (pruned, folded, merged) for :func:`wasteful2`.

    >>> compile_counts().check((0, 0, 0)).ok
    False
    """
    return Exercise("04.2", N_("(pruned, folded, merged) for wasteful2"),
                    graph_checks.compile_report_is(wasteful2, {"x": 1.0}),
                    hints=[N_("pruned: nodes the fetched output does not need; folded: ops whose inputs are all "
                              "constants; merged: a repeat of an op already computed on the same inputs"),
                           N_("try your counting on section 5 first: count wasteful's pruned, folded and merged "
                              "nodes by hand, then compare with the report printed there")])


@functools.cache
def fetched_values() -> Exercise:
    """04.3: ``[h, y]`` of the notebook's ``model`` (:func:`course_lib.programs.affine_sin`) at x = 0.5, w = 3.0.

    >>> fetched_values().check([1.5, 0.0]).ok
    False
    """
    return Exercise("04.3", N_("[h, y] of model at x = 0.5, w = 3.0, fetched in one Session.run"),
                    graph_checks.values_are(programs.affine_sin, ["h", "y"], FEEDS),
                    hints=[N_("inside `with g.as_default():` write the model's lines yourself, so that h is a "
                              "tensor you can fetch"),
                           N_("section 2 fetched h and y in one call: do the same with this exercise's feeds")])


@functools.cache
def export_rewrite() -> Exercise:
    """04.4: :func:`with_if2` rewritten with ``torch.cond``; exported from the first example, checked on three
    examples of one shape (an exported program is specialised to its example's shape).

    >>> export_rewrite().check(lambda x: x * 2.0).ok
    False
    """
    from ..adapters.loader import load_torch

    torch = load_torch()
    examples = [torch.tensor([2.0, 3.0]), torch.tensor([0.0, -1.0]), torch.tensor([1.0, 1.0])]
    return Exercise("04.4", N_("with_if2 rewritten so that torch.export can export it"),
                    graph_checks.torch_export_matches(with_if2, examples),
                    hints=[N_("torch.cond(pred, true_fn, false_fn, (x,)): each branch is a function of the "
                              "operands, and both must return the same shape"),
                           N_("section 6's with_cond follows this pattern: take the predicate from with_if2's if, "
                              "the branches from its two returns")])


# ---------------------------------------------------------------------------------------------------- 04.5
#: 04.5's inputs, in call order.
EAGER_XS = (3.0, 4.0, 5.0)

#: 04.5's options: lever 2's refused function, called with lever 1 on.
DEBUG_CHOICES = {
    "a": N_("three results, no error: the body runs as plain Python and makes a new variable on each call"),
    "b": N_("the same ValueError on the first call: TensorFlow still traces the body twice to make variables"),
    "c": N_("one result, then a ValueError on the second call, the first call that makes a second variable"),
    "d": N_("three results from a single variable: run eagerly, the body creates its variable on the first call "
            "only"),
}


def debug_verdict(xs: tuple[float, ...] = EAGER_XS) -> str:
    """04.5's answer, decided by real TensorFlow (:func:`~.tf_debugging.variable_per_call_eagerly`): ``"a"`` when
    every call returned and made its own variable, ``"d"`` when they shared one, ``"b"`` or ``"c"`` when the first
    or a later call raised; ``""`` (no option right) for anything else.

    >>> debug_verdict()
    'a'
    """
    seen = variable_per_call_eagerly(xs)
    if seen.error is None:
        return {len(xs): "a", 1: "d"}.get(seen.variables, "")
    return "b" if seen.failed_at == 1 else "c"


@functools.cache
def debug_choice() -> Exercise:
    """04.5: a prediction with its reason, checked against real TensorFlow when the answer is checked.

    >>> debug_choice().check("a").ok
    True
    """
    why = {
        "a": N_("run eagerly, a tf.function calls your Python directly: nothing is traced, so the rule that "
                "variables are made on the first call only never applies, and each call made its own variable. A "
                "bug of the graph can hide while you debug: run it again with the lever off"),
        "b": N_("the ValueError came from the second trace of the first call; with run_functions_eagerly(True) the "
                "body is not traced at all"),
        "c": N_("nothing counts the variables when the body runs eagerly: each call makes a new one without "
                "complaint"),
        "d": N_("run eagerly, the body is plain Python on every call, so each call ran tf.Variable(2.0) again"),
    }
    return Exercise("04.5", N_("Lever 2's refused function, called on 3.0, 4.0 and 5.0 with lever 1 on: what "
                               "happens, and why?"),
                    choice(DEBUG_CHOICES, debug_verdict, why),
                    hints=[N_("where did lever 2's ValueError come from: from running the body, or from tracing "
                              "it?"),
                           N_("what does run_functions_eagerly(True) change in how a tf.function's body runs?")])


# ---------------------------------------------------------------------------------------------------- 04.6
#: 04.6's calls: the Python numbers first, then tensors of these values.
PYTHON_NUMBERS = (1.0, 2.0, 1.0)
TENSORS = (3.0, 4.0)

#: 04.6's options: how many lines a print of the argument prints, and why.
RETRACE_CHOICES = {
    "a": N_("5 lines: with Python numbers as arguments, the body runs on every call as eager code does"),
    "b": N_("2 lines: the second call, 2.0, gets a generic trace that every later call then matches"),
    "c": N_("3 lines: each new Python number gets its own trace; the two tensors share a single one"),
    "d": N_("4 lines: one trace per distinct value, numbers and tensors alike; the repeated 1.0 is reused"),
}


def retrace_verdict(numbers: tuple[float, ...] = PYTHON_NUMBERS, tensors: tuple[float, ...] = TENSORS) -> str:
    """04.6's answer, decided by real TensorFlow (:func:`~.tf_debugging.python_value_traces`): the option whose
    line count is what a ``print(x)`` in the body printed (``"c"`` also needs one line per new number and one for
    the tensors); ``""`` (no option right) for any other count.

    >>> retrace_verdict()
    'c'
    """
    printed = python_value_traces(numbers, tensors)
    count = len(printed)
    if count == len(set(numbers)) + 1:
        return "c" if "Tensor" in printed[-1] else ""
    return {len(numbers) + len(tensors): "a", 2: "b", len(set(numbers)) + len(set(tensors)): "d"}.get(count, "")


@functools.cache
def retrace_choice() -> Exercise:
    """04.6: a prediction with its reason, checked against real TensorFlow when the answer is checked.

    >>> retrace_choice().check("c").ok
    True
    """
    why = {
        "a": N_("a print runs when Python runs the body, that is only while tracing; the second 1.0 reuses the "
                "trace of the first"),
        "b": N_("reduce_retracing relaxes tensor shapes; a Python number has no generic form, so each new value "
                "is a new trace"),
        "c": N_("a Python number is part of the signature by its value and becomes a constant of the graph: 1.0 and "
                "2.0 are two traces, the second 1.0 reuses the first; a tensor is traced by dtype and shape, so 3.0 "
                "and 4.0 share one"),
        "d": N_("a tensor's value is not part of the signature, only its dtype and shape: tf.constant(3.0) and "
                "tf.constant(4.0) share one trace"),
    }
    return Exercise("04.6", N_("A print(x) in a reduce_retracing=True function, called with 1.0, 2.0, 1.0, then "
                               "tf.constant(3.0) and tf.constant(4.0): how many lines, and why?"),
                    choice(RETRACE_CHOICES, retrace_verdict, why),
                    hints=[N_("a Python print runs once per trace: count the traces"),
                           N_("section 3's first tf.function took three different tensors and traced once: what in "
                              "a call decides whether a trace is reused? Ask the same of a Python number")])
