"""Define-then-run: the TensorFlow 1 style, in one file.

Building and running are two separate moments.

1. **Build.** ``placeholder``, ``Variable``, ``constant`` and every op only *add nodes* to a :class:`Graph`; a
   :class:`Tensor` here is a symbol with no value (TensorFlow's ``tf.Tensor`` in graph mode).
2. **Compile.** ``Session.run`` turns (graph, fetches, fed placeholders) into a :class:`Plan`: validate, prune to
   what the fetches need, fold constants, merge common subexpressions, and emit straight-line steps (their Python
   source can be read with :meth:`Plan.source`). Plans are cached; a change to the graph invalidates them — the
   "compilation step" of the Q&A.
3. **Run.** Values flow through the plan; only placeholders (``feed_dict``) let data in.

Autodiff is a graph transformation here: :func:`gradients` adds the backward computation as ordinary nodes, so
the derivative is itself a graph you can draw, compile and run.

>>> g = Graph()
>>> with g.as_default():
...     x = placeholder("x")
...     w = Variable(2.0, name="w")
...     y = sin(x * w + constant(1.0))
>>> float(Session(g).run(y, feed_dict={x: 3.0})) == float(np.sin(7.0))
True
"""

from __future__ import annotations

import contextlib
import itertools
import math
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import graph as ir

__all__ = [
    "FetchError",
    "Graph",
    "GraphFinalizedError",
    "MissingFeedError",
    "Plan",
    "Session",
    "ShapeError",
    "SymbolicBoolError",
    "Tensor",
    "Variable",
    "cond",
    "constant",
    "cos",
    "exp",
    "get_default_graph",
    "gradients",
    "log",
    "matmul",
    "mean",
    "name_scope",
    "placeholder",
    "relu",
    "reset_default_graph",
    "sigmoid",
    "sin",
    "sum",
    "tanh",
    "to_graph",
]


# ---------------------------------------------------------------------- errors
class GraphFinalizedError(RuntimeError):
    """A node was added to a finalized (immutable) graph."""


class MissingFeedError(ValueError):
    """A placeholder the fetches need was not given a value in ``feed_dict``."""


class ShapeError(ValueError):
    """A value or operand whose shape does not fit (the message names the node and both shapes)."""


class FetchError(ValueError):
    """Something asked of ``Session.run`` that is not a tensor of the session's graph."""


class SymbolicBoolError(TypeError):
    """A symbolic tensor used where Python needs True/False now (``if``, ``while``, ``and``...)."""


# ---------------------------------------------------------------------- the graph
class Graph(ir.Graph):
    """A graph you build first and run later (``tf.Graph``). It *is* the course IR, plus building rules."""

    def __init__(self, name: str = "define-then-run") -> None:
        super().__init__(name)
        self.finalized = False
        self._scopes: list[str] = []
        self._branches: list[tuple[int, int, bool]] = []  # open cond branches: (cond key, pred node id, side)
        self._cond_keys = 0
        self.observers: list[Callable[[ir.Node], None]] = []  # told of every new node (traces use it)

    def add(self, op: str, inputs: Sequence[ir.Node] = (), name: str | None = None, **kw: Any) -> ir.Node:
        if self.finalized:
            raise GraphFinalizedError(
                f"Graph is finalized and cannot be modified: tried to add {name or op!r}. finalize() made the "
                "graph immutable (TensorFlow does this when a MonitoredSession starts); build every node before "
                "finalizing, or build a new Graph")
        scope = "/".join(self._scopes)
        kw.setdefault("scope", scope)
        if scope and name is not None:
            name = f"{scope}/{name}"
        elif scope:
            name = f"{scope}/{op}"
        node = super().add(op, inputs, name=name, **kw)
        if "cond_key" in node.attrs:  # a cond read back from data: new conds must not reuse its key
            self._cond_keys = max(self._cond_keys, node.attrs["cond_key"] + 1)
        if self._branches:
            node.attrs["branch"] = tuple(self._branches)
        for observe in self.observers:
            observe(node)
        return node

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Graph]:
        """Make this the graph new nodes go to (``with g.as_default():``)."""
        _default_stack.append(self)
        try:
            yield self
        finally:
            _default_stack.pop()

    def finalize(self) -> None:
        """Make the graph immutable: any new node raises :class:`GraphFinalizedError`."""
        self.finalized = True

    @contextlib.contextmanager
    def name_scope(self, name: str) -> Iterator[None]:
        self._scopes.append(name)
        try:
            yield
        finally:
            self._scopes.pop()

    def get_tensor(self, name: str) -> Tensor:
        return Tensor(self[name.split(":")[0]], self)


_default_stack: list[Graph] = []
_global_graph = Graph("default")


def get_default_graph() -> Graph:
    return _default_stack[-1] if _default_stack else _global_graph


def reset_default_graph() -> None:
    global _global_graph
    _global_graph = Graph("default")


def name_scope(name: str) -> contextlib.AbstractContextManager[None]:
    return get_default_graph().name_scope(name)


