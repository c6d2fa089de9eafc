"""The explorers and the lessons' widgets fit a projector (issue 26), checked without a browser: each widget built
with the arguments its notebook gives it, its graphs' natural sizes (pt, as drawn) and the CSS height they scale
down to give the labels' size on a 1280x720 screen in JupyterLab's Presentation Mode (and on a 1366x768 laptop);
the layout puts the graphs where the screen has room for them. tests/browser/test_layout.py measures the same in
Chromium; this file says which widget broke, and why, in a second.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import course_lib as cl
from course_lib import programs, render, trace
from course_lib.widgets.sizing import CHROME_PX, overflowing

pytest.importorskip("ipywidgets")
import course_lib.widgets as cw
from course_lib.lessons import tree_widgets
from course_lib.lessons.padding_explorer import PaddingExplorer, fold_steps
from course_lib.lessons.session_explorer import SessionExplorer


@dataclass(frozen=True)
class Screen:
    """What a notebook's output shows: its column's width and the screen's height (px)."""

    width: float
    height: float
    theme: str


#: measured in JupyterLab 4 (tests/browser/test_layout.py's setup): Presentation Mode with the side bar hidden, the
#: notebook column from x = 174 to 1228; the laptop with the file browser open, from x = 380 to 1314
PROJECTOR = Screen(1054, 720, "presenter")
LAPTOP = Screen(934, 768, "classroom")
PANE_MARGINS = 24  # two panes of 6 px margins on each side (widgets.sizing.share_width)


def graphs(widget) -> list[tuple[float, float, int | None]]:
    """Each graph the widget shows now (legends aside): its natural width and height in pt and the px its CSS
    max-height leaves off the screen's height (None: no max-height). Pictures sized in px (the padded grid) are no
    graph: they have no graph labels. Of a Stack, only the child shown (both graphs side by side, at first)."""
    found = []

    def walk(w) -> None:
        v = getattr(w, "value", None)
        if isinstance(v, str):
            for m in re.finditer(r'<svg [^>]*id="([^"]+)"[^>]*width="([\d.]+)pt" height="([\d.]+)pt"[^>]*>', v):
                if m.group(1).startswith("course-legend"):
                    continue
                off = re.search(r"max-height:calc\(100vh - (\d+)px\)", m.group(0))
                found.append((float(m.group(2)), float(m.group(3)), int(off.group(1)) if off else None))
        kids = getattr(w, "children", ())
        if getattr(w, "selected_index", None) is not None:  # a Stack (the focus control's views) draws one child
            kids = kids[w.selected_index : w.selected_index + 1]
        for c in kids:
            walk(c)

    walk(widget)
    return found


def label_px(shown: list[tuple[float, float, int | None]], screen: Screen) -> float:
    """The labels' size on the screen when these graphs stand side by side in panes in proportion to their widths
    (one scale for all, as share_width makes it): 1 pt = 4/3 px, scaled down to the column's width and to each
    graph's max-height."""
    fontsize = render.get_theme(screen.theme).fontsize
    width = screen.width - (PANE_MARGINS if len(shown) > 1 else 0)
    scale = min(1.0, width / (sum(w for w, _h, _o in shown) * 4 / 3))
    for _w, h, off in shown:
        if off is not None:
            scale = min(scale, (screen.height - off) / (h * 4 / 3))
    return fontsize * 4 / 3 * scale


@pytest.fixture(params=[PROJECTOR, LAPTOP], ids=["projector", "laptop"])
def screen(request):
    cl.set_theme(request.param.theme)
    yield request.param
    cl.set_theme("classroom")


