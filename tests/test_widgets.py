"""The widgets survive bad input: every case below ends with a clear message in the widget, never a traceback,
and the widget still works afterwards. Also: stepping is wired in the browser, reprs stay short."""

from __future__ import annotations

import ast
import html
import os
import re
import warnings

import pytest

from course_lib import expr, programs, render, trace
from course_lib import widgets as cw
from course_lib.graph import Graph
from course_lib.i18n import message_of, set_language
from course_lib.static import SymbolicBoolError
from course_lib.widgets import explorers, inputs, side_by_side, stepper, stepping
from course_lib.widgets.base import said_ids


@pytest.fixture(autouse=True)
def _no_numpy_warnings():
    """inf/nan must be shown in the widget, not printed as a RuntimeWarning under the cell."""
    render.set_theme("classroom")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


def problem(widget) -> str:
    """The inline message of a widget, as text."""
    return html.unescape(re.sub(r"<[^>]+>", "", widget.message.value))


@pytest.fixture(scope="module")
def by_run():
    return trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})


# ---------------------------------------------------------------------------------------------------- Stepper
def test_stepper_frames_are_switched_in_the_browser(by_run):
    s = cw.Stepper(by_run)
    c = s.controls
    assert c.slider.max == len(by_run) == c.play.max
    assert s.pane.in_browser
    assert len(s.pane.text.children) == len(s.pane.graph.children) == len(by_run) + 1
    linked = [(lk.source[0], lk.source[1], lk.target[0], lk.target[1]) for lk in c.links + s.pane.links]
    assert (c.play, "value", c.slider, "value") in linked
    assert (c.slider, "value", s.pane.text, "selected_index") in linked
    assert (c.slider, "value", s.pane.graph, "selected_index") in linked


def test_stepper_frame_shows_phase_event_and_the_highlighted_line(by_run):
    s = cw.Stepper(by_run)
    ev = by_run.events[2]
    frame = s.frame_html(3)
    assert "step 3 of 11" in frame and "RUN" in frame
    assert html.escape(ev.text) in frame
    highlighted = re.search(r"<div style=\"background[^\"]*\">▶\s+(\d+) ", frame)
    assert highlighted and int(highlighted.group(1)) == ev.line
    shown = re.sub(r'<svg.*</svg>|<span class="course-said" hidden="">.*?</span>', "", s.frame_html(0))
    assert "START" in s.frame_html(0) and "▶" not in shown.split("Play")[1]


def test_static_stepper_has_build_then_run_phases():
    s = cw.Stepper(trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0}))
    phases = [re.search(r"font-weight:bold\">(\w+)</span>", s.frame_html(k)).group(1) for k in range(len(s.trace) + 1)]
    assert phases[0] == "START" and phases[1] == "BUILD" and "RUN" in phases
    assert phases.index("RUN") > max(i for i, p in enumerate(phases) if p == "BUILD")


def test_short_text_repr_for_nbval(by_run):
    for w in (cw.Stepper(by_run), cw.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0}),
              cw.ExpressionExplorer("sin(x*w + 1)"), cw.ControlFlowExplorer(programs.branch_with_cond)):
        text = w._repr_mimebundle_()["text/plain"]
        assert len(text) < 110 and "<svg" not in text and "0x" not in text


# bad inputs, counted in the final note: each test id below is one kind
def test_bad_01_step_beyond_range(by_run):
    s = cw.Stepper(by_run)
    s.go(999)
    assert s.step == len(by_run) and "does not exist" in problem(s)
    s.go(-4)
    assert s.step == 0
    s.go(2)
    assert s.step == 2 and problem(s) == ""


def test_bad_02_step_that_is_not_a_number(by_run):
    s = cw.Stepper(by_run)
    s.go("three")
    assert said_ids(s) == [inputs.NOT_A_NUMBER] and s.step == 0
    s.go(float("nan"))
    assert said_ids(s) == [inputs.NOT_FINITE]


def test_bad_03_previous_at_the_start_and_next_at_the_end(by_run):
    s = cw.Stepper(by_run)
    s.controls.prev.click()
    assert s.step == 0
    s.go(len(by_run))
    s.controls.next.click()
    assert s.step == len(by_run)
    s.controls.prev.click()
    assert s.step == len(by_run) - 1


