"""Build the static edition of the course: ``python -m site_tools.build [--out site]`` (``./course site`` runs it).

From the committed notebooks, never executed: ``index.html`` (the start page's course map), one page per notebook
with links to the previous and next ones, reveal.js slides per notebook in ``slides/``, the instructor guides in
``instructor/`` (linked from no student page), and in ``assets/`` every script, style sheet and font the pages load,
copied from ``site_tools/node_modules`` (pinned in ``package.json`` + ``package-lock.json``; ``npm ci`` installs
them). Widgets come alive from the state saved in each notebook; a control that needs Python is disabled and says
so (:mod:`site_tools.widget_state`). The build fails, saying why, if a page would load anything from another host,
loads a file the site does not have, or is over the size limits.
"""

from __future__ import annotations

import argparse
import copy
import html
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import pages as pg
from . import scan
from . import widget_state as ws

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "site_tools"
TEMPLATES = TOOLS / "templates"
NODE_MODULES = TOOLS / "node_modules"
MB = 1_000_000
MAX_PAGE_BYTES = 3 * MB
MAX_SITE_BYTES = 40 * MB
MARKER = ".course-site"  # written into the output folder: only a folder carrying it is ever emptied

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
    ("mathjax/LICENSE", "mathjax/LICENSE"),
]
SLIDES_ASSETS = [
    ("reveal.js/dist/reveal.js", "reveal.js/dist/reveal.js"),
    ("reveal.js/dist/reveal.css", "reveal.js/dist/reveal.css"),
    ("reveal.js/dist/theme/white.css", "reveal.js/dist/theme/white.css"),
    ("reveal.js/dist/theme/fonts/source-sans-pro", "reveal.js/dist/theme/fonts/source-sans-pro"),
    ("reveal.js/LICENSE", "reveal.js/LICENSE"),
]
STATIC_NOTE = ("The static edition: read the course and step its graphs here with <b>Play</b> and the step "
               "sliders, with nothing installed. To run, change and check the code (text boxes, buttons, the "
               f"exercises) you need a running course: {ws.COMMAND}.")


class BuildError(Exception):
    """The site cannot be built or breaks a rule; the message says what and what to do."""


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


@dataclass
class Report:
    out: Path
    pages: list[Built] = field(default_factory=list)
    slides: list[Built] = field(default_factory=list)
    others: list[Path] = field(default_factory=list)  # index, instructor pages
    warnings: list[str] = field(default_factory=list)
    total_bytes: int = 0
    seconds: float = 0.0
    maths: list[str] = field(default_factory=list)  # stems of pages that load MathJax


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
    if out.exists():
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise BuildError(f"{out} exists, is not empty and was not made by this build: choose another --out "
                             "or remove it yourself")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / MARKER).write_text("built by python -m site_tools.build; emptied by the next build\n")


def inline_markdown(text: str) -> str:
    from nbconvert.filters.markdown import markdown2html

    out = markdown2html(text).strip()
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") else out


def link(href: str, text: str) -> str:
    return f'<a href="{html.escape(href)}">{html.escape(text)}</a>'


def nav_html(page: pg.Page, prev: pg.Page | None, nxt: pg.Page | None, slides: bool) -> tuple[str, str]:
    left = link("index.html", "Course map")
    middle = f'<span class="course-nav-middle">{html.escape(page.title)}'
    if slides:
        middle += f" · {link(page.slides_href, 'slides')}"
    middle += "</span>"
    back = f"← {link(prev.href, prev.title)}" if prev else ""
    fwd = f"{link(nxt.href, nxt.title)} →" if nxt else ""
    right = f'<span>{back}{" · " if back and fwd else ""}{fwd}</span>'
    bar = f'<nav class="course-nav">{left}{middle}{right}</nav>'
    return bar + f'<p class="course-static-note">{STATIC_NOTE}</p>', bar


