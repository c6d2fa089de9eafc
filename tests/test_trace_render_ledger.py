"""Issue 25's ledger for traces, steppers and drawings: one row per case, each saying what it expects.

* **Traces of non-programs** (``trace.record`` in both styles, ``Stepper``, ``SideBySide``): a number, None, text, a
  class, a builtin, a lambda with the wrong parameters, a generator or async function, a program that raises, that
  returns nothing or a non-tensor or the other engine's tensor, inputs that are no dict or no numbers. Each is a
  clear refusal: the course message (checked by its id, ``message_of``), the same in both styles, and the widget
  still builds and steps. Beside them, the kin that are programs get the right value (compared with numpy).
* **French numbers in the drawings**: labels, constant boxes and the step's words write a decimal comma in French,
  English is unchanged, and a language switch never reuses the other language's labels.
* **Build linear in the program's length**: counted work (states computed, labels planned), never seconds; the
  room reserved from each node's own states is exactly the room the step-by-step states reserved.
"""

from __future__ import annotations

import html
import math
import re
from typing import Any

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import expr, graph, programs, render, trace
from course_lib import static as st
from course_lib.i18n import message_of, set_language
from course_lib.render import plan
from course_lib.static import SymbolicBoolError

W = pytest.importorskip("ipywidgets")

from course_lib.widgets import SideBySide, Stepper, side_by_side, stepper  # noqa: E402 - after the skip
from course_lib.widgets.base import said_ids  # noqa: E402


# ---------------------------------------------------------------------------------------------------- programs
class Program:
    """A class passed where a program goes."""

    def __init__(self, ops: Any, x: Any) -> None:
        self.y = ops.sin(x)


def generator(ops: Any, x: Any) -> Any:
    yield ops.sin(x)


async def coroutine(ops: Any, x: Any) -> Any:
    return ops.sin(x)


def raises_name_error(ops: Any, x: Any) -> Any:
    y = ops.sin(x)
    return y + undefined_name  # noqa: F821 - the NameError is the case


def divides_by_zero(ops: Any, x: Any) -> Any:
    return ops.sin(x) * (1 / 0)


def returns_nothing(ops: Any, x: Any) -> Any:
    ops.sin(x)


def returns_text(ops: Any, x: Any) -> Any:
    return "sin(x)"


def returns_a_pair(ops: Any, x: Any) -> Any:
    return ops.sin(x), ops.cos(x)


def returns_a_list(ops: Any, x: Any) -> Any:
    return [ops.sin(x)]


def returns_the_other_engine(ops: Any, x: Any) -> Any:
    return dy.Tensor(1.0) if ops is st else st.constant(1.0)


def returns_a_torch_tensor(ops: Any, x: Any) -> Any:
    torch = pytest.importorskip("torch")
    return torch.tensor(1.0)


def mixes_the_engines(ops: Any, x: Any) -> Any:
    return ops.sin(x) + (dy.Tensor(1.0) if ops is st else st.constant(1.0))


