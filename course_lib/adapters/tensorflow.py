"""TensorFlow -> graph IR: the static graphs TensorFlow really builds, in the course's own picture.

Accepted objects (see :func:`to_graph`): a ``tf.Graph`` built with ``tf.compat.v1`` (placeholders, variables,
``Session``) inside ``with tf.Graph().as_default():``; a ``tf.function``'s ``ConcreteFunction`` (or its
``FuncGraph``); a ``tf.function`` together with ``args=`` to trace; a symbolic ``tf.Tensor`` / ``tf.Operation``
(its graph, with it marked as the output); a ``GraphDef`` proto.

Mapping (framework concept -> IR)::

    TensorFlow                                   IR node
    -------------------------------------------  ---------------------------------------------------------------
    Placeholder / PlaceholderWithDefault         kind "input",    op = the op type, name = the op name
    Placeholder of dtype resource in a FuncGraph kind "variable", name = the captured tf.Variable's name
                                                 ("sequential/dense/kernel"; attrs["tf_name"]: the placeholder's)
    other captured tensor in a FuncGraph         kind "constant"  (its value when small)
    Const / HostConst                            kind "constant"  (value when <= 16 elements)
    VarHandleOp / VariableV2 / Variable          kind "variable"
    any other op (MatMul, AddV2, StatelessIf...) kind "op",       op = op type, name = op name
    data input  "name:k"                         an edge (node.inputs, in input order; duplicates kept)
    control input "^name"                        attrs["control_inputs"] (an edge too with control_edges=True)
    op name scope "a/b/op"                       scope "a/b": the renderer clusters by it. Helpers TensorFlow
                                                 names after an op ("Greater/y", "w/Assign") stay in that op's
                                                 scope; a control-flow op heads a scope named after itself
    ops under "gradients/" or "gradient_tape/"   gradient=True
    FuncGraph.outputs / outputs=[...]            Graph.outputs
    If/StatelessIf then_branch, else_branch      body nodes in scopes "<op>/then", "<op>/else"
    While/StatelessWhile cond, body              body nodes in scopes "<op>/cond", "<op>/body"
    Case branches[i]; PartitionedCall f          "<op>/branch<i>"; "<op>/call"

Function bodies (``cond``/``while`` branches, nested ``tf.function`` calls) come from the graph's function library
(``graph.as_graph_def().library``), the public ``FunctionDef`` protos TensorFlow itself serialises, so it works
the same for a live graph, a nested body and a ``GraphDef`` read from disk. A body is expanded once per op that
references it. Inside a body each function argument becomes a node ``Placeholder`` (kind "input", or "variable"
for a resource argument) fed by the outer op's matching input (an If's inputs after the predicate, a While's
inputs), and the outer op also reads the body's returned values, so data visibly flows in, through and out of
each branch (a While's loop-back is not an edge: the IR is a DAG, like the picture of one iteration).
The control-flow op itself is put in the scope named after it, so ``cond`` holds the If op, its output
``Identity`` and the clusters ``cond/then`` and ``cond/else``. Body nodes are named ``<scope>/<op name>`` with
the outer op's name prefix dropped (``cond/then/mul`` for TensorFlow's ``cond/mul``); ``attrs["tf_name"]`` always
holds TensorFlow's own name, ``attrs["function"]`` the FunctionDef's name.

Node count, exactly: ``len(graph.get_operations())`` + for every expanded function reference, the ops of that
body's ``FuncGraph`` (``len(fdef.node_def)`` + one ``Placeholder`` per ``fdef.signature.input_arg``, which is
``len(body_func_graph.get_operations())``), recursively. :func:`count_ops` reports these numbers.

Every walk is iterative (an explicit stack of generators for nested bodies, the course's one topological order
:func:`course_lib.graph.topological` for the order), so a graph of thousands of ops converts under any recursion
limit; creation order is TensorFlow's own op order, ties broken by it, so the same graph gives the same IR.

>>> import tensorflow as tf                                       # doctest: +SKIP
>>> with tf.Graph().as_default() as g:                            # doctest: +SKIP
...     x = tf.compat.v1.placeholder(tf.float32, name="x")
...     y = tf.sin(x * 2.0)
>>> ir = to_graph(g, outputs=[y]); [n.op for n in ir.nodes]       # doctest: +SKIP
['Placeholder', 'Const', 'Mul', 'Sin']
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..graph import Graph, Node, topological
from ..i18n import N_, Plural, say
from . import MAX_VALUE_ELEMENTS, small_value
from .loader import load_tensorflow

__all__ = ["BODY_LABELS", "CANNOT_CONVERT", "CANNOT_NAME", "KERAS_NOT_A_GRAPH", "NOT_OUTPUTS", "PICK_A_TRACE",
           "OpCount", "count_ops", "to_graph"]

NOT_OUTPUTS = Plural("output {missing} is not an operation of this graph",
                     "outputs {missing} are not operations of this graph")  # n: how many are missing
PICK_A_TRACE = N_("a tf.function can trace many graphs (one per input signature); pass one of them: "
                  "to_graph(f.get_concrete_function(tf.TensorSpec([3], tf.float32))) or to_graph(f, args=(x,))")
KERAS_NOT_A_GRAPH = N_("a Keras object ({kind}) is not a graph yet: call it inside a tf.function and convert the "
                       "concrete function, e.g. to_graph(tf.function(model).get_concrete_function("
                       "tf.TensorSpec([None, 4])))")
CANNOT_CONVERT = N_("cannot convert {kind}: pass a tf.Graph, a ConcreteFunction, a tf.function with args=, a symbolic "
                    "tf.Tensor/tf.Operation or a GraphDef (an eager tensor has no graph: TensorFlow 2 runs eagerly by "
                    "default)")
CANNOT_NAME = N_("cannot name {obj!r} as an output: pass a tensor, an operation or an op name")

#: How a function-valued attribute of a control-flow op is labelled in the body's scope.
BODY_LABELS = {"then_branch": "then", "else_branch": "else", "cond": "cond", "body": "body", "f": "call"}

_INPUT_OPS = frozenset({"Placeholder", "PlaceholderV2", "PlaceholderWithDefault"})
_CONST_OPS = frozenset({"Const", "HostConst"})
_VARIABLE_OPS = frozenset({"VarHandleOp", "VariableV2", "Variable", "_VarHandlesOp"})
# Ops whose first input is not passed to the body functions (a predicate / a branch index).
_SKIP_FIRST_INPUT = frozenset({"If", "StatelessIf", "_If", "Case", "StatelessCase"})
_GRADIENT_PREFIXES = ("gradients/", "gradients_", "gradient_tape/")
_DT_RESOURCE = 20  # types.proto: DT_RESOURCE; a captured or passed variable handle

# (function name, IR scope, TF name prefix to drop, nodes feeding the arguments): a request to expand one body
_BodyRequest = tuple[Any, str, str, list[Node | None]]


# ---------------------------------------------------------------------------------------------- public API
def to_graph(
    obj: Any,
    *,
    outputs: Iterable[Any] | None = None,
    args: Sequence[Any] | None = None,
    expand_functions: bool = True,
    control_edges: bool = False,
    name: str | None = None,
) -> Graph:
    """Convert a TensorFlow graph-like object to a :class:`course_lib.graph.Graph`.

    ``outputs``: tensors, operations or op names to mark as the graph's outputs (a ``FuncGraph`` /
    ``ConcreteFunction`` marks its own returned tensors). ``args``: with a ``tf.function``, the arguments (or
    ``tf.TensorSpec``) to get its concrete function. ``expand_functions=False`` leaves ``cond``/``while`` bodies out
    (then the node count is exactly ``len(graph.get_operations())``). ``control_edges=True`` also draws control
    dependencies (``^name``) as edges; they are always listed in ``attrs["control_inputs"]``.

    >>> ir = to_graph(my_concrete_function)                       # doctest: +SKIP
    >>> len(ir) == count_ops(my_concrete_function).total           # doctest: +SKIP
    True
    """
    tf = load_tensorflow()
    graph_def, source_graph, marked = _resolve(tf, obj, args)
    if outputs is not None:
        marked = [_op_name(tf, o) for o in outputs]
    ir_name = name or _graph_label(obj, source_graph)
    conv = _Converter(tf, graph_def, source_graph, expand_functions, control_edges, ir_name)
    conv.run()
    missing = [m for m in marked if m not in conv.top]
    if missing:
        raise ValueError(say(NOT_OUTPUTS, missing=missing, n=len(missing)))
    conv.ir.mark_output(*[conv.top[m] for m in marked])
    return conv.ir


@dataclass
class OpCount:
    """What TensorFlow reports for a graph: its operations and, per expanded body, the body's operations.

    ``total`` is the number of IR nodes :func:`to_graph` makes (with ``expand_functions=True``).
    """

    operations: int
    bodies: list[tuple[str, str, int]] = field(default_factory=list)  # (IR scope, FunctionDef name, ops)

    @property
    def total(self) -> int:
        return self.operations + sum(n for _, _, n in self.bodies)


def count_ops(obj: Any, *, args: Sequence[Any] | None = None) -> OpCount:
    """Count the ops of ``obj`` the way TensorFlow does: ``len(graph.get_operations())`` for the graph itself and
    ``len(body.get_operations())`` (its nodes plus one ``Placeholder`` per argument) for every expanded body.

    >>> count_ops(f.get_concrete_function(tf.TensorSpec([3]))).bodies   # doctest: +SKIP
    [('cond/then', 'cond_true_8', 4), ('cond/else', 'cond_false_9', 4)]
    """
    tf = load_tensorflow()
    graph_def, source_graph, _ = _resolve(tf, obj, args)
    ops = len(source_graph.get_operations()) if source_graph is not None else len(graph_def.node)
    conv = _Converter(tf, graph_def, source_graph, True, False, "count")
    conv.run()
    return OpCount(ops, conv.bodies)


# ---------------------------------------------------------------------------------------------- resolving
def _resolve(tf: Any, obj: Any, args: Sequence[Any] | None) -> tuple[Any, Any, list[str]]:
    """(GraphDef, the live tf.Graph or None, op names to mark as outputs) for any accepted object."""
    from tensorflow.core.framework import graph_pb2

    if isinstance(obj, graph_pb2.GraphDef):
        return obj, None, []
    if hasattr(obj, "get_concrete_function") and not hasattr(obj, "graph"):  # a tf.function (PolymorphicFunction)
        if args is None:
            raise TypeError(say(PICK_A_TRACE))
        obj = obj.get_concrete_function(*args)
    if _is_symbolic(tf, obj):
        return _graph_def(obj.graph), obj.graph, [_op_name(tf, obj)]
    graph = getattr(obj, "graph", None) if not isinstance(obj, tf.Graph) else obj
    if isinstance(graph, tf.Graph):
        marked = [_op_name(tf, t) for t in getattr(graph, "outputs", None) or []]
        return _graph_def(graph), graph, marked
    kind = f"{type(obj).__module__}.{type(obj).__name__}"
    if "keras" in kind:
        raise TypeError(say(KERAS_NOT_A_GRAPH, kind=kind))
    raise TypeError(say(CANNOT_CONVERT, kind=kind))


def _is_symbolic(tf: Any, obj: Any) -> bool:
    """A graph tensor/op (not an eager tensor, whose ``.graph`` raises)."""
    if isinstance(obj, tf.Operation):
        return True
    if isinstance(obj, tf.Tensor):
        try:
            return isinstance(obj.graph, tf.Graph)
        except AttributeError:  # EagerTensor.graph: "Tensor.graph is undefined when eager execution is enabled"
            return False
    return False


def _graph_def(graph: Any) -> Any:
    # add_shapes: every NodeDef gets "_output_shapes", so the IR can show shapes without touching Operations
    return graph.as_graph_def(add_shapes=True)


def _op_name(tf: Any, obj: Any) -> str:
    if isinstance(obj, str):
        return obj.split(":")[0]
    if isinstance(obj, tf.Operation):
        return obj.name
    op = getattr(obj, "op", None)
    if op is not None:
        return op.name
    raise TypeError(say(CANNOT_NAME, obj=obj))


def _graph_label(obj: Any, graph: Any) -> str:
    if graph is None:
        return "GraphDef"
    func_name = getattr(graph, "name", None)
    if hasattr(graph, "outputs") and func_name:  # a FuncGraph: the Python function's name ("f")
        return f"tf.function {func_name}"
    return "tf.Graph"


# ---------------------------------------------------------------------------------------------- conversion
def _producer(inp: str) -> str:
    """The op (or function argument) an input string reads: 'a/b:1' -> 'a/b'; 'x:out:0' -> 'x'; '^c' -> 'c'."""
    return inp.lstrip("^").split(":", 1)[0]


def _kahn(names: list[str], deps: list[list[str]]) -> tuple[list[int], dict[int, list[str]]]:
    """Topological order of ``names`` (ties broken by position), and the inputs dropped to break cycles.

    A TF1 ``tf.compat.v1.while_loop`` in a v1 graph has real cycles (``NextIteration`` -> ``Merge``); when the order
    is stuck, the earliest waiting node goes next and its unmet inputs are reported as back edges
    (:func:`course_lib.graph.topological` with ``back_edges``).
    """
    index = {n: i for i, n in enumerate(names)}
    dep_idx = [list(dict.fromkeys(index[d] for d in ds if d in index and index[d] != i)) for i, ds in enumerate(deps)]
    back: dict[int, list[int]] = {}
    order = topological(range(len(names)), dep_idx.__getitem__, int, back_edges=back)
    return order, {i: [names[j] for j in js] for i, js in back.items()}


def _name_scope(name: str, op_names: set[str], heads: set[str]) -> str:
    """The name scope an op was created in, cut where a component names another op.

    TensorFlow names an op's helpers after it (``Greater/y``, ``w/Assign``, ``w/Read/ReadVariableOp``); those are
    not scopes a user opened, so they stay beside their op instead of making a one-node cluster. A scope a layer or
    ``tf.name_scope`` opened (``sequential/dense``) is kept, and a control-flow op heads a scope of its own.

    >>> _name_scope("sequential/dense/BiasAdd/ReadVariableOp", {"sequential/dense/BiasAdd"}, set())
    'sequential/dense'
    >>> _name_scope("cond/Identity", {"cond"}, {"cond"})
    'cond'
    """
    parts = name.split("/")[:-1]
    for k in range(len(parts)):
        prefix = "/".join(parts[: k + 1])
        if prefix in heads:
            continue
        if prefix in op_names:
            return "/".join(parts[:k])
    return "/".join(parts)


def _join(*parts: str) -> str:
    return "/".join(p for p in parts if p)


class _Converter:
    """Builds one IR graph from a GraphDef and its function library, expanding bodies with an explicit stack."""

    def __init__(self, tf: Any, graph_def: Any, source: Any, expand: bool, control_edges: bool, name: str) -> None:
        self.tf = tf
        self.graph_def = graph_def
        self.library = {f.signature.name: f for f in graph_def.library.function}
        self.expand = expand
        self.control_edges = control_edges
        self.ir = Graph(name)
        self.top: dict[str, Node] = {}
        self.bodies: list[tuple[str, str, int]] = []
        self.captures = _captures(tf, source)
        self._dtype_names: dict[int, str] = {}

    def run(self) -> None:
        """Drive the generators: each yields a body to expand and receives the body's returned nodes."""
        stack: list[Generator[_BodyRequest, list[Node], Any]] = [
            self._emit(list(self.graph_def.node), {}, scope="", strip="", function=None)
        ]
        reply: Any = None
        while stack:
            try:
                fdef, scope, strip, sources = stack[-1].send(reply)
            except StopIteration as stop:
                stack.pop()
                reply = stop.value
                if not stack:  # the top-level graph's name -> node table
                    self.top = reply
                continue
            reply = None
            stack.append(self._emit_function(fdef, scope, strip, sources))

    def _emit_function(
        self, fdef: Any, scope: str, strip: str, sources: list[Node | None]
    ) -> Generator[_BodyRequest, list[Node], list[Node]]:
        """One body: a Placeholder per argument, its nodes, and (returned) the nodes producing its results."""
        fname = fdef.signature.name
        args: dict[str, Node] = {}
        # TF names an argument after its placeholder with '/' -> '_' ("while/Placeholder_1" -> "while_placeholder_1");
        # drop the outer op's part, as for the body's ops, so boxes read "placeholder_1", "mul_x", "n"
        arg_prefix = strip.replace("/", "_").lower()
        for k, arg in enumerate(fdef.signature.input_arg):
            src = sources[k] if k < len(sources) else None
            short = arg.name[len(arg_prefix) :] if arg_prefix and arg.name.startswith(arg_prefix) else arg.name
            args[arg.name] = self.ir.add(
                "Placeholder",
                [src] if src is not None else [],
                name=_join(scope, short or arg.name),
                kind="variable" if arg.type == _DT_RESOURCE else "input",
                attrs={"tf_name": arg.name, "function": fname, "arg": k, "dtype": self._dtype(arg.type)},
                scope=scope,
                gradient=src is not None and src.gradient,
            )
        self.bodies.append((scope, fname, len(fdef.node_def) + len(args)))
        local = yield from self._emit(list(fdef.node_def), args, scope=scope, strip=strip, function=fname)
        returns = [local.get(_producer(fdef.ret[out.name])) for out in fdef.signature.output_arg]
        return list(dict.fromkeys(r for r in returns if r is not None))

    def _emit(
        self, node_defs: list[Any], args: dict[str, Node], scope: str, strip: str, function: str | None
    ) -> Generator[_BodyRequest, list[Node], dict[str, Node]]:
        """Add the nodes of one graph level (the top graph or one body) in topological order."""
        names = [nd.name for nd in node_defs]
        order, back = _kahn(names, [[_producer(i) for i in nd.input] for nd in node_defs])
        rel_names = [nd.name[len(strip) :] if strip and nd.name.startswith(strip) else nd.name for nd in node_defs]
        op_names = set(rel_names)
        body_attrs = [self._body_attrs(nd) if self.expand else [] for nd in node_defs]
        heads = {rel_names[i] for i, bodies in enumerate(body_attrs) if bodies}
        local: dict[str, Node] = dict(args)
        for i in order:
            nd, rel = node_defs[i], rel_names[i]
            ir_name = _join(scope, rel)
            data = [local[p] for p in (_producer(s) for s in nd.input if not s.startswith("^")) if p in local]
            controls = [_producer(s) for s in nd.input if s.startswith("^")]
            attrs = self._attrs(nd, function, controls, back.get(i))
            returned: list[Node] = []
            for label, fname in body_attrs[i]:
                fdef = self.library.get(fname)
                if fdef is None:  # a function not in this library (e.g. a GraphDef saved without it)
                    attrs.setdefault("missing_functions", []).append(fname)
                    continue
                sources: list[Node | None] = list(data[1:] if nd.op in _SKIP_FIRST_INPUT else data)
                n_args = len(fdef.signature.input_arg)
                if len(sources) != n_args:  # an op we do not know: match the arguments by count when we can
                    sources = list(data) if len(data) == n_args else list(data[1:]) if len(data) - 1 == n_args else []
                returned += yield (fdef, _join(ir_name, label), nd.name + "/", sources)
            if self.control_edges:
                data += [local[c] for c in controls if c in local]
            inputs = data + [r for r in dict.fromkeys(returned) if r not in data]
            if returned:
                attrs["n_data_inputs"] = len(data)
            kind, value = self._kind_value(nd, attrs)
            if "variable" in attrs:  # a captured variable: its own name ("dense/kernel") says more than ".../resource"
                ir_name = attrs["variable"]
            own_scope = rel if rel in heads else _name_scope(rel, op_names, heads)
            local[nd.name] = self.ir.add(
                nd.op,
                inputs,
                name=ir_name,
                kind=kind,
                attrs=attrs,
                value=value,
                scope=_join(scope, own_scope),
                gradient=nd.name.startswith(_GRADIENT_PREFIXES) or "/gradients/" in nd.name,
            )
        return local

    # ------------------------------------------------------------------ per-node details
    def _body_attrs(self, nd: Any) -> list[tuple[str, str]]:
        """(label, function name) for each function-valued attribute of ``nd``, in attribute-name order."""
        out: list[tuple[str, str]] = []
        for key in sorted(nd.attr):
            val = nd.attr[key]
            if val.HasField("func"):
                out.append((BODY_LABELS.get(key, key), val.func.name))
            elif val.HasField("list") and len(val.list.func):
                base = "branch" if key == "branches" else key
                out += [(f"{base}{k}", f.name) for k, f in enumerate(val.list.func)]
        # then before else, cond before body: the order a reader expects
        rank = {"then": 0, "else": 1, "cond": 0, "body": 1}
        return sorted(out, key=lambda lf: rank.get(lf[0], 2))

    def _attrs(self, nd: Any, function: str | None, controls: list[str], back: list[str] | None) -> dict[str, Any]:
        attrs: dict[str, Any] = {"tf_name": nd.name}
        if function:
            attrs["function"] = function
        for key in ("dtype", "T"):
            if key in nd.attr and nd.attr[key].type:
                attrs["dtype"] = self._dtype(nd.attr[key].type)
                break
        shape = None
        if "_output_shapes" in nd.attr and nd.attr["_output_shapes"].list.shape:
            shape = nd.attr["_output_shapes"].list.shape[0]
        elif "shape" in nd.attr and nd.attr["shape"].HasField("shape"):
            shape = nd.attr["shape"].shape
        if shape is not None and not shape.unknown_rank:
            attrs["shape"] = [d.size if d.size >= 0 else None for d in shape.dim]
        for key in sorted(nd.attr):
            val = nd.attr[key]
            if val.HasField("func"):
                attrs[key] = val.func.name
            elif val.HasField("list") and len(val.list.func):
                attrs[key] = [f.name for f in val.list.func]
        if "shared_name" in nd.attr and nd.attr["shared_name"].s:
            attrs["shared_name"] = nd.attr["shared_name"].s.decode()
        if controls:
            attrs["control_inputs"] = controls
        if back:
            attrs["back_edges"] = back
        return attrs

    def _kind_value(self, nd: Any, attrs: dict[str, Any]) -> tuple[str, Any]:
        if nd.op in _CONST_OPS:
            return "constant", self._const_value(nd)
        if nd.op in _VARIABLE_OPS:
            return "variable", None
        if nd.op in _INPUT_OPS:
            cap = self.captures.get(nd.name) if "function" not in attrs else None
            if cap is not None:  # a FuncGraph's captured outside value
                variable, value = cap
                if variable is not None:
                    attrs["variable"] = variable
                    return "variable", None
                attrs["captured"] = True
                return "constant", value
            if "dtype" in attrs and attrs["dtype"] == "resource":
                return "variable", None
            return "input", None
        return "op", None

    def _const_value(self, nd: Any) -> Any:
        if "value" not in nd.attr:
            return None
        proto = nd.attr["value"].tensor
        size = 1
        for d in proto.tensor_shape.dim:
            size *= d.size
        if size > MAX_VALUE_ELEMENTS:  # never decode a big constant (an embedded weight matrix) just to skip it
            return None
        try:
            return small_value(self.tf.make_ndarray(proto))
        except (TypeError, ValueError):  # variants and other dtypes numpy cannot hold: no value to show
            return None

    def _dtype(self, enum: int) -> str:
        if enum not in self._dtype_names:
            try:
                self._dtype_names[enum] = self.tf.dtypes.as_dtype(enum).name
            except TypeError:
                self._dtype_names[enum] = str(enum)
        return self._dtype_names[enum]


def _captures(tf: Any, graph: Any) -> dict[str, tuple[str | None, Any]]:
    """For a FuncGraph: internal placeholder op name -> (captured variable's name or None, small value or None)."""
    pairs = getattr(graph, "captures", None)
    if not pairs:
        return {}
    variables = list(getattr(graph, "variables", ()) or ())
    out: dict[str, tuple[str | None, Any]] = {}
    for external, internal in pairs:
        var = next((v for v in variables if getattr(v, "handle", None) is external), None)
        value = None
        if var is None and hasattr(external, "numpy"):
            try:
                value = small_value(external.numpy())
            except (TypeError, ValueError, AttributeError, RuntimeError):  # a variant, a remote tensor: nothing to show
                value = None
        out[internal.op.name] = (var.name.split(":")[0] if var is not None else None, value)
    return out
