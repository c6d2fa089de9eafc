"""Issue 25's ledger for the widgets: one row per case tried, each saying what it expects.

A row is a right value (the number the widget now holds, compared with what a slider or Python gives) or a clear
refusal: a course message, checked by its message id (``said_ids``), never by its words. After each bad input the
row gives a good one and checks that the widget took it: the widget keeps working.

The cases: numbers past int64 (``10**20``, ``10**400``), NaN, inf, text, None, bools, numpy scalars and fractions,
given as widget arguments, as slider values from code, as feeds, as steps (``go``), as Play intervals; ``unfeed``
with odd names; the expression explorer's constant expressions and variables named like Python's own words; and
numbers in French text (a decimal comma).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from course_lib import expr, programs
from course_lib import trace as tr
from course_lib.graph import Graph
from course_lib.i18n import set_language
from course_lib.lessons import session_explorer as se
from course_lib.lessons.compile_explorer import RUN_MANY_BAD, CompileExplorer
from course_lib.lessons.padding_explorer import PaddingExplorer
from course_lib.lessons.session_explorer import SessionExplorer
from course_lib.lessons.tree_widgets import BatchingExplorer
from course_lib.widgets import explorers, inputs, stepping
from course_lib.widgets.base import said_ids
from course_lib.widgets.explorers import ControlFlowExplorer, ExpressionExplorer
from course_lib.widgets.side_by_side import SideBySide
from course_lib.widgets.stepper import Stepper

NAN, INF = float("nan"), float("inf")
HUGE, HUGER = 10**20, 10**400  # past int64; past a float


def _id(name: str, module: Any = inputs) -> str:
    """A message id by its constant's name (the string itself when the constant does not exist: the ledger was
    first run on the code before this change, to count what failed)."""
    found = getattr(module, name, name)
    return getattr(found, "msgid", found)


ABOVE, BELOW, NOT_A_NUMBER, NOT_FINITE, NOT_WHOLE = (_id(n) for n in ("ABOVE", "BELOW", "NOT_A_NUMBER", "NOT_FINITE",
                                                                     "NOT_WHOLE"))
TOO_LARGE, CLIPPED = _id("TOO_LARGE"), _id("CLIPPED")
NOT_A_NUMBER_INPUT, NOT_FINITE_INPUT = _id("NOT_A_NUMBER_INPUT"), _id("NOT_FINITE_INPUT")
NO_SUCH_STEP, OFF_STEP = _id("NO_SUCH_STEP", stepping), _id("OFF_STEP", stepping)


def words(widget: Any) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget.message.value))


@pytest.fixture(autouse=True)
def _english() -> Any:
    set_language("en")
    yield
    set_language("en")


# ------------------------------------------------------------------------------------- 1. the one reader
@dataclass(frozen=True)
class Read:
    """``read_number(value, "x", default, **kw)`` gives ``value`` (compared exactly, type included) and ``said``."""

    case: str
    value: Any
    kw: dict[str, Any]
    got: Any
    said: str | None  # None: no problem


R = {"low": -3, "high": 3}
READS = [
    Read("int past int64, above", HUGE, R, 3.0, ABOVE),
    Read("int past int64, below", -HUGE, R, -3.0, BELOW),
    Read("int past a float, above", HUGER, R, 3.0, ABOVE),
    Read("int past a float, below", -HUGER, R, -3.0, BELOW),
    Read("int past a float, no range", HUGER, {}, 1.0, TOO_LARGE),
    Read("int of 5000 digits (past what Python prints)", 10**5000, R, 3.0, ABOVE),
    Read("int past a float, whole, no range", HUGER, {"whole": True}, HUGER, None),
    Read("int past int64, whole, in range", HUGE, {"whole": True, "low": 0, "high": 10**21}, HUGE, None),
    Read("nan", NAN, R, 1.0, NOT_FINITE),
    Read("inf", INF, R, 1.0, NOT_FINITE),
    Read("-inf", -INF, R, 1.0, NOT_FINITE),
    Read("numpy nan", np.float32("nan"), R, 1.0, NOT_FINITE),
    Read("text of a number", "2", R, 1.0, NOT_A_NUMBER),
    Read("None", None, R, 1.0, NOT_A_NUMBER),
    Read("True", True, R, 1.0, NOT_A_NUMBER),
    Read("numpy True", np.True_, R, 1.0, NOT_A_NUMBER),
    Read("complex", 1 + 2j, R, 1.0, NOT_A_NUMBER),
    Read("a list", [1.0], R, 1.0, NOT_A_NUMBER),
    Read("numpy int64", np.int64(2), R, 2.0, None),
    Read("numpy uint8", np.uint8(2), R, 2.0, None),
    Read("numpy float32", np.float32(0.5), R, 0.5, None),
    Read("numpy int64 at its largest", np.int64(2**63 - 1), R, 3.0, ABOVE),
    Read("0-d numpy array", np.array(2.0), R, 2.0, None),
    Read("0-d numpy array of a bool", np.array(True), R, 1.0, NOT_A_NUMBER),
    Read("numpy array of one number", np.array([2.0]), R, 1.0, NOT_A_NUMBER),
    Read("fraction", Fraction(1, 2), R, 0.5, None),
    Read("decimal", Decimal("0.5"), R, 0.5, None),
    Read("decimal past a float", Decimal("1e400"), R, 3.0, ABOVE),
    Read("a fraction where a whole number is wanted", 2.5, {"whole": True, **R}, 2, NOT_WHOLE),
    Read("a negative fraction is rounded down", -2.5, {"whole": True, **R}, -3, NOT_WHOLE),
    Read("a whole float is a whole number", 2.0, {"whole": True, **R}, 2, None),
]


@pytest.mark.parametrize("row", READS, ids=[r.case for r in READS])
def test_the_one_number_reader(row: Read) -> None:
    got, problem = inputs.read_number(row.value, "x", 1.0, **row.kw)
    assert got == row.got and type(got) is type(row.got)
    assert (getattr(problem, "msgid", None) if problem else None) == row.said
    assert len(problem) < 300  # a number of 400 digits is not printed in full


RANGES = [  # (low, high) -> (low, high) used, the message
    ((-HUGE, HUGE), (-1e6, 1e6), BELOW),
    ((-HUGER, HUGER), (-1e6, 1e6), BELOW),
    ((-1e300, 1e300), (-1e6, 1e6), BELOW),
    ((np.int64(-2), np.float32(2)), (-2.0, 2.0), None),
    ((-100, 100), (-100.0, 100.0), None),
]


@pytest.mark.parametrize(("given", "used", "said"), RANGES, ids=[str(r[0]) for r in RANGES])
def test_a_slider_range_is_read_by_the_same_reader(given: Any, used: Any, said: str | None) -> None:
    lo, hi, problems = inputs.read_range(*given, (-3.0, 3.0))
    assert (lo, hi) == used
    assert [p.msgid for p in problems] == ([BELOW, ABOVE] if said else [])  # each end said


# ------------------------------------------------------------------------------------- 2. widget arguments
@dataclass(frozen=True)
class Arg:
    """``make(**kw)``: the widget is built, says ``said`` (a message id among its messages), holds ``holds``."""

    case: str
    make: Callable[..., Any]
    kw: dict[str, Any]
    said: str
    holds: Callable[[Any], bool]


def compile_explorer(**kw: Any) -> CompileExplorer:
    return CompileExplorer(**{"timings": False, **kw})


def slider(widget: Any, name: str = "x") -> float:
    return widget.sliders[name].value


ARGS = [
    Arg("session feeds 10**20", SessionExplorer, {"feeds": {"x": HUGE}}, _id("WIDEN", se),
        lambda w: w._feeds["x"][1].value == 3.0),
    Arg("session feeds -10**400", SessionExplorer, {"feeds": {"x": -HUGER}}, _id("WIDEN", se),
        lambda w: w._feeds["x"][1].value == -3.0),
    Arg("session fetch 10**400", SessionExplorer, {"fetch": HUGER}, _id("FETCH_NOT_A_NAME", se),
        lambda w: w.fetch.value == "z" and len(words(w)) < 300),
    Arg("session low 10**20", SessionExplorer, {"low": HUGE}, ABOVE, lambda w: (w.low, w.high) == (-3.0, 3.0)),
    Arg("session high -10**400", SessionExplorer, {"high": -HUGER}, BELOW, lambda w: (w.low, w.high) == (-3.0, 3.0)),
    Arg("padding spread 10**20", PaddingExplorer, {"spread": HUGE}, ABOVE, lambda w: w.spread.value == 5),
    Arg("padding n 10**400", PaddingExplorer, {"n": HUGER}, ABOVE, lambda w: w.n == 40),
    Arg("padding sentence -10**20", PaddingExplorer, {"sentence": -HUGE}, BELOW, lambda w: w.sentence.value == 1),
    Arg("compile ops 10**20", compile_explorer, {"ops": HUGE}, ABOVE, lambda w: w.ops.value == 64),
    Arg("compile max_ops 10**400", compile_explorer, {"max_ops": HUGER}, ABOVE, lambda w: w.ops.max == 512),
    Arg("batching trees 10**20", BatchingExplorer, {"trees": HUGE}, ABOVE, lambda w: w.n_trees.value == 40),
    Arg("batching seed -10**400", BatchingExplorer, {"seed": -HUGER}, BELOW, lambda w: w.seed.value == 0),
    Arg("control flow value 10**20", ControlFlowExplorer, {"value": HUGE}, ABOVE, lambda w: slider(w) == 3.0),
    Arg("control flow value 10**400", ControlFlowExplorer, {"value": HUGER}, ABOVE, lambda w: slider(w) == 3.0),
    Arg("control flow low -10**20", ControlFlowExplorer, {"low": -HUGE}, BELOW,
        lambda w: w.sliders["x"].min == -1e6),
    Arg("expression values 10**20", ExpressionExplorer, {"text": "x*2", "values": {"x": HUGE}}, ABOVE,
        lambda w: slider(w) == 5.0),
    Arg("expression values 10**400", ExpressionExplorer, {"text": "x*2", "values": {"x": HUGER}}, ABOVE,
        lambda w: slider(w) == 5.0),
    Arg("expression high 10**400", ExpressionExplorer, {"text": "x*2", "high": HUGER}, ABOVE,
        lambda w: w.high == 1e6),
    Arg("expression low -1e300", ExpressionExplorer, {"text": "x*2", "low": -1e300}, BELOW, lambda w: w.low == -1e6),
    Arg("expression values for no variable (a typo)", ExpressionExplorer, {"text": "x*2", "values": {"X": 2.0}},
        _id("NOT_A_VARIABLE", explorers), lambda w: slider(w) == 1.0),
    Arg("expression values with a key that is not text", ExpressionExplorer,
        {"text": "x*2", "values": {HUGER: 2.0}},
        _id("NOT_A_VARIABLE", explorers),
        lambda w: slider(w) == 1.0 and len(words(w)) < 400),
    Arg("expression values numpy int", ExpressionExplorer, {"text": "x*2", "values": {"x": np.int64(2)}}, "",
        lambda w: slider(w) == 2.0),
    Arg("expression values fraction", ExpressionExplorer, {"text": "x*2", "values": {"x": Fraction(1, 4)}}, "",
        lambda w: slider(w) == 0.25),
]


def _works(w: Any) -> bool:
    """A good input after the bad argument: the widget takes it (one per kind of widget)."""
    if isinstance(w, SessionExplorer):
        w.set_fetch("y")
        return _feed_good(w)
    if isinstance(w, PaddingExplorer):
        return _pad_good(w)
    if isinstance(w, CompileExplorer):
        return _run_good(w)
    if isinstance(w, BatchingExplorer):
        w.n_trees.value = 3
        return w.counts is not None and w.counts.trees == 3
    if isinstance(w, ControlFlowExplorer):
        return _cf_good(w)
    w.set_text("zz * 3")
    return said_ids(w) == [] and _table(w)["f"] == ("3", "3")


@pytest.mark.parametrize("row", ARGS, ids=[r.case for r in ARGS])
def test_a_widget_argument_is_read_by_the_one_reader(row: Arg) -> None:
    w = row.make(**row.kw)
    assert (row.said in said_ids(w)) if row.said else words(w) == ""
    assert row.holds(w) and repr(w)
    assert "isfinite" not in words(w) and "Error" not in words(w)
    assert _works(w)


# ------------------------------------------------------------------------------------- 3. values given later
@dataclass(frozen=True)
class Later:
    """``act(widget)`` with a bad value: ``said`` among the messages, ``holds`` true; then ``good`` works."""

    case: str
    make: Callable[[], Any]
    act: Callable[[Any], Any]
    said: Any  # a message id (a Plural for a message with a count)
    holds: Callable[[Any], bool]
    good: Callable[[Any], bool]


def _cf_good(w: ControlFlowExplorer) -> bool:
    w.set_input(x=-1.0)
    return slider(w) == -1.0 and words(w) == ""


def _feed_good(w: SessionExplorer) -> bool:
    w.feed(x=2.0, w=1.0)
    return w._feeds["x"][1].value == 2.0 and w.value is not None and abs(float(w.value) - np.sin(3.0)) < 1e-12


def _pad_good(w: PaddingExplorer) -> bool:
    w.set(spread=2)
    return w.spread.value == 2 and words(w) == ""


def _run_good(w: CompileExplorer) -> bool:
    runs = w.runs
    w.run_many(3)
    return w.runs == runs + 3


def _unfeed_good(w: SessionExplorer) -> bool:
    w.unfeed("w")
    w.feed(w=0.5)
    return w.fed == ["x", "w"] and abs(float(w.value) - np.sin(0.5 + 1)) < 1e-12


def _steps(w: Any) -> int:
    return w.steps


def _go_good(w: Any) -> bool:
    w.go(2)
    return w.step == 2 and said_ids(w) == []


TRACE = tr.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})


def stepper() -> Stepper:
    return Stepper(TRACE)


def side() -> SideBySide:
    return SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})


LATER = [
    Later("control flow set_input 10**20", ControlFlowExplorer, lambda w: w.set_input(x=HUGE), CLIPPED,
          lambda w: slider(w) == 3.0, _cf_good),
    Later("control flow set_input -10**400", ControlFlowExplorer, lambda w: w.set_input(x=-HUGER), CLIPPED,
          lambda w: slider(w) == -3.0, _cf_good),
    Later("control flow set_input numpy bool", ControlFlowExplorer, lambda w: w.set_input(x=np.True_),
          NOT_A_NUMBER_INPUT, lambda w: slider(w) == 1.0, _cf_good),
    Later("session feed 10**20", SessionExplorer, lambda w: w.feed(x=HUGE), CLIPPED,
          lambda w: w._feeds["x"][1].value == 3.0, _feed_good),
    Later("session feed -10**400", SessionExplorer, lambda w: w.feed(x=-HUGER), CLIPPED,
          lambda w: w._feeds["x"][1].value == -3.0, _feed_good),
    Later("session feed numpy nan", SessionExplorer, lambda w: w.feed(x=np.float64("nan")), _id("FEED_NOT_FINITE", se),
          lambda w: w._feeds["x"][1].value == 1.0, _feed_good),
    Later("session feed text", SessionExplorer, lambda w: w.feed(x="2"), _id("FEED_NOT_A_NUMBER", se),
          lambda w: w._feeds["x"][1].value == 1.0, _feed_good),
    Later("padding set 10**20", PaddingExplorer, lambda w: w.set(spread=HUGE), ABOVE, lambda w: w.spread.value == 5,
          _pad_good),
    Later("padding set 10**400", PaddingExplorer, lambda w: w.set(buckets=HUGER), ABOVE,
          lambda w: w.buckets.value == 4, _pad_good),
    Later("compile run_many 10**20", compile_explorer, lambda w: w.run_many(HUGE), RUN_MANY_BAD,
          lambda w: w.runs == 1, _run_good),
    Later("compile run_many 10**400", compile_explorer, lambda w: w.run_many(HUGER), RUN_MANY_BAD,
          lambda w: w.runs == 1 and "1e+400" in words(w), _run_good),
    Later("compile run_many 2.5", compile_explorer, lambda w: w.run_many(2.5), RUN_MANY_BAD,
          lambda w: w.runs == 1, _run_good),
    Later("compile run_many numpy 3", compile_explorer, lambda w: w.run_many(np.int64(3)), "",
          lambda w: w.runs == 4, _run_good),
    # unfeed
    Later("unfeed an unknown name", SessionExplorer, lambda w: w.unfeed("nope"), se.NOT_A_PLACEHOLDER,
          lambda w: w.fed == ["x", "w"], _unfeed_good),
    Later("unfeed a name not fed", SessionExplorer, lambda w: w.unfeed("b"), _id("NOT_FED", se),
          lambda w: w.fed == ["x", "w"], _unfeed_good),
    Later("unfeed twice", SessionExplorer, lambda w: (w.unfeed("x"), w.unfeed("x")), _id("NOT_FED", se),
          lambda w: w.fed == ["w"], lambda w: (w.feed(x=1.0), _unfeed_good(w))[1]),
    Later("unfeed a name that is not text", SessionExplorer, lambda w: w.unfeed(3), _id("UNFEED_NOT_TEXT", se),
          lambda w: w.fed == ["x", "w"], _unfeed_good),
    Later("unfeed 10**400", SessionExplorer, lambda w: w.unfeed(HUGER), _id("UNFEED_NOT_TEXT", se),
          lambda w: w.fed == ["x", "w"] and len(words(w)) < 300, _unfeed_good),
    Later("set_fetch of an array", SessionExplorer, lambda w: w.set_fetch(np.array([1, 2])), se.NO_NODE_TO_FETCH,
          lambda w: w.fetch.value == "y", _feed_good),
    Later("set_fetch of 10**5000", SessionExplorer, lambda w: w.set_fetch(10**5000), se.NO_NODE_TO_FETCH,
          lambda w: w.fetch.value == "y" and "1e+5000" in words(w), _feed_good),
    Later("unfeed None", SessionExplorer, lambda w: w.unfeed(None), _id("UNFEED_NOT_TEXT", se),
          lambda w: w.fed == ["x", "w"], _unfeed_good),
    Later("unfeed a bad name among good ones", SessionExplorer, lambda w: w.unfeed("x", "nope"),
          se.NOT_A_PLACEHOLDER, lambda w: w.fed == ["w"], lambda w: (w.feed(x=1.0), _unfeed_good(w))[1]),
]

# go(step) on both stepping widgets: a refusal keeps the step, a number out of range is brought into range
for make in (stepper, side):
    kind = make.__name__
    LATER += [
        Later(f"{kind}.go(nan)", make, lambda w: w.go(NAN), NOT_FINITE, lambda w: w.step == 0, _go_good),
        Later(f"{kind}.go(inf)", make, lambda w: w.go(INF), NOT_FINITE, lambda w: w.step == 0, _go_good),
        Later(f"{kind}.go('3')", make, lambda w: w.go("3"), NOT_A_NUMBER, lambda w: w.step == 0, _go_good),
        Later(f"{kind}.go(None)", make, lambda w: w.go(None), NOT_A_NUMBER, lambda w: w.step == 0, _go_good),
        Later(f"{kind}.go(True)", make, lambda w: w.go(True), NOT_A_NUMBER, lambda w: w.step == 0, _go_good),
        Later(f"{kind}.go(2.5)", make, lambda w: w.go(2.5), NOT_WHOLE, lambda w: w.step == 2, _go_good),
        Later(f"{kind}.go(-1)", make, lambda w: w.go(-1), NO_SUCH_STEP, lambda w: w.step == 0, _go_good),
        Later(f"{kind}.go(10**20)", make, lambda w: w.go(HUGE), NO_SUCH_STEP, lambda w: w.step == _steps(w)
              and len(words(w)) < 200, _go_good),
        Later(f"{kind}.go(-10**400)", make, lambda w: w.go(-HUGER), NO_SUCH_STEP, lambda w: w.step == 0
              and len(words(w)) < 200, _go_good),
        Later(f"{kind}.go(numpy 3)", make, lambda w: w.go(np.int64(3)), "", lambda w: w.step == 3, _go_good),
        Later(f"{kind}.go(3.0)", make, lambda w: w.go(np.float64(3.0)), "", lambda w: w.step == 3, _go_good),
    ]


@pytest.mark.parametrize("row", LATER, ids=[r.case for r in LATER])
def test_a_bad_value_given_later_is_refused_or_brought_into_range_and_the_widget_keeps_working(row: Later) -> None:
    w = row.make()
    row.act(w)
    assert (row.said in said_ids(w)) if row.said else said_ids(w) == []
    assert row.holds(w)
    assert "isfinite" not in words(w) and "Error:" not in words(w)
    assert row.good(w)


# ------------------------------------------------------------------------------------- 4. Play intervals
INTERVALS = [  # interval -> (the message id, or "" for none; the interval used)
    (0, BELOW, 200), (-5, BELOW, 200), (100, BELOW, 200), (5000, ABOVE, 3000), (HUGE, ABOVE, 3000),
    (-HUGER, BELOW, 200), (NAN, NOT_FINITE, 900), (INF, NOT_FINITE, 900), ("fast", NOT_A_NUMBER, 900),
    (None, NOT_A_NUMBER, 900), (True, NOT_A_NUMBER, 900), (250.5, OFF_STEP, 300), (1234, OFF_STEP, 1200),
    (1250, OFF_STEP, 1300),
    (200, "", 200), (3000, "", 3000), (np.int64(500), "", 500), (1500.0, "", 1500),
]


@pytest.mark.parametrize("make", [stepper, lambda **kw: SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0}, **kw)],
                         ids=["Stepper", "SideBySide"])
@pytest.mark.parametrize(("interval", "said", "used"), INTERVALS, ids=[repr(i)[:12] for i, *_ in INTERVALS])
def test_a_play_interval_is_read_in_the_speed_sliders_range(make: Any, interval: Any, said: str, used: int) -> None:
    w = make(interval=interval) if make is not stepper else Stepper(TRACE, interval=interval)
    assert (said in said_ids(w)) if said else said_ids(w) == []
    c = w.controls
    # Play and the speed slider agree, on one of the slider's steps: the browser has nothing to clip or snap
    assert c.play.interval == used and c.speed.value == used and (used - c.speed.min) % c.speed.step == 0
    assert (c.speed.min, c.speed.max) == (200, 3000)
    w.go(2)  # the widget steps; the interval's problem, an argument problem, stays in the box
    assert w.step == 2 and said_ids(w) == ([said] if said else [])


def test_an_interval_problem_stays_beside_the_programs_own_problem() -> None:
    w = SideBySide(programs.branch_with_python_if, {"x": 1.0}, interval="fast")
    assert NOT_A_NUMBER in said_ids(w) and None in said_ids(w)  # the interval, and the define-then-run lesson
    w.go(1)
    assert w.step == 1


def test_an_interval_problem_is_not_hidden_by_the_steppers_note() -> None:
    # a trace of no events and a trace too large for the page each bring a note: the interval is said instead
    for w in (Stepper(tr.Trace("define-by-run", Graph(), [], []), interval="fast"),
              Stepper(TRACE, interval="fast", max_bytes=10)):
        assert said_ids(w) == [NOT_A_NUMBER]


# ------------------------------------------------------------------------------------- 5. the expression explorer
def _table(e: ExpressionExplorer) -> dict[str, tuple[str, str]]:
    """The results table: row name -> (define-then-run, define-by-run), as shown."""
    cell = r"<td[^>]*>((?:(?!</tr>).)*?)</td>"  # within one row (the header's empty corner is a <td> too)
    rows = re.findall(rf"<tr>{cell}{cell}{cell}</tr>", e.results.value)
    return {html.unescape(k): (html.unescape(a), html.unescape(b)) for k, a, b in rows}


def _no_error_in_panes(e: ExpressionExplorer) -> bool:
    return "Problem" not in e.static_view.value and "Problem" not in e.dynamic_view.value


EXPRESSIONS = [  # text, values -> f on both sides (as numpy computes it), or the message id of the refusal
    ("2 + 3", {}, 5.0),
    ("pi * 2", {}, 2 * np.pi),
    ("1 / 4", {}, 0.25),
    ("sin(2)", {}, np.sin(2.0)),
    ("self", {"self": 2.0}, 2.0),
    ("self * x + 1", {"self": 2.0, "x": 3.0}, 7.0),
    ("cls * 2", {"cls": 1.5}, 3.0),
    ("kwargs + values", {"kwargs": 1.0, "values": 2.0}, 3.0),
    ("program * style * text", {"program": 1.0, "style": 2.0, "text": 3.0}, 6.0),
    ("backward - inputs", {"backward": 1.0, "inputs": 2.0}, -1.0),
    ("match + case + type", {"match": 1.0, "case": 1.0, "type": 1.0}, 3.0),  # soft keywords are names
    ("print + eval", {"print": 1.0, "eval": 2.0}, 3.0),  # names, never called
    ("add * mul", {"add": 2.0, "mul": 3.0}, 6.0),  # op names that are not functions of an expression
    ("ops", {}, expr.RESERVED_NAME),
    ("ops * 2", {}, expr.RESERVED_NAME),
    ("sin", {}, expr.IS_A_FUNCTION),
    ("sin + 1", {}, expr.IS_A_FUNCTION),
    ("__class__", {}, expr.UNDERSCORE),
    ("x + __class__", {}, expr.UNDERSCORE),
    ("__import__('os')", {}, expr.UNKNOWN_FUNCTION),
    ("x.__class__", {}, expr.REFUSED[__import__("ast").Attribute]),
    ("lambda", {}, expr.NOT_VALID),
    ("self(2)", {}, expr.UNKNOWN_FUNCTION),
]


@pytest.mark.parametrize(("text", "values", "expected"), EXPRESSIONS, ids=[t for t, *_ in EXPRESSIONS])
def test_the_expression_explorer_shows_the_value_on_both_sides_or_refuses_clearly(text: str, values: dict,
                                                                                  expected: Any) -> None:
    e = ExpressionExplorer(text, values=values or None)
    if isinstance(expected, float):
        assert _no_error_in_panes(e) and said_ids(e) == []
        a, b = _table(e)["f"]
        assert a == b != "—" and abs(float(a) - expected) <= 1e-3 * max(1.0, abs(expected)), (a, b)
        for name in values:  # every variable's gradient on both sides, equal
            da, db = _table(e)[f"∂f/∂{name}"]
            assert da == db != "—"
    else:
        assert said_ids(e) == [expected]
    e.set_text("zz * 3")  # the widget keeps working (a new variable: its slider starts at 1)
    assert said_ids(e) == [] and _table(e)["f"] == ("3", "3")


def test_a_program_named_self_runs_in_both_engines_directly() -> None:
    from course_lib import dynamic as dy
    from course_lib import static as st

    e = expr.parse("self * 2 + ops_count")
    got = e.program(dy, self=dy.Tensor(3.0), ops_count=dy.Tensor(1.0))
    assert float(got.data) == 7.0
    g = st.Graph()
    with g.as_default():
        s, c = st.placeholder("self"), st.placeholder("ops_count")
        out = e(st, self=s, ops_count=c)
        assert float(st.Session(g).run(out, {s: 3.0, c: 1.0})) == 7.0


# ------------------------------------------------------------------------------------- 6. numbers in French text
def test_french_numbers_in_the_expression_explorer() -> None:
    set_language("fr")
    e = ExpressionExplorer("sin(x)", values={"x": -0.625})
    text = html.unescape(re.sub(r"<[^>]+>", " ", e.results.value))
    assert "x = -0,625" in text and "x = -0.625" not in text
    assert _table(e)["f"] == ("-0,5851", "-0,5851")
    assert _table(e)["∂f/∂x"] == ("0,811", "0,811")


def test_french_numbers_in_the_control_flow_explorer() -> None:
    set_language("fr")
    c = ControlFlowExplorer(programs.branch_with_cond, value=0.5)
    assert "x = 0,5" in html.unescape(c.summary.value) and "0.5" not in html.unescape(c.summary.value)
    assert repr(c) == "ControlFlowExplorer(branch_with_cond, x = 0.5)"  # a repr is code: Python's number


def test_french_numbers_in_the_session_explorers_words_but_not_in_its_code() -> None:
    set_language("fr")
    s = SessionExplorer(feeds={"x": 0.5, "w": 2.0})
    call = html.unescape(s.call.value)
    assert "feed_dict={x: 0.5, w: 2}" in call  # the call is Python, as the student would type it


def test_french_numbers_in_the_readers_messages() -> None:
    set_language("fr")
    _, problem = inputs.read_number(9, "x", 0.5, low=-2.5, high=2.5)
    assert "-2,5" in problem and "2,5" in problem and "2.5" not in problem
