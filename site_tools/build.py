"""Build the static edition of the course: ``python -m site_tools.build [--out site]`` (``./course site`` runs it).

From the committed notebooks, never executed: ``index.html`` (the start page's course map), one page per notebook
with links to the previous and next ones, reveal.js slides per notebook in ``slides/`` (their outputs and widgets
from the notebook's copy run in the presenter theme, :mod:`site_tools.decks`), the instructor guides in
``instructor/`` (linked from no student page), and in ``assets/`` every script, style sheet and font the pages load,
copied from ``site_tools/node_modules`` (pinned in ``package.json`` + ``package-lock.json``; ``npm ci`` installs
them). The French edition is built the same way from ``notebooks/fr/`` and ``instructor/fr/`` into ``fr/`` (its own
index, pages, slides and guides, every word the site adds in French, :mod:`site_tools.words`); it loads the same
``assets/``. Each page links to its twin in the other language. Widgets come alive from the state saved in each
notebook; a control that needs Python is disabled and says so (:mod:`site_tools.widget_state`). The build fails,
saying why, if a page would load anything from another host, loads a file the site does not have, links a page of
the site that is not there, or is over the size limits. Nothing the notebooks or guides carry runs on a page: their
markdown, outputs and the HTML inside saved widgets are cleaned the way JupyterLab cleans untrusted HTML
(:mod:`site_tools.sanitize`); a notebook whose saved widget state is unusable gets a page showing the widgets' text,
and a warning that names it and says what to do.
"""

from __future__ import annotations

import argparse
import copy
import html
import posixpath
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import decks as dk
from . import pages as pg
from . import sanitize, scan
from . import widget_state as ws
from . import words as wd

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "site_tools"
TEMPLATES = TOOLS / "templates"
NODE_MODULES = TOOLS / "node_modules"
MB = 1_000_000
MAX_PAGE_BYTES = 3 * MB
MAX_SITE_BYTES = 40 * MB
MARKER = ".course-site"
#: The slides' own size in CSS px, magnified by reveal.js to fill the screen: 1280x720 shows it at 1.2. A widget
#: sizes itself for JupyterLab at 1280x720, which leaves it about 1070 px by 590 px (its graph's height is
#: ``100vh`` less the lab's bars, sizing.fit_height); a slide of that size holds it whole, and the projector
#: gets its labels and words 1.2 times as large.
SLIDE = (1067, 600)  # written into the output folder: only a folder carrying it is ever emptied

# (from node_modules, to site/assets): what every page needs; fonts of Font Awesome ride with the widget manager.
CORE_ASSETS = [
    ("requirejs/require.js", "require.js"),
    ("requirejs/README.md", "require.js.README.md"),
    ("@jupyter-widgets/html-manager/dist/embed-amd.js", "html-manager/embed-amd.js"),
    ("@jupyter-widgets/html-manager/dist/*.woff2", "html-manager/"),
    ("@jupyter-widgets/html-manager/dist/*.woff", "html-manager/"),
    ("@jupyter-widgets/html-manager/dist/*.ttf", "html-manager/"),
    ("@jupyter-widgets/html-manager/dist/embed.js.LICENSE.txt", "html-manager/LICENSE.txt"),
    ("@fortawesome/fontawesome-free/LICENSE.txt", "html-manager/fontawesome-LICENSE.txt"),
]
MATHS_ASSETS = [
    ("mathjax/es5/tex-svg.js", "mathjax/tex-svg.js"),
    ("mathjax/es5/input/tex/extensions", "mathjax/input/tex/extensions"),
    ("mathjax/es5/ui/safe.js", "mathjax/ui/safe.js"),  # no javascript: link from \href in a formula
    ("mathjax/LICENSE", "mathjax/LICENSE"),
]
#: the course's accessibility enhancer (issue 27; the JupyterLab extension's one file, labextension/course-a11y): names
#: Play's icon-only buttons and says each step in a live region; every page and deck with widgets loads it
ENHANCER = (ROOT / "labextension" / "course-a11y" / "static" / "remoteEntry.js", "course-a11y.js")
SLIDES_ASSETS = [
    ("reveal.js/dist/reveal.js", "reveal.js/dist/reveal.js"),
    ("reveal.js/dist/reveal.css", "reveal.js/dist/reveal.css"),
    ("reveal.js/dist/theme/white.css", "reveal.js/dist/theme/white.css"),
    ("reveal.js/dist/theme/fonts/source-sans-pro", "reveal.js/dist/theme/fonts/source-sans-pro"),
    ("reveal.js/LICENSE", "reveal.js/LICENSE"),
]


