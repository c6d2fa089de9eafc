"""Reading what a student passes to a widget or types into it: numbers, whole numbers, slider ranges.

Each reader returns the value to use *and* the problem in words (empty when there is none), never raises and never
evaluates: the widget shows the problem in its message box and goes on with a sensible value, as a slider would
(the nearest end of the range, the default for something that is not a number). Problems are course messages
(:func:`course_lib.i18n.say`), so a test checks their message ids, not their words.

:func:`read_number` is the one reader of a number every widget takes (an argument, a slider value given from code, a
feed, a step, a Play interval); :func:`read_slider` and :func:`read_range` are made of it. What is a number is
decided once, by :func:`real`: a Python or numpy int or float, a Fraction or a Decimal; never a bool, text, None or a
complex number. An int is compared exactly, whatever its size (``10**400`` is above 3, though no float holds it).

>>> read_number(9, "spread", 3, whole=True, low=0, high=5)[0], read_whole(" 12 "), is_number(True)
(5, (12, ''), False)
"""

from __future__ import annotations

import decimal
import math
import numbers
import unicodedata
from typing import Any

import numpy as np

from .. import render
from ..graph import short_value
from ..i18n import N_, number, say
from ..i18n import gettext as _

__all__ = ["CLIPPED", "INPUTS_UNREADABLE", "NOT_A_NUMBER_INPUT", "NOT_BELOW", "NOT_FINITE_INPUT", "RANGE_LIMIT",
           "is_number", "out_of_range", "read_number", "read_range", "read_slider", "read_whole", "real", "shown",
           "value_words"]

#: a program whose inputs cannot be read from its signature (SideBySide, ControlFlowExplorer)
INPUTS_UNREADABLE = N_("cannot read the program's inputs: {error}")
NOT_BELOW = N_("low={low} is not below high={high}: pass low < high (the sliders go from {start} to {end} for now).")

#: the largest size of a slider's range end: a float slider of step 0.1 over more than this has more positions
#: than a screen has pixels by far, and ``high - low`` of two floats near 1e308 is inf in the browser
RANGE_LIMIT = 1e6

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


