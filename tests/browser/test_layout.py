"""Each widget kind on a classroom projector: 1280×720, JupyterLab's Presentation Mode, the side bar hidden, the
presenter theme set (issue 13). For each widget: its main control and its graph are inside the viewport together
(scrolled so the widget starts at the top), the page has no horizontal scrollbar, and the graph's labels are at
least 24 px on screen. Screenshots are saved as artifacts.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from .labdriver import open_notebook, run_all, wait_for_widget_views

ROOT = Path(__file__).resolve().parents[2]
SETUP = ("import course_lib as cl\nimport course_lib.widgets as cw\nfrom course_lib import programs, trace\n"
         "from course_lib.lessons import tree_widgets\nfrom course_lib.lessons.compile_explorer import CompileExplorer\n"
         "from course_lib.lessons.padding_explorer import PaddingExplorer\n"
         "from course_lib.lessons.session_explorer import SessionExplorer\ncl.set_theme('presenter')")
#: widget kind -> (constructor cell, the accessible name of its main control)
WIDGETS = {
    "stepper": ('cw.Stepper(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}))', "Next ▶"),
    "side_by_side": ('cw.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})', "Next ▶"),
    "expression": ('cw.ExpressionExplorer("sin(x*w + 1)")', None),
    "control_flow": ("cw.ControlFlowExplorer(programs.branch_with_cond)", None),
    "session": ('SessionExplorer(feeds={"x": 3.0, "w": 2.0})', None),
    "compile": ("CompileExplorer(ops=6, timings=False)", None),
    "padding": ("PaddingExplorer(spread=3)", None),
    "tree": ('tree_widgets.TreeExplorer("((the cat) (sat (on (the mat))))")', None),
}
VIEWPORT = {"width": 1280, "height": 720}
#: Widget kinds measured NOT to fit yet (issue 13 is open: the layout work is still to do). Strict: the day one fits,
#: its test fails until it is taken off this list, so the list can only shrink with evidence.
NOT_YET = {"stepper", "side_by_side", "expression", "control_flow", "session", "compile", "padding", "tree"}
MIN_LABEL_PX = 24

# Scroll cell k's output to the top of the notebook's scroller, then measure what a projector shows.
MEASURE = """([k, control]) => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')];
  const out = cells[k].querySelector('.jp-OutputArea');
  out.scrollIntoView({block: 'start'});
  const vh = window.innerHeight, vw = window.innerWidth;
  const shown = (el) => el.getClientRects().length > 0;
  const svgs = [...out.querySelectorAll('svg[role=img][id]')].filter(shown)
    .filter(s => !s.id.startsWith('course-legend'));
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  let ctl = null;
  const buttons = [...out.querySelectorAll('button, input, select, textarea, .widget-slider')].filter(shown);
  const main = control ? buttons.find(b => (b.innerText || '').trim() === control) : buttons[0];
  if (main) ctl = box(main);
  const fonts = svgs.flatMap(s => [...s.querySelectorAll('g.node text')].map(t => {
    const m = t.getScreenCTM(); const f = parseFloat(t.getAttribute('font-size') || s.querySelector('g').getAttribute('font-size'));
    return f * Math.hypot(m.a, m.b);
  }));
  const scrollers = [document.scrollingElement, ...document.querySelectorAll('.jp-WindowedPanel-outer, .jp-NotebookPanel-notebook')];
  const hscroll = scrollers.filter(e => e && e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.tagName);
  return {vh, vw, control: ctl, graphs: svgs.map(box), minFont: fonts.length ? Math.min(...fonts) : null, hscroll};
}"""


@pytest.fixture(scope="module")
def projector(lab, browser, artifacts):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP)] + [nbformat.v4.new_code_cell(c) for c, _ in WIDGETS.values()]
    path = artifacts / "layout_check.ipynb"
    nbformat.write(nb, path)
    ctx = browser.new_context(viewport=VIEWPORT)
    page = ctx.new_page()
    open_notebook(page, lab, path.relative_to(ROOT).as_posix())
    for command in ("application:toggle-presentation-mode", "application:toggle-left-area"):
        page.evaluate(f"window.jupyterapp.commands.execute('{command}')")
    run_all(page)
    wait_for_widget_views(page, len(WIDGETS))
    page.wait_for_timeout(1500)
    yield page
    ctx.close()


@pytest.mark.parametrize("kind", [pytest.param(k, marks=pytest.mark.xfail(
    strict=True, reason="issue 13: does not fit a 1280x720 projector yet")) if k in NOT_YET else k for k in WIDGETS])
def test_widget_fits_a_projector(projector, artifacts, kind):
    page = projector
    k = list(WIDGETS).index(kind) + 1
    m = page.evaluate(MEASURE, [k, WIDGETS[kind][1]])
    page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts / f"projector-{kind}.png"))
    print(kind, json.dumps(m))
    problems = []
    if m["control"] is None:
        problems.append("no control found")
    elif not (0 <= m["control"]["top"] and m["control"]["bottom"] <= m["vh"]):
        problems.append(f"control off screen: {m['control']}")
    if not m["graphs"]:
        problems.append("no graph shown")
    for g in m["graphs"]:
        if not (g["top"] >= 0 and g["bottom"] <= m["vh"] + 1):
            problems.append(f"graph not inside the viewport: {g}")
        if g["right"] > m["vw"] + 1:
            problems.append(f"graph wider than the viewport: {g}")
    if m["hscroll"]:
        problems.append(f"horizontal scrollbar on {m['hscroll']}")
    if m["minFont"] is not None and m["minFont"] < MIN_LABEL_PX:
        problems.append(f"smallest graph label {m['minFont']:.1f} px < {MIN_LABEL_PX} px")
    assert not problems, f"{kind}: " + "; ".join(problems)
