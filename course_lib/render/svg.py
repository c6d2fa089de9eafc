"""SVG drawn by the course itself: shapes, edges' curves and arrows, styles from the table, the legend.

Writing the SVG here (instead of asking Graphviz for one) keeps it small (no comments, no whitespace), makes a step
cost microseconds, and lets a step change only styles and labels at fixed positions.

>>> shape("constant", 10, 10, 20, 10)
'<rect x="0" y="5" width="20" height="10"'
>>> legend_svg().startswith("<svg")
True
"""

from __future__ import annotations

import html
import re

from ..i18n import N_, Lazy
from ..i18n import gettext as _
from .theme import MARKS, NodeStyle, Theme, get_theme, node_style

__all__ = ["DRAW_MAX_WIDTH", "INSTALL_HINT", "arrow", "curve", "e", "fallback_html", "faded", "legend_svg", "n",
           "node_svg_style", "shape", "svg_root"]

# translated wherever it is used as text (str(), +, an f-string); compared and searched as its English
INSTALL_HINT = Lazy(
    "No Graphviz layout engine was found, so here is the graph as DOT text. To see it drawn, install one of:\n"
    "  pip install pygraphviz        (wheels bundle Graphviz; nothing else needed)\n"
    "  conda install -c conda-forge graphviz pygraphviz\n"
    "  apt-get install graphviz  /  brew install graphviz  /  winget install graphviz   (the `dot` program)"
)
DRAW_MAX_WIDTH = 680.0  # pt (about 900 px): the widest a cl.draw picture declares itself (CourseDigraph.svg)
Box = tuple[float, float, float, float]  # centre x, centre y, width, height


def n(v: float) -> str:
    """A coordinate with one decimal and no trailing zeros: small SVG, same text every time."""
    s = f"{v:.1f}"
    s = s.removesuffix(".0")
    return "0" if s == "-0" else s


_NEEDS_ESCAPE = re.compile(r"[&<>\"']")


def e(s: str) -> str:
    """Text escaped for SVG (only when it needs it: the per-step hot path)."""
    return html.escape(s, quote=True) if _NEEDS_ESCAPE.search(s) else s


def shape(kind: str, cx: float, cy: float, w: float, h: float, compact: bool = False) -> str:
    """The outline of a box as an SVG element without style (the style is added per state); ``compact`` (the
    presenter theme): an operation is a stadium, and an input's slant fits its narrower margin.

    >>> shape("op", 10, 10, 40, 20, compact=True)
    '<rect x="-10" y="0" width="40" height="20" rx="10"'
    """
    L, R, T, B = cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
    if kind == "op" and compact:
        return f'<rect x="{n(L)}" y="{n(T)}" width="{n(w)}" height="{n(h)}" rx="{n(min(w, h) / 2)}"'
    if kind == "op":
        return f'<ellipse cx="{n(cx)}" cy="{n(cy)}" rx="{n(w / 2)}" ry="{n(h / 2)}"'
    if kind == "input":  # laid out as a box with wide margins (see dot._node_line): the skew fits in them
        # at most the side margin (0.3in = 21.6pt, compact 0.11in = 7.9pt): text never crosses the slant
        s = min(0.5 * h, 0.25 * w, 7.5 if compact else 20.0)
        pts = [(L + s, T), (R, T), (R - s, B), (L, B)]
        return '<polygon points="' + " ".join(f"{n(x)},{n(y)}" for x, y in pts) + '"'
    if kind == "variable":
        rx, ry = w / 2, max(3.0, 0.1 * h)
        d = (f"M{n(L)},{n(T + ry)}A{n(rx)},{n(ry)} 0 0 1 {n(R)},{n(T + ry)}L{n(R)},{n(B - ry)}"
             f"A{n(rx)},{n(ry)} 0 0 1 {n(L)},{n(B - ry)}ZM{n(L)},{n(T + ry)}A{n(rx)},{n(ry)} 0 0 0 "
             f"{n(R)},{n(T + ry)}")
        return f'<path d="{d}"'
    if kind == "group":  # a box with depth, as Graphviz's box3d
        o = 4.0
        d = (f"M{n(L)},{n(T + o)}L{n(L + o)},{n(T)}H{n(R)}V{n(B - o)}L{n(R - o)},{n(B)}H{n(L)}Z"
             f"M{n(L)},{n(T + o)}H{n(R - o)}V{n(B)}M{n(R - o)},{n(T + o)}L{n(R)},{n(T)}")
        return f'<path d="{d}"'
    return f'<rect x="{n(L)}" y="{n(T)}" width="{n(w)}" height="{n(h)}"'  # constant