# (case, program, inputs, exception type, message id) — refused the same way in both styles
REFUSED: list[tuple[str, Any, Any, type, Any]] = [
    ("a number", 3.0, {}, TypeError, trace.NOT_A_PROGRAM),
    ("None", None, {}, TypeError, trace.NOT_A_PROGRAM),
    ("text", "sin(x)", {"x": 1.0}, TypeError, trace.NOT_A_PROGRAM),
    ("a list", [programs.affine_sin], {}, TypeError, trace.NOT_A_PROGRAM),
    ("a builtin", math.sin, {}, TypeError, trace.NOT_A_PROGRAM),
    ("print", print, {}, TypeError, trace.NOT_A_PROGRAM),
    ("a class", Program, {"x": 1.0}, TypeError, trace.A_CLASS),
    ("a builtin class", int, {}, TypeError, trace.A_CLASS),
    ("a ufunc", np.sin, {}, TypeError, trace.NO_SIGNATURE),
    ("lambda without parameters", lambda: 1.0, {}, TypeError, trace.BAD_SIGNATURE),
    ("ops keyword-only", lambda *, ops, x: x, {"x": 1.0}, TypeError, trace.BAD_SIGNATURE),
    ("input positional-only", lambda ops, x, /: x, {"x": 1.0}, TypeError, trace.BAD_SIGNATURE),
    ("lambda x, input named x", lambda x: x * 2, {"x": 1.0}, ValueError, trace.FIRST_IS_OPS),
    ("lambda x, no inputs", lambda x: x * 2, {}, TypeError, trace.OPS_AS_VALUE),
    ("generator function", generator, {"x": 1.0}, TypeError, trace.GENERATOR),
    ("async function", coroutine, {"x": 1.0}, TypeError, trace.COROUTINE),
    ("raises NameError", raises_name_error, {"x": 1.0}, NameError, trace.PROGRAM_RAISED),
    ("raises ZeroDivisionError", divides_by_zero, {"x": 1.0}, ZeroDivisionError, trace.PROGRAM_RAISED),
    ("returns nothing", returns_nothing, {"x": 1.0}, TypeError, trace.RETURNED_NOTHING),
    ("returns text", returns_text, {"x": 1.0}, TypeError, trace.NOT_A_RESULT),
    ("returns a pair", returns_a_pair, {"x": 1.0}, TypeError, trace.NOT_A_RESULT),
    ("returns a list", returns_a_list, {"x": 1.0}, TypeError, trace.NOT_A_RESULT),
    ("returns the other engine's tensor", returns_the_other_engine, {"x": 1.0}, TypeError, trace.OTHER_ENGINE),
    ("returns a torch tensor", returns_a_torch_tensor, {"x": 1.0}, TypeError, trace.NOT_A_RESULT),
    ("returns a bool", lambda ops, x: True, {"x": 1.0}, TypeError, trace.NOT_A_RESULT),
    ("inputs a list", programs.affine_sin, [3.0, 2.0], TypeError, trace.INPUTS_NOT_A_DICT),
    ("inputs None", lambda ops, x: x, None, TypeError, trace.INPUTS_NOT_A_DICT),
    ("an input too many", lambda ops, x: x, {"x": 1.0, "y": 2.0}, ValueError, trace.NOT_AN_INPUT),
    ("an input missing", programs.affine_sin, {"x": 1.0}, ValueError, trace.NO_VALUE_GIVEN),
    ("input None", lambda ops, x: x, {"x": None}, TypeError, trace.BAD_INPUT_VALUE),
    ("input text", lambda ops, x: x, {"x": "3"}, TypeError, trace.BAD_INPUT_VALUE),
    ("input a bool", lambda ops, x: x, {"x": True}, TypeError, trace.BAD_INPUT_VALUE),
    ("input past float", lambda ops, x: x, {"x": 10**400}, TypeError, trace.BAD_INPUT_VALUE),
    ("input ragged", lambda ops, x: x, {"x": [1.0, [2.0]]}, TypeError, trace.BAD_INPUT_VALUE),
    ("input a dict", lambda ops, x: x, {"x": {"a": 1}}, TypeError, trace.BAD_INPUT_VALUE),
    ("unknown style", programs.affine_sin, {"x": 1.0, "w": 2.0}, ValueError, trace.UNKNOWN_STYLE),
]


@pytest.mark.parametrize(("case", "program", "inputs", "error", "msgid"), REFUSED, ids=[r[0] for r in REFUSED])
def test_record_refuses_what_is_not_a_program_the_same_way_in_both_styles(case, program, inputs, error, msgid):
    said = []
    for style in (("sideways", "Define-By-Run") if msgid is trace.UNKNOWN_STYLE else trace.STYLES):
        with pytest.raises(error) as info:
            trace.record(program, style, inputs)
        said.append(message_of(info.value))
        assert said[-1].msgid is msgid, (case, style, str(info.value))
    if not {"value", "style", "engine"} & set(said[0].values):  # a value's repr and a style differ by style
        assert said[0] == said[1]  # both styles say the same thing


def test_an_error_inside_the_program_names_its_line_and_keeps_its_type_and_traceback():
    with pytest.raises(NameError) as info:
        trace.record(raises_name_error, "define-by-run", {"x": 1.0})
    said = message_of(info.value)
    assert said.values["line"] == 3 and said.values["name"] == "raises_name_error"  # `return y + undefined_name`
    assert "undefined_name" in said.values["text"] and said in info.value.__notes__  # shown under the traceback
    assert any(f.name == "raises_name_error" for f in __import__("traceback").extract_tb(info.value.__traceback__))


def test_a_course_error_raised_inside_the_program_passes_unchanged():
    """The define-then-run ``if`` is a lesson: its own message, not wrapped in another one."""
    with pytest.raises(SymbolicBoolError) as info:
        trace.record(programs.branch_with_python_if, "define-then-run", {"x": 1.0})
    assert not getattr(info.value, "__notes__", None) and "st.cond" in str(info.value)


