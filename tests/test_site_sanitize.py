"""The static site runs no script it was handed (issue 25), read without a browser: a ledger, one row per case.

- Planted scripts: each payload of tests/site_planted.py (script, event handlers, javascript:/data: links, frames,
  objects, forms, meta refresh, mutation-XSS forms, an @import) in each place the site shows what it did not write
  (markdown, HTML and markdown outputs, raw HTML cells, HTML widgets, Output widgets, instructor guides, the course
  map) and the single places (JavaScript, mermaid, SVG, stream and error outputs, cell tags, the notebook's title, a
  widget description that allows HTML): built into a site, then every built page, slide deck, guide and index and
  every HTML value of its saved widget state is scanned for anything live; none may carry the case's id, and the
  text around it must still show. tests/browser/test_site_scripts.py opens the same pages in Chromium.
- What the course needs still shows: the kinds of markup the course writes (bold with style, classes and tables, an
  SVG graph, a data: image, an https link, details) survive in every place, and cleaning the course's own notebooks
  (markdown, HTML outputs, HTML widgets, both editions) and guides removes nothing.
- A corrupt saved widget state: the build names the notebook and what to do, builds its page with the widgets' text,
  and builds the other pages.
"""

from __future__ import annotations

import difflib
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
import site_planted as sp
from nbconvert.filters.markdown import markdown2html
from test_site_build import make_fake_node_modules

from site_tools import build as site_build
from site_tools import pages as pg
from site_tools import sanitize, scan
from site_tools import widget_state as ws

ROOT = Path(__file__).resolve().parents[1]
URL_ATTRS = {"href", "src", "action", "formaction", "data", "xlink:href", "poster", "background", "to", "values",
             "from", "content"}
# a script in a URL, or a data: URL of a document (a data: image, or the empty 'data:,' of the site's favicon, is not)
LIVE_SCHEMES = re.compile(r"^(?:javascript:|vbscript:|data:(?!,|image/(?:png|jpeg|gif|webp)[;,]))", re.IGNORECASE)
LIVE_TAGS = {"iframe", "frame", "frameset", "object", "embed", "base", "applet"}
DATA_SCRIPTS = {"application/vnd.jupyter.widget-state+json", "application/vnd.jupyter.widget-view+json"}


class _Live(HTMLParser):
    """Anything in an HTML text that could run or load a script: each found thing as text (with its code, so a
    case's id shows in it)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.scripts: list[str] = []      # JSON of data scripts (the saved widget state)
        self._in: str | None = None        # 'code', 'data:<type>', 'style' while inside one

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            value = re.sub(r"[\s\x00-\x1f]", "", v or "")
            scheme = LIVE_SCHEMES.search(value.split(";url=")[-1] if k == "content" else value)
            if tag == "img" and k == "src" and value.lower().startswith("data:image/"):
                scheme = None  # an image, even an SVG one, runs no script
            if k.startswith("on") or k == "srcdoc" or (k in URL_ATTRS and scheme):
                self.found.append(f"<{tag} {k}={v!r}>")
        if tag in LIVE_TAGS or (tag == "meta" and dict(attrs).get("http-equiv", "").lower() == "refresh"):
            self.found.append(f"<{tag} {attrs!r}>")
        kind = (dict(attrs).get("type") or "").lower()
        self._in = ("data:" + kind if kind in DATA_SCRIPTS else "code") if tag == "script" else \
            "style" if tag == "style" else None

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        if tag in {"script", "style"}:
            self._in = None

    def handle_data(self, data):
        if self._in == "code" and "__planted" in data:
            self.found.append(f"<script>{data[:200]}")
        elif self._in == "style" and re.search(r"@import|url\(\s*['\"]?(?:https?:)?//", data):
            self.found.append(f"<style>{data[:200]}")
        elif self._in and self._in.startswith("data:" + ws.STATE_KEY):
            self.scripts.append(data)


def live_in(html: str) -> tuple[list[str], list[str]]:
    parser = _Live()
    parser.feed(html)
    parser.close()
    return parser.found, parser.scripts


def widget_html(state_json: str) -> list[str]:
    """What the widget manager would put in the page as HTML from a saved state (as JSON text): HTML widgets'
    values, descriptions that allow HTML, Output widgets' HTML; and, as 'mime:…', any output kind that runs code."""
    state = json.loads(state_json)["state"]
    found = []
    for rec in state.values():
        st = rec["state"]
        if rec["model_name"] in sanitize.HTML_VALUES:
            found.append(st.get("value", ""))
        if st.get("description_allow_html"):
            found.append(st.get("description", ""))
        for out in st.get("outputs", []):
            found.extend(out.get("data", {}).get("text/html", []) if isinstance(out.get("data", {}).get(
                "text/html"), list) else [out.get("data", {}).get("text/html", "")])
            found.extend(f"<script>__planted mime:{m} {out['data'][m]}</script>" for m in out.get("data", {})
                         if m not in sanitize.SAFE_MIMES | sanitize.CLEANED_MIMES)
    return found


