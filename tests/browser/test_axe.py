"""axe-core (the standard accessibility engine, tests/browser/axe.py) on the course as students get it (issue 27).

* **The static edition**, built once into a temporary folder as tests/browser/test_site.py builds it and served on
  127.0.0.1: every page of both languages (the course maps, each lesson page, each slide deck, the instructor
  guides' index and each guide; ``test_every_built_page_is_checked`` holds the list to what the build wrote). A deck
  is checked as loaded, then, in English, on each slide holding a widget (made the current slide, axe limited to
  it; the French slides hold the same widgets in French words). The WCAG rules only (no best-practice). Zero WCAG
  2.0/2.1 A/AA violations of impact serious or critical: everything on these pages is the course's to fix (its
  templates, its CSS, its notebooks, the widgets it saved and the enhancer that names their controls), reveal.js's
  and the html-manager's markup included (site.css and the enhancer reach them).

JupyterLab's side (each widget kind in both themes, and JupyterLab's own violations, ``axe.JUPYTERLAB_OWN``) is
checked in tests/browser/test_layout.py, on the pages it already runs every widget kind in.

Every page's and slide's counts (by impact and rule, axe-core's version with them) go to
test-artifacts/browser/axe-site.json; ``tools/axe_table.py`` prints the tables.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from site_tools import build as site_build
from site_tools import pages as site_pages

from . import axe
from .test_site import Visit, go_to_slide, widget_kinds

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = {"en": ("", ROOT / "notebooks", ROOT / "instructor"),
            "fr": ("fr/", ROOT / "notebooks" / "fr", ROOT / "instructor" / "fr")}
SITE_WIDGET_OUTPUT = ".jupyter-widgets.jp-OutputArea-output"  # the static site's (test_site.py's)

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


# --- the static edition ----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def axe_js() -> Path:
    """axe-core's file, or the test fails saying what is missing and the command that installs it."""
    return axe.require_axe_or_fail()


@pytest.fixture(scope="module")
def site_results(artifacts) -> axe.Results:
    return axe.Results(artifacts / "axe-site.json")


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
        pg.evaluate(axe.TWO_FRAMES)  # the enhancer names what the widgets drew on the next frame
        # WCAG rules only here (best-practice ones fail nothing and cost a quarter of axe's time on a lesson page)
        problems = [axe.describe(site_results.add(rel, axe.run(pg, course=axe.OUTPUTS, best_practice=False)), rel)]
        if slides and not rel.startswith("fr/"):
            # each widget slide made the current one, axe on it alone (the others are hidden, and axe skips them);
            # English decks only: a French deck's widget slides are the same widgets in French words, and the French
            # deck is checked as loaded (its language, its reveal.js controls)
            pg.evaluate("() => window.courseReveal.configure({transition: 'none'})")
            for view, kind in enumerate(widget_kinds(rel.split("/")[-1].removesuffix(".slides.html"), "en")):
                go_to_slide(visit, view)
                pg.evaluate(axe.TWO_FRAMES)
                section = pg.evaluate_handle(f"(k) => document.querySelectorAll('{SITE_WIDGET_OUTPUT}')[k]"
                                             ".closest('section')", view)
                where = f"{rel} widget {view} ({kind})"
                found = axe.run(pg, section, course=axe.OUTPUTS, best_practice=False)
                problems.append(axe.describe(site_results.add(where, found), where))
        problems = [p for p in problems if p]
        assert not problems, "axe-core: serious or critical WCAG A/AA violations:\n" + "\n".join(problems)
    finally:
        visit.close()


def test_every_built_page_is_checked(site):
    """The build wrote exactly the pages test_site_page checks (a page added to the site is a page checked)."""
    written = sorted(p.relative_to(site.out).as_posix() for p in site.out.rglob("*.html"))
    assert written == sorted(SITE_PAGES), (f"pages built but not checked: {sorted(set(written) - set(SITE_PAGES))}; "
                                           f"checked but not built: {sorted(set(SITE_PAGES) - set(written))}")