def test_mixing_the_engines_inside_a_program_is_the_engines_refusal():
    for style in trace.STYLES:
        with pytest.raises(TypeError) as info:
            trace.record(mixes_the_engines, style, {"x": 1.0})
        assert "cannot mix the two styles" in str(message_of(info.value))


# (case, program, inputs, the value numpy gives) — programs after all: the right value, both styles
RIGHT: list[tuple[str, Any, dict[str, Any], float]] = [
    ("returns a plain number", lambda ops, x: 3.0, {"x": 1.0}, 3.0),
    ("returns a numpy number", lambda ops, x: np.float32(2.5), {"x": 1.0}, 2.5),
    ("no inputs", lambda ops: ops.sin(ops.constant(1.0)) if hasattr(ops, "constant") else ops.sin(dy.Tensor(1.0)),
     {}, np.sin(1.0)),
    ("input past int64", lambda ops, x: x * 2.0, {"x": 10**20}, 2e20),
    ("input a numpy int", lambda ops, x: x + 1.0, {"x": np.int64(4)}, 5.0),
    ("input nan", lambda ops, x: x * 0.0, {"x": float("nan")}, float("nan")),
    ("a typed expression", expr.parse("sin(x) * w"), {"x": 0.5, "w": 3.0}, 3.0 * np.sin(0.5)),
    ("a bound method", type("M", (), {"f": lambda self, ops, x: ops.exp(x)})().f, {"x": 0.5}, np.exp(0.5)),
    ("a callable object", type("C", (), {"__call__": lambda self, ops, x: ops.tanh(x)})(), {"x": 0.5}, np.tanh(0.5)),
    ("an input with a default", lambda ops, x, w=2.0: x * w, {"x": 1.5, "w": 2.0}, 3.0),
    ("the course's example", programs.affine_sin, {"x": 3.0, "w": 2.0}, np.sin(7.0)),
]


@pytest.mark.parametrize(("case", "program", "inputs", "want"), RIGHT, ids=[r[0] for r in RIGHT])
def test_what_is_a_program_gets_the_right_value_in_both_styles(case, program, inputs, want):
    for style in trace.STYLES:
        tr = trace.record(program, style, inputs)
        np.testing.assert_allclose(float(tr.output_value()), want, rtol=1e-6, err_msg=f"{case} {style}")
        assert len(tr) > 0  # a step to show, the constant result included


# ---------------------------------------------------------------------------------------------------- widgets
def text(widget: Any) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget.message.value))


STEPPER_GIVEN: list[tuple[str, Any]] = [
    ("None", None), ("a number", 3), ("a program", programs.affine_sin), ("text", "trace"),
    ("an expression", expr.parse("sin(x)")), ("a list of traces", []),
]


@pytest.mark.parametrize(("case", "given"), STEPPER_GIVEN, ids=[r[0] for r in STEPPER_GIVEN])
def test_a_stepper_given_no_trace_says_so_and_names_what_it_got(case, given):
    s = Stepper(given)
    assert said_ids(s) == [stepper.NOT_A_TRACE] and type(given).__name__ in text(s)
    s.go(2)  # harmless
    assert s.step == 0


SIDE_REFUSED: list[tuple[str, Any, Any]] = [
    ("a class", Program, trace.A_CLASS), ("a builtin", math.sin, trace.NOT_A_PROGRAM),
    ("a generator function", generator, trace.GENERATOR), ("an async function", coroutine, trace.COROUTINE),
    ("a lambda without parameters", lambda: 1.0, trace.BAD_SIGNATURE), ("a ufunc", np.sin, trace.NO_SIGNATURE),
    ("text", "sin(x)", side_by_side.NOT_A_PROGRAM), ("None", None, side_by_side.NOT_A_PROGRAM),
]


@pytest.mark.parametrize(("case", "program", "msgid"), SIDE_REFUSED, ids=[r[0] for r in SIDE_REFUSED])
def test_side_by_side_refuses_a_non_program_once_before_recording(case, program, msgid):
    w = SideBySide(program)
    assert said_ids(w) == [msgid] and w.traces == {} and w.failures == {}
    w.go(1)  # harmless: no clock
    assert w.step == 0


