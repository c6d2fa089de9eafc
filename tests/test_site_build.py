"""The static edition's build (site_tools/), the parts that need no browser: the pages and their order, the course
map read from the start page, links between pages, maths detection, slide breaks, which saved widgets need a kernel
and the notes that say so, which ones step without it, the scan for loads from other hosts, and a whole build of
tiny notebooks (with stand-in asset files) checked for its rules. tests/browser/test_site.py opens the real site.
"""

from __future__ import annotations

import copy
from pathlib import Path

import ipywidgets as W
import nbformat
import pytest
from ipywidgets.embed import dependency_state, embed_data
from ipywidgets.widgets.widget import _instances

from site_tools import build as site_build
from site_tools import pages as pg
from site_tools import scan
from site_tools import widget_state as ws

ROOT = Path(__file__).resolve().parents[1]


# --- pages, order, the course map ----------------------------------------------------------------------------

def test_the_start_page_maps_every_notebook_in_order():
    paths = pg.notebook_paths(ROOT / "notebooks")
    assert paths and paths[0].stem.startswith("00_")
    nbs = {p.stem: nbformat.read(p, as_version=4) for p in paths}
    pages, warnings = pg.pages(paths, nbs)
    assert warnings == []
    assert [p.stem for p in pages] == [p.stem for p in paths]
    assert all(p.sentence and p.title[:2] == p.stem[:2] for p in pages)


def md(text: str, **meta) -> dict:
    return nbformat.v4.new_markdown_cell(text, metadata=meta)


def notebook(*cells) -> dict:
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return nb


MAP = """## 2. The course map

| Notebook | What you will see |
| --- | --- |
| [00 Start](00_start.ipynb) | This page. |
| [01 Two](01_two.ipynb) | Build `x` first, then run it. |
"""


def test_course_map_rows_and_a_notebook_it_forgets(tmp_path):
    rows = pg.course_map(notebook(md("# Title"), md(MAP)))
    assert rows == {"00_start": ("00 Start", "This page."), "01_two": ("01 Two", "Build `x` first, then run it.")}
    paths = [tmp_path / "00_start.ipynb", tmp_path / "01_two.ipynb", tmp_path / "02_new.ipynb"]
    nbs = {"00_start": notebook(md(MAP)), "01_two": notebook(), "02_new": notebook(md("# 02 Something new"))}
    pages, warnings = pg.pages(paths, nbs)
    assert [p.title for p in pages] == ["00 Start", "01 Two", "02 Something new"]
    assert pages[2].sentence == "" and len(warnings) == 1 and "02_new.ipynb" in warnings[0]
    assert pg.course_map(notebook(md("| [a](a.ipynb) | no heading above |"))) == {}


def test_notebook_paths_keep_reading_order_and_skip_other_files(tmp_path):
    for name in ["10_ten.ipynb", "02_two.ipynb", "untitled.ipynb", "2_short.ipynb", "00_start.ipynb"]:
        (tmp_path / name).write_text("{}")
    assert [p.name for p in pg.notebook_paths(tmp_path)] == ["00_start.ipynb", "02_two.ipynb", "10_ten.ipynb"]


def test_neighbours_link_each_page_to_the_one_before_and_after():
    pages = [pg.Page(s, s, "", Path(s)) for s in ["00_a", "01_b", "02_c"]]
    near = pg.neighbours(pages)
    assert (near["00_a"][0], near["00_a"][1].stem) == (None, "01_b")
    assert (near["01_b"][0].stem, near["01_b"][1].stem) == ("00_a", "02_c")
    assert (near["02_c"][0].stem, near["02_c"][1]) == ("01_b", None)


def test_links_to_notebooks_become_links_to_pages():
    html = ('<a href="01_two.ipynb">x</a> <a href="01_two.ipynb#3.-Debugging">y</a> '
            '<a href="../notebooks/00_start.ipynb">z</a> <a href="other.ipynb">o</a> '
            '<a href="https://example.org/01_two.ipynb">e</a> <a href="#01_two">f</a>')
    out = pg.rewrite_links(html, {"00_start", "01_two"}, prefix="../")
    assert 'href="../01_two.html"' in out and 'href="../01_two.html#3.-Debugging"' in out
    assert 'href="../00_start.html"' in out
    assert 'href="other.ipynb"' in out and 'href="https://example.org/01_two.ipynb"' in out
    assert 'href="#01_two"' in out


