"""Each widget kind, driven in a real browser as a student would, with the graph checked after every action.

One notebook holds one widget of each kind; it is written at test time (so it always uses the current library)
into test-artifacts/, run once in JupyterLab, and then each test clicks, types and moves sliders in it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from . import labdriver
from .labdriver import open_notebook, run_all

ROOT = Path(__file__).resolve().parents[2]
CELLS = [
    "import course_lib.widgets as cw\nfrom course_lib import programs, trace",
    'cw.Stepper(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}))',
    'cw.ExpressionExplorer("sin(x*w + 1)")',
    "cw.ControlFlowExplorer(programs.branch_with_cond)",
    'cw.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})',
]
# Graphs each cell shows once its widget is drawn: the stepper one; the others a define-then-run and a define-by-run.
GRAPHS = {1: 1, 2: 2, 3: 2, 4: 2}

# In the browser: the visible text and the nodes of every *visible* SVG graph in one cell's output.
VIEW = """(k) => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')];
  const out = cells[k].querySelector('.jp-OutputArea');
  const shown = (el) => el.getClientRects().length > 0;
  const graphs = [...out.querySelectorAll('svg[role=img][id]')].filter(shown)
    .filter(s => !s.id.startsWith('course-legend'));
  const count = (s, cls) => [...s.querySelectorAll('g.node' + cls)].length;
  return {
    text: out.innerText,
    graphs: graphs.map(s => ({all: count(s, ''), hidden: count(s, '.hidden'), done: count(s, '.done'),
                              running: count(s, '.running'), defined: count(s, '.defined')})),
  };
}"""


@pytest.fixture(scope="module")
def widgets_page(lab, browser, artifacts):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    path = artifacts / "widgets_check.ipynb"
    nbformat.write(nb, path)
    ctx = browser.new_context(viewport={"width": 1400, "height": 1600})  # tall: a widget fits in one screenshot
    page = ctx.new_page()
    open_notebook(page, lab, path.relative_to(ROOT).as_posix())
    run_all(page)
    # run-all settles before the widget views attach: wait until every cell shows its graphs (or a view failed)
    drawn = f"""() => {{
      if (document.querySelector('.jupyter-widgets-error-widget')) return true;
      const want = {json.dumps(GRAPHS)};
      return Object.entries(want).every(([k, n]) => ({VIEW})(Number(k)).graphs.length >= n);
    }}"""
    try:
        page.wait_for_function(drawn, timeout=30_000, polling=200)
    except PlaywrightTimeout:
        pass  # test_every_widget_rendered says which cell is missing what
    yield page
    ctx.close()


def view(page, k: int) -> dict:
    return page.evaluate(VIEW, k)


def output(page, k: int):
    return page.locator(".jp-Notebook .jp-CodeCell").nth(k).locator(".jp-OutputArea")


def wait_until(page, k: int, test, what: str, timeout: float = 20.0) -> dict:
    """Poll cell ``k``'s view until ``test(view)`` holds; on timeout the message shows what the cell shows."""
    last: list[dict] = []

    def holds() -> dict | None:
        last[:] = [view(page, k)]
        return last[0] if test(last[0]) else None

    try:
        return labdriver.wait_until(holds, f"cell {k}: {what}", timeout)
    except TimeoutError as e:
        v = last[0]
        raise AssertionError(f"{e}; the output says: {v['text'][:400]!r}, graphs {v['graphs']}") from None


def test_every_widget_rendered(widgets_page, artifacts):
    page = widgets_page
    assert page.get_by_text("Error displaying widget").count() == 0
    assert page.locator(".jupyter-widgets-error-widget").count() == 0
    for k in range(1, len(CELLS)):
        v = view(page, k)
        assert len(v["graphs"]) == GRAPHS[k], f"cell {k} ({CELLS[k]}) shows {len(v['graphs'])} graphs, not " \
            f"{GRAPHS[k]}: {v['text'][:300]!r}"
        output(page, k).screenshot(path=str(artifacts / f"widget-{k}.png"), animations="disabled")


