"""A complete define-then-run engine, small enough to read in one sitting (notebook 02, before ``course_lib.static``).

Building a program makes *symbols*: ``x * w`` returns a :class:`Node` (an op and its input nodes), no number.
Only :func:`run` computes, given a value for every placeholder: it walks :func:`order` (each node after its
inputs) and applies each node's op from :data:`FORWARD` to its inputs' values.

:func:`gradients` is the define-then-run point: the derivative is *more graph*. Reverse mode walks the nodes from
the output back; a node ``v`` read by consumers ``c`` gets ``∂y/∂v = Σ_c ∂y/∂c · ∂c/∂v`` (a node used twice
sums both), where each local derivative ``∂c/∂v`` is written with graph ops (:data:`RULES`): ``d(a·b) = (b, a)``,
``d(a+b) = (1, 1)``, ``d sin a = cos a``, ``d exp a = exp a`` (the output node itself). The result is a node that
:func:`run` evaluates like any other.

What a node holds (what a hand-written executor reads): ``node.op`` (``"placeholder"``, ``"const"`` or a key of
:data:`FORWARD`), ``node.inputs`` (a tuple of nodes), ``node.name`` and, for a constant, ``node.value``.

>>> x = placeholder("x")
>>> y = sin(x * x) + 1.0
>>> y
Node('add', 'add')
>>> run(y, {x: 2.0})            # sin(4) + 1
0.2431975046920718
>>> (dy,) = gradients(y, [x])   # new nodes, no number yet
>>> [n.op for n in order(dy)]
['const', 'placeholder', 'mul', 'cos', 'mul', 'mul', 'mul', 'add']
>>> run(dy, {x: 2.0})           # 2x·cos(x²) = 4·cos 4
-2.6145744834544478
>>> run(y, {})
Traceback (most recent call last):
KeyError: "placeholder 'x' needs a value in feed"
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: op -> its value from its inputs' values (floats).
FORWARD = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "sin": math.sin, "cos": math.cos, "exp": math.exp}


class Node:
    """A symbol: an op applied to input nodes (numbers become constants). It holds no value, except a constant."""

    def __init__(self, op: str, inputs: tuple = (), name: str = "", value: float = math.nan) -> None:
        self.op, self.name, self.value = op, name or op, value
        self.inputs = tuple(i if isinstance(i, Node) else constant(i) for i in inputs)

    def __add__(self, other: Node | float) -> Node:
        return Node("add", (self, other))

    def __mul__(self, other: Node | float) -> Node:
        return Node("mul", (self, other))

    __radd__, __rmul__ = __add__, __mul__  # + and * commute, so 2 * x may be built as x * 2

    def __repr__(self) -> str:
        return f"Node({self.op!r}, {self.name!r})"


def placeholder(name: str) -> Node:
    return Node("placeholder", (), name)


def constant(value: float) -> Node:
    return Node("const", (), repr(value), float(value))


def sin(a: Node | float) -> Node:
    return Node("sin", (a,))


def exp(a: Node | float) -> Node:
    return Node("exp", (a,))


def order(fetch: Node) -> list[Node]:
    """Every node ``fetch`` needs, each after its inputs (iterative depth-first: no recursion limit)."""
    done: dict[Node, None] = {}  # insertion-ordered: the same graph gives the same order on every run
    stack = [(fetch, False)]
    while stack:
        node, inputs_done = stack.pop()
        if inputs_done:
            done[node] = None
        elif node not in done:
            stack.append((node, True))
            stack.extend((i, False) for i in reversed(node.inputs))  # reversed: the first input comes out first
    return list(done)


def run(fetch: Node, feed: dict[Node, float]) -> float:
    """The value of ``fetch``, with ``feed`` giving a number to every placeholder it needs."""
    values: dict[Node, float] = {}
    for node in order(fetch):
        if node.op == "placeholder":
            if node not in feed:
                raise KeyError(f"placeholder {node.name!r} needs a value in feed")
            values[node] = float(feed[node])
        elif node.op == "const":
            values[node] = node.value
        else:
            values[node] = FORWARD[node.op](*(values[i] for i in node.inputs))
    return values[fetch]


#: op -> (g = ∂y/∂out, out, *inputs) -> ∂y/∂input for each input, all built as nodes.
RULES = {"add": lambda g, out, a, b: (g, g), "mul": lambda g, out, a, b: (g * b, g * a),
         "sin": lambda g, out, a: (g * Node("cos", (a,)),), "cos": lambda g, out, a: (g * sin(a) * -1.0,),
         "exp": lambda g, out, a: (g * out,)}


def gradients(y: Node, xs: Sequence[Node]) -> list[Node]:
    """``∂y/∂x`` for each ``x``, built as new nodes (nothing is computed: :func:`run` evaluates them)."""
    grads: dict[Node, Node] = {y: constant(1.0)}
    for node in reversed(order(y)):  # every consumer of a node comes before it, so its gradient is complete
        if node.inputs:  # placeholders and constants pass nothing further back
            for inp, g in zip(node.inputs, RULES[node.op](grads[node], node, *node.inputs), strict=True):
                grads[inp] = grads[inp] + g if inp in grads else g  # a node read twice sums both paths
    return [grads.get(x, constant(0.0)) for x in xs]
