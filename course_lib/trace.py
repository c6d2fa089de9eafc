"""Execution traces: one program, run in either style, as an ordered list of events a stepper can replay.

* **define-then-run**: first a *build* phase — one ``define`` event per node, no values anywhere — then a *run*
  phase in which the compiled plan computes the nodes the fetches need, one ``run`` event each (gradient nodes
  are ordinary nodes there, their events are in the ``backward`` phase).
* **define-by-run**: one ``run`` event per operation, in the order the Python lines execute: the node appears
  and gets its value at the same moment. Then ``backward`` events, one per node, as gradients reach it.

>>> from course_lib import programs
>>> t = record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}, backward=False)
>>> [e.kind for e in t.events][:3], t.style
(['run', 'run', 'run'], 'define-by-run')
"""

from __future__ import annotations

import bisect
import inspect
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import dynamic as dy
from . import graph as ir
from . import static as st
from .graph import short_value, value_text
from .i18n import N_, Plural, Said, said_by, say
from .i18n import gettext as _

STYLES = ("define-then-run", "define-by-run")
#: A phase and a style in words (the stepper's badges say the phases in capitals).
PHASE_NAMES = {"build": N_("build"), "run": N_("run"), "backward": N_("backward")}
STYLE_NAMES = {"define-then-run": N_("define-then-run"), "define-by-run": N_("define-by-run")}


def style_name(style: str) -> str:
    """A style in words of the language of the moment: ``define-then-run`` (French ``définir-puis-exécuter``)."""
    return _(STYLE_NAMES[style])


@dataclass(frozen=True)
class Shown:
    """A value inside an event's words: ``prefix`` then the value, written when the words are shown, so a step
    recorded in English reads ``→ 0,4953`` after ``set_language("fr")`` (``str``), and :attr:`Event.text` keeps
    the English ``→ 0.4953`` (:meth:`english`)."""

    prefix: str
    value: Any

    def __str__(self) -> str:
        return self.prefix + value_text(self.value)

    def english(self) -> str:
        return self.prefix + short_value(self.value)


@dataclass(frozen=True)
class Event:
    """One step of a trace. ``text`` is the event in English (what tests and logs read); ``message`` and ``args``
    are the same words as a message id and its values, so :meth:`said` gives them in the current language when a
    widget shows them (a trace recorded before ``set_language("fr")`` is still shown in French)."""

    kind: str  # "define" | "run" | "backward"
    phase: str  # "build" | "run" | "backward"
    node_id: int | None
    text: str
    value: np.ndarray | None
    line: int | None  # 1-based line of Trace.source
    message: str = ""  # the message id of ``text`` ("" for a hand-made event: ``text`` is shown as it is)
    args: tuple[tuple[str, str | Shown], ...] = ()  # (placeholder, value) pairs of the message

    def said(self) -> str:
        """The event in the current language (the message translated, then its values filled in, numbers with a
        decimal comma in French)."""
        return _(self.message).format(**{k: str(v) for k, v in self.args}) if self.message else self.text


def _event(kind: str, phase: str, node_id: int | None, message: str, value: Any, line: int | None, /,
           **args: str | Shown) -> Event:
    """An event whose English text is ``message`` filled with ``args`` (both kept, for :meth:`Event.said`)."""
    text = message.format(**{k: v.english() if isinstance(v, Shown) else v for k, v in args.items()})
    return Event(kind, phase, node_id, text, value, line, message, tuple(args.items()))


# the words of the events (message ids: English, translated by Event.said when shown); {node} is "x → 3" or
# "mul = mul(x, w) → 6": code, the same in every language, but for the value (French "→ 0,5": see Shown)
_DEFINE = {  # (kind, is a gradient node) -> the build event
    ("input", False): N_("define placeholder {node} (no value yet)"),
    ("constant", False): N_("define constant {node} (no value yet)"),
    ("variable", False): N_("define variable {node} (no value yet)"),
    ("op", False): N_("define op {node} (no value yet)"),
    ("input", True): N_("define gradient placeholder {node} (no value yet)"),
    ("constant", True): N_("define gradient constant {node} (no value yet)"),
    ("variable", True): N_("define gradient variable {node} (no value yet)"),
    ("op", True): N_("define gradient op {node} (no value yet)"),
}
_RUN = {  # a node's kind -> its event in the run phase of define-then-run
    "input": N_("feed {node}"), "variable": N_("read variable {node}"), "constant": N_("constant {node}"),
    "op": N_("run {node}"),
}
_CREATE = {  # a define-by-run tensor's kind -> the event of its creation
    "input": N_("input {node}"), "variable": N_("variable {node}"), "constant": N_("constant {node}"),
    "op": N_("run {node}"),
}
_BACKWARD = N_("backward: d{output}/d{node} = {value}")