def test_stepper_next_and_play_move_through_the_events(widgets_page):
    page = widgets_page
    v0 = view(page, 1)
    assert "step 0 of 11" in v0["text"] and v0["graphs"][0]["done"] == 0
    out = output(page, 1)
    out.get_by_role("button", name="Next ▶").click()
    v1 = wait_until(page, 1, lambda v: "step 1 of 11" in v["text"], "Next ▶ → step 1")
    assert v1["graphs"][0]["running"] == 1  # the input x appears with its value
    out.get_by_role("button", name="Next ▶").click()
    out.get_by_role("button", name="Next ▶").click()
    v3 = wait_until(page, 1, lambda v: "step 3 of 11" in v["text"], "two more Next ▶ → step 3")
    assert v3["graphs"][0]["done"] == 2 and v3["graphs"][0]["hidden"] == v3["graphs"][0]["all"] - 3
    # the Python line being executed, marked ▶ before its line number (the Next ▶ button alone would not match)
    assert re.search(r"▶\s+\d+\s+h = x \* w", v3["text"]), v3["text"][:400]
    out.get_by_role("button", name="◀ Previous").click()
    wait_until(page, 1, lambda v: "step 2 of 11" in v["text"], "◀ Previous → step 2")
    out.locator(".widget-play button").first.click()  # Play: runs in the browser, no kernel round trip
    wait_until(page, 1, lambda v: "step 11 of 11" in v["text"], "Play → the last step", timeout=30)
    assert "BACKWARD" in view(page, 1)["text"]  # the phase badge of the last step (step 0 shows START)


def type_expression(page, k: int, text: str) -> None:
    box = output(page, k).locator("input[type=text]").first
    box.fill(text)
    box.press("Enter")


def test_expression_explorer_typing_and_errors(widgets_page):
    page = widgets_page
    before = view(page, 2)
    assert len(before["graphs"]) == 2
    type_expression(page, 2, "tanh(a) * b + c")
    after = wait_until(page, 2, lambda v: "At a = 1, b = 1, c = 1" in v["text"] and len(v["graphs"]) == 2,
                       "a new expression → new sliders and graphs")
    assert after["graphs"][1]["all"] == 6  # define-by-run recorded a, tanh, b, mul, c, add
    assert after["graphs"][0]["all"] != before["graphs"][0]["all"]  # a new static graph (with its gradient nodes)
    assert after["graphs"][1]["done"] == 6
    type_expression(page, 2, "sin(x")
    err = wait_until(page, 2, lambda v: "not a valid expression" in v["text"], "an inline error for 'sin(x'")
    assert err["graphs"] == after["graphs"]  # the last good graphs stay
    type_expression(page, 2, "open(x)")
    wait_until(page, 2, lambda v: "unknown function 'open'" in v["text"], "an inline error for open(x)")
    type_expression(page, 2, "x * y")
    ok = wait_until(page, 2, lambda v: "not a valid" not in v["text"] and "unknown function" not in v["text"]
                    and "At x = 1, y = 1" in v["text"], "recovery after errors")
    assert ok["graphs"][1]["all"] == 3


def test_expression_explorer_slider_changes_values(widgets_page):
    page = widgets_page
    type_expression(page, 2, "x * y")
    wait_until(page, 2, lambda v: "At x = 1, y = 1" in v["text"], "x * y shown")
    before = view(page, 2)["text"]
    handle = output(page, 2).locator(".noUi-handle").first
    handle.focus()
    for _ in range(5):
        handle.press("ArrowRight")
    wait_until(page, 2, lambda v: v["text"] != before, "moving the x slider changes the values")


def test_control_flow_explorer_dynamic_graph_changes_static_does_not(widgets_page):
    page = widgets_page
    start = view(page, 3)
    static0, dynamic0 = (g["all"] for g in start["graphs"][:2])
    handle = output(page, 3).locator(".noUi-handle").first
    handle.focus()
    handle.press("Home")  # x to its minimum: the other branch
    moved = wait_until(page, 3, lambda v: len(v["graphs"]) == 2 and v["graphs"][1]["all"] != dynamic0,
                       "the define-by-run graph changes shape for a negative x")
    assert moved["graphs"][0]["all"] == static0  # define-then-run: one graph for every input


def test_side_by_side_steps_both_styles_together(widgets_page):
    page = widgets_page
    out = output(page, 4)
    v0 = view(page, 4)
    assert len(v0["graphs"]) == 2
    out.get_by_role("button", name="Next ▶").click()
    v1 = wait_until(page, 4, lambda v: v["text"].count("step 1 of") == 2, "one Next ▶ moves both sides")
    left, right = v1["graphs"]
    assert left["defined"] + left["running"] == 1 and left["done"] == 0  # build phase: no value yet
    assert right["running"] == 1  # define-by-run: the node appears with its value
