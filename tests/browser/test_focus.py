"""SideBySide on a classroom projector (1280×720, Presentation Mode, side bar hidden, presenter theme), driven as an
instructor would, in English and in French, with the kernel shut down once the widget is drawn: what the focus and
the fold controls do must happen in the browser alone (jslinks), as in the static edition.

* ``test_step_words_stay_on_screen_with_the_graphs``: scrolled to the top, each pane's step line (badge, "step k of
  n") and the event are inside the screen, under the graphs.
* ``test_focus_enlarges_one_graph_without_a_kernel``: clicking a graph's name on the Show control draws that graph
  at least as large, its labels at least 24 px, and the other as a thumbnail; "both" gives both back. Both graphs
  shown, every label is at least 20 px. The widest graph (define-then-run, gradient nodes unfolded), drawn smaller
  beside the other, grows when focused.
* ``test_gradient_nodes_unfold_without_a_kernel``: the define-then-run gradient nodes start folded into one box and
  "shown" draws each of them.

In every state, no box of the widget has a horizontal scrollbar of its own.

Screenshots are saved as artifacts (focus-both.png, focus-define-by-run.png, focus-unfolded.png...).
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from course_lib.i18n import gettext as _
from course_lib.i18n import set_language

from .labdriver import open_notebook, run_all, wait_settled

ROOT = Path(__file__).resolve().parents[2]
CELLS = ["import course_lib as cl\nimport course_lib.widgets as cw\nfrom course_lib import programs\n"
         "cl.set_theme('presenter'); cl.set_language('{lang}')",
         'cw.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})']
OUT = ".jp-Notebook .jp-CodeCell:nth-child(2) .jp-OutputArea"
MIN_FOCUSED_PX, MIN_BOTH_PX = 24, 20  # issue 26: one (focused) graph, both graphs shown
STEP = "step {k} of {n}"  # the step counter's message (widgets/stepper.py)

# The widget's graphs as drawn now: for each visible graph (legend aside) its box, the median label size on screen,
# its boxes, and whether it sits in the focused column or among the thumbnails; the words "step k of n" with their
# boxes; the boxes that scroll sideways; the viewport.
GRAPHS = """([sel, step]) => {
  const out = document.querySelector(sel);
  const shown = (el) => el.getClientRects().length > 0;
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[s.length >> 1] : null; };
  const graphs = [...out.querySelectorAll('svg[role=img][id]')].filter(shown)
    .filter(s => !s.id.startsWith('course-legend')).map(s => {
      const px = [...s.querySelectorAll('g.node text')].map(t => {
        const m = t.getScreenCTM();
        const f = parseFloat(t.getAttribute('font-size') || s.querySelector('g').getAttribute('font-size'));
        return f * Math.hypot(m.a, m.b);
      });
      const r = s.getBoundingClientRect();
      return {id: s.id, px: median(px), nodes: s.querySelectorAll('g.node').length, top: r.top, bottom: r.bottom,
              width: r.width, focused: !!s.closest('.course-focused'), thumb: !!s.closest('.course-thumbnail')};
    });
  const steps = [...out.querySelectorAll('b')].filter(b => shown(b) && new RegExp(`^${step}$`).test(b.textContent))
    .map(b => { const r = b.parentElement.nextElementSibling.getBoundingClientRect();
                return {text: b.textContent, bottom: Math.max(b.getBoundingClientRect().bottom, r.bottom)}; });
  // a box of the widget with a horizontal scrollbar of its own (a child wider than it)
  const scrolled = [...out.querySelectorAll('*')].filter(e => shown(e)
      && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1)
    .map(e => `${e.className} (${e.scrollWidth} > ${e.clientWidth})`);
  return {graphs, steps, scrolled, vh: window.innerHeight};
}"""


@pytest.fixture(scope="module", params=["en", "fr"])
def projector(request, lab, browser, artifacts):
    lang = request.param
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c.replace("{lang}", lang)) for c in CELLS]
    path = artifacts / f"focus_check_{lang}.ipynb"
    nbformat.write(nb, path)
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    open_notebook(page, lab, path.relative_to(ROOT).as_posix())
    for command in ("application:toggle-presentation-mode", "application:toggle-left-area"):
        page.evaluate(f"window.jupyterapp.commands.execute('{command}')")
    run_all(page)
    try:
        page.wait_for_function(f"() => document.querySelectorAll('{OUT} svg[role=img][id]').length >= 3",
                               timeout=60_000, polling=200)
    except PlaywrightTimeout:
        pytest.fail("SideBySide drew no graphs: " + page.locator(OUT).inner_text()[:400])
    # from here on, no kernel: every control tested must work in the page alone, as in the static edition
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.shutdown()")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel"
                           " || window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'dead'",
                           timeout=30_000, polling=200)
    page.lang = lang  # the words its buttons and steps say: said(page, ...)
    yield page
    ctx.close()


def said(page, msgid: str, **values) -> str:
    """A message of the course as the page's widget says it (its language)."""
    set_language(page.lang)
    try:
        return _(msgid).format(**values)
    finally:
        set_language("en")


