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
from .autograd_memory import TANH, backward_twice
from .exercises import PASS_YOUR_FUNCTION, Exercise, choice, pairs

__all__ = ["BACKWARD_CHOICES", "MUL_CASES", "REVEALS", "backward_choice", "backward_verdict", "finite_difference",
           "mul_case_problem", "tiny_mul_backward"]

#: 03.5's options: what a second ``backward()`` through ``y = torch.tanh(x)`` does (a setting section 8 does not run).
BACKWARD_CHOICES = {
    "a": N_("it runs again and x.grad doubles: no tensor of this graph was saved"),
    "b": N_("it runs again, but x.grad stays the same: backward overwrites it"),
    "c": N_("it records tanh again, then walks the new graph it has just made"),
    "d": N_("it raises RuntimeError: the first call freed what tanh had saved"),
}

# The verdicts of 03.6 (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
RULE_RAISED = N_("{what}, at {at}: backward with your rule raised {error}")
RULE_RETURNED = N_("{what}, at {at}: every grad stayed 0 and your rule returned something; it must add to a.grad "
                   "and b.grad, not return the gradients")
RULE_GIVES = N_("{what}, at {at}: your rule gives {mine}; finite differences give {truth}")
RULE_IS_RIGHT = N_("every gradient agrees with finite differences, x·x included: += lets both uses of x add their "
                   "share")


def backward_verdict() -> str:
    """03.5's answer, decided by real PyTorch: what a second ``backward()`` through ``torch.tanh(x)`` did (an error:
    ``"d"``; it ran and ``x.grad`` doubled: ``"a"``; it ran and left ``x.grad`` as it was: ``"b"``)."""
    error, once, twice = backward_twice(TANH)
    if error is not None:
        return "d"
    return "a" if math.isclose(twice, 2 * once) else "b"


@functools.cache
def backward_choice() -> Exercise:
    """03.5: a prediction with its reason, checked against real PyTorch when the answer is checked."""
    why = {
        "a": N_("tanh's derivative, 1 - tanh(x)², needs tanh's output at backward time: tanh saved it, and the first "
                "backward freed it"),
        "b": N_("backward adds to x.grad, it never overwrites it; and here the second call does not even get that far"),
        "c": N_("the graph is recorded by the forward pass only; backward walks the record it was given"),
        "d": N_("tanh saved its output (its derivative is 1 - tanh(x)²) and the first backward freed it; "
                "retain_graph=True on the first call would have kept it, and x.grad would then add up"),
    }
    return Exercise("03.5", say(N_("What does a second y.backward() do when {program}, and why?"),
                                program="y = torch.tanh(x)"),
                    choice(BACKWARD_CHOICES, backward_verdict, why),
                    hints=[N_("section 8 walked two graphs twice: what did the one that failed have that the other "
                              "had not?"),
                           N_("to compute tanh's local derivative, what must backward still have in hand?")])


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
    what, at = _(what), pairs(zip(names, point, strict=True), sep="=")
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
    if all(math.isclose(g, e, rel_tol=1e-5, abs_tol=1e-6) for g, e in zip(got, expected, strict=True)):
        return ""
    if not any(got) and any(r is not None for r in returned):
        return say(RULE_RETURNED, what=what, at=at)
    mine = pairs(((f"{n}.grad", g) for n, g in zip(names, got, strict=True)), spec=".6g")
    truth = pairs(((f"{n}.grad", e) for n, e in zip(names, expected, strict=True)), spec=".6g")
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


#: What would give each exercise of notebook 03 away if it showed above it (tests/test_exercise_spoilers.py): a count
#: printed for x = 0.8 (03.1), a data-dependent branch (03.2), the value of h (03.3), a six-node function (03.4), the
#: right option's words (03.5, English and French), the rule of a product (03.6).
REVEALS: dict[str, tuple[str, ...]] = {
    "03.1": ("0.8: 10", "x = 0.8: 10", "0,8 : 10"),
    "03.2": ("if x > 0:", "if x < 0:", "if x >= 0:", "if x <= 0:"),
    "03.3": ("h = 1.025", "Tensor(1.025", "h = 1,025", "h is Tensor(1.0250"),
    "03.4": ("torch.sin(torch.exp(x * 2.0) + 1.0) * 3.0",),
    "03.5": ("the first call freed what tanh had saved", "le premier appel a libéré ce que tanh avait sauvegardé"),
    "03.6": ("a.grad += out.grad * b.data", "b.grad += out.grad * a.data", "∂out/∂a = b", "d(a·b) = (b, a)"),
}
