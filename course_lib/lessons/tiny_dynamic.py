"""A complete define-by-run engine in the style of micrograd (notebook 03, before ``course_lib.dynamic``).

Every op computes its number at once, and records what :meth:`Value.backward` will need: its parents and a
``_backward`` closure written next to the forward line, which adds ``out.grad · ∂out/∂parent`` to each
parent's ``grad``. :meth:`Value.backward` sets ``∂y/∂y = 1`` and runs the closures in reverse topological
order, so every node has received the gradient of all its consumers before it passes it on (the chain rule,
``∂y/∂v = Σ_c ∂y/∂c · ∂c/∂v``). The ``+=`` matters: a value used twice (``x * x``) gets both contributions.

The local rules: ``d(a+b) = (1, 1)``, ``d(a·b) = (b, a)``, ``d sin a = cos a``, ``d exp a = exp a``.
A different rule for ``·`` is plugged in with ``mul(a, b, backward=rule)``, where ``rule(a, b, out)`` adds
``out.grad``'s share to ``a.grad`` and ``b.grad`` (:func:`mul_backward` is the engine's own): exercise 03.6.

>>> x = Value(2.0)
>>> y = (x * x).sin() + 1.0     # a number already: sin(4) + 1
>>> y
Value(0.2431975046920718)
>>> y.backward()
>>> x.grad                      # 2x·cos(x²) = 4·cos 4
-2.6145744834544478
>>> [v.op for v in order(y)]
['', 'mul', 'sin', '', 'add']
"""

from __future__ import annotations

import math
from collections.abc import Callable


class Value:
    """A number that remembers how it was made: its parents, and how to send a gradient back to them."""

    def __init__(self, data: float, parents: tuple[Value, ...] = (), op: str = "") -> None:
        self.data, self.grad, self.parents, self.op = float(data), 0.0, parents, op
        self._backward: Callable[[], None] = lambda: None  # a leaf passes nothing back

    def __add__(self, other: Value | float) -> Value:
        a, b = self, lift(other)
        out = Value(a.data + b.data, (a, b), "add")

        def _backward() -> None:
            a.grad += out.grad
            b.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other: Value | float) -> Value:
        return mul(self, other)

    __radd__, __rmul__ = __add__, __mul__  # + and * commute, so 2 * x may be computed as x * 2

    def sin(self) -> Value:
        return unary(self, "sin", math.sin(self.data), math.cos(self.data))

    def exp(self) -> Value:
        return unary(self, "exp", math.exp(self.data), math.exp(self.data))  # exp is its own derivative

    def backward(self) -> None:
        """Fill ``grad`` of every value this one was computed from with ``∂self/∂value``."""
        self.grad = 1.0
        for v in reversed(order(self)):  # each value after all its consumers: its grad is complete
            v._backward()

    def __repr__(self) -> str:
        return f"Value({self.data!r})"


def lift(v: Value | float) -> Value:
    return v if isinstance(v, Value) else Value(v)


def unary(a: Value, op: str, value: float, slope: float) -> Value:
    out = Value(value, (a,), op)  # a one-input op: its value, and its local derivative computed now

    def _backward() -> None:
        a.grad += out.grad * slope
    out._backward = _backward
    return out


def mul_backward(a: Value, b: Value, out: Value) -> None:
    """The rule of ``out = a·b``: ``∂out/∂a = b``, ``∂out/∂b = a``, times ``out.grad``, added (``+=``)."""
    a.grad += out.grad * b.data
    b.grad += out.grad * a.data


def mul(a: Value | float, b: Value | float, backward: Callable[[Value, Value, Value], None] = mul_backward) -> Value:
    """``a·b``; ``backward(a, b, out)`` is the rule run by :meth:`Value.backward` (03.6 plugs in its own)."""
    a, b = lift(a), lift(b)
    out = Value(a.data * b.data, (a, b), "mul")
    out._backward = lambda: backward(a, b, out)
    return out


def order(y: Value) -> list[Value]:
    """Every value ``y`` was computed from, each after its parents (iterative: no recursion limit)."""
    done: dict[Value, None] = {}  # insertion-ordered: the same computation gives the same order
    stack = [(y, False)]
    while stack:
        v, parents_done = stack.pop()
        if parents_done:
            done[v] = None
        elif v not in done:
            stack.append((v, True))
            stack.extend((p, False) for p in reversed(v.parents))  # reversed: the first parent comes out first
    return list(done)
