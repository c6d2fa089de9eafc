"""Checkers for the exercises: judge an answer by running it through the engines, never by a stored solution.

Each function here returns a *checker* -- ``answer -> (ok, message)`` -- for
:class:`course_lib.lessons.exercises.Exercise` (``expect=...``). The expected value is computed when the student checks,
from the program itself, so the notebook cell that defines an exercise does not print its answer, and a wrong answer
gets a message that says which way it is wrong (too many nodes, a branch missing, a value that differs) without giving
the solution.

>>> from course_lib import programs
>>> check = node_count_is(programs.repeat_until_large, "define-by-run", {"x": 4.0})
>>> check(4)
(True, 'yes: 4 nodes')
>>> check(7)[0], check(7)[1].startswith("too many")
(False, True)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .. import dynamic as dy
from .. import i18n
from .. import static as st
from .. import trace as tr
from ..i18n import N_, Plural, say
from ..i18n import gettext as _
from .debugging import locals_at_return
from .exercises import PASS_YOUR_FUNCTION, Checker, and_list, count_is, number, pairs

__all__ = [
    "Checker",
    "builds_like",
    "compile_report",
    "compile_report_is",
    "graph_changes_between",
    "local_value_is",
    "node_count",
    "node_count_is",
    "shape_of",
    "torch_export_matches",
    "torch_node_count_is",
    "values_are",
]

# The verdicts (course messages: a test reads which one was said, ``.msgid``, in any language).
NOT_READABLE = N_("this is not a Python function whose arguments can be read")
FIRST_ARGUMENT_OPS = N_("a program's first argument is `ops` and then its inputs: {example}")
YES_NODES = N_("yes: {n} nodes")
TOO_MANY = N_("too many")
TOO_FEW = N_("too few")
PROGRAM_RAISED = N_("your program raised {error}: {text}")
SAME_GRAPH = Plural("both inputs give the same graph ({n} node, same operations): the structure must depend on the "
                    "value, e.g. through an `if` or a `while` on x",
                    "both inputs give the same graph ({n} nodes, same operations): the structure must depend on the "
                    "value, e.g. through an `if` or a `while` on x")
GRAPH_DIFFERS = Plural("the graph has {a} node for {inputs_a} and {b} for {inputs_b}",
                       "the graph has {a} nodes for {inputs_a} and {b} for {inputs_b}", count="a")
GRAPH_DIFFERS_SAME_SIZE = Plural("the graph has {a} node for {inputs_a} and {b} for {inputs_b} (same size, different "
                                 "operations)",
                                 "the graph has {a} nodes for {inputs_a} and {b} for {inputs_b} (same size, different "
                                 "operations)", count="a")
ANSWER_THE_NUMBER = N_("answer with the number {name} holds (a float), e.g. 1.25")
NOT_A_VARIABLE = N_("{name!r} is not a variable of {program}")
THE_PROGRAM = N_("the program")
YES_VALUE = N_("yes: {name} = {value}")
NOT_THE_VALUE = N_("{name} is not {guess} at {inputs}")
CANNOT_BUILD = N_("define-then-run still cannot build it: a Python if/while asks a placeholder for True or False "
                  "while the graph is built. Put both branches in the graph with ops.cond")
BUILDING_RAISED = N_("building the graph raised {error}: {text}")
MUST_RETURN = N_("your program must return the result (a tensor of the graph)")
RUNNING_RAISED = N_("running your graph at {name} = {x} raised {error}: {text}")
GIVES_OTHER = N_("it builds, but at {name} = {x} it gives {got} where the original gives {want}")
BUILDS = N_("it builds ({n} nodes) and agrees with the original at {points}")
BUILDS_WITH_COND = N_("it builds ({n} nodes, with a cond) and agrees with the original at {points}")
ANSWER_NUMBERS_IN_ORDER = Plural("answer with {n} whole number in this order: ({keys})",
                                 "answer with {n} whole numbers in this order: ({keys})")
YES_REPORT = N_("yes: {report}")
LOOK_AGAIN = N_("not quite: look again at {keys}")
#: the keys of :func:`compile_report` as a student reads them (the keys themselves stay English: code reads them)
REPORT_WORDS = {"pruned": N_("pruned"), "folded": N_("folded"), "merged": N_("merged")}
ANSWER_VALUES = Plural("answer with a list of {n} value: [{names}]", "answer with a list of {n} values: [{names}]")
YES_VALUES = N_("yes: {values}")
ONE_NOT_RIGHT = N_("{names} is not right")
SOME_NOT_RIGHT = N_("{names} are not right")
YES_AUTOGRAD = N_("yes: {n} autograd nodes")
AUTOGRAD_NODES = N_("your output has {got} autograd nodes behind it, not {n}")  # got >= 2: a grad_fn and a leaf
PASS_FUNCTION_OR_MODULE = N_("pass your function or module itself")
EXPORT_FAILED = N_("torch.export failed: {error}")
EXPORTED_BUT_RAISED = N_("exported, but running it on {input} raised {error}: {text}")
EXPORTED_BUT_GIVES = N_("exported, but for input {input} it gives {got}, not {want}")
EXPORTED = Plural("exported ({n} nodes) and it agrees on the {k} input",
                   "exported ({n} nodes) and it agrees on all {k} inputs", count="k")  # an exported graph: 2+ nodes

# ---------------------------------------------------------------------------------------------------- facts
def node_count(program: Callable[..., Any], style: str, inputs: dict[str, float]) -> int:
    """How many nodes ``program`` has in ``style`` at ``inputs`` (define-by-run: the nodes it recorded)."""
    return len(tr.record(program, style, inputs, backward=False).graph)


def shape_of(program: Callable[..., Any], inputs: dict[str, float]) -> list[tuple[str, tuple[int, ...]]]:
    """The structure of the define-by-run graph: ``(op, input ids)`` per node, in creation order.

    Two inputs give the same graph exactly when these lists are equal (values are not part of the structure).
    """
    graph = tr.record(program, "define-by-run", inputs, backward=False).graph
    return [(n.op, n.input_ids) for n in graph.nodes]


def compile_report(program: Callable[..., Any], inputs: dict[str, float]) -> dict[str, int]:
    """What our Session's compiler did to ``program``'s graph for one fetch of its output.

    Keys: ``graph_nodes``, ``needed`` (after pruning), ``pruned`` (= graph_nodes - needed), ``folded`` (constant
    subexpressions computed once, at compile time), ``merged`` (duplicates computed once), ``steps`` (what runs).
    """
    g = st.Graph()
    with g.as_default():
        xs = {name: st.placeholder(name, shape=np.shape(v)) for name, v in inputs.items()}
        out = program(st, **xs)
    sess = st.Session(g)
    sess.run(out, feed_dict={xs[k]: v for k, v in inputs.items()})
    report = dict(sess.last_plan.report)  # type: ignore[union-attr]
    report["pruned"] = report["graph_nodes"] - report["needed"]
    return report


def _is_program(answer: Any) -> tuple[bool, str]:
    if answer is ... or not callable(answer):
        return False, say(PASS_YOUR_FUNCTION, example="ex.check(my_program)")
    try:
        params = list(inspect.signature(answer).parameters)
    except (TypeError, ValueError):
        return False, say(NOT_READABLE)
    if len(params) < 2 or params[0] != "ops":
        return False, say(FIRST_ARGUMENT_OPS, example="def my_program(ops, x): ...")
    return True, ""


# ---------------------------------------------------------------------------------------------------- checkers
def node_count_is(program: Callable[..., Any], style: str, inputs: dict[str, float]) -> Checker:
    """Answer: a whole number, the node count of ``program`` in ``style`` at ``inputs``."""

    return count_is(lambda: node_count(program, style, inputs), "nodes", lambda n: say(YES_NODES, n=n),
                    lambda guess, n: say(TOO_MANY if guess > n else TOO_FEW))


def graph_changes_between(inputs_a: dict[str, float], inputs_b: dict[str, float]) -> Checker:
    """Answer: a program whose define-by-run graph has a different structure at ``inputs_a`` and ``inputs_b``."""

    def check(answer: Any) -> tuple[bool, str]:
        ok, why = _is_program(answer)
        if not ok:
            return False, why
        try:
            a, b = shape_of(answer, inputs_a), shape_of(answer, inputs_b)
        except Exception as exc:  # noqa: BLE001 - the student's program failed: say how
            return False, say(PROGRAM_RAISED, error=type(exc).__name__, text=str(exc))
        if a == b:
            return False, say(SAME_GRAPH, n=len(a))
        return True, say(GRAPH_DIFFERS if len(a) != len(b) else GRAPH_DIFFERS_SAME_SIZE,
                         a=len(a), inputs_a=_fmt(inputs_a), b=len(b), inputs_b=_fmt(inputs_b))

    return check


def local_value_is(program: Callable[..., Any], name: str, inputs: dict[str, float]) -> Checker:
    """Answer: the number the local variable ``name`` of ``program`` holds when it runs define-by-run at ``inputs``."""

    def check(answer: Any) -> tuple[bool, str]:
        guess = number(answer)
        if guess is None:
            return False, say(ANSWER_THE_NUMBER, name=name)
        args = {k: dy.Tensor(v, requires_grad=True, name=k) for k, v in inputs.items()}
        _result, seen = locals_at_return(program, dy, **args)
        if name not in seen:
            return False, say(NOT_A_VARIABLE, name=name, program=getattr(program, "__name__", None) or _(THE_PROGRAM))
        true = float(np.asarray(getattr(seen[name], "data", seen[name]), dtype=float))
        if np.isclose(guess, true, rtol=1e-3, atol=1e-6):
            return True, say(YES_VALUE, name=name, value=i18n.number(true, spec=".6g"))
        return False, say(NOT_THE_VALUE, name=name, guess=i18n.number(guess, spec="g"), inputs=_fmt(inputs))

    return check


def builds_like(reference: Callable[..., Any], xs: Iterable[float], name: str = "x") -> Checker:
    """Answer: a program that define-then-run can *build* and that gives ``reference``'s results (run define-by-run)
    at every ``x`` in ``xs`` -- e.g. a Python ``if`` rewritten with ``ops.cond``."""
    points = [float(x) for x in xs]

    def check(answer: Any) -> tuple[bool, str]:
        ok, why = _is_program(answer)
        if not ok:
            return False, why
        g = st.Graph()
        try:
            with g.as_default():
                x = st.placeholder(name)
                out = answer(st, **{name: x})
        except st.SymbolicBoolError:
            return False, say(CANNOT_BUILD)
        except Exception as exc:  # noqa: BLE001
            return False, say(BUILDING_RAISED, error=type(exc).__name__, text=str(exc))
        if not isinstance(out, st.Tensor):
            return False, say(MUST_RETURN)
        sess = st.Session(g)
        for p in points:
            want = float(reference(dy, **{name: dy.Tensor(p)}).data)
            try:
                got = float(sess.run(out, feed_dict={x: p}))
            except Exception as exc:  # noqa: BLE001
                return False, say(RUNNING_RAISED, name=name, x=i18n.number(p, spec="g"), error=type(exc).__name__,
                                  text=str(exc))
            if not np.isclose(got, want, rtol=1e-9, atol=1e-12):
                return False, say(GIVES_OTHER, name=name, x=i18n.number(p, spec="g"),
                                  got=i18n.number(got, spec=".6g"), want=i18n.number(want, spec=".6g"))
        kinds = sorted({n.op for n in g.nodes if n.op == "cond"})
        return True, say(BUILDS_WITH_COND if kinds else BUILDS, n=len(g), points=_numbers(points))

    return check


def compile_report_is(program: Callable[..., Any], inputs: dict[str, float],
                      keys: Sequence[str] = ("pruned", "folded", "merged")) -> Checker:
    """Answer: the numbers ``keys`` of :func:`compile_report`, in that order (a tuple of whole numbers)."""
    keys = tuple(keys)

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, (tuple, list)) or len(answer) != len(keys):
            return False, say(ANSWER_NUMBERS_IN_ORDER, n=len(keys), keys=", ".join(keys))
        report = compile_report(program, inputs)
        wrong = [k for k, a in zip(keys, answer, strict=True) if number(a) != report[k]]
        if not wrong:
            return True, say(YES_REPORT, report=", ".join(f"{_word(k)} {report[k]}" for k in keys))
        return False, say(LOOK_AGAIN, keys=and_list(_word(k) for k in wrong))

    return check


def values_are(program: Callable[..., Any], names: Sequence[str], inputs: dict[str, float]) -> Checker:
    """Answer: the values of the variables ``names`` of ``program`` at ``inputs``, in order (e.g. what
    ``sess.run([h, y], feed_dict=...)`` returns); the truth comes from running it define-by-run."""
    names = tuple(names)

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, (tuple, list)) or len(answer) != len(names):
            return False, say(ANSWER_VALUES, n=len(names), names=", ".join(names))
        args = {k: dy.Tensor(v, name=k) for k, v in inputs.items()}
        _result, seen = locals_at_return(program, dy, **args)
        wrong = []
        for n, a in zip(names, answer, strict=True):
            true = float(np.asarray(getattr(seen[n], "data", seen[n]), dtype=float))
            got = number(a)
            if got is None or not np.isclose(got, true, rtol=1e-6, atol=1e-9):
                wrong.append(n)
        if not wrong:
            values = pairs(((n, number(a)) for n, a in zip(names, answer, strict=True)), spec=".6g")
            return True, say(YES_VALUES, values=values)
        return False, say(ONE_NOT_RIGHT if len(wrong) == 1 else SOME_NOT_RIGHT, names=and_list(wrong))

    return check


def torch_node_count_is(n: int, make_input: Callable[[], Any]) -> Checker:
    """Answer: a function of one torch tensor whose output has exactly ``n`` autograd nodes behind it
    (counted through ``grad_fn.next_functions``, leaves' ``AccumulateGrad`` included)."""

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, say(PASS_YOUR_FUNCTION, example="ex.check(grow)")
        from ..adapters.torch import count_autograd_nodes

        try:
            out = answer(make_input())
            got = count_autograd_nodes(out)
        except Exception as exc:  # noqa: BLE001
            return False, f"{type(exc).__name__}: {exc}"
        if got == n:
            return True, say(YES_AUTOGRAD, n=got)
        return False, say(AUTOGRAD_NODES, got=got, n=n)

    return check


def torch_export_matches(reference: Callable[[Any], Any], examples: Sequence[Any]) -> Checker:
    """Answer: a function or module that ``torch.export`` can export from ``examples[0]`` and whose exported
    program gives ``reference``'s results on every example (e.g. a Python ``if`` rewritten with ``torch.cond``).
    The examples should share one shape: an exported program is specialised to the example's shape."""

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, say(PASS_FUNCTION_OR_MODULE)
        from ..adapters.deployment import torch_export

        exported = torch_export(answer, examples[0])
        if not exported.ok:
            return False, say(EXPORT_FAILED, error=exported.error)
        run = exported.program.module()  # type: ignore[union-attr]
        for ex in examples:
            want = reference(ex)
            try:
                got = run(ex)
            except Exception as exc:  # noqa: BLE001 - e.g. a guard on the example's shape
                return False, say(EXPORTED_BUT_RAISED, input=ex.tolist(), error=type(exc).__name__, text=str(exc))
            if not bool((abs(want - got) <= 1e-5 + 1e-5 * abs(want)).all()):
                return False, say(EXPORTED_BUT_GIVES, input=ex.tolist(), got=got.tolist(), want=want.tolist())
        return True, say(EXPORTED, n=exported.size, k=len(examples))

    return check


def _fmt(inputs: dict[str, float]) -> str:
    """``x = 1, w = 3`` in the language of the moment (French: ``x = 1 ; w = 3``, decimal commas)."""
    return pairs(inputs.items())


def _numbers(xs: Iterable[float]) -> str:
    """``-2, -0.5, 0.5`` (French: ``-2 ; -0,5 ; 0,5``)."""
    return pairs((("", x) for x in xs), sep="")


def _word(key: str) -> str:
    """A key of :func:`compile_report` as the student reads it (French: ``élagués``...)."""
    return _(REPORT_WORDS.get(key, key))