def node_svg_style(s: NodeStyle) -> tuple[str, str, str]:
    """(outline attributes, outline attributes without fill, text attributes) of a box style from the table."""
    rest = f' stroke="{s.stroke}" stroke-width="{n(s.penwidth)}"' + (f' stroke-dasharray="{s.dash}"' if s.dash else "")
    text = (f' fill="{s.text}"' + (' font-weight="bold"' if s.bold else "")
            + (' font-style="italic"' if s.italic else ""))
    return f' fill="{s.fill}"' + rest, ' fill="none"' + rest, text


def curve(a: Box, b: Box, rankdir: str, head: float) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """A Bezier from box a to box b leaving and arriving along the rank direction (Graphviz coordinates, y up)."""
    (ax, ay, aw, ah), (bx, by, bw, bh) = a, b
    dx, dy = {"TB": (0, -1), "BT": (0, 1), "LR": (1, 0), "RL": (-1, 0)}[rankdir]
    start = (ax + dx * aw / 2, ay + dy * ah / 2)
    end = (bx - dx * bw / 2, by - dy * bh / 2)
    base = (end[0] - dx * head, end[1] - dy * head)
    pull = max(30.0, (abs(base[0] - start[0]) + abs(base[1] - start[1])) / 3)
    c1 = (start[0] + dx * pull, start[1] + dy * pull)
    c2 = (base[0] - dx * pull, base[1] - dy * pull)
    return [start, c1, c2, base], end