def static_note(lang: str = "en") -> str:
    """The sentence on every page and index: what works here, and the command for the rest."""
    w = wd.words(lang)
    return w["static_note"].format(command=w["command"])


STATIC_NOTE = static_note("en")


class BuildError(Exception):
    """The site cannot be built or breaks a rule; the message says what and what to do."""


@dataclass(frozen=True)
class Edition:
    """One language of the site: where its notebooks and guides are, and its folder in the site ('' for English,
    the site's root; 'fr/' for French)."""
    lang: str
    notebooks: Path
    instructor: Path
    folder: str

    @property
    def root(self) -> str:
        """From a page of this edition to the site's root (where assets/ is): '' or '../'."""
        return "../" * self.folder.count("/")


def editions(notebooks: Path, instructor: Path) -> list[Edition]:
    """English from ``notebooks`` and ``instructor``; each other language of the course from ``notebooks/<lang>/``
    and ``instructor/<lang>/``, when that folder holds notebooks."""
    found = [Edition("en", notebooks, instructor, "")]
    for lang in wd.LANGS[1:]:
        if pg.notebook_paths(notebooks / lang):
            found.append(Edition(lang, notebooks / lang, instructor / lang, f"{lang}/"))
    return found


@dataclass
class Built:
    """One notebook's page (or slides) as built: what the browser tests check it against."""
    stem: str
    path: Path
    bytes: int
    views: int                       # widget views saved in the notebook (each must render)
    notes: int                       # notes saying a control needs a running course
    stepped: list[ws.Stepped]        # widget views that step with no kernel
    graphics: int                    # outputs holding a picture (SVG/PNG) outside the widgets
    lang: str = "en"
    maths: bool = False              # loads MathJax


@dataclass
class Report:
    out: Path
    pages: list[Built] = field(default_factory=list)
    slides: list[Built] = field(default_factory=list)
    others: list[Path] = field(default_factory=list)  # indexes, instructor pages
    warnings: list[str] = field(default_factory=list)
    total_bytes: int = 0
    seconds: float = 0.0
    maths: list[str] = field(default_factory=list)  # pages that load MathJax: '06_…', 'fr/06_…'
    editions: list[Edition] = field(default_factory=list)


def require_node_modules(node_modules: Path = NODE_MODULES) -> None:
    if not (node_modules / "@jupyter-widgets" / "html-manager").is_dir():
        raise BuildError(f"{node_modules} is missing or incomplete: the pages' scripts come from there. Run "
                         "./course site (it runs npm ci), or: cd site_tools && npm ci")


def copy_assets(pairs: list[tuple[str, str]], node_modules: Path, assets: Path) -> None:
    for src, dst in pairs:
        matches = sorted(node_modules.glob(src)) if "*" in src else [node_modules / src]
        if not matches or not all(m.exists() for m in matches):
            raise BuildError(f"{node_modules / src} is missing: cd site_tools && npm ci")
        for m in matches:
            target = assets / dst / m.name if dst.endswith("/") else assets / dst
            target.parent.mkdir(parents=True, exist_ok=True)
            if m.is_dir():
                shutil.copytree(m, target, dirs_exist_ok=True)
            else:
                shutil.copyfile(m, target)


def prepare_out(out: Path) -> None:
    """Empty ``out`` for a new build; refuse a non-empty folder the build did not make."""
    if out.exists() and not out.is_dir():
        raise BuildError(f"--out {out} is a file, not a folder: give a folder for the site (made if missing)")
    if out.exists():
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise BuildError(f"{out} exists, is not empty and was not made by this build: choose another --out "
                             "or remove it yourself")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text("built by python -m site_tools.build; emptied by the next build\n")


def inline_markdown(text: str) -> str:
    from nbconvert.filters.markdown import markdown2html

    out = sanitize.clean(markdown2html(text)).strip()
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") else out


def link(href: str, text: str, lang: str = "en", **attrs: str) -> str:
    """``<a>`` to ``href`` saying ``text`` (escaped, with the typography of ``lang``); ``attrs`` as attributes."""
    extra = "".join(f' {k.rstrip("_")}="{html.escape(v)}"' for k, v in attrs.items())
    return f'<a href="{html.escape(href)}"{extra}>{wd.typography(lang, html.escape(text))}</a>'


