"""How much room a widget's parts take: the graph's height on the screen, controls wide enough for their words in
any language, side-by-side panes in proportion to their graphs, and the style sheet that sizes ipywidgets' own
controls with the theme.

Every size of *text* comes from :class:`course_lib.widgets.base.Sizes` (the theme); this module turns those sizes
and the screen into room.

>>> fit_height(100), wider(8.7, "em", ["buckets"])
('calc(100vh - 230px)', '8.7em')
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..i18n import gettext as _

if TYPE_CHECKING:  # only for the annotation: base imports this module to style every widget
    from .base import Sizes

__all__ = ["CHAR_EM", "CHROME_PX", "FILL", "LINE", "PAGE_PX", "ROW_PX", "TOGGLE_ROW_PX", "fit_height", "lines_px",
           "overflowing", "share_width", "text_lines", "wider", "widget_css"]

#: px of the screen a widget never gets: JupyterLab's menu, tab and tool bars above the notebook and its status
#: bar below (measured in JupyterLab 4.6: 92 px and 25 px in Presentation Mode at 1280x720), and a margin
CHROME_PX = 130
#: the line height of a widget's words (a multiple of their size), the height of a row of controls (40 px buttons
#: and sliders with their margins) and of a row of toggle buttons (ipywidgets' own height): what a widget adds up to
#: say how much of the screen its words and controls take
LINE, ROW_PX, TOGGLE_ROW_PX = 1.25, 44, 36
#: px of width a notebook gives a widget: at 1280x720 in Presentation Mode (about 1,060) and on a 1366x768 laptop
#: with the file browser open (about 950); what a line of words is measured against (:func:`text_lines`)
PAGE_PX = 950
#: the mean width of a character of the widgets' sans-serif words, in em (DejaVu Sans, JupyterLab's, and its like)
CHAR_EM = 0.55
#: the layout of a child that fills what its box leaves (flex), never ``width: 100%``: ipywidgets gives every widget
#: that is not a box a 2 px margin on each side, so 100% overflowed the box by 4 px, and the box (overflow: auto)
#: showed a horizontal scrollbar of its own (one to three per notebook, on a laptop). In a column a child stretches
#: to the box's width by itself: it needs no width at all.
FILL = {"flex": "1 1 0%", "min_width": "0"}


def fit_height(above: int) -> str:
    """The CSS height a widget's graph scales down to when ``above`` px of the widget (titles, controls) sit over
    it: what is left of the screen, so the controls and the whole graph are seen together.

    >>> fit_height(100)
    'calc(100vh - 230px)'
    """
    return f"calc(100vh - {CHROME_PX + int(above)}px)"


def lines_px(px: int, lines: float = 1) -> int:
    """The height of ``lines`` lines of words of ``px`` px, at the widgets' line height :data:`LINE`.

    >>> lines_px(20), lines_px(20, 2.5)
    (25, 63)
    """
    return math.ceil(px * LINE * lines)


def text_lines(text: str, px: int, room: int = PAGE_PX) -> int:
    """How many lines ``text`` takes in words of ``px`` px across ``room`` px, estimated from its length (a French
    heading is a third longer than its English and takes a second line).

    >>> text_lines("affine_sin: the same program, stepped both ways on one clock", 24)
    1
    >>> text_lines("affine_sin : le même programme, pas à pas dans les deux styles, sur une seule horloge", 24)
    2
    """
    return max(1, math.ceil(len(text) * CHAR_EM * px / room))


def overflowing(widget: Any) -> list[Any]:
    """The widgets under ``widget`` (itself included) that overflow their box: a widget that is not a box (no
    ``children``) with ``width: 100%`` (see :data:`FILL`). A widget's own test asks for none.

    >>> class Fake:
    ...     def __init__(self, width=None, children=None):
    ...         self.layout = type("L", (), {"width": width})()
    ...         if children is not None:
    ...             self.children = children
    >>> len(overflowing(Fake(children=[Fake("100%"), Fake(children=[Fake("100%")]), Fake("50%")])))
    2
    """
    found, seen, todo = [], set(), [widget]
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        kids = getattr(w, "children", None)
        if kids is None and getattr(getattr(w, "layout", None), "width", None) == "100%":
            found.append(w)
        todo.extend(kids or ())
    return found


def wider(size: float, unit: str, labels: Iterable[str]) -> str:
    """A control's size (a description width), chosen by eye for its English ``labels`` (message ids), widened as
    much as their longest translation is longer: controls keep their English sizes, and a
    French word is not cut short (``écart des longueurs`` where ``length spread`` was).

    >>> wider(8.7, "em", ["length spread", "buckets"])
    '8.7em'
    """
    labels = list(labels)
    english = max((len(t) for t in labels), default=0)
    shown = max((len(_(t)) for t in labels), default=0)
    return f"{round(size * max(1.0, shown / english if english else 1.0), 1):g}{unit}"


def share_width(panes: list[tuple[Any, float | None]]) -> None:
    """Side-by-side panes get widths in proportion to their graphs' natural widths.

    Each SVG scales down to its pane (max-width: 100%), so proportional panes give both graphs the same scale:
    with equal halves a wide define-then-run graph (both branches, gradient nodes) was drawn at half the size of
    its define-by-run neighbour, which made the two look unrelated.
    """
    for box, width in panes:
        grow = max(1, round(width)) if width else 300
        box.layout.flex = f"{grow} 1 0%"
        box.layout.width = "auto"
        box.layout.min_width = "0"
        box.layout.margin = "0 6px"
        box.layout.overflow = "hidden"  # long source lines scroll inside their box instead of widening the pane


def widget_css(sizes: Sizes) -> str:
    """The style sheet of a course widget of these sizes: ipywidgets' text variables, scoped to the widget's class.

    >>> from course_lib import render
    >>> from course_lib.widgets.base import Sizes
    >>> "--jp-widgets-font-size:21px" in widget_css(Sizes.of(render.get_theme("presenter")))
    True
    """
    # only the text size: ipywidgets' inline height is also the line height of every HTML widget's text
    # code in running text as large as the text (JupyterLab shrinks <code> to its smaller code font)
    return (f"<style>.course-ui-{sizes.ui}{{--jp-widgets-font-size:{sizes.ui}px}}"
            f".course-ui-{sizes.ui} code{{font-size:inherit}}{focus_css(sizes)}</style>")


#: what a keyboard can reach in a widget: buttons (Play's, toggle buttons), text boxes, dropdowns, a slider's handle
#: and its editable read-out; check boxes apart (a native box: its ring goes outside it)
FOCUSABLE = "button,input:not([type=checkbox]),select,textarea,.noUi-handle,.widget-readout"
#: (ring, band) on a light page and on a dark one (JupyterLab's dark theme): the band lies between the ring and the
#: control, so the ring shows on any control (WCAG technique C40, a two-colour focus indicator)
RING_LIGHT, RING_DARK = ("#111111", "#ffffff"), ("#f5f5f5", "#111111")


def focus_css(sizes: Sizes) -> str:
    """The focus ring of every control of a widget reached by the keyboard (``:focus-visible``, WCAG 2.4.7): a
    ring ``sizes.ring`` px wide drawn on the control's edge with a light band inside it, so no box of the widget
    clips it (ipywidgets' boxes scroll their overflow, and a control sits 2 px from their edge); a check box, whose
    native box takes no band, gets its ring just outside it, with room kept for it.

    #111111 on the white page 18.9:1, on a button's grey (#EEEEEE) 16.3:1, on the slider's blue handle (#1976D2)
    4.1:1 (WCAG 1.4.11 asks 3:1; measured by tests/browser/test_keyboard.py). ipywidgets' own focus, replaced here,
    is a 1 px light-blue outline on buttons (#64B5F6: 1.9:1 on their grey) and nothing on a slider's handle;
    ``!important`` because its rules are more specific than these.

    >>> from course_lib import render
    >>> from course_lib.widgets.base import Sizes
    >>> "outline:3px solid #111111" in focus_css(Sizes.of(render.get_theme("presenter")))
    True
    """
    r, scope = sizes.ring, f".course-ui-{sizes.ui}"
    rules = []
    for page, (ring, band) in (("", RING_LIGHT), ("[data-jp-theme-light=false] ", RING_DARK)):
        rules.append(f"{page}{scope} :is({FOCUSABLE}):focus-visible{{outline:{r}px solid {ring}!important;"
                     f"outline-offset:-{r}px!important;box-shadow:inset 0 0 0 {2 * r}px {band}!important}}")
        rules.append(f"{page}{scope} input[type=checkbox]:focus-visible{{outline:{r}px solid {ring}!important;"
                     f"outline-offset:{r}px!important;box-shadow:0 0 0 {r}px {band}!important}}")
    return "".join(rules) + f"{scope} input[type=checkbox]{{margin-left:{2 * r}px}}"