def test_bad_04_trace_with_zero_events():
    empty = trace.Trace("define-by-run", Graph(), [], [])
    s = cw.Stepper(empty)
    assert said_ids(s) == [stepper.NO_EVENTS] and s.controls.play.disabled
    assert "step 0 of 0" in s.frame_html(0)
    s.go(5)
    assert s.step == 0 and said_ids(s) == [stepping.NO_SUCH_STEP]
    s.go(0)
    assert said_ids(s) == [stepper.NO_EVENTS]  # what the box said before the step note


def test_bad_05_stepper_given_something_that_is_not_a_trace():
    s = cw.Stepper(42)
    assert said_ids(s) == [stepper.NOT_A_TRACE]
    s.go(3)  # harmless
    assert repr(s) == "Stepper(no trace, steps=0)"


def test_bad_06_huge_trace_steps_through_the_kernel(by_run):
    s = cw.Stepper(by_run, max_bytes=10)
    assert not s.pane.in_browser and said_ids(s) == [stepper.LARGE_TRACE]
    s.go(4)
    assert "step 4 of 11" in s.pane.text.value and 'class="node running"' in s.pane.graph.value


def test_bad_07_side_by_side_with_a_python_if_teaches_instead_of_crashing():
    w = cw.SideBySide(programs.branch_with_python_if, {"x": 1.0})
    assert list(w.failures) == ["define-then-run"] and isinstance(w.failures["define-then-run"], SymbolicBoolError)
    assert "define-then-run: SymbolicBoolError: " in problem(w)
    assert list(w.panes) == ["define-by-run"]  # the dynamic side still steps
    w.go(3)
    assert w.step == 3 and "define-then-run: SymbolicBoolError: " in problem(w)  # the lesson's problem stays
    w.go(99)  # a step that does not exist is said, in place of the problem ...
    assert said_ids(w) == [stepping.NO_SUCH_STEP] and w.step == len(w.traces["define-by-run"])
    w.controls.prev.click()  # ... and once the clock is on a real step, the box says the problem again
    assert "define-then-run: SymbolicBoolError: " in problem(w) and w.step == len(w.traces["define-by-run"]) - 1
    w.go("three")
    assert said_ids(w) == [inputs.NOT_A_NUMBER]


def test_bad_08_side_by_side_missing_inputs_and_not_a_program():
    w = cw.SideBySide(programs.affine_sin, {"x": 1.0})
    missing = [message_of(e) for e in w.failures.values()]
    assert [m.msgid for m in missing] == [trace.NO_VALUE_GIVEN] * 2 and all(m.values["missing"] == "w" for m in missing)
    assert said_ids(cw.SideBySide("sin(x)")) == [side_by_side.NOT_A_PROGRAM]


def test_bad_09_side_by_side_program_that_raises():
    def broken(ops, x):
        return x / 0.0 + undefined_name  # noqa: F821 - the NameError is the point

    w = cw.SideBySide(broken, {"x": 1.0})
    assert [type(e) for e in w.failures.values()] == [NameError, NameError] and problem(w).count("NameError") == 2


def test_side_by_side_shares_one_clock_and_pads_the_shorter_trace():
    w = cw.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    s, d = w.panes["define-then-run"], w.panes["define-by-run"]
    assert len(s.graph.children) == len(d.graph.children) == w.controls.slider.max + 1
    assert len(s.text.children) == len(d.text.children) == w.controls.slider.max + 1
    assert d.graph.children[-1] is d.graph.children[len(d.trace)]  # the last frame is reused, not copied
    linked = {(lk.target[0]) for p in (s, d) for lk in p.links}
    assert linked == {s.text, s.graph, d.text, d.graph}


# --------------------------------------------------------------------------------------------------- ExpressionExplorer
@pytest.fixture
def ex():
    return cw.ExpressionExplorer("sin(x*w + 1)", values={"x": 3.0, "w": 2.0})


def works(e, text="x*w", expect="6") -> bool:
    """After an error the widget keeps working: a good expression draws and computes again."""
    e.set_text(text)
    e.sliders["x"].value, e.sliders["w"].value = 3.0, 2.0
    return problem(e) == "" and expect in e.results.value and "<svg" in e.dynamic_view.value


def test_explorer_shows_both_graphs_values_and_gradients(ex):
    assert "<svg" in ex.static_view.value and "<svg" in ex.dynamic_view.value
    assert ex.results.value.count("0.657") == 2  # f = sin(7) from both engines
    assert "∂f/∂x" in ex.results.value and ex.results.value.count("1.508") == 2
    ex.sliders["x"].value = 0.0
    assert ex.results.value.count("0.8415") == 2  # sin(1)


