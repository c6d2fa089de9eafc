"""WCAG 2.1 AA contrast of every text and state outline the course draws, in the classroom and presenter themes
(issue 27), measured on what the code draws, never on colours retyped here.

Contrast ratio (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio): ``(L1 + 0.05) / (L2 + 0.05)``, L1 the lighter
colour's relative luminance, ``L = 0.2126 R + 0.7152 G + 0.0722 B`` with each sRGB channel ``c`` (0-1) linearized
as ``c / 12.92`` if ``c <= 0.04045`` else ``((c + 0.055) / 1.055) ** 2.4``. Black on white is 21:1.

* Text (SC 1.4.3): 4.5:1, or 3:1 for large text (>= 24 px, or >= 18.66 px bold). A graph's words are held to 4.5:1
  whatever their size: a graph scales down to fit its pane (13.6-18.7 px labels on a laptop, issue 26), so the
  size the theme declares is not the size a student reads.
* Non-text (SC 1.4.11): 3:1 for what is needed to understand a graph (box outlines, which carry the dashed
  "defined" state and the thick "running" one, edges and arrowheads, scope outlines) against every background the
  drawing paints, and for the coloured border that tells an exercise's verdict.
* Where a text sets no colour it has JupyterLab's (light theme ``--jp-content-font-color1``, ``rgba(0,0,0,.87)``)
  on the page's white; a table's row may also be JupyterLab's even-row grey or hover blue (``--md-grey-100``,
  ``--md-light-blue-50``), all read from JupyterLab 4.6.6's CSS.

The checkers walk the SVG (painter's order: a text's background is the last filled shape drawn under it) and the
HTML (colours, backgrounds, sizes and opacity inherited down the elements) the course produces.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest

from course_lib import programs, render, trace
from course_lib.render import theme as look

PAGE = "#FFFFFF"  # JupyterLab's --jp-layout-color0 (light theme) and the static edition's page
PAGE_TEXT = "rgba(0,0,0,0.87)"  # JupyterLab's --jp-content-font-color1: what a text that sets no colour gets
TABLE_ROWS = ("#F5F5F5", "#E1F5FE")  # JupyterLab's even table rows (--md-grey-100) and a hovered row (light blue 50)
TEXT, LARGE_TEXT, NON_TEXT = 4.5, 3.0, 3.0
THEMES = tuple(look.THEMES)
NAMED = {"white": "#FFFFFF", "black": "#000000"}
#: a stepper's step-0 picture (stepper.graph_at), held apart: test_the_step_zero_ghost_has_readable_names
GHOST = re.compile(r'<div class="course-ghost"[^>]*><svg\b.*?</svg></div>', re.DOTALL)


# ---------------------------------------------------------------------------------------------------- the maths
def rgba(colour: str) -> tuple[float, float, float, float]:
    """``#RGB``, ``#RRGGBB``, ``rgb()``/``rgba()`` or white/black as (r, g, b, alpha), channels 0-255.

    >>> rgba("#0af"), rgba("rgba(0,0,0,.5)")
    ((0.0, 170.0, 255.0, 1.0), (0.0, 0.0, 0.0, 0.5))
    """
    c = NAMED.get(colour.strip().lower(), colour.strip())
    if c.startswith("#"):
        h = c[1:] if len(c) == 7 else "".join(ch * 2 for ch in c[1:])
        return (*(float(int(h[k:k + 2], 16)) for k in (0, 2, 4)), 1.0)
    parts = [float(p) for p in re.findall(r"[\d.]+", c)]
    if not c.startswith("rgb") or len(parts) not in (3, 4):
        raise ValueError(f"not a colour this test reads: {colour!r}")
    return (*parts[:3], parts[3] if len(parts) == 4 else 1.0)


def over(colour: str, below: str, opacity: float = 1.0) -> str:
    """``colour`` (with its alpha, times ``opacity``) painted over the opaque ``below``, as ``#RRGGBB``.

    >>> over("#000000", "#FFFFFF", 0.5)
    '#808080'
    """
    *top, a = rgba(colour)
    *bottom, _a = rgba(below)
    a *= opacity
    return "#" + "".join(f"{round(a * t + (1 - a) * b):02X}" for t, b in zip(top, bottom, strict=True))


def luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of an opaque colour (0 black, 1 white)."""
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b, _a = rgba(colour)
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def ratio(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio of two opaque colours, 1 to 21.

    >>> round(ratio("#000", "#FFF"), 1), round(ratio("#767676", "#FFFFFF"), 2)
    (21.0, 4.54)
    """
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def needed(px: float | None, bold: bool) -> float:
    """The ratio text needs at ``px`` CSS pixels (None: held to 4.5, see the module's docstring)."""
    large = px is not None and (px >= 24 or (bold and px >= 18.66))
    return LARGE_TEXT if large else TEXT


@dataclass(frozen=True)
class Pair:
    """One text (or outline) on its background, the ratio it has and the ratio it needs."""

    what: str
    fg: str
    bg: str
    need: float

    @property
    def ratio(self) -> float:
        return ratio(self.fg, self.bg)

    def __str__(self) -> str:
        return f"{self.what!r}: {self.fg} on {self.bg} = {self.ratio:.2f}:1 < {self.need}:1"


def failures(pairs: list[Pair]) -> list[str]:
    return sorted({str(p) for p in pairs if p.ratio < p.need - 1e-9})


# ---------------------------------------------------------------------------------------------------- SVG
_NUM = re.compile(r"-?\d+(?:\.\d+)?")


def _box(el: ET.Element) -> tuple[float, float, float, float] | None:
    """The bounding box of a filled shape (x0, y0, x1, y1)."""
    tag, a = el.tag.rsplit("}", 1)[-1], el.attrib
    if tag == "rect":
        x, y = float(a.get("x", 0)), float(a.get("y", 0))
        return x, y, x + float(a["width"]), y + float(a["height"])
    if tag == "ellipse":
        cx, cy, rx, ry = (float(a[k]) for k in ("cx", "cy", "rx", "ry"))
        return cx - rx, cy - ry, cx + rx, cy + ry
    if tag == "polygon":
        v = [float(x) for x in _NUM.findall(a["points"])]
        return min(v[0::2]), min(v[1::2]), max(v[0::2]), max(v[1::2])
    if tag == "path":  # the course's paths: absolute M/L/H/V/A/C; an arc's end point is its last two numbers
        xs, ys = [], []
        for cmd, args in re.findall(r"([MLHVACZ])([^MLHVACZ]*)", a["d"]):
            v = [float(x) for x in _NUM.findall(args)]
            if cmd == "H":
                xs += v
            elif cmd == "V":
                ys += v
            elif cmd == "A":
                xs.append(v[5])
                ys.append(v[6])
            elif v:
                xs += v[0::2]
                ys += v[1::2]
        return (min(xs), min(ys), max(xs), max(ys)) if xs and ys else None
    return None


def svg_pairs(svg: str, page: str = PAGE, opacity: float = 1.0, where: str = "") -> tuple[list[Pair], list[Pair]]:
    """(texts, outlines) of one SVG: each ``<text>`` on the fill of the last shape painted under its middle (or
    the page), each stroke against every fill that paints a background (the page and the scope boxes).
    ``opacity``: the picture is drawn that faded (a CSS opacity around it) over ``page``."""
    root = ET.fromstring(svg)
    painted: list[tuple[tuple[float, float, float, float], str, float]] = []  # (box, fill, its opacity)
    texts: list[Pair] = []
    strokes: set[tuple[str, float]] = set()
    scope_fills = {page}

    def walk(el: ET.Element, inherited: dict[str, str]) -> None:
        attrs = {**inherited, **{k: v for k, v in el.attrib.items() if k in ("fill", "font-size", "font-weight")}}
        if (el.get("class") or "").startswith("node"):
            attrs["node"] = "yes"
        tag = el.tag.rsplit("}", 1)[-1]
        if tag == "title":
            return  # a tooltip, not drawn
        if tag == "text":
            size = float(attrs.get("font-size", 16))
            x, y = float(el.get("x", 0)), float(el.get("y", 0)) - 0.35 * size
            bg = page
            for (x0, y0, x1, y1), fill, alpha in painted:
                if x0 <= x <= x1 and y0 <= y <= y1:
                    bg = over(fill, bg, alpha)
            fg = over(attrs.get("fill", "black"), bg, float(el.get("opacity", 1)))
            texts.append(Pair(f"{where} {''.join(el.itertext())}", over(fg, page, opacity), over(bg, page, opacity),
                              needed(None, False)))
            return
        box = _box(el)
        fill, stroke = el.get("fill", attrs.get("fill", "black")), el.get("stroke", "none")
        alpha = float(el.get("opacity", 1))
        if box and fill != "none" and box[2] > box[0] and box[3] > box[1]:
            painted.append((box, fill, alpha))
            if tag == "rect" and "node" not in attrs and el.get("stroke-dasharray"):
                scope_fills.add(over(fill, page, alpha))  # a scope's box: a background under boxes and edges
        if stroke != "none" and tag in ("rect", "ellipse", "polygon", "path"):
            strokes.add((stroke, alpha))
        for kid in el:
            walk(kid, attrs)

    walk(root, {})
    outlines = [Pair(f"{where} outline", over(over(s, bg, alpha), page, opacity), over(bg, page, opacity), NON_TEXT)
                for s, alpha in sorted(strokes) for bg in sorted(scope_fills)]
    return texts, outlines


# ---------------------------------------------------------------------------------------------------- HTML
_VOID = {"br", "img", "input", "hr", "meta", "link", "wbr", "col", "source"}


class _Walk(HTMLParser):
    """Text runs of an HTML fragment with the colour, background, size, weight and opacity they inherit; each
    ``<svg>`` goes to :func:`svg_pairs` over the background it sits on."""

    def __init__(self, where: str, px: float) -> None:
        super().__init__(convert_charrefs=True)
        self.where = where
        self.stack: list[dict[str, Any]] = [{"tag": "", "color": PAGE_TEXT, "bg": PAGE, "px": px, "bold": False,
                                             "opacity": 1.0, "table": False}]
        self.texts: list[Pair] = []
        self.outlines: list[Pair] = []
        self.svgs: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        top = dict(self.stack[-1], tag=tag)
        style = dict((k.strip().lower(), v.strip()) for k, v in
                     (d.split(":", 1) for d in (dict(attrs).get("style") or "").split(";") if ":" in d))
        if tag in ("style", "script"):
            self.skip += 1
        if tag == "svg-here":  # an SVG cut out before parsing, checked on what is under it
            k = int(dict(attrs)["k"])
            texts, outlines = svg_pairs(self.svgs[k], top["bg"], top["opacity"], self.where + " (graph)")
            self.texts += texts
            self.outlines += outlines
        if tag in ("b", "strong", "th") or style.get("font-weight") in ("bold", "700", "bolder"):
            top["bold"] = True
        if tag in ("table", "tr", "td", "th", "thead", "tbody"):
            top["table"] = True
        if "font-size" in style:
            v = style["font-size"]
            top["px"] = (float(v[:-2]) if v.endswith("px") else float(v[:-2]) * top["px"] if v.endswith("em")
                         else top["px"] * 0.85 if v == "small" else top["px"])
        if "opacity" in style:
            top["opacity"] *= float(style["opacity"])
        bg = style.get("background-color") or style.get("background")
        if bg and bg.split()[0] not in ("none", "transparent"):
            top["bg"] = over(bg.split()[0], top["bg"])
            top["table"] = False  # its own background hides the row's
        if "color" in style:
            top["color"] = style["color"]
        for side in ("border", "border-left"):
            # a border thicker than 1 px tells something (a verdict, a kind of message, a phase badge): 3:1;
            # a 1 px grey frame around a listing only frames it
            m = re.search(r"(\d+)px (?:solid|dashed) (#[0-9A-Fa-f]{3,6})", style.get(side, ""))
            if m and int(m.group(1)) > 1:
                self.outlines.append(Pair(f"{self.where} border", over(m.group(2), PAGE, top["opacity"]),
                                          over(self.stack[-1]["bg"], PAGE, top["opacity"]), NON_TEXT))
        if tag not in _VOID:
            self.stack.append(top)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self.skip -= 1
        for k in range(len(self.stack) - 1, 0, -1):
            if self.stack[k]["tag"] == tag:
                del self.stack[k:]
                return

    def handle_data(self, data: str) -> None:
        if self.skip or not data.strip():
            return
        top = self.stack[-1]
        for bg in (top["bg"], *(TABLE_ROWS if top["table"] else ())):
            fg = over(top["color"], bg)
            self.texts.append(Pair(f"{self.where} {data.strip()[:50]}", over(fg, PAGE, top["opacity"]),
                                   over(bg, PAGE, top["opacity"]), needed(top["px"], top["bold"])))


def html_pairs(fragment: str, where: str = "", px: float = 14.0) -> tuple[list[Pair], list[Pair]]:
    """(texts, outlines) of an HTML fragment (``px``: the size of a text that sets none, JupyterLab's 14 px)."""
    walker = _Walk(where, px)

    def cut(m: re.Match[str]) -> str:
        walker.svgs.append(m.group(0))
        return f'<svg-here k="{len(walker.svgs) - 1}"></svg-here>'

    walker.feed(re.sub(r"<svg\b.*?</svg>", cut, fragment, flags=re.DOTALL))
    walker.close()
    return walker.texts, walker.outlines


def check(found: tuple[list[Pair], list[Pair]]) -> tuple[list[str], list[str]]:
    return failures(found[0]), failures(found[1])


# ---------------------------------------------------------------------------------------------------- the checker
def test_the_checker_finds_a_faint_text_a_faint_outline_and_a_faded_picture():
    faint = '<div style="color:#999;font-size:14px">pale</div>'
    assert failures(html_pairs(faint)[0]) and not failures(html_pairs(faint.replace("#999", "#555"))[0])
    big = '<div style="color:#888;font-size:24px">big</div>'  # 3.5:1: enough for large text only
    assert not failures(html_pairs(big)[0]) and failures(html_pairs(big.replace("24px", "18px"))[0])
    on_row = '<table><tr><td style="color:#737373">row</td></tr></table>'  # 4.7:1 on white, 4.3:1 on the grey row
    assert failures(html_pairs(on_row)[0])
    bar = '<div style="border-left:6px solid #BBBBBB">verdict</div>'
    assert failures(html_pairs(bar)[1]) and not failures(html_pairs(bar.replace("#BBBBBB", "#767676"))[1])
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><rect x="0" y="0" width="50" height="20" fill="#333333"/>'
           '<text x="25" y="14" font-size="14" fill="#444444">dark on dark</text></svg>')
    texts, _outlines = svg_pairs(svg)
    assert failures(texts) and not failures(svg_pairs(svg.replace("#444444", "#FFFFFF"))[0])
    readable = svg.replace("#444444", "#FFFFFF")
    assert not failures(html_pairs(f"<div>{readable}</div>")[0])
    assert failures(html_pairs(f'<div style="opacity:0.3">{readable}</div>')[0])  # faded: 1.3:1


# ---------------------------------------------------------------------------------------------------- the table
@pytest.mark.parametrize("name", THEMES)
@pytest.mark.parametrize("status", list(look.NODE_STYLES))
@pytest.mark.parametrize("gradient", [False, True])
def test_every_box_style_of_the_table_has_readable_words_and_a_visible_outline(name, status, gradient):
    t = look.get_theme(name)
    s = look.node_style(status, gradient, t)
    fill = over(s.fill, over(t.background, PAGE))
    assert ratio(s.text, fill) >= TEXT, f"{name} {status} gradient={gradient}: {s.text} on {fill}"
    # the outline carries the state (dashed: defined; thick: running) and the gradient's colour: 3:1 against the
    # page and against a scope's box, where boxes sit too
    for bg in (t.background, t.cluster_fill):
        assert ratio(s.stroke, over(bg, PAGE)) >= NON_TEXT, f"{name} {status} outline {s.stroke} on {bg}"


@pytest.mark.parametrize("name", THEMES)
@pytest.mark.parametrize("head", list(look.EDGE_STYLES))
def test_every_edge_style_of_the_table_is_visible_on_the_page_and_in_a_scope(name, head):
    t = look.get_theme(name)
    s = look.edge_style(head, head == "gradient", t)
    for bg in (t.background, t.cluster_fill):
        assert ratio(s.color, over(bg, PAGE)) >= NON_TEXT, f"{name} {head} edge {s.color} on {bg}"


@pytest.mark.parametrize("name", THEMES)
def test_scope_boxes_notes_and_the_legend_have_readable_words(name):
    t = look.get_theme(name)
    assert ratio(t.cluster_text, over(t.cluster_fill, PAGE)) >= TEXT
    assert ratio(t.cluster_stroke, over(t.background, PAGE)) >= NON_TEXT  # a scope's edge: which boxes it holds
    assert ratio(t.text, over(t.background, PAGE)) >= TEXT  # notes and the legend's words
    faded_scope = over(t.cluster_fill, over(t.background, PAGE), t.ghost_opacity)
    assert min(ratio(t.ghost_text, over(t.background, PAGE)), ratio(t.ghost_text, faded_scope)) >= TEXT  # step 0


# ---------------------------------------------------------------------------------------------------- drawings
def _rich_graph() -> Any:
    """Every kind of box, a gradient, nested scopes, a scope big enough to collapse and a capped-graph note."""
    from course_lib.graph import Graph

    g = Graph("contrast")
    x = g.add("placeholder", name="x", kind="input")
    w = g.add("w", name="w", kind="variable", value=2.0)
    c = g.add("const", name="c", kind="constant", value=1.0)
    m = g.add("mul", [x, w], scope="layer")
    a = g.add("add", [m, c], scope="layer/inner")
    out = g.add("sin", [a])
    g.add("grad", [out, w], gradient=True, scope="gradients")
    prev = out
    for _k in range(8):
        prev = g.add("relu", [prev], scope="block")
    return g


def drawings(name: str) -> Iterator[tuple[str, str]]:
    g = _rich_graph()
    values = {n.id: 1.5 for n in g.nodes}
    for status in ("defined", "running", "done"):
        yield status, render.to_svg(g, state=status, values=values, theme=name, legend=True)
    yield "collapsed", render.to_svg(g, state="done", values=values, theme=name, collapse=["block"])
    yield "capped", render.to_svg(g, state="done", values=values, theme=name, max_nodes=5)


@pytest.mark.parametrize("name", THEMES)
def test_every_word_of_a_drawing_is_readable(name):
    seen = set()
    for what, svg in drawings(name):
        texts, outlines = svg_pairs(svg, where=f"{name} {what}")
        assert texts, what
        assert check((texts, outlines)) == ([], []), what
        seen |= {p.bg for p in texts}
    t = look.get_theme(name)
    fills = {over(look.node_style(s, grad, t).fill, PAGE) for s in look.NODE_STYLES for grad in (False, True)}
    assert fills | {over(t.cluster_fill, PAGE)} <= seen  # every box fill and a scope's were read under a word


# ---------------------------------------------------------------------------------------------------- widgets' HTML
ipywidgets = pytest.importorskip("ipywidgets")  # noqa: E402 (the drawings above need no widgets)
from course_lib.lessons import envcheck, exercises  # noqa: E402
from course_lib.lessons.compiling.tables import Table  # noqa: E402
from course_lib.widgets import base, stepper  # noqa: E402
from course_lib.widgets.base import Sizes  # noqa: E402


def _traces() -> list[Any]:
    return [trace.record(programs.affine_sin, style, {"x": 3.0, "w": 2.0}) for style in trace.STYLES]


@pytest.mark.parametrize("name", THEMES)
def test_a_steppers_words_badges_and_highlighted_line_are_readable(name):
    """Every step of both styles: the phase badge (each of PHASES), the counter, the event, the source listing with
    its highlighted line, at the theme's sizes (Sizes.of), and the graph of the step (the step-0 ghost apart)."""
    t = look.get_theme(name)
    bad, phases, highlighted = [], set(), 0
    for tr in _traces():
        frames = render.Frames(tr, theme=t)
        for step in range(len(tr) + 1):
            page = GHOST.sub("", stepper.frame_html(tr, frames, step, t))
            phases.add(tr.phase_at(step))
            highlighted += bool(re.search(r'<div style="background:[^;"]+;font-weight:bold;[^"]*">▶', page))
            texts, outlines = html_pairs(page, f"{name} {tr.style} step {step}", Sizes.of(t).ui)
            bad += failures(texts) + failures(outlines)
    assert phases == set(stepper.PHASES) and highlighted  # each badge and a highlighted line were read
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", THEMES)
def test_the_step_zero_ghost_has_readable_names(name):
    t = look.get_theme(name)
    tr = _traces()[0]
    frames = render.Frames(tr, theme=t)
    texts, outlines = html_pairs(stepper.graph_at(tr, frames, 0, t), f"{name} ghost")
    assert texts and "course-ghost" in stepper.graph_at(tr, frames, 0, t)
    assert failures(texts) == []


@pytest.mark.parametrize("name", THEMES)
@pytest.mark.parametrize("kind", list(base.MESSAGE_KINDS))
def test_message_boxes_are_readable(name, kind):
    t = look.get_theme(name)
    page = base.message_html("x must be a number, like 3 or -0.5", kind, t)
    texts, outlines = html_pairs(page, f"{name} {kind}")
    assert texts and outlines  # the words and the coloured bar were read
    assert check((texts, outlines)) == ([], [])


@pytest.mark.parametrize("ok", [True, False, None])
def test_an_exercise_verdict_is_readable_and_its_bar_visible(ok):
    page = exercises.Result("01.1", ok, "the graph has 4 nodes")._repr_html_()
    texts, outlines = html_pairs(page, f"exercise {ok}")
    assert texts and outlines
    assert check((texts, outlines)) == ([], [])


def test_the_environment_check_and_the_measurement_tables_are_readable():
    rows = (envcheck.Row("numpy", ">=1.24", "2.1", True), envcheck.Row("torch", ">=2.1", "missing", False, "install"),
            envcheck.Row("graphviz", "any", "-", True, optional=True))
    report = envcheck.Report(rows)._repr_html_()
    assert {r.status for r in rows} == {"OK", "PROBLEM", "optional"}  # each status colour is read
    table = Table(["what", "median"], [("one op", "1 µs")])._repr_html_()
    bad = []
    for where, page in (("environment check", report), ("table", table)):
        texts, outlines = html_pairs(page, where)
        assert texts
        bad += failures(texts) + failures(outlines)
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------------------------------------------- every widget kind
def html_values(widget: Any) -> Iterator[str]:
    """The HTML every ``HTML``/``HTMLMath`` widget under ``widget`` shows (a stepper's words and graph, an explorer's
    tables, listings and notes, each widget's style sheet)."""
    if isinstance(widget, (ipywidgets.HTML, ipywidgets.HTMLMath)):
        yield widget.value
    for kid in getattr(widget, "children", ()):
        yield from html_values(kid)


@pytest.fixture(scope="module", params=THEMES)
def built(request: Any) -> tuple[str, dict[str, Any]]:
    """Every widget kind of the layout test, built by the lessons' own constructor cells, in one theme."""
    pytest.importorskip("tensorflow")
    from tests.browser.test_layout import SETUP, WIDGETS

    names: dict[str, Any] = {}
    exec(SETUP.replace("cl.set_theme('presenter')", f"cl.set_theme({request.param!r})"), names)  # the test's cells
    try:
        return request.param, {kind: eval(code, names) for kind, (code, _name) in WIDGETS.items()}
    finally:
        render.set_theme("classroom")


def test_every_widget_kind_shows_readable_words_and_graphs(built):
    name, widgets = built
    bad, counts = [], {}
    for kind, widget in widgets.items():
        size = getattr(getattr(widget, "sizes", None), "ui", 14)
        texts = outlines = 0
        for page in html_values(widget):
            page = GHOST.sub("", page)  # the step-0 ghost: test_the_step_zero_ghost_has_readable_names
            t, o = html_pairs(page, f"{name} {kind}", size)
            texts, outlines = texts + len(t), outlines + len(o)
            bad += failures(t) + failures(o)
        counts[kind] = texts
    assert all(counts.values()), counts  # each kind's words were read
    assert not bad, "\n".join(sorted(set(bad)))


# ---------------------------------------------------------------------------------------------------- plots
def figure_pairs(fig: Any, where: str) -> tuple[list[Pair], list[Pair]]:
    """(texts, lines) of a matplotlib figure: every visible text on the figure's face (its size in px: points
    times 4/3), every data line and marker against its axes' face (a plot's line is what it shows: 3:1)."""
    from matplotlib.colors import to_hex
    from matplotlib.text import Text

    face = to_hex(fig.get_facecolor())
    texts = [Pair(f"{where} {t.get_text()[:50]}", to_hex(t.get_color()), face,
                  needed(t.get_fontsize() * 4 / 3, t.get_fontweight() in ("bold", 700)))
             for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    lines = [Pair(f"{where} line {line.get_label()}", to_hex(line.get_color()), to_hex(ax.get_facecolor()), NON_TEXT)
             for ax in fig.axes for line in ax.get_lines() if line.get_visible()]
    return texts, lines


def test_the_plots_words_and_lines_are_readable():
    pytest.importorskip("matplotlib")
    from test_i18n_measures import break_even, m

    from course_lib.lessons import compiling as cc
    from course_lib.lessons import sequences as sq

    figures = {"padding waste": sq.plot_waste(3, ks=(1, 2, 4)), "break-even": cc.plot_break_even(break_even()),
               "per op": cc.plot_per_op({"numpy": m(4e-7), "PyTorch eager": m(2.4e-6), "facts": {}})}
    bad = []
    for where, fig in figures.items():
        texts, lines = figure_pairs(fig, where)
        assert texts and lines, where
        bad += failures(texts) + failures(lines)
    assert not bad, "\n".join(bad)


def test_the_focus_ring_shows_on_any_control_and_page():
    """WCAG technique C40, a two-colour focus indicator: ring and band 9:1 apart, so one of them has 3:1 against
    whatever is next to it; the ring 3:1 on its page (JupyterLab's light white, its dark theme's #111)."""
    from course_lib.widgets import sizing

    for page, (ring, band) in ((PAGE, sizing.RING_LIGHT), ("#111111", sizing.RING_DARK)):
        assert ratio(ring, band) >= 9 and ratio(ring, page) >= NON_TEXT, (page, ring, band)
    css = sizing.widget_css(Sizes.of(look.get_theme()))
    assert all(ring in css and band in css for ring, band in (sizing.RING_LIGHT, sizing.RING_DARK))  # what is drawn


# -------------------------------------------------------------------------------------------- not by colour alone
# SC 1.4.1: a state the course shows by a colour is shown another way too (a mark, a word, a dash, a weight). The
# drawn marks themselves: tests/test_render.py::test_states_are_readable_without_colour; the padding grid's dashed
# "0" squares: tests/test_sequences.py.
@pytest.mark.parametrize("name", THEMES)
def test_every_box_and_edge_style_differs_from_the_others_without_its_colour(name):
    t = look.get_theme(name)
    boxes = {(status, grad): (s.dash, s.penwidth, s.bold, s.italic, look.MARKS.get(status))
             for status in look.NODE_STYLES for grad in (False, True) for s in [look.node_style(status, grad, t)]}
    assert len(set(boxes.values())) == len(boxes), boxes  # colours aside, no two box styles look alike
    edges = {head: (s.dash, s.penwidth, s.dotted)
             for head in look.EDGE_STYLES for s in [look.edge_style(head, head == "gradient", t)]}
    assert len(set(edges.values())) == len(edges), edges


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_badges_verdicts_messages_and_statuses_have_words_of_their_own(lang):
    from course_lib.i18n import gettext, set_language

    set_language(lang)
    try:
        kinds = {
            "phase badges": [gettext(word) for word, _why, _bg in stepper.PHASES.values()],
            "message boxes": [gettext(word) for word, _colour, _bg in base.MESSAGE_KINDS.values()],
            "exercise verdicts": [gettext(words) for words in exercises.MARKS.values()],
        }
        for what, words in kinds.items():
            assert all(w.strip() for w in words) and len(set(words)) == len(words), (what, words)
        rows = [envcheck.Row("a", "1", "1", True), envcheck.Row("b", "1", "-", False),
                envcheck.Row("c", "1", "-", True, optional=True)]
        cells = re.findall(r"<span style='color:[^']*'>([^<]*)</span>", envcheck.Report(tuple(rows))._repr_html_())
        assert len(cells) == 3 and len(set(cells)) == 3  # the status cell says its word and mark, not only a colour
        listing = stepper.source_html(["y = x * w", "z = y + 1"], 2, look.get_theme())
        assert re.search(r"font-weight:bold[^>]*>▶\s+2 z = y \+ 1", listing)  # the line running: ▶ and bold too
    finally:
        set_language("en")
