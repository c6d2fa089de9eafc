"""The one table of operations: each op written once, used by both engines, the parser and the framework adapters.

An op is a small record (:class:`Op`): its numpy forward, a float forward for plans the static compiler has proved
all-scalar, its shape rule, the Python it stands for in a compiled plan's source, the names TensorFlow and PyTorch
give it, and its **local derivative**, written once against an ``ops`` namespace.

The local derivative is the course's own idea applied to the library. A rule such as ``sin: g * ops.cos(x)`` is a
tiny *program over ops*; run it with

* the numpy namespace :data:`NUMPY` and it computes numbers — the dynamic engine's ``backward`` does this;
* the static engine's own functions and it *adds nodes* — the static engine's ``gradients`` does this, so the
  derivative is itself a graph.

Reverse mode in one line: for ``y = f(x₁, …, xₖ)`` and ``g = ∂L/∂y``, the rule returns ``∂L/∂xᵢ = g · ∂y/∂xᵢ`` for
each input (a vector-Jacobian product), or ``None`` where no gradient flows. Broadcasting is undone by ``sum_to``:
if ``a`` of shape ``(3,)`` was broadcast to ``(2, 3)``, its gradient is ``g`` summed over the new axis.

>>> import numpy as np
>>> OPS["sin"].grad(NUMPY, np.float64(1.0), np.float64(0.0), np.float64(0.0))
(np.float64(1.0),)
>>> OPS["mul"].infer_shape([(2, 3), (3,)], {})
(2, 3)

Adding an op is one :func:`register` call (plus its tests): both engines, ``expr``, the compiler and the gradient
checks read this table, so nothing else needs an edit. An operator too: its record says how it is spelled
(:class:`Spelling`: ``+``, ``__add__``/``__radd__``, ``ast.Add``), both Tensor classes take their operator methods
from it (:func:`install_operators`) and the expression parser reads it. The helpers that gradient rules create
(``sum_to``, ``expand_like``, ``matmul_grad``, ``select``) have rules of their own, written with table ops, so a
gradient can be differentiated again, broadcasting included.
"""

from __future__ import annotations

import ast
import itertools
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..i18n import N_, say
from ..i18n import gettext as _
from .arguments import (
    ATTRIBUTES,
    AXIS_OUT_OF_RANGE,
    AXIS_TWICE,
    INPUT,
    MIXED_STYLES,
    NOT_NUMBERS,
    POW_NEEDS_NUMBER,
    TENSOR_EXPONENT,
    TOO_LARGE,
    ShapeError,
    _describe,  # noqa: F401  # how a refused value is shown (tests/test_grammar.py reads it)
    as_array,
    axes,
    check_call,
    cond_branches,
    cond_predicate,
    mixed_styles,
    reduced_shape,
)

__all__ = [
    "ATTRIBUTES",
    "AXIS_OUT_OF_RANGE",
    "AXIS_TWICE",
    "INPUT",
    "MIXED_STYLES",
    "NOT_NUMBERS",
    "NUMPY",
    "TOO_LARGE",
    "OPS",
    "Op",
    "ShapeError",
    "Spelling",
    "as_array",
    "broadcast_shapes",
    "check_call",
    "cond_branches",
    "cond_predicate",
    "mixed_styles",
    "functions",
    "install_functions",
    "install_operators",
    "operators",
    "register",
    "spelled",
    "sum_to",
    "unregister",
]

Shape = tuple[int | None, ...] | None  # None: not known before run time
#: ``grad(ops, g, *inputs, out, **attrs) -> one gradient (or None) per input``
GradRule = Callable[..., Sequence[Any]]


# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
BROADCAST = N_("{op}: shapes {shapes} cannot be broadcast together; make them equal or let one be a single number")
AND = N_("{a} and {b}")  # two shapes of a message: "(2, 3) and (2,)"
MATMUL_RANK = N_("matmul needs vectors or matrices, got shapes {a} and {b}")
MATMUL_INNER = N_("matmul: shapes {a} and {b} do not fit: inner sizes {m} and {n} must be equal")
NOT_IDENTIFIER = N_("an op name must be a Python identifier, got {name!r}")
UNKNOWN_ATTRIBUTE = N_("op {name!r}: attribute {attr!r} is not in course_lib.ops.ATTRIBUTES; add its reader there")
#: the messages both engines say (one id each, so a test names one constant whichever engine raised it)
UNKNOWN_OP = N_("unknown op {name!r}; the ops are {ops}")


