"""Labels inside their shapes, in every theme (issue 13): the course's SVG is drawn in a real Chromium with the fonts
a student's browser has, and every line of every box's label must lie inside the box's outline: an ellipse by its
equation, a parallelogram by its slanted sides, any other shape by its bounding box. Graphviz sized the boxes with
Helvetica's metrics; a browser that draws a wider font would push text over the outline, and this test sees it.
"""

from __future__ import annotations

import pytest

from course_lib import programs, render, trace
from course_lib.lessons import tree_rnn, trees
from course_lib.lessons.compiling.chains import StaticChain

from .labdriver import wait_settled

# For each box: every text line's box (getBBox, SVG units) against the outline; returns the boxes that spill over.
SPILLS = """() => {
  const out = [];
  const pad = 0.5;  // SVG units of tolerance: anti-aliasing, not a visible overlap
  for (const g of document.querySelectorAll('g.node')) {
    const shape = g.querySelector('ellipse, polygon, rect, path');
    for (const t of g.querySelectorAll('text')) {
      const b = t.getBBox();
      const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]];
      let bad = false;
      if (shape.tagName === 'ellipse') {
        const cx = +shape.getAttribute('cx'), cy = +shape.getAttribute('cy');
        const rx = +shape.getAttribute('rx') + pad, ry = +shape.getAttribute('ry') + pad;
        // the glyphs' ink, not the line box: a line box is taller than its letters by about a third
        const inset = b.height * 0.15;
        const inkY = y => Math.min(Math.max(y, b.y + inset), b.y + b.height - inset);
        bad = corners.some(([x, y]) => ((x - cx) / rx) ** 2 + ((inkY(y) - cy) / ry) ** 2 > 1);
      } else if (shape.tagName === 'polygon') {
        const p = shape.getAttribute('points').trim().split(/\\s+/).map(s => s.split(',').map(Number));
        // parallelogram (top-left, top-right, bottom-right, bottom-left): x limits at a height y
        const [tl, tr, br, bl] = p;
        const left = y => bl[0] + (tl[0] - bl[0]) * (bl[1] - y) / (bl[1] - tl[1]);
        const right = y => br[0] + (tr[0] - br[0]) * (br[1] - y) / (br[1] - tr[1]);
        const inset = b.height * 0.15;
        for (const y of [b.y + inset, b.y + b.height - inset]) {
          if (b.x < left(y) - pad || b.x + b.width > right(y) + pad) bad = true;
        }
      } else {
        const s = shape.getBBox();
        bad = b.x < s.x - pad || b.x + b.width > s.x + s.width + pad;
      }
      if (bad) out.push({svg: g.closest('svg').id, box: g.getAttribute('data-id'), text: t.textContent});
    }
  }
  return out;
}"""


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
    spills = page.evaluate(SPILLS)
    boxes = page.evaluate("document.querySelectorAll('g.node').length")
    page.screenshot(path=str(artifacts / f"labels-{theme}.png"), full_page=True)
    page.close()
    assert boxes > 60  # the pictures were drawn
    assert not spills, f"{len(spills)} label lines spill over their shapes ({theme}): {spills[:6]}"
