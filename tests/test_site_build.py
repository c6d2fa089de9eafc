"""The static edition's build (site_tools/), the parts that need no browser: the pages and their order, the course
map read from the start page, links between pages, maths detection, slide breaks, which saved widgets need a kernel
and the notes that say so, which ones step without it, the scan for loads from other hosts, and a whole build of
tiny notebooks (with stand-in asset files) checked for its rules. tests/browser/test_site.py opens the real site.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import ipywidgets as W
import nbformat
import pytest
from ipywidgets.embed import dependency_state, embed_data
from ipywidgets.widgets.widget import _instances

from course_lib import render
from course_lib.widgets.base import Sizes
from site_tools import build as site_build
from site_tools import decks, scan, words
from site_tools import pages as pg
from site_tools import widget_state as ws

ROOT = Path(__file__).resolve().parents[1]


# --- pages, order, the course map ----------------------------------------------------------------------------

@pytest.mark.parametrize("folder", ["notebooks", "notebooks/fr"])
def test_the_start_page_maps_every_notebook_in_order(folder):
    paths = pg.notebook_paths(ROOT / folder)
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


ENGLISH_LABELS = ("Play", "Step", "ms per step", "◀ Previous", "Next ▶")
FRENCH_LABELS = ("Lecture", "Étape", "ms par étape", "◀ Précédent", "Suivant ▶")


def stepper_like(labels: tuple[str, ...] = ENGLISH_LABELS):
    """A stepper as the course builds one: Play -> step slider -> Stack of frames (jslinks), a speed slider ->
    Play's interval, and Previous/Next buttons whose callbacks are Python; its controls named by ``labels``."""
    play_, step_, speed_, prev_, next_ = labels
    play = W.Play(max=3, description=play_)
    step = W.IntSlider(max=3, description=step_)
    speed = W.IntSlider(value=900, min=200, max=3000, description=speed_)
    prev, nxt = W.Button(description=prev_), W.Button(description=next_)
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


def test_the_note_in_french_names_the_controls_by_their_saved_french_labels():
    root, w = stepper_like(FRENCH_LABELS)
    nb = saved(root)
    notes = ws.add_kernel_notes(nb, "fr")
    assert len(notes) == 1
    assert 'lang="fr"' in notes[0].html and notes[0].html.endswith(
        "<b>◀ Précédent</b> et <b>Suivant ▶</b> ont besoin du cours en marche\u00a0: "
        "<code>./course start --lang fr</code>. Ici, sans lui, <b>Lecture</b> et le curseur <b>Étape</b> "
        "fonctionnent.</div>")
    models = ws.models_of(nb)
    assert models[w["prev"].model_id]["state"]["disabled"] and models[w["next"].model_id]["state"]["disabled"]
    explorer, _ = explorer_like()
    said = [n.html for n in ws.add_kernel_notes(saved(explorer), "fr")]
    assert "Le champ <b>f</b> a besoin du cours en marche\u00a0:" in said[0]
    assert "Le curseur <b>x</b> a besoin du cours en marche\u00a0:" in said[1]
    assert ws.describe([("x", "slider"), ("w", "slider"), ("", "box"), ("c", "checkbox")], "fr") == \
        "les curseurs <b>x</b> et <b>w</b>, le champ et la case à cocher <b>c</b>"
    for note in said:
        text = re.sub(r"<[^>]+>", "", note)
        assert not any(word in text for word in ("need", "running", "Here", "the ", " and ")), text


@pytest.mark.parametrize("labels", [ENGLISH_LABELS, FRENCH_LABELS, ("", "", "", "", ""), ("a", "b", "c", "d", "e")],
                         ids=["english", "french", "unnamed", "other-words"])
def test_which_controls_are_greyed_depends_on_the_links_not_on_the_words(labels):
    """The same stepper greys the same controls whatever its labels say (the lead re-runs the French notebooks and
    their words change): Previous/Next are greyed, Play and the step slider stay live, in either language."""
    root, w = stepper_like(labels)
    nb = saved(root)
    models = ws.models_of(nb)
    assert set(ws.kernel_only(models, root.model_id)) == {w["prev"].model_id, w["next"].model_id}
    assert set(ws.stepped_views(nb)[0].controls) == {w["play"].model_id, w["step"].model_id}
    for lang in ("en", "fr"):
        assert [len(n.controls) for n in ws.add_kernel_notes(copy.deepcopy(nb), lang)] == [2]