def count_graphics(nb: dict) -> int:
    return sum(1 for cell in nb.get("cells", []) for out in cell.get("outputs", [])
               if "image/svg+xml" in out.get("data", {}) or "image/png" in out.get("data", {})
               or "<svg" in "".join(out.get("data", {}).get("text/html", "")))


def exporters(slides: bool):
    from nbconvert import HTMLExporter, SlidesExporter

    common = {"extra_template_basedirs": [str(TEMPLATES)], "extra_template_paths": [str(TEMPLATES / "shared")],
              "theme": "light"}
    page = HTMLExporter(template_name="course_page", **common)
    deck = SlidesExporter(template_name="course_slides", reveal_url_prefix="../assets/reveal.js",
                          reveal_theme="white", reveal_width="1280", reveal_height="720",
                          reveal_transition="slide", **common) if slides else None
    return page, deck


def build_notebook(page: pg.Page, nb: dict, nav: tuple[str, str], exporter, stems: set[str], out: Path,
                   *, root: str, maths: bool, nav_slides: str = "") -> Built:
    import nbformat

    own = copy.deepcopy(nb)
    stepped = ws.stepped_views(own)
    notes = ws.add_kernel_notes(own)
    if root:  # slides: each section a slide, unless a cell says otherwise
        pg.set_slide_types(own)
    resources = {"course": {"root": root, "maths": maths, "nav_top": nav[0], "nav_bottom": nav[1],
                            "nav_slides": nav_slides},
                 "metadata": {"name": page.title}}
    body, _ = exporter.from_notebook_node(nbformat.from_dict(own), resources=resources)
    body = pg.rewrite_links(body, stems, prefix=root)
    path = out / (page.slides_href if root else page.href)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return Built(page.stem, path, path.stat().st_size, len(ws.view_outputs(own)), len(notes), stepped,
                 count_graphics(nb))


def render_plain(title: str, body: str, root: str) -> str:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=False)
    return env.get_template("page.html.j2").render(title=title, body=body, root=root)


def build_index(pages: list[pg.Page], out: Path, slides: bool, start_title: str) -> Path:
    rows = []
    for p in pages:
        cells = f"<td>{link(p.href, p.title)}</td><td>{inline_markdown(p.sentence) if p.sentence else ''}</td>"
        if slides:
            cells += f"<td>{link(p.slides_href, 'slides')}</td>"
        rows.append(f"<tr>{cells}</tr>")
    head = "<th>Notebook</th><th>What you will see</th>" + ("<th>Slides</th>" if slides else "")
    body = (f"<h1>{html.escape(start_title)}</h1>"
            f'<p class="course-static-note">{STATIC_NOTE}</p>'
            "<h2>The course map</h2>"
            f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    path = out / "index.html"
    path.write_text(render_plain(start_title, body, ""), encoding="utf-8")
    return path


def build_instructor(folder: Path, out: Path, stems: set[str]) -> list[Path]:
    """Each ``instructor/*.md`` as a page of ``site/instructor/``, and an index of them (linked from nowhere)."""
    from nbconvert.filters.markdown import markdown2html

    guides = sorted(folder.glob("*.md")) if folder.is_dir() else []
    if not guides:
        return []
    target = out / "instructor"
    target.mkdir(parents=True, exist_ok=True)
    written, items = [], []
    for md in guides:
        text = md.read_text(encoding="utf-8")
        title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("#")), md.stem)
        body = '<nav class="course-nav"><a href="index.html">Instructor guides</a></nav>' + markdown2html(text)
        path = target / f"{md.stem}.html"
        path.write_text(pg.rewrite_links(render_plain(title, body, "../"), stems, prefix="../"), encoding="utf-8")
        written.append(path)
        items.append(f"<li>{link(path.name, title)}</li>")
    index = target / "index.html"
    index.write_text(render_plain("Instructor guides", "<h1>Instructor guides</h1><p>Solutions and notes for "
                                  "each notebook. No student page links here.</p>"
                                  f"<ul>{''.join(items)}</ul>", "../"), encoding="utf-8")
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
        size = path.stat().st_size
        if size > MAX_PAGE_BYTES:
            problems.append(f"{rel} is {size / MB:.2f} MB, over the {MAX_PAGE_BYTES / MB:.0f} MB a page may "
                            "weigh: its notebook's outputs or widget frames are too big")
    if report.total_bytes > MAX_SITE_BYTES:
        problems.append(f"the site is {report.total_bytes / MB:.1f} MB, over {MAX_SITE_BYTES / MB:.0f} MB")
    return problems


