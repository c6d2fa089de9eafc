"""TensorFlow's debugging levers for code inside a ``tf.function`` (notebook 04, section 3), each counted live.

Inside a ``tf.function`` the Python body runs while TensorFlow *traces* it, not on every call. TensorFlow documents
three levers for living with that (API reference of ``tf.function`` and ``tf.config.run_functions_eagerly``; guides
*Introduction to graphs and tf.function* and *Better performance with tf.function*):

- ``tf.config.run_functions_eagerly(True)`` runs every ``tf.function``'s Python body eagerly on each call, so a
  ``print`` or a breakpoint sees real values; it slows everything down, so switch it off again
  (:func:`eagerly`, :func:`print_lines`, :func:`python_runs`);
- variables are created only on the first call: a ``tf.Variable`` made in the body on every call is refused with a
  ``ValueError`` when TensorFlow traces the body a second time; create it once, outside or behind
  ``if self.v is None`` (:func:`variable_per_call`, :func:`two_line_summary`);
- ``reduce_retracing=True``: after a new shape, ``tf.function`` traces a more generic signature (a ``None``
  dimension) instead of one graph per shape (:func:`retraces`).

TensorFlow is imported (quietly, through :mod:`course_lib.adapters.loader`) only when a function here runs.

>>> lines = print_lines(calls=2)
>>> {mode: len(printed) for mode, printed in lines.items()}
{'traced graph': 1, 'run_functions_eagerly(True)': 2}
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..adapters.loader import load_tensorflow
from ..adapters.quiet import ErrorSummary, captured, error_of
from ..i18n import N_
from ..i18n import gettext as _

__all__ = ["EAGER", "RELAXED", "TRACED", "Traces", "VariableLesson", "eagerly", "print_lines", "python_runs",
           "retraces", "two_line_summary", "variable_per_call"]

TRACED = "traced graph"
EAGER = "run_functions_eagerly(True)"
RELAXED = "reduce_retracing=True"
_URL = re.compile(r"\s*See https?://\S+.*$")
NO_ERROR = N_("no error: the variable was accepted")


@contextlib.contextmanager
def eagerly() -> Iterator[None]:
    """``tf.config.run_functions_eagerly(True)`` inside the block; the previous setting is restored on the way
    out, even when the block raises.

    >>> tf = load_tensorflow()
    >>> with eagerly():
    ...     tf.config.functions_run_eagerly()
    True
    >>> tf.config.functions_run_eagerly()
    False
    """
    tf = load_tensorflow()
    before = tf.config.functions_run_eagerly()
    tf.config.run_functions_eagerly(True)
    try:
        yield
    finally:
        tf.config.run_functions_eagerly(before)


def print_lines(calls: int = 3) -> dict[str, list[str]]:
    """What a Python ``print`` in the body of a fresh ``tf.function`` printed over ``calls`` calls with new
    values of one signature: traced (it prints once, while tracing, a symbolic tensor) and inside :func:`eagerly`
    (it prints on every call, with the call's value).

    >>> print_lines(calls=2)[TRACED]
    ['x = Tensor("x:0", shape=(), dtype=float32)']
    """
    tf = load_tensorflow()

    def body(x: Any) -> Any:
        print("x =", x)  # a Python side effect: it happens only when Python runs the body
        return x * 2.0

    out: dict[str, list[str]] = {}
    for mode in (TRACED, EAGER):
        fn = tf.function(body)
        with captured() as seen, (eagerly() if mode == EAGER else contextlib.nullcontext()):
            for k in range(calls):
                fn(tf.constant(float(k)))
        out[mode] = [line for line in seen.text.splitlines() if line.startswith("x =")]
    return out


def python_runs(calls: int = 3) -> dict[str, int]:
    """How many times the Python body of a ``tf.function`` ran over ``calls`` calls (the lines of
    :func:`print_lines`), traced and with ``run_functions_eagerly(True)``.

    >>> python_runs(3)
    {'traced graph': 1, 'run_functions_eagerly(True)': 3}
    """
    return {mode: len(printed) for mode, printed in print_lines(calls).items()}


def two_line_summary(error: ErrorSummary) -> str:
    """The first two sentences of an error's innermost message, one per line, without the link TensorFlow adds
    (what a notebook shows instead of a traceback).

    >>> two_line_summary(ErrorSummary("ValueError", "in user code:", "ValueError: A. B c. See https://x.org"))
    'ValueError: A.\\nB c.'
    """
    text = _URL.sub("", error.cause or f"{error.kind}: {error.message}")
    sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", text) if s.strip()]
    return "\n".join(sentences[:2])


@dataclass(frozen=True)
class VariableLesson:
    """What :func:`variable_per_call` saw: the ``error`` of a body that creates a variable on every call (None if
    there was none), how many times that body ran (``body_runs``: it is traced twice on the first call), and the
    two fixes, each called with 3.0, 4.0, 5.0 on a variable of value 2.0: ``outside`` (created before the
    function) and ``once`` (created in the body behind ``if self.v is None``), with the number of variables the
    guarded module ended up with (``once_variables``)."""

    error: ErrorSummary | None
    body_runs: int
    outside: tuple[float, ...]
    once: tuple[float, ...]
    once_variables: int

    def summary(self) -> str:
        """The error in two lines (see :func:`two_line_summary`), or a line saying there was none."""
        return two_line_summary(self.error) if self.error else _(NO_ERROR)


def variable_per_call() -> VariableLesson:
    """A ``tf.function`` whose body creates a ``tf.Variable`` on every call (refused), and the two fixes.

    >>> lesson = variable_per_call()
    >>> lesson.error.kind, lesson.body_runs, lesson.outside, lesson.once, lesson.once_variables
    ('ValueError', 2, (6.0, 8.0, 10.0), (6.0, 8.0, 10.0), 1)
    """
    tf = load_tensorflow()
    runs: list[int] = []

    @tf.function
    def scale_new(x: Any) -> Any:
        runs.append(1)
        v = tf.Variable(2.0)  # a new variable every time Python runs the body: refused
        return v * x

    error = error_of(scale_new, tf.constant(3.0))
    v = tf.Variable(2.0)  # fix 1: one variable, created once, outside the function
    scale = tf.function(lambda x: v * x)

    class Scale(tf.Module):  # fix 2: created in the body, but only while self.v is None
        def __init__(self) -> None:
            super().__init__()
            self.v: Any = None

        @tf.function
        def __call__(self, x: Any) -> Any:
            if self.v is None:
                self.v = tf.Variable(2.0)
            return self.v * x

    guarded = Scale()
    xs = [tf.constant(x) for x in (3.0, 4.0, 5.0)]
    return VariableLesson(error, len(runs), tuple(float(scale(x)) for x in xs),
                          tuple(float(guarded(x)) for x in xs), len(guarded.variables))


@dataclass(frozen=True)
class Traces:
    """One ``tf.function``'s traces: ``count`` as TensorFlow reports it (``experimental_get_tracing_count``) and
    ``printed``, the lines a ``print`` of the input's shape in its body printed (one per trace)."""

    count: int
    printed: tuple[str, ...]


def retraces(lengths: tuple[int, ...] = (1, 2, 3, 4, 5)) -> dict[str, Traces]:
    """Call ``tf.reduce_sum`` under ``tf.function`` on vectors of each length, without and with
    ``reduce_retracing=True`` (which traces a generic shape, ``(None,)``, after the first one).

    >>> {mode: t.printed for mode, t in retraces((1, 2, 3)).items()}
    {'default': ('shape (1,)', 'shape (2,)', 'shape (3,)'), 'reduce_retracing=True': ('shape (1,)', 'shape (None,)')}
    """
    tf = load_tensorflow()

    def body(x: Any) -> Any:
        print("shape", tuple(x.shape))  # Python: runs once per trace
        return tf.reduce_sum(x)

    out: dict[str, Traces] = {}
    for mode, fn in (("default", tf.function(body)), (RELAXED, tf.function(body, reduce_retracing=True))):
        with captured("tensorflow") as seen:  # the retracing warning is told elsewhere, noise here
            for n in lengths:
                fn(tf.ones(n))
        printed = tuple(line for line in seen.text.splitlines() if line.startswith("shape "))
        out[mode] = Traces(fn.experimental_get_tracing_count(), printed)
    return out
