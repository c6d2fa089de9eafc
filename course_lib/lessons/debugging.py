"""Debugging a graph program: what a ``print`` or a breakpoint sees in each style.

In define-by-run every line has *run* before the next one starts, so a breakpoint in the middle of a model shows
numbers. In define-then-run the same lines only *build* a graph: the breakpoint fires once, while the graph is
being defined, and shows symbols that have no value yet (a ``tf.function`` behaves the same way while it traces).

Two tools make this visible in a notebook that must run top to bottom without waiting for a keyboard:

* :func:`peek_at_breakpoints` -- while it is active, ``breakpoint()`` does not open ``pdb`` and wait; it prints
  the local variables of the function that called it (what you would type ``p name`` for at the ``(Pdb)`` prompt)
  and goes on. Every stop is also recorded, so a cell can count them.
* :func:`locals_at_return` -- call a function and get its local variables as they were when it returned (the
  exercises use it to check "what is the value of ``h``?" without writing the answer into the notebook).

And one tool to say *when* a debugger could see a value at all: :func:`moments` reads a recorded run
(:func:`course_lib.trace.record`) and gives the graph it made, the step at which that graph was complete and the
step of its first value -- the same graph, made at two different moments, in the two styles.

>>> from course_lib import dynamic as dy
>>> def model(ops, x):
...     h = x * 2.0
...     breakpoint()
...     return ops.sin(h)
>>> with peek_at_breakpoints() as stops:
...     _ = model(dy, dy.Tensor(3.0))
breakpoint in model, line 3:
    ops = <module course_lib.dynamic>
    x = Tensor(3.)
    h = Tensor(6.)
>>> len(stops), stops[0].values["h"]
(1, 'Tensor(6.)')
"""

from __future__ import annotations

import contextlib
import re
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..i18n import N_, say
from ..i18n import gettext as _

if TYPE_CHECKING:
    from ..trace import Trace

__all__ = ["Moments", "Stop", "describe", "locals_at_return", "moments", "peek_at_breakpoints"]

MAX_WIDTH = 90  # a value longer than this is cut with "…", so one variable stays one line
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")  # "<function f at 0x7f...>": differs on every run, says nothing
STOPPED = N_("breakpoint in {function}, line {line}:")
NO_LOCALS = N_("    (no local variables)")
NOT_A_FUNCTION = N_("locals_at_return needs a Python function, got a value of type {kind}")


@dataclass(frozen=True)
class Stop:
    """One stop at a breakpoint: the function, its line (as the editor numbers it) and its variables, described."""

    function: str
    line: int
    values: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        rows = [_(STOPPED).format(function=self.function, line=self.line)]
        rows += [f"    {name} = {text}" for name, text in self.values.items()]
        if not self.values:
            rows.append(_(NO_LOCALS))
        return "\n".join(rows)


def describe(value: Any, width: int = MAX_WIDTH) -> str:
    """One short, stable line for a value: modules by name (never their file path), an ``ops`` namespace by its
    names, everything else by ``repr`` without memory addresses.

    >>> describe(types)
    '<module types>'
    >>> describe(types.SimpleNamespace(sin=abs, cos=abs))
    '<namespace: sin, cos>'
    >>> describe("a" * 200)[-3:]
    'aa…'
    """
    if isinstance(value, types.ModuleType):
        return f"<module {value.__name__}>"
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        return f"<function {getattr(value, '__qualname__', getattr(value, '__name__', '?'))}>"
    if isinstance(value, types.SimpleNamespace):  # e.g. the ops of a real framework (course_lib.adapters.frameworks)
        return f"<namespace: {', '.join(vars(value))}>"
    try:
        text = repr(value)
    except Exception as exc:  # noqa: BLE001 - a broken __repr__ must not break the debugging tool
        text = f"<{type(value).__name__}: repr failed ({type(exc).__name__})>"
    text = _ADDRESS.sub("", " ".join(text.split()))  # multi-line reprs (arrays, tensors) on one line
    return text if len(text) <= width else text[: width - 1] + "…"