SIDE_FAILS: list[tuple[str, Any, Any, Any]] = [
    ("returns nothing", returns_nothing, None, trace.RETURNED_NOTHING),
    ("returns text", returns_text, None, trace.NOT_A_RESULT),
    ("returns the other engine's tensor", returns_the_other_engine, None, trace.OTHER_ENGINE),
    ("raises ZeroDivisionError", divides_by_zero, None, trace.PROGRAM_RAISED),
    ("lambda x", lambda x: x * 2, None, trace.OPS_AS_VALUE),
    ("inputs a list", programs.affine_sin, [3.0, 2.0], trace.INPUTS_NOT_A_DICT),
    ("input None", programs.affine_sin, {"x": None, "w": 1.0}, trace.BAD_INPUT_VALUE),
    ("input text", programs.affine_sin, {"x": "abc", "w": 1.0}, trace.BAD_INPUT_VALUE),
    ("an input too many", programs.affine_sin, {"x": 1.0, "w": 1.0, "b": 0.0}, trace.NOT_AN_INPUT),
]


@pytest.mark.parametrize(("case", "program", "inputs", "msgid"), SIDE_FAILS, ids=[r[0] for r in SIDE_FAILS])
def test_side_by_side_says_in_course_words_why_a_program_could_not_be_recorded(case, program, inputs, msgid):
    w = SideBySide(program, inputs)
    assert list(w.failures) == list(trace.STYLES)
    assert all(message_of(e).msgid is msgid for e in w.failures.values())
    shown = text(w)
    for e in w.failures.values():
        assert str(message_of(e)) in shown  # the course's words, in the box
    assert "Traceback" not in shown and "File \"" not in shown
    w.go(3)  # still a widget: the clock has no steps, the box says why
    assert w.step == 0


NOTED = [  # (case, program, inputs, backward, noted?): backward asked of an output that is not one number is said
    ("a vector output", lambda ops, x: ops.sin(x), {"x": [1.0, 2.0]}, True, True),
    ("a matrix output", lambda ops, x: x * 2.0, {"x": [[1.0], [2.0]]}, True, True),
    ("a vector output, backward=False", lambda ops, x: ops.sin(x), {"x": [1.0, 2.0]}, False, False),
    ("its sum", lambda ops, x: ops.sum(ops.sin(x)), {"x": [1.0, 2.0]}, True, False),
    ("a scalar output", lambda ops, x: ops.sin(x), {"x": 1.0}, True, False),
]


@pytest.mark.parametrize(("case", "program", "inputs", "backward", "noted"), NOTED, ids=[r[0] for r in NOTED])
def test_a_backward_that_cannot_start_is_said_not_skipped_silently(case, program, inputs, backward, noted):
    for style in trace.STYLES:
        t = trace.record(program, style, inputs, backward=backward)
        assert (getattr(t.note, "msgid", None) == trace.NO_BACKWARD) if noted else t.note == ""
        assert not any(e.phase == "backward" for e in t.events) or not noted
        assert said_ids(Stepper(t)) == ([trace.NO_BACKWARD] if noted else [])
    w = SideBySide(program, inputs, backward=backward)
    assert said_ids(w) == ([trace.NO_BACKWARD] if noted else [])  # once, though both traces carry it
    w.go(2)
    w.go(0)
    assert said_ids(w) == ([trace.NO_BACKWARD] if noted else [])  # given back after a step note


def test_side_by_side_of_a_constant_program_steps_both_ways():
    w = SideBySide(lambda ops, x: 3.0, {"x": 1.0})
    assert not w.failures and w.steps >= 1
    w.go(w.steps)
    assert w.step == w.steps


# ---------------------------------------------------------------------------------------------------- French numbers
def visible(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def test_graph_labels_write_a_decimal_comma_in_french_and_a_point_in_english():
    tr = trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})
    english = render.Frames(tr).svg(len(tr))
    set_language("fr")
    french = render.Frames(tr).svg(len(tr))
    assert "= 0.657" in english and "= 0,657" not in english
    assert "= 0,657" in french and "= 0.657" not in french
    assert "grad = 1,508" in visible(french) or "= 1,508" in visible(french)
    set_language("en")
    assert render.Frames(tr).svg(len(tr)) == english  # back in English: the same picture, nothing French reused


def test_a_constant_box_and_a_small_array_say_their_numbers_in_french():
    g = trace.record(lambda ops, x: ops.sin(x * 0.25), "define-then-run", {"x": 1.0}, backward=False).graph
    assert "✓ 0.25<" in render.to_svg(g)
    set_language("fr")
    assert "✓ 0,25<" in render.to_svg(g) and "0.25<" not in render.to_svg(g)
    assert graph.value_text([0.5, 1.25]) == "[0,5 ; 1,25]" and graph.value_text(np.zeros((2, 3))) == "[2x3]"
    assert plan.fmt(np.float64(-0.58514)) == "-0,5851" and plan.fmt(1234.5) == "1\u202f234"