# the errors (English ids, see course_lib.i18n)
UNKNOWN_STYLE = N_("unknown style {style!r}; use one of {styles}")
NO_VALUE_GIVEN = N_("no value given for {missing}: pass {example}")  # example: code, inputs={x, w...}
STEP_OUTSIDE = N_("step {step} is outside 0..{last}")
# what record() refuses before running anything ({value}: a short repr; {name}: the program's name)
NOT_A_PROGRAM = N_("{value} (type {type}) is not a program: pass a function whose first parameter is the ops "
                   "namespace, like def f(ops, x): return ops.sin(x), or a parsed expression, expr.parse('sin(x)')")
A_CLASS = N_("{name} is a class, not a program: pass a function whose first parameter is the ops namespace, like "
             "def f(ops, x): return ops.sin(x)")
NO_SIGNATURE = N_("cannot read the parameters of {name}: pass a function written with def or lambda, like "
                  "def f(ops, x): return ops.sin(x)")
BAD_SIGNATURE = N_("the program {name}{signature} cannot be called as {name}(ops, x=...): its first parameter "
                   "receives the ops namespace and every other one is an input named in inputs; write it like "
                   "def f(ops, x): return ops.sin(x)")
GENERATOR = N_("the program {name} uses yield, so calling it runs none of its lines: write a plain def that returns "
               "its result, like return ops.sin(x)")
COROUTINE = N_("the program {name} is written with async def, so calling it runs none of its lines: write a plain "
               "def that returns its result, like return ops.sin(x)")
INPUTS_NOT_A_DICT = N_("inputs must be a dict of input name -> number, like {example}; got {value} (type {type})")
NOT_AN_INPUT = Plural("{extra} is not an input of the program {name}, which takes ({names})",
                      "{extra} are not inputs of the program {name}, which takes ({names})")
FIRST_IS_OPS = N_("{first} is the first parameter of the program {name}, so it receives the ops namespace, not an "
                  "input: give the program the parameters (ops, {first}) and use ops.sin(...) inside, like "
                  "def f(ops, x): return ops.sin(x)")
BAD_INPUT_VALUE = N_("inputs[{key!r}] = {value} is not a number: pass a number or a list of numbers, like "
                     "inputs[{key!r}] = 0.5")
# what record() says when the program ran but did not give a result it can step through
RETURNED_NOTHING = N_("the program {name} returned None: end it with return and its result, like return ops.sin(x)")
NOT_A_RESULT = N_("the program {name} returned {value} (type {type}), which is neither a tensor nor a number: return "
                  "the result of an op, like return ops.sin(x)")
OTHER_ENGINE = N_("the program {name} returned a tensor of the other engine ({engine}) while recorded {style}: "
                  "build every value with the ops namespace it is given (ops.sin(x)), never with st or dy directly")
OPS_AS_VALUE = N_("the program {name} used the ops namespace as a number ({text}): its first parameter, {first}, "
                  "receives ops; give it the parameters (ops, {first}) and call ops.sin(...) inside, like "
                  "def f(ops, x): return ops.sin(x)")
# an error raised inside the program (Python's words in {text}): added to the error, which keeps its type
PROGRAM_RAISED = N_("{error} on line {line} of the program {name}: {text}; fix that line, then record it again")
# what record() notes when it was asked for backward but the output is not one number
NO_BACKWARD = N_("no backward steps: the output has shape {shape}, and backward starts from one number (PyTorch's "
                 "backward() refuses such an output); return ops.sum(...) of it to step through backward")
