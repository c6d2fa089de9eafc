"""axe-core (the standard accessibility engine, tests/browser/axe.py) on the course as students get it (issue 27).

* **The static edition**, built once into a temporary folder as tests/browser/test_site.py builds it and served on
  127.0.0.1: every page of both languages (the course maps, each lesson page, each slide deck, the instructor
  guides' index and each guide; ``test_every_built_page_is_checked`` holds the list to what the build wrote). A deck
  is checked as loaded, then on each slide holding a widget (made the current slide, axe limited to it). Zero WCAG
  2.0/2.1 A/AA violations of impact serious or critical: everything on these pages is the course's to fix (its
  templates, its CSS, its notebooks, the widgets it saved and the enhancer that names their controls), reveal.js's
  and the html-manager's markup included (site.css and the enhancer reach them).
* **JupyterLab**, one notebook holding one widget of each kind (test_layout.py's ``SETUP`` and ``WIDGETS``), run in
  the classroom theme and in the presenter theme: axe limited to each widget's output (the course's: zero serious
  or critical), then once on the whole JupyterLab page: what it finds outside the course's outputs is JupyterLab's
  own, each rule listed in :data:`JUPYTERLAB_OWN` with why it is not ours (strict: a new one fails, and one that
  disappears must come off the list).

Every page's, slide's and widget kind's counts (by impact and rule, axe-core's version with them) go to
test-artifacts/browser/axe-site.json and axe-lab-<theme>.json; ``tools/axe_table.py`` prints the tables.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from site_tools import build as site_build
from site_tools import pages as site_pages

from . import axe, test_site
from .labdriver import open_notebook, run_all, wait_for_widget_views, wait_settled
from .test_layout import SETUP, WIDGETS
from .test_site import Visit, go_to_slide, widget_kinds

ROOT = Path(__file__).resolve().parents[2]
#: test_site.py's fixtures, here too: the site built and served its way (once for this file, module scope)
site, base_url = test_site.site, test_site.base_url
EDITIONS = {"en": ("", ROOT / "notebooks", ROOT / "instructor"),
            "fr": ("fr/", ROOT / "notebooks" / "fr", ROOT / "instructor" / "fr")}
PRESENTER_LINE = "cl.set_theme('presenter')"
#: the two themes a widget is drawn in: the notebook's setup cell for each
THEMES = {"classroom": SETUP.replace(PRESENTER_LINE, ""), "presenter": SETUP}
#: the course's outputs in a page (JupyterLab's and the static site's): what is not inside one is the frame's
OUTPUTS = ".jp-OutputArea-output"
WIDGET_OUTPUT = ".jp-OutputArea-output:has(> .jupyter-widgets)"  # JupyterLab's widget outputs
# In the page: resolves after two animation frames, by when the course's enhancer (which works once per frame on
# what changed) has named the controls just drawn
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
SITE_WIDGET_OUTPUT = ".jupyter-widgets.jp-OutputArea-output"  # the static site's (test_site.py's)

#: JupyterLab 4.6.6's own violations, outside the course's outputs: rule -> what and why it is not ours (strict)
JUPYTERLAB_OWN: dict[str, str] = {
    "aria-allowed-attr": "the file browser's and the notebook toolbar's <jp-button> (Upload Files, Toggle File "
                         "Filter, Enable Debugger) carry aria-pressed, which their role does not allow: JupyterLab's "
                         "toolbar, built by @jupyter/web-components",
    "aria-input-field-name": "each code cell's CodeMirror editor (div.cm-content, role textbox) has no accessible "
                             "name: JupyterLab's notebook editor, around the cells we wrote",
    "aria-required-children": "the notebook's cell list (div.jp-WindowedPanel-viewport, role feed, 'Cells') holds "
                              "cells that are not role article: JupyterLab's notebook panel",
}


def site_pages_expected() -> list[str]:
    """Every HTML page the build writes, from the sources (known before the build, so each is a test of its own):
    per language the course map, each notebook's page and deck, the instructor guides' index and each guide."""
    rels = []
    for folder, notebooks, instructor in EDITIONS.values():
        stems = [p.stem for p in site_pages.notebook_paths(notebooks)]
        guides = site_build.guides_of(instructor)
        rels += [f"{folder}index.html", *(f"{folder}{s}.html" for s in stems),
                 *(f"{folder}slides/{s}.slides.html" for s in stems)]
        if guides:
            rels += [f"{folder}instructor/index.html", *(f"{folder}instructor/{g.stem}.html" for g in guides)]
    return rels


SITE_PAGES = site_pages_expected()


# --- the counts, written as the tests go ---------------------------------------------------------------------------

class Results:
    """Counts per page (or widget kind) written to ``test-artifacts/browser/axe-<name>.json`` after each row."""

    def __init__(self, path: Path) -> None:
        self.path, self.version, self.rows = path, None, {}

    def add(self, where: str, result: dict[str, Any]) -> list[dict[str, Any]]:
        """Record ``result`` (axe.run's) as the row ``where``; return its failing violations."""
        self.version = result["version"]
        self.rows[where] = {**axe.counts(result["violations"]), "violations": result["violations"]}
        self.path.write_text(json.dumps({"axe": self.version, "rows": self.rows}, indent=1, ensure_ascii=False))
        return axe.failing(result["violations"])


# --- the static edition ----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def axe_js() -> Path:
    """axe-core's file, or the test fails saying what is missing and the command that installs it."""
    try:
        return axe.require_axe()
    except axe.AxeMissing as e:
        pytest.fail(str(e))


@pytest.fixture(scope="module")
def site_results(artifacts) -> Results:
    return Results(artifacts / "axe-site.json")


@pytest.mark.parametrize("rel", SITE_PAGES)
def test_site_page(rel, axe_js, base_url, browser, site_results):
    slides = "/slides/" in f"/{rel}"
    visit = Visit(browser, base_url, rel, {"width": 1280, "height": 720} if slides else {"width": 1400, "height": 1000})
    try:
        pg = visit.page
        if slides:
            pg.wait_for_function("() => window.courseReveal && window.courseReveal.isReady()", timeout=20_000)
        visit.wait_widgets()
        pg.evaluate("() => document.fonts.ready.then(() => document.fonts.status)")
        pg.evaluate(TWO_FRAMES)  # the enhancer names what the widgets drew on the next frame
        problems = [axe.describe(site_results.add(rel, axe.run(pg, course=OUTPUTS)), rel)]
        if slides:
            # each widget slide made the current one, axe on it alone (the others are hidden, and axe skips them)
            pg.evaluate("() => window.courseReveal.configure({transition: 'none'})")
            lang = "fr" if rel.startswith("fr/") else "en"
            for view, kind in enumerate(widget_kinds(rel.split("/")[-1].removesuffix(".slides.html"), lang)):
                go_to_slide(visit, view)
                pg.evaluate(TWO_FRAMES)
                section = pg.evaluate_handle(f"(k) => document.querySelectorAll('{SITE_WIDGET_OUTPUT}')[k]"
                                             ".closest('section')", view)
                where = f"{rel} widget {view} ({kind})"
                problems.append(axe.describe(site_results.add(where, axe.run(pg, section, course=OUTPUTS)), where))
        problems = [p for p in problems if p]
        assert not problems, "axe-core: serious or critical WCAG A/AA violations:\n" + "\n".join(problems)
    finally:
        visit.close()


def test_every_built_page_is_checked(site):
    """The build wrote exactly the pages test_site_page checks (a page added to the site is a page checked)."""
    written = sorted(p.relative_to(site.out).as_posix() for p in site.out.rglob("*.html"))
    assert written == sorted(SITE_PAGES), (f"pages built but not checked: {sorted(set(written) - set(SITE_PAGES))}; "
                                           f"checked but not built: {sorted(set(SITE_PAGES) - set(written))}")


# --- JupyterLab: one widget of each kind -------------------------------------------------------------------------

@pytest.fixture(scope="module", params=list(THEMES))
def lab_widgets(request, lab, browser, artifacts, axe_js):
    """(theme, page, results): a JupyterLab page with one widget of each kind run in that theme, every graph drawn."""
    theme = request.param
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(THEMES[theme])] + [nbformat.v4.new_code_cell(c) for c, _ in WIDGETS.values()]
    path = artifacts / f"axe_check_{theme}.ipynb"  # its own file: test_layout.py's may be open on another worker
    nbformat.write(nb, path)
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    open_notebook(page, lab, path.relative_to(ROOT).as_posix())
    run_all(page)
    views = wait_for_widget_views(page, len(WIDGETS))
    assert views == {"rendered": len(WIDGETS), "failed": 0}, f"{theme}: widget views {views}"
    drawn = f"""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].slice(1, {len(WIDGETS) + 1})
      .every(c => c.querySelector('.jp-OutputArea svg[role=img][id]'))"""
    try:
        page.wait_for_function(drawn, timeout=60_000, polling=200)
    except PlaywrightTimeout:
        pass  # a kind without its graph is still checked; test_layout.py says which shows none
    wait_settled(page, ".jp-Notebook .jp-OutputArea", f"the {theme} theme's widgets")
    yield theme, page, Results(artifacts / f"axe-lab-{theme}.json")
    ctx.close()