def test_explorer_layout_stays_put_when_a_slider_moves(ex):
    before = render.node_boxes(ex.static_view.value)
    ex.sliders["w"].value = -4.3
    after = render.node_boxes(ex.static_view.value)
    assert before == after and len(before) > 5


@pytest.mark.parametrize(("text", "msgid", "values"), [
    ("sin(x", expr.NOT_VALID, {"detail": "'(' was never closed"}),  # 10 malformed
    ("foo(x) + 1", expr.UNKNOWN_FUNCTION, {"name": "foo"}),  # 11
    ("x.__class__", expr.REFUSED[ast.Attribute], {}),  # 12
    ("(lambda: 1)()", expr.CALL_BY_NAME, {}),  # 13
    ("", expr.EMPTY, {}),  # 14
    ("☃ + ÿ\x00", expr.NOT_VALID, {}),  # 15 unicode garbage (a NUL byte too)
    ("sin + x", expr.IS_A_FUNCTION, {"name": "sin"}),  # 16 a variable named like an op
    (" + ".join(f"v{k}" for k in range(50)), expr.TOO_MANY_VARIABLES, {"count": 50, "limit": 12}),  # 17
    ("sin(" * 130 + "x" + ")" * 130, expr.TOO_LONG, {"limit": 500}),  # 18 too long (and deep)
    ("x if w else 1", expr.REFUSED[ast.IfExp], {}),  # 19
    ("__import__('os').system('touch /tmp/pwned_by_widget')", expr.CALL_BY_NAME, {}),  # 20
    ("ops + x", expr.RESERVED_NAME, {"name": "ops"}),  # 24 the engines call program(ops, **values)
])
def test_bad_expressions_are_explained_inline_and_the_widget_keeps_working(ex, text, msgid, values):
    before = ex.static_view.value
    ex.set_text(text)
    assert problem(ex).startswith("Problem:") and said_ids(ex) == [msgid], problem(ex)
    assert values.items() <= ex.shown[0].values.items()
    assert ex.static_view.value == before  # the last good graphs stay
    assert not os.path.exists("/tmp/pwned_by_widget")
    assert works(ex)


def test_a_bad_expression_is_said_in_french_and_is_the_same_message(ex):
    set_language("fr")
    fr = cw.ExpressionExplorer("sin(x*w + 1)", values={"x": 3.0, "w": 2.0})
    fr.set_text("foo(x) + 1")
    assert said_ids(fr) == [expr.UNKNOWN_FUNCTION] and fr.shown[0].values == {"name": "foo"}
    assert problem(fr).startswith("Problème\u00a0:") and "fonction inconnue 'foo'" in problem(fr), problem(fr)
    assert "unknown function" not in problem(fr) and "Hint" not in problem(fr)
    assert works(fr)


def test_bad_21_huge_exponent_shows_inf(ex):
    ex.set_text("x ** 1000")
    ex.sliders["x"].value = 5.0
    assert "<td style='padding:2px 12px'>inf</td>" in ex.results.value and "not finite numbers" in ex.results.value
    assert works(ex)


def test_bad_22_division_by_zero_shows_inf_and_nan(ex):
    ex.set_text("1 / (x - x)")  # f = 1/0 = inf; f' = -(x-x)' / (x-x)² = -0/0 = nan, in both engines
    assert ex.results.value.count("<td style='padding:2px 12px'>inf</td>") == 2
    assert ex.results.value.count("<td style='padding:2px 12px'>nan</td>") == 2
    assert "are not finite numbers" in ex.results.value
    assert works(ex)


def test_bad_23_constant_overflow_and_log_of_negative(ex):
    ex.set_text("2 ** 10000 + x")  # overflows while the program runs: inf, and its derivative is still 1
    assert ex.results.value.count("<td style='padding:2px 12px'>inf</td>") == 2 and problem(ex) == ""
    ex.set_text("log(x)")
    ex.sliders["x"].value = -1.0
    assert "nan" in ex.results.value
    assert works(ex)


def test_bad_25_matmul_of_numbers_is_explained_per_pane(ex):
    ex.set_text("x @ w")  # parses; both engines refuse @ on two numbers, each in its own pane
    for view in (ex.static_view, ex.dynamic_view):
        assert "Problem:</b> ShapeError: matmul needs vectors or matrices" in view.value
    assert works(ex)