def test_french_typography_and_every_word_of_the_site_in_both_languages():
    nb_ = "\u00a0"
    assert words.french_spaces("Suivant : « la page » ; oui ! non ?") == \
        f"Suivant{nb_}: «{nb_}la page{nb_}»{nb_}; oui{nb_}! non{nb_}?"
    assert words.french_spaces('<a href="x" title="a :b">Note :</a> <code>a : b</code>') == \
        f'<a href="x" title="a :b">Note{nb_}:</a> <code>a : b</code>'
    assert words.WORDS["en"].keys() == words.WORDS["fr"].keys()
    assert words.NOUNS["en"].keys() == words.NOUNS["fr"].keys()
    for key, text in words.WORDS["fr"].items():
        plain = re.sub(r"<code>.*?</code>", "", text)
        assert not re.search(r" [:;!?»]|« ", plain), (key, text)
        if key not in {"name", "notebook_col"}:  # 'Notebook' is the French course's own word too
            assert text != words.WORDS["en"][key], f"{key} is not translated"
    assert "Next" not in words.WORDS["fr"]["next_link"] and "Suivant" in words.WORDS["fr"]["next_link"]


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

def make_fake_node_modules(folder: Path) -> Path:
    """A stand-in for site_tools/node_modules with one small file per asset the build copies."""
    nm = folder / "node_modules"
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
def fake_node_modules(tmp_path) -> Path:
    return make_fake_node_modules(tmp_path)


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


# --- the slides' copies, run in the presenter theme -------------------------------------------------------------

COURSE_NOTEBOOKS = pg.notebook_paths(ROOT / "notebooks") + pg.notebook_paths(ROOT / "notebooks" / "fr")
#: the class every course widget drawn in the presenter theme carries (course_lib.widgets.base: course-ui-<px>)
PRESENTER_UI = f"course-ui-{Sizes.of(render.get_theme('presenter')).ui}"


