"""Labels inside their shapes, in every theme (issue 13): the course's SVG is drawn in a real Chromium with the fonts
a student's browser has, and every line of every box's label must lie inside the box's outline: an ellipse by its
equation, a parallelogram by its slanted sides, a stadium (the presenter theme's operation) by its round ends, any
other shape by its bounding box (labdriver.LABEL_SPILLS, which test_notebooks.py also runs on every widget). Graphviz
sized the boxes with Helvetica's metrics; a browser that draws a wider font would push text over the outline, and
this test sees it.
"""

from __future__ import annotations

import pytest

from course_lib import programs, render, trace
from course_lib.lessons import tree_rnn, trees
from course_lib.lessons.compiling.chains import StaticChain

from .labdriver import LABEL_SPILLS, wait_settled


def pictures(theme: str) -> list[str]:
    """Graphs with every kind of box and the longest labels the course draws: values and gradients, scopes,
    collapsed groups, vectors, a tree."""
    out = []
    for k, (program, inputs) in enumerate([(programs.affine_sin, {"x": 3.0, "w": 2.0}),
                                           (programs.branch_with_cond, {"x": -1.25})]):
        for style in ("define-then-run", "define-by-run"):
            tr = trace.record(program, style, inputs)
            frames = render.Frames(tr, theme=theme, prefix=f"p{k}{style[10:12]}")
            out += [frames.svg(len(tr)), frames.svg(len(tr) // 2)]
    chain = StaticChain(12)
    out.append(render.to_svg(chain.graph, collapse=4, rankdir="LR", theme=theme, prefix="chain"))
    net = tree_rnn.TreeRNN()
    h = net.encode(trees.parse("((the cat) (sat (on (the mat))))"))
    view = tree_rnn.graph_view(h, weights=False)
    out.append(render.to_svg(view, rankdir="BT", collapse=tree_rnn.cells(view) or False, theme=theme, prefix="tree"))
    return out


@pytest.mark.parametrize("theme", ["classroom", "presenter"])
def test_every_label_stays_inside_its_shape(browser, artifacts, theme):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    svgs = pictures(theme)
    page.set_content("<html><body style='margin:0'>" + "".join(f"<div>{s}</div>" for s in svgs) + "</body></html>")
    wait_settled(page, "svg", f"the {theme} graphs")  # laid out with the fonts they are drawn in
    spills = page.evaluate(LABEL_SPILLS, None)
    boxes = page.evaluate("document.querySelectorAll('g.node').length")
    page.screenshot(path=str(artifacts / f"labels-{theme}.png"), full_page=True)
    page.close()
    assert boxes > 60  # the pictures were drawn
    assert not spills, f"{len(spills)} label lines spill over their shapes ({theme}): {spills[:6]}"
