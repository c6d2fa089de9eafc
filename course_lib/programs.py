"""Example programs of the course: plain Python functions over an ``ops`` namespace.

Each runs with either engine: ``program(course_lib.static, x=placeholder)`` builds a graph,
``program(course_lib.dynamic, x=Tensor)`` computes at once. The first argument is always ``ops``; the others
are the program's inputs (placeholders in define-then-run, tensors requiring grad in define-by-run).

>>> from course_lib import dynamic as dy
>>> round(float(affine_sin(dy, dy.Tensor(3.0), dy.Tensor(2.0)).data), 4)
0.657
"""

from __future__ import annotations

from typing import Any


def affine_sin(ops: Any, x: Any, w: Any) -> Any:
    """y = sin(x·w + 1): the course's running example."""
    h = x * w
    z = h + 1.0
    y = ops.sin(z)
    return y


def neuron(ops: Any, x: Any, w: Any, b: Any) -> Any:
    """One artificial neuron: tanh(w·x + b)."""
    z = w * x + b
    return ops.tanh(z)


def reuse(ops: Any, x: Any) -> Any:
    """A value used twice (the gradient must add both contributions): x·sin(x) + x²."""
    s = ops.sin(x)
    return x * s + x ** 2


def branch_with_cond(ops: Any, x: Any) -> Any:
    """A data-dependent branch written with ``ops.cond``: runs in both styles.

    Define-then-run puts *both* branches in the graph; define-by-run records only the branch taken.
    """
    positive = x > 0
    y = ops.cond(positive, lambda: ops.sin(x) * x, lambda: ops.exp(x) - 1.0)
    return y * 2.0


def branch_with_python_if(ops: Any, x: Any) -> Any:
    """The same branch as a plain Python ``if``: fine in define-by-run, an error in define-then-run."""
    if x > 0:
        y = ops.sin(x) * x
    else:
        y = ops.exp(x) - 1.0
    return y * 2.0


def repeat_until_large(ops: Any, x: Any) -> Any:
    """A data-dependent loop: square-and-add until the value exceeds 10 (at most 6 rounds).

    Define-by-run unrolls it as it runs, so the graph has as many rounds as this input needed.
    """
    y = x
    rounds = 0
    while y < 10.0 and rounds < 6:
        y = y * y + 1.0
        rounds += 1
    return y


def rnn_step_chain(ops: Any, x: Any, w: Any, u: Any) -> Any:
    """Three steps of a tiny recurrent cell h ← tanh(w·x + u·h): a fixed-length unroll."""
    h = 0.0
    for _ in range(3):
        h = ops.tanh(w * x + u * h)
    return h


EXAMPLES = {f.__name__: f for f in (affine_sin, neuron, reuse, branch_with_cond, branch_with_python_if,
                                    repeat_until_large, rnn_step_chain)}


def loop(n: int) -> Any:
    """A program of ``n`` ops (``n`` even): ``y = sin(y)·w``, ``n / 2`` times, from ``y = x``; the long trace a
    stepper's build time is measured on (benchmarks/stepper_build.py) and counted on (tests).

    >>> from course_lib import dynamic as dy
    >>> loop(4).__name__, round(float(loop(4)(dy, dy.Tensor(0.5), dy.Tensor(0.9)).data), 4)
    ('loop4', 0.3764)
    """

    def program(ops: Any, x: Any, w: Any) -> Any:
        y = x
        for _ in range(n // 2):
            y = ops.sin(y) * w
        return y

    program.__name__ = f"loop{n}"
    return program