def real(value: Any) -> int | float | None:
    """``value`` as a Python number, or None when it is not a real number: an int (exact, any size) for whole
    kinds, a float otherwise (NaN and inf included); a 0-d numpy array is its number. A Fraction or Decimal beyond
    a float's range (about 1.8e308) gives its whole part, an int, so that it still compares right.

    >>> real(np.int64(3)), real(np.float32(0.5)), real(True), real("2"), real(None), real(10**400) == 10**400
    (3, 0.5, None, None, None, True)
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:  # np.array(2.0): numpy's scalar in an array
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, decimal.Decimal)):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    try:
        x = float(value)
    except OverflowError:  # Fraction(10**400): exact, past a float
        return int(value)
    if math.isinf(x) and abs(value) < math.inf:  # Decimal("1e400"): finite, past a float
        return int(value)
    return x


def is_number(value: Any) -> bool:
    """A real number, as a widget argument or a slider value is read (True and False are not numbers here).

    >>> is_number(2), is_number(np.float64(0.5)), is_number(True), is_number("2"), is_number(10**400)
    (True, True, False, False, True)
    """
    return real(value) is not None


def _finite(x: int | float | None) -> bool:
    return isinstance(x, int) or (x is not None and math.isfinite(x))


def _fits_float(x: int | float) -> bool:
    try:
        float(x)
    except OverflowError:
        return False
    return True


def out_of_range(value: Any, low: float, high: float) -> bool:
    """A finite number outside ``[low, high]``: what a slider clips (and :func:`read_number` brings back in).
    Told from the value, never from the words of a message, which are translated.

    >>> out_of_range(9, 0, 5), out_of_range(float("nan"), 0, 5), out_of_range("9", 0, 5), out_of_range(10**400, 0, 5)
    (True, False, False, True)
    """
    x = real(value)
    return _finite(x) and not low <= x <= high  # type: ignore[operator]  # _finite: a number


def shown(value: Any) -> str:
    """A value as the student passed it, short: a numpy scalar as its number (``9.0``, not ``np.float64(9.0)``),
    an int of more than 15 digits as ``1e+20`` (``10**400`` would be 401 digits), anything else as its repr, cut
    at 60 characters.

    >>> shown(np.float64(9.0)), shown(10**400), shown(-123456789012345678901), shown("abc")
    ('9.0', '1e+400', '-1.23e+20', "'abc'")
    """
    x = real(value) if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else None
    if x is not None and abs(x) >= 10**15:
        e = int((abs(x).bit_length() - 1) * math.log10(2))  # the exponent, or one less
        lead = abs(x) // 10 ** max(e - 2, 0)
        while lead >= 1000:
            lead, e = lead // 10, e + 1
        return ("-" if x < 0 else "") + f"{lead / 100:g}e+{e}"
    text = render.plain(value) if isinstance(value, (np.generic, np.ndarray)) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def value_words(value: Any, digits: int = 4) -> str:
    """A result (a number, or an engine's value) for running text or a table, in the language of the moment: a
    scalar with ``digits`` significant digits and the French decimal comma in French; an array as its short label
    (``[3x2]``). :func:`shown` is its opposite: a value as the student typed it, Python's way.

    >>> value_words(np.float64(-0.58509)), value_words(np.ones((3, 2)))
    ('-0.5851', '[3x2]')
    """
    a = np.asarray(value)
    if a.ndim == 0 and a.dtype.kind in "biuf":
        return number(float(a), digits)
    return short_value(value, digits)


NOT_A_NUMBER = N_("{name}={shown} is not a number: pass {wanted} (the widget uses {default} for now).")
NOT_FINITE = N_("{name}={shown} is not a finite number: pass {wanted} (the widget uses {default} for now).")
NOT_WHOLE = N_("{name}={shown} is not a whole number: pass {wanted} (the widget uses {got} for now).")
BELOW = N_("{name}={shown} is below {low}: pass {wanted} (the widget uses {low}).")
ABOVE = N_("{name}={shown} is above {high}: pass {wanted} (the widget uses {high}).")


TOO_LARGE = N_("{name}={shown} is too large for a float (above about 1.8e308): pass {wanted} (the widget uses "
               "{default} for now).")


def read_number(value: Any, name: str, default: float, *, whole: bool = False, low: float | None = None,
                high: float | None = None) -> tuple[Any, str]:
    """A widget argument read as a number: ``(the number to use, the problem in words or "")``.

    Not a number (text, None, True), NaN or inf: the default is used. Out of ``[low, high]``: the nearest end is
    used, as a slider would (an int of any size is compared exactly). A fraction where a whole number is wanted:
    rounded down. Each says so, and what to pass. The number is an int when ``whole``, else a float.

    >>> read_number("abc", "spread", 3, whole=True, low=0, high=5)
    (3, "spread='abc' is not a number: pass a whole number from 0 to 5 (the widget uses 3 for now).")
    >>> read_number(9, "spread", 3, whole=True, low=0, high=5)[0], read_number(10**400, "x", 1.0, high=3)[0]
    (5, 3.0)
    """
    wanted = _wanted(whole, low, high)
    was, x = shown(value), real(value)
    cast = int if whole else float
    if x is None:
        return default, say(NOT_A_NUMBER, name=name, shown=was, wanted=wanted, default=number(default))
    if not _finite(x):
        return default, say(NOT_FINITE, name=name, shown=was, wanted=wanted, default=number(default))
    got, problem = x, ""
    if whole and got != math.floor(got):
        got = math.floor(got)
        problem = say(NOT_WHOLE, name=name, shown=was, wanted=wanted, got=got)
    if low is not None and got < low:
        return cast(low), say(BELOW, name=name, shown=was, wanted=wanted, low=number(low))
    if high is not None and got > high:
        return cast(high), say(ABOVE, name=name, shown=was, wanted=wanted, high=number(high))
    if not whole and not _fits_float(got):
        return default, say(TOO_LARGE, name=name, shown=was, wanted=wanted, default=number(default))
    return cast(got), problem


CLIPPED = N_("{problem} The slider goes from {low} to {high}.")
NOT_FINITE_INPUT = N_("{k} must be a finite number, got {got}: pass a number from {low} to {high} ({k} stays {value}).")
NOT_A_NUMBER_INPUT = N_("{k} must be a number, got {got}: pass a number from {low} to {high} ({k} stays {value}).")


def read_slider(value: Any, name: str, slider: Any, *, refused: tuple[str, str] = (NOT_A_NUMBER_INPUT,
                                                                                   NOT_FINITE_INPUT)
                ) -> tuple[float | None, str]:
    """A value given from code for a float ``slider`` (``.min``, ``.max``, ``.value``): ``(the value to set, "")``;
    ``(the nearest end, what was clipped)`` for a number out of the slider's range, as the slider would; ``(None,
    why it was refused)`` for something that is not a finite number: the slider stays where it is.

    ``refused``: the messages for "not a number" and "not finite", with the placeholders ``{k}`` (the name),
    ``{got}`` (the value), ``{low}``, ``{high}`` and ``{value}`` (where the slider stays).

    >>> class S: min, max, value = -3.0, 3.0, 1.0
    >>> read_slider(10**20, "x", S)[0], read_slider("2", "x", S)
    (3.0, (None, "x must be a number, got '2': pass a number from -3 to 3 (x stays 1)."))
    """
    low, high = slider.min, slider.max
    got, problem = read_number(value, name, slider.value, low=low, high=high)
    if not problem:
        return got, ""
    if out_of_range(value, low, high):
        return got, say(CLIPPED, problem=problem, low=number(low), high=number(high))
    why = refused[0] if real(value) is None else refused[1]
    return None, say(why, k=name, got=shown(value), low=number(low), high=number(high), value=number(slider.value))
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


def read_range(low: Any, high: Any, default: tuple[float, float]) -> tuple[float, float, list[str]]:
    """A slider range ``low``, ``high`` read as two numbers from -:data:`RANGE_LIMIT` to :data:`RANGE_LIMIT` with
    low < high: ``(low, high, problems)``. An end past the limit is brought to it; anything else wrong gives the
    default range.

    >>> read_range(5, 1, (-3.0, 3.0))[2]
    ['low=5 is not below high=1: pass low < high (the sliders go from -3 to 3 for now).']
    >>> read_range(-10**20, 10, (-3.0, 3.0))[:2]
    (-1000000.0, 10.0)
    """
    lo, p1 = read_number(low, "low", default[0], low=-RANGE_LIMIT, high=RANGE_LIMIT)
    hi, p2 = read_number(high, "high", default[1], low=-RANGE_LIMIT, high=RANGE_LIMIT)
    problems = [p for p in (p1, p2) if p]
    if not _finite(real(low)) or not _finite(real(high)):  # not a number: the default range
        return default[0], default[1], problems
    if not lo < hi:
        return default[0], default[1], [*problems, say(NOT_BELOW, low=shown(low), high=shown(high),
                                                        start=number(default[0]), end=number(default[1]))]
    return lo, hi, problems
