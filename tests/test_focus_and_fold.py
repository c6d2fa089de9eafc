"""SideBySide's focus control (both graphs, or one enlarged with the other as a thumbnail) and its folded gradient
nodes, wired in the browser: jslinks between the right traits, so both work with no kernel and in the static
edition (read back with site_tools.widget_state, as the site reads a saved notebook); the words in French; and no
child that overflows its box (the 4 px horizontal scrollbars)."""

from __future__ import annotations

import re

import pytest

from course_lib import programs, render, trace
from course_lib.i18n import set_language

W = pytest.importorskip("ipywidgets")
import course_lib.widgets as cw  # noqa: E402 - after the skip
from course_lib.widgets import focus, side_by_side, stepper  # noqa: E402
from course_lib.widgets.sizing import overflowing  # noqa: E402
from site_tools import widget_state as ws  # noqa: E402

INPUTS = {"x": 3.0, "w": 2.0}


@pytest.fixture(scope="module")
def presenter():
    return cw.SideBySide(programs.affine_sin, INPUTS, theme="presenter")


@pytest.fixture(scope="module")
def classroom():
    return cw.SideBySide(programs.affine_sin, INPUTS, theme="classroom")


def links_of(w) -> set[tuple]:
    """(source, attribute, target, attribute) of every jslink the widget keeps."""
    found = [*w.controls.links, w.focus.link, *(lk for p in w.panes.values() for lk in p.links)]
    return {(lk.source[0], lk.source[1], lk.target[0], lk.target[1]) for lk in found}


def nodes(html: str) -> int:
    return len(re.findall(r'<g class="node ', html))


# ---------------------------------------------------------------------------------------------------- focus
def test_the_focus_control_selects_an_arrangement_in_the_browser(presenter):
    f = presenter.focus
    assert (f.control, "index", f.view, "selected_index") in links_of(presenter)
    assert f.control.options == ("both", "define-then-run", "define-by-run") and f.control.index == 0
    assert len(f.view.children) == 3 and f.view.selected_index == 0
    assert f.control in presenter.children[2].children  # on the view's row, under the clock's
    assert presenter.fold in presenter.children[-2].children  # with the speed, last: the backward pass unfolds


def test_each_focus_shows_the_same_widgets_enlarged_and_the_other_picture_as_a_thumbnail(presenter):
    then, by = presenter.panes["define-then-run"], presenter.panes["define-by-run"]
    both = presenter.focus.view.children[0]
    assert [box.children for box in both.children] == [(then.title, then.picture, then.text),
                                                        (by.title, by.picture, by.text)]
    for k, (big_pane, small_pane) in enumerate([(then, by), (by, then)], start=1):
        big, small = presenter.focus.view.children[k].children
        assert "course-focused" in big._dom_classes and "course-thumbnail" in small._dom_classes
        assert big.children == (big_pane.title, big_pane.picture, big_pane.text)  # the very widgets: one clock
        assert small.children[-1] is small_pane.picture
        assert big.layout.flex.split()[0] > small.layout.flex.split()[0]


def test_stepping_is_unchanged_by_focus(presenter):
    """Every view of the frames follows the step slider: the words, the graph, the folded graph."""
    slider = presenter.controls.slider
    linked = links_of(presenter)
    for pane in presenter.panes.values():
        for view in pane.stepped:
            assert (slider, "value", view, "selected_index") in linked
    assert presenter.panes["define-then-run"].folded in presenter.panes["define-then-run"].stepped


# ---------------------------------------------------------------------------------------------------- fold
def test_presenter_folds_the_gradient_nodes_until_the_backward_pass(presenter):
    pane = presenter.panes["define-then-run"]
    assert pane.picture.children == (pane.folded, pane.graph) and pane.picture.selected_index == 0
    assert (presenter.fold, "index", pane.picture, "selected_index") in links_of(presenter)
    assert presenter.fold.options == ("folded", "shown") and presenter.fold.index == 0
    b = pane.unfold_at
    assert pane.trace.phase_at(b) == "backward" and pane.trace.phase_at(b - 1) == "run"
    folded, shown = pane.folded.children, pane.graph.children
    assert all(folded[k] is shown[k] for k in range(b, len(shown)))  # backward: the unfolded frames, not copies
    assert all(folded[k] is not shown[k] for k in range(b))
    before = folded[b - 1].value
    assert "gradients · 4 nodes" in before and nodes(before) == nodes(shown[b - 1].value) - 3
    # the panes share the width by the widest graph the pane shows (unfolded, at the backward pass): the folded
    # share squeezed it to 19.7 px at 1280x720
    assert pane.width == pane.frames.layout.width > pane.folded_frames.layout.width


def test_classroom_draws_every_gradient_node_and_has_no_fold_control(classroom):
    pane = classroom.panes["define-then-run"]
    assert classroom.fold is None and pane.folded is None and pane.picture is pane.graph
    assert "gradients ·" not in pane.graph.children[5].value
    forced = cw.SideBySide(programs.affine_sin, INPUTS, fold=True)
    assert forced.fold is not None and forced.panes["define-then-run"].folded is not None


def test_define_by_run_has_nothing_to_fold(presenter):
    pane = presenter.panes["define-by-run"]
    assert not stepper.foldable(pane.trace) and pane.folded is None and pane.picture is pane.graph


