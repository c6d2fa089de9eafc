"""course_lib.lessons.compile_explorer: the widget's counts follow what the engine really did; timings never touch
them."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("ipywidgets")

from course_lib import render
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
    assert "2 scopes drawn as one box each: ops 1-8, ops 9-16." in e.picture.value


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


def test_a_failing_button_shows_its_error_and_the_widget_goes_on(monkeypatch) -> None:
    e = CompileExplorer(ops=2, timings=False)

    def broken() -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(e.chain, "add_node", broken)
    e.add_button.click()  # the callback raises: shown in the widget, not swallowed by JupyterLab
    assert "<b>Problem:</b> ZeroDivisionError: division by zero" in e.message.value
    monkeypatch.undo()
    e.run_button.click()
    assert e.message.value == "" and e.runs == 101


def font_sizes(markup: str) -> list[int]:
    return [int(px) for px in re.findall(r"font-size:(\d+)px", re.sub(r"<svg.*?</svg>", "", markup, flags=re.DOTALL))]


def test_the_presenter_theme_enlarges_every_word() -> None:
    small = CompileExplorer(ops=3, timings=False)
    render.set_theme("presenter")
    try:
        big = CompileExplorer(ops=3, timings=False)
    finally:
        render.set_theme("classroom")
    for part in ("stats", "source"):
        before, after = font_sizes(getattr(small, part).value), font_sizes(getattr(big, part).value)
        assert len(after) == len(before) > 0 and all(b > a for a, b in zip(before, after, strict=True)), part
    def px(widget):
        return int(widget.style.font_size.removesuffix("px"))

    assert px(big.add_button) > px(small.add_button)


def test_bad_arguments_say_which_message() -> None:
    from course_lib.lessons import compile_explorer
    from course_lib.widgets.base import said_ids

    e = CompileExplorer(ops=3, timings="no")
    assert said_ids(e) == [compile_explorer.TIMINGS_NOT_BOOL] and e.timings is True
    e.run_many(-5)
    assert said_ids(e) == [compile_explorer.RUN_MANY_BAD] and e.shown[0].values["k"] == "-5" and e.runs == 1
    e.run_many(5)
    assert e.runs == 6