def _visible(name: str) -> bool:
    """Hide private names and the helpers AutoGraph adds to a converted function (``ag__``, ``retval_``...)."""
    return not name.startswith("_") and not name.endswith("_") and name not in ("do_return", "fscope")


@contextlib.contextmanager
def peek_at_breakpoints(show: bool = True) -> Iterator[list[Stop]]:
    """While active, ``breakpoint()`` prints the caller's local variables and continues (no ``pdb`` prompt).

    Yields the list of :class:`Stop` objects, one per breakpoint reached, so a cell can assert how often the
    program stopped (a ``tf.function`` stops once, while tracing; a define-by-run model at every call).
    ``show=False`` records without printing. The previous ``sys.breakpointhook`` is restored on exit.
    """
    stops: list[Stop] = []

    def hook(*_args: Any, **_kwargs: Any) -> None:
        frame = sys._getframe(1)
        values = {name: describe(v) for name, v in list(frame.f_locals.items()) if _visible(name)}
        stop = Stop(frame.f_code.co_name, frame.f_lineno - frame.f_code.co_firstlineno + 1, values)
        stops.append(stop)
        if show:
            print(stop)

    before = sys.breakpointhook
    sys.breakpointhook = hook
    try:
        yield stops
    finally:
        sys.breakpointhook = before


def locals_at_return(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """Call ``fn(*args, **kwargs)``; return ``(result, its local variables when it returned)``.

    Uses ``sys.setprofile`` for the duration of the call only (the previous profiler is restored), and looks at
    the frame running ``fn``'s own code (the outermost call, if ``fn`` recurses), so helpers that ``fn`` calls do
    not get in the way.

    >>> def f(x):
    ...     h = x + 1
    ...     return h * 2
    >>> locals_at_return(f, 3)
    (8, {'x': 3, 'h': 4})
    """
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None:
        raise TypeError(say(NOT_A_FUNCTION, kind=type(fn).__name__))
    seen: dict[str, Any] = {}

    def profiler(frame: types.FrameType, event: str, _arg: Any) -> None:
        if event == "return" and frame.f_code is code:  # a recursive fn: the outermost call returns last
            seen.clear()
            seen.update(frame.f_locals)

    before = sys.getprofile()
    sys.setprofile(profiler)
    try:
        result = fn(*args, **kwargs)
    finally:
        sys.setprofile(before)
    return result, seen


#: the same kind of node under the two styles' names: an input is a placeholder in define-then-run
_SAME_OP = {"placeholder": "input"}


@dataclass(frozen=True)
class Moments:
    """When a recorded run had its graph and its first value.

    ``structure``: each node the output needs (the forward graph: no gradient nodes) as ``(op, ids of its inputs)``, in
    the order made (an input is ``"input"`` in both styles), so two runs made the same graph exactly when their
    structures are equal; ``complete_at``: the step at which the last of those nodes existed; ``first_value_at``: the
    step at which any node first had a value (steps count from 1, as the side-by-side widget numbers them)."""

    style: str
    structure: tuple[tuple[str, tuple[int, ...]], ...]
    complete_at: int
    first_value_at: int | None


def moments(t: Trace) -> Moments:
    """The :class:`Moments` of a recorded run (``course_lib.trace.record``).

    >>> from course_lib import trace
    >>> def f(ops, x):
    ...     return ops.sin(x * 2.0)
    >>> then, by = (moments(trace.record(f, s, {"x": 1.0}, backward=False)) for s in trace.STYLES)
    >>> then.structure == by.structure, (then.complete_at, then.first_value_at), (by.complete_at, by.first_value_at)
    (True, (4, 5), (4, 1))
    """
    forward = t.graph.ancestors([t.output]) if t.output is not None else []
    first_seen: dict[int, int] = {}
    first_value = None
    for step, event in enumerate(t.events, 1):
        if event.node_id is not None:
            first_seen.setdefault(event.node_id, step)
        if first_value is None and event.value is not None:
            first_value = step
    structure = tuple((_SAME_OP.get(n.op, n.op), n.input_ids) for n in forward)
    return Moments(t.style, structure, max((first_seen.get(n.id, 0) for n in forward), default=0), first_value)