@pytest.mark.parametrize("path", COURSE_NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_deck_has_a_copy_with_its_notebooks_code_drawn_in_the_presenter_theme(path):
    """A copy that drifts from its notebook (a code cell changed, added or removed) fails here, as a French twin does
    in tests/test_fr_twins.py: re-make it with tools/run_notebooks.py --slides <notebook>."""
    remake = f"re-make it: .venv/bin/python tools/run_notebooks.py --slides {path.relative_to(ROOT).as_posix()}"
    copy_file = decks.copy_path(path)
    assert copy_file.is_file(), f"{copy_file.relative_to(ROOT)} is missing: {remake}"
    nb, made = nbformat.read(path, as_version=4), nbformat.read(copy_file, as_version=4)
    assert decks.stale(nb, made) == "", f"{copy_file.relative_to(ROOT)}: {decks.stale(nb, made)}: {remake}"
    assert made.metadata.get(decks.COPY_KEY, {}).get("theme") == "presenter", remake
    assert len(ws.view_outputs(made)) == len(ws.view_outputs(nb)), f"the copy saved other widgets: {remake}"
    uis = {c for m in ws.models_of(made).values() for c in m["state"].get("_dom_classes", [])
           if c.startswith("course-ui-")}
    assert uis <= {PRESENTER_UI}, f"{copy_file.relative_to(ROOT)} has widgets drawn in another theme {uis}: {remake}"
    if any(c.startswith("course-ui-") for m in ws.models_of(nb).values() for c in m["state"].get("_dom_classes", [])):
        assert uis == {PRESENTER_UI}, f"{copy_file.relative_to(ROOT)}: no widget in the presenter theme: {remake}"
    # a widget that drew a graph in the notebook draws one in the copy (not an error message in its place)
    drawn = [[graph_drawn(n, root) for _, _, root in ws.view_outputs(n)] for n in (nb, made)]
    assert drawn[0] == drawn[1], f"{copy_file.relative_to(ROOT)}: views with a graph {drawn[1]}, the notebook " \
        f"{drawn[0]}: {remake}"


def graph_drawn(nb: dict, root: str) -> bool:
    """Whether the saved widget ``root`` of ``nb`` holds an SVG picture somewhere in its tree."""
    models = ws.models_of(nb)
    return any("<svg" in str(models[m]["state"].get("value", "")) for m in ws.tree(models, root))


def test_a_deck_takes_its_copys_outputs_and_its_notebooks_prose_or_says_how_to_remake_it(
        tmp_path, fake_node_modules, tiny_course):
    folder, guides = tiny_course
    deck_folder = tmp_path / "decks"
    deck_folder.mkdir()
    two = nbformat.read(folder / "01_two.ipynb", as_version=4)
    made = nbformat.from_dict(json.loads(json.dumps(two)))
    made.cells = [c for c in made.cells if c.cell_type == "code"]  # the prose comes from the notebook, not the copy
    made.cells[0].outputs.insert(0, nbformat.v4.new_output("stream", text="made by the presenter copy\n"))
    nbformat.write(made, deck_folder / "01_two.ipynb")
    out = tmp_path / "site"
    report = site_build.build(out, notebooks=folder, instructor=guides, node_modules=fake_node_modules,
                              decks=deck_folder)
    slides = (out / "slides" / "01_two.slides.html").read_text()
    page = (out / "01_two.html").read_text()
    assert "made by the presenter copy" in slides and "made by the presenter copy" not in page
    assert "See <a" in slides and "01 Two" in slides  # the notebook's markdown
    assert report.slides[1].views == report.pages[1].views == 1
    said = [w for w in report.warnings if "decks" in w]
    assert len(said) == 1 and "00_start.ipynb" in said[0] and "is missing" in said[0], report.warnings
    assert "tools/run_notebooks.py --slides" in said[0] and str(folder / "00_start.ipynb") in said[0]
    made.cells[0].source = "w  # changed since the copy was made"
    nbformat.write(made, deck_folder / "01_two.ipynb")
    report = site_build.build(out, notebooks=folder, instructor=guides, node_modules=fake_node_modules,
                              decks=deck_folder)
    said = [w for w in report.warnings if "01_two" in w]
    assert len(said) == 1 and "is stale (code cell 1 differs)" in said[0] and "--slides" in said[0], said
    assert "made by the presenter copy" not in (out / "slides" / "01_two.slides.html").read_text()


# --- the French edition -----------------------------------------------------------------------------------------

# Words the site itself says on an English page: none may be on a French page's bars, notes or indexes.
ENGLISH_CHROME = ("Course map", "Previous", "Next", "slides", "Slides", "What you will see", "Instructor guides",
                  "Solutions and notes", "static edition", "running course", "Here, without it", "works", "work",
                  "Page", "The course")
CHROME_CLASSES = {"course-nav", "course-static-note", "course-slides-nav"}


class _Chrome(HTMLParser):
    """What the site adds to a page, as text: its bars, its note, the slides' corner links and the <title>; and
    the language of <html> and the targets of the language switch."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.switch: list[tuple[str, str]] = []  # (hreflang, href), each once (the bar is at the top and foot)
        self.html_lang: str | None = None
        self._open: list[str] = []  # tags of the chrome element being read, and those inside it
        self._title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.html_lang = a.get("lang")
        if tag == "title":
            self._title = True
        if (self._open or CHROME_CLASSES & set((a.get("class") or "").split())) and \
                tag not in {"br", "img", "input", "meta", "link"}:
            self._open.append(tag)
        if tag == "a" and a.get("hreflang") and (a["hreflang"], a.get("href", "")) not in self.switch:
            self.switch.append((a["hreflang"], a.get("href", "")))

    def handle_endtag(self, tag):
        if tag == "title":
            self._title = False
        if self._open and self._open[-1] == tag:
            self._open.pop()
            if not self._open:
                self.parts.append("\n")

    def handle_data(self, data):
        if self._open or self._title:
            self.parts.append(data)


def chrome(text: str) -> _Chrome:
    parser = _Chrome()
    parser.feed(text)
    parser.close()
    return parser


def kernel_notes(text: str) -> list[str]:
    """The notes beside greyed controls in a built page (HTML): in its saved widget state (a note inside a widget)
    and in its outputs (a note after a widget)."""
    m = re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', text, re.DOTALL)
    state = json.loads(m.group(1))["state"] if m else {}
    inside = [rec["state"]["value"] for rec in state.values()
              if ws.NOTE_CLASS in str(rec.get("state", {}).get("value", ""))]
    after = re.findall(rf'<div class="{ws.NOTE_CLASS}".*?</div>', text.replace(m.group(0), "") if m else text)
    return inside + after


def site_words(note: str) -> str:
    """A note's text without the controls' own names (<b>…</b>: the notebook's saved labels, not the site's)."""
    return re.sub(r"<[^>]+>", "", re.sub(r"<b>.*?</b>", "", note))


def english_words_in(text: str) -> list[str]:
    return [w for w in ENGLISH_CHROME if re.search(rf"\b{re.escape(w)}\b", text)]


def bad_french_spaces(text: str) -> list[str]:
    text = re.sub(r"<code>.*?</code>", "", text)
    return re.findall(r"\S* [:;!?»]|« \S*", text)


@pytest.fixture(scope="module")
def real_site(tmp_path_factory) -> site_build.Report:
    """The course's own notebooks, English and French, built with stand-in scripts (no npm needed)."""
    base = tmp_path_factory.mktemp("real-site")
    return site_build.build(base / "site", node_modules=make_fake_node_modules(base), decks=decks.DECKS)


FR_STEMS = [p.stem for p in pg.notebook_paths(ROOT / "notebooks" / "fr")]


def test_the_french_edition_has_a_page_and_slides_for_every_french_notebook(real_site):
    out = real_site.out
    assert FR_STEMS and [e.folder for e in real_site.editions] == ["", "fr/"]
    assert [b.stem for b in real_site.pages if b.lang == "fr"] == FR_STEMS
    for stem in FR_STEMS:
        assert (out / "fr" / f"{stem}.html").is_file() and (out / "fr" / "slides" / f"{stem}.slides.html").is_file()
    assert (out / "fr" / "index.html").is_file()
    index = (out / "fr" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<tr><td><a href="([^"]+)"', index) == [f"{s}.html" for s in FR_STEMS]
    guides = sorted(p.name for p in (out / "fr" / "instructor").glob("*.html"))
    assert guides == sorted(["index.html", *(f"{p.stem}.html" for p in site_build.guides_of(
        ROOT / "instructor" / "fr"))]) and len(guides) > 1
    students = [*(out / "fr").glob("*.html"), *(out / "fr").glob("slides/*.html")]
    assert not [p.name for p in students if 'href="instructor' in p.read_text(encoding="utf-8")
                or "/instructor/" in " ".join(re.findall(r'href="([^"]*)"', p.read_text(encoding="utf-8")))]


