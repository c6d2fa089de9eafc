"""The one base every widget of the course derives from: what each of them needs, written once.

* **The ipywidgets guard.** ``import course_lib`` must work without ipywidgets (CI images, a plain Python); a widget
  needs it. The import is tried once, here, and this is the course's one way to reach ipywidgets:
  ``from course_lib.widgets.base import ipywidgets as W`` (``None`` where it is missing). Creating a widget
  without it raises an ImportError that says ``pip install 'ipywidgets>=8'``; importing this module never raises.
* **Sizes from the theme.** Every size of text in a widget comes from :class:`Sizes`, derived from the current
  :func:`course_lib.render.get_theme`, so ``render.set_theme("presenter")`` before creating a widget enlarges all of
  its words, not only the graph's labels. The classroom theme's graph labels are 14 pt and the words around them
  15 px; every size scales with the theme's font size.
* **The message box.** One inline box for problems, notes and confirmations; its first word says which (colour
  is only a help, for a washed-out projector or a grey-scale print), its text is escaped, and ``role="status"``
  lets a screen reader announce it.
* **The callback guard.** JupyterLab swallows an exception raised in a widget callback: the student sees nothing
  happen. :func:`guarded` catches it and shows it in the message box, and the widget keeps working.

The rest of a widget's toolbox sits beside this module, by what it does: :mod:`.html` (escaping), :mod:`.inputs`
(reading numbers and typed text), :mod:`.sizing` (room on the screen, the style sheet), :mod:`.stepping` (the clock
of a stepping widget).

>>> "<b>Note:</b> x &lt; 1 &amp; y" in message_html("x < 1 & y", "note")
True
>>> Sizes.of(render.get_theme("presenter")).ui > Sizes.of(render.get_theme("classroom")).ui
True
"""

from __future__ import annotations

import functools
import html
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from .. import render
from ..i18n import N_, Said, said_by, say
from ..i18n import gettext as _
from .html import code_html, esc
from .sizing import widget_css

try:  # a course dependency, but importing course_lib must not need it: reported when a widget is created
    import ipywidgets
except ImportError as exc:  # pragma: no cover - exercised on machines without ipywidgets
    ipywidgets = None  # type: ignore[assignment]
    IMPORT_ERROR: Exception | None = exc
else:
    IMPORT_ERROR = None

__all__ = ["MESSAGE_KINDS", "NO_IPYWIDGETS", "CourseWidget", "Sizes", "guarded", "ipywidgets", "message_html",
           "quietly", "said_ids", "styled", "tooltip_words", "with_tooltips"]

NO_IPYWIDGETS = N_("{what} need ipywidgets 8: pip install 'ipywidgets>=8' ({error})")

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Sizes:
    """Pixel sizes of a widget's words, all proportional to the theme's graph font size.

    ``ui`` is running text and buttons; ``title`` a pane's title; ``heading`` a widget's headline and typed text;
    ``small`` code listings and keys; ``tiny`` footnotes. With the classroom theme (14 pt labels) they are
    15 / 16 / 17 / 14 / 13 px; the presenter theme (20 pt) makes them 21 / 23 / 24 / 20 / 19 px.

    >>> Sizes.of(render.get_theme("classroom"))
    Sizes(ui=15, title=16, heading=17, small=14, tiny=13)
    """

    ui: int
    title: int
    heading: int
    small: int
    tiny: int

    BASE_FONT = 14.0  # the classroom theme's graph font size, for which the sizes below were chosen by eye

    @classmethod
    def of(cls, theme: render.Theme) -> Sizes:
        scale = theme.fontsize / cls.BASE_FONT
        return cls(*(round(px * scale) for px in (15, 16, 17, 14, 13)))

    @property
    def ring(self) -> int:
        """The focus ring's width (px), and the width of the light band inside it: 2 px with the classroom theme,
        3 px with the presenter's (WCAG 2.4.7 asks for a visible focus; 2 px is the least commonly read as one).

        >>> Sizes.of(render.get_theme("classroom")).ring, Sizes.of(render.get_theme("presenter")).ring
        (2, 3)
        """
        return max(2, round(self.ui / 7))

    @property
    def mono(self) -> int:
        """Program text (listings, generated plans): a pixel smaller than the words around it."""
        return self.small