def test_bad_26_sliders_to_extremes_and_nan(ex):
    ex.set_text("exp(x * w)")
    ex.sliders["x"].value = 1e308  # a slider clips to its range
    ex.sliders["w"].value = -1e308
    assert ex.sliders["x"].value == ex.sliders["x"].max
    ex.sliders["w"].value = float("nan")
    assert "nan" in ex.results.value
    assert works(ex)


def test_bad_27_text_that_is_not_text(ex):
    ex.set_text(42)
    assert said_ids(ex) == [explorers.NOT_TEXT]
    assert works(ex)


def test_bad_28_a_long_sum_is_many_nodes_but_still_drawn(ex):
    ex.set_text("+".join(["x"] * 150))
    assert problem(ex) == "" and "<svg" in ex.dynamic_view.value and "150" in ex.results.value


def test_bad_31_a_very_deep_expression_is_drawn_capped_with_a_note(ex):
    ex.set_text("-" * 450 + "x")  # 450 nested negations: 900+ nodes with the gradients
    assert problem(ex) == ""
    assert "Showing the first" in ex.static_view.value and "<svg" in ex.dynamic_view.value
    assert works(ex)


def test_bad_29_callback_errors_are_shown_not_swallowed(ex, monkeypatch):
    def explode(*a, **k):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(trace, "record", explode)
    ex.sliders["x"].value = 1.5
    assert "engine exploded" in ex.static_view.value and "engine exploded" in ex.dynamic_view.value
    monkeypatch.undo()
    assert works(ex)


def test_sliders_follow_the_variables_and_keep_their_values(ex):
    ex.sliders["x"].value = 2.5
    ex.set_text("x + y")
    assert list(ex.sliders) == ["x", "y"] and ex.sliders["x"].value == 2.5
    ex.set_text("2 + 3")  # no variable at all
    assert ex.sliders == {} and "5" in ex.results.value


# -------------------------------------------------------------------------------------------------- ControlFlowExplorer
def test_control_flow_static_graph_fixed_dynamic_graph_changes():
    c = cw.ControlFlowExplorer(programs.branch_with_cond, value=1.0)
    static_before = render.node_boxes(c.static_view.value)
    dyn_before = c.dynamic_view.value
    c.set_input(x=-2.0)
    assert render.node_boxes(c.static_view.value) == static_before  # same graph, same places
    assert c.dynamic_view.value != dyn_before
    assert re.search(r"recorded <b>(\d+)</b>", c.summary.value)


def test_loop_program_grows_dynamic_graph_and_static_side_explains():
    c = cw.ControlFlowExplorer(programs.repeat_until_large, low=0.2, high=12.0, value=0.5)
    n_small = int(re.search(r"recorded <b>(\d+)</b>", c.summary.value).group(1))
    c.set_input(x=11.0)
    n_big = int(re.search(r"recorded <b>(\d+)</b>", c.summary.value).group(1))
    assert n_small > n_big  # 0.5 needs several rounds, 11 none
    assert "Problem" in c.static_view.value and "could not build" in c.summary.value


def test_bad_30_control_flow_bad_inputs():
    c = cw.ControlFlowExplorer(programs.branch_with_cond)
    c.set_input(x=1e9)
    assert c.sliders["x"].value == c.sliders["x"].max
    c.set_input(y=1.0)
    assert said_ids(c) == [explorers.NO_SUCH_INPUT] and c.shown[0].values["input"] == "'y'"
    c.set_input(x="abc")
    assert said_ids(c) == [inputs.NOT_A_NUMBER_INPUT]
    assert said_ids(cw.ControlFlowExplorer(5)) == [explorers.NOT_A_PROGRAM]
    c.set_input(x=0.5)
    assert "<svg" in c.dynamic_view.value


def font_sizes(markup: str) -> list[int]:
    """Every CSS font size (px) in some HTML, the SVG left out (its text follows the theme's own font size)."""
    return [int(px) for px in re.findall(r"font-size:(\d+)px", re.sub(r"<svg.*?</svg>", "", markup, flags=re.DOTALL))]


def test_presenter_theme_makes_the_widgets_larger(by_run):
    small = font_sizes(cw.Stepper(by_run).frame_html(2))
    render.set_theme("presenter")
    try:
        big = font_sizes(cw.Stepper(by_run).frame_html(2))
    finally:
        render.set_theme("classroom")
    assert len(big) == len(small) > 0 and all(b > s for b, s in zip(big, small, strict=True))


