"""Widgets and drawings say what is true (issue 13, a student's walk-through): one test per misleading state or word.

Each asserts structure or key words, not pasted output, and each failed on the behaviour it guards against:

1. the control-flow explorer's define-then-run title claimed "one graph for every input" over an error box, and
   that box showed Markdown backticks as they are;
2. the compile explorer drew every node dashed ("defined, not run") next to "runs of the graph: 102";
3. counts were pluralised blindly ("1 scope(s)", "1 nodes", "1 steps");
4. a drawing's note was one SVG text line, cut at the picture's edge mid-phrase ("weights, step 1, step");
5. numpy scalars were shown as ``np.float64(9.0)``;
6. an empty constant (TensorFlow's gradients/Shape of a scalar) was labelled "✓ []";
7. the expression explorer said "At no variables:" and did not say why log(-1) is nan;
8. the start page's steps box: "²" passes ``str.isdigit`` but not ``int``, so its callback raised and the old
   message stayed.
"""

from __future__ import annotations

import html
import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from hypothesis import given
from hypothesis import strategies as hs

from course_lib import programs, render, trace
from course_lib import widgets as cw
from course_lib.graph import Graph
from course_lib.i18n import Plural, say
from course_lib.lessons.compile_explorer import CompileExplorer
from course_lib.render.plan import plan
from course_lib.widgets.base import message_html
from course_lib.widgets.explorers import ControlFlowExplorer, ExpressionExplorer
from course_lib.widgets.inputs import read_number, read_whole

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _classroom():
    render.set_theme("classroom")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