# kind -> (first word, text colour, background): Okabe–Ito vermillion / blue / bluish green, darkened for text
MESSAGE_KINDS = {
    "error": (N_("Problem"), "#A23B00", "#FBE3D6"),
    "note": (N_("Note"), "#114B6E", "#E3F1FA"),
    "ok": (N_("OK"), "#00664A", "#DDF2EA"),
}


def message_html(text: str, kind: str = "error", theme: render.Theme | None = None, *,
                 monospace: bool = False) -> str:
    """An inline message box: "Problem:", "Note:" or "OK:" and the escaped text; line breaks are kept.

    ``monospace=True`` for a message with a caret under a column of typed text (the caret must line up).

    >>> "<b>Problem:</b> 1 &lt; 2" in message_html("1 < 2")
    True
    """
    if kind not in MESSAGE_KINDS:
        raise ValueError(f"message kind {kind!r}: use one of {', '.join(MESSAGE_KINDS)}")
    word, colour, bg = MESSAGE_KINDS[kind]
    size = Sizes.of(theme or render.get_theme()).ui
    font = ";font-family:monospace" if monospace else ""
    body = esc(text) if monospace else code_html(text)
    return (f'<div role="status" style="font-size:{size}px;color:{colour};background:{bg};'
            f'border-left:5px solid {colour};padding:6px 10px;margin:4px 0;white-space:pre-wrap{font}">'
            "<b>" + esc(_("{word}:").format(word=_(word))) + f"</b> {body}</div>")


def said_ids(widget: Any) -> list[str | None]:
    """The message ids of what a widget's message box says now (None for a text that is no course message):
    what a test checks instead of the words, which change with the language.

    >>> from course_lib.i18n import say
    >>> said_ids(type("W", (), {"shown": [say(NO_IPYWIDGETS, what="Stepper", error="-"), "plain"]})())
    ["{what} need ipywidgets 8: pip install 'ipywidgets>=8' ({error})", None]
    """
    return [m.msgid if isinstance(m, Said) else None for m in getattr(widget, "shown", [])]


