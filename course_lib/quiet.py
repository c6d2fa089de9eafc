"""Import the real frameworks quietly, and run their noisy calls without noise a notebook would keep.

TensorFlow writes log lines to the process's standard error when it is imported (oneDNN notices, absl's
"All log messages before absl::InitializeLog()"). In a notebook those lines become a stderr output that differs
from run to run and machine to machine, so a strict nbval comparison fails on them. They are switched off with
two environment variables that TensorFlow reads *once, at import*: ``TF_CPP_MIN_LOG_LEVEL=3`` (C++ logs: errors
only) and ``TF_ENABLE_ONEDNN_OPTS=0`` (no oneDNN notice; results are the same up to float round-off).

>>> tf = tensorflow()                      # doctest: +SKIP
>>> tf.executing_eagerly()                 # doctest: +SKIP
True
>>> with captured() as out:                # doctest: +SKIP
...     torch.export.export(model, args)   # its log lines land in out.text, not in the notebook
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType

__all__ = ["Captured", "captured", "tensorflow", "torch"]

QUIET_TF_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0"}


def tensorflow() -> ModuleType:
    """``import tensorflow`` with its import-time log lines switched off (see the module docstring).

    If TensorFlow was already imported the variables come too late; it is returned as it is.
    """
    for key, value in QUIET_TF_ENV.items():
        os.environ.setdefault(key, value)
    import tensorflow as tf

    tf.get_logger().setLevel(logging.ERROR)  # Python-side warnings (e.g. retracing notices) stay out of stderr
    return tf


def torch() -> ModuleType:
    """``import torch`` (and ``torch.fx``), the same way the rest of the course does."""
    import torch as _torch
    import torch.fx  # makes torch.fx reachable as an attribute

    return _torch


@dataclass
class Captured:
    """What a block printed and warned: ``text`` (stdout + stderr + log records) and ``warnings``
    (``(category name, message)`` pairs, each distinct pair once, in the order first seen)."""

    text: str = ""
    warnings: list[tuple[str, str]] = field(default_factory=list)


class _ListHandler(logging.Handler):
    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record.getMessage())


@contextlib.contextmanager
def captured(*loggers: str) -> Iterator[Captured]:
    """Run a block with its prints, warnings and log records (of the root logger and of ``loggers``, e.g.
    ``"torch"``) collected into a :class:`Captured` instead of reaching the notebook's outputs.

    Messages carry file paths and timestamps that change between machines; a notebook shows what it needs
    from ``Captured`` (a warning's category and message) and asserts on it.
    """
    out = Captured()
    buf = io.StringIO()
    records: list[str] = []
    handler = _ListHandler(records)
    names = ["", *loggers]
    saved = []
    for name in names:
        lg = logging.getLogger(name)
        saved.append((lg, lg.handlers[:], lg.propagate))
        lg.handlers = [handler]
        lg.propagate = False
    try:
        with warnings.catch_warnings(record=True) as seen, contextlib.redirect_stdout(buf), \
                contextlib.redirect_stderr(buf):
            warnings.simplefilter("always")
            yield out
    finally:
        for lg, handlers, propagate in saved:
            lg.handlers = handlers
            lg.propagate = propagate
        pairs = [(w.category.__name__, str(w.message)) for w in seen]
        out.warnings = list(dict.fromkeys(pairs))
        out.text = buf.getvalue() + "".join(r + "\n" for r in records)