def scan_site(out: Path) -> tuple[list[str], dict[str, str]]:
    """(everything live in the built site, each with its file; the text each file shows: its HTML and the HTML of
    its saved widgets)."""
    live, shown = [], {}
    for path in sorted(out.rglob("*.html")):
        rel = path.relative_to(out).as_posix()
        text = path.read_text(encoding="utf-8")
        found, states = live_in(text)
        live += [f"{rel}: {f}" for f in found]
        values = [v for s in states for v in widget_html(s)]
        for value in values:
            live += [f"{rel} (widget): {f}" for f in live_in(value)[0]]
        shown[rel] = text + "\n".join(values)
    return live, shown


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    base = tmp_path_factory.mktemp("planted")
    notebooks, guides, cases = sp.plant(base)
    report = site_build.build(base / "site", notebooks=notebooks, instructor=guides,
                              node_modules=make_fake_node_modules(base))
    live, shown = scan_site(report.out)
    return report, cases, live, shown


def _cases() -> list[sp.Case]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        return sp.plant(Path(tmp))[2]


CASES = _cases()
SCRIPT_CASES = [c for c in CASES if not c.keep]
KEEP_CASES = [c for c in CASES if c.keep]


@pytest.mark.parametrize("case", SCRIPT_CASES, ids=[c.id for c in SCRIPT_CASES])
def test_a_planted_script_is_not_live_and_its_text_still_shows(case, planted):
    report, _cases, live, shown = planted
    hits = [f for f in live if re.search(rf"\b{re.escape(case.id)}\b", f)]
    assert hits == [], f"{case.place}/{case.name} is live on the site:\n  " + "\n  ".join(hits)
    assert f"kept-{case.id}" in shown[case.file], f"{case.file} lost the text around {case.id}"
    deck = f"slides/{Path(case.file).stem}.slides.html"
    if deck in shown and not case.file.startswith(("index", "instructor")):
        assert f"kept-{case.id}" in shown[deck], f"{deck} lost the text around {case.id}"


@pytest.mark.parametrize("case", KEEP_CASES, ids=[c.id for c in KEEP_CASES])
def test_the_markup_the_course_writes_still_shows_in_every_place(case, planted):
    _report, _cases, _live, shown = planted
    # nbconvert writes its pages through BeautifulSoup, which lowercases attribute names (viewbox): the browser's
    # parser gives them their SVG case back
    assert case.keep.format(id=case.id).lower() in shown[case.file].lower(), f"{case.place}: {case.keep} was lost"


def test_nothing_at_all_is_live_on_the_planted_site(planted):
    """The rows above look for their own ids; this one for anything live at all (the site's own scripts carry
    none of it), and checks the pages' own scripts are still there."""
    report, _cases, live, shown = planted
    assert live == []
    page = shown["05_widget_html.html"]
    assert 'src="assets/require.js"' in page and "embed-amd.js" in page and ws.STATE_KEY in page
    assert "assets/mathjax/tex-svg.js" in shown["01_markdown.html"]


