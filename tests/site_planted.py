"""A tiny course with a script planted in every place the static site shows something it did not write, for
tests/test_site_sanitize.py (the built HTML read without a browser) and tests/browser/test_site_scripts.py (the same
pages opened in Chromium).

Every planted script, if it ran, would set ``window.__planted`` (or call ``alert``) with its case id, so a test can
tell which case ran; every case also carries ``kept-<id>`` text around the payload, which must still show.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import nbformat

RUN = "window.__planted='{id}'"
BROKEN = "data:image/png;base64,AA=="  # an image that fails to load: its onerror would run (and no file is missing)
VIEW_KEY = "application/vnd.jupyter.widget-view+json"
STATE_KEY = "application/vnd.jupyter.widget-state+json"

#: name -> payload with {id} (single line, no '|': it also goes in a course map's table row)
PAYLOADS = {
    "script": "<script>" + RUN + "</script>",
    "img-onerror": '<img src="' + BROKEN + '" onerror="' + RUN + '">',
    "svg-onload": '<svg onload="' + RUN + '"><rect width="5" height="5"></rect></svg>',
    "javascript-href": '<a href="javascript:' + RUN + '">click {id}</a>',
    "javascript-entity-href": '<a href="jav&#x61;script:' + RUN + '">click {id}</a>',
    "javascript-tab-href": '<a href=" &#x09;javascript:' + RUN + '">click {id}</a>',
    "iframe-srcdoc": '<iframe srcdoc="<script>parent.__planted=\'{id}\'</script>"></iframe>',
    "data-html-href": '<a href="data:text/html,<script>opener.__planted=\'{id}\'</script>">open {id}</a>',
    "onclick": '<b onclick="' + RUN + '">press {id}</b>',
    "svg-xlink-href": '<svg><a xlink:href="javascript:' + RUN + '"><text y="10">svg link {id}</text></a></svg>',
    "svg-animate-onbegin": '<svg><animate onbegin="' + RUN + '" attributeName="x" dur="1s"></animate></svg>',
    "svg-set-href": '<svg><a><set attributeName="href" to="javascript:' + RUN + '"></set><text y="9">set {id}</text>'
                    '</a></svg>',
    "object-data": '<object data="data:text/html,<script>parent.__planted=\'{id}\'</script>"></object>',
    "embed-src": '<embed src="data:text/html,<script>parent.__planted=\'{id}\'</script>">',
    "form-action": '<form action="javascript:' + RUN + '"><button>send {id}</button></form>',
    "button-formaction": '<form><button formaction="javascript:' + RUN + '">go {id}</button></form>',
    "meta-refresh": '<meta http-equiv="refresh" content="0;url=javascript:' + RUN + '">',
    "details-ontoggle": '<details open ontoggle="' + RUN + '"><summary>toggle {id}</summary></details>',
    "input-onfocus": '<input autofocus onfocus="' + RUN + '">',
    "noscript-mxss": '<noscript><p title="</noscript><img src=' + BROKEN + ' onerror=' + RUN + '>"></noscript>',
    "svg-style-mxss": ('<svg></p><style><a id="</style><img src=' + BROKEN
                       + ' onerror=' + RUN + '>"></style></svg>'),
    "math-mxss": ('<math><mtext><table><mglyph><style><img src=' + BROKEN + ' onerror=' + RUN
                  + '></style></mglyph></table></mtext></math>'),
    "style-import": '<style>@import url("https://example.invalid/{id}.css");</style>',
}

#: name -> (HTML with {id}, what the built page must still hold, with {id}): the course's own kinds of markup
KEEPS = {
    "bold-and-style": ('<b style="color:#A23B00">bold {id}</b>', 'style="color:#A23B00"'),
    "class-and-table": ('<table class="course-table"><tr><td>cell {id}</td></tr></table>', 'class="course-table"'),
    "svg-graph": ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10" role="img"><g class="node done" '
                  'data-id="n0"><title>node {id}</title><ellipse cx="5" cy="5" rx="4" ry="3" fill="#fff" '
                  'stroke-dasharray="2,2"></ellipse><text x="5" y="6" text-anchor="middle">x</text></g></svg>',
                  'viewBox="0 0 20 10"'),
    "data-image": ('<img alt="dot {id}" src="data:image/png;base64,iVBORw0KGgo=">', 'src="data:image/png;base64,'),
    "https-link": ('<a href="https://pytorch.org/docs/{id}">docs</a>', 'href="https://pytorch.org/docs/{id}"'),
    "details": ('<details><summary>more {id}</summary>inside</details>', "<summary>more {id}</summary>"),
}

PLACES = ["markdown", "html-output", "markdown-output", "raw-html-cell", "widget-html", "output-widget", "guide",
          "course-map"]


@dataclass(frozen=True)
class Case:
    place: str
    name: str
    id: str
    file: str              # the built page (relative to the site) that shows it; '' for several
    keep: str = ""         # what must still be there (a KEEPS case)


def case_id(place: str, name: str) -> str:
    return f"{place}-{name}".replace("-", "_")


def wrap(html: str, cid: str) -> str:
    return f"<p>kept-{cid}</p>\n\n{html.format(id=cid)}\n\n<p>after-{cid}</p>"


def _widget_state(values: list[str], outputs: list[list[dict]]) -> tuple[dict, list[dict]]:
    """A saved state of HTML widgets showing ``values`` and Output widgets holding ``outputs``, and their views."""
    state, views = {}, []
    base = {"model_module_version": "2.0.0", "state": {}}

    def layout() -> dict:
        return {**copy.deepcopy(base), "model_name": "LayoutModel", "model_module": "@jupyter-widgets/base"}

    for k, value in enumerate(values):
        state[f"layout{k}"] = layout()
        state[f"style{k}"] = {**copy.deepcopy(base), "model_name": "HTMLStyleModel",
                              "model_module": "@jupyter-widgets/controls"}
        state[f"html{k}"] = {"model_name": "HTMLModel", "model_module": "@jupyter-widgets/controls",
                             "model_module_version": "2.0.0",
                             "state": {"value": value, "layout": f"IPY_MODEL_layout{k}",
                                       "style": f"IPY_MODEL_style{k}"}}
        views.append({"model_id": f"html{k}", "version_major": 2, "version_minor": 0})
    for k, outs in enumerate(outputs):
        state[f"olayout{k}"] = layout()
        state[f"out{k}"] = {"model_name": "OutputModel", "model_module": "@jupyter-widgets/output",
                            "model_module_version": "1.0.0",
                            "state": {"outputs": outs, "layout": f"IPY_MODEL_olayout{k}"}}
        views.append({"model_id": f"out{k}", "version_major": 2, "version_minor": 0})
    return {"version_major": 2, "version_minor": 0, "state": state}, views


def _view_cell(view: dict) -> dict:
    cell = nbformat.v4.new_code_cell("w")
    text = f"widget {view['model_id']}"
    cell.outputs = [nbformat.v4.new_output("display_data", {VIEW_KEY: view, "text/plain": text})]
    return cell


def _display(mime: str, value: str) -> dict:
    return nbformat.v4.new_output("display_data", {mime: value, "text/plain": "text"})


STEMS = {"markdown": "01_markdown", "html-output": "02_html_output", "markdown-output": "03_markdown_output",
         "raw-html-cell": "04_raw_cell", "widget-html": "05_widget_html", "output-widget": "06_output_widget",
         "others": "07_others"}


def plant(folder: Path) -> tuple[Path, Path, list[Case]]:
    """Write the planted course into ``folder``: (notebooks folder, instructor folder, every case)."""
    nbs_dir, guides = folder / "notebooks", folder / "instructor"
    nbs_dir.mkdir(parents=True)
    guides.mkdir(parents=True)
    names = {**PAYLOADS, **{k: v[0] for k, v in KEEPS.items()}}
    cases = [Case(place, name, case_id(place, name), "", KEEPS[name][1] if name in KEEPS else "")
             for place in PLACES for name in names]
    by_place = {p: [c for c in cases if c.place == p] for p in PLACES}

    def html_of(c: Case) -> str:
        return wrap(names[c.name], c.id)

    notebooks: dict[str, nbformat.NotebookNode] = {}
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    map_rows = [f"| [{stem[3:]}]({stem}.ipynb) | A page. |" for stem in STEMS.values()]
    inline = " ".join(f"kept-{c.id} {names[c.name].format(id=c.id)}" for c in by_place["course-map"])
    map_rows[0] = f"| [markdown]({STEMS['markdown']}.ipynb) | {inline} |"
    start = [md("# Planted: a course with scripts in it"),
             md("## The course map\n\n| Notebook | What you will see |\n| --- | --- |\n" + "\n".join(map_rows))]
    notebooks["00_start"] = nbformat.v4.new_notebook(cells=start)
    notebooks[STEMS["markdown"]] = nbformat.v4.new_notebook(cells=[md("# Markdown")] + [
        md(html_of(c)) for c in by_place["markdown"]] + [
        md("Maths stays: $x^2 + \\sqrt{y}$ and a formula's link "
           "$\\href{javascript:window.__planted='maths_href'}{\\text{click maths}}$."),
        md("In code, `<script>shown_as_text()</script>` is text.")])
    for place, mime in [("html-output", "text/html"), ("markdown-output", "text/markdown")]:
        cells = [md(f"# {place}")]
        for c in by_place[place]:
            cell = code("x")
            cell.outputs = [_display(mime, html_of(c))]
            cells.append(cell)
        notebooks[STEMS[place]] = nbformat.v4.new_notebook(cells=cells)
    notebooks[STEMS["raw-html-cell"]] = nbformat.v4.new_notebook(cells=[md("# raw")] + [
        nbformat.v4.new_raw_cell(html_of(c), metadata={"raw_mimetype": "text/html"})
        for c in by_place["raw-html-cell"]])
    state, views = _widget_state([html_of(c) for c in by_place["widget-html"]],
                                 [[_display("text/html", html_of(c)), _display("application/javascript", RUN.format(
                                     id=c.id))] for c in by_place["output-widget"]])
    nb = nbformat.v4.new_notebook(cells=[md("# widgets")] + [_view_cell(v) for v in views if v["model_id"][0] == "h"])
    nb.metadata["widgets"] = {STATE_KEY: state}
    notebooks[STEMS["widget-html"]] = nb
    nb = nbformat.v4.new_notebook(cells=[md("# output widgets")] + [_view_cell(v) for v in views
                                                                    if v["model_id"][0] == "o"])
    nb.metadata["widgets"] = {STATE_KEY: state}
    notebooks[STEMS["output-widget"]] = nb
    others, extra = _others()
    notebooks[STEMS["others"]] = others
    cases += extra
    for stem, nb in notebooks.items():
        nbformat.write(nb, nbs_dir / f"{stem}.ipynb")
    guide = "# A planted guide\n\n" + "\n\n".join(html_of(c) for c in by_place["guide"])
    (guides / "01_markdown_guide.md").write_text(guide, encoding="utf-8")
    title = case_id("guide", "title")
    (guides / "02_title_guide.md").write_text(f"# </title><script>{RUN.format(id=title)}</script>\n\nkept-{title}\n")
    cases.append(Case("guide", "title", title, ""))
    files = {p: f"{STEMS[p]}.html" for p in STEMS if p in PLACES}
    files |= {"guide": "instructor/01_markdown_guide.html", "course-map": "index.html"}
    return nbs_dir, guides, [Case(c.place, c.name, c.id, "instructor/02_title_guide.html" if c.id == title else
                                  files.get(c.place, f"{STEMS['others']}.html"), c.keep) for c in cases]


def _others() -> tuple[nbformat.NotebookNode, list[Case]]:
    """Single places: a JavaScript output, a mermaid output, an SVG output, stream and error text, a cell's tags and
    id, the notebook's title, a widget description that allows HTML."""
    code, md = nbformat.v4.new_code_cell, nbformat.v4.new_markdown_cell
    out = nbformat.v4.new_output
    cells, cases = [md("# others")], []

    def add(name: str, outputs: list[dict], metadata: dict | None = None) -> None:
        cid = case_id("others", name)
        cell = code("x", metadata=metadata or {})
        cell.outputs = outputs
        cells.extend([md(f"kept-{cid}"), cell])
        cases.append(Case("others", name, cid, ""))

    def payload(name: str, case: str) -> str:
        return PAYLOADS[name].format(id=case_id("others", case))

    add("javascript-output", [out("display_data", {"application/javascript": RUN.format(
        id=case_id("others", "javascript-output")), "text/plain": "js"})])
    add("mermaid-output", [out("display_data", {"text/vnd.mermaid": payload("img-onerror", "mermaid-output")})])
    add("svg-output-script", [out("display_data", {"image/svg+xml": '<svg xmlns="http://www.w3.org/2000/svg">'
                                                   + payload("script", "svg-output-script") + "</svg>"})])
    add("stream-text", [out("stream", name="stdout", text=payload("img-onerror", "stream-text"))])
    add("error-traceback", [out("error", ename="E", evalue=payload("script", "error-traceback"),
                                traceback=[payload("img-onerror", "error-traceback")])])
    add("cell-tags", [], {"tags": ['"><svg onload="' + RUN.format(id=case_id("others", "cell-tags")) + '">']})
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["title"] = "</title><script>" + RUN.format(id=case_id("others", "notebook-title")) + "</script>"
    cells.append(md(f"kept-{case_id('others', 'notebook-title')}"))
    cases.append(Case("others", "notebook-title", case_id("others", "notebook-title"), ""))
    cid = case_id("others", "description-html")
    state, views = _widget_state([f"kept-{cid}"], [])
    state["state"]["html0"]["state"].update(description=payload("img-onerror", cid), description_allow_html=True)
    nb.metadata["widgets"] = {STATE_KEY: state}
    cells.extend([md(f"kept-{cid}"), _view_cell(views[0])])
    cases.append(Case("others", "description-html", cid, ""))
    return nb, cases