@pytest.mark.parametrize(("text", "maths"), [
    ("$$h_t = \\tanh(x)$$", True), ("the state $h_t$ of step $t$", True), ("\\(a + b\\)", True),
    ("it costs $5 and $6 more", False), ("`$x$` in code", False), ("```\n$$x$$\n```", False), ("no maths", False),
])
def test_maths_is_found_in_markdown_only_where_tex_is_written(text, maths):
    assert pg.has_maths(notebook(md(text))) is maths
    assert pg.has_maths(notebook(nbformat.v4.new_code_cell(f"# {text}"))) is False


# --- slides ---------------------------------------------------------------------------------------------------

def widget_output(model_id: str = "abc") -> dict:
    return nbformat.v4.new_output("display_data", {
        ws.VIEW_KEY: {"model_id": model_id, "version_major": 2, "version_minor": 0}, "text/plain": "VBox()"})


def test_slide_breaks_sections_widgets_and_a_cells_own_choice():
    code = nbformat.v4.new_code_cell
    shown = code("widgets.Stepper(t)")
    shown.outputs = [widget_output()]
    drawn = code("cl.draw(y)")
    drawn.outputs = [nbformat.v4.new_output("execute_result", {"image/svg+xml": "<svg/>"})]
    nb = notebook(md("# Title"), md("intro"), md("## 1. Section"), code("x = 1"), shown, md("what it showed"),
                  md("more words"), code(""), drawn, md("### a sub-heading"),
                  md("## 2. Mine", slideshow={"slide_type": "fragment"}), code("y = 2"))
    assert pg.slide_types(nb) == ["slide", "-", "slide", "-", "subslide", "subslide", "-", "skip", "subslide",
                                  "subslide", "fragment", "-"]
    own = copy.deepcopy(nb)
    pg.set_slide_types(own)
    assert [c.metadata["slideshow"]["slide_type"] for c in own.cells] == pg.slide_types(nb)


# --- saved widget state ---------------------------------------------------------------------------------------

def saved(*roots) -> dict:
    """A notebook whose cells show ``roots``, with the widget state ipywidgets itself would save.

    Only these widgets and the links between them: with the default state (every widget alive in the process),
    the page grew with every widget other tests had made, past the 3 MB a page may weigh, depending on the order
    the tests ran in."""
    deps = dependency_state(list(roots))
    links = [w for w in _instances.values() if isinstance(w, W.widgets.widget_link.Link)
             and (w.source[0].model_id in deps or w.target[0].model_id in deps)]
    data = embed_data(views=list(roots), state=dependency_state(list(roots) + links))
    nb = notebook()
    for spec in data["view_specs"]:
        cell = nbformat.v4.new_code_cell("w")
        cell.outputs = [nbformat.v4.new_output("display_data", {ws.VIEW_KEY: spec, "text/plain": "w"})]
        nb.cells.append(cell)
    nb.metadata["widgets"] = {ws.STATE_KEY: data["manager_state"]}
    return nb


def stepper_like():
    """A stepper as the course builds one: Play -> step slider -> Stack of frames (jslinks), a speed slider ->
    Play's interval, and Previous/Next buttons whose callbacks are Python."""
    play = W.Play(max=3, description="Play")
    step = W.IntSlider(max=3, description="Step")
    speed = W.IntSlider(value=900, min=200, max=3000, description="ms per step")
    prev, nxt = W.Button(description="◀ Previous"), W.Button(description="Next ▶")
    frames = W.Stack([W.HTML(f"<svg><text>{k}</text></svg>") for k in range(4)], selected_index=0)
    links = [W.jslink((play, "value"), (step, "value")), W.jslink((step, "value"), (frames, "selected_index")),
             W.jslink((speed, "value"), (play, "interval"))]
    controls = W.HBox([play, prev, nxt, step, speed])
    root = W.VBox([W.HTML("title"), controls, frames])
    return root, {"play": play, "step": step, "speed": speed, "prev": prev, "next": nxt, "frames": frames,
                  "controls": controls, "links": links}


def explorer_like():
    """A box to type in and an unlinked slider (both need Python), a stack with no link."""
    box = W.Text(value="sin(x)", description="f =")
    x = W.FloatSlider(description="")
    row = W.HBox([W.HTML("x"), x])
    still = W.Stack([W.HTML("a"), W.HTML("b")], selected_index=0)
    return W.VBox([box, W.VBox([row]), still]), {"box": box, "x": x, "row": row, "still": still}