# ---------------------------------------------------------------------- symbolic tensors
class Tensor:
    """A symbol for the value a node *will* have when a Session runs it. It has no value now."""

    __slots__ = ("graph", "node")
    __array_priority__ = 1000

    def __init__(self, node: ir.Node, graph: Graph) -> None:
        self.node = node
        self.graph = graph

    name = property(lambda self: self.node.name)
    op = property(lambda self: self.node.op)
    shape = property(lambda self: self.node.attrs.get("shape"))

    def __repr__(self) -> str:
        shape = "unknown" if self.shape is None else self.shape
        return f"<static Tensor '{self.name}' op={self.op} shape={shape} — no value until Session.run>"

    def __bool__(self) -> bool:
        raise SymbolicBoolError(
            f"Python needs True or False *now*, but '{self.name}' is a symbolic tensor: it has no value until a "
            "Session runs the graph. A Python `if`/`while`/`and`/`or` on it cannot be put into the graph. "
            "Put both branches in the graph with st.cond(pred, true_fn, false_fn) instead (TensorFlow: tf.cond; "
            "in TF2, tf.function's AutoGraph rewrites such an `if` into tf.cond for you). "
            "In define-by-run (course_lib.dynamic) the value exists, so a plain `if` just works.")

    def __float__(self) -> float:
        raise SymbolicBoolError(f"'{self.name}' has no value yet: run it with Session(graph).run({self.name!r}, "
                                "feed_dict=...) to get a number")

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise SymbolicBoolError(f"'{self.name}' is symbolic and cannot become a numpy array before Session.run")

    def __iter__(self) -> Iterator[Any]:
        raise SymbolicBoolError(f"cannot iterate over the symbolic tensor '{self.name}': its length is only known "
                                "at run time")

    __hash__ = object.__hash__

    def __add__(self, o: Any) -> Tensor:
        return _op("add", self, o)

    def __radd__(self, o: Any) -> Tensor:
        return _op("add", o, self)

    def __sub__(self, o: Any) -> Tensor:
        return _op("sub", self, o)

    def __rsub__(self, o: Any) -> Tensor:
        return _op("sub", o, self)

    def __mul__(self, o: Any) -> Tensor:
        return _op("mul", self, o)

    def __rmul__(self, o: Any) -> Tensor:
        return _op("mul", o, self)

    def __truediv__(self, o: Any) -> Tensor:
        return _op("div", self, o)

    def __rtruediv__(self, o: Any) -> Tensor:
        return _op("div", o, self)

    def __matmul__(self, o: Any) -> Tensor:
        return _op("matmul", self, o)

    def __rmatmul__(self, o: Any) -> Tensor:
        return _op("matmul", o, self)

    def __neg__(self) -> Tensor:
        return _op("neg", self)

    def __pow__(self, p: Any) -> Tensor:
        if isinstance(p, Tensor) or not np.isscalar(p):
            raise TypeError("x ** p needs a plain number p (an exponent that is a tensor is not supported: "
                            "write exp(p * log(x)) instead)")
        return _op("pow", self, attrs={"p": float(p)})

    def __rpow__(self, o: Any) -> Tensor:
        raise TypeError("c ** x with a tensor exponent is not supported: write exp(x * log(c)) instead")

    def __gt__(self, o: Any) -> Tensor:
        return _op("greater", self, o)

    def __lt__(self, o: Any) -> Tensor:
        return _op("less", self, o)

    def __ge__(self, o: Any) -> Tensor:
        return _op("greater_equal", self, o)

    def __le__(self, o: Any) -> Tensor:
        return _op("less_equal", self, o)


# ---------------------------------------------------------------------- ops: forward, shape, gradient
@dataclass(frozen=True)
class OpDef:
    """One op of the static engine: its numpy forward and (in ``_GRADS``) its gradient as more graph."""

    forward: Callable[..., np.ndarray]
    arity: int
    elementwise: bool = True
    commutative: bool = False


def _pow(a: np.ndarray, *, p: float) -> np.ndarray:
    return np.power(a, p)


def _sum_to(g: np.ndarray, like: np.ndarray) -> np.ndarray:
    from .dynamic import _unbroadcast

    return _unbroadcast(np.asarray(g), np.shape(like))


def _expand_like(g: np.ndarray, like: np.ndarray, *, divide: bool = False) -> np.ndarray:
    like = np.asarray(like)
    out = np.broadcast_to(g, like.shape).astype(np.float64)
    return out / max(like.size, 1) if divide else out


def _matmul_grad(g: np.ndarray, a: np.ndarray, b: np.ndarray, *, wrt: int) -> np.ndarray:
    from .dynamic import _matmul_vjp

    return _matmul_vjp(g, a, b)[wrt]


def _f64(fn: Callable[..., Any]) -> Callable[..., np.ndarray]:
    return lambda *a, **k: np.asarray(fn(*a, **k), dtype=np.float64)


OPS: dict[str, OpDef] = {
    "add": OpDef(np.add, 2, commutative=True),
    "sub": OpDef(np.subtract, 2),
    "mul": OpDef(np.multiply, 2, commutative=True),
    "div": OpDef(np.divide, 2),
    "neg": OpDef(np.negative, 1),
    "pow": OpDef(_pow, 1),
    "matmul": OpDef(np.matmul, 2, elementwise=False),
    "exp": OpDef(np.exp, 1),
    "log": OpDef(np.log, 1),
    "sin": OpDef(np.sin, 1),
    "cos": OpDef(np.cos, 1),
    "tanh": OpDef(np.tanh, 1),
    "relu": OpDef(lambda a: np.maximum(a, 0.0), 1),
    "sigmoid": OpDef(lambda a: 1.0 / (1.0 + np.exp(-a)), 1),
    "sum": OpDef(_f64(np.sum), 1, elementwise=False),
    "mean": OpDef(_f64(np.mean), 1, elementwise=False),
    "greater": OpDef(_f64(np.greater), 2),
    "less": OpDef(_f64(np.less), 2),
    "greater_equal": OpDef(_f64(np.greater_equal), 2),
    "less_equal": OpDef(_f64(np.less_equal), 2),
    # helpers that gradients() adds
    "sum_to": OpDef(_sum_to, 2, elementwise=False),
    "expand_like": OpDef(_expand_like, 2, elementwise=False),
    "matmul_grad": OpDef(_matmul_grad, 3, elementwise=False),
    "ones_like": OpDef(lambda a: np.ones_like(a, dtype=np.float64), 1),
    "zeros_like": OpDef(lambda a: np.zeros_like(a, dtype=np.float64), 1),
    "select": OpDef(lambda p, a, b: np.where(p != 0, a, b).astype(np.float64), 3),
}
_NO_GRAD = {"greater", "less", "greater_equal", "less_equal", "ones_like", "zeros_like"}

