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
import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from . import graph as ir

__all__ = [
    "Parameter",
    "ShapeError",
    "Tensor",
    "cond",
    "constant",
    "cos",
    "exp",
    "is_grad_enabled",
    "log",
    "matmul",
    "mean",
    "no_grad",
    "observe",
    "relu",
    "sigmoid",
    "sin",
    "sum",
    "tanh",
]

_counter = itertools.count()  # creation order: the node ids of the recorded graph
_grad_enabled = True
#: Called with every new Tensor while a trace is being recorded (course_lib.trace sets it); None otherwise.
_on_create: Callable[[Tensor], None] | None = None


class ShapeError(ValueError):
    """Two operands whose shapes do not fit together (the message names the op and both shapes)."""


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
        self.data: np.ndarray = np.array(data, dtype=np.float64)
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
        return float(self.data)

    def numpy(self) -> np.ndarray:
        return self.data

    def __float__(self) -> float:
        return float(self.data)

    def __bool__(self) -> bool:
        # A value exists now, so Python control flow can use it: this is the heart of define-by-run.
        if self.data.size != 1:
            raise ValueError(f"the truth value of a tensor of shape {self.shape} is ambiguous; use .sum() or a "
                             "comparison on one element")
        return bool(self.data)

    def __repr__(self) -> str:
        extra = f", op={self._op}" if self._parents else ""
        grad = ", requires_grad=True" if self.requires_grad else ""
        return f"Tensor({np.array2string(self.data, precision=4)}{grad}{extra})"

    # ------------------------------------------------------------------ recording
    def _make(self, value: np.ndarray, parents: tuple[Tensor, ...], op: str,
              backward: Callable[[np.ndarray], Sequence[np.ndarray | None]] | None) -> Tensor:
        """The output of an op: a new tensor that remembers its parents and local derivative (if recording)."""
        out = Tensor.__new__(Tensor)
        out.data = value if isinstance(value, np.ndarray) and value.dtype == np.float64 else \
            np.asarray(value, dtype=np.float64)
        out.grad = None
        out.name = None
        out.kind = "op"
        out.line = None
        out._id = next(_counter)
        record = _grad_enabled and any(p.requires_grad for p in parents) and backward is not None
        out.requires_grad = record
        out._parents = parents if record else ()
        out._op = op if record else "leaf"
        out._backward = backward if record else None
        if not record:
            out.kind = "constant"
        if _on_create is not None:
            _on_create(out)
        return out

    # ------------------------------------------------------------------ ops: forward and local derivative
    def __add__(self, other: Any) -> Tensor:
        other = _lift(other)
        a, b = self.data, other.data
        return self._make(_apply("add", np.add, a, b), (self, other), "add",
                          lambda g: (_unbroadcast(g, a.shape), _unbroadcast(g, b.shape)))  # d(a+b) = da + db

    def __sub__(self, other: Any) -> Tensor:
        other = _lift(other)
        a, b = self.data, other.data
        return self._make(_apply("sub", np.subtract, a, b), (self, other), "sub",
                          lambda g: (_unbroadcast(g, a.shape), _unbroadcast(-g, b.shape)))

    def __mul__(self, other: Any) -> Tensor:
        other = _lift(other)
        a, b = self.data, other.data
        return self._make(_apply("mul", np.multiply, a, b), (self, other), "mul",
                          lambda g: (_unbroadcast(g * b, a.shape), _unbroadcast(g * a, b.shape)))  # d(ab)=b da+a db

    def __truediv__(self, other: Any) -> Tensor:
        other = _lift(other)
        a, b = self.data, other.data
        with np.errstate(divide="ignore", invalid="ignore"):
            out = _apply("div", np.divide, a, b)
        return self._make(out, (self, other), "div",
                          lambda g: (_unbroadcast(g / b, a.shape), _unbroadcast(-g * a / (b * b), b.shape)))

    def __pow__(self, p: Any) -> Tensor:
        if isinstance(p, Tensor) or not np.isscalar(p):
            raise TypeError("x ** p needs a plain number p (an exponent that is a tensor is not supported: "
                            "write exp(p * log(x)) instead)")
        a, p = self.data, float(p)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.power(a, p)
        return self._make(out, (self,), "pow", lambda g: (g * p * np.power(a, p - 1),))  # d(x^p) = p x^(p-1) dx

    def __neg__(self) -> Tensor:
        return self._make(-self.data, (self,), "neg", lambda g: (-g,))

    def __matmul__(self, other: Any) -> Tensor:
        other = _lift(other)
        a, b = self.data, other.data
        if a.ndim not in (1, 2) or b.ndim not in (1, 2):
            raise ShapeError(f"matmul: needs vectors or matrices, got shapes {a.shape} and {b.shape}")
        out = _apply("matmul", np.matmul, a, b)
        return self._make(out, (self, other), "matmul", lambda g: _matmul_vjp(g, a, b))

    def __radd__(self, other: Any) -> Tensor:
        return _lift(other) + self

    def __rsub__(self, other: Any) -> Tensor:
        return _lift(other) - self

    def __rmul__(self, other: Any) -> Tensor:
        return _lift(other) * self

    def __rtruediv__(self, other: Any) -> Tensor:
        return _lift(other) / self

    def __rmatmul__(self, other: Any) -> Tensor:
        return _lift(other) @ self

    def __rpow__(self, other: Any) -> Tensor:
        raise TypeError("c ** x with a tensor exponent is not supported: write exp(x * log(c)) instead")

    # comparisons give 0/1 tensors without gradient, usable in a Python `if` (as in PyTorch)
    def __gt__(self, other: Any) -> Tensor:
        return self._make(np.greater(self.data, _lift(other).data).astype(np.float64), (self, _lift(other)),
                          "greater", None)

    def __lt__(self, other: Any) -> Tensor:
        return self._make(np.less(self.data, _lift(other).data).astype(np.float64), (self, _lift(other)),
                          "less", None)

    def __ge__(self, other: Any) -> Tensor:
        return self._make(np.greater_equal(self.data, _lift(other).data).astype(np.float64), (self, _lift(other)),
                          "greater_equal", None)

    def __le__(self, other: Any) -> Tensor:
        return self._make(np.less_equal(self.data, _lift(other).data).astype(np.float64), (self, _lift(other)),
                          "less_equal", None)

    __hash__ = object.__hash__  # tensors are used as dict keys (e.g. feeds) by identity

    def exp(self) -> Tensor:
        out = np.exp(self.data)
        return self._make(out, (self,), "exp", lambda g: (g * out,))  # d(e^x) = e^x dx

    def log(self) -> Tensor:
        a = self.data
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.log(a)
        return self._make(out, (self,), "log", lambda g: (g / a,))  # d(log x) = dx / x

    def sin(self) -> Tensor:
        a = self.data
        return self._make(np.sin(a), (self,), "sin", lambda g: (g * np.cos(a),))

    def cos(self) -> Tensor:
        a = self.data
        return self._make(np.cos(a), (self,), "cos", lambda g: (-g * np.sin(a),))

    def tanh(self) -> Tensor:
        out = np.tanh(self.data)
        return self._make(out, (self,), "tanh", lambda g: (g * (1.0 - out * out),))  # d tanh = (1 - tanh²) dx

    def relu(self) -> Tensor:
        a = self.data
        return self._make(np.maximum(a, 0.0), (self,), "relu", lambda g: (g * (a > 0),))

    def sigmoid(self) -> Tensor:
        out = 1.0 / (1.0 + np.exp(-self.data))
        return self._make(out, (self,), "sigmoid", lambda g: (g * out * (1.0 - out),))  # dσ = σ(1-σ) dx

    def sum(self) -> Tensor:
        shape = self.data.shape
        return self._make(np.sum(self.data), (self,), "sum", lambda g: (np.broadcast_to(g, shape).copy(),))

    def mean(self) -> Tensor:
        shape, n = self.data.shape, max(self.data.size, 1)
        return self._make(np.mean(self.data), (self,), "mean", lambda g: (np.broadcast_to(g / n, shape).copy(),))

    # ------------------------------------------------------------------ backward
    def backward(self, grad: Any = None, on_grad: Callable[[Tensor, np.ndarray], None] | None = None) -> None:
        """Reverse-mode autodiff from this tensor; leaves' ``.grad`` accumulate (``+=``), as in PyTorch.

        Iterative: the topological order comes from an explicit stack, so a 10,000-op chain is fine.
        ``on_grad(tensor, gradient)`` is called once per tensor, in the order gradients become final.
        """
        if not self.requires_grad:
            raise RuntimeError("backward() on a tensor that does not require grad: no input was created with "
                               "requires_grad=True (or it was computed under no_grad()), so nothing was recorded")
        if grad is None:
            if self.data.size != 1:
                raise RuntimeError(f"backward() without a gradient needs a single number, but the output has shape "
                                   f"{self.shape}; call .sum() or .mean() first, or pass grad= of that shape")
            grad = np.ones_like(self.data)
        grads: dict[int, np.ndarray] = {self._id: np.asarray(grad, dtype=np.float64)}
        for t in reversed(self._topological()):
            g = grads.pop(t._id, None)
            if g is None:
                continue
            if on_grad is not None:
                on_grad(t, g)
            if not t._parents:
                t.grad = g.copy() if t.grad is None else t.grad + g
                continue
            for parent, pg in zip(t._parents, t._backward(g)):  # type: ignore[misc]
                if pg is not None and parent.requires_grad:
                    grads[parent._id] = grads[parent._id] + pg if parent._id in grads else pg

    def _topological(self) -> list[Tensor]:
        """Every recorded tensor this one depends on, each after its parents (iterative post-order DFS)."""
        order: list[Tensor] = []
        seen: set[int] = set()  # ids only; the order comes from the list, so output is deterministic
        stack: list[tuple[Tensor, bool]] = [(self, False)]
        while stack:
            t, expanded = stack.pop()
            if expanded:
                order.append(t)
                continue
            if t._id in seen:
                continue
            seen.add(t._id)
            stack.append((t, True))
            stack.extend((p, False) for p in reversed(t._parents) if p._id not in seen)
        return order

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
        seen: dict[int, Tensor] = {}
        stack = [self]
        while stack:
            t = stack.pop()
            if t._id in seen:
                continue
            seen[t._id] = t
            stack.extend(t._parents)
        return sorted(seen.values(), key=lambda t: t._id)


