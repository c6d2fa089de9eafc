"""The static site runs no script it was handed, in a real browser (issue 25).

The planted course of tests/site_planted.py (a script in every place the site shows something it did not write:
markdown, outputs, raw cells, HTML and Output widgets, guides, the course map, a formula's \\href) is built with the
real scripts (widget manager, MathJax, reveal.js) and every page, deck, guide and index is opened in Chromium. Every
planted script would set ``window.__planted`` (a trap records each assignment, in frames too) or open a dialog; each
page is given time to run what it carries (widgets drawn, images settled), then every planted control is clicked (a
link, a button, a bold word with onclick, a formula). Nothing may have been recorded, no dialog opened and no request
left for another host. The same pages must still show what the course writes: widgets drawn, maths typeset.
tests/test_site_sanitize.py checks the same site without a browser.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading

import pytest
import site_planted as sp
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from site_tools import build as site_build

# every assignment to __planted, in any frame, reported to the test (a javascript: link replaces the document, so
# what the page itself kept would be lost with it)
TRAP = """(() => {
  Object.defineProperty(window, '__planted', {configurable: false, get() { return undefined; },
                                              set(v) { window.__plantedReport(String(v)); }});
})();"""
# a formula's link (MathJax draws it as an SVG <a> around glyphs): clicked in the page, as a reader's click would
CLICK_FORMULA_LINKS = """() => document.querySelectorAll('mjx-container a').forEach(a =>
  a.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window})))"""
# what a planted control says (site_planted.PAYLOADS): each is clicked
PLANTED_CONTROLS = re.compile(r"^\s*(click|press|open|send|go|svg link|set|toggle) [a-z_]+\s*$")
SETTLED = """() => [...document.images].every(i => i.complete) &&
  [...document.querySelectorAll('.jupyter-widgets.jp-OutputArea-output')].every(o =>
    o.querySelector('.widget-subarea > .lm-Widget, .jupyter-widgets-error-widget') || !o.querySelector('script'))"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def planted_site(tmp_path_factory):
    if not (site_build.NODE_MODULES / "@jupyter-widgets" / "html-manager").is_dir():
        pytest.fail("site_tools/node_modules is missing: run ./course site once (it runs npm ci in site_tools)")
    base = tmp_path_factory.mktemp("planted-browser")
    notebooks, guides, cases = sp.plant(base)
    report = site_build.build(base / "site", notebooks=notebooks, instructor=guides)
    handler = functools.partial(_Quiet, directory=str(report.out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield report, f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


def _files() -> list[str]:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        cases = sp.plant(Path(tmp))[2]
    stems = sorted({Path(c.file).stem for c in cases if c.file.endswith(".html") and "/" not in c.file} - {"index"})
    return ["index.html", *(f"{s}.html" for s in stems), *(f"slides/{s}.slides.html" for s in stems),
            "instructor/01_markdown_guide.html", "instructor/02_title_guide.html"]


FILES = _files()


@pytest.mark.parametrize("rel", FILES)
def test_no_planted_script_runs_in_the_browser(rel, planted_site, browser, artifacts):
    report, base = planted_site
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    hits, elsewhere, dialogs = [], [], []
    ctx.expose_binding("__plantedReport", lambda _source, value: hits.append(value))
    ctx.add_init_script(TRAP)
    ctx.route(re.compile(r"^(?!http://127\.0\.0\.1:|data:|blob:|about:).*"),
              lambda route: (elsewhere.append(route.request.url), route.abort()))
    page = ctx.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(base + rel, wait_until="load")
        if "slides/" in rel:
            page.wait_for_function("() => window.courseReveal && window.courseReveal.isReady()", timeout=20_000)
        page.wait_for_function(SETTLED, timeout=30_000, polling=200)
        if rel == "01_markdown.html":
            page.wait_for_function("() => document.querySelectorAll('mjx-container').length >= 2", timeout=20_000)
            page.evaluate(CLICK_FORMULA_LINKS)
        if "slides/" not in rel:
            controls = page.get_by_text(PLANTED_CONTROLS)
            for k in range(controls.count()):
                try:
                    controls.nth(k).click(timeout=2_000, force=True, no_wait_after=True)
                except PlaywrightTimeout:
                    pass  # hidden inside a closed <details>: nothing to click
            for k in range(page.locator("input").count()):
                page.locator("input").nth(k).focus()
        # a planted form, its javascript: action cleaned away, submits the page to itself ("index.html?"): wait until
        # that reload is over (no request for a while) before looking at what the page holds
        page.wait_for_load_state("networkidle")
        page.wait_for_load_state("load")
        assert page.url.startswith(base + rel) and page.locator("main, .jp-Notebook, .reveal").count() > 0, \
            f"{rel}: the page was replaced ({page.url})"
        shot = artifacts / f"site-planted-{rel.replace('/', '-')}.png"
        page.screenshot(path=str(shot), full_page="slides/" not in rel)
    finally:
        ctx.close()
    assert hits == [], f"{rel}: planted scripts ran: {hits}"
    assert dialogs == [], f"{rel}: planted dialogs opened: {dialogs}"
    assert elsewhere == [], f"{rel}: requests to another host: {elsewhere}"


def test_the_cleaned_widgets_and_maths_still_show(planted_site, browser):
    """What survives the cleaning still works: every HTML widget of the planted notebook is drawn (with its kept
    text), an Output widget shows its HTML, the formulas are typeset."""
    _report, base = planted_site
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for rel, kept in [("05_widget_html.html", "kept-widget_html_script"),
                          ("06_output_widget.html", "kept-output_widget_script")]:
            page.goto(base + rel, wait_until="load")
            page.wait_for_function(SETTLED, timeout=30_000, polling=200)
            outs = page.locator(".jupyter-widgets.jp-OutputArea-output")
            drawn = page.locator(".jupyter-widgets.jp-OutputArea-output .widget-subarea > .lm-Widget")
            assert outs.count() > 20 and drawn.count() == outs.count(), f"{rel}: {drawn.count()} of {outs.count()}"
            assert page.get_by_text("Error displaying widget").count() == 0
            assert page.get_by_text(kept).first.is_visible()
        page.goto(base + "01_markdown.html", wait_until="load")
        page.wait_for_function("() => document.querySelectorAll('mjx-container').length >= 2", timeout=20_000)
    finally:
        ctx.close()
    assert errors == [], errors
