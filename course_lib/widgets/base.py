"""The one base every widget of the course derives from: what each of them needs, written once.

* **The ipywidgets guard.** ``import course_lib`` must work without ipywidgets (CI images, a plain Python); a widget
  needs it. The import is tried once, here; creating a widget without it raises an ImportError that says
  ``pip install 'ipywidgets>=8'``. Importing this module never raises.
* **Sizes from the theme.** Every size of text in a widget comes from :class:`Sizes`, derived from the current
  :func:`course_lib.render.get_theme`, so ``render.set_theme("presenter")`` before creating a widget enlarges all of
  its words, not only the graph's labels. The classroom theme's graph labels are 14 pt and the words around them
  15 px; every size scales with the theme's font size.
* **The message box.** One inline box for problems, notes and confirmations; its first word says which (colour
  is only a help, for a washed-out projector or a grey-scale print), its text is escaped, and ``role="status"``
  lets a screen reader announce it.
* **The callback guard.** JupyterLab swallows an exception raised in a widget callback: the student sees nothing
  happen. :func:`guarded` catches it and shows it in the message box, and the widget keeps working.

>>> "<b>Note:</b> x &lt; 1 &amp; y" in message_html("x < 1 & y", "note")
True
>>> Sizes.of(render.get_theme("presenter")).ui > Sizes.of(render.get_theme("classroom")).ui
True
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from .. import render
from ..i18n import N_, Said, number, said_by, say
from ..i18n import gettext as _

try:  # a course dependency, but importing course_lib must not need it: reported when a widget is created
    import ipywidgets
except ImportError as exc:  # pragma: no cover - exercised on machines without ipywidgets
    ipywidgets = None  # type: ignore[assignment]
    IMPORT_ERROR: Exception | None = exc
else:
    IMPORT_ERROR = None

__all__ = ["CHROME_PX", "MESSAGE_KINDS", "CourseWidget", "Sizes", "code_html", "esc", "fit_height", "guarded",
           "ipywidgets", "is_number", "message_html", "out_of_range", "quietly", "read_number", "read_range",
           "read_whole", "require_ipywidgets", "said_by", "said_ids", "wider", "widget_css"]

F = TypeVar("F", bound=Callable[..., Any])


def require_ipywidgets(what: str = N_("the course widgets")) -> Any:
    """The ipywidgets module, or an ImportError that says how to install it."""
    if ipywidgets is None:
        raise ImportError(_("{what} need ipywidgets 8: pip install 'ipywidgets>=8' ({error})")
                          .format(what=_(what), error=IMPORT_ERROR))
    return ipywidgets


def esc(text: Any) -> str:
    """Text made safe to put inside HTML (quotes too, so it can sit in an attribute).

    >>> esc("<b>'a' & b</b>")
    '&lt;b&gt;&#x27;a&#x27; &amp; b&lt;/b&gt;'
    """
    return html.escape(str(text), quote=True)


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


_BACKTICKS = re.compile(r"`([^`\n]+)`")


def code_html(text: Any) -> str:
    """Text escaped for HTML, with Markdown's `code` (in backticks, as error messages of the engines write it)
    shown as <code>code</code>: HTML is not Markdown, the backticks would be shown as they are.

    >>> code_html("a Python `if` on x < 1")
    'a Python <code>if</code> on x &lt; 1'
    """
    return _BACKTICKS.sub(r"<code>\1</code>", esc(text))


def said_ids(widget: Any) -> list[str | None]:
    """The message ids of what a widget's message box says now (None for a text that is no course message):
    what a test checks instead of the words, which change with the language.

    >>> said_ids(type("W", (), {"shown": [say(NOT_BELOW, low=5, high=1, start=-3, end=3), "plain"]})())
    ['low={low} is not below high={high}: pass low < high (the sliders go from {start} to {end} for now).', None]
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


#: what read_number asks for: (whole number?, has low, has high) -> the words, filled with low and high
_WANTED = {
    (True, True, True): N_("a whole number from {low} to {high}"),
    (True, True, False): N_("a whole number of at least {low}"),
    (True, False, True): N_("a whole number of at most {high}"),
    (True, False, False): N_("a whole number"),
    (False, True, True): N_("a number from {low} to {high}"),
    (False, True, False): N_("a number of at least {low}"),
    (False, False, True): N_("a number of at most {high}"),
    (False, False, False): N_("a number"),
}


def _wanted(whole: bool, low: float | None, high: float | None) -> str:
    words = _(_WANTED[whole, low is not None, high is not None])
    return words.format(low=None if low is None else number(low), high=None if high is None else number(high))


def is_number(value: Any) -> bool:
    """A real number, as a widget argument or a slider value is read (True and False are not numbers here).

    >>> is_number(2), is_number(np.float64(0.5)), is_number(True), is_number("2")
    (True, True, False, False)
    """
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def out_of_range(value: Any, low: float, high: float) -> bool:
    """A finite number outside ``[low, high]``: what a slider clips (and :func:`read_number` brings back in).
    Told from the value, never from the words of a message, which are translated.

    >>> out_of_range(9, 0, 5), out_of_range(float("nan"), 0, 5), out_of_range("9", 0, 5)
    (True, False, False)
    """
    return is_number(value) and bool(np.isfinite(value)) and not low <= value <= high