PROGRAM_RAISED_SOMEWHERE = N_("{error} inside the program {name}: {text}; fix the program, then record it again")


@dataclass(frozen=True)
class NodeState:
    status: str  # "hidden" | "defined" | "running" | "done"
    value: np.ndarray | None
    grad: np.ndarray | None


class Trace:
    """The events of one execution, the final graph (every node that ever exists) and the program source.

    ``grad_nodes`` maps an input node's id to the id of the graph node that computes d(output)/d(input): in
    define-then-run, gradients are ordinary nodes of the graph (``st.gradients`` built them); a define-by-run trace
    has none (its gradients arrive on the nodes themselves, as ``NodeState.grad``).

    >>> from course_lib import programs
    >>> t = record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0})
    >>> t.phase_at(0), t.phase_at(1), t.phase_at(len(t))
    ('start', 'build', 'backward')
    >>> {k: round(float(v), 4) for k, v in t.gradients().items()}   # d sin(x·w + 1) = (w cos 7, x cos 7)
    {'x': 1.5078, 'w': 2.2617}
    """

    def __init__(self, style: str, graph: ir.Graph, events: list[Event], source: list[str],
                 grad_nodes: dict[int, int] | None = None) -> None:
        self.style, self.graph, self.events, self.source = style, graph, events, source
        self.grad_nodes: dict[int, int] = dict(grad_nodes or {})
        self.note: str = ""  # what a stepper should say beside the steps (:data:`NO_BACKWARD`), said by record
        self._index: Any = None

    def __len__(self) -> int:
        return len(self.events)

    def __repr__(self) -> str:
        # name=value, as Python shows an object: no words whose plural would depend on the count
        return f"<Trace {self.style}: events={len(self.events)}, nodes={len(self.graph)}>"

    def state(self, step: int) -> dict[int, NodeState]:
        """Every node's state after the first ``step`` events (0 ≤ step ≤ len); the last event's node is running.

        O(nodes · log events) per call: each node keeps the steps of its own events, found by bisection.
        """
        if not 0 <= step <= len(self.events):
            raise IndexError(say(STEP_OUTSIDE, step=step, last=len(self.events)))
        first, runs, grads, _steps = self._built_index()
        hidden = NodeState("hidden", None, None)
        out: dict[int, NodeState] = {}
        for n in self.graph.nodes:
            f = first.get(n.id)
            if f is None or f > step:
                out[n.id] = hidden
                continue
            value = _last(runs.get(n.id), step)
            grad = _last(grads.get(n.id), step)
            ran = runs.get(n.id) and runs[n.id][0][0] <= step
            out[n.id] = NodeState("done" if ran else "defined", value, grad)
        if step > 0 and self.events[step - 1].node_id is not None:
            s = out[self.events[step - 1].node_id]
            out[self.events[step - 1].node_id] = NodeState("running", s.value, s.grad)
        return out

    def _built_index(self) -> tuple[dict[int, int], dict[int, list[Any]], dict[int, list[Any]], dict[int, list[int]]]:
        """Per node: the step of its first event, its (step, value) runs and gradients, the steps of its events."""
        if self._index is None:
            first: dict[int, int] = {}
            runs: dict[int, list[Any]] = {}
            grads: dict[int, list[Any]] = {}
            steps: dict[int, list[int]] = {}
            for k, e in enumerate(self.events, start=1):
                if e.node_id is None:
                    continue
                first.setdefault(e.node_id, k)
                steps.setdefault(e.node_id, []).append(k)
                if e.kind == "run":
                    runs.setdefault(e.node_id, []).append((k, e.value))
                elif e.kind == "backward":
                    grads.setdefault(e.node_id, []).append((k, e.value))
            self._index = first, runs, grads, steps
        return self._index

    def distinct_states(self) -> list[dict[int, NodeState]]:
        """Every state each node is in over the whole trace, in as few mappings as that takes: the k-th mapping
        holds each node's k-th state in time order (its last one when it has fewer), the first one every node
        hidden. What a drawing reserves room for, instead of the ``len + 1`` states of :meth:`state`: each node goes
        hidden, then at each of its own events running and then settled, so this costs O(events + nodes · depth)
        (depth: the most events of one node, 2 in a course trace) where all the step states cost O(events · nodes).

        >>> from course_lib import programs
        >>> t = record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})
        >>> every = t.distinct_states()
        >>> len(every), [s.status for s in (m[t.output.id] for m in every)]
        (5, ['hidden', 'running', 'done', 'running', 'done'])
        """
        _first, runs, grads, steps = self._built_index()
        histories: dict[int, list[NodeState]] = {}
        for n in self.graph.nodes:
            history = histories[n.id] = [NodeState("hidden", None, None)]
            for k in steps.get(n.id, ()):
                value, grad = _last(runs.get(n.id), k), _last(grads.get(n.id), k)
                ran = n.id in runs and runs[n.id][0][0] <= k
                history += [NodeState("running", value, grad), NodeState("done" if ran else "defined", value, grad)]
        depth = max((len(h) for h in histories.values()), default=1)
        return [{nid: h[min(k, len(h) - 1)] for nid, h in histories.items()} for k in range(depth)]

    def final_state(self) -> dict[int, NodeState]:
        """The state after the last event with nothing left "running": the finished picture an explorer draws.

        ``state(len(self))`` with the last event's node settled to "done" (it ran) or "defined" (it did not).
        """
        out = self.state(len(self.events))
        for nid, s in out.items():
            if s.status == "running":
                out[nid] = NodeState("done" if self._built_index()[1].get(nid) else "defined", s.value, s.grad)
        return out

    def event_at(self, step: int) -> Event | None:
        """The event that step ``step`` shows (the ``step``-th, 1-based); None at step 0, before anything."""
        return self.events[step - 1] if step > 0 else None

    def phases(self) -> list[str]:
        """The phases this trace goes through, in order, in words of the language of the moment.

        >>> from course_lib import programs
        >>> record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0}).phases()
        ['build', 'run', 'backward']
        """
        return [_(PHASE_NAMES[p]) for p in dict.fromkeys(e.phase for e in self.events)]

    def phase_at(self, step: int) -> str:
        """"build" / "run" / "backward" at this step ("start" before the first event)."""
        event = self.event_at(step)
        return event.phase if event is not None else "start"

    @property
    def has_lines(self) -> bool:
        """Whether any event knows its source line (a program's trace does; a hand-made one may not)."""
        return any(e.line is not None for e in self.events)

    @property
    def output(self) -> ir.Node | None:
        """The node whose value the program returned (the last node if none is marked)."""
        g = self.graph
        return g.outputs[0] if g.outputs else (g.nodes[-1] if g.nodes else None)

    def output_value(self) -> np.ndarray | None:
        """The program's result at the end of the trace (None if it never ran)."""
        out = self.output
        return None if out is None else self.final_state()[out.id].value

    def gradients(self) -> dict[str, np.ndarray | None]:
        """Input name -> d(output)/d(input) at the end of the trace, whichever the style.

        Define-then-run: the value of the input's gradient node (:attr:`grad_nodes`); define-by-run: the gradient
        ``backward`` left on the input itself. None where no gradient was computed (``backward=False``).
        """
        state = self.final_state()
        out: dict[str, np.ndarray | None] = {}
        for n in self.graph.nodes:
            if n.kind == "input":
                g = self.grad_nodes.get(n.id)
                out[n.name] = state[g].value if g is not None else state[n.id].grad
        return out