def relative(here: str, there: str) -> str:
    """The link from the site file ``here`` to the site file ``there`` (both relative to the site's root)."""
    return posixpath.relpath(there, posixpath.dirname(here) or ".")


def switch_html(here: str, twins: list[tuple[str, str]]) -> str:
    """Links from the page ``here`` to its twins in the other languages, ``twins`` = [(lang, path)], each named in
    its own language ('Français', 'English'); '' when it has none."""
    found = [link(relative(here, there), wd.words(lang)["name"], lang, hreflang=lang, lang_=lang)
             for lang, there in twins]
    return f'<span class="course-lang">{" · ".join(found)}</span>' if found else ""


def nav_html(page: pg.Page, prev: pg.Page | None, nxt: pg.Page | None, slides: bool, lang: str = "en",
             switch: str = "") -> tuple[str, str]:
    """The bar above a page (with the note on what works here) and the same bar at its foot: the course map, the
    page's title and slides, the previous and next pages, the page in the other language."""
    w = wd.words(lang)
    left = link("index.html", w["course_map"], lang, class_="course-nav-map")
    middle = f'<span class="course-nav-middle">{wd.typography(lang, html.escape(page.title))}'
    if slides:
        middle += f" · {link(page.slides_href, w['slides_link'], lang)}"
    middle += "</span>"
    back = link(prev.href, w["previous_link"].format(title=prev.title), lang, rel="prev") if prev else ""
    fwd = link(nxt.href, w["next_link"].format(title=nxt.title), lang, rel="next") if nxt else ""
    right = f'<span class="course-nav-pages">{back}{" · " if back and fwd else ""}{fwd}</span>'
    links = f'{left}{middle}{right}{switch}'
    # one navigation landmark (the top bar); the foot's copy of it is a plain bar, so a screen reader's list of
    # landmarks has no two unnamed navigations alike (axe-core's landmark-unique)
    return (f'<nav class="course-nav" lang="{lang}">{links}</nav>'
            f'<p class="course-static-note" lang="{lang}">{static_note(lang)}</p>',
            f'<div class="course-nav" lang="{lang}">{links}</div>')


def count_graphics(nb: dict) -> int:
    return sum(1 for cell in nb.get("cells", []) for out in cell.get("outputs", [])
               if "image/svg+xml" in out.get("data", {}) or "image/png" in out.get("data", {})
               or "<svg" in "".join(out.get("data", {}).get("text/html", "")))


def exporters(slides: bool, edition: Edition | None = None):
    """nbconvert's exporters for one edition's pages and slides: ``<html lang>`` of its language, reveal.js from the
    site's shared assets/ (``../assets`` from slides/, ``../../assets`` from fr/slides/)."""
    from nbconvert import HTMLExporter, SlidesExporter

    lang, root = (edition.lang, edition.root) if edition else ("en", "")
    # lab's own switch to sanitize markdown and outputs (and drop JavaScript outputs), with our cleaner in it
    common = {"extra_template_basedirs": [str(TEMPLATES)], "extra_template_paths": [str(TEMPLATES / "shared")],
              "theme": "light", "language_code": lang, "sanitize_html": True,
              "filters": {"clean_html": sanitize.clean}}
    page = HTMLExporter(template_name="course_page", **common)
    deck = SlidesExporter(template_name="course_slides", reveal_url_prefix=f"../{root}assets/reveal.js",
                          reveal_theme="white", reveal_width=str(SLIDE[0]), reveal_height=str(SLIDE[1]),
                          reveal_transition="slide", **common) if slides else None
    return page, deck


def build_notebook(page: pg.Page, nb: dict, nav: tuple[str, str], exporter, stems: set[str], out: Path,
                   *, root: str, maths: bool, slides: bool, nav_slides: str = "", lang: str = "en",
                   styles: str = "") -> Built:
    """One page (or, with ``slides``, one slide deck) of ``nb`` into the edition's folder ``out``, its notes in
    ``lang``; ``root`` leads from the written file to the site's root (assets/); ``styles``, the course widgets'
    style sheets (:func:`prepare_widgets`), go in its head."""
    import nbformat

    own = copy.deepcopy(nb)
    stepped = ws.stepped_views(own)
    notes = ws.add_kernel_notes(own, lang)
    if slides:  # each section a slide, unless a cell says otherwise
        pg.set_slide_types(own)
    resources = {"course": {"root": root, "maths": maths, "nav_top": nav[0], "nav_bottom": nav[1],
                            "nav_slides": nav_slides, "lang": lang, "styles": styles},
                 "metadata": {"name": page.title}}
    body, _ = exporter.from_notebook_node(nbformat.from_dict(own), resources=resources)
    body = pg.rewrite_links(body, stems, prefix="../" if slides else "")
    path = out / (page.slides_href if slides else page.href)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return Built(page.stem, path, path.stat().st_size, len(ws.view_outputs(own)), len(notes), stepped,
                 count_graphics(nb), lang, maths)


