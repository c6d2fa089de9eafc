"""course_lib.lessons.compile_explorer: the widget's counts follow what the engine really did; timings never touch them."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from course_lib.lessons.compile_explorer import CompileExplorer


def test_counts_follow_the_engine() -> None:
    e = CompileExplorer(ops=4, timings=False)
    assert repr(e) == "CompileExplorer(ops=4, nodes=7, compiles=1, runs=1)"
    e.run_many(100)
    assert (e.compiles, e.runs) == (1, 101)
    e.add_node()
    e.add_node()
    assert repr(e) == "CompileExplorer(ops=4, nodes=9, compiles=3, runs=103)"


def test_the_slider_builds_a_new_graph() -> None:
    e = CompileExplorer(ops=4, timings=False)
    e.add_node()
    e.ops.value = 20
    assert repr(e) == "CompileExplorer(ops=20, nodes=23, compiles=1, runs=1)"
    # 23 nodes: the full blocks of 8 ops are drawn as one box each, the last 4 ops one by one
    assert "2 scope(s) drawn as one box each: ops 1-8, ops 9-16." in e.picture.value


def test_timings_are_measured_on_the_side() -> None:
    e = CompileExplorer(ops=6, timings=True)
    assert (e.compiles, e.runs) == (1, 1)
    assert set(e._times) == {"compile", "static run", "dynamic run"}
    assert "compiling pays off after" in e.stats.value
    e.add_node()
    assert (e.compiles, e.runs) == (2, 2)


def test_the_plan_source_is_shown_and_shortened() -> None:
    small = CompileExplorer(ops=3, timings=False)
    assert "def plan(x_0, c_1):" in small.source.value and "more lines" not in small.source.value
    big = CompileExplorer(ops=40, timings=False)
    assert "more lines" in big.source.value and "return" in big.source.value


def test_errors_are_shown_in_the_widget() -> None:
    e = CompileExplorer(ops=2, timings=False)
    e._safe(lambda: 1 / 0)
    assert "ZeroDivisionError" in e.message.value
    e._safe(e.run_many, 1)
    assert e.message.value == ""