def test_every_page_says_its_language(real_site):
    out = real_site.out
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 2 * len(FR_STEMS)
    wrong = [(p.relative_to(out).as_posix(), chrome(p.read_text(encoding="utf-8")).html_lang) for p in pages]
    wrong = [(rel, lang) for rel, lang in wrong if lang != ("fr" if rel.startswith("fr/") else "en")]
    assert not wrong, f"pages whose <html lang> is not their edition's: {wrong}"


def test_each_page_links_its_twin_in_the_other_language_and_back(real_site):
    out = real_site.out
    checked = 0
    for page in sorted(out.rglob("*.html")):
        rel = page.relative_to(out).as_posix()
        french = rel.startswith("fr/")
        twin_rel = rel[3:] if french else f"fr/{rel}"
        switch = chrome(page.read_text(encoding="utf-8")).switch
        if not (out / twin_rel).is_file():
            assert switch == [], f"{rel} links a twin it does not have: {switch}"
            continue
        assert switch == [("en" if french else "fr", switch[0][1])] if switch else False, \
            f"{rel} has no link to {twin_rel}"
        target = (page.parent / switch[0][1]).resolve()
        assert target == (out / twin_rel).resolve(), f"{rel} links {switch[0][1]}, not its twin {twin_rel}"
        back = chrome(target.read_text(encoding="utf-8")).switch
        assert back and (target.parent / back[0][1]).resolve() == page.resolve(), f"{twin_rel} does not link back"
        checked += 1
    assert checked >= 4 * len(FR_STEMS)  # pages and slides, both ways, at least
    texts = {rel: chrome((out / rel).read_text(encoding="utf-8")).parts
             for rel in ["04_side_by_side.html", "fr/04_side_by_side.html", "index.html", "fr/index.html"]}
    assert "Français" in "".join(texts["04_side_by_side.html"]) and "Français" in "".join(texts["index.html"])
    assert "English" in "".join(texts["fr/04_side_by_side.html"]) and "English" in "".join(texts["fr/index.html"])


