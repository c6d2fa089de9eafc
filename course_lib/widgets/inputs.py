"""Reading what a student passes to a widget or types into it: numbers, whole numbers, slider ranges.

Each reader returns the value to use *and* the problem in words (empty when there is none), never raises and never
evaluates: the widget shows the problem in its message box and goes on with a sensible value, as a slider would
(the nearest end of the range, the default for something that is not a number). Problems are course messages
(:func:`course_lib.i18n.say`), so a test checks their message ids, not their words.

>>> read_number(9, "spread", 3, whole=True, low=0, high=5)[0], read_whole(" 12 "), is_number(True)
(5, (12, ''), False)
"""

from __future__ import annotations

import unicodedata
from typing import Any

import numpy as np

from .. import render
from ..i18n import N_, number, say
from ..i18n import gettext as _

__all__ = ["INPUTS_UNREADABLE", "NOT_BELOW", "is_number", "out_of_range", "read_number", "read_range", "read_whole"]

#: a program whose inputs cannot be read from its signature (SideBySide, ControlFlowExplorer)
INPUTS_UNREADABLE = N_("cannot read the program's inputs: {error}")
NOT_BELOW = N_("low={low} is not below high={high}: pass low < high (the sliders go from {start} to {end} for now).")

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


#: The white space int() skips around digits: str.isspace() also counts the separators U+001C..U+001F, which int()
#: refuses ("0\x1f"), so they are kept and refused as characters that are not digits.
_INT_SPACE = "".join(c for c in map(chr, range(0x3001)) if c.isspace() and c not in "\x1c\x1d\x1e\x1f")


def read_whole(text: Any, what: str = N_("steps"), *, low: int | None = 0, high: int | None = None,
               example: int = 4) -> tuple[int | None, str]:
    """Text typed into a box, read as a whole number: ``(the number, "")`` or ``(None, what was wrong and what to
    type)``. Never raises, never evaluates: only digits (an optional sign) are read, by ``int``.

    ``str.isdigit`` is not the test: it is True for "²" (a superscript two), which ``int`` refuses, so a callback
    built on it raised, JupyterLab swallowed the error and the old message stayed.

    >>> read_whole(" 12 ")
    (12, '')
    >>> read_whole("²")
    (None, "'²' is not a whole number: '²' (superscript two) is not one of the digits 0 to 9. Type a whole number
     of steps (digits 0-9, 0 or more), like 4.")
    """
    example = min(max(example, low if low is not None else example), high if high is not None else example)
    todo = _READ_WHOLE_TODO[low is not None, high is not None]
    todo = _(todo).format(what=_(what), low=low, high=high, example=example)
    if not isinstance(text, str):
        return None, say(NOT_TEXT, type=type(text).__name__, todo=todo)
    typed = text.strip(_INT_SPACE)
    shown = repr(typed if len(typed) <= 40 else typed[:39] + "…")
    if not typed:
        return None, say(EMPTY_BOX, todo=todo)
    digits = typed[1:] if typed[0] in "+-" else typed
    if not digits.isdecimal():  # Unicode decimal digits only: exactly what int() reads
        bad = next((c for c in digits if not c.isdecimal()), typed[0])
        if bad in ".,":
            why = _("a whole number has no decimal point or comma")
        elif bad in _INT_SPACE:
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