# ---------------------------------------------------------------------- broadcasting (numpy's rule, and its adjoint)
def broadcast_shapes(op: str, shapes: Sequence[Shape]) -> Shape:
    """numpy's broadcasting on shapes that may hold unknown (None) dims; None if any shape is unknown.

    Align from the right; each dim is the one non-1 size, 1 if all are 1, unknown if one is unknown.

    >>> broadcast_shapes("add", [(2, 1), (3,)])
    (2, 3)
    """
    if any(s is None for s in shapes):
        return None
    out: list[int | None] = []
    for dims in itertools.zip_longest(*(reversed(s) for s in shapes), fillvalue=1):  # type: ignore[arg-type]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ShapeError(say(BROADCAST, op=op, shapes=_joined(shapes)))
        out.append(known.pop() if known else (None if None in dims else 1))
    return tuple(reversed(out))


def _joined(shapes: Sequence[Shape]) -> str:
    """``(2, 3) and (2,)`` (``a and b and c`` for three) in the current language."""
    text = str(shapes[0])
    for s in shapes[1:]:
        text = _(AND).format(a=text, b=s)
    return text


def sum_to(g: Any, like: Any) -> np.ndarray:
    """The adjoint of broadcasting: sum ``g`` back to the shape of ``like`` (an array, or a shape tuple).

    >>> sum_to(np.ones((2, 3)), np.zeros(3))
    array([2., 2., 2.])
    """
    g = np.asarray(g, dtype=np.float64)
    shape = like if isinstance(like, tuple) else np.shape(like)
    if g.shape == shape:
        return g
    if g.ndim > len(shape):
        g = np.sum(g, axis=tuple(range(g.ndim - len(shape))))
    axes = tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1)
    return np.sum(g, axis=axes, keepdims=True).reshape(shape) if axes else g.reshape(shape)


def _expand_like(g: Any, like: Any, *, divide: bool = False, axis: int | tuple[int, ...] | None = None
                 ) -> np.ndarray:
    """The adjoint of a sum (``divide=False``) or a mean (``divide=True``): spread ``g`` over ``like``'s shape; for
    a reduction along ``axis``, ``g`` lacks those axes: they are put back (size 1) first, and a mean divides by the
    number of values each output averaged (the product of their sizes)."""
    like = np.asarray(like)
    if axis is not None:
        g = np.expand_dims(g, axis)  # negative axes count from the end of like's shape: g gets like's rank
    out = np.broadcast_to(g, like.shape).astype(np.float64)
    if not divide:
        return out
    n = like.size if axis is None else math.prod(like.shape[a] for a in axes(axis))
    return out / max(n, 1)


def _matmul_grad(g: Any, a: Any, b: Any, *, wrt: int) -> np.ndarray:
    """For ``c = a @ b``: ``da = g bᵀ`` (``wrt=0``) and ``db = aᵀ g`` (``wrt=1``); vectors act as numpy treats them
    (a row on the left, a column on the right)."""
    g, a, b = np.asarray(g), np.asarray(a), np.asarray(b)
    if a.ndim == 1 and b.ndim == 1:
        return g * (b if wrt == 0 else a)
    if a.ndim == 1:
        return b @ g if wrt == 0 else np.outer(a, g)
    if b.ndim == 1:
        return np.outer(g, b) if wrt == 0 else a.T @ g
    return g @ b.T if wrt == 0 else a.T @ g


def _f64(fn: Callable[..., Any]) -> Callable[..., np.ndarray]:
    """A numpy function whose result is always float64 (comparisons give 0/1, reductions a 0-d array)."""
    def f(*a: Any, **k: Any) -> np.ndarray:
        return np.asarray(fn(*a, **k), dtype=np.float64)

    f.__name__ = getattr(fn, "__name__", "f")
    return f