def graphs_now(page, artifacts: Path, shot: str) -> dict:
    """The widget scrolled to the top of the notebook (as an instructor shows it), once it stops moving."""
    page.locator(OUT).evaluate("o => o.scrollIntoView({block: 'start'})")
    wait_settled(page, OUT, f"SideBySide ({shot})")
    page.locator(OUT).evaluate("o => o.scrollIntoView({block: 'start'})")
    m = page.evaluate(GRAPHS, [OUT, said(page, STEP, k=0, n=0).replace("0", "\\d+")])
    shot = shot if page.lang == "en" else f"{page.lang}-{shot}"
    page.screenshot(path=str(artifacts / f"focus-{shot}.png"))
    print(shot, json.dumps(m))
    assert not m["scrolled"], f"{shot}: boxes with a horizontal scrollbar of their own: {m['scrolled']}"
    return m


def click(page, name: str, then: str) -> None:
    """Click the toggle button ``name`` (a message id, said in the page's language) of the widget, then wait for
    ``then`` (JavaScript over the output)."""
    page.locator(OUT).get_by_role("button", name=said(page, name), exact=True).click()
    try:
        page.wait_for_function(f"() => {{ const out = document.querySelector('{OUT}'); return {then}; }}",
                               timeout=15_000, polling=200)
    except PlaywrightTimeout:
        raise AssertionError(f"clicking {name!r} did not lead to: {then}") from None


def test_step_words_stay_on_screen_with_the_graphs(projector, artifacts):
    m = graphs_now(projector, artifacts, "both")
    assert [s["text"] for s in m["steps"]] == [said(projector, STEP, k=0, n=n) for n in (22, 11)], m["steps"]
    below = [s for s in m["steps"] if s["bottom"] > m["vh"]]
    assert not below, f"step words below the fold of a {m['vh']} px screen: {below}"
    assert all(g["bottom"] <= m["vh"] for g in m["graphs"]), m["graphs"]


def reset(page) -> None:
    """Both graphs, gradient nodes folded: the widget as it starts (whatever a failed test left)."""
    for name in ("both", "folded"):
        page.locator(OUT).get_by_role("button", name=said(page, name), exact=True).click()