# When every value of a plan is known (by shape inference) to be a single number, the compiler specializes the
# plan to Python floats and the math module: ~10x less overhead per op than numpy on 0-d arrays. A kernel that
# raises (log of a negative, overflow, 0/0) falls back to its numpy twin, so inf and nan come out as in numpy.
SCALAR_OPS: dict[str, Callable[..., float]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv, "neg": operator.neg,
    "pow": lambda a, *, p: math.pow(a, p), "exp": math.exp, "log": math.log, "sin": math.sin, "cos": math.cos,
    "tanh": math.tanh, "relu": lambda a: a if a > 0.0 or math.isnan(a) else 0.0,
    "sigmoid": lambda a: 1.0 / (1.0 + math.exp(-a)), "sum": float, "mean": float,
    "greater": lambda a, b: float(a > b), "less": lambda a, b: float(a < b),
    "greater_equal": lambda a, b: float(a >= b), "less_equal": lambda a, b: float(a <= b),
    "sum_to": lambda g, like: g, "expand_like": lambda g, like, *, divide=False: g,
    "ones_like": lambda a: 1.0, "zeros_like": lambda a: 0.0, "select": lambda p, a, b: a if p != 0.0 else b,
}


def _tensor(x: Any, graph: Graph) -> Tensor:
    if isinstance(x, Tensor):
        if x.graph is not graph:
            raise ValueError(f"tensor '{x.name}' belongs to another graph; build all tensors of a computation "
                             "inside the same `with graph.as_default():` block")
        return x
    return constant(x, graph=graph)


def _infer_shape(op: str, shapes: list[Any], attrs: dict[str, Any]) -> Any:
    """Static shape inference, as TensorFlow does at build time: None means unknown."""
    if op in ("sum", "mean"):
        return ()
    if op in ("sum_to", "expand_like", "ones_like", "zeros_like"):
        return shapes[-1] if op in ("sum_to", "expand_like") else shapes[0]
    if op == "matmul_grad":
        return shapes[1 + attrs["wrt"]]
    if any(s is None for s in shapes):
        return None
    if op == "matmul":
        a, b = shapes
        if len(a) not in (1, 2) or len(b) not in (1, 2):
            raise ShapeError(f"matmul needs vectors or matrices, got shapes {a} and {b}")
        if a[-1] != b[0]:
            raise ShapeError(f"matmul: shapes {a} and {b} do not fit: inner sizes {a[-1]} and {b[0]} must be equal")
        return tuple(a[:-1]) + tuple(b[1:])
    out: list[int | None] = []
    for dims in itertools.zip_longest(*(reversed(s) for s in shapes), fillvalue=1):
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ShapeError(f"{op}: shapes {' and '.join(str(s) for s in shapes)} cannot be broadcast together; "
                             "make them equal or let one be a single number")
        out.append(known.pop() if known else (None if None in dims else 1))
    return tuple(reversed(out))


def _op(op: str, *args: Any, attrs: dict[str, Any] | None = None, name: str | None = None,
        gradient: bool = False) -> Tensor:
    graph = next((a.graph for a in args if isinstance(a, Tensor)), None) or get_default_graph()
    ts = [_tensor(a, graph) for a in args]
    attrs = dict(attrs or {})
    attrs["shape"] = _infer_shape(op, [t.shape for t in ts], attrs)
    node = graph.add(op, [t.node for t in ts], name=name, attrs=attrs, gradient=gradient)
    return Tensor(node, graph)


def placeholder(name: str = "placeholder", shape: tuple[int | None, ...] | None = (),
                graph: Graph | None = None) -> Tensor:
    """A hole in the graph, filled through ``feed_dict`` at run time.

    ``shape=()`` (the default) means a single number; ``(None, 3)`` any number of rows of 3; ``None`` any shape.
    """
    g = graph or get_default_graph()
    shape = None if shape is None else tuple(shape)
    return Tensor(g.add("placeholder", name=name, kind="input", attrs={"shape": shape}), g)


def constant(value: Any, name: str | None = None, graph: Graph | None = None) -> Tensor:
    g = graph or get_default_graph()
    v = _as_value(value, "constant")
    return Tensor(g.add("constant", name=name or "Const", kind="constant", value=v, attrs={"shape": v.shape}), g)


def Variable(initial: Any, name: str = "Variable", graph: Graph | None = None) -> Tensor:
    """State that lives across runs (a weight). Its value is read at run time, so it is never constant-folded."""
    g = graph or get_default_graph()
    v = _as_value(initial, "Variable")
    return Tensor(g.add("variable", name=name, kind="variable", value=v, attrs={"shape": v.shape}), g)


def _unary(op: str) -> Callable[[Any], Tensor]:
    def f(x: Any, name: str | None = None) -> Tensor:
        return _op(op, x, name=name)

    f.__name__ = op
    f.__doc__ = f"Add a ``{op}`` node (no value until the graph runs)."
    return f


exp, log, sin, cos, tanh, relu, sigmoid = (_unary(n) for n in ("exp", "log", "sin", "cos", "tanh", "relu", "sigmoid"))
sum = _unary("sum")
mean = _unary("mean")


