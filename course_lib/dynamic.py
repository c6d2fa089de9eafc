"""Define-by-run: the PyTorch style, in one file.

Every operation computes its value *now* and records how it was made: its inputs (``_parents``) and its local
derivative (``_backward``), written side by side as in micrograd. The graph is nothing but this record; it is
built fresh by every run, so plain Python ``if``/``for`` on values just works and each input can give a
different graph.

Reverse mode: for ``y = f(u)`` with ``u = g(x)``, the chain rule gives
``dy/dx = dy/du · du/dx``. ``backward()`` walks the record from the output to the leaves, in reverse creation
order, and each op turns the gradient of its output ``ḡ`` into gradients of its inputs (a vector-Jacobian
product). A tensor used twice receives the sum of both contributions.

>>> a = Tensor(3.0, requires_grad=True, name="a")
>>> b = sin(a * 2.0 + 1.0)
>>> b.backward()
>>> round(float(a.grad), 6) == round(2 * float(np.cos(7.0)), 6)
True
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from . import graph as ir
from . import ops as _ops
from .i18n import N_, Lazy, say

_OPS, _NUMPY = _ops.OPS, _ops.NUMPY  # the table (ops registered later appear in it too)
_PARENTS, _ID = operator.attrgetter("_parents"), operator.attrgetter("_id")  # a tensor's record, for graph's walks
_F64 = np.dtype(np.float64)

__all__ = ["Parameter", "ShapeError", "Tensor", "apply", "cond", "constant", "function", "is_grad_enabled", "no_grad",
           "observe"]

_counter = itertools.count()  # creation order: the node ids of the recorded graph
_grad_enabled = True
#: Called with every new Tensor while a trace is being recorded (course_lib.trace sets it); None otherwise.
_on_create: Callable[[Tensor], None] | None = None


ShapeError = _ops.ShapeError  # two operands whose shapes do not fit (the message names the op and both shapes)

# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
A_TENSOR = Lazy("a Tensor")  # what needs numbers, in ops.NOT_NUMBERS
NOT_ONE_NUMBER = N_("{what} needs a tensor of one number, but this one has shape {shape}; take one element first "
                    "(t.sum(), t.mean(), or index t.numpy()), as PyTorch's .item() does")
NOT_WHOLE = N_("int() of {value}: an infinite or nan value has no whole number")
NAME_NOT_TEXT = N_("{what}(): name= must be text, like name='x', or None; got {name!r}")
AMBIGUOUS = N_("the truth value of a tensor of shape {shape} is ambiguous; use .sum() or a comparison on one element")
NOTHING_RECORDED = N_("backward() on a tensor that does not require grad: no input was created with "
                      "requires_grad=True (or it was computed under no_grad()), so nothing was recorded")
NOT_A_NUMBER = N_("backward() without a gradient needs a single number, but the output has shape {shape}; call "
                  ".sum() or .mean() first, or pass grad= of that shape")
GRAD_SHAPE = N_("backward(grad=...): the gradient has shape {grad_shape} but the output has shape {shape}; pass one "
                "number per output value (PyTorch says 'Mismatch in shape')")
MIXED_STYLES = _ops.MIXED_STYLES  # one message both ways (ops.mixed_styles)
UNKNOWN_OP, POW_NEEDS_NUMBER, TENSOR_EXPONENT = _ops.UNKNOWN_OP, _ops.POW_NEEDS_NUMBER, _ops.TENSOR_EXPONENT
NOT_TRUE_OR_FALSE = _ops.arguments.NOT_TRUE_OR_FALSE


@contextlib.contextmanager
def no_grad() -> Iterator[None]:
    """Inside this block nothing is recorded: ops compute values only (as ``torch.no_grad()``)."""
    global _grad_enabled
    before, _grad_enabled = _grad_enabled, False
    try:
        yield
    finally:
        _grad_enabled = before


def is_grad_enabled() -> bool:
    return _grad_enabled


@contextlib.contextmanager
def observe(callback: Callable[[Tensor], None]) -> Iterator[None]:
    """Inside this block ``callback(t)`` is called with every new Tensor, the moment it exists (traces use it
    to record which line of a program created which node)."""
    global _on_create
    before, _on_create = _on_create, callback
    try:
        yield
    finally:
        _on_create = before


class Tensor:
    """A value (numpy float64 array) that remembers the operation that made it.

    ``requires_grad=True`` marks a leaf we want gradients for; any op with such an input records itself.
    ``kind`` is how the leaf is drawn: ``"input"`` for data, ``"variable"`` for parameters (see
    :func:`Parameter`), ``"constant"`` for plain numbers.
    """

    __slots__ = ("_backward", "_id", "_op", "_parents", "data", "grad", "kind", "line", "name", "requires_grad")
    __array_priority__ = 1000  # numpy scalars on the left defer to our operators

    def __init__(self, data: Any, requires_grad: bool = False, name: str | None = None,
                 kind: str | None = None) -> None:
        if isinstance(data, Tensor):
            data = data.data
        if name is not None and not isinstance(name, str):  # a node's name is drawn and written as text
            raise TypeError(say(NAME_NOT_TEXT, what="Tensor", name=name))
        if not isinstance(requires_grad, (bool, np.bool_)):  # "no" would be true (torch.tensor refuses it too)
            raise TypeError(say(NOT_TRUE_OR_FALSE, name="Tensor", arg="requires_grad", got=repr(requires_grad)))
        array = _ops.as_array(data, A_TENSOR)
        self.data: np.ndarray = array.copy() if array is data else array  # never a view of the caller's array
        self.grad: np.ndarray | None = None
        self.requires_grad = bool(requires_grad)
        self.name = name
        self.kind = kind or ("input" if requires_grad else "constant")
        self._parents: tuple[Tensor, ...] = ()
        self._op = "leaf"
        self._backward: Callable[[np.ndarray], Sequence[np.ndarray | None]] | None = None
        self._id = next(_counter)
        self.line: int | None = None
        if _on_create is not None:
            _on_create(self)

    # ------------------------------------------------------------------ reading
    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def op(self) -> str:
        return self._op

    @property
    def id(self) -> int:
        """Creation counter: tensors made later have larger ids (the ids of the recorded graph follow it)."""
        return self._id

    @property
    def is_leaf(self) -> bool:
        return not self._parents

    def item(self) -> float:
        """The one number this tensor holds (``torch.Tensor.item``); a tensor of more numbers is refused."""
        return float(self._one("item()"))

    def numpy(self) -> np.ndarray:
        return self.data

    def __float__(self) -> float:
        return float(self._one("float()"))

    def __int__(self) -> int:
        value = self._one("int()")
        if not np.isfinite(value):  # Python's own words otherwise ("cannot convert float NaN to integer")
            raise ValueError(say(NOT_WHOLE, value=float(value)))
        return int(value)

    def _one(self, what: str) -> np.ndarray:
        if self.data.size != 1:
            raise ValueError(say(NOT_ONE_NUMBER, what=what, shape=self.shape))
        return self.data.reshape(())

    def __bool__(self) -> bool:
        # A value exists now, so Python control flow can use it: this is the heart of define-by-run.
        if self.data.size != 1:
            raise ValueError(say(AMBIGUOUS, shape=self.shape))
        return bool(self.data)

    def __repr__(self) -> str:
        extra = f", op={self._op}" if self._parents else ""
        grad = ", requires_grad=True" if self.requires_grad else ""
        return f"Tensor({np.array2string(self.data, precision=4)}{grad}{extra})"

    # ------------------------------------------------------------------ recording
    @staticmethod
    def _make(value: np.ndarray, parents: tuple[Tensor, ...], op: str,
              backward: Callable[[np.ndarray], Sequence[np.ndarray | None]] | None) -> Tensor:
        """The output of an op: a new tensor that remembers its parents and local derivative (if recording)."""
        out = Tensor.__new__(Tensor)
        out.data = value if value.__class__ is np.ndarray and value.dtype is _F64 else \
            np.asarray(value, dtype=np.float64)
        out.grad = None
        out.name = None
        out.kind = "op"
        out.line = None
        out._id = next(_counter)
        record = False
        if _grad_enabled and backward is not None:
            for p in parents:  # a loop, not any(<generator>): this runs for every op
                if p.requires_grad:
                    record = True
                    break
        out.requires_grad = record
        out._parents = parents if record else ()
        out._op = op if record else "leaf"
        out._backward = backward if record else None
        if not record:
            out.kind = "constant"
        if _on_create is not None:
            _on_create(out)
        return out

    # ------------------------------------------------------------------ ops (forward and derivative: course_lib.ops)
    # + - * / ** @, unary -, and the comparisons > < >= <= (0/1 tensors without gradient, usable in a Python `if`,
    # as in PyTorch): methods made from the op table's spellings (ops.install_operators, at the end of this module)
    __hash__ = object.__hash__  # tensors are used as dict keys (e.g. feeds) by identity

    def __getattr__(self, name: str) -> Callable[..., Tensor]:
        # t.sin(), t.sum() ...: every function of the op table is also a method, as in PyTorch
        op = _ops.OPS.get(name)
        if op is None or op.role != "function":
            raise AttributeError(f"'Tensor' object has no attribute {name!r}")
        return lambda *args, **attrs: apply(name, self, *args, **attrs)

    # ------------------------------------------------------------------ backward
    def backward(self, grad: Any = None, on_grad: Callable[[Tensor, np.ndarray], None] | None = None) -> None:
        """Reverse-mode autodiff from this tensor; leaves' ``.grad`` accumulate (``+=``), as in PyTorch.

        The order is the graph's one topological order (:func:`course_lib.graph.topological`), outputs first:
        reverse creation order, as the static engine's ``gradients`` goes; iterative, so a 100,000-op chain is
        fine. ``on_grad(tensor, gradient)`` is called once per tensor, in the order gradients become final.
        """
        if not self.requires_grad:
            raise RuntimeError(say(NOTHING_RECORDED))
        if grad is None:
            if self.data.size != 1:
                raise RuntimeError(say(NOT_A_NUMBER, shape=self.shape))
            grad = np.ones_like(self.data)
        grad = _ops.as_array(grad, "backward(grad=...)")
        if grad.shape != self.shape:  # broadcasting it would give a wrong gradient without a word
            raise RuntimeError(say(GRAD_SHAPE, grad_shape=grad.shape, shape=self.shape))
        grads: dict[int, np.ndarray] = {self._id: grad}
        with np.errstate(all="ignore"):  # a derivative may be inf or nan where the function is (1/x at 0)
            self._backpropagate(grads, on_grad)

    def _backpropagate(self, grads: dict[int, np.ndarray],
                       on_grad: Callable[[Tensor, np.ndarray], None] | None) -> None:
        """Each tensor, outputs first, hands its gradient to its parents through its op's local derivative."""
        for t in reversed(ir.topological([self], _PARENTS, _ID)):
            g = grads.pop(t._id, None)
            if g is None:
                continue
            if on_grad is not None:
                on_grad(t, g)
            if not t._parents:
                t.grad = g.copy() if t.grad is None else t.grad + g
                continue
            for parent, pg in zip(t._parents, t._backward(g), strict=True):  # type: ignore[misc]
                if pg is not None and parent.requires_grad:
                    grads[parent._id] = grads[parent._id] + pg if parent._id in grads else pg

    def zero_grad(self) -> None:
        self.grad = None

    def detach(self) -> Tensor:
        return Tensor(self.data.copy())

    # ------------------------------------------------------------------ the record as a graph
    def graph(self) -> ir.Graph:
        """The recorded history of this tensor as the course's IR (ids in creation order, leaves first).

        >>> x = Tensor(2.0, requires_grad=True, name="x")
        >>> [n.op for n in (x * x).graph().nodes]
        ['input', 'mul']
        """
        tensors = self.history()
        g = ir.Graph("define-by-run")
        made: dict[int, ir.Node] = {}
        for t in tensors:
            attrs = {"shape": t.shape}
            if t.grad is not None:
                attrs["grad"] = t.grad
            if t.line is not None:
                attrs["line"] = t.line
            if t._parents:
                node = g.add(t._op, [made[p._id] for p in t._parents], name=t.name or t._op, attrs=attrs,
                             value=t.data)
            else:
                default = {"input": "x", "variable": "w"}.get(t.kind, "const")
                op = {"input": "input", "variable": "parameter"}.get(t.kind, "constant")
                node = g.add(op, name=t.name or default, kind=t.kind, attrs=attrs, value=t.data)
            made[t._id] = node
        g.mark_output(made[self._id])
        return g

    def history(self) -> list[Tensor]:
        """Every tensor this one was computed from, itself included, in creation order (constants too, which
        ``backward`` skips): the nodes of :meth:`graph`, in the same order."""
        return ir.ancestors([self], _PARENTS, _ID)