@pytest.mark.parametrize("style", trace.STYLES)
def test_the_steps_words_write_french_numbers_and_keep_the_english_text(style):
    tr = trace.record(programs.affine_sin, style, {"x": 3.0, "w": 2.0})
    set_language("fr")
    s = Stepper(tr)
    words = visible(s.pane.parts(len(tr))[0])
    last = tr.events[-1]
    assert re.search(r"[=→] -?\d+,\d", words), words  # the last value: "dsin/dw = 2,262", "→ 2,262"
    assert "." not in re.sub(r"[a-z_]+\.[a-z]", "", last.said().split("=")[-1])
    assert re.search(r"\d\.\d", last.text)  # Event.text stays English (tests and logs read it)
    run = next(e for e in tr.events if e.kind == "run" and e.value is not None and float(e.value) % 1)
    assert "," in run.said().split("→")[-1] and "." in run.text.split("→")[-1]


def test_a_language_switch_lays_out_anew_where_the_labels_differ():
    """The layout is cached per DOT text; the reserved labels hold the numbers, so French gets its own DOT."""
    tr = trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})
    english = render.Frames(tr).layout.dot
    set_language("fr")
    french = render.Frames(tr).layout.dot
    assert english != french and "0,7539" in french and "0.7539" in english


# ---------------------------------------------------------------------------------------------------- linear build
def counted_build(monkeypatch: pytest.MonkeyPatch, n: int, style: str, **options: Any) -> dict[str, int]:
    """Build a Stepper of an ``n``-op loop, counting the states computed and the boxes labelled."""
    tr = trace.record(programs.loop(n), style, {"x": 0.5, "w": 0.9})
    counts = {"states": 0, "labelled": 0, "steps": len(tr)}
    state, item_states = trace.Trace.state, plan.item_states

    def counting_state(self: trace.Trace, step: int) -> Any:
        counts["states"] += 1
        return state(self, step)

    def counting_items(p: plan.Plan, *args: Any) -> Any:
        counts["labelled"] += len(p.items)
        return item_states(p, *args)

    monkeypatch.setattr(trace.Trace, "state", counting_state)
    for module in (plan, render.layout):
        monkeypatch.setattr(module, "item_states", counting_items)
    Stepper(tr, **options)
    monkeypatch.undo()
    return counts


@pytest.mark.parametrize("style", trace.STYLES)
def test_building_a_stepper_does_work_linear_in_the_programs_length(monkeypatch, style):
    """Before: one state per step (O(steps · nodes)) and every step's labels planned to reserve room. Now the
    work per build does not grow with the steps once the frames no longer fit the page."""
    small, big = (counted_build(monkeypatch, n, style) for n in (200, 800))
    assert big["steps"] > 3 * small["steps"]
    assert big["states"] == small["states"] <= 4  # the frames drawn at build: the first, the last
    # labels planned: a few passes over the (capped) boxes, not one per step
    assert big["labelled"] <= 12 * render.DEFAULT_MAX_NODES


def test_frames_that_fit_the_page_are_each_computed_once():
    tr = trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0})
    calls = []
    state = trace.Trace.state
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(trace.Trace, "state", lambda self, k: calls.append(k) or state(self, k))
        s = Stepper(tr)
    assert s.pane.in_browser and sorted(set(calls)) == list(range(1, len(tr) + 1))  # step 0: the faded ghost
    assert len(calls) <= len(tr) + 3  # each frame once (the last twice: it sizes the page)


PROGRAMS = [programs.affine_sin, programs.neuron, programs.reuse, programs.branch_with_cond, programs.rnn_step_chain,
            expr.parse("sin(x*w) + x"), programs.loop(60)]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: getattr(p, "__name__", None) or p.text)
@pytest.mark.parametrize("max_nodes", [300, 20])
def test_the_room_from_each_nodes_own_states_is_the_room_of_every_step(program, max_nodes):
    """The same DOT, so the same picture, as reserving room for all ``len + 1`` step states (the old way)."""
    for style in trace.STYLES:
        tr = trace.record(program, style, {n: 0.7 for n in trace.input_names(program)})
        every_step = render.Layout(tr.graph, reserve=[tr.state(k) for k in range(len(tr) + 1)],
                                   grad_nodes=tr.grad_nodes, max_nodes=max_nodes)
        own = render.Layout(tr.graph, reserve=tr.distinct_states(), grad_nodes=tr.grad_nodes, max_nodes=max_nodes)
        assert own.dot == every_step.dot and own.labels == every_step.labels
