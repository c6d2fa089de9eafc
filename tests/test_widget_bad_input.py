"""Bad arguments and bad values given to the lesson widgets and the explorers: one case each (issue 15).

Each case asserts the message's words: what was wrong (the argument and its value) and what to do (what to pass).
Where the widget can still be built, the message is inline in its message box and the widget keeps working; where
it cannot (the object it explores is of the wrong kind), a TypeError says what to pass instead.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from course_lib.lessons.compile_explorer import CompileExplorer
from course_lib.lessons.padding_explorer import PaddingExplorer
from course_lib.lessons.session_explorer import SessionExplorer
from course_lib.lessons.tree_widgets import BatchingExplorer, TreeExplorer
from course_lib.lessons.unroll import UnrollExplorer
from course_lib.widgets.explorers import ControlFlowExplorer, ExpressionExplorer

NAN, INF = float("nan"), float("inf")


def text(widget: Any) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", widget.message.value))


def compile_explorer(**kw: Any) -> CompileExplorer:
    return CompileExplorer(**{"timings": False, **kw})


NUMBER = "is not a number"
FINITE = "is not a finite number"

# (widget, keyword arguments, words the message must hold: what was wrong, then what to do)
INLINE: list[tuple[Callable[..., Any], dict[str, Any], tuple[str, ...]]] = [
    # SessionExplorer
    (SessionExplorer, {"fetch": 3}, ("fetch=3 is not a node name", "pass the name of an operation")),
    (SessionExplorer, {"fetch": "nope"}, ("fetch='nope' is not an operation of this graph", "pass one of mul,")),
    (SessionExplorer, {"feeds": [1, 2]}, ("feeds=[1, 2] is not a dict", "feeds={'x': 3.0")),
    (SessionExplorer, {"feeds": {"x": "abc"}}, ("feeds['x']='abc' " + NUMBER, "pass a number from -3 to 3")),
    (SessionExplorer, {"feeds": {"x": None}}, ("feeds['x']=None " + NUMBER, "pass a number from -3 to 3")),
    (SessionExplorer, {"feeds": {"x": NAN}}, ("feeds['x']=nan " + FINITE, "pass a number from -3 to 3")),
    (SessionExplorer, {"feeds": {"x": INF}}, ("feeds['x']=inf " + FINITE, "pass a number from -3 to 3")),
    (SessionExplorer, {"feeds": {"x": 10.0}}, ("feeds['x']=10.0 is above 3", "Pass low= and high= to widen")),
    (SessionExplorer, {"feeds": {"q": 1.0}}, ("'q' is not a placeholder of this graph", "placeholders are x, w, b")),
    (SessionExplorer, {"low": "a"}, ("low='a' " + NUMBER, "the widget uses -3")),
    (SessionExplorer, {"low": NAN}, ("low=nan " + FINITE, "the widget uses -3")),
    (SessionExplorer, {"high": INF}, ("high=inf " + FINITE, "the widget uses 3")),
    (SessionExplorer, {"low": 5, "high": 1}, ("low=5 is not below high=1", "pass low < high")),
    # PaddingExplorer
    (PaddingExplorer, {"spread": "a"}, ("spread='a' " + NUMBER, "pass a whole number from 0 to 5")),
    (PaddingExplorer, {"spread": NAN}, ("spread=nan " + FINITE, "pass a whole number from 0 to 5")),
    (PaddingExplorer, {"spread": INF}, ("spread=inf " + FINITE, "pass a whole number from 0 to 5")),
    (PaddingExplorer, {"spread": None}, ("spread=None " + NUMBER, "pass a whole number from 0 to 5")),
    (PaddingExplorer, {"spread": -1}, ("spread=-1 is below 0", "pass a whole number from 0 to 5")),
    (PaddingExplorer, {"spread": 99}, ("spread=99 is above 5", "pass a whole number from 0 to 5")),
    (PaddingExplorer, {"spread": 2.5}, ("spread=2.5 is not a whole number", "pass a whole number from 0 to 5")),
    (PaddingExplorer, {"spread": True}, ("spread=True " + NUMBER, "pass a whole number from 0 to 5")),
    (PaddingExplorer, {"buckets": 0}, ("buckets=0 is below 1", "pass a whole number from 1 to 4")),
    (PaddingExplorer, {"buckets": "a"}, ("buckets='a' " + NUMBER, "pass a whole number from 1 to 4")),
    (PaddingExplorer, {"sentence": 0}, ("sentence=0 is below 1", "pass a whole number from 1 to 8")),
    (PaddingExplorer, {"sentence": NAN}, ("sentence=nan " + FINITE, "pass a whole number from 1 to 8")),
    (PaddingExplorer, {"n": 0}, ("n=0 is below 1", "pass a whole number from 1 to 40")),
    (PaddingExplorer, {"n": -2}, ("n=-2 is below 1", "pass a whole number from 1 to 40")),
    (PaddingExplorer, {"n": "a"}, ("n='a' " + NUMBER, "pass a whole number from 1 to 40")),
    (PaddingExplorer, {"n": 1000}, ("n=1000 is above 40", "pass a whole number from 1 to 40")),
    (PaddingExplorer, {"mean": 0}, ("mean=0 is below 1", "pass a whole number from 1 to 30")),
    (PaddingExplorer, {"mean": NAN}, ("mean=nan " + FINITE, "pass a whole number from 1 to 30")),
    (PaddingExplorer, {"max_spread": -1}, ("max_spread=-1 is below 0", "pass a whole number from 0 to 20")),
    (PaddingExplorer, {"max_spread": "a"}, ("max_spread='a' " + NUMBER, "pass a whole number from 0 to 20")),
    # CompileExplorer
    (compile_explorer, {"ops": "a"}, ("ops='a' " + NUMBER, "pass a whole number from 1 to 64")),
    (compile_explorer, {"ops": NAN}, ("ops=nan " + FINITE, "pass a whole number from 1 to 64")),
    (compile_explorer, {"ops": INF}, ("ops=inf " + FINITE, "pass a whole number from 1 to 64")),
    (compile_explorer, {"ops": None}, ("ops=None " + NUMBER, "pass a whole number from 1 to 64")),
    (compile_explorer, {"ops": 0}, ("ops=0 is below 1", "pass a whole number from 1 to 64")),
    (compile_explorer, {"ops": -3}, ("ops=-3 is below 1", "pass a whole number from 1 to 64")),
    (compile_explorer, {"ops": 2.5}, ("ops=2.5 is not a whole number", "pass a whole number from 1 to 64")),
    (compile_explorer, {"max_ops": 0}, ("max_ops=0 is below 1", "pass a whole number from 1 to 512")),
    (compile_explorer, {"max_ops": "a"}, ("max_ops='a' " + NUMBER, "pass a whole number from 1 to 512")),
    (compile_explorer, {"timings": "no"}, ("timings='no' is not True or False", "pass timings=True")),
    # TreeExplorer
    (TreeExplorer, {"text": 3}, ("a tree is text like '((the cat) sat)', got int 3", "pass the tree in quotes")),
    (TreeExplorer, {"text": None}, ("got NoneType None", "pass the tree in quotes")),
    (TreeExplorer, {"view": "nope"}, ("view='nope' is not a view of this widget", "pass one of 'one box per cell'")),
    (TreeExplorer, {"view": 3}, ("view=3 is not a view of this widget", "pass one of 'one box per cell'")),
    # BatchingExplorer
    (BatchingExplorer, {"trees": "a"}, ("trees='a' " + NUMBER, "pass a whole number from 1 to 40")),
    (BatchingExplorer, {"trees": NAN}, ("trees=nan " + FINITE, "pass a whole number from 1 to 40")),
    (BatchingExplorer, {"trees": 0}, ("trees=0 is below 1", "pass a whole number from 1 to 40")),
    (BatchingExplorer, {"trees": -1}, ("trees=-1 is below 1", "pass a whole number from 1 to 40")),
    (BatchingExplorer, {"words": 0}, ("words=0 is below 1", "pass a whole number from 1 to 8")),
    (BatchingExplorer, {"words": INF}, ("words=inf " + FINITE, "pass a whole number from 1 to 8")),
    (BatchingExplorer, {"seed": -1}, ("seed=-1 is below 0", "pass a whole number from 0 to 20")),
    (BatchingExplorer, {"seed": "a"}, ("seed='a' " + NUMBER, "pass a whole number from 0 to 20")),
    (BatchingExplorer, {"seed": NAN}, ("seed=nan " + FINITE, "pass a whole number from 0 to 20")),
    (BatchingExplorer, {"max_trees": 0}, ("max_trees=0 is below 1", "pass a whole number from 1 to 200")),
    (BatchingExplorer, {"max_words": -2}, ("max_words=-2 is below 1", "pass a whole number from 1 to 20")),
    (BatchingExplorer, {"max_trees": "a"}, ("max_trees='a' " + NUMBER, "pass a whole number from 1 to 200")),
    # ControlFlowExplorer
    (ControlFlowExplorer, {"value": NAN}, ("value=nan " + FINITE, "pass a number from -3 to 3")),
    (ControlFlowExplorer, {"value": INF}, ("value=inf " + FINITE, "pass a number from -3 to 3")),
    (ControlFlowExplorer, {"value": "a"}, ("value='a' " + NUMBER, "pass a number from -3 to 3")),
    (ControlFlowExplorer, {"value": 10}, ("value=10 is above 3", "pass a number from -3 to 3")),
    (ControlFlowExplorer, {"low": NAN}, ("low=nan " + FINITE, "the widget uses -3")),
    (ControlFlowExplorer, {"high": INF}, ("high=inf " + FINITE, "the widget uses 3")),
    (ControlFlowExplorer, {"low": "a"}, ("low='a' " + NUMBER, "the widget uses -3")),
    (ControlFlowExplorer, {"low": 5, "high": 1}, ("low=5 is not below high=1", "pass low < high")),
    # ExpressionExplorer
    (ExpressionExplorer, {"values": {"x": NAN}}, ("values['x']=nan " + FINITE, "pass a number from -5 to 5")),
    (ExpressionExplorer, {"values": {"x": "a"}}, ("values['x']='a' " + NUMBER, "pass a number from -5 to 5")),
    (ExpressionExplorer, {"values": [1]}, ("values=[1] is not a dict", "values={'x': 2.0}")),
    (ExpressionExplorer, {"low": NAN}, ("low=nan " + FINITE, "the widget uses -5")),
    (ExpressionExplorer, {"high": INF}, ("high=inf " + FINITE, "the widget uses 5")),
    (ExpressionExplorer, {"low": "a"}, ("low='a' " + NUMBER, "the widget uses -5")),
]


@pytest.mark.parametrize(("widget", "kwargs", "words"), INLINE,
                         ids=[f"{getattr(w, '__name__', w)}-{k}" for w, k, _ in INLINE])
def test_a_bad_argument_is_said_inline_and_the_widget_is_built(widget: Any, kwargs: dict[str, Any],
                                                                words: tuple[str, ...]) -> None:
    w = widget(**kwargs)
    shown = text(w)
    assert shown.startswith("Problem:")
    for word in words:
        assert word in shown
    assert "Error:" not in shown.split("\n")[0]  # the course's words, not an exception's name
    assert repr(w)  # built: its repr works


RAISED: list[tuple[Callable[..., Any], dict[str, Any], str]] = [
    (SessionExplorer, {"build": 3}, r"needs a course_lib.static Graph, or a function that builds one .*got int 3"),
    (SessionExplorer, {"build": "abc"}, r"needs a course_lib.static Graph, or a function that builds one .*got str"),
    (SessionExplorer, {"build": lambda: 42}, r"could not build its first graph.*returned int 42"),
    (SessionExplorer, {"theme": "nope"}, r"unknown theme 'nope'; choose one of classroom, presenter"),
    (PaddingExplorer, {"rnn": 3}, r"rnn must be a sequences.TinyRNN \(e.g. sequences.TinyRNN.make\(\)\).*got int 3"),
    (TreeExplorer, {"net": 3}, r"net must be a tree_rnn.TreeRNN \(e.g. tree_rnn.TreeRNN\(\)\).*got int 3"),
    (UnrollExplorer, {"unrolled": None, "looped": None}, r"unrolled must be a tf.function \(decorate the loop"),
    (UnrollExplorer, {"unrolled": 3, "looped": 4}, r"unrolled must be a tf.function.*got int 3"),
    (UnrollExplorer, {"unrolled": lambda x, n: x, "looped": lambda x, n: x}, r"must be a tf.function.*got function"),
]


@pytest.mark.parametrize(("widget", "kwargs", "pattern"), RAISED,
                         ids=[f"{w.__name__}-{next(iter(k))}-{i}" for i, (w, k, _) in enumerate(RAISED)])
def test_the_wrong_kind_of_object_raises_a_clear_error(widget: Any, kwargs: dict[str, Any], pattern: str) -> None:
    exc = ValueError if "theme" in kwargs else TypeError
    with pytest.raises(exc, match=pattern):
        widget(**kwargs)


def test_unroll_looped_wrong_kind_is_named() -> None:
    class Fake:
        def get_concrete_function(self, *args: Any) -> None:
            raise AssertionError("not reached")

    with pytest.raises(TypeError, match="UnrollExplorer's looped must be a tf.function.*got int 4"):
        UnrollExplorer(Fake(), 4)


# values given later, from code, after the widget was built: said inline, and the widget keeps working
LATER: list[tuple[str, Callable[[], Any], Callable[[Any], None], tuple[str, ...]]] = [
    ("control flow nan", ControlFlowExplorer, lambda w: w.set_input(x=NAN),
     ("x must be a finite number, got nan", "pass a number from -3 to 3", "x stays 1")),
    ("control flow inf", ControlFlowExplorer, lambda w: w.set_input(x=INF), ("x must be a finite number, got inf",
                                                                             "x stays 1")),
    ("control flow -inf", ControlFlowExplorer, lambda w: w.set_input(x=-INF), ("got -inf", "x stays 1")),
    ("control flow text", ControlFlowExplorer, lambda w: w.set_input(x="abc"), ("x must be a number, got 'abc'",
                                                                                "x stays 1")),
    ("control flow above", ControlFlowExplorer, lambda w: w.set_input(x=99), ("x=99 is above 3",
                                                                              "The slider goes from -3 to 3")),
    ("control flow unknown", ControlFlowExplorer, lambda w: w.set_input(q=1.0), ("has no input 'q'",
                                                                                  "its only input is x")),
    ("session feed nan", SessionExplorer, lambda w: w.feed(x=NAN), ("x must be a finite number, got nan",
                                                                    "pass a number, like x=1.5")),
    ("session feed inf", SessionExplorer, lambda w: w.feed(x=INF), ("x must be a finite number, got inf",
                                                                    "nothing was fed to x")),
    ("session feed None", SessionExplorer, lambda w: w.feed(x=None), ("x must be a number, got None",
                                                                      "nothing was fed to x")),
    ("session feed above", SessionExplorer, lambda w: w.feed(x=50.0), ("x=50.0 is above 3",
                                                                       "The slider goes from -3 to 3")),
    ("padding set text", PaddingExplorer, lambda w: w.set(spread="a"), ("spread='a' " + NUMBER,
                                                                        "pass a whole number from 0 to 5")),
    ("padding set nan", PaddingExplorer, lambda w: w.set(sentence=NAN), ("sentence=nan " + FINITE,
                                                                         "pass a whole number from 1 to 8")),
    ("padding set above", PaddingExplorer, lambda w: w.set(spread=99), ("spread=99 is above 5", "the widget uses 5")),
    ("compile run text", compile_explorer, lambda w: w.run_many("a"), ("run_many(k='a')", "Pass e.g. run_many(100)")),
    ("compile run negative", compile_explorer, lambda w: w.run_many(-5), ("run_many(k=-5)", "nothing was run")),
    ("compile run nan", compile_explorer, lambda w: w.run_many(NAN), ("run_many(k=nan)", "whole number of runs")),
    ("tree text number", TreeExplorer, lambda w: w.set_text(3), ("got int 3", "pass the tree in quotes")),
]


@pytest.mark.parametrize(("case", "make", "act", "words"), LATER, ids=[c for c, *_ in LATER])
def test_a_bad_value_given_later_is_said_and_the_widget_keeps_working(case: str, make: Any, act: Any,
                                                                      words: tuple[str, ...]) -> None:
    w = make()
    before = repr(w)
    act(w)
    shown = text(w)
    assert shown.startswith("Problem:")
    for word in words:
        assert word in shown
    if "above" not in case:
        assert repr(w) == before  # nothing changed: the bad value was not used
    if isinstance(w, CompileExplorer):
        w.run_many(3)
        assert w.runs == 4
    elif isinstance(w, ControlFlowExplorer):
        w.set_input(x=-1.0)
        assert repr(w) == "ControlFlowExplorer(branch_with_cond, x = -1)" and text(w) == ""


def test_run_many_negative_does_not_count_runs_backwards() -> None:
    e = compile_explorer()
    e.run_many(-5)
    assert e.runs == 1


def test_valid_arguments_give_no_message_and_the_same_reprs() -> None:
    """The notebooks' calls: their text reprs (compared by nbval) and an empty message box."""
    from course_lib import programs

    made = {
        "PaddingExplorer(spread=3, buckets=1, sentence=1)": PaddingExplorer(spread=3),
        "PaddingExplorer(spread=5, buckets=2, sentence=1)": PaddingExplorer(spread=5, buckets=2),
        "CompileExplorer(ops=6, nodes=9, compiles=1, runs=1)": compile_explorer(ops=6),
        "SessionExplorer(fetch 'y', fed x, w; nodes=15, compiles=1)": SessionExplorer(feeds={"x": 3.0, "w": 2.0}),
        "BatchingExplorer(trees=4, max_words=5, ops_one_node_at_a_time=44, ops_batched_by_depth=33)":
            BatchingExplorer(trees=4, words=5, seed=1),
        "ControlFlowExplorer(branch_with_cond, x = 1)": ControlFlowExplorer(programs.branch_with_cond, value=1.0),
        "ControlFlowExplorer(repeat_until_large, x = 0.5)":
            ControlFlowExplorer(programs.repeat_until_large, low=0.2, high=12.0, value=0.5),
        "TreeExplorer('((the cat) sat)', words=3, cells=2, ops=8)": TreeExplorer("((the cat) sat)"),
        "ExpressionExplorer('sin(x*w + 1)', variables x, w)": ExpressionExplorer("sin(x*w + 1)"),
    }
    for expected, w in made.items():
        assert repr(w) == expected
        assert text(w) == ""
