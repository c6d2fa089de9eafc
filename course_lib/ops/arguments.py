"""What an op of the table accepts, checked once for both engines: numbers (:func:`as_array`), the attributes each op
takes (:data:`ATTRIBUTES`: ``axis``, ``p`` ...) and how many inputs (:func:`check_call`).

Both engines' ``apply`` call :func:`check_call` (so ``dy.sin``, ``st.sin``, every operator and every op registered
later), and both read every value through :func:`as_array`; a call that does not fit is refused with the same
message, whichever engine runs it.

>>> as_array(10**20, "a feed")
array(1.e+20)
>>> sorted(ATTRIBUTES)
['axis', 'divide', 'p', 'wrt']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..i18n import N_, Lazy, Plural, say

__all__ = ["ATTRIBUTES", "REQUIRED", "Attribute", "ShapeError", "as_array", "check_call", "cond_branches",
           "axes", "cond_predicate", "mixed_styles", "reduced_shape",
           "signature"]

class ShapeError(ValueError):
    """Operands whose shapes do not fit together (the message names the op and the shapes)."""


# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
NOT_NUMBERS = N_("{what} needs a number or an array of numbers, got {got}")
A_KIND = N_("a value of type {kind}")  # a value too long to show (no article before a value: none to agree)
TOO_LARGE = N_("{what} needs numbers a float64 can hold (up to about 1.8e308), got a whole number of {digits} digits; "
               "write it as a float (1e300) if it is that large")
#: what needs numbers, in NOT_NUMBERS: one input of an op (``sin(): input 1``)
INPUT = Lazy("{name}(): input {index}")
TAKES_INPUTS = Plural("{name}() takes {count} input, {signature}, but was given {got}",
                      "{name}() takes {count} inputs, {signature}, but was given {got}", count="count")
UNKNOWN_ARGUMENT = N_("{name}() has no argument {arg!r}; call it as {signature}")
MISSING_ARGUMENT = N_("{name}() needs its argument {arg}: call it as {signature}")
POW_NEEDS_NUMBER = N_("x ** p needs a plain number p (an exponent that is a tensor is not supported: "
                      "write exp(p * log(x)) instead)")
TENSOR_EXPONENT = N_("c ** x with a tensor exponent is not supported: write exp(x * log(c)) instead")
AXIS_NOT_WHOLE = N_("{name}(): axis must be a whole number, a tuple of them, or None for every axis (axis=0, "
                    "axis=(0, 1)); got {got}")
AXIS_EMPTY = N_("{name}(): axis=() means no axis in TensorFlow and every axis in PyTorch; write axis=None for every "
                "axis")
NOT_TRUE_OR_FALSE = N_("{name}(): {arg} must be True or False, got {got}")
NOT_ZERO_OR_ONE = N_("{name}(): {arg} must be 0 or 1, got {got}")
#: the other engine's tensor given to an op: {its} and {this} are the two descriptions below, one each way
MIXED_STYLES = N_("cannot mix the two styles: {value!r} is {its}, and this is {this}. Run a program entirely with one "
                  "of them: program(st, ...) or program(dy, ...)")
STATIC_SYMBOL = Lazy("a define-then-run symbol (course_lib.static), which has no value until a Session runs its graph")
STATIC_GRAPH = Lazy("a define-then-run graph (course_lib.static), whose values only exist when a Session runs it")
DYNAMIC_TENSOR = Lazy("a define-by-run tensor (course_lib.dynamic)")
DYNAMIC_OPERATION = Lazy("a define-by-run (course_lib.dynamic) operation")
AXIS_OUT_OF_RANGE = N_("{op}(): axis {axis} is out of range for a tensor of shape {shape}")
AXIS_TWICE = N_("{op}(): axis {axis} names the same axis twice (for a tensor of shape {shape})")
COND_PREDICATE = N_("cond: the predicate must be a single number (shape ()), as tf.cond requires; got shape {shape}. "
                    "Reduce it to one number first, e.g. cond(sum(p) > 0, ...)")
COND_NOT_CALLABLE = N_("cond(pred, true_fn, false_fn): {side} must be a function of no arguments, such as a "
                       "lambda; got {got}")

Shape = tuple[int | None, ...] | None  # None: not known before run time
_REAL = (int, float, np.integer, np.floating, np.bool_)  # bool is an int: True is 1, as torch.tensor(True, float64)


def as_array(value: Any, what: str, **names: Any) -> np.ndarray:
    """``value`` as a float64 array, or a TypeError saying what ``what`` needed: ``None``, text and objects are
    never numbers (numpy would turn ``None`` into nan without a word). Whole numbers past int64 (``10**20``) are read
    as floats, as ``torch.tensor(v, dtype=torch.float64)`` and ``tf.constant(v, tf.float64)`` read them; one past
    float64 (``10**400``) is refused, as both frameworks refuse it. nan and inf are values; True and False are 1 and 0.
    ``what`` is shown as it is (``"constant"``, code), or is an :class:`~course_lib.i18n.Lazy` message, translated and
    its ``{placeholders}`` filled with ``names`` only when the value is refused (this runs for every tensor).

    >>> as_array([1, 2], "a feed")
    array([1., 2.])
    >>> as_array(None, "constant")
    Traceback (most recent call last):
    ...
    TypeError: constant needs a number or an array of numbers, got None
    """
    if type(value) is float or type(value) is int:  # the common case, kept fast
        try:
            return np.array(value, dtype=np.float64)
        except OverflowError:
            raise _too_large(value, what, names) from None
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    if kind is None:
        try:
            kind = np.asarray(value).dtype.kind
        except (TypeError, ValueError):  # ragged lists
            kind = "O"
    if kind == "O":  # Python ints past int64 (or mixed with floats) make an array of objects
        return _objects(value, what, names)
    if kind not in "biuf":
        raise TypeError(say(NOT_NUMBERS, what=_what(what, names), got=_describe(value)))
    return np.asarray(value, dtype=np.float64)


def _objects(value: Any, what: str, names: dict[str, Any]) -> np.ndarray:
    """An array of Python objects: numbers only (never None, which numpy would make nan), each within float64."""
    try:
        items = np.asarray(value, dtype=object)
    except (TypeError, ValueError):  # ragged lists
        items = None
    if items is None or items.dtype != object or not all(isinstance(e, _REAL) for e in items.flat):
        raise TypeError(say(NOT_NUMBERS, what=_what(what, names), got=_describe(value)))
    try:
        return items.astype(np.float64)
    except OverflowError:
        raise _too_large(max((e for e in items.flat if isinstance(e, int)), key=abs), what, names) from None


def _too_large(n: int, what: str, names: dict[str, Any]) -> TypeError:
    return TypeError(say(TOO_LARGE, what=_what(what, names), digits=len(str(abs(int(n))))))


def _what(what: str, names: dict[str, Any]) -> str:
    return str(what).format(**names) if names else str(what)


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else say(A_KIND, kind=type(value).__name__)


# ---------------------------------------------------------------------- attributes
REQUIRED = object()  # an attribute without a default (pow's p)


@dataclass(frozen=True)
class Attribute:
    """An attribute ops take by keyword: ``read(value, op name)`` returns it normalized (``axis=[0, 1]`` ->
    ``(0, 1)``) or raises a TypeError in the course's words; ``default`` (:data:`REQUIRED`: none). A node or a
    recorded op keeps only the attributes given with a value other than the default, so ``sum(x)`` and
    ``sum(x, axis=None)`` are the same node."""

    read: Callable[[Any, str], Any]
    default: Any = REQUIRED


def _exponent(p: Any, name: str) -> float:
    """``x ** p``: a plain real number (never text, a tensor, an array or True); nan and inf are numbers."""
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, _REAL):
        raise TypeError(say(POW_NEEDS_NUMBER))
    return float(as_array(p, "x ** p"))


def _axis(axis: Any, name: str) -> int | tuple[int, ...] | None:
    """None (every axis), a whole number or a tuple of them; whether each is in range needs the input's rank: the
    op's shape rule checks it (at build time in define-then-run, else when the op runs)."""
    if axis is None:
        return None
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if any(isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)) for a in items):
        raise TypeError(say(AXIS_NOT_WHOLE, name=name, got=_describe(axis)))
    if not items:
        raise TypeError(say(AXIS_EMPTY, name=name))
    return tuple(int(a) for a in items) if isinstance(axis, (tuple, list)) else int(axis)


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(say(NOT_TRUE_OR_FALSE, name=name, arg="divide", got=_describe(value)))
    return bool(value)