def matmul(a: Any, b: Any, name: str | None = None) -> Tensor:
    return _op("matmul", a, b, name=name)


def cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any], name: str = "cond") -> Tensor:
    """Both branches go into the graph; at run time only the one ``pred`` selects is computed (``tf.cond``).

    ``pred`` is a tensor (non-zero means true). The nodes each branch creates are drawn in the scopes
    ``cond/then`` and ``cond/else``.
    """
    g = pred.graph if isinstance(pred, Tensor) else get_default_graph()
    p = _tensor(pred, g)
    outs = []
    base = g.unique_name(name)
    key, g._cond_keys = g._cond_keys, g._cond_keys + 1
    for side, fn in ((True, true_fn), (False, false_fn)):
        g._branches.append((key, p.node.id, side))
        g._scopes.append(f"{base}/{'then' if side else 'else'}")
        try:
            outs.append(_tensor(fn(), g))
        finally:
            g._scopes.pop()
            g._branches.pop()
    shapes = [outs[0].shape, outs[1].shape]
    shape = shapes[0] if shapes[0] == shapes[1] else None
    return Tensor(g.add("cond", [p.node, outs[0].node, outs[1].node], name=base,
                        attrs={"shape": shape, "cond_key": key}), g)


def _as_value(value: Any, what: str) -> np.ndarray:
    try:
        return np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{what} needs a number or an array of numbers, got {value!r}") from None


# ---------------------------------------------------------------------- autodiff as a graph transformation
def _grad_rule(n: ir.Node, g: Tensor, T: Callable[[ir.Node], Tensor]) -> list[Tensor | None]:
    """The gradient of each input of ``n`` as new nodes, given ``g`` = d(output)/d(n). ``T`` wraps a node."""
    op, ins, out = n.op, [T(i) for i in n.inputs], T(n)
    gop = lambda name, *a, **attrs: _op(name, *a, attrs=attrs or None, gradient=True)

    def fit(grad: Tensor, like: Tensor) -> Tensor:  # undo broadcasting when shapes may differ
        return grad if grad.shape is not None and grad.shape == like.shape else gop("sum_to", grad, like)

    if op == "add":
        return [fit(g, ins[0]), fit(g, ins[1])]
    if op == "sub":
        return [fit(g, ins[0]), fit(gop("neg", g), ins[1])]
    if op == "mul":
        return [fit(gop("mul", g, ins[1]), ins[0]), fit(gop("mul", g, ins[0]), ins[1])]
    if op == "div":  # d(a/b) = da/b - (a/b) db/b
        return [fit(gop("div", g, ins[1]), ins[0]), fit(gop("neg", gop("mul", g, gop("div", out, ins[1]))), ins[1])]
    if op == "neg":
        return [gop("neg", g)]
    if op == "pow":
        p = n.attrs["p"]
        return [gop("mul", g, gop("mul", p, gop("pow", ins[0], p=p - 1.0)))]
    if op == "exp":
        return [gop("mul", g, out)]
    if op == "log":
        return [gop("div", g, ins[0])]
    if op == "sin":
        return [gop("mul", g, gop("cos", ins[0]))]
    if op == "cos":
        return [gop("neg", gop("mul", g, gop("sin", ins[0])))]
    if op == "tanh":
        return [gop("mul", g, gop("sub", 1.0, gop("mul", out, out)))]
    if op == "relu":
        return [gop("mul", g, gop("greater", ins[0], 0.0))]
    if op == "sigmoid":
        return [gop("mul", g, gop("mul", out, gop("sub", 1.0, out)))]
    if op in ("sum", "mean"):
        return [gop("expand_like", g, ins[0], divide=(op == "mean"))]
    if op == "matmul":
        return [gop("matmul_grad", g, ins[0], ins[1], wrt=0), gop("matmul_grad", g, ins[0], ins[1], wrt=1)]
    if op == "select":
        zero = gop("zeros_like", g)
        return [None, gop("select", ins[0], g, zero), gop("select", ins[0], zero, g)]
    if op in _NO_GRAD:
        return [None] * len(ins)
    raise NotImplementedError(f"no gradient rule for op {op!r} (gradients of gradients are not supported for it)")


def gradients(ys: Tensor | Sequence[Tensor], xs: Tensor | Sequence[Tensor],
              grad_ys: Tensor | Sequence[Tensor] | None = None) -> list[Tensor | None]:
    """Symbolic reverse mode: add nodes computing ``d(sum of ys)/dx`` for each x; returns them (``tf.gradients``).

    Walk the nodes between ``xs`` and ``ys`` in reverse topological order; each op's rule maps the gradient of
    its output to gradients of its inputs; contributions to a node used twice are added. An ``x`` the ys do not
    depend on gets ``None``, as in TensorFlow. Through a ``cond``, each branch's gradient is itself built inside a
    ``cond`` on the same predicate, so only the taken branch is differentiated at run time.
    """
    ys = [ys] if isinstance(ys, Tensor) else list(ys)
    xs = [xs] if isinstance(xs, Tensor) else list(xs)
    if not ys:
        raise ValueError("gradients() needs at least one output y")
    graph = ys[0].graph
    for t in ys + xs:
        _tensor(t, graph)
    if grad_ys is None:
        seeds = [constant(1.0, "grad_ys", graph=graph) if y.shape == () else
                 _op("ones_like", y, gradient=True, name="grad_ys") for y in ys]
    else:
        seeds = [grad_ys] if isinstance(grad_ys, Tensor) else list(grad_ys)
        seeds = [_tensor(s, graph) for s in seeds]
    with graph.name_scope("gradients"):
        return _backprop(graph, ys, xs, seeds)


