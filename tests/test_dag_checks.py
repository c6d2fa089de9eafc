"""Checkers for the DAG exercises of notebook 01: every valid topological order is accepted, every invalid one is
refused with the reason, an edge that closes a cycle is recognised, and the checked graph is never changed."""

from __future__ import annotations

import itertools

import pytest

from course_lib import expr, trace
from course_lib import graph as graph_module
from course_lib.graph import Graph
from course_lib.i18n import Said
from course_lib.lessons import dag_checks
from course_lib.lessons.exercises import Exercise


@pytest.fixture()
def graph() -> Graph:
    """The forward graph of sin(x*w + 1) in the define-then-run engine: x, w, mul, Const, add, sin."""
    return trace.record(expr.parse("sin(x*w + 1)"), "define-then-run", {"x": 3.0, "w": 2.0}, backward=False).graph


def brute_force_orders(g: Graph) -> set[tuple[str, ...]]:
    """Every permutation of the nodes that respects every edge (independent of the checker's code)."""
    names = [n.name for n in g.nodes]
    edges = [(i.name, n.name) for n in g.nodes for i in n.inputs]
    return {p for p in itertools.permutations(names) if all(p.index(a) < p.index(b) for a, b in edges)}


def test_exactly_the_valid_orders_are_accepted(graph: Graph) -> None:
    valid = brute_force_orders(graph)
    assert len(valid) > 1  # several orders exist: a checker comparing to one list would be wrong
    check = dag_checks.order_checker(graph)
    for p in itertools.permutations([n.name for n in graph.nodes]):
        ok, message = check(list(p))
        assert ok == (p in valid), (p, message)


def said(text: str, msgid: str, **values) -> bool:
    """``text`` is the course message ``msgid`` said with (at least) ``values``."""
    return isinstance(text, Said) and text.msgid is msgid and all(text.values[k] == v for k, v in values.items())


def test_reasons_name_the_problem(graph: Graph) -> None:
    late = dag_checks.order_problem(graph, ["x", "mul", "w", "Const", "add", "sin"])
    assert said(late, dag_checks.COMES_BEFORE, name="mul", input="w")
    assert late == "'mul' comes before its input 'w'"  # end to end, in English
    assert said(dag_checks.order_problem(graph, ["x", "w", "mul", "one", "add", "sin"]), dag_checks.NOT_A_NODE,
                name="one")
    assert said(dag_checks.order_problem(graph, ["x", "x", "w", "mul", "Const", "add", "sin"]),
                dag_checks.APPEARS_TWICE, name="x")
    assert said(dag_checks.order_problem(graph, ["x", "w", "mul", "Const", "add"]), dag_checks.MISSING_ONE, name="sin")
    assert said(dag_checks.order_problem(graph, ["x", "w", "mul", "Const"]), dag_checks.MISSING_MANY, n=2, name="add")


def test_order_checker_can_ask_for_one_node_before_another(graph: Graph) -> None:
    check = dag_checks.order_checker(graph, before=("Const", "x"))
    ok, message = check(["x", "w", "mul", "Const", "add", "sin"])  # valid, but x comes first
    assert not ok and said(message, dag_checks.NOT_BEFORE, first="Const", second="x")
    ok, message = check(["Const", "w", "x", "mul", "add", "sin"])
    assert ok and said(message, dag_checks.VALID_ORDER, order="Const → w → x → mul → add → sin")
    assert [p for p in brute_force_orders(graph) if check(list(p))[0]] == [
        p for p in brute_force_orders(graph) if p.index("Const") < p.index("x")]


def test_count_table_names_its_rows_in_the_language_of_the_moment() -> None:
    from course_lib.i18n import set_language

    row = dict.fromkeys(dag_checks.COUNT_ROWS, 3)
    english = dag_checks.count_table({"x*x": row, "exp(x)": {**row, "PyTorch autograd": 2}}, width=8)
    assert english.splitlines()[0].split() == ["nodes", "of", "x*x", "exp(x)"]
    assert english.splitlines()[-1].split() == ["PyTorch", "autograd", "3", "2"]
    set_language("fr")
    try:
        french = dag_checks.count_table({"x*x": row}, width=8)
    finally:
        set_language("en")
    assert "nœuds de" in french and "autograd de PyTorch" in french and "ours" not in french


def test_order_checker_takes_nodes_too_and_survives_anything(graph: Graph) -> None:
    check = dag_checks.order_checker(graph)
    assert check(graph.topological_order())[0]
    for junk in ("x, w", 5, None, {"x": 1}, [1, 2], [None]):
        ok, message = check(junk)
        assert ok is False and message.msgid in (dag_checks.ANSWER_A_LIST, dag_checks.NOT_A_NODE)


def test_cycle_checker(graph: Graph) -> None:
    check = dag_checks.cycle_checker(graph)
    before = graph.to_json()
    ok, message = check(("sin", "x"))
    assert ok and said(message, graph_module.CYCLE_EDGE, src="sin", dst="x")  # the graph's own refusal
    assert "cycle" in message and "sin -> x" in message  # end to end, in English
    assert check(("add", "add"))[0]  # a self-loop is a cycle too
    ok, message = check(("x", "sin"))  # sin already depends on x: one more edge is no cycle
    assert not ok and said(message, dag_checks.EDGE_ALLOWED, src="x", dst="sin")
    ok, message = check(("Const", "w"))  # w does not depend on Const either way: allowed
    assert not ok
    ok, message = check(("sin", "nope"))
    assert not ok and said(message, graph_module.NO_NODE_NAMED, name="nope")
    assert said(check("sin")[1], dag_checks.ANSWER_A_PAIR) and not check(("a", "b", "c"))[0]
    assert graph.to_json() == before  # the checked graph never changed


def test_checkers_work_inside_an_exercise(graph: Graph) -> None:
    ex = Exercise("01.t", "an order", expect=dag_checks.order_checker(graph), hints=["inputs first"])
    assert ex.check(...).ok is None
    wrong = ex.check(["sin"])
    assert wrong.ok is False and wrong.hint == 0 and said(wrong.said, dag_checks.MISSING_MANY, n=5)
    assert ex.check(["Const", "w", "x", "mul", "add", "sin"]).ok is True
