"""Building a define-then-run graph: a :class:`Graph`, symbolic :class:`Tensor` handles, and the functions that
add nodes (placeholders, constants, variables, every op of :data:`course_lib.ops.OPS`, ``cond``).

Nothing here computes a value: a ``Tensor`` is a symbol for what a node *will* hold when a Session runs it.
Each new node gets its shape at once (:func:`course_lib.static.shapes.infer`), as TensorFlow does at build time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .. import graph as ir
from .. import ops as _ops
from ..i18n import N_, Plural, say
from .shapes import infer

__all__ = [
    "FetchError",
    "Graph",
    "GraphFinalizedError",
    "MissingFeedError",
    "ShapeError",
    "SymbolicBoolError",
    "Tensor",
    "Variable",
    "apply",
    "as_tensor",
    "cond",
    "constant",
    "get_default_graph",
    "name_scope",
    "placeholder",
    "reset_default_graph",
    "to_graph",
]


# ---------------------------------------------------------------------- errors
class GraphFinalizedError(RuntimeError):
    """A node was added to a finalized (immutable) graph."""


class MissingFeedError(ValueError):
    """A placeholder the fetches need was not given a value in ``feed_dict``."""


ShapeError = _ops.ShapeError  # a value or operand whose shape does not fit (the message names both shapes)


class FetchError(ValueError):
    """Something asked of ``Session.run`` that is not a tensor of the session's graph."""


class SymbolicBoolError(TypeError):
    """A symbolic tensor used where Python needs True/False now (``if``, ``while``, ``and``...)."""


# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
FINALIZED = N_("Graph is finalized and cannot be modified: tried to add {name!r}. finalize() made the graph immutable "
               "(TensorFlow does this when a MonitoredSession starts); build every node before finalizing, or build "
               "a new Graph")
NEEDS_TRUE_OR_FALSE = N_(
    "Python needs True or False *now*, but '{name}' is a symbolic tensor: it has no value until a Session runs the "
    "graph. A Python `if`/`while`/`and`/`or` on it cannot be put into the graph. Put both branches in the graph with "
    "st.cond(pred, true_fn, false_fn) instead (TensorFlow: tf.cond; in TF2, tf.function's AutoGraph rewrites such an "
    "`if` into tf.cond for you). In define-by-run (course_lib.dynamic) the value exists, so a plain `if` just works.")
#: How a symbol prints: what it will be, and when it gets a value (in the language of the moment).
SYMBOL = N_("<static Tensor '{name}' op={op} shape={shape} — no value until Session.run>")
UNKNOWN_SHAPE = N_("unknown")
NO_VALUE_YET = N_("'{name}' has no value yet: run it with Session(graph).run({name!r}, feed_dict=...) to get a number")
NO_ARRAY_YET = N_("'{name}' is symbolic and cannot become a numpy array before Session.run")
NOT_ITERABLE = N_("cannot iterate over the symbolic tensor '{name}': its length is only known at run time")
OTHER_GRAPH = N_("tensor '{name}' belongs to another graph; build all tensors of a computation inside the same "
                 "`with graph.as_default():` block")
MIXED_STYLES = _ops.MIXED_STYLES  # one message both ways (ops.mixed_styles)
NAME_NOT_TEXT = N_("{what}(): its name must be non-empty text, like {what}('x'); got {name!r}")
SCOPE_NOT_TEXT = N_("name_scope(): the scope's name must be text, like name_scope('layer1'), or '' for the top "
                    "level; got {name!r}")
NAME_WITH_COLON = N_("{what}(): a name cannot hold ':', which TensorFlow keeps for the output index ('x:0'); got "
                     "{name!r}")
SHAPE_IS_A_NUMBER = Plural("placeholder {name!r}: shape=({size},) for a vector of {size} number (a shape is a tuple "
                           "of sizes), or shape=() for one number",
                           "placeholder {name!r}: shape=({size},) for a vector of {size} numbers (a shape is a tuple "
                           "of sizes), or shape=() for one number", count="size")
SHAPE_NOT_SIZES = N_("placeholder {name!r}: shape must be a tuple of sizes such as (3,) or (None, 3) (None = any "
                     "size), () for one number or None for any shape; got {shape!r}")
BRANCH_RETURNED_NONE = {  # the side of a cond -> its message
    True: N_("cond: the true branch returned None; each branch must return a tensor or a number (is a `return` "
             "missing in it?)"),
    False: N_("cond: the false branch returned None; each branch must return a tensor or a number (is a `return` "
              "missing in it?)"),
}
UNKNOWN_OP, POW_NEEDS_NUMBER, TENSOR_EXPONENT = _ops.UNKNOWN_OP, _ops.POW_NEEDS_NUMBER, _ops.TENSOR_EXPONENT