# ---------------------------------------------------------------------- recording
def _last(entries: list[Any] | None, step: int) -> Any:
    """The value of the last (step, value) entry at or before ``step``."""
    if not entries:
        return None
    k = bisect.bisect_right(entries, step, key=lambda e: e[0])
    return entries[k - 1][1] if k else None


def program_source(program: Callable[..., Any]) -> tuple[list[str], int, Any]:
    """(source lines, first line number, code object) of a program; expressions give their one-line program."""
    if hasattr(program, "source") and hasattr(program, "variables"):  # an expr.Expression
        return list(program.source), 0, None
    fn = getattr(program, "__func__", program)
    try:
        lines, first = inspect.getsourcelines(fn)
        return textwrap.dedent("".join(lines)).splitlines(), first, fn.__code__
    except (OSError, TypeError):
        return [], 0, getattr(fn, "__code__", None)


def input_names(program: Callable[..., Any]) -> list[str]:
    """The inputs a program takes: every named parameter after the first (the ops namespace); an expression's
    variables. ``*args`` / ``**kwargs`` are not inputs (nothing could name them).

    >>> input_names(lambda ops, x, w=1.0, *rest: x)
    ['x', 'w']
    """
    if hasattr(program, "variables"):
        return list(program.variables)
    params = list(_parameters(program).values())[1:]
    return [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def program_name(program: Any) -> str:
    """What the course calls a program in its messages: its ``__name__``, an expression's text, else its repr."""
    name = getattr(program, "__name__", None) or getattr(program, "text", None)
    return name if isinstance(name, str) else f"{program!r:.40}"


def _parameters(program: Any) -> Any:
    try:
        return inspect.signature(program).parameters
    except (TypeError, ValueError) as exc:  # a builtin without a signature, a mock...
        raise TypeError(say(NO_SIGNATURE, name=program_name(program))) from exc


def check_program(program: Any) -> list[str]:
    """Refuse what is not a program, before running anything; returns its input names (:func:`input_names`).

    A program is ``program(ops, **inputs)``: a function (or a callable object, a bound method) whose first
    positional parameter receives the ops namespace and whose other parameters are the inputs, by name; or a
    parsed ``expr.Expression``. Refused, with a message that names what was passed and what to pass: anything not
    callable, a class, a function without a readable signature or without a first positional parameter, an input
    that cannot be given by name, a generator or ``async`` function (calling it runs none of its lines).

    >>> check_program(lambda ops, x, w: x * w)
    ['x', 'w']
    >>> check_program(3.0)
    Traceback (most recent call last):
    TypeError: 3.0 (type float) is not a program: pass a function whose first parameter is the ops namespace, like \
def f(ops, x): return ops.sin(x), or a parsed expression, expr.parse('sin(x)')
    """
    if hasattr(program, "source") and hasattr(program, "variables"):  # an expr.Expression
        return input_names(program)
    name = program_name(program)
    if isinstance(program, type):
        raise TypeError(say(A_CLASS, name=name))
    if not callable(program) or inspect.isbuiltin(program):  # a builtin (math.sin) cannot take the ops namespace
        raise TypeError(say(NOT_A_PROGRAM, value=f"{program!r:.40}", type=type(program).__name__))
    fn = getattr(program, "__func__", program)
    if inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn):
        raise TypeError(say(GENERATOR, name=name))
    if inspect.iscoroutinefunction(fn):
        raise TypeError(say(COROUTINE, name=name))
    params = list(_parameters(program).values())
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                  inspect.Parameter.VAR_POSITIONAL)
    # an input after the first that only a position could give (``def f(ops, x, /)``): record names every input
    unnamed = [p for p in params[1:] if p.kind == p.POSITIONAL_ONLY and p.default is p.empty]
    if not params or params[0].kind not in positional or unnamed:
        raise TypeError(say(BAD_SIGNATURE, name=name, signature=str(inspect.signature(program))))
    return input_names(program)