@pytest.mark.parametrize("kind", list(WIDGETS))
def test_widget_kind(lab_widgets, kind):
    theme, page, results = lab_widgets
    output = page.query_selector_all(WIDGET_OUTPUT)[list(WIDGETS).index(kind)]
    bad = results.add(kind, axe.run(page, output))
    assert not bad, "axe-core: serious or critical WCAG A/AA violations in the course's widget:\n" + axe.describe(
        bad, f"{theme}, {kind}")


def test_jupyterlab_page(lab_widgets):
    """The whole page: outside the course's outputs, exactly the rules of JUPYTERLAB_OWN (any impact)."""
    theme, page, results = lab_widgets
    result = axe.run(page, course=OUTPUTS)
    outside = [{**v, "count": v["count"] - v["inCourse"], "nodes": [n for n in v["nodes"] if not n["course"]]}
               for v in result["violations"] if v["wcag"] and v["count"] > v["inCourse"]]
    results.add("JupyterLab (outside the course's outputs)", {**result, "violations": outside})
    found = {v["rule"] for v in outside}
    new = [v for v in outside if v["rule"] not in JUPYTERLAB_OWN]
    assert not new, ("axe-core: violations outside the course's outputs not in JUPYTERLAB_OWN (say whose: "
                     "JupyterLab's, with why, or ours, and fix them):\n" + axe.describe(new, f"JupyterLab, {theme}"))
    gone = sorted(set(JUPYTERLAB_OWN) - found)
    assert not gone, f"JupyterLab ({theme}) no longer shows {gone}: take them off JUPYTERLAB_OWN"