# ---------------------------------------------------------------------- the graph
class Graph(ir.Graph):
    """A graph you build first and run later (``tf.Graph``). It *is* the course IR, plus building rules."""

    def __init__(self, name: str = "define-then-run") -> None:
        super().__init__(name)
        self.finalized = False
        self._scopes: list[str] = []
        self._branches: list[tuple[int, int, bool]] = []  # open cond branches: (cond key, pred node id, side)
        self._cond_keys = 0
        self._in_gradients = 0  # > 0 while gradients() adds the backward pass: its ops are drawn as gradient
        self.observers: list[Callable[[ir.Node], None]] = []  # told of every new node (traces use it)

    def add(self, op: str, inputs: Sequence[ir.Node] = (), name: str | None = None, **kw: Any) -> ir.Node:
        if self.finalized:
            raise GraphFinalizedError(say(FINALIZED, name=name or op))
        scope = "/".join(self._scopes)
        kw.setdefault("scope", scope)
        if self._in_gradients and kw.get("kind", "op") == "op":
            kw["gradient"] = True
        if scope:
            name = f"{scope}/{name or op}"
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
        """Nodes added inside are named ``name/...`` (nested scopes join with '/'); ``""`` goes back to the top
        level, as in TensorFlow 1; ``"a/b"`` opens two scopes."""
        if not isinstance(name, str):
            raise TypeError(say(SCOPE_NOT_TEXT, name=name))
        if ":" in name:
            raise ValueError(say(NAME_WITH_COLON, what="name_scope", name=name))
        before = self._scopes
        self._scopes = [*before, *(part for part in name.split("/") if part)] if name else []
        try:
            yield
        finally:
            self._scopes = before

    @contextlib.contextmanager
    def building_gradients(self) -> Iterator[None]:
        """Ops added inside this block compute derivatives: they are marked ``gradient`` (drawn in that style)."""
        self._in_gradients += 1
        try:
            yield
        finally:
            self._in_gradients -= 1

    @contextlib.contextmanager
    def branch(self, key: int, pred: ir.Node, side: bool, scope: str) -> Iterator[None]:
        """Nodes added inside belong to one side of a ``cond`` (and are drawn in its scope)."""
        self._branches.append((key, pred.id, side))
        self._scopes.append(scope)
        try:
            yield
        finally:
            self._scopes.pop()
            self._branches.pop()

    def new_cond_key(self) -> int:
        key, self._cond_keys = self._cond_keys, self._cond_keys + 1
        return key

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
        shape = say(UNKNOWN_SHAPE) if self.shape is None else self.shape
        return say(SYMBOL, name=self.name, op=self.op, shape=shape)

    def __bool__(self) -> bool:
        raise SymbolicBoolError(say(NEEDS_TRUE_OR_FALSE, name=self.name))

    def __float__(self) -> float:
        raise SymbolicBoolError(say(NO_VALUE_YET, name=self.name))

    __int__ = __float__
    item = __float__  # no value yet, whichever way it is asked for

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise SymbolicBoolError(say(NO_ARRAY_YET, name=self.name))

    def __iter__(self) -> Iterator[Any]:
        raise SymbolicBoolError(say(NOT_ITERABLE, name=self.name))

    __hash__ = object.__hash__

    # + - * / ** @, unary -, > < >= <=: methods made from the op table's spellings (ops.install_operators, below
    # apply), the same as the define-by-run Tensor's


# ---------------------------------------------------------------------- adding nodes
def as_tensor(x: Any, graph: Graph) -> Tensor:
    """``x`` as a tensor of ``graph``: a tensor of it as it is, a number or array as a new constant."""
    if isinstance(x, Tensor):
        if x.graph is not graph:
            raise ValueError(say(OTHER_GRAPH, name=x.name))
        return x
    if type(x).__module__.startswith("course_lib.dynamic"):
        raise _ops.mixed_styles(x, into="static")
    return constant(x, graph=graph)


def apply(op: str, *args: Any, name: str | None = None, **attrs: Any) -> Tensor:
    """Add a node running op ``op`` of :data:`course_lib.ops.OPS` on ``args`` (tensors, numbers or arrays).

    ``attrs`` are the op's attributes (``pow``'s ``p``); the node's shape is inferred now.

    >>> g = Graph()
    >>> with g.as_default():
    ...     y = apply("mul", placeholder("x", shape=(2,)), 3.0)
    >>> y.op, y.shape
    ('mul', (2,))
    """
    record = _ops.OPS.get(op)
    if record is None:
        raise ValueError(say(UNKNOWN_OP, name=op, ops=", ".join(_ops.OPS)))
    attrs = _ops.check_call(record, args, attrs)  # the one argument check of both engines (arity, attributes)
    if name is not None:
        name = _name(name, op)
    graph = next((a.graph for a in args if isinstance(a, Tensor)), None) or get_default_graph()
    ts = [_input(a, graph, op, k) for k, a in enumerate(args, 1)]
    node_attrs = dict(attrs)
    node_attrs["shape"] = infer(op, [t.shape for t in ts], attrs)
    return Tensor(graph.add(op, [t.node for t in ts], name=name, attrs=node_attrs), graph)