def test_french_pages_say_the_sites_words_in_french(real_site):
    out = real_site.out
    nb_ = "\u00a0"
    for stem in FR_STEMS:
        text = (out / "fr" / f"{stem}.html").read_text(encoding="utf-8")
        bars = "".join(chrome(text).parts)
        assert "Sommaire" in bars and "L'édition statique" in bars and "./course start --lang fr" in bars
        if stem != FR_STEMS[0]:
            assert f"← Précédent{nb_}:" in bars, stem
        if stem != FR_STEMS[-1]:
            assert f"Suivant{nb_}:" in bars, stem
        said = bars + "".join(site_words(n) for n in kernel_notes(text))
        assert not english_words_in(said.replace("English", "")), (stem, english_words_in(said))
        assert not bad_french_spaces(said), (stem, bad_french_spaces(said))
        slides = (out / "fr" / "slides" / f"{stem}.slides.html").read_text(encoding="utf-8")
        corner = "".join(chrome(slides).parts)
        assert "La page" in corner and "Sommaire" in corner and not english_words_in(corner.replace("English", ""))
    for rel in ["fr/index.html", "fr/instructor/index.html"]:
        body = re.sub(r"<[^>]+>", " ", (out / rel).read_text(encoding="utf-8").split("<main>")[1])
        assert not english_words_in(body.replace("English", "")), (rel, english_words_in(body))
        assert not bad_french_spaces(body), (rel, bad_french_spaces(body))
    index = (out / "fr" / "index.html").read_text(encoding="utf-8")
    assert "<h2>Le plan du cours</h2>" in index and "<th>Ce que vous y verrez</th>" in index
    english = "".join(chrome((out / "04_side_by_side.html").read_text(encoding="utf-8")).parts)
    assert "← Previous: " in english and "Next: " in english and "Course map" in english


def test_french_pages_grey_the_same_controls_with_a_french_note(real_site):
    out = real_site.out
    # a page beside the English page, a deck beside the English deck (the decks show the slides' copies)
    english = {(b.stem, b in real_site.slides): b for b in real_site.pages + real_site.slides if b.lang == "en"}
    noted = 0
    for b in (b for b in real_site.pages + real_site.slides if b.lang == "fr"):
        twin = english[b.stem, b in real_site.slides]
        assert b.notes == twin.notes, f"{b.path.name}: {b.notes} notes in French, {twin.notes} in English"
        notes = kernel_notes(b.path.read_text(encoding="utf-8"))
        assert notes, b.path
        for note in notes:
            assert 'lang="fr"' in note and "du cours en marche\u00a0: <code>./course start --lang fr</code>." in note
            assert "running course" not in note and "Here, without it" not in note
        noted += len(notes)
    assert noted >= len(FR_STEMS)
    steppers = (out / "fr" / "04_side_by_side.html").read_text(encoding="utf-8")
    assert "Ici, sans lui" in "".join(kernel_notes(steppers)) and "fonctionne" in "".join(kernel_notes(steppers))