def test_controls_in_no_link_need_the_kernel_and_linked_ones_do_not():
    root, w = stepper_like()
    nb = saved(root)
    models = ws.models_of(nb)
    assert set(ws.kernel_only(models, root.model_id)) == {w["prev"].model_id, w["next"].model_id}
    live = ws.live_ids(models)
    assert {w["play"].model_id, w["step"].model_id, w["speed"].model_id} <= live
    root2, w2 = explorer_like()
    models2 = ws.models_of(saved(root2))
    assert set(ws.kernel_only(models2, root2.model_id)) == {w2["box"].model_id, w2["x"].model_id}


def test_notes_sit_after_the_block_of_their_controls_which_are_disabled():
    root, w = stepper_like()
    nb = saved(root)
    notes = ws.add_kernel_notes(nb)
    models = ws.models_of(nb)
    assert len(notes) == 1 and notes[0].model_id in models
    kids = [ws.unref(k) for k in models[root.model_id]["state"]["children"]]
    assert kids.index(notes[0].model_id) == kids.index(w["controls"].model_id) + 1
    text = models[notes[0].model_id]["state"]["value"]
    assert "<b>◀ Previous</b> and <b>Next ▶</b> need a running course: <code>./course start</code>" in text
    assert "<b>Play</b> and the <b>Step</b> slider work" in text and "ms per step" not in text
    assert models[w["prev"].model_id]["state"]["disabled"] and models[w["next"].model_id]["state"]["disabled"]
    assert not models[w["step"].model_id]["state"].get("disabled", False)
    assert ws.add_kernel_notes(nb) == []  # disabled controls need no second note


def test_explorer_notes_name_each_control_and_a_row_root_gets_a_note_below_it():
    root, _ = explorer_like()
    nb = saved(root)
    notes = ws.add_kernel_notes(nb)
    assert ["The <b>f</b> box needs" in n.html for n in notes] == [True, False]
    assert "The <b>x</b> slider needs a running course" in notes[1].html
    row = W.HBox([W.Text(description="steps:"), W.Label("3 steps")])
    nb2 = saved(row)
    notes2 = ws.add_kernel_notes(nb2)
    assert len(notes2) == 1 and notes2[0].model_id is None
    outs = nb2.cells[0].outputs
    assert len(outs) == 2 and ws.NOTE_CLASS in outs[1]["data"]["text/html"] and "<b>steps</b> box" in outs[1][
        "data"]["text/html"]


def test_a_stack_steps_when_a_slider_or_play_reaches_its_index_through_links():
    root, w = stepper_like()
    root2, _ = explorer_like()
    nb = saved(root, root2)
    stepped = ws.stepped_views(nb)
    assert len(stepped) == 1 and stepped[0].view == 0
    assert stepped[0].stacks == (w["frames"].model_id,)
    assert set(stepped[0].controls) == {w["play"].model_id, w["step"].model_id}  # not the speed slider


def test_views_whose_state_was_not_saved_are_not_counted():
    root, _ = stepper_like()
    nb = saved(root)
    nb.cells.append(nbformat.v4.new_code_cell("x"))
    nb.cells[-1].outputs = [widget_output("not-saved")]
    assert len(ws.view_outputs(nb)) == 1


# --- loads from other hosts -----------------------------------------------------------------------------------

def test_the_scan_finds_what_a_page_loads_from_other_hosts_and_not_its_links():
    page = """<html><head>
    <script src="https://cdn.jsdelivr.net/npm/x.js"></script><script src="assets/require.js"></script>
    <link rel="stylesheet" href="//fonts.example.com/a.css"><link rel="icon" href="data:,">
    <style>@import url("https://fonts.googleapis.com/css?family=A"); .a { background: url(img/x.png) }</style>
    <script>var s = document.createElement('script'); s.src = 'https://unpkg.com/@jupyter-widgets/y.js';</script>
    <script type="application/vnd.jupyter.widget-state+json">{"v": "https://ignored.example.com/"}</script>
    </head><body><a href="https://stackoverflow.com/q/1">a link</a>
    <img src="data:image/svg+xml;base64,AAAA"><div style="background:url('https://img.example.com/b.png')"></div>
    </body></html>"""
    assert scan.external_loads(page) == [
        "https://cdn.jsdelivr.net/npm/x.js", "//fonts.example.com/a.css", "https://fonts.googleapis.com/css?family=A",
        "https://unpkg.com/@jupyter-widgets/y.js", "https://img.example.com/b.png"]