#: widget -> (how its notebook builds it, smallest label on the projector (one graph: 24, two: 20), on the laptop)
WIDGETS = {
    "01 expression": (lambda: cw.ExpressionExplorer("sin(x*w + 1)", values={"x": 3.0, "w": 2.0}), 20),
    "03 control flow": (lambda: cw.ControlFlowExplorer(programs.repeat_until_large, low=0.2, high=12.0, value=0.5),
                        24),
    "04 control flow": (lambda: cw.ControlFlowExplorer(programs.branch_with_cond, value=1.0), 20),
    "02 session": (lambda: SessionExplorer(feeds={"x": 3.0, "w": 2.0}), 24),
    "06 padding": (lambda: PaddingExplorer(spread=3), 20),
    "06 padding, widest": (lambda: PaddingExplorer(spread=5), 20),
    "07 tree": (lambda: tree_widgets.TreeExplorer("((the cat) (sat (on (the mat))))"), 24),
    "07 batching": (lambda: tree_widgets.BatchingExplorer(trees=4, words=5, seed=1), 22),
}
#: on the laptop every label >= 12 px, but for the 03 chain (4 rounds of a loop, 22 boxes in a column: 10 px)
LAPTOP_SMALL = {"03 control flow"}


@pytest.mark.parametrize("name", list(WIDGETS))
def test_labels_readable_with_the_notebooks_inputs(name, screen):
    make, projector_px = WIDGETS[name]
    w = make()
    shown = graphs(w)
    assert shown, f"{name}: no graph drawn"
    px = label_px(shown, screen)
    if screen is PROJECTOR:
        assert px >= projector_px, f"{name}: labels {px:.1f} px on a projector < {projector_px}: {shown}"
    elif name not in LAPTOP_SMALL:
        assert px >= 12, f"{name}: labels {px:.1f} px on a laptop < 12: {shown}"


def test_the_expression_explorer_puts_its_sliders_under_the_graphs():
    e = cw.ExpressionExplorer("sin(x*w + 1)", values={"x": 3.0, "w": 2.0}, theme="presenter")
    kids = list(e.children)
    numbers = next(k for k in kids if e.slider_box in getattr(k, "children", ()))
    assert kids.index(e.graphs) < kids.index(numbers), "the sliders and the table come under the graphs"
    assert e.unfold in kids[0].children[1].children, "the gradient nodes' switch is beside the typed expression"
    assert e.focus.control in kids[0].children[1].children, "and so is the focus control (Show: both | one)"


def test_the_gradient_nodes_fold_on_a_projector_and_unfold_on_a_switch():
    folded = cw.ExpressionExplorer("sin(x*w + 1)", theme="presenter")
    assert not folded.unfold.value and "gradients · " in folded.static_view.value
    assert "gradients · " not in folded.dynamic_view.value  # define-by-run has no gradient nodes to fold
    folded.unfold.value = True
    assert "gradients · " not in folded.static_view.value and "∂/∂x" in folded.static_view.value
    classroom = cw.ExpressionExplorer("sin(x*w + 1)")
    assert classroom.unfold.value and "∂/∂x" in classroom.static_view.value  # a laptop shows each node at once
    no_variable = cw.ExpressionExplorer("2*3", theme="presenter")  # nothing to fold: drawn as it is
    assert "Problem" not in no_variable.message.value and "gradients · " not in no_variable.static_view.value


def test_the_control_flow_summary_comes_under_the_graphs():
    c = cw.ControlFlowExplorer(programs.repeat_until_large, low=0.2, high=12.0, value=0.5, theme="presenter")
    kids = list(c.children)
    row = kids[kids.index(c.graphs) + 1]  # the view's switches right under the graphs, then the summary
    assert kids.index(row) < kids.index(c.summary) and c.focus.control in row.children
    assert c.unfold not in row.children  # no backward: no gradient node to show
    with_gradients = cw.ControlFlowExplorer(programs.affine_sin, backward=True, theme="presenter")
    kids = list(with_gradients.children)
    assert with_gradients.unfold in kids[kids.index(with_gradients.graphs) + 1].children
    assert "gradients · " in with_gradients.static_view.value


def test_the_tree_shows_words_without_their_vectors_and_says_so():
    t = tree_widgets.TreeExplorer("((the cat) (sat (on (the mat))))", theme="presenter")
    assert "✓ the₁<" in t.picture.value and "[-" not in t.picture.value
    assert "words' vectors" in t.view_note.value and t.view_graph.nodes[0].value is not None  # the view keeps them
    kids = list(t.children)
    assert kids.index(t.view_note) == kids.index(t.picture) + 1  # said under the tree: it starts higher
    t.view.value = tree_widgets.VIEWS[1]
    assert "[-" in t.picture.value and "words' vectors" not in t.view_note.value