def _read_inputs(program: Any, names: list[str], inputs: Any) -> dict[str, Any]:
    """The inputs as float64 numbers or arrays, every name the program takes and no other (course messages)."""
    example = "{" + ", ".join(f"{n!r}: 0.5" for n in names or ["x"]) + "}"
    if not isinstance(inputs, dict):
        raise TypeError(say(INPUTS_NOT_A_DICT, example=example, value=f"{inputs!r:.40}", type=type(inputs).__name__))
    name = program_name(program)
    first = next(iter(_parameters(program)), None) if not hasattr(program, "variables") else None
    if first is not None and first in inputs and first not in names:
        raise ValueError(say(FIRST_IS_OPS, first=first, name=name))
    extra = [repr(k) for k in inputs if k not in names]
    if extra:
        raise ValueError(say(NOT_AN_INPUT, extra=", ".join(extra), name=name, names=", ".join(names), n=len(extra)))
    missing = [n for n in names if n not in inputs]
    if missing:
        raise ValueError(say(NO_VALUE_GIVEN, missing=", ".join(missing), example=f"inputs={{{', '.join(names)}...}}"))
    out = {}
    for key in names:
        value = inputs[key]
        try:  # None would become nan, True 1.0 and a huge int an object array: none of them is a number here
            if value is None or isinstance(value, (bool, np.bool_, str, bytes)):
                raise TypeError(key)
            a = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            raise TypeError(say(BAD_INPUT_VALUE, key=key, value=f"{value!r:.40}")) from None
        out[key] = float(a) if a.ndim == 0 else a
    return out