# ---------------------------------------------------------------------- shape rules
def _elementwise(op: str, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
    return broadcast_shapes(op, shapes)


def _scalar(op: str, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
    return ()


def _like_first(op: str, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
    return shapes[0]


def _like_last(op: str, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
    return shapes[-1]


def _matmul_shape(op: str, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
    """(n, k) @ (k, m) -> (n, m); a vector drops its side's dim, as in numpy."""
    a, b = shapes
    if a is None or b is None:
        return None
    if len(a) not in (1, 2) or len(b) not in (1, 2):
        raise ShapeError(say(MATMUL_RANK, a=a, b=b))
    if a[-1] is not None and b[0] is not None and a[-1] != b[0]:
        raise ShapeError(say(MATMUL_INNER, a=a, b=b, m=a[-1], n=b[0]))
    return tuple(a[:-1]) + tuple(b[1:])


def _matmul_grad_shape(op: str, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
    return shapes[1 + attrs["wrt"]]


# ---------------------------------------------------------------------- how an operator is written
@dataclass(frozen=True)
class Spelling:
    """How an operator is written: ``symbol`` in text (``"+"``); ``node``, the class Python's parser gives it
    (``ast.Add``), the key an expression parser looks an operator up by, Python's own grammar giving the precedence
    (``a + b * c`` is ``a + (b * c)``, ``-x ** 2`` is ``-(x ** 2)``); ``method`` and ``reflected``, the Tensor
    methods (``__add__``, and ``__radd__`` for ``2 + t``; None for a unary operator or a comparison, whose mirror
    Python finds by itself: ``2 < t`` calls ``t.__gt__(2)``).

    ``number_only``: for an operator whose right side is the op's attribute, not an input (``x ** p``, p a plain
    number): what to say when that side is not a plain number, and when the operator is used the other way round
    (``2 ** x``).

    >>> s = OPS["add"].spelling
    >>> s.symbol, s.node.__name__, s.method, s.reflected, s.python(2, 3)
    ('+', 'Add', '__add__', '__radd__', 5)
    """

    symbol: str
    node: type[ast.AST]
    method: str
    reflected: str | None = None
    number_only: tuple[str, str] | None = None

    @property
    def python(self) -> Callable[..., Any]:
        """Python's own function for the operator (``operator.__add__``), which dispatches to the operands' methods."""
        return getattr(operator, self.method)  # type: ignore[no-any-return]

    @property
    def comparison(self) -> bool:
        return issubclass(self.node, ast.cmpop)


# ---------------------------------------------------------------------- the record
@dataclass(frozen=True)
class Op:
    """One operation, everything about it in one place.

    ``role``: ``"operator"`` (only spelled with a symbol: ``+ - * / **``, unary ``-``), ``"function"`` (called by name:
    ``ops.sin(x)``; the one-argument ones can be typed into an expression), ``"comparison"`` (0/1, no gradient) or
    ``"helper"`` (only gradients create it). ``spelling``: how it is written as an operator (:class:`Spelling`;
    ``matmul`` is a function spelled ``@`` too); both Tensor classes get their operator methods from it
    (:func:`install_operators`) and :mod:`course_lib.expr` parses it. ``forward`` computes on numpy float64 arrays;
    ``scalar`` on Python floats (None: plans using this op are not specialized). ``shape(op, input shapes, attrs)``
    infers the output shape at build time. ``source`` is the plan-source template (``"{0} ** {p}"``; None: the spelling,
    ``a + b``, for an operator with no attribute, else ``name(args)``). ``attrs``: the keyword attributes the op takes
    (``pow``'s ``p``). ``grad``: the local derivative (None: no gradient flows through it: the output does not change
    with the inputs). ``partial``: undefined for some finite inputs (``x/0``, ``log(-1)``): computed with numpy's
    warnings off, the inf or nan being the answer. ``check_shapes``: check the shape rule before computing (numpy would
    accept shapes the course refuses). ``domain``: an interval where the op is smooth, which the property tests sample
    (values and derivatives against numpy, PyTorch and finite differences). ``tf`` / ``torch``: the framework function
    of the same maths, as an attribute path.
    """

    name: str
    arity: int
    forward: Callable[..., np.ndarray]
    grad: GradRule | None = None
    scalar: Callable[..., float] | None = None
    shape: Callable[[str, Sequence[Shape], dict[str, Any]], Shape] = _elementwise
    source: str | None = None
    role: str = "function"
    attrs: tuple[str, ...] = ()
    commutative: bool = False
    partial: bool = False
    check_shapes: bool = False
    domain: tuple[float, float] = (-2.0, 2.0)
    tf: str | None = None
    torch: str | None = None
    spelling: Spelling | None = None

    def infer_shape(self, shapes: Sequence[Shape], attrs: dict[str, Any]) -> Shape:
        return self.shape(self.name, shapes, attrs)

    def code(self, args: Sequence[str], attrs: dict[str, Any]) -> str:
        """This op as one Python expression over the names ``args`` (for :meth:`static.Plan.source`)."""
        if self.source is not None:
            return self.source.format(*args, **attrs)
        s = self.spelling
        if s is not None and not s.comparison and not self.attrs:
            return f"{args[0]} {s.symbol} {args[1]}" if len(args) == 2 else f"{s.symbol}{args[0]}"
        extra = "".join(f", {k}={attrs[k]!r}" for k in self.attrs if k in attrs)
        return f"{self.name}({', '.join(args)}{extra})"


OPS: dict[str, Op] = {}

#: The numpy namespace: ``NUMPY.sin(x)`` etc. for every op — what a gradient rule calls when it computes values.
NUMPY = SimpleNamespace()


def register(op: Op) -> Op:
    """Add ``op`` to the table (replacing one of the same name); both engines and ``expr`` see it at once, its
    spelling included: the Tensor classes of both engines get its operator methods."""
    if not op.name.isidentifier():
        raise ValueError(say(NOT_IDENTIFIER, name=op.name))
    for attr in op.attrs:  # every attribute has one reader, so both engines check it the same way
        if attr not in ATTRIBUTES:
            raise ValueError(say(UNKNOWN_ATTRIBUTE, name=op.name, attr=attr))
    if op.name in OPS:
        _uninstall(OPS[op.name])
    OPS[op.name] = op
    setattr(NUMPY, op.name, op.forward)
    for cls, apply in _SPELLERS:
        _install(cls, apply, op)
    return op


def unregister(name: str) -> Op:
    """Take op ``name`` out of the table, with its numpy function and the operator methods it gave (a test's undo).

    >>> square = register(Op("square", 1, np.square))
    >>> unregister("square") is square, "square" in OPS
    (True, False)
    """
    op = OPS.pop(name)
    delattr(NUMPY, name)
    _uninstall(op)
    return op


#: The classes whose operators follow the table, with the ``apply`` their methods call (see install_operators).
_SPELLERS: list[tuple[type, Callable[..., Any]]] = []


def install_operators(cls: type, apply: Callable[..., Any]) -> None:
    """Give ``cls`` a method for every spelling of the table (``__add__``, ``__radd__``, ``__neg__``, ``__pow__``,
    ``__gt__`` ...), each calling ``apply(op name, *operands)``; an operator registered later reaches it too.

    Both engines' Tensor classes get their operators here, so ``t + 1`` means the same in both; an operator whose
    right side is an attribute (``x ** p``) takes only a plain number there, as its :class:`Spelling` says.
    """
    _SPELLERS.append((cls, apply))
    for op in OPS.values():
        _install(cls, apply, op)


def _install(cls: type, apply: Callable[..., Any], op: Op) -> None:
    s, name = op.spelling, op.name
    if s is None:
        return
    methods: dict[str, Callable[..., Any]] = {}
    if s.number_only is not None:
        (attr,) = op.attrs
        not_a_number, other_way_round = s.number_only

        def method(self: Any, p: Any) -> Any:
            if hasattr(p, "__array_priority__") and not isinstance(p, np.generic):  # a tensor of either engine
                raise TypeError(say(not_a_number))
            return apply(name, self, **{attr: p})  # apply reads p (ATTRIBUTES): text, True, 10**400 refused

        def reflected(self: Any, other: Any) -> Any:
            raise TypeError(say(other_way_round))
    elif op.arity == 1:
        def method(self: Any) -> Any:
            return apply(name, self)
    elif s.method in ("__eq__", "__ne__"):
        differ = s.method == "__ne__"

        def method(self: Any, other: Any) -> Any:
            # t == None is False, as in PyTorch and TensorFlow (math_ops.tensor_equals): Python's `x in (None, ...)`
            return differ if other is None else apply(name, self, other)
    else:
        def method(self: Any, other: Any) -> Any:
            return apply(name, self, other)

        def reflected(self: Any, other: Any) -> Any:
            return apply(name, other, self)
    methods[s.method] = method
    if s.reflected is not None:
        methods[s.reflected] = reflected
    for dunder, f in methods.items():
        f.__name__, f.__qualname__ = dunder, f"{cls.__name__}.{dunder}"
        f.__doc__ = f"``{s.symbol}``: op {name!r} of the table (course_lib.ops.OPS[{name!r}])."
        f._op = name  # type: ignore[attr-defined]  # so that unregister removes only what the table gave
        setattr(cls, dunder, f)


def _uninstall(op: Op) -> None:
    if op.spelling is None:
        return
    for cls, _apply in _SPELLERS:
        for dunder in (op.spelling.method, op.spelling.reflected):
            if dunder is not None and getattr(cls.__dict__.get(dunder), "_op", None) == op.name:
                delattr(cls, dunder)


def spelled(node: type[ast.AST]) -> Op | None:
    """The op Python's parser spells with ``node`` (``ast.Add`` -> ``add``), or None.

    >>> spelled(ast.MatMult).name, spelled(ast.FloorDiv)
    ('matmul', None)
    """
    return next((o for o in OPS.values() if o.spelling is not None and o.spelling.node is node), None)


def operators() -> list[str]:
    """The symbols of the table's operators (comparisons apart), each once, in table order.

    >>> " ".join(operators())
    '+ - * / ** @'
    """
    return list(dict.fromkeys(o.spelling.symbol for o in OPS.values()
                              if o.spelling is not None and not o.spelling.comparison))


def install_functions(namespace: dict[str, Any], function: Callable[[str], Callable[..., Any]]) -> None:
    """Make every function of the table a function of a module (``dy.sin``, ``st.matmul``): ``namespace`` is the
    module's ``globals()``, ``function(name)`` makes one. The module's ``__getattr__`` (set here) finds one
    registered after the import, and its ``__all__`` lists them."""
    module = namespace["__name__"]
    namespace["__all__"].extend(functions())
    namespace.update({name: function(name) for name in functions()})

    def __getattr__(name: str) -> Callable[..., Any]:
        op = OPS.get(name)
        if op is None or op.role != "function":
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        return function(name)

    namespace["__getattr__"] = __getattr__


def functions(arity: int | None = None) -> list[str]:
    """Names of the ops called by name (``ops.sin``), in table order; ``arity=1``: those an expression may call.

    >>> functions(1)[:3]
    ['exp', 'log', 'sin']
    """
    return [o.name for o in OPS.values() if o.role == "function" and (arity is None or o.arity == arity)]


def _pow(a: Any, *, p: float) -> np.ndarray:
    return np.power(a, p)


def _pow_grad(o: Any, g: Any, x: Any, p: float) -> tuple[Any]:
    """d(xᵖ) = p xᵖ⁻¹ dx; for p = 0, xᵖ is the constant 1 and the derivative is 0 everywhere, x = 0 included
    (p xᵖ⁻¹ would be 0 · inf = nan there; PyTorch gives 0 too)."""
    return (o.zeros_like(x),) if p == 0 else (g * (p * x ** (p - 1.0)),)


def _select_grad(o: Any, g: Any, p: Any, a: Any, b: Any) -> tuple[Any, Any, Any]:
    """``select(p, a, b)`` passes ``g`` to ``a`` where ``p`` holds and to ``b`` elsewhere (one zero shared), summed
    back to each one's shape where it was broadcast; ``p`` only chooses: no gradient."""
    zero = o.zeros_like(g)
    return None, o.sum_to(o.select(p, g, zero), a), o.sum_to(o.select(p, zero, g), b)


def _sum_to_grad(o: Any, g: Any, x: Any, like: Any, y: Any) -> tuple[Any, None]:
    """``sum_to(x, like)`` adds up what broadcasting spread; its adjoint spreads ``g`` back over x's shape (``like``
    only lends its shape: no gradient)."""
    return o.expand_like(g, x), None


def _expand_like_grad(o: Any, g: Any, x: Any, like: Any, y: Any, *, divide: bool = False,
                      axis: int | tuple[int, ...] | None = None) -> tuple[Any, None]:
    """``expand_like(x, like)`` spreads x over like's shape (divided by its size n for a mean); its adjoint sums
    ``g`` back to x's shape (and divides by n, written with table ops as ``sum(ones_like(like))``). Along ``axis``
    it put back the axes a reduction took: its adjoint is that reduction again, ``sum`` (or ``mean``: the 1/n)."""
    if axis is not None:
        return (o.mean(g, axis=axis) if divide else o.sum(g, axis=axis)), None
    back = o.sum_to(g, x)
    return (back / o.sum(o.ones_like(like)) if divide else back), None


def _matmul_grad_grad(o: Any, h: Any, g: Any, a: Any, b: Any, y: Any, *, wrt: int) -> tuple[Any, Any, Any]:
    """``matmul_grad`` is linear in g and in the operand g is multiplied by, so its adjoints are products again:
    for ``y = g bᵀ`` (wrt=0) ``dg = h b`` and ``db = hᵀ g``; for ``y = aᵀ g`` (wrt=1) ``dg = a h`` and
    ``da = g hᵀ`` (h = dL/dy; vectors as numpy treats them, which matmul and matmul_grad already do)."""
    if wrt == 0:
        return o.matmul(h, b), None, o.matmul_grad(g, h, b, wrt=1)
    return o.matmul(a, h), o.matmul_grad(g, a, h, wrt=0), None


def _mean(a: Any, *, axis: int | tuple[int, ...] | None = None) -> np.ndarray:
    """The mean as a sum over a count, so the mean of nothing is nan (as in PyTorch) without numpy's warning."""
    a = np.asarray(a, dtype=np.float64)
    n = a.size if axis is None else math.prod(a.shape[k] for k in axes(axis))
    return np.asarray(np.sum(a, axis=axis) / n, dtype=np.float64)


def _relu_scalar(a: float) -> float:
    return a if a > 0.0 or math.isnan(a) else 0.0


# ---------------------------------------------------------------------- the ops of the course
# Each grad rule: (ops, g, *inputs, out, **attrs) -> gradients of the inputs; g = dL/d(out).
for _op in (
    # operators                                                        d(a+b) = da + db
    Op("add", 2, np.add, lambda o, g, a, b, y: (o.sum_to(g, a), o.sum_to(g, b)),
       operator.add, role="operator", commutative=True, spelling=Spelling("+", ast.Add, "__add__", "__radd__")),
    Op("sub", 2, np.subtract, lambda o, g, a, b, y: (o.sum_to(g, a), o.sum_to(-g, b)),
       operator.sub, role="operator", spelling=Spelling("-", ast.Sub, "__sub__", "__rsub__")),
    #                                                                  d(ab) = b da + a db
    Op("mul", 2, np.multiply, lambda o, g, a, b, y: (o.sum_to(g * b, a), o.sum_to(g * a, b)),
       operator.mul, role="operator", commutative=True, spelling=Spelling("*", ast.Mult, "__mul__", "__rmul__")),
    #                                                                  d(a/b) = da/b - (a/b) db/b
    Op("div", 2, np.divide, lambda o, g, a, b, y: (o.sum_to(g / b, a), o.sum_to(-(g * (y / b)), b)),
       operator.truediv, role="operator", partial=True,
       spelling=Spelling("/", ast.Div, "__truediv__", "__rtruediv__")),
    Op("neg", 1, np.negative, lambda o, g, x, y: (-g,), operator.neg, role="operator",
       spelling=Spelling("-", ast.USub, "__neg__")),
    #                                                                  d(xᵖ) = p xᵖ⁻¹ dx   (p a plain number)
    Op("pow", 1, _pow, lambda o, g, x, y, *, p: _pow_grad(o, g, x, p),
       lambda a, *, p: math.pow(a, p), source="{0} ** {p}", role="operator", attrs=("p",), partial=True,
       spelling=Spelling("**", ast.Pow, "__pow__", "__rpow__", number_only=(POW_NEEDS_NUMBER, TENSOR_EXPONENT))),
    # functions                                                        d(eˣ) = eˣ dx
    Op("exp", 1, np.exp, lambda o, g, x, y: (g * y,), math.exp, tf="exp", torch="exp"),
    Op("log", 1, np.log, lambda o, g, x, y: (g / x,), math.log, partial=True, domain=(0.2, 3.0),
       tf="math.log", torch="log"),
    Op("sin", 1, np.sin, lambda o, g, x, y: (g * o.cos(x),), math.sin, tf="sin", torch="sin"),
    Op("cos", 1, np.cos, lambda o, g, x, y: (-(g * o.sin(x)),), math.cos, tf="cos", torch="cos"),
    #                                                                  d tanh = (1 - tanh²) dx
    Op("tanh", 1, np.tanh, lambda o, g, x, y: (g * (1.0 - y * y),), math.tanh, tf="tanh", torch="tanh"),
    Op("relu", 1, lambda a: np.maximum(a, 0.0), lambda o, g, x, y: (g * o.greater(x, 0.0),), _relu_scalar,
       domain=(0.1, 2.0), tf="nn.relu", torch="relu"),  # smooth away from the kink at 0
    #                                                                  dσ = σ(1-σ) dx
    Op("sigmoid", 1, lambda a: 1.0 / (1.0 + np.exp(-a)), lambda o, g, x, y: (g * (y * (1.0 - y)),),
       lambda a: 1.0 / (1.0 + math.exp(-a)), tf="sigmoid", torch="sigmoid"),
    #                                                                  along axis (None: every axis)
    Op("sum", 1, _f64(np.sum), lambda o, g, x, y, *, axis=None: (o.expand_like(g, x, axis=axis),),
       lambda a, *, axis=None: a, reduced_shape, attrs=("axis",), check_shapes=True, tf="reduce_sum", torch="sum"),
    Op("mean", 1, _mean, lambda o, g, x, y, *, axis=None: (o.expand_like(g, x, divide=True, axis=axis),),
       lambda a, *, axis=None: a, reduced_shape, attrs=("axis",), check_shapes=True, partial=True, tf="reduce_mean",
       torch="mean"),
    # matmul: a function (ops.matmul) and an operator (@); d(a@b) = da b + a db
    Op("matmul", 2, np.matmul,
       lambda o, g, a, b, y: (o.matmul_grad(g, a, b, wrt=0), o.matmul_grad(g, a, b, wrt=1)),
       shape=_matmul_shape, check_shapes=True, tf="linalg.matmul", torch="matmul",
       spelling=Spelling("@", ast.MatMult, "__matmul__", "__rmatmul__")),
    # comparisons: 0/1 values, no gradient (usable in a Python `if` in define-by-run)
    Op("greater", 2, _f64(np.greater), None, lambda a, b: float(a > b), role="comparison",
       spelling=Spelling(">", ast.Gt, "__gt__")),
    Op("less", 2, _f64(np.less), None, lambda a, b: float(a < b), role="comparison",
       spelling=Spelling("<", ast.Lt, "__lt__")),
    Op("greater_equal", 2, _f64(np.greater_equal), None, lambda a, b: float(a >= b), role="comparison",
       spelling=Spelling(">=", ast.GtE, "__ge__")),
    Op("less_equal", 2, _f64(np.less_equal), None, lambda a, b: float(a <= b), role="comparison",
       spelling=Spelling("<=", ast.LtE, "__le__")),
    # == and != element by element, as PyTorch and TensorFlow 2 (TF1's graph-mode == compared objects: False)
    Op("equal", 2, _f64(np.equal), None, lambda a, b: float(a == b), role="comparison",
       spelling=Spelling("==", ast.Eq, "__eq__")),
    Op("not_equal", 2, _f64(np.not_equal), None, lambda a, b: float(a != b), role="comparison",
       spelling=Spelling("!=", ast.NotEq, "__ne__")),
    # helpers that gradient rules create; their own rules make gradients of gradients work (with broadcasting)
    Op("sum_to", 2, sum_to, _sum_to_grad, lambda g, like: g, _like_last, role="helper"),
    Op("expand_like", 2, _expand_like, _expand_like_grad, lambda g, like, *, divide=False, axis=None: g, _like_last,
       role="helper", attrs=("divide", "axis")),
    Op("matmul_grad", 3, _matmul_grad, _matmul_grad_grad, shape=_matmul_grad_shape, role="helper", attrs=("wrt",)),
    Op("ones_like", 1, lambda a: np.ones_like(a, dtype=np.float64), None, lambda a: 1.0, _like_first,
       role="helper"),
    Op("zeros_like", 1, lambda a: np.zeros_like(a, dtype=np.float64), None, lambda a: 0.0, _like_first,
       role="helper"),
    # select(p, a, b): a where p is non-zero, else b — the gradient of a cond's output, per branch
    Op("select", 3, lambda p, a, b: np.where(p != 0, a, b).astype(np.float64),
       lambda o, g, p, a, b, y: _select_grad(o, g, p, a, b),
       lambda p, a, b: a if p != 0.0 else b, role="helper"),
):
    register(_op)
del _op
