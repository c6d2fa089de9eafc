"""Run the real frameworks' noisy calls without noise a notebook would keep: the course's one place for silencing.

In a notebook, anything a call prints becomes an output that differs from run to run and machine to machine
(timestamps, thread ids, file paths), so a strict nbval comparison fails on it, and a student reads noise. Three
tools, from the lowest level up:

* :data:`NOISE` -- TensorFlow's start-up lines on file descriptor 2, which :mod:`course_lib.adapters.loader` drops
  with the course's one stderr filter, :func:`course_lib.i18n.stderr.quiet_stderr` (it lives below the view and
  the adapters, which both use it).
* :func:`captured` -- a block's prints, Python warnings and log records, collected into a :class:`Captured` the
  notebook can show and assert on (``torch.export``, ``torch.jit.trace``, Dynamo, ``tf.function`` retracing notes).
* :func:`summarize` / :func:`error_of` -- a framework error in a few words without paths (:class:`ErrorSummary`).

>>> import warnings
>>> with captured() as out:
...     print("a noisy line")
...     warnings.warn("traced code might not generalize", UserWarning)
>>> out
UserWarning: traced code might not generalize
>>> out.text.strip()
'a noisy line'
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..i18n import Plural, say
from ..i18n import gettext as _

__all__ = ["NOISE", "Captured", "ErrorSummary", "captured", "error_of", "summarize"]

#: stderr lines TensorFlow's C++ side prints while loading that carry no information for a student.
NOISE = (
    re.compile(r"^WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR$"),
    re.compile(r"^I\d{4} [\d:.]+ +\d+ port\.cc:\d+\] oneDNN custom operations are on\."),
    re.compile(r"^I\d{4} [\d:.]+ +\d+ cpu_feature_guard\.cc:\d+\] "),
)


@dataclass
class Captured:
    """What a block printed and warned: ``text`` (stdout + stderr + log records) and ``warnings``
    (``(category name, message)`` pairs, each distinct pair once, in the order first seen)."""

    text: str = ""
    warnings: list[tuple[str, str]] = field(default_factory=list)

    def __repr__(self) -> str:
        if not self.warnings:
            return _("no warnings")
        return "\n".join(f"{category}: {message}" for category, message in self.warnings)

    def warned(self, category: str, words: str = "") -> bool:
        """True if a warning of this category (class name) whose message contains ``words`` was seen."""
        return any(c == category and words in m for c, m in self.warnings)


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
    for name, lg in list(logging.Logger.manager.loggerDict.items()):  # children with their own handlers (torch's)
        if isinstance(lg, logging.Logger) and lg.handlers and any(name.startswith(p + ".") for p in loggers):
            names.append(name)
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


@dataclass
class ErrorSummary:
    """A framework error in the few words a notebook can show on every machine (no paths, no addresses).

    ``kind``: the exception's class name; ``message``: its first line; ``cause``: the innermost error named in
    the text (TensorFlow's ``StagingError`` carries the real one, e.g. ``RecursionError: ...``, on its last line);
    ``repeated``: the source line shown most often in a "user code" trace (where tracing went round in circles);
    ``frames``: the traceback, one ``file:line in function`` per frame with paths made machine-independent, and
    ``full``: the whole message. In Jupyter it shows in the course's one *problem* style: the summary in two lines,
    the whole message and traceback folded underneath.
    """

    kind: str
    message: str
    cause: str = ""
    repeated: str = ""
    repeats: int = 0
    frames: tuple[str, ...] = ()
    full: str = ""

    def __repr__(self) -> str:
        lines = [f"{self.kind}: {self.message}"]
        if self.cause and self.cause != self.message:
            lines.append(_("  innermost error: {cause}").format(cause=self.cause))
        if self.repeated:
            lines.append(_("  the line traced again and again: {line}").format(line=self.repeated))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        head = "<br>".join(html.escape(line.strip()) for line in repr(self).splitlines()[1:])
        folded = ""
        if self.frames or self.full.strip() != self.message.strip():
            body = html.escape("\n".join([*self.frames, "", self.full.strip()]).strip())
            n = len(self.frames)
            summary = say(Plural("the whole message and traceback ({n} frame)",
                                 "the whole message and traceback ({n} frames)"), n=n)
            folded = ('<details style="margin-top:4px"><summary style="cursor:pointer">'
                      f"{html.escape(summary)}</summary><pre style=\"white-space:pre-wrap;"
                      f'font-size:0.85em;max-height:24em;overflow:auto;margin:4px 0">{body}</pre></details>')
        return ('<div style="border-left:6px solid #D55E00;padding:4px 10px;margin:4px 0">'
                f"<b>{html.escape(self.kind)}</b>: {html.escape(self.message)}"
                + (f'<div style="color:#444">{head}</div>' if head else "") + folded + "</div>")


def _frame_file(filename: str) -> str:
    """A traceback file name that is the same on every machine: inside site-packages or the course, the path from
    there; a notebook cell (whose temporary file name changes per kernel) is ``<cell>``."""
    name = filename.replace(os.sep, "/")
    if "/site-packages/" in name:
        return name.rsplit("/site-packages/", 1)[1]
    if "/course_lib/" in name:
        return "course_lib/" + name.rsplit("/course_lib/", 1)[1]
    if "ipykernel_" in name or name.startswith("<ipython-input"):
        return "<cell>"
    return re.sub(r"__autograph_generated_file\w*\.py", "__autograph_generated_file.py", name.rsplit("/", 1)[-1])


def _travelling(text: str) -> str:
    """``text`` with the file paths a framework's message quotes made machine-independent (as :func:`_frame_file`)."""
    text = re.sub(r"/\S*?/ipykernel_\d+/\d+\.py", "<cell>", text)
    # AutoGraph writes the converted function to a temporary file with a random name
    text = re.sub(r"/\S*?__autograph_generated_file\w*\.py", "__autograph_generated_file.py", text)
    text = re.sub(r"/tmp/tmp\w+/", "/tmp/", text)
    text = re.sub(r"/\S*?/site-packages/", "", text)
    return re.sub(r"/\S*?/(course_lib/)", r"\1", text)


def _frames(exc: BaseException) -> tuple[str, ...]:
    import traceback

    return tuple(f"{_frame_file(f.filename)}:{f.lineno} in {f.name}" + (f": {f.line.strip()}" if f.line else "")
                 for f in traceback.extract_tb(exc.__traceback__))


def summarize(exc: BaseException) -> ErrorSummary:
    """Summarize ``exc`` (see :class:`ErrorSummary`).

    >>> summarize(KeyError("no such node"))
    KeyError: 'no such node'
    """
    text = str(exc).strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    first = lines[0].strip() if lines else ""
    cause = ""
    if lines and re.match(r"^\s*[A-Za-z_][A-Za-z0-9_.]*(Error|Exception): ", lines[-1]):
        cause = lines[-1].strip()
        # CPython ends this message with where it noticed ("in comparison", "while calling a Python object"),
        # which differs from run to run: keep the part that does not
        cause = re.sub(r"^(RecursionError: maximum recursion depth exceeded).*$", r"\1", cause)
    code: dict[str, int] = {}
    for k, ln in enumerate(lines[:-1]):
        if ln.lstrip().startswith("File ") and " in " in ln:
            src = lines[k + 1].strip()
            if src and not src.startswith("File "):
                code[src] = code.get(src, 0) + 1
    repeated, repeats = max(code.items(), key=lambda kv: kv[1], default=("", 0))
    return ErrorSummary(type(exc).__name__, first, cause, repeated if repeats > 1 else "", repeats,
                        _frames(exc), _travelling(text))


def error_of(fn: Callable[..., Any], *args: Any, loggers: tuple[str, ...] = ()) -> ErrorSummary | None:
    """Call ``fn(*args)`` expecting it to fail: the :class:`ErrorSummary` of what it raised, or None if it did not.

    Output and warnings of the call are captured (see :func:`captured`, with ``loggers``), so a notebook shows only
    the summary -- the same on every machine.

    >>> error_of(int, "seven")
    ValueError: invalid literal for int() with base 10: 'seven'
    >>> error_of(int, "7") is None
    True
    """
    try:
        with captured(*loggers):
            fn(*args)
    except Exception as exc:  # noqa: BLE001 - any failure is what the caller wants to see
        return summarize(exc)
    return None