def test_a_large_trace_folds_and_unfolds_through_the_kernel():
    w = cw.SideBySide(programs.affine_sin, INPUTS, theme="presenter", max_bytes=1)
    pane = w.panes["define-then-run"]
    assert not pane.in_browser and w.fold is not None
    last = pane.unfold_at - 1  # the last step before the backward pass: every gradient node defined
    w.go(last)
    folded = pane.graph.value
    w.fold.index = 1
    assert nodes(pane.graph.value) == nodes(folded) + 3 and f"step {last} of" in pane.text.value
    w.fold.index = 0
    assert pane.graph.value == folded
    w.go(len(pane.trace))  # the backward pass: unfolded whatever the control says
    assert "gradients ·" not in pane.graph.value


# ---------------------------------------------------------------------------------------------------- the page
def test_the_step_words_sit_under_the_graphs_in_room_kept_for_them():
    sizes = cw.Sizes.of(render.get_theme("presenter"))
    room = side_by_side.graph_room(sizes, words_on_screen=True)
    assert room > side_by_side.graph_room(sizes, words_on_screen=False) + 2 * sizes.ui  # two lines at least
    w = cw.SideBySide(programs.affine_sin, INPUTS, theme="presenter")
    graph = w.panes["define-by-run"].graph.children[3].value
    assert f"max-height:calc(100vh - {room + cw.sizing.CHROME_PX}px)" in graph
    words = w.panes["define-by-run"].text.children[3].value
    seen = re.sub(r"<[^>]+>", "", words)
    assert "step 3 of 11" in seen and "values flow through the graph" not in seen  # the phase's words: a tooltip
    assert 'title="values flow through the graph"' in words


def test_on_a_projector_each_graph_has_a_one_line_title_and_the_sentence_as_its_tooltip(presenter, classroom):
    title = presenter.panes["define-by-run"].title.value
    assert ">Define-by-run (PyTorch)</div>" in title and 'title="Define-by-run (PyTorch): run as you build"' in title
    assert ">Define-by-run (PyTorch): run as you build</div>" in classroom.panes["define-by-run"].title.value
    sizes = cw.Sizes.of(render.get_theme("presenter"))
    short, long = (side_by_side.graph_room(sizes, True, "f: h", (t,)) for t in ("A title", "A title " * 8))
    assert long - short == cw.sizing.lines_px(sizes.title)  # a title that takes two lines is counted so
    french = "affine_sin : le même programme, pas à pas dans les deux styles, sur une seule horloge"
    assert side_by_side.graph_room(sizes, True, french) - side_by_side.graph_room(sizes, True, "f: h") == \
        cw.sizing.lines_px(sizes.heading)


@pytest.mark.parametrize("make", [lambda: cw.SideBySide(programs.affine_sin, INPUTS, theme="presenter"),
                                  lambda: cw.SideBySide(programs.affine_sin, INPUTS),
                                  lambda: cw.Stepper(trace.record(programs.affine_sin, "define-by-run", INPUTS))])
def test_no_child_overflows_its_box(make):
    """A widget that is not a box, given width:100%, overflows its box by ipywidgets' 2 px margins each side."""
    assert overflowing(make()) == []


def test_overflowing_finds_a_full_width_html_in_a_box():
    box = W.VBox([W.HTML("x", layout=W.Layout(width="100%")), W.HBox([W.HTML("y")], layout=W.Layout(width="100%"))])
    assert overflowing(box) == [box.children[0]]


def test_the_saved_state_works_in_the_static_edition(presenter):
    """What the site reads from a saved notebook: the focus and fold controls are live (no "needs a running
    course" note, not greyed), every frame Stack steps with the slider."""
    models = W.Widget.get_manager_state(drop_defaults=False)["state"]
    root = presenter.model_id
    greyed = set(ws.kernel_only(models, root))
    assert presenter.focus.control.model_id not in greyed and presenter.fold.model_id not in greyed
    assert {presenter.controls.prev.model_id, presenter.controls.next.model_id} <= greyed  # Python callbacks
    stacks, controls = ws.step_controls(models, root)
    frames = {v.model_id for p in presenter.panes.values() for v in p.stepped}
    assert frames <= set(stacks) and presenter.controls.slider.model_id in controls
    assert presenter.focus.view.model_id not in stacks  # it follows the focus control, not the clock


# ---------------------------------------------------------------------------------------------------- French
def test_the_focus_and_fold_controls_speak_french():
    set_language("fr")
    try:
        w = cw.SideBySide(programs.affine_sin, INPUTS, theme="presenter")
    finally:
        set_language("en")
    assert w.focus.control.options == ("les deux", "définir-puis-exécuter", "définir-en-exécutant")
    assert w.fold.options == ("repliés", "affichés")
    rows = " ".join(c.value for box in w.children if isinstance(box, W.HBox) for c in box.children
                    if isinstance(c, W.HTML))
    assert "Afficher\u00a0:" in rows and "Nœuds de gradient\u00a0:" in rows
    assert all("\u00a0" in t or ":" not in t for t in w.fold.tooltips)
    assert focus.FOCUS_TIP != w.focus.control.tooltips[1] and "agrandi" in w.focus.control.tooltips[1]