def arrow(end: tuple[float, float], base: tuple[float, float], half: float) -> str:
    """The points of an arrow head from ``base`` to ``end``, ``half`` its half-width."""
    dx, dy = end[0] - base[0], end[1] - base[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    nx, ny = -dy / length * half, dx / length * half
    pts = [end, (base[0] + nx, base[1] + ny), (base[0] - nx, base[1] - ny)]
    return " ".join(f"{n(x)},{n(y)}" for x, y in pts)


def svg_root(svg_id: str, width: float, height: float, t: Theme, inner: str, max_width: float | None = None,
             max_height: str | None = None, name: str = "", description: str = "") -> str:
    """The ``<svg>`` element: width in pt like Graphviz (1pt = 1.33px: 14pt text reads well); it scales down to
    the output's width in HTML, and ``max_width`` caps the width it declares. ``max_height`` (CSS, e.g.
    ``"calc(100vh - 300px)"``) also scales it down to a height, keeping its proportions: a widget's graph stays on
    the screen beside its controls.

    ``name`` and ``description`` (:mod:`.speech`) are its first ``<title>`` and its ``<desc>``: the accessible name
    and description of an ``<svg role="img">`` (SVG-AAM), what a screen reader says of the picture.

    >>> svg_root("g", 10, 10, get_theme(), "", name="Graph: 0 boxes").split("><")[1]
    'title>Graph: 0 boxes</title'
    """
    scale = min(1.0, max_width / width) if max_width and width > 0 else 1.0
    # its own background: dark words stay on a light ground in JupyterLab's dark theme too
    style = (f"max-width:100%;height:auto;background:{t.background}"
             + (f";max-height:{e(max_height)};width:auto" if max_height else ""))
    said = (f"<title>{e(name)}</title>" if name else "") + (f"<desc>{e(description)}</desc>" if description else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" id="{e(svg_id)}" width="{n(width * scale)}pt" '
            f'height="{n(height * scale)}pt" viewBox="0 0 {n(width)} {n(height)}" style="{style}" '
            f'role="img">{said}'
            f'<g font-family="{e(t.font_family)}" font-size="{n(t.fontsize)}" text-anchor="middle">'
            f"{inner}</g></svg>")


_SHAPES = re.compile(r"<(rect|ellipse|polygon|path) ")
_TEXT_FILL = re.compile(r'(<text [^>]*?fill=")[^"]*(")')


def faded(svg: str, t: Theme) -> str:
    """A drawing faded, its words still readable: every shape and edge at the theme's ``ghost_opacity``, every
    word in ``ghost_text`` (5.3:1 on the page: the names say what will appear, WCAG 1.4.3 holds them to 4.5:1).
    What a stepper shows at step 0, before anything exists.

    >>> faded('<svg><rect x="0"/><text x="1" fill="#333">x</text></svg>', get_theme())
    '<svg><rect opacity="0.3" x="0"/><text x="1" fill="#6B6B6B">x</text></svg>'
    """
    return _TEXT_FILL.sub(rf"\g<1>{t.ghost_text}\2", _SHAPES.sub(rf'<\1 opacity="{t.ghost_opacity:g}" ', svg))


def fallback_html(dot: str, message: str) -> str:
    """What is shown without a layout engine: why, how to install one, and the DOT text."""
    return ('<div class="course-graph-fallback"><p><b>' + e(_("No picture: ")) + f"</b>{e(str(message))}</p>"
            f"<pre style=\"max-height:20em;overflow:auto\">{e(dot)}</pre></div>")


# ---------------------------------------------------------------------------------------------------- legend
_LEGEND: list[tuple[str, str, str]] = [  # (kind, status, words): the words translated when a legend is drawn
    ("input", "defined", N_("input (placeholder)")), ("constant", "defined", N_("constant")),
    ("variable", "defined", N_("variable (parameter)")), ("op", "defined", N_("operation")),
    ("output", "defined", N_("output (fetched result)")), ("op", "defined", N_("defined, not run yet (dashed)")),
    ("op", "running", N_("▶ running now")), ("op", "done", N_("✓ done (value shown)")),
    ("gradient", "done", N_("gradient (backward), dotted edges")),
]


def _legend_entry(kind: str, status: str, words: str, x: float, y: float, t: Theme) -> list[str]:
    fs = t.fontsize * 0.85
    sw, sh = fs * 3.2, fs * 1.8
    cx, cy = x + sw / 2, y + sh / 2
    shape_kind = {"output": "op", "gradient": "op"}.get(kind, kind)
    outline, hollow, _text = node_svg_style(node_style(status, kind == "gradient", t))
    parts = [shape(shape_kind, cx, cy, sw, sh, t.compact) + outline + "/>"]
    if kind == "output":
        parts.append(shape("op", cx, cy, sw - 8, sh - 8, t.compact) + hollow + "/>")
    if status in MARKS:
        parts.append(f'<text x="{n(cx)}" y="{n(cy + 0.35 * fs)}" font-size="{n(fs)}" fill="{t.text}">'
                     f"{MARKS[status].strip()}</text>")
    if kind == "gradient":
        parts.append(f'<path d="M{n(x + sw + 2)},{n(cy)}h14" stroke="{t.gradient}" '
                     f'stroke-width="{n(t.penwidth)}" stroke-dasharray="1.5,3"/>')
    parts.append(f'<text x="{n(x + sw + (20 if kind == "gradient" else 6))}" y="{n(cy + 0.35 * fs)}" '
                 f'font-size="{n(fs)}" text-anchor="start" fill="{t.text}">{e(words)}</text>')
    return parts


def legend_parts(t: Theme, max_width: float, top: float) -> tuple[str, float, float]:
    """Legend entries (sample shape + words) in rows that fit ``max_width``; returns (svg, width, height)."""
    fs = t.fontsize * 0.85
    sw, sh = fs * 3.2, fs * 1.8
    parts: list[str] = []
    x, y, row_h = 8.0, top + 6, sh + 8
    width = 0.0
    for kind, status, msgid in _LEGEND:
        words = _(msgid)
        w_words = len(words) * fs * 0.56
        if x + sw + 8 + w_words > max_width and x > 8:
            x, y = 8.0, y + row_h
        parts += _legend_entry(kind, status, words, x, y, t)
        x += sw + 14 + w_words + (14 if kind == "gradient" else 0) + 10
        width = max(width, x)
    return "".join(parts), width, y + row_h - top + 4


def legend_svg(theme: str | Theme | None = None, width: float | None = None) -> str:
    """The legend alone (widgets show it once, under frames drawn without it).

    >>> "running now" in legend_svg()
    True
    """
    t = get_theme(theme)
    parts, w, h = legend_parts(t, width or 640.0 * t.fontsize / 14.0, 0.0)  # rows as long as the font is large
    said = "; ".join(_(words) for _kind, _status, words in _LEGEND) + "."
    return svg_root("course-legend-" + t.name, max(w, 10.0), h, t, parts, name=_("Legend of the graphs"),
                    description=said)