def _wrt(value: Any, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or value not in (0, 1):
        raise TypeError(say(NOT_ZERO_OR_ONE, name=name, arg="wrt", got=_describe(value)))
    return int(value)


#: Every attribute an op of the table may take, by name (``Op.attrs`` names them; ``register`` checks they are here).
ATTRIBUTES: dict[str, Attribute] = {
    "p": Attribute(_exponent),
    "axis": Attribute(_axis, None),
    "divide": Attribute(_flag, False),
    "wrt": Attribute(_wrt),
}


# ---------------------------------------------------------------------- a call
def signature(op: Any) -> str:
    """How a call of op ``op`` (an :class:`~course_lib.ops.Op`) reads: ``sum(x, axis=None)``, ``pow(x, p)``.

    >>> from course_lib.ops import OPS
    >>> signature(OPS["sum"]), signature(OPS["matmul"])
    ('sum(x, axis=None)', 'matmul(a, b)')
    """
    inputs = ["x"] if op.arity == 1 else ["a", "b", "c", "d", "e"][:op.arity]
    shown = [k if ATTRIBUTES[k].default is REQUIRED else f"{k}={ATTRIBUTES[k].default!r}" for k in op.attrs]
    return f"{op.name}({', '.join(inputs + shown)})"


def check_call(op: Any, args: Sequence[Any], given: dict[str, Any]) -> dict[str, Any]:
    """Refuse a call of op ``name`` with the wrong number of inputs, an argument it does not take, a missing one or
    an attribute of the wrong kind; return the attributes read (defaults left out). What each input holds is read
    by :func:`as_array` when the engine lifts it (a tensor of the same engine passes as it is).

    >>> from course_lib.ops import OPS
    >>> check_call(OPS["sum"], [1.0], {"axis": [0]})
    {'axis': (0,)}
    >>> check_call(OPS["sin"], [1.0, 2.0], {})
    Traceback (most recent call last):
    ...
    TypeError: sin() takes 1 input, sin(x), but was given 2
    """
    if len(args) != op.arity:
        raise TypeError(say(TAKES_INPUTS, name=op.name, count=op.arity, signature=signature(op), got=len(args)))
    out: dict[str, Any] = {}
    for k, value in given.items():
        attribute = ATTRIBUTES.get(k) if k in op.attrs else None
        if attribute is None:
            raise TypeError(say(UNKNOWN_ARGUMENT, name=op.name, arg=k, signature=signature(op)))
        value = attribute.read(value, op.name)
        if attribute.default is REQUIRED or value != attribute.default:
            out[k] = value
    for k in op.attrs:
        if k not in out and ATTRIBUTES[k].default is REQUIRED:
            raise TypeError(say(MISSING_ARGUMENT, name=op.name, arg=k, signature=signature(op)))
    return out


def mixed_styles(value: Any, *, into: str) -> TypeError:
    """The refusal of ``value``, a tensor of the other engine, given to an op of engine ``into`` ("static" or
    "dynamic"): one message, whichever way round."""
    its, this = (DYNAMIC_TENSOR, STATIC_GRAPH) if into == "static" else (STATIC_SYMBOL, DYNAMIC_OPERATION)
    return TypeError(say(MIXED_STYLES, value=value, its=str(its), this=str(this)))


def axes(axis: int | tuple[int, ...]) -> tuple[int, ...]:
    """``axis`` as a tuple (an int is one axis)."""
    return axis if isinstance(axis, tuple) else (axis,)


def reduced_shape(op: str, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
    """A sum or mean: () for every axis; along ``axis``, the input's shape without those axes (TensorFlow and PyTorch
    refuse an axis past the rank, and one named twice, as this does; a single number has no axis)."""
    shape, axis = shapes[0], attrs.get("axis")
    if axis is None:
        return ()
    if shape is None:
        return None
    rank = len(shape)
    if any(not -rank <= a < rank for a in axes(axis)):
        raise ShapeError(say(AXIS_OUT_OF_RANGE, op=op, axis=axis, shape=shape))
    kept = {a % rank for a in axes(axis)}
    if len(kept) != len(axes(axis)):
        raise ShapeError(say(AXIS_TWICE, op=op, axis=axis, shape=shape))
    return tuple(d for k, d in enumerate(shape) if k not in kept)


def cond_predicate(shape: tuple[int | None, ...] | None) -> None:
    """Refuse a ``cond`` predicate that is not one number (rank 0), as ``tf.cond`` does; ``None``: not known yet."""
    if shape is not None and len(shape) != 0:
        raise ShapeError(say(COND_PREDICATE, shape=shape))


def cond_branches(true_fn: Any, false_fn: Any) -> None:
    """Refuse branches that are not functions (``cond(p, 1.0, 2.0)``), in both engines' words."""
    for side, fn in (("true_fn", true_fn), ("false_fn", false_fn)):
        if not callable(fn):
            raise TypeError(say(COND_NOT_CALLABLE, side=side, got=_describe(fn)))