def test_maths_and_code_keep_their_text(planted):
    _report, _cases, _live, shown = planted
    page = shown["01_markdown.html"]
    assert "$x^2 + \\sqrt{y}$" in page  # MathJax typesets it (with its safe extension: see the browser test)
    assert "&lt;script&gt;shown_as_text()&lt;/script&gt;" in page
    assert 'loader: {load: ["ui/safe"]}' in page
    assert (planted[0].out / "assets" / "mathjax" / "ui" / "safe.js").is_file()


# --- what the course's own notebooks need ------------------------------------------------------------------------

def course_html(path: Path) -> list[tuple[str, str]]:
    """(where, HTML) of everything of one notebook the site cleans: markdown, HTML outputs, HTML widgets (their
    style sheet, which the page's head gets, aside)."""
    nb = nbformat.read(path, as_version=4)
    found = []
    for k, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            found.append((f"cell {k}", markdown2html(cell.source)))
        for out in cell.get("outputs", []):
            if "text/html" in out.get("data", {}):
                found.append((f"cell {k} output", out["data"]["text/html"]))
    for mid, rec in ws.models_of(nb).items():
        if rec["model_name"] in sanitize.HTML_VALUES:
            found.append((f"widget {mid}", sanitize.COURSE_STYLE.sub("", rec["state"]["value"])))
    return found


COURSE_NOTEBOOKS = pg.notebook_paths(ROOT / "notebooks") + pg.notebook_paths(ROOT / "notebooks" / "fr")


@pytest.mark.parametrize("path", COURSE_NOTEBOOKS, ids=[p.relative_to(ROOT).as_posix() for p in COURSE_NOTEBOOKS])
def test_cleaning_a_course_notebook_removes_nothing_from_it(path):
    nb = nbformat.read(path, as_version=4)
    assert ws.state_problems(nb) == [] and ws.lost_views(nb) == []
    for where, html in course_html(path):
        before, after = sanitize.tokens(html), sanitize.tokens(sanitize.clean(html))
        assert before == after, f"{where}: " + "\n".join(d for d in difflib.ndiff(before, after) if d[0] in "+-")
    sheets = sanitize.clean_models(ws.models_of(nb))
    if ws.view_outputs(nb):
        assert sheets, "the course's widget style sheet was not found (the widgets' text size would be lost)"


def test_cleaning_the_course_guides_removes_nothing():
    guides = sorted((ROOT / "instructor").rglob("*.md"))
    assert guides
    for guide in guides:
        html = markdown2html(guide.read_text(encoding="utf-8"))
        assert sanitize.tokens(html) == sanitize.tokens(sanitize.clean(html)), guide


# --- a corrupt saved widget state ---------------------------------------------------------------------------------

def _good_state() -> tuple[dict, list[dict]]:
    return sp._widget_state(["<b>fine</b>"], [])


def _corrupt(change) -> dict:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# corrupt")])
    state, views = _good_state()
    nb.cells.append(sp._view_cell(views[0]))
    nb.metadata["widgets"] = {sp.STATE_KEY: state}
    change(nb, state)
    return nb


def _set(path: str, value):
    """A change that sets the key path (dots; 'V' = the first view's data) to ``value``."""
    def change(nb, state):
        target = nb.cells[1].outputs[0]["data"][sp.VIEW_KEY] if path.startswith("V.") else nb.metadata
        keys = [sp.STATE_KEY if key == "S" else key for key in path.removeprefix("V.").split(".")]
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return change


def _delete(path: str):
    def change(nb, state):
        target = nb.metadata
        keys = [sp.STATE_KEY if key == "S" else key for key in path.split(".")]
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]
    return change