def _shown(path: Path) -> str:
    """How a message names a file: from the project's root when it is inside it."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def read_notebook(path: Path) -> tuple[dict | None, str]:
    """(the notebook, '') or (None, why it cannot be read and what to do): a file that is not a notebook's JSON
    gets no page, and the other pages are still built."""
    import nbformat

    try:
        return nbformat.read(path, as_version=4), ""
    except Exception as err:  # nbformat raises JSON, validation, version and OS errors alike
        reason = " ".join(str(err).split())[:160]
        return None, (f"{_shown(path)} cannot be read as a notebook ({type(err).__name__}: {reason}): it has no page. "
                      f"Restore it (git checkout -- {_shown(path)}) or open and save it in JupyterLab")


def prepare_widgets(path: Path, nb: dict) -> tuple[list[str], str]:
    """Check and clean the saved widgets of ``nb`` (in place): the warnings, each naming the notebook and what to
    do, and the course widgets' style sheets for the page's head. An unusable saved state is dropped (the page shows
    the widgets' text); a view whose model was not saved shows its text; every HTML value is cleaned."""
    name, warnings = _shown(path), []
    problems = ws.state_problems(nb)
    if problems:
        ws.drop_views(nb)
        more = f" (and {len(problems) - 2} more)" if len(problems) > 2 else ""
        warnings.append(f"{name}: its saved widget state cannot be shown: {'; '.join(problems[:2])}{more}. Its page "
                        f"shows the widgets' text instead. Re-run it to save the state again (.venv/bin/python "
                        f"tools/run_notebooks.py {name}), or delete the \"widgets\" entry of its metadata")
    lost = ws.lost_views(nb)
    if lost:
        ws.drop_views(nb, set(lost))
        warnings.append(f"{name}: cell(s) {', '.join(map(str, lost))} show a widget whose state was not saved: the "
                        f"page shows its text. Re-run it with tools/run_notebooks.py {name} (it saves widget state)")
    return warnings, "".join(f"<style>{s}</style>" for s in dict.fromkeys(sanitize.clean_models(ws.models_of(nb))))


def render_plain(title: str, body: str, root: str, lang: str = "en") -> str:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=False)
    return env.get_template("page.html.j2").render(title=title, body=body, root=root, lang=lang)


