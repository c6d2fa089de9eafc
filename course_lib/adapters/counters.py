"""Counts the notebooks assert instead of timings: how often a graph was traced, captured or compiled.

A claim like "``tf.function`` retraces when the input shape changes" or "our Session compiles once, then reuses
the plan" is checked by a count, which is the same on every machine, never by a duration, which is not.

Three sources, read through their own public counters (this module imports no framework -- it reads attributes):

================================  ==============================================  =============================
what is counted                   read from                                       grows when
================================  ==============================================  =============================
traces of a ``tf.function``        ``fn.experimental_get_tracing_count()``         a call needs a new graph
graphs captured by torch.compile   ``CountingBackend.count`` / ``CompileCapture``  first call, graph break,
                                   (:mod:`course_lib.adapters.torch`)              recompile (new shape, guard)
compiles of our static Session     ``Session.compile_count``                       new fetches/feeds, graph edit
================================  ==============================================  =============================

>>> class FakeSession:            # anything with compile_count, as course_lib.static.Session has
...     compile_count = 0
>>> sess = FakeSession()
>>> with counting(sess) as c:
...     sess.compile_count += 1
>>> c.delta
1
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, say

NOT_A_TF_FUNCTION = N_("{type} is not a tf.function: decorate it with @tf.function to make TensorFlow trace it")
NOT_A_CAPTURE = N_("{type} does not count compiled graphs: use course_lib.adapters.torch.capture_compiled(fn, "
                   "*inputs) or pass a CountingBackend() as torch.compile(..., backend=...)")
NOT_A_SESSION = N_("{type} has no compile_count: pass a course_lib.static.Session")
NOTHING_TO_COUNT = N_("nothing to count on a value of type {type}: pass a tf.function, a course_lib.static.Session, "
                      "or a capture from course_lib.adapters.torch.capture_compiled")

__all__ = ["NOTHING_TO_COUNT", "NOT_A_CAPTURE", "NOT_A_SESSION", "NOT_A_TF_FUNCTION", "Delta", "compiled_graph_count",
           "count", "counting", "session_compile_count", "tf_trace_count"]


def tf_trace_count(fn: Any) -> int:
    """How many graphs a ``tf.function`` has traced so far (``fn.experimental_get_tracing_count()``)."""
    reader = getattr(fn, "experimental_get_tracing_count", None)
    if reader is None:
        raise TypeError(say(NOT_A_TF_FUNCTION, type=type(fn).__name__))
    return int(reader())


def compiled_graph_count(capture: Any) -> int:
    """How many FX graphs ``torch.compile`` handed to a counting backend (a ``CompileCapture`` or
    ``CountingBackend`` from :mod:`course_lib.adapters.torch`): 1 per first call, +1 per graph break or recompile."""
    if not hasattr(capture, "count") or not hasattr(capture, "graphs"):
        raise TypeError(say(NOT_A_CAPTURE, type=type(capture).__name__))
    return int(capture.count)


def session_compile_count(session: Any) -> int:
    """How many times our define-then-run ``Session`` compiled a plan (``Session.compile_count``)."""
    if not hasattr(session, "compile_count"):
        raise TypeError(say(NOT_A_SESSION, type=type(session).__name__))
    return int(session.compile_count)


def count(obj: Any) -> int:
    """The count that fits ``obj``: a ``tf.function``'s traces, a capture's graphs, or a Session's compiles."""
    if hasattr(obj, "experimental_get_tracing_count"):
        return tf_trace_count(obj)
    if hasattr(obj, "compile_count"):
        return session_compile_count(obj)
    if hasattr(obj, "graphs") and hasattr(obj, "count"):
        return compiled_graph_count(obj)
    raise TypeError(say(NOTHING_TO_COUNT, type=type(obj).__name__))


@dataclass
class Delta:
    """The count before and after a block; ``delta`` is what the block added."""

    read: Callable[[], int]
    before: int = 0
    after: int | None = None

    @property
    def delta(self) -> int:
        return (self.after if self.after is not None else self.read()) - self.before


@contextlib.contextmanager
def counting(obj: Any) -> Iterator[Delta]:
    """Measure how much a block adds to ``obj``'s count (see :func:`count`).

    >>> with counting(f) as traces:                 # doctest: +SKIP
    ...     f(tf.constant([1.0, 2.0])); f(tf.constant([1.0, 2.0, 3.0]))
    >>> traces.delta                                # doctest: +SKIP
    2
    """
    d = Delta(lambda: count(obj))
    d.before = d.read()
    try:
        yield d
    finally:
        d.after = d.read()