def test_focus_enlarges_one_graph_without_a_kernel(projector, artifacts):
    reset(projector)
    both = graphs_now(projector, artifacts, "both")
    assert len(both["graphs"]) == 2 and not any(g["focused"] or g["thumb"] for g in both["graphs"])
    assert min(g["px"] for g in both["graphs"]) >= MIN_BOTH_PX, both["graphs"]
    for k, name in enumerate(("define-then-run", "define-by-run")):
        click(projector, name, "out.querySelector('.course-focused svg[role=img]')")
        one = graphs_now(projector, artifacts, name)
        big = [g for g in one["graphs"] if g["focused"]]
        thumbs = [g for g in one["graphs"] if g["thumb"]]
        assert len(big) == len(thumbs) == 1, one["graphs"]
        assert big[0]["id"] == both["graphs"][k]["id"] and thumbs[0]["id"] == both["graphs"][1 - k]["id"]
        assert big[0]["px"] >= max(MIN_FOCUSED_PX, both["graphs"][k]["px"] * 0.99), (name, big, both["graphs"])
        assert thumbs[0]["px"] < big[0]["px"] * 0.7, one["graphs"]  # the other graph, kept small beside it
        assert all(s["bottom"] <= one["vh"] for s in one["steps"]), one["steps"]
        click(projector, "both", "!out.querySelector('.course-focused svg[role=img]')")
    again = graphs_now(projector, artifacts, "both-again")
    assert [g["px"] for g in again["graphs"]] == pytest.approx([g["px"] for g in both["graphs"]], rel=0.01)
    # the unfolded define-then-run graph, the widest, is drawn smaller beside the other one: focused, it reaches
    # the one-graph size
    click(projector, "shown", "true")
    wide = graphs_now(projector, artifacts, "unfolded")["graphs"][0]
    click(projector, "define-then-run", "out.querySelector('.course-focused svg[role=img]')")
    big = [g for g in graphs_now(projector, artifacts, "unfolded-focused")["graphs"] if g["focused"]]
    assert big[0]["id"] == wide["id"] and big[0]["px"] >= max(MIN_FOCUSED_PX, wide["px"]), (wide, big)
    reset(projector)


def test_gradient_nodes_unfold_without_a_kernel(projector, artifacts):
    reset(projector)
    folded = graphs_now(projector, artifacts, "folded")["graphs"][0]
    click(projector, "shown", f"[...out.querySelectorAll('svg[role=img][id]')].some(s => "
                              f"s.getClientRects().length && s.querySelectorAll('g.node').length > {folded['nodes']})")
    unfolded = graphs_now(projector, artifacts, "unfolded")["graphs"][0]
    assert unfolded["nodes"] == folded["nodes"] + 3, (folded, unfolded)  # 4 gradient nodes instead of their one box
    click(projector, "folded", f"[...out.querySelectorAll('svg[role=img][id]')].some(s => "
                               f"s.getClientRects().length && s.querySelectorAll('g.node').length === "
                               f"{folded['nodes']})")


def test_the_backward_pass_unfolds_the_gradient_nodes_by_itself(projector, artifacts):
    """The step slider (jslinked to the frames) moved with the keyboard: half-way the gradient nodes are one box;
    at the last step, in the backward pass, each is drawn, though the fold control still says folded."""
    reset(projector)
    handle = projector.locator(OUT).locator(".widget-slider .noUi-handle").first
    handle.focus()
    handle.press("Home")
    for _k in range(11):
        handle.press("ArrowRight")
    mid = graphs_now(projector, artifacts, "step11")
    assert said(projector, STEP, k=11, n=22) in [s["text"] for s in mid["steps"]], mid["steps"]
    assert mid["graphs"][0]["nodes"] == 8, mid["graphs"]  # 7 boxes and the gradients' one
    handle.press("End")
    end = graphs_now(projector, artifacts, "step22")
    assert said(projector, STEP, k=22, n=22) in [s["text"] for s in end["steps"]], end["steps"]
    assert end["graphs"][0]["nodes"] == 11, end["graphs"]  # every gradient node, each with its value
    for m in (mid, end):  # what the step did stays on screen with the graphs, mid-way and at the end too
        assert all(s["bottom"] <= m["vh"] for s in m["steps"]), m["steps"]
        assert all(g["bottom"] <= m["vh"] and g["px"] >= MIN_BOTH_PX for g in m["graphs"]), m["graphs"]
    handle.press("Home")
