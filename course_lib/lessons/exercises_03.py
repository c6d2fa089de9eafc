"""Checked exercises of notebook 03, *Define-by-run: PyTorch*, that need more than a line of the notebook (03.1-03.4
are built in the notebook). Worked solutions: ``instructor/03_define_by_run_pytorch_solutions.md``.

>>> backward_choice().check("z").ok
False
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from ..adapters.quiet import summarize
from ..i18n import N_, say
from ..i18n import gettext as _
from . import tiny_dynamic as td
from .autograd_memory import backward_twice
from .exercises import Exercise, choice, pairs

__all__ = ["BACKWARD_CHOICES", "MUL_CASES", "backward_choice", "backward_verdict", "finite_difference",
           "mul_case_problem", "tiny_mul_backward"]

#: 03.5's options: what a second ``backward()`` through the same graph does.
BACKWARD_CHOICES = {
    "a": N_("it runs again and x.grad doubles: the graph is still there, so backward can walk it again"),
    "b": N_("it raises RuntimeError: the first backward freed the tensors the graph saved; pass retain_graph=True "
            "to the first call to keep them"),
    "c": N_("it does nothing: the gradients are already in x.grad"),
    "d": N_("it records the forward graph again, then walks it: define-by-run rebuilds the graph whenever needed"),
}

# The verdicts of 03.6 (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
RULE_RAISED = N_("{what}, at {at}: backward with your rule raised {error}")
RULE_RETURNED = N_("{what}, at {at}: every grad stayed 0 and your rule returned something; it must add to a.grad "
                   "and b.grad, not return the gradients")
RULE_GIVES = N_("{what}, at {at}: your rule gives {mine}; finite differences give {truth}")
PASS_YOUR_FUNCTION = N_("pass your function itself, e.g. {example}, not what it returns")
RULE_IS_RIGHT = N_("every gradient agrees with finite differences, x·x included: += lets both uses of x add their "
                   "share")


def backward_verdict() -> str:
    """03.5's answer, decided by real PyTorch: ``"b"`` when a second backward fails without ``retain_graph`` and
    runs with it."""
    fails, _saved = backward_twice(retain_graph=False)
    kept, _saved = backward_twice(retain_graph=True)
    if fails is not None and fails.kind == "RuntimeError" and kept is None:
        return "b"
    return "a"


@functools.cache
def backward_choice() -> Exercise:
    """03.5: a prediction with its reason, checked against real PyTorch when the answer is checked."""
    why = {
        "a": N_("only with retain_graph=True on the first call: by default backward frees what the graph saved"),
        "b": N_("backward frees the saved tensors as it goes (memory back at once); retain_graph=True keeps them, "
                "and x.grad then accumulates over both calls"),
        "c": N_("backward does not check x.grad: it walks the graph, and the graph can no longer be walked"),
        "d": N_("the graph is recorded by the forward pass only; backward walks the record it was given"),
    }
    return Exercise("03.5", N_("What does a second y.backward() do, and why?"),
                    choice(BACKWARD_CHOICES, backward_verdict, why),
                    hints=[N_("what did section 8 print for the second call?"), N_("what does retain_graph keep?")])


#: 03.6's cases: ``(what, names of the leaves, the point, program(mul, *leaves))``; ``mul`` carries the rule tried.
MUL_CASES: list[tuple[str, str, tuple[float, ...], Callable[..., td.Value]]] = [
    ("x·w", "xw", (3.0, -2.0), lambda mul, x, w: mul(x, w)),
    (N_("x·x, the same value used twice"), "x", (1.5,), lambda mul, x: mul(x, x)),
    (N_("sin(x·w) + x, where out.grad is not 1"), "xw", (0.7, 1.3), lambda mul, x, w: mul(x, w).sin() + x),
    ("exp(0.5·x)·x", "x", (0.4,), lambda mul, x: mul(mul(0.5, x).exp(), x)),
]


def finite_difference(program: Callable[..., td.Value], point: tuple[float, ...], i: int, h: float = 1e-6) -> float:
    """``∂program/∂leaf i`` at ``point`` by central differences, from forward values only (no backward rule)."""
    def at(shift: float) -> float:
        moved = [p + shift * (k == i) for k, p in enumerate(point)]
        return program(td.mul, *(td.Value(p) for p in moved)).data

    return (at(h) - at(-h)) / (2 * h)


def mul_case_problem(rule: Callable[[td.Value, td.Value, td.Value], Any], case: tuple) -> str:
    """What goes wrong when ``rule`` is the backward of every ``mul`` in one of :data:`MUL_CASES` ("" if nothing):
    its gradients against :func:`finite_difference`, or what it raised, in one line (a course message:
    :data:`RULE_RAISED`, :data:`RULE_RETURNED` or :data:`RULE_GIVES`)."""
    what, names, point, program = case
    what, at = _(what), pairs(zip(names, point), sep="=")
    returned: list[Any] = []  # a rule that returns its gradients instead of adding them is told so

    def recorded(a: td.Value, b: td.Value, out: td.Value) -> None:
        returned.append(rule(a, b, out))

    leaves = [td.Value(p) for p in point]
    try:
        program(functools.partial(td.mul, backward=recorded), *leaves).backward()
        got = [float(v.grad) for v in leaves]
    except Exception as err:  # noqa: BLE001 - the student's rule may raise anything; say what, in one line
        return say(RULE_RAISED, what=what, at=at, error=f"{summarize(err).kind}: {summarize(err).message}")
    expected = [finite_difference(program, point, i) for i in range(len(point))]
    if all(math.isclose(g, e, rel_tol=1e-5, abs_tol=1e-6) for g, e in zip(got, expected)):
        return ""
    if not any(got) and any(r is not None for r in returned):
        return say(RULE_RETURNED, what=what, at=at)
    mine = pairs(((f"{n}.grad", g) for n, g in zip(names, got)), spec=".6g")
    truth = pairs(((f"{n}.grad", e) for n, e in zip(names, expected)), spec=".6g")
    return say(RULE_GIVES, what=what, at=at, mine=mine, truth=truth)


@functools.cache
def tiny_mul_backward() -> Exercise:
    """03.6: the student's ``mul_backward(a, b, out)`` for :mod:`~course_lib.lessons.tiny_dynamic`, plugged into
    ``tiny_dynamic.mul(a, b, backward=...)`` on :data:`MUL_CASES` (:func:`mul_case_problem`); every gradient is
    compared with :func:`finite_difference` when the answer is checked."""

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, say(PASS_YOUR_FUNCTION, example=".check(mul_backward)")
        for case in MUL_CASES:
            problem = mul_case_problem(answer, case)
            if problem:
                return False, problem
        return True, say(RULE_IS_RIGHT)

    return Exercise("03.6", N_("Write mul_backward(a, b, out) for tiny_dynamic: when backward reaches out = a·b, add "
                               "out.grad's share to a.grad and to b.grad (it returns nothing). Check with "
                               ".check(mul_backward)."),
                    check,
                    hints=[N_("how much does out = a·b move when a moves a little and b stays put? That slope, times "
                              "out.grad, is a's share; then the same for b"),
                           N_("the numbers are a.data and b.data; out.grad is already complete when your rule runs"),
                           N_("in x·x, a and b are the same Value: both shares must end up in it, so neither may "
                              "overwrite the other")])