def _backprop(graph: Graph, ys: list[Tensor], xs: list[Tensor], seeds: list[Tensor]) -> list[Tensor | None]:
    T = lambda node: Tensor(node, graph)
    x_ids = {x.node.id for x in xs}
    order = graph.topological_order([y.node for y in ys])
    # only nodes that depend on some x carry gradient
    live: set[int] = set()
    for n in order:
        if n.id in x_ids or any(i.id in live for i in n.inputs):
            live.add(n.id)
    pending: dict[int, list[Tensor]] = {}
    for y, s in zip(ys, seeds):
        pending.setdefault(y.node.id, []).append(s)
    total: dict[int, Tensor] = {}
    for n in reversed(order):
        parts = pending.pop(n.id, None)
        if not parts or n.id not in live:
            continue
        g = parts[0]
        for p in parts[1:]:
            g = _op("add", g, p, gradient=True)
        total[n.id] = g
        if n.kind != "op" or n.id in x_ids and not any(i.id in live for i in n.inputs):
            continue
        if n.op == "cond":
            contribs = _cond_grads(graph, n, g, live)
        else:
            contribs = list(zip(n.inputs, _grad_rule(n, g, T)))
        for i, c in contribs:
            if c is not None and i.id in live:
                pending.setdefault(i.id, []).append(c)
    return [total.get(x.node.id) for x in xs]


def _cond_grads(graph: Graph, n: ir.Node, g: Tensor, live: set[int]) -> list[tuple[ir.Node, Tensor]]:
    """For ``c = cond(p, T, E)``: for every outside node a branch reads, ``cond(p, dT/da · g, 0)`` (resp. E)."""
    pred, then_out, else_out = n.inputs
    out: list[tuple[ir.Node, Tensor]] = []
    for side, branch_out in ((True, then_out), (False, else_out)):
        entry = (n.attrs["cond_key"], pred.id, side)
        inside = [m for m in graph.ancestors([branch_out]) if entry in m.attrs.get("branch", ())]
        inside_ids = {m.id for m in inside}
        captured = [m for m in graph.ancestors([branch_out]) if m.id not in inside_ids and m.id in live
                    and (m is branch_out or any(c.id in inside_ids for c in graph.consumers()[m.id]))]
        for a in captured:
            def grad_branch(a: ir.Node = a, branch_out: ir.Node = branch_out) -> Tensor:
                r = _backprop(graph, [Tensor(branch_out, graph)], [Tensor(a, graph)], [g])[0]
                return r if r is not None else _op("zeros_like", Tensor(a, graph), gradient=True)

            def zeros(a: ir.Node = a) -> Tensor:
                return _op("zeros_like", Tensor(a, graph), gradient=True)

            fns = (grad_branch, zeros) if side else (zeros, grad_branch)
            c = cond(Tensor(pred, graph), fns[0], fns[1], name=f"{n.name.split('/')[-1]}_grad")
            c.node.gradient = True
            out.append((a, c))
    return out


# ---------------------------------------------------------------------- compile and run
@dataclass
class Plan:
    """What ``Session.run`` executes for one (fetches, fed placeholders): straight-line steps over registers.

    ``report`` says what compiling did (nodes before/after pruning, constants folded, duplicates merged).
    """

    fetches: tuple[ir.Node, ...]
    fed: tuple[ir.Node, ...]
    steps: list[Callable[[list[Any]], None]]
    fetch_regs: list[int]
    feed_regs: list[int]
    var_regs: list[tuple[int, ir.Node]]
    nregs: int
    lines: list[str]
    report: dict[str, int] = field(default_factory=dict)
    graph_version: int = 0

    def run(self, feed_values: Sequence[np.ndarray]) -> list[np.ndarray]:
        regs: list[Any] = self._consts.copy()
        cast = float if self.scalar else _same
        for r, v in zip(self.feed_regs, feed_values):
            regs[r] = cast(v)
        for r, node in self.var_regs:
            regs[r] = cast(node.value)
        with np.errstate(all="ignore"):  # inf/nan are values the student should see, not warnings
            for step in self.steps:
                step(regs)
        return [regs[r] for r in self.fetch_regs]

    def run_observed(self, feed_values: Sequence[np.ndarray]) -> list[tuple[ir.Node, np.ndarray]]:
        """Like :meth:`run`, but returns (node, value) for every value in the order it appears: fed and
        variable values and folded constants first, then each executed step — only the taken branch of a cond,
        whose own constants appear when the branch is entered."""
        regs: list[Any] = self._consts.copy()
        cast = float if self.scalar else _same
        seen: list[tuple[ir.Node, np.ndarray]] = []
        for r, v, n in zip(self.feed_regs, feed_values, self.fed):
            regs[r] = cast(v)
            seen.append((n, v))
        for r, node in self.var_regs:
            regs[r] = cast(node.value)
            seen.append((node, node.value))  # type: ignore[arg-type]
        waiting = []
        for n, r in self._const_nodes:
            if n.attrs.get("branch"):
                waiting.append((n, r))
            else:
                seen.append((n, regs[r]))
        taken: set[Any] = set()

        def walk(steps: list[Any]) -> None:  # recursion only as deep as conds are nested
            for step in steps:
                if step.node.op == "cond":
                    side = bool(np.any(regs[step.pred] != 0))
                    taken.add((step.node.attrs["cond_key"], step.node.inputs[0].id, side))
                    for n, r in [w for w in waiting if set(w[0].attrs["branch"]) <= taken]:
                        seen.append((n, regs[r]))
                        waiting.remove((n, r))
                    walk(step.branches[side][0])
                    regs[step.out] = regs[step.branches[side][1]]
                else:
                    step(regs)
                seen.append((step.node, regs[step.out]))

        with np.errstate(all="ignore"):
            walk(self.steps)
        return [(n, np.float64(v) if self.scalar else v) for n, v in seen]

    def source(self) -> str:
        """The plan as straight-line Python, the way ``torch.fx`` shows generated code (for reading)."""
        return "\n".join(self.lines)

    _consts: list[Any] = field(default_factory=list)
    _const_nodes: list[tuple[ir.Node, int]] = field(default_factory=list)
    scalar: bool = False  # specialized to Python floats (every value is a single number)