def _run(program: Any, ops: Any, args: dict[str, Any], code: Any, first: int) -> Any:
    """``program(ops, **args)``; an error it raises in Python's words gets the course's words too (the error keeps
    its type and traceback: ``said`` for widgets, a note under the traceback); a course error passes unchanged."""
    try:
        return program(ops, **args)
    except Exception as exc:
        if isinstance(said_by(exc), Said):
            raise  # already a course message (the define-then-run `if`, an engine's refusal)
        name, text = program_name(program), str(exc).splitlines()[0] if str(exc) else ""
        params = list(_parameters(program)) if code is not None else []
        if isinstance(exc, TypeError) and "'module'" in text and params:
            exc.said = say(OPS_AS_VALUE, name=name, text=text, first=params[0])  # type: ignore[attr-defined]
        else:
            tb, line = exc.__traceback__, None
            while tb is not None:
                line = tb.tb_lineno - first + 1 if tb.tb_frame.f_code is code else line
                tb = tb.tb_next
            error = type(exc).__name__
            exc.said = (say(PROGRAM_RAISED, error=error, line=line, name=name, text=text) if line is not None
                        else say(PROGRAM_RAISED_SOMEWHERE, error=error, name=name, text=text))
        exc.add_note(exc.said)  # type: ignore[attr-defined]
        raise


def _result(program: Any, out: Any, style: str) -> Any:
    """The program's result if a trace can show it (a tensor of this style, or a plain number), else why not."""
    mine, other = (dy.Tensor, st.Tensor) if style == "define-by-run" else (st.Tensor, dy.Tensor)
    if isinstance(out, mine):
        return out
    name = program_name(program)
    if out is None:
        raise TypeError(say(RETURNED_NOTHING, name=name))
    if isinstance(out, other):
        raise TypeError(say(OTHER_ENGINE, name=name, engine=style_name(STYLES[style == "define-then-run"]),
                            style=style_name(style)))
    if isinstance(out, (bool, np.bool_)) or not isinstance(out, (int, float, np.number, np.ndarray)) or (
            isinstance(out, np.ndarray) and out.dtype.kind not in "iuf"):
        raise TypeError(say(NOT_A_RESULT, name=name, value=f"{out!r:.40}", type=type(out).__name__))
    return out


class _LineFinder:
    """Which line of the program is executing now (walks up the Python stack to the program's frame)."""

    def __init__(self, code: Any, first: int) -> None:
        self.code, self.first = code, first

    def __call__(self) -> int | None:
        if self.code is None:
            return None
        f = sys._getframe(2)
        while f is not None:
            if f.f_code is self.code:
                return f.f_lineno - self.first + 1
            f = f.f_back
        return None


def record(program: Callable[..., Any], style: str, inputs: dict[str, float], backward: bool = True) -> Trace:
    """Run ``program(ops, **inputs)`` in ``style`` and return its :class:`Trace`.

    ``program`` is a plain function whose first argument is the ops namespace, or a parsed ``expr.Expression``.
    ``backward=True`` also differentiates the output with respect to every input.
    """
    if style not in STYLES:
        raise ValueError(say(UNKNOWN_STYLE, style=style, styles=", ".join(STYLES)))
    names = check_program(program)
    inputs = _read_inputs(program, names, inputs)
    source, first, code = program_source(program)
    where = _LineFinder(code, first)
    recorder = _record_dynamic if style == "define-by-run" else _record_static
    t = recorder(program, names, inputs, backward, source, where)
    out = t.final_state()[t.graph.outputs[0].id].value
    if backward and np.size(out) != 1:  # both engines skip it: said, so that no phase goes missing silently
        t.note = say(NO_BACKWARD, shape=np.shape(out))
    return t