NOT_A_NUMBER = N_("{name}={shown} is not a number: pass {wanted} (the widget uses {default} for now).")
NOT_FINITE = N_("{name}={shown} is not a finite number: pass {wanted} (the widget uses {default} for now).")
NOT_WHOLE = N_("{name}={shown} is not a whole number: pass {wanted} (the widget uses {got} for now).")
BELOW = N_("{name}={shown} is below {low}: pass {wanted} (the widget uses {low}).")
ABOVE = N_("{name}={shown} is above {high}: pass {wanted} (the widget uses {high}).")


def read_number(value: Any, name: str, default: float, *, whole: bool = False, low: float | None = None,
                high: float | None = None) -> tuple[Any, str]:
    """A widget argument read as a number: ``(the number to use, the problem in words or "")``.

    Not a number (text, None, True), NaN or inf: the default is used. Out of ``[low, high]``: the nearest end is
    used, as a slider would. A fraction where a whole number is wanted: rounded down. Each says so, and what to pass.

    >>> read_number("abc", "spread", 3, whole=True, low=0, high=5)
    (3, "spread='abc' is not a number: pass a whole number from 0 to 5 (the widget uses 3 for now).")
    >>> read_number(9, "spread", 3, whole=True, low=0, high=5)[0]
    5
    """
    wanted = _wanted(whole, low, high)
    # np.float64(9.0) is shown as 9.0, the number the student passed (numpy 2's repr names the type)
    shown = render.plain(value) if isinstance(value, np.generic) else repr(value)
    cast = int if whole else float
    if not is_number(value):
        return default, say(NOT_A_NUMBER, name=name, shown=f"{shown:.60}", wanted=wanted, default=number(default))
    if not np.isfinite(value):
        return default, say(NOT_FINITE, name=name, shown=shown, wanted=wanted, default=number(default))
    got, problem = cast(value), ""
    if whole and got != value:
        problem = say(NOT_WHOLE, name=name, shown=shown, wanted=wanted, got=got)
    if low is not None and got < low:
        got, problem = cast(low), say(BELOW, name=name, shown=shown, wanted=wanted, low=number(low))
    elif high is not None and got > high:
        got, problem = cast(high), say(ABOVE, name=name, shown=shown, wanted=wanted, high=number(high))
    return got, problem


#: what read_whole asks for, by (has low, has high); ``what`` is a plural noun marked with N_ by the caller
_READ_WHOLE_TODO = {
    (True, True): N_("Type a whole number of {what} (digits 0-9, from {low} to {high}), like {example}."),
    (True, False): N_("Type a whole number of {what} (digits 0-9, {low} or more), like {example}."),
    (False, True): N_("Type a whole number of {what} (digits 0-9, at most {high}), like {example}."),
    (False, False): N_("Type a whole number of {what} (digits 0-9), like {example}."),
}


NOT_TEXT = N_("expected typed text, got a value of type {type}. {todo}")
EMPTY_BOX = N_("the box is empty. {todo}")
NOT_DIGITS = N_("{shown} is not a whole number: {why}. {todo}")
TOO_MANY_DIGITS = N_("{shown} has {count} digits: far too many. {todo}")
WHOLE_BELOW = N_("{n} is below {low}. {todo}")
WHOLE_ABOVE = N_("{n} is above {high}. {todo}")


def read_whole(text: Any, what: str = N_("steps"), *, low: int | None = 0, high: int | None = None,
               example: int = 4) -> tuple[int | None, str]:
    """Text typed into a box, read as a whole number: ``(the number, "")`` or ``(None, what was wrong and what to
    type)``. Never raises, never evaluates: only digits (an optional sign) are read, by ``int``.

    ``str.isdigit`` is not the test: it is True for "²" (a superscript two), which ``int`` refuses, so a callback
    built on it raised, JupyterLab swallowed the error and the old message stayed.

    >>> read_whole(" 12 ")
    (12, '')
    >>> read_whole("²")
    (None, "'²' is not a whole number: '²' (superscript two) is not one of the digits 0 to 9. Type a whole number of steps (digits 0-9, 0 or more), like 4.")
    """
    example = min(max(example, low if low is not None else example), high if high is not None else example)
    todo = _READ_WHOLE_TODO[low is not None, high is not None]
    todo = _(todo).format(what=_(what), low=low, high=high, example=example)
    if not isinstance(text, str):
        return None, say(NOT_TEXT, type=type(text).__name__, todo=todo)
    typed = text.strip()
    shown = repr(typed if len(typed) <= 40 else typed[:39] + "…")
    if not typed:
        return None, say(EMPTY_BOX, todo=todo)
    digits = typed[1:] if typed[0] in "+-" else typed
    if not digits.isdecimal():  # Unicode decimal digits only: exactly what int() reads
        bad = next((c for c in digits if not c.isdecimal()), typed[0])
        if bad in ".,":
            why = _("a whole number has no decimal point or comma")
        elif bad.isspace():
            why = _("it has a space between the digits")
        else:
            name = unicodedata.name(bad, "").lower()
            why = (_("{char} ({name}) is not one of the digits 0 to 9") if name else
                   _("{char} is not one of the digits 0 to 9")).format(char=repr(bad), name=name)
        return None, say(NOT_DIGITS, shown=shown, why=why, todo=todo)
    if len(digits) > 30:  # int() refuses thousands of digits; no count of steps is that long
        return None, say(TOO_MANY_DIGITS, shown=shown, count=len(digits), todo=todo)
    n = int(typed)
    if low is not None and n < low:
        return None, say(WHOLE_BELOW, n=n, low=low, todo=todo)
    if high is not None and n > high:
        return None, say(WHOLE_ABOVE, n=n, high=high, todo=todo)
    return n, ""