class Session:
    """Runs a graph (``tf.compat.v1.Session``): ``run(fetches, feed_dict)`` computes only what the fetches need.

    ``compile_count`` counts compilations: it grows when new fetches/feeds are asked for or the graph changed.
    """

    def __init__(self, graph: Graph | None = None) -> None:
        self.graph = graph or get_default_graph()
        self.compile_count = 0
        self._plans: dict[tuple[Any, ...], Plan] = {}
        self.last_plan: Plan | None = None

    def run(self, fetches: Any, feed_dict: dict[Any, Any] | None = None) -> Any:
        single = not isinstance(fetches, (list, tuple))
        fetch_nodes = tuple(self._fetch_node(f) for f in ([fetches] if single else fetches))
        feeds = self._feeds(feed_dict or {})
        plan = self.plan(fetch_nodes, tuple(feeds))
        values = plan.run([feeds[n] for n in plan.fed])
        out = [np.asarray(v, dtype=np.float64).copy() if isinstance(v, np.ndarray) else np.float64(v)
               for v in values]
        return out[0] if single else out

    def plan(self, fetches: Sequence[Any], fed: Sequence[Any] = ()) -> Plan:
        """The compiled plan for these fetches and fed tensors (compiling it if the cache has none)."""
        fetch_nodes = tuple(self._fetch_node(f) for f in fetches)
        fed_nodes = tuple(sorted((self._fetch_node(f) for f in fed), key=lambda n: n.id))
        key = (tuple(n.id for n in fetch_nodes), tuple(n.id for n in fed_nodes))
        plan = self._plans.get(key)
        if plan is None or plan.graph_version != self.graph.version:
            plan = compile_plan(self.graph, fetch_nodes, fed_nodes)
            self.compile_count += 1
            self._plans[key] = plan
        self.last_plan = plan
        return plan

    def _fetch_node(self, f: Any) -> ir.Node:
        if isinstance(f, Tensor):
            if f.graph is not self.graph:
                raise FetchError(f"fetch '{f.name}' belongs to another graph than this session's; create the "
                                 "Session with that graph: Session(graph)")
            return f.node
        if isinstance(f, ir.Node) and f.id < len(self.graph.nodes) and self.graph.nodes[f.id] is f:
            return f
        if isinstance(f, str):
            try:
                return self.graph[f.split(":")[0]]
            except ir.GraphError:
                raise FetchError(f"no tensor named {f!r} in this graph; names are e.g. "
                                 f"{', '.join(repr(n.name) for n in self.graph.nodes[:4])}") from None
        raise FetchError(f"cannot fetch a {type(f).__name__} ({f!r}): fetch a tensor of the graph or its name")

    def _feeds(self, feed_dict: dict[Any, Any]) -> dict[ir.Node, np.ndarray]:
        out: dict[ir.Node, np.ndarray] = {}
        for k, v in feed_dict.items():
            node = self._fetch_node(k)
            try:
                value = np.asarray(v, dtype=np.float64)
            except (TypeError, ValueError):
                raise TypeError(f"the value fed to '{node.name}' must be numbers, got {v!r}") from None
            want = node.attrs.get("shape")
            if want is not None and (len(want) != value.ndim or
                                     any(w is not None and w != s for w, s in zip(want, value.shape))):
                hint = "a single number" if want == () else f"shape {want} (None = any size)"
                raise ShapeError(f"'{node.name}' expects {hint} but was fed shape {value.shape}; feed a value of "
                                 f"that shape, or declare placeholder({node.name!r}, shape=None) to accept any")
            out[node] = value
        return out