def guarded(method: F) -> F:
    """Decorate a widget's callback: an exception is shown in the widget's message box instead of vanishing.

    The callback returns None then; the widget stays usable (the next slider move runs the callback again).
    """

    @functools.wraps(method)
    def wrapper(self: CourseWidget, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown to the student instead of being swallowed by JupyterLab
            self.show_error(f"{type(exc).__name__}: {exc}")
            self.shown = [said_by(exc)]
            return None

    return wrapper  # type: ignore[return-value]


def quietly(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call with numpy's overflow / division warnings silenced: a widget shows inf and nan in the graph instead
    of printing a RuntimeWarning under the cell."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def tooltip_words(control: Any) -> str:
    """What a control's tooltip says when it has none of its own: its words (its description, as plain text, without
    the colon that ends a name put before a field), or nothing for a control without words.

    >>> tooltip_words(type("C", (), {"description": "draw:"})()), tooltip_words(object())
    ('draw', '')
    """
    words = getattr(control, "description", "") or ""
    if getattr(control, "description_allow_html", False):
        words = html.unescape(re.sub(r"<[^>]*>", "", words))
    return re.sub(r"[\s\u00a0]*:$", "", words.strip())


def with_tooltips(widget: Any) -> None:
    """Give every control under ``widget`` a tooltip that says something, now and whenever a box's children change.

    ipywidgets 8.1 leaves ``tooltip`` None by default, and its front end writes it into an HTML ``title`` as it
    is: a described control's label (``label.title = tooltip`` in ``DescriptionView.updateTooltip``: sliders, text
    boxes, dropdowns, check boxes, toggle buttons) and a ``ToggleButton`` (``setAttribute("title", tooltip)``)
    show the tooltip "null" on hover. A control with a tooltip of its own keeps it; the others get their words
    (:func:`tooltip_words`, "" for one without words: no tooltip at all).
    """
    if isinstance(widget, ipywidgets.Box):
        if not getattr(widget, "_course_tooltips", False):  # observed once, however often the walk comes by
            widget._course_tooltips = True
            widget.observe(lambda change: [with_tooltips(kid) for kid in change["new"]], "children")
        for kid in widget.children:
            with_tooltips(kid)
    elif isinstance(widget, ipywidgets.DOMWidget) and widget.tooltip is None:
        widget.tooltip = tooltip_words(widget)


def styled(box: Any, sizes: Sizes) -> Any:
    """Make ``box`` a course box: its class (ipywidgets' own controls, slider names and read-outs, dropdowns,
    toggle buttons, check boxes, take their text size from a CSS variable set on it, so they scale with the theme),
    tooltips that say something (:func:`with_tooltips`); returns the hidden style sheet the box must hold.
    """
    box.add_class(f"course-ui-{sizes.ui}")
    with_tooltips(box)  # no control shows the tooltip "null" (children set later, too)
    return ipywidgets.HTML(widget_css(sizes), layout=ipywidgets.Layout(display="none"))


class CourseWidget(ipywidgets.VBox if ipywidgets is not None else object):  # type: ignore[misc]
    """A column of controls and pictures with a theme, its text sizes and an inline message box.

    Subclasses call ``super().__init__(theme=theme)`` first (that is where a missing ipywidgets is reported), build
    their children, put ``self.message`` among them, decorate their callbacks with :func:`guarded` and define a
    one-line ``__repr__`` (nbval compares a widget's text repr).
    """

    monospace_messages = False  # True where messages put a caret under typed text (it must line up)

    def __init__(self, *, theme: str | render.Theme | None = None, **kwargs: Any) -> None:
        if ipywidgets is None:
            raise ImportError(say(NO_IPYWIDGETS, what=type(self).__name__, error=IMPORT_ERROR))
        w = ipywidgets
        kwargs.setdefault("layout", w.Layout(width="100%"))
        super().__init__(**kwargs)
        self.theme: render.Theme = render.get_theme(theme)
        self.sizes = Sizes.of(self.theme)
        self.message = w.HTML("")
        self.shown: list[str] = []  # the messages in the message box now (Said ones know their msgid)
        self.sheet = styled(self, self.sizes)
        self.observe(self._keep_sheet, "children")

    def _keep_sheet(self, change: Any) -> None:
        """Keep the style sheet among the children whatever a subclass sets them to (last, hidden)."""
        if self.sheet not in change["new"]:
            self.children = (*change["new"], self.sheet)

    def show_message(self, text: str, kind: str = "error") -> None:
        """Show ``text`` in the message box (an empty text clears it). ``self.shown`` keeps the messages shown,
        so a test reads which messages a widget said (their ``msgid``, see :func:`said_ids`), not their words."""
        self.shown = [text] if text else []
        self.message.value = (message_html(text, kind, self.theme, monospace=self.monospace_messages)
                              if text else "")

    def show_error(self, text: str) -> None:
        self.show_message(text, "error")

    def show_problems(self, problems: list[str]) -> None:
        """Show the argument problems found while building the widget (nothing when the list is empty)."""
        found = [p for p in problems if p]
        if found:
            self.show_error("\n".join(found))
            self.shown = found

    def show_note(self, text: str) -> None:
        self.show_message(text, "note")

    def show_notes(self, notes: list[str]) -> None:
        """Notes said while building the widget, one per line (nothing when the list is empty), each kept in
        ``self.shown`` as :meth:`show_problems` keeps problems."""
        found = [n for n in notes if n]
        if found:
            self.show_note("\n".join(found))
            self.shown = found

    def clear_message(self) -> None:
        self.message.value = ""
        self.shown = []

    def html(self, body: str, size: str = "ui", style: str = "", **layout: Any) -> Any:
        """An HTML child whose words are ``size`` (a :class:`Sizes` field) for this widget's theme.

        ``body`` is HTML, not escaped (escape any text in it with :func:`esc`).
        """
        w = ipywidgets
        px = getattr(self.sizes, size)
        div = f'<div style="font-size:{px}px{";" + style if style else ""}">{body}</div>'
        return w.HTML(div, layout=w.Layout(**layout)) if layout else w.HTML(div)

    def title(self, text: str) -> Any:
        """A pane title in bold (text escaped)."""
        return self.html(esc(text), "title", "font-weight:bold")

    def title_html(self, text: str) -> str:
        """The HTML of :meth:`title`, to give a title widget new words (``pane_title.value = ...``)."""
        return f'<div style="font-size:{self.sizes.title}px;font-weight:bold">{esc(text)}</div>'

    def button_style(self) -> dict[str, str]:
        """The ``style=`` of a button whose label follows the theme."""
        return {"font_size": f"{self.sizes.ui}px"}
