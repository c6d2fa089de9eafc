"""The SessionExplorer widget: real Session.run calls, pruning, compiles, finalize, errors shown in the widget."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from course_lib import static as st
from course_lib.i18n import message_of
from course_lib.lessons import session_explorer
from course_lib.lessons.session_explorer import SessionExplorer, demo_graph
from course_lib.widgets.base import said_ids
from course_lib.widgets.inputs import CLIPPED


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html).replace("&#x27;", "'").replace("&gt;", ">")


def test_demo_graph_shape() -> None:
    g = demo_graph()
    assert [n.name for n in g.nodes if n.kind == "input"] == ["x", "w", "b"]
    assert len(g) == 15 and "y" in [n.name for n in g.nodes] and "z" in [n.name for n in g.nodes]


def test_fetch_y_runs_only_its_subgraph() -> None:
    e = SessionExplorer(feeds={"x": 3.0, "w": 2.0})
    assert repr(e) == "SessionExplorer(fetch 'y', fed x, w; nodes=15, compiles=1)"
    assert float(e.value) == pytest.approx(np.sin(7.0))
    assert e.ran == ["x", "w", "mul", "Const", "add", "y"]  # b and everything of z pruned
    assert "pruned 9" in text(e.plan_view.value) and "def plan(x_0, w_1):" in text(e.plan_view.value)
    assert "<svg" in e.graph_view.value and e.message.value == ""


def test_a_needed_unfed_placeholder_is_a_message_not_a_traceback() -> None:
    e = SessionExplorer()
    e.set_fetch("z")
    assert "You must feed a value for placeholder 'b'" in text(e.message.value)
    assert e.value is None and e.ran == []
    e.feed(b=0.5)
    assert e.message.value == "" and e.value is not None
    assert "folded: 1" in text(e.plan_view.value) and "merged: 1" in text(e.plan_view.value)
    assert "mul_3" not in e.ran  # the duplicate x*w was merged into mul: it never ran


def test_an_unneeded_fed_placeholder_is_fine_and_unused() -> None:
    e = SessionExplorer(feeds={"x": 1.0, "w": 1.0, "b": 2.0})
    assert e.fed == ["x", "w", "b"] and "b" not in e.ran


def test_compiles_count_new_plans_only() -> None:
    e = SessionExplorer()
    assert e.compile_count == 1
    e.feed(x=2.0)  # same fetch, same feeds, new value: cached plan
    assert e.compile_count == 1 and "reused the cached plan" in text(e.call.value)
    e.add_node()  # graph changed + new fetch
    assert e.compile_count == 2 and len(e.graph) == 17 and e.fetch.value == "add_2"
    assert float(e.value) == pytest.approx(np.sin(2.0 * 1.0 + 1.0) + 1.0)


def test_finalize_refuses_new_nodes_but_runs() -> None:
    e = SessionExplorer()
    e.finalize()
    assert "finalized" in repr(e)
    e.add_node()
    assert "GraphFinalizedError" in text(e.message.value) and len(e.graph) == 15
    e.feed(x=0.5)
    assert e.value is not None
    e.start_over()
    assert not e.graph.finalized and e.compile_count == 1


def test_bad_requests_are_messages() -> None:
    e = SessionExplorer()
    e.set_fetch("nope")
    assert said_ids(e) == [session_explorer.NO_NODE_TO_FETCH] and e.shown[0].values["name"] == "'nope'"
    e.feed(q=1.0)
    assert said_ids(e) == [session_explorer.NOT_A_PLACEHOLDER] and e.shown[0].values["inputs"] == "x, w, b"
    e.feed(x="abc")
    assert said_ids(e) == [session_explorer.FEED_NOT_A_NUMBER]
    e.feed(x=float("inf"))
    assert said_ids(e) == [session_explorer.FEED_NOT_FINITE]
    with pytest.raises(TypeError) as info:
        SessionExplorer(build=lambda: 42)
    said = message_of(info.value)
    assert said.msgid is session_explorer.NO_FIRST_GRAPH and "returned int 42" in said.values["error"]


def test_a_graph_without_placeholders_says_it_has_none() -> None:
    g = st.Graph()
    with g.as_default():
        st.exp(st.constant(1.0), name="e")
    e = SessionExplorer(g, fetch="e", feeds={"q": 1.0})
    assert said_ids(e) == [session_explorer.FEEDS_NO_PLACEHOLDER]
    e.feed(q=2.0)
    assert said_ids(e) == [session_explorer.NO_PLACEHOLDER] and float(e.value) == pytest.approx(np.e)


def test_a_given_graph_and_layout_kept_while_values_change() -> None:
    g = st.Graph()
    with g.as_default():
        a = st.placeholder("a")
        st.exp(a * 2.0, name="e")
    e = SessionExplorer(g, fetch="e", feeds={"a": 0.0})
    assert e.restart_button.disabled and float(e.value) == pytest.approx(1.0)
    first = re.findall(r'<(?:ellipse|polygon)[^>]*>', e.graph_view.value)
    e.feed(a=1.5)
    assert re.findall(r'<(?:ellipse|polygon)[^>]*>', e.graph_view.value) == first  # nothing moved


def test_an_unchanged_request_is_not_run_again() -> None:
    e = SessionExplorer()
    call = e.call.value
    e.fetch.value = "y"  # the browser echoing the same value back
    e._feeds["x"][1].value = 1.0000000000000002  # or a slider snapped to its step
    e._run()
    assert e.call.value == call and "compiled a new plan" in text(e.call.value)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_out_of_range_is_told_by_the_value_in_every_language(lang):
    """A number beyond the slider is clipped and the range is given; the explorer decides that from the value,
    not from the words of read_number's message (translated in French: 'above' is not in it)."""
    from course_lib.i18n import set_language

    set_language(lang)
    e = SessionExplorer(feeds={"x": 3.0, "w": 2.0})
    e.feed(x=99.0)
    assert said_ids(e) == [CLIPPED] and e.shown[0].values["low"] == "-3" and e._feeds["x"][1].value == 3.0
    e.feed(x="abc")
    assert said_ids(e) == [session_explorer.FEED_NOT_A_NUMBER]
