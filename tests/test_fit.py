"""Graphs that fit the screen (issue 13): the CSS height a widget's graph scales down to, and labels that stay
inside their shapes whatever the theme."""

from __future__ import annotations

import re

import pytest

from course_lib import programs, render, trace
from course_lib.render.svg import shape

pytest.importorskip("ipywidgets")
import course_lib.widgets as cw
from course_lib.widgets.sizing import CHROME_PX, fit_height

INPUT_MARGIN_PT = 0.3 * 72  # dot._node_line gives an input box 0.3 in of room on each side of its text


def svg_style(svg: str) -> str:
    return re.search(r'<svg [^>]*style="([^"]*)"', svg).group(1)


def test_a_graph_scales_to_a_height_only_when_asked():
    tr = trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})
    free = render.Frames(tr).svg(3)
    fitted = render.Frames(tr, max_height="calc(100vh - 200px)").svg(3)
    assert "max-height" not in svg_style(free)
    assert "max-height:calc(100vh - 200px)" in svg_style(fitted) and "width:auto" in svg_style(fitted)
    assert render.node_boxes(free) == render.node_boxes(fitted)  # the same drawing, only its size on the page


def test_fit_height_counts_the_chrome_and_what_is_above():
    assert fit_height(100) == f"calc(100vh - {CHROME_PX + 100}px)"
    assert fit_height(0) != fit_height(100)


@pytest.mark.parametrize("theme", ["classroom", "presenter"])
def test_stepper_graph_beside_its_words_fits_every_step(theme):
    s = cw.Stepper(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}), theme=theme)
    graphs = [h.value for h in s.pane.graph.children]
    assert all(f"max-height:{fit_height(0)}" in svg_style(g) for g in graphs)
    assert all("<svg" not in t.value for t in s.pane.text.children)  # words and graph are separate columns
    row = s.children[0]
    assert s.pane.graph in row.children and s.controls.next in row.children[0].children[1].children


def test_side_by_side_graphs_fit_under_the_controls():
    w = cw.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    for pane in w.panes.values():
        assert "max-height:calc(100vh" in svg_style(pane.graph.children[5].value)


@pytest.mark.parametrize("lines", [1, 2, 3, 4])
@pytest.mark.parametrize("theme", ["classroom", "presenter"])
def test_an_input_parallelogram_never_slants_into_its_text(theme, lines):
    """The slant of an input's outline stays inside the side margin its text was given, so no line of a
    multi-line label ("▶ x / = 3 / grad = 1.508") crosses the outline (it did in the presenter theme)."""
    size = render.get_theme(theme).fontsize
    h = lines * 1.2 * size + 7.2
    for text_w in (20.0, 80.0, 200.0):
        w = text_w + 2 * INPUT_MARGIN_PT
        points = re.search(r'points="([^"]+)"', shape("input", 0, 0, w, h)).group(1)
        pts = [tuple(map(float, p.split(","))) for p in points.split()]
        slant = pts[0][0] - pts[3][0]
        assert 0 < slant <= INPUT_MARGIN_PT


def test_plots_follow_the_theme():
    """A plot's legend, ticks and lines grow with the presenter theme (05's legend was 8 pt whatever the theme)."""
    pytest.importorskip("matplotlib")
    from course_lib.lessons import sequences as sq

    def sizes(theme: str) -> tuple[float, float, float]:
        render.set_theme(theme)
        try:
            ax = sq.plot_waste().get_axes()[0]
        finally:
            render.set_theme("classroom")
        return (ax.get_legend().get_texts()[0].get_fontsize(), ax.get_xticklabels()[0].get_fontsize(),
                ax.get_lines()[0].get_linewidth())

    small, big = sizes("classroom"), sizes("presenter")
    assert all(b > s for s, b in zip(small, big, strict=True))
    assert big[0] >= 12  # a legend read from the back of a room: at least 12 pt