def _describe(node: ir.Node, value: Any = None) -> str | Shown:
    """``mul = mul(x, w) → 6`` for an op; ``x → 3`` for a leaf (the value written when shown: :class:`Shown`)."""
    code = node.name if node.kind != "op" else f"{node.name} = {node.op}({', '.join(i.name for i in node.inputs)})"
    return code if value is None else Shown(code + " → ", value)


def _record_dynamic(program: Callable[..., Any], names: list[str], inputs: dict[str, float], backward: bool,
                    source: list[str], where: _LineFinder) -> Trace:
    created: list[tuple[dy.Tensor, int | None]] = []

    def on_create(t: dy.Tensor) -> None:
        created.append((t, where()))

    with dy.observe(on_create):
        args = {n: dy.Tensor(inputs[n], requires_grad=True, name=n) for n in names}
        out = _result(program, _run(program, dy, args, where.code, where.first), "define-by-run")
        # a plain number returned is the output's constant, created here so that it has its step as well
        out = out if isinstance(out, dy.Tensor) else dy.Tensor(out, name="output")
    for t, line in created:
        t.line = line
    graph = out.graph()
    ids = {t.id: k for k, t in enumerate(out.history())}
    events: list[Event] = []
    for t, line in created:
        if t.id not in ids:
            continue  # not part of the result's history (e.g. a comparison used by an `if`)
        node = graph.nodes[ids[t.id]]
        message = _CREATE.get(node.kind, node.kind + " {node}")
        events.append(_event("run", "run", node.id, message, t.data, line, node=_describe(node, t.data)))
    if backward and out.requires_grad and out.data.size == 1:
        def on_grad(t: dy.Tensor, g: np.ndarray) -> None:
            node = graph.nodes[ids[t.id]]
            events.append(_event("backward", "backward", node.id, _BACKWARD, g, None, output=graph.outputs[0].name,
                                 node=node.name, value=Shown("", g)))

        out.backward(on_grad=on_grad)
        for t in out.history():
            if t.grad is not None:
                graph.nodes[ids[t.id]].attrs["grad"] = t.grad
    return Trace("define-by-run", graph, events, source)


def _record_static(program: Callable[..., Any], names: list[str], inputs: dict[str, float], backward: bool,
                   source: list[str], where: _LineFinder) -> Trace:
    g = st.Graph()
    events: list[Event] = []
    lines: dict[int, int | None] = {}
    with g.as_default():
        g.observers.append(lambda node: lines.__setitem__(node.id, where()))
        xs = {n: st.placeholder(n, shape=np.shape(inputs[n])) for n in names}
        out = _result(program, _run(program, st, xs, where.code, where.first), "define-then-run")
        out = out if isinstance(out, st.Tensor) else st.constant(out, name="output")
        # one entry per input, None where there is no gradient (all None when none is asked for)
        grads = st.gradients(out, list(xs.values())) if backward and out.shape == () else [None] * len(xs)
        g.observers.clear()
    g.mark_output(out.node)
    for n in g.nodes:
        message = _DEFINE[n.kind if n.kind in ("input", "constant", "variable") else "op", bool(n.gradient)]
        events.append(_event("define", "build", n.id, message, None, lines.get(n.id), node=_describe(n)))
    fetches = [out] + [d for d in grads if d is not None]
    sess = st.Session(g)
    feeds = {xs[n]: inputs[n] for n in names}
    sess.run(fetches, feed_dict=feeds)
    plan = sess.last_plan
    assert plan is not None
    for node, value in plan.run_observed([np.asarray(feeds[xs[n]], dtype=np.float64) for n in names
                                          if xs[n].node in plan.fed]):
        phase = "backward" if node.gradient else "run"
        message = _RUN.get(node.kind, _RUN["op"])
        events.append(_event("run", phase, node.id, message, value, lines.get(node.id), node=_describe(node, value)))
    grad_nodes = {x.node.id: d.node.id for x, d in zip(xs.values(), grads, strict=True) if d is not None}
    return Trace("define-then-run", g, events, source, grad_nodes)