def compile_plan(graph: Graph, fetches: Sequence[ir.Node], fed: Sequence[ir.Node]) -> Plan:
    """Validate, prune, fold constants, merge duplicates, emit steps. See :class:`Plan`."""
    fed_ids = {n.id for n in fed}
    # 1. prune: walk back from the fetches, stopping at fed tensors (they are cut points)
    needed: dict[int, ir.Node] = {}
    stack = list(fetches)
    cond_of_pred_side = _branch_conds(graph)
    while stack:
        n = stack.pop()
        if n.id in needed:
            continue
        needed[n.id] = n
        if n.id in fed_ids:
            continue
        stack.extend(n.inputs)
        for key in n.attrs.get("branch", ()):  # a branch node is computed by its cond: keep the cond
            stack.extend(cond_of_pred_side.get(key, []))
    fed = [n for n in fed if n.id in needed]  # feeding a tensor the fetches do not need is allowed, and unused
    # 2. validate: a DAG, and every placeholder that is needed is fed
    order = graph.topological_order([needed[k] for k in sorted(needed)])
    order = [n for n in order if n.id in needed]
    for n in order:
        if n.kind == "input" and n.id not in fed_ids:
            users = [f.name for f in fetches if n in graph.ancestors([f])] or [f.name for f in fetches]
            raise MissingFeedError(
                f"You must feed a value for placeholder '{n.name}': fetching {', '.join(repr(u) for u in users)} "
                f"needs it. Pass feed_dict={{{n.name}: value}} to Session.run")
    # 3. fold constants and 4. merge common subexpressions
    const: dict[int, np.ndarray] = {}
    rep: dict[int, ir.Node] = {}
    seen: dict[tuple[Any, ...], ir.Node] = {}
    folded = merged = 0
    for n in order:
        ins = [rep.get(i.id, i) for i in n.inputs]
        if n.id in fed_ids:
            continue
        if n.kind == "constant":
            const[n.id] = n.value  # type: ignore[assignment]
            continue
        if n.kind != "op":
            continue
        if n.op != "cond" and ins and all(i.id in const for i in ins) and n.op in OPS:
            with np.errstate(all="ignore"):
                const[n.id] = _forward(n, [const[i.id] for i in ins])
            folded += 1
            continue
        key_ins = tuple(i.id for i in ins)
        if n.op in OPS and OPS[n.op].commutative:
            key_ins = tuple(sorted(key_ins))
        attrs = tuple(sorted((k, repr(v)) for k, v in n.attrs.items() if k not in ("shape",)))
        key = (n.op, key_ins, attrs)
        if key in seen and n.op != "cond":
            rep[n.id] = seen[key]
            merged += 1
        else:
            seen[key] = n
    # 5. emit: registers for live values, steps in topological order; cond runs one branch block
    kept = [n for n in order if n.id not in rep]
    reg = {n.id: k for k, n in enumerate(kept)}
    for nid, r in rep.items():
        reg[nid] = reg[r.id]
    consts = [None] * len(kept)
    scalar = all(n.attrs.get("shape") == () and (n.kind != "op" or n.op in SCALAR_OPS or n.op == "cond")
                 for n in kept)
    names = {nid: _pyname(rep.get(nid, graph.nodes[nid])) for nid in reg}
    lines = [f"def plan({', '.join(names[n.id] for n in fed)}):"]
    emitted = [n for n in kept if n.kind == "op" and n.id not in const and n.id not in fed_ids]
    used = {i.id for n in emitted for i in n.inputs} | {rep.get(f.id, f).id for f in fetches}
    for n in kept:
        if n.kind == "constant" and n.id in used and n.id not in fed_ids:
            lines.append(f"    {names[n.id]} = {_fmt(const[n.id])}  # constant")
    for n in kept:
        if n.id in const and n.id not in fed_ids:
            consts[reg[n.id]] = const[n.id]
    for n in kept:
        if n.id in const and n.id not in fed_ids and n.kind != "constant":
            lines.append(f"    {names[n.id]} = {_fmt(const[n.id])}  # folded: {n.op} of constants")
    for n in kept:
        if n.kind == "variable":
            lines.append(f"    {names[n.id]} = read_variable({n.name!r})")
    if scalar:
        consts = [None if c is None else float(c) for c in consts]
        lines.insert(1, "    # specialized: shape inference proved every value a single number -> float math")
    steps, body = _emit(graph, emitted, reg, names, (), 1, scalar)
    lines += body
    lines.append(f"    return {', '.join(names[f.id] for f in fetches)}")
    plan = Plan(tuple(fetches), tuple(fed), steps, [reg[f.id] for f in fetches], [reg[n.id] for n in fed],
                [(reg[n.id], n) for n in kept if n.kind == "variable"], len(kept), lines,
                {"graph_nodes": len(graph), "needed": len(order), "folded": folded, "merged": merged,
                 "steps": len(kept) - len(const)}, graph.version)
    plan._consts = consts
    plan.scalar = scalar
    plan.report["scalar"] = int(scalar)
    plan._const_nodes = [(n, reg[n.id]) for n in kept if n.id in const and n.id not in fed_ids]
    return plan


def _branch_conds(graph: Graph) -> dict[tuple[int, int, bool], list[ir.Node]]:
    """Branch entry (cond key, pred id, side) → the cond node that runs that branch."""
    out: dict[tuple[int, int, bool], list[ir.Node]] = {}
    for n in graph.nodes:
        if n.op == "cond":
            for side in (True, False):
                out[(n.attrs["cond_key"], n.inputs[0].id, side)] = [n]
    return out


def _emit(graph: Graph, nodes: list[ir.Node], reg: dict[int, int], names: dict[int, str], context: tuple[Any, ...],
          depth: int, scalar: bool = False) -> tuple[list[Callable[[list[Any]], None]], list[str]]:
    """Steps and source lines for ``nodes`` at branch ``context``; nodes of deeper branches go in cond blocks."""
    steps: list[Callable[[list[Any]], None]] = []
    lines: list[str] = []
    pad = "    " * depth
    here = [n for n in nodes if n.attrs.get("branch", ())[: len(context)] == context]
    mine = [n for n in here if len(n.attrs.get("branch", ())) == len(context)]
    for n in mine:
        if n.op == "cond":
            pred = n.inputs[0]
            blocks = []
            for side, out in ((True, n.inputs[1]), (False, n.inputs[2])):
                sub = context + ((n.attrs["cond_key"], pred.id, side),)
                inner = [m for m in here if m.attrs.get("branch", ())[: len(sub)] == sub]
                s, src = _emit(graph, inner, reg, names, sub, depth + 1, scalar)
                blocks.append((s, reg[out.id], src))
            lines.append(f"{pad}if {names[pred.id]}:  # {n.name}: only the branch taken runs")
            lines += blocks[0][2] + [f"{pad}    {names[n.id]} = {names[n.inputs[1].id]}", f"{pad}else:"]
            lines += blocks[1][2] + [f"{pad}    {names[n.id]} = {names[n.inputs[2].id]}"]
            step = _cond_step(reg[pred.id], reg[n.id], blocks[0][:2], blocks[1][:2], scalar)
        else:
            step = _step(n, [reg[i.id] for i in n.inputs], reg[n.id], scalar)
        step.node, step.out = n, reg[n.id]  # type: ignore[attr-defined]
        steps.append(step)
        if n.op != "cond":
            lines.append(f"{pad}{names[n.id]} = {_expr(n, names)}")
    return steps, lines