def test_the_padded_graph_folds_its_middle_steps_and_counts_them():
    e = PaddingExplorer(spread=5, theme="presenter")
    static = e.static_view.value
    assert "steps 3–10 · " in static and "step 11 · " in static and "step 2 · " in static
    assert e.counts()["static graph steps"] == 11  # the graph itself has every step: only its drawing folds
    from course_lib.lessons import sequences as sq

    short = sq.StaticUnroll(e.rnn, 3).drawn()
    assert [n.scope for n in fold_steps(short, 3).nodes] == [n.scope for n in short.nodes]  # nothing to fold


def test_the_batching_picture_is_under_its_sliders_and_scales_to_the_screen():
    b = tree_widgets.BatchingExplorer(trees=4, words=5, seed=1, theme="presenter")
    kids = list(b.children)
    assert kids.index(b.seed) < kids.index(b.picture) < kids.index(b.table)
    assert graphs(b)[0][2] == CHROME_PX + tree_widgets.BATCH_TOP


@pytest.mark.parametrize("name", list(WIDGETS))
def test_no_picture_is_wider_than_its_box(name):
    """A picture (an HTML widget) as wide as its box plus ipywidgets' 2 px margins on each side overflowed the box by
    4 px, and the widget showed a horizontal scrollbar of its own: pictures stretch to their box instead."""
    too_wide = [w.value[:60] for w in overflowing(WIDGETS[name][0]())]
    assert not too_wide, f"{name}: HTML widgets of width 100% (and 2 px margins): {too_wide}"


def test_control_flow_boxes_have_the_room_their_values_need_and_stay_put():
    """Room for the labels the slider's range gives (not a generic `= -0.00000` on every box): the drawing is
    narrower, and moving the slider within a branch moves no box (every label inside its box: test_fit)."""
    c = cw.ControlFlowExplorer(programs.branch_with_cond, value=1.0, theme="presenter")
    boxes = render.node_boxes(c.static_view.value), render.node_boxes(c.dynamic_view.value)
    for x in (0.5, 2.9, -2.9):  # the other branch too: define-then-run's graph holds both
        c.set_input(x=x)
        assert render.node_boxes(c.static_view.value) == boxes[0], x
        if x > 0:
            assert render.node_boxes(c.dynamic_view.value) == boxes[1], x
    rec = trace.record(programs.branch_with_cond, "define-then-run", {"x": 1.0}, backward=False)
    generic = render.Layout(rec.graph, theme="presenter", reserve=[rec.final_state()], room="value")
    assert graphs(c)[0][0] < 0.9 * generic.width


def test_the_padding_graphs_have_a_focus_control():
    e = PaddingExplorer(spread=3, theme="presenter")
    kids = list(e.children)
    assert kids.index(e.focus.view) == kids.index(next(k for k in kids if e.focus.control in
                                                         getattr(k, "children", ()))) + 1
    both = e.focus.view.children[0].children
    assert both[0].children == (e.static_title, e.static_view) and both[1].children == (e.dynamic_title, e.dynamic_view)


def test_the_loops_are_drawn_under_the_slider_and_their_focus_control_and_fit_the_screen(tf_loops):
    from course_lib.lessons.unroll import UnrollExplorer

    unrolled, looped = tf_loops
    cl.set_theme("presenter")
    try:
        e = UnrollExplorer(unrolled, looped, n=3)
    finally:
        cl.set_theme("classroom")
    kids = list(e.children)
    assert e.slider in kids[0].children and e.focus.control in kids[0].children
    assert kids.index(e.focus.view) < kids.index(e.summary)
    shown = graphs(e)
    assert [off for _w, _h, off in shown] == [CHROME_PX + e.room()] * 2  # each scales to what the screen leaves
    assert ">tf.range</text>" in e.right.value and ">10 nodes</text>" in e.right.value  # one box, counted under
    assert label_px(shown, PROJECTOR) >= 20  # both side by side; focused, one graph: tests/browser/test_layout.py