def test_frames_stay_small(by_run):
    s = cw.Stepper(by_run)
    total = sum(len(h.value) for stack in (s.pane.text, s.pane.graph) for h in stack.children)
    assert total < 150_000, total  # 12 frames of an 8-node graph; notebooks must stay under ~2 MB
    assert "<!--" not in s.frame_html(5)


# ---------------------------------------------------------------------------------------------------- the widget base
def widget_classes() -> list[type]:
    """Every widget class the course defines (anything deriving from an ipywidgets DOM widget), lessons included."""
    import importlib
    import inspect
    import pkgutil

    import ipywidgets

    import course_lib

    found = {}
    for info in pkgutil.walk_packages(course_lib.__path__, "course_lib."):
        if ".adapters" in info.name:
            continue  # they wrap TensorFlow and PyTorch, and define no widget
        module = importlib.import_module(info.name)
        for _name, obj in inspect.getmembers(module, inspect.isclass):
            if obj.__module__ == info.name and issubclass(obj, ipywidgets.DOMWidget):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)]


def test_every_widget_of_the_course_derives_from_the_base():
    classes = widget_classes()
    names = {c.__name__ for c in classes}
    assert {"Stepper", "SideBySide", "ExpressionExplorer", "ControlFlowExplorer", "CompileExplorer", "PaddingExplorer",
            "SessionExplorer", "TreeExplorer", "BatchingExplorer", "UnrollExplorer"} <= names
    assert [c.__name__ for c in classes if not issubclass(c, cw.CourseWidget)] == []


def test_no_widget_hard_codes_a_font_size():
    """Every size comes from the theme (widgets.base.Sizes), so the presenter theme enlarges all of them."""
    import pathlib

    root = pathlib.Path(cw.__file__).parent
    files = sorted(root.glob("*.py")) + [root.parent / "lessons" / f"{name}.py" for name in
                                         ("compile_explorer", "padding_explorer", "session_explorer", "tree_widgets",
                                          "unroll")]
    literal = re.compile(r"font[-_]size[\"']?:\s*[\"']?\d")
    found = [f"{f.name}:{k}" for f in files for k, line in enumerate(f.read_text().splitlines(), 1)
             if literal.search(line) and not line.lstrip().startswith((">>>", "#"))]
    assert found == []


def test_message_box_says_its_kind_in_words_and_escapes_the_text():
    for kind, word in (("error", "Problem"), ("note", "Note"), ("ok", "OK")):
        box = cw.message_html("<script>x</script> & 1 < 2", kind)
        assert f"<b>{word}:</b> &lt;script&gt;x&lt;/script&gt; &amp; 1 &lt; 2</div>" in box
        assert 'role="status"' in box and "<script>" not in box
    with pytest.raises(ValueError, match="error, note, ok"):
        cw.message_html("x", "warning")


def test_a_callback_exception_shows_in_the_message_box_and_the_widget_goes_on(monkeypatch):
    c = cw.ControlFlowExplorer(programs.branch_with_cond)

    def broken(*_args, **_kwargs):
        raise RuntimeError("summary went wrong")

    monkeypatch.setattr(c, "_update", broken)
    c.sliders["x"].value = 0.5  # the slider's callback raises: shown, not swallowed
    assert problem(c) == "Problem: RuntimeError: summary went wrong"
    monkeypatch.undo()
    c.set_input(x=-1.0)
    assert "recorded <b>" in c.summary.value


def test_ipywidgets_is_reached_one_way():
    """widgets.base imports ipywidgets, once; every other module of course_lib takes it from there
    (``from course_lib.widgets.base import ipywidgets as W``), so a missing ipywidgets is handled in one place."""
    import pathlib

    root = pathlib.Path(cw.__file__).parent.parent
    direct = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            if any(n.split(".")[0] == "ipywidgets" for n in names):
                direct.add(path.relative_to(root).as_posix())
    assert direct == {"widgets/base.py"}


def test_without_ipywidgets_importing_works_and_creating_a_widget_says_what_to_install(monkeypatch, by_run):
    from course_lib.widgets import base

    monkeypatch.setattr(base, "ipywidgets", None)
    with pytest.raises(ImportError, match="pip install 'ipywidgets>=8'"):
        cw.Stepper(by_run)