def test_missing_local_files_are_reported(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "a.js").write_text("")
    page = tmp_path / "p.html"
    html = '<script src="assets/a.js"></script><script src="assets/b.js"></script><img src="../outside.png">'
    assert scan.missing_local(html, page, tmp_path) == ["assets/b.js", "../outside.png"]


# --- a whole build ---------------------------------------------------------------------------------------------

@pytest.fixture
def fake_node_modules(tmp_path) -> Path:
    """A stand-in for site_tools/node_modules with one small file per asset the build copies."""
    nm = tmp_path / "node_modules"
    for src, _dst in site_build.CORE_ASSETS + site_build.MATHS_ASSETS + site_build.SLIDES_ASSETS:
        target = nm / src.replace("*", "font")
        if "." in target.name or "*" in src:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("/* stand-in */")
        else:
            target.mkdir(parents=True, exist_ok=True)
            (target / "part.js").write_text("/* stand-in */")
    return nm


@pytest.fixture
def tiny_course(tmp_path) -> tuple[Path, Path]:
    folder = tmp_path / "notebooks"
    folder.mkdir()
    root, _ = stepper_like()
    second = saved(root)
    second.cells.insert(0, md("# 01 Two\n\nSee [the start](00_start.ipynb)."))
    for name, nb in {"00_start": notebook(md("# Start here: a tiny course"), md(MAP)), "01_two": second}.items():
        nbformat.write(nbformat.from_dict(nb), folder / f"{name}.ipynb")
    guides = tmp_path / "instructor"
    guides.mkdir()
    (guides / "01_two_solutions.md").write_text("# 01 solutions\n\nSee [01](../notebooks/01_two.ipynb).\n")
    return folder, guides


def test_a_whole_build_of_a_tiny_course(tmp_path, fake_node_modules, tiny_course):
    folder, guides = tiny_course
    out = tmp_path / "site"
    report = site_build.build(out, notebooks=folder, instructor=guides, node_modules=fake_node_modules)
    assert [b.stem for b in report.pages] == ["00_start", "01_two"] == [b.stem for b in report.slides]
    index = (out / "index.html").read_text()
    assert 'href="00_start.html"' in index and "Build <code>x</code> first, then run it." in index
    second = (out / "01_two.html").read_text()
    assert 'href="00_start.html"' in second and "01_two.ipynb" not in second
    assert 'href="slides/01_two.slides.html"' in second and "needs a running course" not in second
    assert report.pages[1].notes == 1 and len(report.pages[1].stepped) == 1
    assert "../assets/reveal.js/dist/reveal.js" in (out / "slides" / "01_two.slides.html").read_text()
    assert (out / "assets" / "html-manager" / "embed-amd.js").exists()
    assert not (out / "assets" / "mathjax").exists()  # no page writes maths, so MathJax stays out
    assert "mathjax" not in second.lower()
    guide = (out / "instructor" / "01_two_solutions.html").read_text()
    assert 'href="../01_two.html"' in guide
    assert site_build.check(report) == []
    assert site_build.build(out, notebooks=folder, instructor=guides, node_modules=fake_node_modules).pages


def test_the_build_refuses_a_cdn_a_big_page_and_a_folder_it_did_not_make(tmp_path, fake_node_modules, tiny_course,
                                                                           monkeypatch):
    folder, guides = tiny_course
    out = tmp_path / "site"
    report = site_build.build(out, notebooks=folder, instructor=guides, node_modules=fake_node_modules)
    page = out / "01_two.html"
    page.write_text(page.read_text().replace("</head>", '<script src="https://unpkg.com/x.js"></script></head>'))
    problems = site_build.check(report)
    assert len(problems) == 1 and "01_two.html loads https://unpkg.com/x.js from another host" in problems[0]
    monkeypatch.setattr(site_build, "MAX_PAGE_BYTES", 1000)
    with pytest.raises(site_build.BuildError, match=r"00_start.html is 0\.\d\d MB, over the 0 MB"):
        site_build.build(out, notebooks=folder, instructor=guides, node_modules=fake_node_modules)
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    with pytest.raises(site_build.BuildError, match="was not made by this build"):
        site_build.build(other, notebooks=folder, instructor=guides, node_modules=fake_node_modules)
    assert (other / "notes.txt").read_text() == "keep me"
    with pytest.raises(site_build.BuildError, match="npm ci"):
        site_build.build(out, notebooks=folder, instructor=guides, node_modules=tmp_path / "nothing")
