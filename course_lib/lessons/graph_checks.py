"""Checkers for the exercises: judge an answer by running it through the engines, never by a stored solution.

Each function here returns a *checker* -- ``answer -> (ok, message)`` -- for :class:`course_lib.lessons.exercises.Exercise`
(``expect=...``). The expected value is computed when the student checks, from the program itself, so the
notebook cell that defines an exercise does not print its answer, and a wrong answer gets a message that says
which way it is wrong (too many nodes, a branch missing, a value that differs) without giving the solution.

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
from .. import static as st
from .. import trace as tr
from .debugging import locals_at_return
from .exercises import Checker, number

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
        return False, "pass your function itself (its name, without parentheses), e.g. ex.check(my_program)"
    try:
        params = list(inspect.signature(answer).parameters)
    except (TypeError, ValueError):
        return False, "this is not a Python function whose arguments can be read"
    if len(params) < 2 or params[0] != "ops":
        return False, "a program's first argument is `ops` and then its inputs: def my_program(ops, x): ..."
    return True, ""


# ---------------------------------------------------------------------------------------------------- checkers
def node_count_is(program: Callable[..., Any], style: str, inputs: dict[str, float]) -> Checker:
    """Answer: a whole number, the node count of ``program`` in ``style`` at ``inputs``."""

    def check(answer: Any) -> tuple[bool, str]:
        n = node_count(program, style, inputs)
        guess = number(answer)
        if guess is None or guess != int(guess):
            return False, "answer with a whole number of nodes"
        if guess == n:
            return True, f"yes: {n} nodes"
        return False, "too many" if guess > n else "too few"

    return check


def graph_changes_between(inputs_a: dict[str, float], inputs_b: dict[str, float]) -> Checker:
    """Answer: a program whose define-by-run graph has a different structure at ``inputs_a`` and ``inputs_b``."""

    def check(answer: Any) -> tuple[bool, str]:
        ok, why = _is_program(answer)
        if not ok:
            return False, why
        try:
            a, b = shape_of(answer, inputs_a), shape_of(answer, inputs_b)
        except Exception as exc:  # noqa: BLE001 - the student's program failed: say how
            return False, f"your program raised {type(exc).__name__}: {exc}"
        if a == b:
            return False, (f"both inputs give the same graph ({len(a)} nodes, same operations): the structure must "
                           "depend on the value, e.g. through an `if` or a `while` on x")
        return True, f"the graph has {len(a)} nodes for {_fmt(inputs_a)} and {len(b)} for {_fmt(inputs_b)}" + (
            "" if len(a) != len(b) else " (same size, different operations)")

    return check


def local_value_is(program: Callable[..., Any], name: str, inputs: dict[str, float]) -> Checker:
    """Answer: the number the local variable ``name`` of ``program`` holds when it runs define-by-run at ``inputs``."""

    def check(answer: Any) -> tuple[bool, str]:
        guess = number(answer)
        if guess is None:
            return False, f"answer with the number {name} holds (a float), e.g. 1.25"
        args = {k: dy.Tensor(v, requires_grad=True, name=k) for k, v in inputs.items()}
        _, seen = locals_at_return(program, dy, **args)
        if name not in seen:
            return False, f"{name!r} is not a variable of {getattr(program, '__name__', 'the program')}"
        true = float(np.asarray(getattr(seen[name], "data", seen[name]), dtype=float))
        if np.isclose(guess, true, rtol=1e-3, atol=1e-6):
            return True, f"yes: {name} = {true:.6g}"
        return False, f"{name} is not {guess:g} at {_fmt(inputs)}"

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
            return False, ("define-then-run still cannot build it: a Python if/while asks a placeholder for True or "
                           "False while the graph is built. Put both branches in the graph with ops.cond")
        except Exception as exc:  # noqa: BLE001
            return False, f"building the graph raised {type(exc).__name__}: {exc}"
        if not isinstance(out, st.Tensor):
            return False, "your program must return the result (a tensor of the graph)"
        sess = st.Session(g)
        for p in points:
            want = float(reference(dy, **{name: dy.Tensor(p)}).data)
            try:
                got = float(sess.run(out, feed_dict={x: p}))
            except Exception as exc:  # noqa: BLE001
                return False, f"running your graph at {name} = {p:g} raised {type(exc).__name__}: {exc}"
            if not np.isclose(got, want, rtol=1e-9, atol=1e-12):
                return False, f"it builds, but at {name} = {p:g} it gives {got:.6g} where the original gives {want:.6g}"
        kinds = sorted({n.op for n in g.nodes if n.op == "cond"})
        return True, (f"it builds ({len(g)} nodes{', with a cond' if kinds else ''}) and agrees with the original at "
                      f"{', '.join(f'{p:g}' for p in points)}")

    return check


def compile_report_is(program: Callable[..., Any], inputs: dict[str, float],
                      keys: Sequence[str] = ("pruned", "folded", "merged")) -> Checker:
    """Answer: the numbers ``keys`` of :func:`compile_report`, in that order (a tuple of whole numbers)."""
    keys = tuple(keys)

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, (tuple, list)) or len(answer) != len(keys):
            return False, f"answer with {len(keys)} whole numbers in this order: ({', '.join(keys)})"
        report = compile_report(program, inputs)
        wrong = [k for k, a in zip(keys, answer) if number(a) != report[k]]
        if not wrong:
            return True, "yes: " + ", ".join(f"{k} {report[k]}" for k in keys)
        return False, f"not quite: look again at {' and '.join(wrong)}"

    return check


def values_are(program: Callable[..., Any], names: Sequence[str], inputs: dict[str, float]) -> Checker:
    """Answer: the values of the variables ``names`` of ``program`` at ``inputs``, in order (e.g. what
    ``sess.run([h, y], feed_dict=...)`` returns); the truth comes from running it define-by-run."""
    names = tuple(names)

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, (tuple, list)) or len(answer) != len(names):
            return False, f"answer with a list of {len(names)} values: [{', '.join(names)}]"
        args = {k: dy.Tensor(v, name=k) for k, v in inputs.items()}
        _, seen = locals_at_return(program, dy, **args)
        wrong = []
        for n, a in zip(names, answer):
            true = float(np.asarray(getattr(seen[n], "data", seen[n]), dtype=float))
            got = number(a)
            if got is None or not np.isclose(got, true, rtol=1e-6, atol=1e-9):
                wrong.append(n)
        if not wrong:
            return True, "yes: " + ", ".join(f"{n} = {number(a):.6g}" for n, a in zip(names, answer))
        return False, f"{' and '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not right"

    return check


def torch_node_count_is(n: int, make_input: Callable[[], Any]) -> Checker:
    """Answer: a function of one torch tensor whose output has exactly ``n`` autograd nodes behind it
    (counted through ``grad_fn.next_functions``, leaves' ``AccumulateGrad`` included)."""

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, "pass your function itself, e.g. ex.check(grow)"
        from ..adapters.torch import count_autograd_nodes

        try:
            out = answer(make_input())
            got = count_autograd_nodes(out)
        except Exception as exc:  # noqa: BLE001
            return False, f"{type(exc).__name__}: {exc}"
        if got == n:
            return True, f"yes: {got} autograd nodes"
        return False, f"your output has {got} autograd nodes behind it, not {n}"

    return check


def torch_export_matches(reference: Callable[[Any], Any], examples: Sequence[Any]) -> Checker:
    """Answer: a function or module that ``torch.export`` can export from ``examples[0]`` and whose exported
    program gives ``reference``'s results on every example (e.g. a Python ``if`` rewritten with ``torch.cond``).
    The examples should share one shape: an exported program is specialised to the example's shape."""

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, "pass your function or module itself"
        from ..adapters.deployment import torch_export

        exported = torch_export(answer, examples[0])
        if not exported.ok:
            return False, f"torch.export failed: {exported.error}"
        run = exported.program.module()  # type: ignore[union-attr]
        for ex in examples:
            want = reference(ex)
            try:
                got = run(ex)
            except Exception as exc:  # noqa: BLE001 - e.g. a guard on the example's shape
                return False, f"exported, but running it on {ex.tolist()} raised {type(exc).__name__}: {exc}"
            if not bool((abs(want - got) <= 1e-5 + 1e-5 * abs(want)).all()):
                return False, f"exported, but for input {ex.tolist()} it gives {got.tolist()}, not {want.tolist()}"
        return True, f"exported ({exported.size} nodes) and it agrees on all {len(examples)} inputs"

    return check


def _fmt(inputs: dict[str, float]) -> str:
    return ", ".join(f"{k} = {v:g}" for k, v in inputs.items())