def test_the_editions_share_one_assets_folder(real_site):
    out = real_site.out
    own = [p.relative_to(out).as_posix() for p in (out / "fr").rglob("*") if p.is_file() and p.suffix != ".html"]
    assert own == [], f"files copied under site/fr: {own[:5]}"
    assets = (out / "assets").resolve()
    for page in (out / "fr").rglob("*.html"):
        local = [u for u in scan.loaded_urls(page.read_text(encoding="utf-8"))
                 if not scan.is_external(u) and not u.startswith(("data:", "#", "blob:", "about:"))]
        assert local, page
        outside = [u for u in local if assets not in (page.parent / u).resolve().parents]
        assert outside == [], f"{page.relative_to(out)} loads files outside site/assets: {outside}"
    assert site_build.check(real_site) == []


def test_a_bilingual_tiny_course_and_what_its_check_refuses(tmp_path, fake_node_modules, tiny_course):
    folder, guides = tiny_course
    (folder / "fr").mkdir()
    (guides / "fr").mkdir()
    root, _ = stepper_like(FRENCH_LABELS)
    second = saved(root)
    second.cells.insert(0, md("# 01 Deux\n\nVoir [le début](00_start.ipynb)."))
    fr_map = MAP.replace("## 2. The course map", "## 2. Le plan du cours").replace("This page.", "Cette page !")
    for name, nb in {"00_start": notebook(md("# Commencer ici : un tout petit cours"), md(fr_map)),
                     "01_two": second}.items():
        nbformat.write(nbformat.from_dict(nb), folder / "fr" / f"{name}.ipynb")
    (guides / "fr" / "01_two_solutions.md").write_text("# 01 : solutions\n")
    (guides / "fr" / "README.md").write_text("# Ce dossier\n")
    out = tmp_path / "site"
    report = site_build.build(out, notebooks=folder, instructor=guides, node_modules=fake_node_modules)
    assert [(b.lang, b.stem) for b in report.pages] == [("en", "00_start"), ("en", "01_two"), ("fr", "00_start"),
                                                         ("fr", "01_two")]
    page = (out / "fr" / "01_two.html").read_text()
    assert '<html lang="fr">' in page and 'href="../01_two.html" hreflang="en" lang="en">English</a>' in page
    assert "← Précédent\u00a0: 00 Start</a>" in page and ">Sommaire</a>" in page
    assert '<script src="../assets/require.js">' in page and "../../assets/reveal.js/dist/reveal.js" in (
        out / "fr" / "slides" / "01_two.slides.html").read_text()
    assert 'href="fr/01_two.html" hreflang="fr" lang="fr">Français</a>' in (out / "01_two.html").read_text()
    index = (out / "fr" / "index.html").read_text()
    assert "<h1>Commencer ici</h1>" in index and "Cette page\u00a0!" in index and '<html lang="fr">' in index
    assert sorted(p.name for p in (out / "fr" / "instructor").iterdir()) == ["01_two_solutions.html", "index.html"]
    assert 'href="../../instructor/01_two_solutions.html"' in (out / "fr" / "instructor" / "01_two_solutions.html"
                                                               ).read_text()
    assert site_build.check(report) == []
    shutil.copytree(out / "assets", out / "fr" / "assets")
    problems = site_build.check(report)
    assert len(problems) == 1 and "the fr edition holds files of its own (fr/assets/" in problems[0]
    shutil.rmtree(out / "fr" / "assets")
    (out / "fr" / "01_two.html").unlink()
    problems = site_build.check(report)
    assert any("01_two.html links fr/01_two.html, a page the site does not have" in p for p in problems), problems


def test_an_out_that_is_a_file_is_refused_in_words(tmp_path: Path) -> None:
    """``--out FILE`` once ended in a traceback from mkdir; the build now says what to give instead."""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine\n")
    with pytest.raises(site_build.BuildError, match="is a file, not a folder"):
        site_build.prepare_out(a_file)
    assert a_file.read_text() == "mine\n"
    assert site_build.main(["--out", str(a_file)]) == 1
