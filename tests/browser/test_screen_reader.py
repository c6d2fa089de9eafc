"""What a screen reader gets from the course in a real JupyterLab (issue 27), read from Chromium's accessibility
tree (the tree assistive technology is given, through the DevTools protocol's Accessibility domain):

* every graph is an image with a name and a description (the SVG's <title> and <desc>, course_lib/render/speech.py),
  and a stepper's graph says the step shown;
* the course's enhancer (labextension/course-a11y, installed by ./course setup) names ipywidgets' Play buttons and
  keeps a polite live region per stepping widget: a step taken says its sentence there; while Play runs the region
  keeps still, and says where Play stopped;
* the text given for three graphs, in English and in French (a small stepper mid-step, the side-by-side widget, a
  MobileNetV2 drawn from PyTorch), saved as test-artifacts/browser/screen-reader-<language>.txt.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from .labdriver import open_notebook, run_all, wait_for_widget_views

ROOT = Path(__file__).resolve().parents[2]
SETUP = ("import sys; sys.path.insert(0, {tests!r})\nimport torch\nimport course_lib as cl\n"
         "import course_lib.widgets as cw\nfrom course_lib import programs, trace\n"
         "from mobilenet_v2 import MobileNetV2")
#: each language's cells, in one notebook and one kernel: English (widgets 0 and 1), then French (2 and 3)
CELLS = [
    "cl.set_language({lang!r})",
    'cw.Stepper(trace.record(programs.affine_sin, "define-then-run", {{"x": 3.0, "w": 2.0}}))',
    'cw.SideBySide(programs.affine_sin, {{"x": 3.0, "w": 2.0}})',
    "cl.show(torch.fx.symbolic_trace(MobileNetV2().eval()))",
]
LANGS = ("en", "fr")
def ax_tree(page: Any) -> list[dict[str, Any]]:
    cdp = page.context.new_cdp_session(page)
    try:
        return cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()


def ax_value(node: dict[str, Any], key: str) -> str:
    return (node.get(key) or {}).get("value", "") or ""


def images(page: Any) -> list[tuple[str, str]]:
    """(name, description) of every image in the accessibility tree that is shown."""
    return [(ax_value(n, "name"), ax_value(n, "description")) for n in ax_tree(page)
            if ax_value(n, "role") == "image" and not n.get("ignored")]


def live_regions(page: Any) -> list[dict[str, str]]:
    out = []
    for n in ax_tree(page):
        props = {p["name"]: str(p["value"].get("value")) for p in n.get("properties", [])}
        if props.get("live") and ax_value(n, "role") == "status":
            out.append(props)
    return out


def open_course(lab: Any, browser: Any, artifacts: Path) -> tuple[Any, Any]:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP.format(tests=str(ROOT / "tests")))] + [
        nbformat.v4.new_code_cell(c.format(lang=lang)) for lang in LANGS for c in CELLS]
    path = artifacts / "screen_reader.ipynb"
    nbformat.write(nb, path)
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    open_notebook(page, lab, path.relative_to(ROOT).as_posix())
    run_all(page)
    wait_for_widget_views(page, 4)
    page.wait_for_function("() => document.querySelectorAll('.jp-OutputArea svg[role=img] > title').length >= 8",
                           timeout=60_000, polling=200)
    return ctx, page


@pytest.fixture(scope="module")
def english(lab, browser, artifacts):
    ctx, page = open_course(lab, browser, artifacts)
    yield page
    ctx.close()


def widget(page: Any, k: int) -> Any:
    """The k-th course widget's output (0: the stepper, 1: the side-by-side)."""
    return page.locator(".jp-OutputArea-output:has(> .jupyter-widgets)").nth(k)


def said_at(page: Any, k: int) -> str:
    """The hidden sentences of the frames shown in widget k (what its live region must say), read in the page."""
    return page.evaluate("(el) => window.courseA11y.said(el)", widget(page, k).locator("[class*=course-ui-]").first
                         .element_handle())


def live_text(page: Any, k: int) -> str:
    return widget(page, k).locator(".course-live").text_content()


def test_the_enhancer_is_loaded_and_names_play_buttons(english):
    assert english.evaluate("() => typeof window.courseA11y") == "object", \
        "the course-a11y extension is not loaded: run ./course setup (it copies labextension/ into .venv)"
    for k in (0, 1):
        buttons = widget(english, k).locator(".widget-play button")
        assert buttons.nth(0).get_attribute("aria-label") == "Play / pause the steps"
        assert buttons.nth(1).get_attribute("aria-label") == "Stop: back to step 0"
        assert buttons.nth(0).get_attribute("aria-pressed") == "false"