def words(value: str) -> str:
    """HTML as the text a student reads (tags dropped, runs of white space made one space)."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", value)))


def svg_lines(svg: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


# ------------------------------------------------------------------------------------- 1. the left pane's title
def left_title(e: ControlFlowExplorer) -> str:
    return words(e.left.children[0].value)


def test_the_define_then_run_title_says_there_is_no_graph_when_the_build_fails() -> None:
    failed = ControlFlowExplorer(programs.branch_with_python_if)
    assert "<svg" not in failed.static_view.value and "Problem" in failed.static_view.value  # the pane: an error
    title = left_title(failed)
    assert "every path" not in title  # the claim of the built graph, not over an error box
    assert "no graph" in title and "building it failed" in title
    assert "a Python if/while needs a value" in words(failed.summary.value)  # the reason, said once
    built = ControlFlowExplorer(programs.branch_with_cond)
    assert "<svg" in built.static_view.value and "one graph, every path" in left_title(built)
    failed.set_input(x=-1.0)  # the title follows every redraw
    assert "no graph" in left_title(failed)


def test_a_build_that_fails_for_another_reason_is_not_blamed_on_an_if() -> None:
    def matmul_of_numbers(ops, x):
        return x @ x  # @ needs vectors or matrices: the build fails, and no `if` is involved

    e = ControlFlowExplorer(matmul_of_numbers)
    assert "no graph" in left_title(e) and "if/while" not in words(e.summary.value)


def test_html_messages_show_code_not_markdown_backticks() -> None:
    e = ControlFlowExplorer(programs.branch_with_python_if)
    box = e.static_view.value
    assert "`" not in box and "<code>if</code>" in box  # the engine's message writes `if`
    assert "<code>x &lt; 1</code>" in message_html("a Python `x < 1`")  # escaped first: no HTML injected
    # a monospace message puts a caret under a column of typed text: its characters are kept as typed
    assert "`" in message_html("a`b\n ^", monospace=True)


# ------------------------------------------------------------------------------------- 2. ran nodes drawn done
def states(svg: str) -> list[str]:
    return re.findall(r'class="node (\w+)"', svg)


def test_the_compile_explorer_draws_what_ran_as_done() -> None:
    e = CompileExplorer(ops=4, timings=False)
    e.run_many(100)
    e.add_node()
    assert e.runs == 102 and "102" in words(e.stats.value)
    drawn = states(e.picture.value)
    assert drawn and set(drawn) == {"done"}, drawn  # every node feeds the fetched output: all of them ran
    big = CompileExplorer(ops=20, timings=False)  # collapsed scopes too
    assert set(states(big.picture.value)) == {"done"}


def test_the_compile_explorer_leaves_nodes_the_run_did_not_need_defined() -> None:
    e = CompileExplorer(ops=3, timings=False)
    with e.chain.graph.as_default():
        from course_lib import static as st

        st.placeholder("unused")  # in the graph, needed by nothing that ran
    got = e.ran_states()
    unused = e.chain.graph.nodes[-1]
    assert got[unused.id] == "defined" and got[e.chain.y.node.id] == "done"


# ------------------------------------------------------------------------------------- 3. counts in good English
def test_plural() -> None:
    nodes, boxes = Plural("{n} node", "{n} nodes"), Plural("{n} box", "{n} boxes")  # the course's one plural
    assert [say(nodes, n=n) for n in (1, 2, 0)] == ["1 node", "2 nodes", "0 nodes"]
    assert (say(boxes, n=1), say(boxes, n=3)) == ("1 box", "3 boxes")


def test_one_collapsed_scope_of_one_node_is_counted_in_the_singular() -> None:
    g = Graph("one scope")
    x = g.add("placeholder", name="x", kind="input")
    y = g.add("sin", [x], scope="block")
    g.mark_output(g.add("exp", [y]))
    p = plan(g, 300, ["block"])
    assert p.note.startswith("1 scope drawn as one box:") and "(s)" not in p.note
    group = next(i for i in p.items if i.kind == "group")
    assert group.title.endswith("\n1 node") and "1 node drawn as one box" in group.tooltip
    five = Graph("five scopes")
    prev = five.add("placeholder", name="x", kind="input")
    for k in range(10):
        prev = five.add("sin", [prev], scope=f"s{k // 2}")
    note = plan(five, 300, 1).note
    assert note.startswith("5 scopes drawn as one box each:") and note.endswith("and 1 more.")


def test_counts_in_widgets_and_reprs_are_singular_for_one() -> None:
    def identity(ops, x):
        return x

    e = ControlFlowExplorer(identity)
    assert "1 node for" in words(e.summary.value) and "1 nodes" not in words(e.summary.value)
    one_step = trace.Trace("define-by-run", Graph("tiny"), [], [])
    g = one_step.graph
    g.add("placeholder", name="x", kind="input")
    one_step.events.append(trace.Event("run", "run", 0, "input x", np.float64(1.0), None))
    assert repr(one_step) == "<Trace define-by-run: events=1, nodes=1>"
    assert repr(cw.Stepper(one_step)) == "Stepper(define-by-run, steps=1)"  # name=value: no plural


# ------------------------------------------------------------------------------------- 4. a note is wrapped
def test_a_long_note_is_wrapped_at_word_boundaries_inside_the_picture() -> None:
    g = Graph("narrow")
    prev = g.add("placeholder", name="x", kind="input")
    for k in range(24):
        prev = g.add("sin", [prev], scope=["weights", *(f"step {j}" for j in range(1, 12))][k // 2])
    lay = render.Layout(g, collapse=1)  # top to bottom: a column of 12 boxes, narrower than the note
    note = lay.plan.note
    svg = lay.svg()
    width = float(re.search(r'viewBox="0 0 ([0-9.]+) ', svg).group(1))
    block = re.search(r'<g class="note">(.*?)</g>', svg).group(1)
    lines = svg_lines(block)
    assert len(lines) > 1, "the note of 12 scopes does not fit one line of a narrow drawing"
    assert " ".join(lines) == note  # every word kept, in order: nothing cut
    assert all(note.split().count(w) for line in lines for w in line.split())  # no line ends inside a word
    size = float(re.search(r'font-size="([0-9.]+)"', block).group(1))
    assert max(len(line) for line in lines) * size * 0.6 <= width  # each line within the picture
    assert not note.endswith("….")


# ------------------------------------------------------------------------------------- 5. plain numbers
def test_numpy_scalars_are_shown_as_plain_numbers() -> None:
    assert (render.plain(np.float64(1.5)), render.plain(np.int64(3)), render.plain(np.float64("nan"))) == (
        "1.5", "3", "nan")
    _, problem = read_number(np.float64(9.0), "x", 1.0, low=-3, high=3)
    assert "x=9.0 is above 3" in problem and "np." not in problem
    e = ControlFlowExplorer(programs.branch_with_cond, value=np.float64(9.0))
    assert "value=9.0 is above 3" in words(e.message.value) and "np." not in words(e.message.value)
    e.set_input(x=np.float64("nan"))
    assert "got nan" in words(e.message.value) and "np." not in words(e.message.value)
    ee = ExpressionExplorer("x*2", values={"x": np.int64(9)})
    assert "=9 is above 5" in words(ee.message.value) and "np." not in words(ee.message.value)


# ------------------------------------------------------------------------------------- 6. an empty constant
def test_an_empty_constant_shows_its_name_and_value() -> None:
    g = Graph("gradients")
    g.add("Const", name="gradients/Shape", kind="constant", value=np.array([]), scope="gradients")
    g.add("Const", name="two", kind="constant", value=2.0)
    items = plan(g, 300, False).items
    assert items[0].title == "Shape = [] (empty)"
    assert items[1].title == "2"  # a constant with numbers still shows them alone
    drawn = svg_lines(render.to_svg(g, legend=False))
    assert "✓ []" not in drawn and any("Shape = []" in t for t in drawn)


# ------------------------------------------------------------------------------------- 7. log(-1)
def test_an_expression_without_variables_and_its_undefined_log_are_said_truly() -> None:
    e = ExpressionExplorer("log(-1)")
    text = words(e.results.value)
    assert "At no variables" not in text and "no variables" in text and "For this expression" in text
    assert "log(-1) = nan" in text and "above 0" in text  # where the nan comes from, and why
    e.set_text("log(x)")
    e.sliders["x"].value = -2.0
    text = words(e.results.value)
    assert "At x = -2:" in text and "log(-2) = nan" in text
    e.set_text("1/x")
    e.sliders["x"].value = 0.0
    assert "1 / 0 = inf" in words(e.results.value) and "division by zero" in words(e.results.value)


# ------------------------------------------------------------------------------------- 8. typed whole numbers
@pytest.mark.parametrize("typed, why", [
    ("²", "superscript two"), ("3²", "superscript two"), ("", "empty"), ("3.5", "decimal point"),
    ("1 2", "space"), ("abc", "not a whole number"), ("1e3", "not a whole number"), ("-1", "below 0"),
    ("9" * 5000, "too many"), ("__import__('os')", "not a whole number"),
])
def test_a_typed_whole_number_that_is_not_one_says_what_was_wrong_and_what_to_type(typed: str, why: str) -> None:
    got, message = read_whole(typed)
    assert got is None and why in message and "Type a whole number of steps" in message and "like 4" in message


def test_a_typed_whole_number_is_read() -> None:
    assert read_whole(" 12 ") == (12, "") and read_whole("+3") == (3, "")
    assert read_whole("12", low=1, high=10)[0] is None and "above 10" in read_whole("12", low=1, high=10)[1]


@given(hs.text(max_size=40))
def test_read_whole_never_raises_and_agrees_with_int(typed: str) -> None:
    got, message = read_whole(typed)
    assert (got is None) != (message == "")
    if got is not None:
        assert got == int(typed) and got >= 0


def start_page_steps_cell() -> str:
    nb = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    return next("".join(c["source"]) for c in nb["cells"]
                if c["cell_type"] == "code" and 'description="steps:"' in "".join(c["source"]))


def test_the_start_page_steps_box_does_not_trust_isdigit() -> None:
    assert "²".isdigit() and not "²".isdecimal()  # the trap: isdigit says yes, int() says no
    assert ".isdigit()" not in start_page_steps_cell()
