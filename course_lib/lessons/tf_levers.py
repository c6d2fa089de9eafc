"""TensorFlow's debugging levers for code inside a ``tf.function`` (notebook 04, section 3), each counted.

Inside a ``tf.function`` the Python body runs while tracing, not on every call; TensorFlow gives three levers for
living with that, all documented in its API reference and its *Introduction to graphs and tf.function* guide:

- ``tf.config.run_functions_eagerly(True)``: every ``tf.function`` runs its Python body eagerly on each call, so a
  ``print`` or a breakpoint sees real values (slow: for debugging only) -- :func:`python_runs`;
- variables are created only on the first trace: a ``tf.Variable`` made inside the body on every call raises
  ``ValueError`` (create it once, outside or guarded) -- :func:`variable_per_call`;
- ``reduce_retracing=True``: after a few shapes, ``tf.function`` generalizes the signature (``None`` dimensions)
  instead of tracing once per new shape -- :func:`retraces`.

TensorFlow is imported (quietly) only when a function here runs.
"""

from __future__ import annotations

from typing import Any

from ..adapters.loader import load_tensorflow
from ..adapters.quiet import ErrorSummary, captured, error_of

__all__ = ["python_runs", "retraces", "variable_per_call"]


def python_runs(calls: int = 3) -> dict[str, int]:
    """How many times the Python body of a ``tf.function`` ran over ``calls`` calls with new values of one
    signature: traced (once) and under ``run_functions_eagerly(True)`` (every call). The switch is always turned
    back off, even on error.

    >>> python_runs(3)
    {'traced graph': 1, 'run_functions_eagerly(True)': 3}
    """
    tf = load_tensorflow()
    runs: list[int] = []

    def body(x: Any) -> Any:
        runs.append(1)  # a Python side effect: it happens only when Python runs the body
        return x * 2.0

    out = {}
    for label, eager in (("traced graph", False), ("run_functions_eagerly(True)", True)):
        fn, before = tf.function(body), len(runs)
        tf.config.run_functions_eagerly(eager)
        try:
            for k in range(calls):
                fn(tf.constant(float(k)))
        finally:
            tf.config.run_functions_eagerly(False)
        out[label] = len(runs) - before
    return out


def variable_per_call() -> tuple[ErrorSummary | None, float]:
    """A ``tf.function`` that creates a ``tf.Variable`` in its body on every call (refused: the summary of the
    error), and the fix, a variable created once outside (its result for ``x = 3``).

    >>> error, fixed = variable_per_call()
    >>> error.kind, fixed
    ('ValueError', 6.0)
    """
    tf = load_tensorflow()

    @tf.function
    def scale_new(x: Any) -> Any:
        v = tf.Variable(2.0)  # a new variable on every call: refused
        return v * x

    error = error_of(scale_new, tf.constant(3.0))
    v = tf.Variable(2.0)  # the fix: one variable, created once, outside the function

    @tf.function
    def scale(x: Any) -> Any:
        return v * x

    return error, float(scale(tf.constant(3.0)))


def retraces(lengths: tuple[int, ...] = (1, 2, 3, 4, 5)) -> dict[str, int]:
    """Traces of ``tf.reduce_sum`` under ``tf.function`` for vectors of each length, without and with
    ``reduce_retracing=True`` (which generalizes the shape after a few traces).

    >>> counts = retraces((1, 2, 3, 4, 5))
    >>> counts["default"], counts["reduce_retracing=True"] < counts["default"]
    (5, True)
    """
    tf = load_tensorflow()
    plain = tf.function(lambda x: tf.reduce_sum(x))
    relaxed = tf.function(lambda x: tf.reduce_sum(x), reduce_retracing=True)
    with captured("tensorflow"):  # the retracing warnings are the lesson told elsewhere, noise here
        for n in lengths:
            plain(tf.ones(n))
            relaxed(tf.ones(n))
    return {"default": plain.experimental_get_tracing_count(),
            "reduce_retracing=True": relaxed.experimental_get_tracing_count()}