def build_index(pages: list[pg.Page], out: Path, slides: bool, start_title: str, lang: str = "en",
                root: str = "", switch: str = "") -> Path:
    """The edition's course map, ``index.html`` in ``out`` (the edition's folder; ``root`` leads to the site's)."""
    w = wd.words(lang)
    rows = []
    for p in pages:
        sentence = wd.typography(lang, inline_markdown(p.sentence)) if p.sentence else ""
        cells = f"<td>{link(p.href, p.title, lang)}</td><td>{sentence}</td>"
        if slides:
            cells += f"<td>{link(p.slides_href, w['slides_link'], lang)}</td>"
        rows.append(f"<tr>{cells}</tr>")
    head = (f"<th>{w['notebook_col']}</th><th>{w['sentence_col']}</th>"
            + (f"<th>{w['slides_col']}</th>" if slides else ""))
    title = wd.typography(lang, html.escape(start_title))
    body = (f'<nav class="course-nav course-nav-index" lang="{lang}"><span></span>{switch}</nav>' if switch else "")
    body += (f"<h1>{title}</h1>"
             f'<p class="course-static-note">{static_note(lang)}</p>'
             f"<h2>{w['map_heading']}</h2>"
             f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    path = out / "index.html"
    path.write_text(render_plain(title, body, root, lang), encoding="utf-8")
    return path


def guides_of(folder: Path) -> list[Path]:
    """The instructor guides of a folder: its ``*.md`` but the folder's own README."""
    return sorted(p for p in folder.glob("*.md") if p.name.lower() != "readme.md") if folder.is_dir() else []


def build_instructor(folder: Path, out: Path, stems: set[str], lang: str = "en", prefix: str = "",
                     twins: dict[str, list[tuple[str, str]]] | None = None) -> list[Path]:
    """Each guide of ``folder`` as a page of ``out/{prefix}instructor/`` (``prefix`` is an edition's folder,
    'fr/'), and an index of them, linked from no student page. ``twins`` maps a written file (relative to the
    site's root ``out``) to its twins in the other languages: [(lang, path)]."""
    from nbconvert.filters.markdown import markdown2html

    guides = guides_of(folder)
    if not guides:
        return []
    w, twins = wd.words(lang), twins or {}
    target = out / prefix / "instructor"
    target.mkdir(parents=True, exist_ok=True)
    root = "../" * (prefix.count("/") + 1)

    def bar(path: Path) -> str:
        rel = path.relative_to(out).as_posix()
        return (f'<nav class="course-nav" lang="{lang}">{link("index.html", w["instructor_title"], lang)}'
                f"{switch_html(rel, twins.get(rel, []))}</nav>")

    written, items = [], []
    for md in guides:
        text = md.read_text(encoding="utf-8")
        title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("#")), md.stem)
        path = target / f"{md.stem}.html"
        body = bar(path) + sanitize.clean(markdown2html(text))
        path.write_text(pg.rewrite_links(render_plain(html.escape(title), body, root, lang), stems, prefix="../"),
                        encoding="utf-8")
        written.append(path)
        items.append(f"<li>{link(path.name, title, lang)}</li>")
    index = target / "index.html"
    index.write_text(render_plain(w["instructor_title"], f"{bar(index)}<h1>{w['instructor_title']}</h1>"
                                  f"<p>{w['instructor_intro']}</p><ul>{''.join(items)}</ul>", root, lang),
                     encoding="utf-8")
    return [index, *written]