def read_range(low: Any, high: Any, default: tuple[float, float]) -> tuple[float, float, str]:
    """A slider range ``low``, ``high`` read as two finite numbers with low < high: ``(low, high, problem)``.

    >>> read_range(5, 1, (-3.0, 3.0))[2]
    'low=5 is not below high=1: pass low < high (the sliders go from -3 to 3 for now).'
    """
    lo, p1 = read_number(low, "low", default[0])
    hi, p2 = read_number(high, "high", default[1])
    if p1 or p2:
        return default[0], default[1], " ".join(p for p in (p1, p2) if p)
    if not lo < hi:
        return default[0], default[1], say(NOT_BELOW, low=render.plain(low), high=render.plain(high),
                                           start=number(default[0]), end=number(default[1]))
    return lo, hi, ""


#: a program whose inputs cannot be read from its signature (SideBySide, ControlFlowExplorer)
INPUTS_UNREADABLE = N_("cannot read the program's inputs: {error}")
NOT_BELOW = N_("low={low} is not below high={high}: pass low < high (the sliders go from {start} to {end} for now).")


#: px of the screen a widget never gets: JupyterLab's menu, tab and tool bars above the notebook and its status
#: bar below (measured in JupyterLab 4.6: 92 px and 25 px in Presentation Mode at 1280x720), and a margin
CHROME_PX = 130


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


def fit_height(above: int) -> str:
    """The CSS height a widget's graph scales down to when ``above`` px of the widget (titles, controls) sit over
    it: what is left of the screen, so the controls and the whole graph are seen together.

    >>> fit_height(100)
    'calc(100vh - 230px)'
    """
    return f"calc(100vh - {CHROME_PX + int(above)}px)"


def quietly(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call with numpy's overflow / division warnings silenced: a widget shows inf and nan in the graph instead
    of printing a RuntimeWarning under the cell."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def widget_css(sizes: Sizes) -> str:
    """The style sheet of a course widget of these sizes: ipywidgets' text variables, scoped to the widget's class.

    >>> "--jp-widgets-font-size:21px" in widget_css(Sizes.of(render.get_theme("presenter")))
    True
    """
    # only the text size: ipywidgets' inline height is also the line height of every HTML widget's text
    # code in running text as large as the text (JupyterLab shrinks <code> to its smaller code font)
    return (f"<style>.course-ui-{sizes.ui}{{--jp-widgets-font-size:{sizes.ui}px}}"
            f".course-ui-{sizes.ui} code{{font-size:inherit}}</style>")


class CourseWidget(ipywidgets.VBox if ipywidgets is not None else object):  # type: ignore[misc]
    """A column of controls and pictures with a theme, its text sizes and an inline message box.

    Subclasses call ``super().__init__(theme=theme)`` first (that is where a missing ipywidgets is reported), build
    their children, put ``self.message`` among them, decorate their callbacks with :func:`guarded` and define a
    one-line ``__repr__`` (nbval compares a widget's text repr).
    """

    monospace_messages = False  # True where messages put a caret under typed text (it must line up)

    def __init__(self, *, theme: str | render.Theme | None = None, **kwargs: Any) -> None:
        w = require_ipywidgets(type(self).__name__)
        kwargs.setdefault("layout", w.Layout(width="100%"))
        super().__init__(**kwargs)
        self.theme: render.Theme = render.get_theme(theme)
        self.sizes = Sizes.of(self.theme)
        self.message = w.HTML("")
        self.shown: list[str] = []  # the messages in the message box now (Said ones know their msgid)
        # ipywidgets' own controls (slider names and read-outs, dropdowns, toggle buttons, check boxes) take their
        # text size from a CSS variable; setting it on this widget's box scales them with the theme as well
        self.add_class(f"course-ui-{self.sizes.ui}")
        self.sheet = w.HTML(widget_css(self.sizes), layout=w.Layout(display="none"))
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

    def clear_message(self) -> None:
        self.message.value = ""
        self.shown = []

    def html(self, body: str, size: str = "ui", style: str = "", **layout: Any) -> Any:
        """An HTML child whose words are ``size`` (a :class:`Sizes` field) for this widget's theme.

        ``body`` is HTML, not escaped (escape any text in it with :func:`esc`).
        """
        w = require_ipywidgets()
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
