"""The pages of the static edition: which notebooks, in what order, what the course map says of each, the links
between them, which pages need maths, and where the slides break.

Pure functions over notebook JSON and text, so tests/test_site_build.py checks them without a browser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

NOTEBOOK_NAME = re.compile(r"^(\d\d)_[A-Za-z0-9_]+$")
# The heading above the start page's table of notebooks, in each language of the course.
MAP_HEADING = re.compile(r"^#+\s.*(?:course map|plan du cours)", re.IGNORECASE | re.MULTILINE)
MAP_ROW = re.compile(r"^\|\s*\[(?P<title>[^\]]+)\]\((?P<target>[^)\s]+?)\.ipynb\)\s*\|\s*(?P<sentence>.+?)\s*\|\s*$")


@dataclass(frozen=True)
class Page:
    """One notebook's page: ``stem`` is the file name without ``.ipynb`` (``04_side_by_side``)."""
    stem: str
    title: str
    sentence: str  # markdown, as the course map says it ('' when the map has no row for it)
    source: Path

    @property
    def href(self) -> str:
        return f"{self.stem}.html"

    @property
    def slides_href(self) -> str:
        return f"slides/{self.stem}.slides.html"


def notebook_paths(folder: Path) -> list[Path]:
    """The course's notebooks in reading order: ``NN_name.ipynb`` at the top of ``folder``, sorted by name."""
    return sorted(p for p in folder.glob("*.ipynb") if NOTEBOOK_NAME.match(p.stem))


def markdown_of(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def course_map(start: dict) -> dict[str, tuple[str, str]]:
    """stem -> (title, sentence) from the start page's course map: the markdown table under a heading that says
    'course map' (French: 'plan du cours'), one row ``| [title](NN_name.ipynb) | sentence |`` per notebook. Empty
    if there is none."""
    for cell in start.get("cells", []):
        text = markdown_of(cell)
        if cell.get("cell_type") != "markdown" or not MAP_HEADING.search(text):
            continue
        rows = {}
        for line in text.splitlines():
            m = MAP_ROW.match(line.strip())
            if m:
                rows[Path(m["target"]).name] = (m["title"].strip(), m["sentence"].strip())
        if rows:
            return rows
    return {}


def first_heading(nb: dict) -> str:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            m = re.search(r"^#\s+(.+)$", markdown_of(cell), re.MULTILINE)
            if m:
                return m.group(1).strip()
    return ""


def pages(paths: list[Path], notebooks: dict[str, dict]) -> tuple[list[Page], list[str]]:
    """The pages in order, and a warning per notebook the course map does not list (it still gets a page, titled
    by its first heading, so a new notebook is never left out of the site)."""
    start = notebooks.get(paths[0].stem, {}) if paths else {}
    rows = course_map(start)
    out, warnings = [], []
    for p in paths:
        if p.stem in rows:
            title, sentence = rows[p.stem]
        else:
            title, sentence = first_heading(notebooks[p.stem]) or p.stem, ""
            warnings.append(f"{p.name} is not in the start page's course map: its page has no sentence on the index")
        out.append(Page(p.stem, title, sentence, p))
    return out, warnings


def neighbours(pages: list[Page]) -> dict[str, tuple[Page | None, Page | None]]:
    """stem -> (previous page, next page) in reading order."""
    return {p.stem: (pages[k - 1] if k > 0 else None, pages[k + 1] if k + 1 < len(pages) else None)
            for k, p in enumerate(pages)}


def rewrite_links(html: str, stems: set[str], prefix: str = "") -> str:
    """Links to a course notebook (``04_side_by_side.ipynb#anchor``, ``../notebooks/04_side_by_side.ipynb``) point
    at its page (``{prefix}04_side_by_side.html#anchor``); every other link is left alone."""
    def repl(m: re.Match) -> str:
        stem = m["stem"]
        if stem not in stems:
            return m.group(0)
        return f'{m["attr"]}="{prefix}{stem}.html{m["anchor"] or ""}"'
    return re.sub(r'(?P<attr>href)="(?:\.\./notebooks/|\./)?(?P<stem>[A-Za-z0-9_]+)\.ipynb(?P<anchor>#[^"]*)?"',
                  repl, html)


CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.DOTALL)
MATH = re.compile(r"\$\$.+?\$\$|(?<![\\$\w])\$[^\s$][^$\n]*?(?<![\s\\])\$(?![\w$])|\\\(.+?\\\)|\\\[.+?\\\]|"
                  r"\\begin\{(equation|align|gather)\*?\}", re.DOTALL)


def has_maths(nb: dict) -> bool:
    """Does a markdown cell write TeX maths ($...$, $$...$$, \\(...\\), \\[...\\], an equation environment)?
    Code spans and fenced blocks do not count, nor a lone dollar ('costs $5')."""
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown" and MATH.search(CODE.sub("", markdown_of(cell))):
            return True
    return False


# --- slides ---------------------------------------------------------------------------------------------------

GRAPHIC = ("image/svg+xml", "image/png", "application/vnd.jupyter.widget-view+json")


def shows_graphic(cell: dict) -> bool:
    """A cell whose output is a picture or a widget (or HTML holding an SVG): it gets a slide of its own."""
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if any(k in data for k in GRAPHIC):
            return True
        html = data.get("text/html", "")
        if "<svg" in ("".join(html) if isinstance(html, list) else html):
            return True
    return False


def slide_types(nb: dict) -> list[str]:
    """The reveal.js slide type of each cell. A cell's own ``metadata.slideshow.slide_type`` wins; for the others:
    a markdown cell that opens with a ``#`` or ``##`` heading starts a new slide; a cell that shows a picture or a
    widget starts a sub-slide (below the section's first), so a widget and the line that made it share a slide of
    their own; the prose right after such a cell starts the next sub-slide; an empty code cell is skipped;
    everything else continues the slide it follows."""
    types, after_graphic = [], False
    for cell in nb.get("cells", []):
        own = (cell.get("metadata", {}).get("slideshow") or {}).get("slide_type")
        text = markdown_of(cell)
        if own:
            kind = own
        elif cell.get("cell_type") == "code" and not text.strip():
            kind = "skip"
        elif cell.get("cell_type") == "markdown" and re.match(r"#{1,2}\s", text.lstrip()):
            kind = "slide"
        elif shows_graphic(cell) or after_graphic:
            kind = "subslide"
        else:
            kind = "-"
        if kind != "skip":
            after_graphic = cell.get("cell_type") == "code" and shows_graphic(cell)
        types.append(kind)
    return types


def set_slide_types(nb: dict) -> None:
    """Write :func:`slide_types` into each cell's ``metadata.slideshow`` (of the build's copy of the notebook)."""
    for cell, kind in zip(nb.get("cells", []), slide_types(nb), strict=True):
        cell.setdefault("metadata", {}).setdefault("slideshow", {})["slide_type"] = kind