def check(report: Report) -> list[str]:
    """Every rule of the built site; the problems, each saying what to do."""
    problems = []
    out = report.out
    for path in sorted(out.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(out)
        for url in scan.external_loads(text):
            problems.append(f"{rel} loads {url} from another host: serve it from site/assets (site_tools/build.py)")
        for url in scan.missing_local(text, path, out):
            problems.append(f"{rel} loads {url}, which the site does not have")
        for url in scan.broken_links(text, path, out):
            problems.append(f"{rel} links {url}, a page the site does not have")
        size = path.stat().st_size
        if size > MAX_PAGE_BYTES:
            problems.append(f"{rel} is {size / MB:.2f} MB, over the {MAX_PAGE_BYTES / MB:.0f} MB a page may "
                            "weigh: its notebook's outputs or widget frames are too big")
    for ed in report.editions:
        if ed.folder:
            own = [p.relative_to(out).as_posix() for p in sorted((out / ed.folder).rglob("*"))
                   if p.is_file() and p.suffix != ".html"]
            if own:
                problems.append(f"the {ed.lang} edition holds files of its own ({', '.join(own[:3])}…): its pages "
                                f"load the site's shared assets/ ({ed.root}assets/), never a copy")
    if report.total_bytes > MAX_SITE_BYTES:
        problems.append(f"the site is {report.total_bytes / MB:.1f} MB, over {MAX_SITE_BYTES / MB:.0f} MB")
    return problems


@dataclass
class _Loaded:
    """One edition's notebooks, read."""
    edition: Edition
    paths: list[Path]
    nbs: dict[str, dict]
    pages: list[pg.Page]
    styles: dict[str, str] = field(default_factory=dict)  # stem -> the course widgets' style sheets
    decks: dict[str, tuple[dict, str]] = field(default_factory=dict)  # stem -> (what its slides show, their styles)

    @property
    def stems(self) -> set[str]:
        return {p.stem for p in self.pages}


def _twins(here: _Loaded, loaded: list[_Loaded], rel: str, exists) -> list[tuple[str, str]]:
    """(lang, path from the site's root) of the other editions' file at ``rel`` (relative to an edition's folder),
    when ``exists(other, rel)`` says that edition has it."""
    return [(o.edition.lang, o.edition.folder + rel) for o in loaded if o is not here and exists(o, rel)]


def build_edition(ed: _Loaded, loaded: list[_Loaded], out: Path, report: Report, slides: bool) -> None:
    """Pages, slides, index and guides of one edition into its folder of the site."""
    e = ed.edition
    w = wd.words(e.lang)
    folder = out / e.folder if e.folder else out
    page_exporter, slides_exporter = exporters(slides, e)
    near = pg.neighbours(ed.pages)

    def has_page(o: _Loaded, rel: str) -> bool:
        return Path(rel).stem.removesuffix(".slides") in o.stems and (slides or not rel.startswith("slides/"))

    for page in ed.pages:
        prev, nxt = near[page.stem]
        maths = e.folder + page.stem in report.maths
        switch = switch_html(e.folder + page.href, _twins(ed, loaded, page.href, has_page))
        report.pages.append(build_notebook(page, ed.nbs[page.stem], nav_html(page, prev, nxt, slides, e.lang, switch),
                                           page_exporter, ed.stems, folder, root=e.root, maths=maths, slides=False,
                                           lang=e.lang, styles=ed.styles.get(page.stem, "")))
        if slides_exporter is not None:
            here = e.folder + page.slides_href
            back = (f'<nav class="course-slides-nav" lang="{e.lang}">{link("../" + page.href, w["page_link"], e.lang)}'
                    f'{link("../index.html", w["course_map"], e.lang)}'
                    f'{switch_html(here, _twins(ed, loaded, page.slides_href, has_page))}</nav>')
            deck, styles = ed.decks.get(page.stem, (ed.nbs[page.stem], ed.styles.get(page.stem, "")))
            report.slides.append(build_notebook(page, deck, ("", ""), slides_exporter, ed.stems, folder,
                                                root="../" + e.root, maths=maths, nav_slides=back, slides=True,
                                                lang=e.lang, styles=styles))
    start_title = pg.first_heading(ed.nbs[ed.paths[0].stem]).split(":")[0].strip() or w["the_course"]
    index_switch = switch_html(e.folder + "index.html", _twins(ed, loaded, "index.html", lambda o, rel: True))
    report.others.append(build_index(ed.pages, folder, slides, start_title, e.lang, e.root, index_switch))

    guides = {o.edition.lang: {p.stem for p in guides_of(o.edition.instructor)} for o in loaded}

    def has_guide(o: _Loaded, rel: str) -> bool:
        name = rel.removeprefix("instructor/").removesuffix(".html")
        return bool(guides[o.edition.lang]) and (name == "index" or name in guides[o.edition.lang])

    twins = {}
    for name in ["index", *sorted(guides[e.lang])]:
        rel = f"instructor/{name}.html"
        twins[e.folder + rel] = _twins(ed, loaded, rel, has_guide)
    report.others.extend(build_instructor(e.instructor, out, ed.stems, e.lang, e.folder, twins))


def read_deck(path: Path, nb: dict, notebooks: Path, decks: Path) -> tuple[dict | None, list[str]]:
    """The notebook ``nb`` (read from ``path``) as its slides show it: with the outputs and widgets of its copy run
    in the presenter theme, checked and cleaned like a page's (:func:`prepare_widgets`); (None, [why]) when that
    copy is missing, unreadable or stale, each warning saying how to make it again."""
    copy_file = dk.copy_path(path, notebooks, decks)
    remake = (f"its slides show the widgets drawn for a screen, not for a projector. Make the copy again: "
              f".venv/bin/python tools/run_notebooks.py --slides {_shown(path)}")
    if not copy_file.exists():
        return None, [f"{_shown(path)}: {_shown(copy_file)}, its slides' copy, is missing: {remake}"]
    copy, problem = read_notebook(copy_file)
    if copy is None:
        return None, [f"{problem}; {remake}"]
    deck, problem = dk.for_slides(nb, copy)
    if problem:
        return None, [f"{_shown(path)}: its slides' copy {_shown(copy_file)} is stale ({problem}): {remake}"]
    return deck, []


def build(out: Path, *, notebooks: Path = ROOT / "notebooks", instructor: Path = ROOT / "instructor",
          slides: bool = True, node_modules: Path = NODE_MODULES, decks: Path | None = None) -> Report:
    """Build the site into ``out``: the English edition at its root, the other languages' editions
    (``notebooks/fr/`` …) in their folders; raise BuildError if it breaks a rule (the report is still on the
    error). ``decks``: the folder of the slides' copies run in the presenter theme (``site_tools/decks`` for the
    course, what ``./course site`` uses); None: the slides show the notebooks' own outputs."""
    t0 = time.perf_counter()
    require_node_modules(node_modules)
    if not pg.notebook_paths(notebooks):
        raise BuildError(f"no notebooks NN_name.ipynb in {notebooks}")
    prepare_out(out)
    report = Report(out, editions=editions(notebooks, instructor))
    loaded = []
    for e in report.editions:
        nbs, styles, deck_of = {}, {}, {}
        for p in pg.notebook_paths(e.notebooks):
            nb, problem = read_notebook(p)
            if nb is None:
                report.warnings.append(problem)
                continue
            if slides and decks is not None:
                deck, said = read_deck(p, nb, notebooks, decks)
                report.warnings.extend(said)
                if deck is not None:
                    said, sheets = prepare_widgets(dk.copy_path(p, notebooks, decks), deck)
                    report.warnings.extend(said)
                    deck_of[p.stem] = (deck, sheets)
            nbs[p.stem] = nb
            said, styles[p.stem] = prepare_widgets(p, nb)
            report.warnings.extend(said)
        paths = [p for p in pg.notebook_paths(e.notebooks) if p.stem in nbs]
        if not paths:
            raise BuildError(f"no notebook of {e.notebooks} could be read: see the warnings above")
        page_list, warnings = pg.pages(paths, nbs)
        report.warnings.extend(f"{e.folder}{w}" for w in warnings)
        report.maths.extend(e.folder + p.stem for p in page_list if pg.has_maths(nbs[p.stem]))
        loaded.append(_Loaded(e, paths, nbs, page_list, styles, deck_of))
    assets = out / "assets"
    copy_assets(CORE_ASSETS + (MATHS_ASSETS if report.maths else []) + (SLIDES_ASSETS if slides else []),
                node_modules, assets)
    shutil.copyfile(TOOLS / "static" / "site.css", assets / "site.css")
    if not ENHANCER[0].is_file():
        raise BuildError(f"{_shown(ENHANCER[0])} is missing: it is the course's accessibility enhancer the pages "
                         "load; restore it from git (git log -- labextension)")
    shutil.copyfile(ENHANCER[0], assets / ENHANCER[1])
    for ed in loaded:
        build_edition(ed, loaded, out, report, slides)
    report.total_bytes = scan.folder_bytes(out)
    report.seconds = time.perf_counter() - t0
    problems = check(report)
    if problems:
        err = BuildError("the site breaks its rules:\n  " + "\n  ".join(problems))
        err.report = report  # type: ignore[attr-defined]
        raise err
    return report


def summary(report: Report) -> str:
    lines = [f"{'page':<52}{'size':>10}  widgets  notes  stepping", "-" * 88]
    for b in report.pages + report.slides:
        lines.append(f"{b.path.relative_to(report.out).as_posix():<52}{b.bytes / MB:>8.2f} MB  {b.views:>7}  "
                     f"{b.notes:>5}  {len(b.stepped):>8}")
    assets = scan.folder_bytes(report.out / "assets")
    parts = "".join(f"; {e.lang} edition {scan.folder_bytes(report.out / e.folder) / MB:.1f} MB"
                    for e in report.editions if e.folder)
    lines.append("-" * 88)
    lines.append(f"largest page {max(b.bytes for b in report.pages + report.slides) / MB:.2f} MB "
                 f"(limit {MAX_PAGE_BYTES / MB:.0f} MB); assets {assets / MB:.1f} MB (shared){parts}; "
                 f"whole site {report.total_bytes / MB:.1f} MB (limit {MAX_SITE_BYTES / MB:.0f} MB); "
                 f"MathJax on: {', '.join(report.maths) or 'no page'}; built in {report.seconds:.1f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m site_tools.build", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default: site/)")
    ap.add_argument("--no-slides", action="store_true", help="skip the reveal.js slides")
    args = ap.parse_args(argv)
    try:
        report = build(args.out.resolve(), slides=not args.no_slides, decks=dk.DECKS)
    except BuildError as e:
        partial = getattr(e, "report", None)
        if partial is not None:
            print(summary(partial))
        print(f"\nsite: ERROR: {e}", file=sys.stderr)
        return 1
    for w in report.warnings:
        print(f"site: WARNING: {w}", file=sys.stderr)
    print(summary(report))
    print(f"\nsite: built {report.out} ({len(report.pages)} pages, {len(report.slides)} slide decks, "
          f"{len(report.others)} other pages). Open {report.out / 'index.html'} or serve it: "
          f"python -m http.server -d {report.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