def build(out: Path, *, notebooks: Path = ROOT / "notebooks", instructor: Path = ROOT / "instructor",
          slides: bool = True, node_modules: Path = NODE_MODULES) -> Report:
    """Build the site into ``out``; raise BuildError if it breaks a rule (the report is still on the error)."""
    import nbformat

    t0 = time.perf_counter()
    require_node_modules(node_modules)
    paths = pg.notebook_paths(notebooks)
    if not paths:
        raise BuildError(f"no notebooks NN_name.ipynb in {notebooks}")
    prepare_out(out)
    report = Report(out)
    nbs = {p.stem: nbformat.read(p, as_version=4) for p in paths}
    page_list, report.warnings = pg.pages(paths, nbs)
    stems = {p.stem for p in page_list}
    report.maths = [p.stem for p in page_list if pg.has_maths(nbs[p.stem])]
    assets = out / "assets"
    copy_assets(CORE_ASSETS + (MATHS_ASSETS if report.maths else []) + (SLIDES_ASSETS if slides else []),
                node_modules, assets)
    shutil.copyfile(TOOLS / "static" / "site.css", assets / "site.css")
    page_exporter, slides_exporter = exporters(slides)
    near = pg.neighbours(page_list)
    for page in page_list:
        prev, nxt = near[page.stem]
        maths = page.stem in report.maths
        report.pages.append(build_notebook(page, nbs[page.stem], nav_html(page, prev, nxt, slides), page_exporter,
                                           stems, out, root="", maths=maths))
        if slides_exporter is not None:
            back = (f'<div class="course-slides-nav">{link("../" + page.href, "Page")}'
                    f'{link("../index.html", "Course map")}</div>')
            report.slides.append(build_notebook(page, nbs[page.stem], ("", ""), slides_exporter, stems, out,
                                                root="../", maths=maths, nav_slides=back))
    start_title = pg.first_heading(nbs[paths[0].stem]).split(":")[0] or "The course"
    report.others.append(build_index(page_list, out, slides, start_title))
    report.others.extend(build_instructor(instructor, out, stems))
    report.total_bytes = scan.folder_bytes(out)
    report.seconds = time.perf_counter() - t0
    problems = check(report)
    if problems:
        err = BuildError("the site breaks its rules:\n  " + "\n  ".join(problems))
        err.report = report  # type: ignore[attr-defined]
        raise err
    return report


def summary(report: Report) -> str:
    lines = [f"{'page':<48}{'size':>10}  widgets  notes  stepping", "-" * 84]
    for b in report.pages + report.slides:
        lines.append(f"{b.path.relative_to(report.out).as_posix():<48}{b.bytes / MB:>8.2f} MB  {b.views:>7}  "
                     f"{b.notes:>5}  {len(b.stepped):>8}")
    assets = scan.folder_bytes(report.out / "assets")
    lines.append("-" * 84)
    lines.append(f"largest page {max(b.bytes for b in report.pages + report.slides) / MB:.2f} MB "
                 f"(limit {MAX_PAGE_BYTES / MB:.0f} MB); assets {assets / MB:.1f} MB; whole site "
                 f"{report.total_bytes / MB:.1f} MB (limit {MAX_SITE_BYTES / MB:.0f} MB); "
                 f"MathJax on: {', '.join(report.maths) or 'no page'}; built in {report.seconds:.1f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m site_tools.build", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default: site/)")
    ap.add_argument("--no-slides", action="store_true", help="skip the reveal.js slides")
    args = ap.parse_args(argv)
    try:
        report = build(args.out.resolve(), slides=not args.no_slides)
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