# (case, the change, words the warning must hold, the page still shows the widget's text)
CORRUPT = [
    ("state-is-text", _set("widgets.S", '{"version_major": 2, "state": {'), "holds no", True),
    ("widgets-is-a-list", _set("widgets", []), "holds no", True),
    ("state-is-null", _set("widgets.S", None), "holds no", True),
    ("no-state-object", _delete("widgets.S.state"), "no 'state' object", True),
    ("state-object-is-a-list", _set("widgets.S.state", []), "no 'state' object", True),
    ("version-major-3", _set("widgets.S.version_major", 3), "version 3.0", True),
    ("version-minor-missing", _delete("widgets.S.version_minor"), "version 2.None", True),
    ("version-as-text", _set("widgets.S.version_major", "2"), "version '2'.0; the widget manager reads", True),
    ("record-without-module", _delete("widgets.S.state.html0.model_module"), "lacks a text", True),
    ("record-state-null", _set("widgets.S.state.html0.state", None), "lacks a text", True),
    ("record-version-a-number", _set("widgets.S.state.html0.model_module_version", 2), "lacks a text", True),
    ("record-is-text", _set("widgets.S.state.html0", "HTMLModel"), "lacks a text", True),
    ("missing-layout-model", _delete("widgets.S.state.layout0"), "refers to model layout0, which was not saved",
     True),
    ("foreign-model-module", _set("widgets.S.state.html0.model_module", "jupyter-matplotlib"),
     "jupyter-matplotlib, a widget library the site does not ship", True),
    ("foreign-view-module", _set("widgets.S.state.html0.state._view_module", "evil-widgets"),
     "evil-widgets, a widget library the site does not ship", True),
    ("view-model-id-not-text", _set("V.model_id", 7), "without a text model_id", True),
    ("view-version-1", _set("V.version_major", 1), "of a version other than 2", True),
    ("view-of-an-unsaved-model", _set("V.model_id", "gone"), "show a widget whose state was not saved", True),
]


@pytest.fixture(scope="module")
def corrupt_site(tmp_path_factory):
    base = tmp_path_factory.mktemp("corrupt")
    folder, guides = base / "notebooks", base / "instructor"
    (folder / "fr").mkdir(parents=True)
    guides.mkdir()
    stems = [f"{k + 1:02d}_{name.replace('-', '_')}" for k, (name, *_rest) in enumerate(CORRUPT)]
    rows = "\n".join(f"| [{s}]({s}.ipynb) | x |" for s in stems)
    start = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Start"), nbformat.v4.new_markdown_cell(
        f"## The course map\n\n| a | b |\n| --- | --- |\n{rows}")])
    nbformat.write(start, folder / "00_start.ipynb")
    nbformat.write(start, folder / "fr" / "00_start.ipynb")
    for stem, (_name, change, *_rest) in zip(stems, CORRUPT, strict=True):
        (folder / f"{stem}.ipynb").write_text(json.dumps(_corrupt(change)), encoding="utf-8")
    (folder / "98_not_json.ipynb").write_text('{"cells": [', encoding="utf-8")
    (folder / "fr" / "01_fr_corrupt.ipynb").write_text(json.dumps(_corrupt(_set("widgets.S.version_major", 9))))
    good = _corrupt(lambda nb, state: None)
    nbformat.write(nbformat.from_dict(good), folder / "99_fine.ipynb")
    report = site_build.build(base / "site", notebooks=folder, instructor=guides,
                              node_modules=make_fake_node_modules(base))
    return report, stems


@pytest.mark.parametrize(("name", "change", "words", "text"), CORRUPT, ids=[c[0] for c in CORRUPT])
def test_a_corrupt_widget_state_is_named_and_the_page_is_built(name, change, words, text, corrupt_site):
    report, stems = corrupt_site
    stem = stems[[c[0] for c in CORRUPT].index(name)]
    said = [w for w in report.warnings if f"{stem}.ipynb" in w and "course map" not in w]
    assert len(said) == 1, f"{stem}: {said or report.warnings}"
    assert words in said[0] and "tools/run_notebooks.py" in said[0], said[0]
    page = (report.out / f"{stem}.html").read_text(encoding="utf-8")
    assert ws.VIEW_KEY not in page, f"{stem}: the page still shows a widget view the manager cannot render"
    assert "widget html0" in page or "widget 7" in page, f"{stem}: the widget's text is not on the page"


def test_an_unreadable_notebook_is_named_and_the_others_are_built(corrupt_site):
    report, stems = corrupt_site
    said = [w for w in report.warnings if "98_not_json.ipynb" in w]
    assert len(said) == 1 and "cannot be read as a notebook" in said[0] and "git checkout" in said[0], said
    assert not (report.out / "98_not_json.html").exists()
    built = {b.stem for b in report.pages if b.lang == "en"}
    assert built == {"00_start", "99_fine", *stems}