def Parameter(data: Any, name: str | None = None) -> Tensor:
    """A trainable leaf (``torch.nn.Parameter``): requires grad, drawn as a variable."""
    return Tensor(data, requires_grad=True, name=name, kind="variable")


def constant(value: Any, name: str | None = None) -> Tensor:
    return Tensor(value, name=name, kind="constant")


# ---------------------------------------------------------------------- helpers
def _lift(x: Any) -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (int, float, np.ndarray, np.number, list, tuple)):
        return Tensor(x, kind="constant")
    raise TypeError(f"cannot use a {type(x).__name__} in a tensor operation; use a number, an array or a Tensor")


def _apply(op: str, fn: Callable[[np.ndarray, np.ndarray], np.ndarray], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    try:
        return fn(a, b)
    except ValueError:
        if op == "matmul":
            raise ShapeError(f"matmul: shapes {a.shape} and {b.shape} do not fit (inner sizes must be equal)") \
                from None
        raise ShapeError(f"{op}: shapes {a.shape} and {b.shape} cannot be broadcast together; make them equal "
                         "or let one of them be a single number") from None


def _unbroadcast(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum a gradient back to an operand's shape (the adjoint of numpy broadcasting)."""
    if g.shape == shape:
        return g
    g = np.sum(g, axis=tuple(range(g.ndim - len(shape)))) if g.ndim > len(shape) else g
    axes = tuple(i for i, s in enumerate(shape) if s == 1 and g.shape[i] != 1)
    return np.sum(g, axis=axes, keepdims=True).reshape(shape) if axes else g.reshape(shape)


def _matmul_vjp(g: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For ``c = a @ b``: ``da = g bᵀ`` and ``db = aᵀ g``, with vectors treated as rows/columns as numpy does."""
    if a.ndim == 1 and b.ndim == 1:
        return g * b, g * a
    if a.ndim == 1:
        return b @ g, np.outer(a, g)
    if b.ndim == 1:
        return np.outer(g, b), a.T @ g
    return g @ b.T, a.T @ g


def _unary(name: str) -> Callable[[Any], Tensor]:
    def op(x: Any) -> Tensor:
        return getattr(_lift(x), name)()

    op.__name__ = name
    op.__doc__ = f"{name}(x), recorded with its local derivative (see ``Tensor.{name}``)."
    return op


exp, log, sin, cos, tanh, relu, sigmoid = (_unary(n) for n in ("exp", "log", "sin", "cos", "tanh", "relu", "sigmoid"))
sum = _unary("sum")
mean = _unary("mean")


def matmul(a: Any, b: Any) -> Tensor:
    return _lift(a) @ b


def cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any]) -> Any:
    """Run only the branch the value chooses: in define-by-run, a data-dependent branch is plain Python.

    It exists so one program written with ``ops.cond`` runs with both engines; the dynamic graph then contains
    only the branch taken, while the static one (``static.cond``) contains both.
    """
    return true_fn() if bool(pred) else false_fn()
