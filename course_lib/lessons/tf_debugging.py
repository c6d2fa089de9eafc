"""TensorFlow's debugging levers for code inside a ``tf.function`` (notebook 04, section 3), each counted live.

Inside a ``tf.function`` the Python body runs while TensorFlow *traces* it, not on every call. TensorFlow documents
three levers for living with that (API reference of ``tf.function`` and ``tf.config.run_functions_eagerly``; guides
*Introduction to graphs and tf.function* and *Better performance with tf.function*):

- ``tf.config.run_functions_eagerly(True)`` runs every ``tf.function``'s Python body eagerly on each call, so a
  ``print`` or a breakpoint sees real values; it slows everything down, so switch it off again
  (:func:`eagerly`, :func:`print_lines`);
- variables are created only on the first call: a ``tf.Variable`` made in the body on every call is refused with a
  ``ValueError`` when TensorFlow traces the body a second time; create it once, outside or behind
  ``if self.v is None`` (:func:`variable_per_call`, :func:`two_line_summary`);
- ``reduce_retracing=True``: after a new shape, ``tf.function`` traces a more generic signature (a ``None``
  dimension) instead of one graph per shape (:func:`retraces`).

Two settings the notebook asks students to predict (exercises 04.5 and 04.6), run here too:
:func:`variable_per_call_eagerly` (lever 2's refused body, called with lever 1 on: ``tf.function.__call__`` then
calls the Python function directly, so nothing is traced and the first-call rule on variables never applies) and
:func:`python_value_traces` (Python numbers as arguments: the ``tf.function`` API page cautions that Python scalars
passed as arguments usually retrace, since a Python value is part of the signature; ``reduce_retracing`` relaxes
shapes, not values).

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
from ..adapters.quiet import ErrorSummary, captured, error_of, summarize
from ..i18n import N_
from ..i18n import gettext as _

__all__ = ["DEFAULT", "EAGER", "RELAXED", "TRACED", "EagerVariables", "Traces", "VariableLesson", "eagerly",
           "print_lines", "python_value_traces", "retraces", "two_line_summary", "variable_per_call",
           "variable_per_call_eagerly"]

#: The modes compared, as course messages (the notebook prints them with cl.say: French in the French edition);
#: the other modes are code and stay as written.
TRACED = N_("traced graph")
DEFAULT = N_("default")
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
    for mode, fn in ((DEFAULT, tf.function(body)), (RELAXED, tf.function(body, reduce_retracing=True))):
        with captured("tensorflow") as seen:  # the retracing warning is told elsewhere, noise here
            for n in lengths:
                fn(tf.ones(n))
        printed = tuple(line for line in seen.text.splitlines() if line.startswith("shape "))
        out[mode] = Traces(fn.experimental_get_tracing_count(), printed)
    return out


@dataclass(frozen=True)
class EagerVariables:
    """What :func:`variable_per_call_eagerly` saw: the ``results`` of the calls that returned, how many
    ``tf.Variable`` objects the body made (``variables``), and the ``error`` with the 1-based call that raised it
    (``failed_at``), both None when every call returned."""

    results: tuple[float, ...]
    variables: int
    error: ErrorSummary | None
    failed_at: int | None


def variable_per_call_eagerly(xs: tuple[float, ...] = (3.0, 4.0, 5.0)) -> EagerVariables:
    """Lever 2's refused function (a ``tf.Variable(2.0)`` created in the body, times ``x``), called on each of
    ``xs`` inside :func:`eagerly`: run eagerly, the body is plain Python on every call (no trace), so no
    ``ValueError``, and a new variable on each call.

    >>> seen = variable_per_call_eagerly()
    >>> seen.results, seen.variables, seen.error
    ((6.0, 8.0, 10.0), 3, None)
    """
    tf = load_tensorflow()
    made: list[Any] = []

    @tf.function
    def scale_new(x: Any) -> Any:
        made.append(tf.Variable(2.0))  # a new variable every time Python runs the body
        return made[-1] * x

    results: list[float] = []
    with eagerly():
        for k, x in enumerate(xs, 1):
            try:
                with captured():
                    results.append(float(scale_new(tf.constant(x))))
            except Exception as exc:  # noqa: BLE001 - a refusal is what the exercise asks about
                return EagerVariables(tuple(results), len(made), summarize(exc), k)
    return EagerVariables(tuple(results), len(made), None, None)


def python_value_traces(numbers: tuple[float, ...] = (1.0, 2.0, 1.0), tensors: tuple[float, ...] = (3.0, 4.0),
                        reduce_retracing: bool = True) -> tuple[str, ...]:
    """The lines a ``print(x)`` in the body of a fresh ``tf.function`` printed when it was called with the Python
    ``numbers``, then with ``tf.constant`` of each of ``tensors`` (one line per trace: a Python number prints its
    value, a tensor a symbol).

    >>> python_value_traces()
    ('x = 1.0', 'x = 2.0', 'x = Tensor("x:0", shape=(), dtype=float32)')
    """
    tf = load_tensorflow()

    def show(x: Any) -> Any:
        print("x =", x)  # Python: runs once per trace
        return x * 2

    fn = tf.function(show, reduce_retracing=reduce_retracing)
    with captured("tensorflow") as seen:  # the retracing warning is noise here
        for v in numbers:
            fn(v)
        for v in tensors:
            fn(tf.constant(v))
    return tuple(line for line in seen.text.splitlines() if line.startswith("x = "))
