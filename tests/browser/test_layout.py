"""Each widget kind on a classroom projector: 1280×720, JupyterLab's Presentation Mode, the side bar hidden, the
presenter theme set (issue 13). Scrolled so the widget starts at the top of the notebook:

* ``test_widget_fits_the_screen`` (and on a 1366×768 laptop, file browser open, default theme): its main control
  and its graph(s) are inside the viewport together, and the page has no horizontal scrollbar. The padding
  explorer's "graph" is its grid of sentences (what its sliders change); its two unrolled graphs sit under the
  counts and each scales to a screen's height when scrolled to.
* ``test_graph_labels_readable_on_a_projector``: the smallest graph label is at least 24 px on screen.
* ``test_widget_words_readable_on_a_projector``: every word of the widget outside its pictures (slider names and
  read-outs, buttons, dropdowns, messages, tables, listings) is at least 20 px, and no control's name is cut short.

Screenshots are saved as artifacts (projector-<kind>.png).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .labdriver import open_notebook, run_all, wait_for_widget_views, wait_settled

ROOT = Path(__file__).resolve().parents[2]
SETUP = ("import course_lib as cl\nimport course_lib.widgets as cw\nfrom course_lib import programs, trace\n"
         "from course_lib.lessons import tree_widgets\n"
         "from course_lib.lessons.compile_explorer import CompileExplorer\n"
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
#: a classroom projector and a common laptop
SCREENS = {"projector": {"width": 1280, "height": 720}, "laptop": {"width": 1366, "height": 768}}
#: the graphs that must be on the screen with the control (all, unless a kind says which)
IN_VIEW = {"padding": 1}
#: Widget kinds whose graph labels are measured below 24 px at 1280x720 (issue 13 stays open for them). Two full
#: graphs side by side, or one graph of 15+ boxes with vectors in its labels, do not fit a 1050x600 px area at
#: 24 px text with these shapes and labels. Strict: the day one reaches 24 px its test fails until it is taken off
#: this list, so the list can only shrink with evidence.
SMALL_LABELS = {"side_by_side", "expression", "control_flow", "session", "padding", "tree"}
MIN_LABEL_PX = 24
MIN_WORDS_PX = 20

# Scroll cell k's output to the top of the notebook's scroller, then measure what a projector shows.
MEASURE = """([k, control]) => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')];
  const out = cells[k].querySelector('.jp-OutputArea');
  out.scrollIntoView({block: 'start'});
  const vh = window.innerHeight, vw = window.innerWidth;
  const shown = (el) => el.getClientRects().length > 0;
  const svgs = [...out.querySelectorAll('svg[role=img][id]')].filter(shown)
    .filter(s => !s.id.startsWith('course-legend'));
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  let ctl = null;
  const buttons = [...out.querySelectorAll('button, input, select, textarea, .widget-slider')].filter(shown);
  const main = control ? buttons.find(b => (b.innerText || '').trim() === control) : buttons[0];
  if (main) ctl = box(main);
  const fonts = svgs.flatMap(s => [...s.querySelectorAll('g.node text')].map(t => {
    const m = t.getScreenCTM();
    const f = parseFloat(t.getAttribute('font-size') || s.querySelector('g').getAttribute('font-size'));
    return f * Math.hypot(m.a, m.b);
  }));
  const scrollers = [document.scrollingElement,
                     ...document.querySelectorAll('.jp-WindowedPanel-outer, .jp-NotebookPanel-notebook')];
  const hscroll = scrollers.filter(e => e && e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.tagName);
  // the widget's words outside its pictures: every element with text of its own (labels, read-outs, buttons, HTML)
  const words = [...out.querySelectorAll('*')].filter(el => shown(el) && !el.closest('svg')
      && el.closest('[class*="course-ui-"]') && [...el.childNodes].some(c => c.nodeType === 3 && c.textContent.trim()))
    .map(el => [parseFloat(getComputedStyle(el).fontSize), el.textContent.trim().slice(0, 40)]);
  words.sort((a, b) => a[0] - b[0]);
  // a control's name cut short with an ellipsis ("ops in the gra…"): its box is narrower than its words
  const clipped = [...out.querySelectorAll('.widget-label, .jupyter-widget-label, button, select')]
    .filter(el => shown(el) && el.closest('[class*="course-ui-"]') && el.scrollWidth > el.clientWidth + 1)
    .map(el => el.textContent.trim());
  return {vh, vw, control: ctl, graphs: svgs.map(box), minFont: fonts.length ? Math.min(...fonts) : null, hscroll,
          smallestWords: words.slice(0, 3), clipped};
}"""


def open_widgets(lab: Any, browser: Any, artifacts: Path, where: str) -> Any:
    """A page at the screen's size with every widget kind run: the projector in Presentation Mode with the side
    bar hidden and the presenter theme, the laptop with the file browser open and the default theme."""
    setup = SETUP if where == "projector" else SETUP.replace("cl.set_theme('presenter')", "")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(setup)] + [nbformat.v4.new_code_cell(c) for c, _ in WIDGETS.values()]
    path = artifacts / f"layout_check_{where}.ipynb"
    nbformat.write(nb, path)
    ctx = browser.new_context(viewport=SCREENS[where])
    page = ctx.new_page()
    open_notebook(page, lab, path.relative_to(ROOT).as_posix())
    if where == "projector":
        for command in ("application:toggle-presentation-mode", "application:toggle-left-area"):
            page.evaluate(f"window.jupyterapp.commands.execute('{command}')")
    run_all(page)
    wait_for_widget_views(page, len(WIDGETS))
    # every widget's graph drawn, then the notebook laid out for this screen (Presentation Mode, side bar, theme)
    drawn = f"""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].slice(1, {len(WIDGETS) + 1})
      .every(c => c.querySelector('.jp-OutputArea svg[role=img][id]'))"""
    try:
        page.wait_for_function(drawn, timeout=60_000, polling=200)
    except PlaywrightTimeout:
        pass  # test_widget_fits_the_screen says which widget shows no graph
    wait_settled(page, ".jp-Notebook .jp-OutputArea", f"the {where}'s widgets")
    return ctx, page


@pytest.fixture(scope="module")
def projector(lab, browser, artifacts):
    ctx, page = open_widgets(lab, browser, artifacts, "projector")
    yield page
    ctx.close()


@pytest.fixture(scope="module")
def laptop(lab, browser, artifacts):
    ctx, page = open_widgets(lab, browser, artifacts, "laptop")
    yield page
    ctx.close()


def measure(page: Any, artifacts: Path, kind: str, where: str = "projector") -> dict[str, Any]:
    k = list(WIDGETS).index(kind) + 1
    m = page.evaluate(MEASURE, [k, WIDGETS[kind][1]])
    wait_settled(page, ".jp-Notebook .jp-OutputArea", f"{kind} scrolled to the top")  # the picture of what was measured
    page.screenshot(path=str(artifacts / f"{where}-{kind}.png"))
    print(where, kind, json.dumps(m))
    return m


def fit_problems(m: dict[str, Any], kind: str) -> list[str]:
    """What keeps a widget from being seen whole on the screen, in words (empty: it fits)."""
    problems = []
    if m["control"] is None:
        problems.append("no control found")
    elif not (0 <= m["control"]["top"] and m["control"]["bottom"] <= m["vh"]):
        problems.append(f"control off screen: {m['control']}")
    if not m["graphs"]:
        problems.append("no graph shown")
    for g in m["graphs"][: IN_VIEW.get(kind)]:
        if not (g["top"] >= 0 and g["bottom"] <= m["vh"] + 1):
            problems.append(f"graph not inside the viewport: {g}")
        if g["right"] > m["vw"] + 1:
            problems.append(f"graph wider than the viewport: {g}")
    if m["hscroll"]:
        problems.append(f"horizontal scrollbar on {m['hscroll']}")
    return problems


def test_fit_problems_sees_a_widget_taller_than_the_screen():
    """The check itself: a graph running past the bottom, a control above the top, a scrollbar, are each caught."""
    ok = {"vh": 720, "vw": 1280, "control": {"top": 100, "bottom": 140}, "hscroll": [],
          "graphs": [{"top": 150, "bottom": 700, "left": 200, "right": 900}]}
    assert fit_problems(ok, "stepper") == []
    tall = {**ok, "graphs": [{"top": 150, "bottom": 1200, "left": 200, "right": 900}]}
    assert "graph not inside the viewport" in fit_problems(tall, "stepper")[0]
    assert fit_problems({**ok, "control": {"top": -40, "bottom": 0}}, "stepper")
    assert fit_problems({**ok, "hscroll": ["jp-WindowedPanel-outer"]}, "stepper")


@pytest.mark.parametrize("kind", list(WIDGETS))
@pytest.mark.parametrize("where", list(SCREENS))
def test_widget_fits_the_screen(request, artifacts, where, kind):
    m = measure(request.getfixturevalue(where), artifacts, kind, where)
    problems = fit_problems(m, kind)
    assert not problems, f"{where}, {kind}: " + "; ".join(problems)


@pytest.mark.parametrize("kind", [pytest.param(k, marks=pytest.mark.xfail(
    strict=True, reason="issue 13: labels below 24 px at 1280x720")) if k in SMALL_LABELS else k for k in WIDGETS])
def test_graph_labels_readable_on_a_projector(projector, artifacts, kind):
    m = measure(projector, artifacts, kind)
    assert m["minFont"] is not None, f"{kind}: no graph label measured"
    assert m["minFont"] >= MIN_LABEL_PX, f"{kind}: smallest graph label {m['minFont']:.1f} px < {MIN_LABEL_PX} px"


@pytest.mark.parametrize("kind", list(WIDGETS))
def test_widget_words_readable_on_a_projector(projector, artifacts, kind):
    m = measure(projector, artifacts, kind)
    assert m["smallestWords"], f"{kind}: no words measured"
    size, text = m["smallestWords"][0]
    assert size >= MIN_WORDS_PX, f"{kind}: {text!r} is {size:.1f} px < {MIN_WORDS_PX} px ({m['smallestWords']})"
    assert not m["clipped"], f"{kind}: words cut short in their box: {m['clipped']}"