def Parameter(data: Any, name: str | None = None) -> Tensor:
    """A trainable leaf (``torch.nn.Parameter``): requires grad, drawn as a variable."""
    return Tensor(data, requires_grad=True, name=name, kind="variable")


def constant(value: Any, name: str | None = None) -> Tensor:
    return Tensor(value, name=name, kind="constant")


# ---------------------------------------------------------------------- applying an op of the table
def apply(name: str, *args: Any, **attrs: Any) -> Tensor:
    """Run op ``name`` of :data:`course_lib.ops.OPS` now, and record it with its local derivative.

    The recorded backward closes over the input values and the output, and calls the op's rule with numpy:
    ``rule(ops.NUMPY, g, *inputs, out, **attrs)`` — the same rule the static engine turns into graph nodes.

    >>> apply("mul", Tensor(3.0), 2.0).item()
    6.0
    """
    op = _OPS.get(name)
    if op is None:
        raise ValueError(say(UNKNOWN_OP, name=name, ops=", ".join(_OPS)))
    if attrs or op.attrs or len(args) != op.arity:  # the one argument check of both engines (arity, attributes)
        attrs = _ops.check_call(op, args, attrs)
    # The hot path of every define-by-run op: one and two inputs unrolled (comprehensions cost a frame each).
    if len(args) == 2:
        a, b = args
        inputs = (a if a.__class__ is Tensor else _lift(a, name, 1), b if b.__class__ is Tensor else _lift(b, name, 2))
        values: tuple[np.ndarray, ...] = (inputs[0].data, inputs[1].data)
    elif len(args) == 1:
        inputs = (args[0] if args[0].__class__ is Tensor else _lift(args[0], name, 1),)
        values = (inputs[0].data,)
    else:
        inputs = tuple(_lift(a, name, k) for k, a in enumerate(args, 1))
        values = tuple(t.data for t in inputs)
    if op.check_shapes:  # numpy would accept shapes the course refuses (matmul of 3-d arrays)
        op.infer_shape([v.shape for v in values], attrs)
    forward = op.forward
    try:
        if op.partial:  # x/0, log(-1), 2 ** 1e20: inf and nan are values the student should see, not warnings
            with np.errstate(all="ignore"):
                out = forward(*values, **attrs)
        else:
            out = forward(*values, **attrs) if attrs else forward(*values)
    except ValueError:
        op.infer_shape([v.shape for v in values], attrs)  # raises ShapeError with the op and both shapes
        raise
    grad = op.grad
    backward = None if grad is None or not _grad_enabled else \
        (lambda g: grad(_NUMPY, g, *values, out, **attrs))
    return Tensor._make(out, inputs, name, backward)