def _forward(n: ir.Node, args: list[np.ndarray]) -> np.ndarray:
    kw = {k: v for k, v in n.attrs.items() if k in ("p", "divide", "wrt")}
    return OPS[n.op].forward(*args, **kw)


def _step(n: ir.Node, ins: list[int], out: int, scalar: bool = False) -> Callable[[list[Any]], None]:
    """One plan step: a closure reading input registers and writing its output register."""
    if n.op not in OPS:
        raise ValueError(f"unknown op {n.op!r} in node '{n.name}'; the static engine knows {', '.join(OPS)}")
    f = OPS[n.op].forward
    kw = {k: v for k, v in n.attrs.items() if k in ("p", "divide", "wrt")}
    name = n.name
    if scalar:
        return _scalar_step(SCALAR_OPS[n.op], f, kw, ins, out)

    def fail(shapes: list[Any]) -> ShapeError:
        return ShapeError(f"running node '{name}' = {n.op}: input shapes {', '.join(map(str, shapes))} do not fit")

    if kw:
        def step(r: list[Any]) -> None:
            try:
                r[out] = f(*[r[i] for i in ins], **kw)
            except ValueError:
                raise fail([np.shape(r[i]) for i in ins]) from None
    elif len(ins) == 2:
        a, b = ins

        def step(r: list[Any]) -> None:
            try:
                r[out] = f(r[a], r[b])
            except ValueError:
                raise fail([np.shape(r[a]), np.shape(r[b])]) from None
    elif len(ins) == 1:
        (a,) = ins

        def step(r: list[Any]) -> None:
            r[out] = f(r[a])
    else:
        def step(r: list[Any]) -> None:
            r[out] = f(*[r[i] for i in ins])
    return step


def _scalar_step(fast: Callable[..., float], slow: Callable[..., Any], kw: dict[str, Any], ins: list[int],
                 out: int) -> Callable[[list[Any]], None]:
    """A step on Python floats; where the math module refuses (log(-1), overflow, 1/0) numpy answers inf/nan."""
    if kw:
        def step(r: list[Any]) -> None:
            args = [r[i] for i in ins]
            try:
                r[out] = fast(*args, **kw)
            except (ValueError, ArithmeticError):
                r[out] = float(slow(*args, **kw))
    elif len(ins) == 2:
        a, b = ins

        def step(r: list[Any]) -> None:
            try:
                r[out] = fast(r[a], r[b])
            except (ValueError, ArithmeticError):
                r[out] = float(slow(np.float64(r[a]), np.float64(r[b])))
    elif len(ins) == 1:
        (a,) = ins

        def step(r: list[Any]) -> None:
            try:
                r[out] = fast(r[a])
            except (ValueError, ArithmeticError):
                r[out] = float(slow(np.float64(r[a])))
    else:
        def step(r: list[Any]) -> None:
            r[out] = fast(*[r[i] for i in ins])
    return step


def _same(v: Any) -> Any:
    return v


def _cond_step(pred: int, out: int, then: tuple[list[Any], int], other: tuple[list[Any], int],
               scalar: bool = False) -> Callable[..., None]:
    (then_steps, then_reg), (else_steps, else_reg) = then, other
    truth = bool if scalar else np.any

    def step(r: list[Any]) -> None:
        steps, res = (then_steps, then_reg) if truth(r[pred]) else (else_steps, else_reg)
        for s in steps:
            s(r)
        r[out] = r[res]

    step.pred = pred  # type: ignore[attr-defined]
    step.branches = {True: (then_steps, then_reg), False: (else_steps, else_reg)}  # type: ignore[attr-defined]
    return step


_PY = {"add": "{0} + {1}", "sub": "{0} - {1}", "mul": "{0} * {1}", "div": "{0} / {1}", "neg": "-{0}",
       "matmul": "{0} @ {1}", "pow": "{0} ** {p}"}


def _expr(n: ir.Node, names: dict[int, str]) -> str:
    args = [names[i.id] for i in n.inputs]
    if n.op in _PY:
        return _PY[n.op].format(*args, p=n.attrs.get("p"))
    extra = "".join(f", {k}={n.attrs[k]!r}" for k in ("p", "divide", "wrt") if k in n.attrs)
    return f"{n.op}({', '.join(args)}{extra})"


def _pyname(n: ir.Node) -> str:
    """A Python identifier for a node's register (user names are sanitized, never trusted as code)."""
    base = "".join(c if c.isalnum() or c == "_" else "_" for c in n.name.split("/")[-1]) or "v"
    if base[0].isdigit():
        base = "v" + base
    return f"{base}_{n.id}"


def _fmt(v: Any) -> str:
    return ir.short_value(v, 6)


def to_graph(obj: Graph | Tensor) -> ir.Graph:
    """The IR of a static graph (it already is one); for a tensor, its graph with that tensor marked as output."""
    if isinstance(obj, Tensor):
        if obj.node not in obj.graph.outputs:
            obj.graph.outputs.append(obj.node)
        return obj.graph
    return obj