def test_a_corrupt_french_notebook_is_named_with_its_folder(corrupt_site):
    report, _stems = corrupt_site
    said = [w for w in report.warnings if "01_fr_corrupt.ipynb" in w and "course map" not in w]
    assert len(said) == 1 and "/fr/01_fr_corrupt.ipynb" in said[0] and "version 9.0" in said[0], said
    assert (report.out / "fr" / "01_fr_corrupt.html").is_file()


def test_a_fine_widget_state_stays_and_is_counted(corrupt_site):
    report, _stems = corrupt_site
    fine = next(b for b in report.pages if b.stem == "99_fine")
    assert fine.views == 1 and ws.STATE_KEY in fine.path.read_text(encoding="utf-8")


def test_the_build_command_says_the_warnings_and_succeeds(tmp_path, capsys, monkeypatch):
    """Through ``python -m site_tools.build``'s main: a corrupt notebook is a warning on stderr, not a traceback."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Start")]),
                   folder / "00_start.ipynb")
    (folder / "01_bad.ipynb").write_text(json.dumps(_corrupt(_set("widgets.S", "not json"))), encoding="utf-8")
    fake = make_fake_node_modules(tmp_path)
    real_build = site_build.build
    monkeypatch.setattr(site_build, "build", lambda out, slides, decks: real_build(
        out, notebooks=folder, instructor=tmp_path / "none", slides=slides, node_modules=fake, decks=decks))
    assert site_build.main(["--out", str(tmp_path / "site")]) == 0
    err = capsys.readouterr().err
    assert "site: WARNING:" in err and "01_bad.ipynb: its saved widget state cannot be shown" in err
    assert "Traceback" not in err


# --- what a saved widget would fetch from another host -----------------------------------------------------------

@pytest.mark.parametrize(("html", "url"), [
    ('<img src="https://example.invalid/pixel.png">', "https://example.invalid/pixel.png"),
    ('<div style="background:url(https://example.invalid/b.png)">x</div>', "https://example.invalid/b.png"),
], ids=["img-src", "style-url"])
def test_the_scan_reads_the_html_inside_saved_widgets(html, url):
    """Cleaning keeps images and styles (JupyterLab does), so the build's scan for loads from other hosts must also
    read the HTML the widget manager puts in the page from the saved state, escaped as the page writes it."""
    state = {"version_major": 2, "version_minor": 0, "state": {"a": {
        "model_name": "HTMLModel", "model_module": "@jupyter-widgets/controls", "model_module_version": "2.0.0",
        "state": {"value": sanitize.clean(html)}}}}
    page = f'<script type="{ws.STATE_KEY}">{json.dumps(state).replace("/", chr(92) + "/")}</script>'
    assert scan.external_loads(page) == [url]
    assert scan.external_loads(page.replace(ws.STATE_KEY, "application/json")) == []


@pytest.mark.parametrize("theme", ["classroom", "presenter"])
def test_a_course_widget_style_sheet_is_kept_and_nothing_else_in_its_form(theme):
    """The widget's sheet (text sizes and the focus ring of issue 27, widgets.sizing.widget_css) is kept whole; a
    rule of anyone else's written in its form (another selector, another declaration) is not."""
    from course_lib import render
    from course_lib.widgets.base import Sizes
    from course_lib.widgets.sizing import widget_css

    sheet = widget_css(Sizes.of(render.get_theme(theme)))
    assert sanitize.course_styles(sheet) == [sheet.removeprefix("<style>").removesuffix("</style>")]
    for planted in (".course-ui-15 a{outline:2px solid #111111!important}",
                    ".course-ui-15{outline:2px solid #111111!important;background:url(x)}",
                    ".course-ui-15 code{font-size:inherit}body{display:none}"):
        assert not sanitize.COURSE_STYLE.fullmatch(f"<style>{planted}</style>"), planted