def test_every_graph_is_an_image_with_a_name_and_a_description(english):
    found = images(english)
    graphs = [(n, d) for n, d in found if n.startswith("Graph")]
    assert len(graphs) >= 4, found  # the stepper, the two panes, MobileNetV2
    assert all(d for _n, d in graphs), [n for n, d in graphs if not d]
    assert any(n.startswith("Graph fx MobileNetV2: 155 boxes") for n, _d in graphs)
    assert ("Legend of the graphs", found[[n for n, _ in found].index("Legend of the graphs")][1]) in found


def test_a_step_is_said_in_the_live_region_and_play_keeps_it_still(english):
    regions = live_regions(english)
    assert len(regions) >= 2 and all(r["live"] == "polite" and r["atomic"] == "True" for r in regions), regions
    stepper = widget(english, 0)
    stepper.get_by_role("button", name="Next ▶").click()
    english.wait_for_function("(el) => el.textContent.startsWith('BUILD, step 1 of 22: ')",
                              arg=stepper.locator(".course-live").element_handle(), timeout=30_000)
    assert live_text(english, 0) == said_at(english, 0)
    graph = [n for n, _d in images(english) if n.startswith("Graph define-then-run, step")]
    assert "Graph define-then-run, step 1 of 22: 1 box, 0 arrows; 1 at this step." in graph, graph
    # Play: the region keeps still while the steps advance, then says where Play stopped
    before = live_text(english, 0)
    play = stepper.locator(".widget-play button").nth(0)
    play.click()
    slider = stepper.locator(".widget-slider .widget-readout").first
    english.wait_for_function("(el) => parseInt(el.textContent) >= 4", arg=slider.element_handle(), timeout=60_000)
    assert play.get_attribute("aria-pressed") == "true"
    assert live_text(english, 0) == before, "the live region spoke during Play"
    play.click()
    english.wait_for_function("""([el, region, before]) => !el.querySelector('.fa-pause')
        && region.textContent === window.courseA11y.said(el.closest('[class*=course-ui-]'))
        && region.textContent !== before""",
                              arg=[stepper.locator(".widget-play").element_handle(),
                                   stepper.locator(".course-live").element_handle(), before], timeout=30_000)
    step = int(slider.text_content())
    assert re.match(rf"(BUILD|RUN|BACKWARD), step {step} of 22: ", live_text(english, 0)), live_text(english, 0)


def graph_texts(page: Any, lang: str) -> list[str]:
    """The three graphs' text as a screen reader gets it, in ``lang``: the stepper at step 5, the side-by-side at
    step 11 (both panes), MobileNetV2."""
    first = 2 * LANGS.index(lang)
    for k, step in ((first, 5), (first + 1, 11)):
        slider = widget(page, k).locator(".widget-slider .noUi-handle").first
        slider.focus()
        for _ in range(40):
            now = int(widget(page, k).locator(".widget-slider .widget-readout").first.text_content())
            if now == step:
                break
            page.keyboard.press("ArrowRight" if now < step else "ArrowLeft")
    step5 = {"en": "step 5 of 22", "fr": "étape 5 sur 22"}[lang]
    page.wait_for_function("""(s) => [...document.querySelectorAll('.jp-OutputArea svg[role=img] > title')]
        .filter(t => t.closest('svg').getClientRects().length).some(t => t.textContent.includes(s))""",
                           arg=step5, timeout=30_000)
    return [f"{n}\n{d}" for n, d in images(page) if n.startswith({"en": "Graph ", "fr": "Graphe "}[lang])]


@pytest.mark.parametrize("lang", LANGS)
def test_the_text_of_three_graphs_is_saved(artifacts, english, lang):
    texts = graph_texts(english, lang)
    (artifacts / f"screen-reader-{lang}.txt").write_text("\n\n".join(texts) + "\n", encoding="utf-8")
    joined = "\n".join(texts)
    words = {"en": (r"step 5 of 22", r"step 11 of 22", r"step 11 of 11", r"MobileNetV2: 155 boxes"),
             "fr": (r"étape 5 sur 22", r"étape 11 sur 22", r"étape 11 sur 11", r"MobileNetV2\s: 155 boîtes")}[lang]
    for w in words:
        assert re.search(w, joined), (w, joined[:2000])