def _input(x: Any, graph: Graph, op: str, index: int) -> Tensor:
    """Input ``index`` of op ``op``: a tensor of the graph, or a number or array read as the dynamic engine reads it
    (``ops.as_array``: the same refusal, naming the op and the input)."""
    if isinstance(x, Tensor) or type(x).__module__.startswith("course_lib.dynamic"):
        return as_tensor(x, graph)
    return constant(_ops.as_array(x, _ops.INPUT, name=op, index=index), graph=graph)


_ops.install_operators(Tensor, apply)  # x + 1, x ** 2, x > 0 ... add nodes


def placeholder(name: str = "placeholder", shape: tuple[int | None, ...] | None = (),
                graph: Graph | None = None) -> Tensor:
    """A hole in the graph, filled through ``feed_dict`` at run time.

    ``shape=()`` (the default) means a single number; ``(None, 3)`` any number of rows of 3; ``None`` any shape.
    """
    g = graph or get_default_graph()
    return Tensor(g.add("placeholder", name=_name(name, "placeholder"), kind="input",
                        attrs={"shape": _shape(shape, name)}), g)


def _name(name: Any, what: str) -> str:
    """A node's name: non-empty text without ':' (TensorFlow keeps ':' for the output index, ``'x:0'``, and so does
    ``Session.run('x:0')`` here); '/' is allowed and reads as a scope, as in TensorFlow."""
    if not isinstance(name, str) or not name:
        raise TypeError(say(NAME_NOT_TEXT, what=what, name=name))
    if ":" in name:
        raise ValueError(say(NAME_WITH_COLON, what=what, name=name))
    return name


def _shape(shape: Any, name: Any) -> tuple[int | None, ...] | None:
    """A declared shape: None (any), or a tuple of sizes (whole numbers >= 0, or None for any size)."""
    if shape is None:
        return None
    if isinstance(shape, int) and not isinstance(shape, bool):
        raise TypeError(say(SHAPE_IS_A_NUMBER, name=name, size=shape))
    if isinstance(shape, (tuple, list)) and all(
            d is None or (isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0) for d in shape):
        return tuple(None if d is None else int(d) for d in shape)
    raise TypeError(say(SHAPE_NOT_SIZES, name=name, shape=shape))


def constant(value: Any, name: str | None = None, graph: Graph | None = None) -> Tensor:
    g = graph or get_default_graph()
    name = "Const" if name is None else _name(name, "constant")
    v = _as_value(value, "constant")
    return Tensor(g.add("constant", name=name, kind="constant", value=v, attrs={"shape": v.shape}), g)


def Variable(initial: Any, name: str | None = "Variable", graph: Graph | None = None) -> Tensor:
    """State that lives across runs (a weight). Its value is read at run time, so it is never constant-folded;
    a value fed for it in ``Session.run`` replaces it for that run only (as in TF1). ``name=None``: "Variable"."""
    g = graph or get_default_graph()
    name = "Variable" if name is None else _name(name, "Variable")
    v = _as_value(initial, "Variable")
    return Tensor(g.add("variable", name=name, kind="variable", value=v, attrs={"shape": v.shape}), g)


def cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any], name: str = "cond") -> Tensor:
    """Both branches go into the graph; at run time only the one ``pred`` selects is computed (``tf.cond``).

    ``pred`` is one number (non-zero means true): a predicate of another shape is refused when the graph is built if
    its shape is known, else when it runs (``tf.cond`` too: "Shape must be rank 0"). The nodes each branch creates
    are drawn in the scopes ``cond/then`` and ``cond/else``.
    """
    _ops.cond_branches(true_fn, false_fn)
    g = pred.graph if isinstance(pred, Tensor) else get_default_graph()
    p = _input(pred, g, "cond", 1)
    _ops.cond_predicate(p.shape)
    base = g.unique_name(_name(name, "cond"))
    key = g.new_cond_key()
    outs = []
    for side, fn in ((True, true_fn), (False, false_fn)):
        with g.branch(key, p.node, side, f"{base}/{'then' if side else 'else'}"):
            out = fn()
            if out is None:
                raise TypeError(say(BRANCH_RETURNED_NONE[side]))
            outs.append(as_tensor(out, g))
    shape = outs[0].shape if outs[0].shape == outs[1].shape else None
    return Tensor(g.add("cond", [p.node, outs[0].node, outs[1].node], name=base,
                        attrs={"shape": shape, "cond_key": key}), g)


def _as_value(value: Any, what: str) -> np.ndarray:
    if type(value).__module__.startswith("course_lib.dynamic"):
        as_tensor(value, get_default_graph())  # the message about mixing the two styles
    return np.array(_ops.as_array(value, what))  # a copy: the graph never shares the caller's array


def to_graph(obj: Graph | Tensor) -> ir.Graph:
    """The IR of a static graph (it already is one); for a tensor, a view of its graph with that tensor marked as
    output — the user's graph itself is left as it is."""
    if isinstance(obj, Tensor):
        return obj.graph.view(outputs=[*obj.graph.outputs, obj.node])
    return obj