def _lift(x: Any, op: str, index: int) -> Tensor:
    """Input ``index`` of op ``op`` as a tensor: numbers and arrays become constants, read as the static engine
    reads them (``ops.as_array``: the same refusal for text, None or 10**400, naming the op and the input)."""
    if isinstance(x, Tensor):
        return x
    if x.__class__ is float:  # the common constant (y * 2.0), kept fast
        return Tensor(x, kind="constant")
    if type(x).__module__.startswith("course_lib.static"):
        raise _ops.mixed_styles(x, into="dynamic")
    return Tensor(_ops.as_array(x, _ops.INPUT, name=op, index=index), kind="constant")


def function(name: str) -> Callable[..., Tensor]:
    """The function ``dy.<name>`` of op ``name`` of the table: runs now and records its local derivative."""
    f = functools.partial(apply, name)  # no Python frame of its own: this is every op's hot path
    f.__name__ = name  # type: ignore[attr-defined]
    f.__doc__ = f"{name}: runs now and records its local derivative (see course_lib.ops.OPS[{name!r}])."
    return f


_ops.install_operators(Tensor, apply)  # t + 1, t ** 2, t > 0 ...
_ops.install_functions(globals(), function)  # dy.sin, dy.matmul ... (and any op registered later)


def cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any]) -> Any:
    """Run only the branch the value chooses: in define-by-run, a data-dependent branch is plain Python.

    It exists so one program written with ``ops.cond`` runs with both engines; the dynamic graph then contains
    only the branch taken, while the static one (``static.cond``) contains both. The predicate is one number, as
    in ``tf.cond`` and ``st.cond`` (a vector is refused, with the same message).
    """
    _ops.cond_branches(true_fn, false_fn)
    value = pred.data if isinstance(pred, Tensor) else _lift(pred, "cond", 1).data
    _ops.cond_predicate(value.shape)
    return true_fn() if value != 0 else false_fn()
