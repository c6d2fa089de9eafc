"""PyTorch -> graph IR: the autograd graph every forward pass records, and the static graphs fx/compile capture.

Accepted objects (see :func:`to_graph`): a tensor with a ``grad_fn`` (or a ``grad_fn`` itself); a
``torch.fx.GraphModule`` or ``torch.fx.Graph`` (from ``torch.fx.symbolic_trace``, or one of the graphs
:func:`capture_compiled` collects from ``torch.compile``).

Mapping (framework concept -> IR)::

    PyTorch                                    IR node
    -----------------------------------------  ---------------------------------------------------------------
    autograd                                   (all nodes gradient=True: they ARE the backward graph)
      grad_fn (AddmmBackward0, ReluBackward0)  kind "op", op = the class name, name = class name (_1, _2 ...)
      AccumulateGrad (a leaf tensor)           kind "variable", name = the parameter's name from params=
                                               (else "leaf(3, 4)" by shape), value when <= 16 elements
      next_functions                           inputs (None entries, i.e. inputs not needing grad, skipped)
      the tensor's own grad_fn                 Graph.outputs
      saved tensors (saved_tensors=True)       attrs["saved"] = {"_saved_self": "tensor(3, 4) float32", ...}
      module path (with module_scopes(model))  scope "encoder/fc" (parameters: the module owning them)
    torch.fx
      placeholder                              kind "input" (a parameter lifted by torch.compile: "variable")
      get_attr                                 kind "variable" for an nn.Parameter, else "constant"
      call_function / call_method              kind "op", op = target name ("linear", "relu", "view",
                                                "aten.addmm.default"), name = the fx node's name
      call_module                              kind "op", op = the module's class ("Linear"), attrs["target"]
      output                                   kind "op", op "output", name "output", and Graph.outputs
      nn_module_stack / module target path     scope ("0", "encoder/fc")

Edges point the way values flow in the forward pass (an AccumulateGrad leaf feeds the Backward node of the op
that used it), so the autograd graph reads like the computation it differentiates -- as torchviz draws it.
Node counts: autograd = the number of distinct autograd nodes reachable from ``grad_fn`` through
``next_functions``; fx = ``len(gm.graph.nodes)`` (``output`` included, as one node).

Every walk is iterative (an explicit stack), so a chain of thousands of ops converts under any recursion limit.
Creation order is a post-order walk that follows ``next_functions`` in order (autograd) or fx's node order, so the
same model gives the same IR; ``id()`` is only used to recognise an object already seen, never to order.

>>> import torch
>>> w = torch.tensor(2.0, requires_grad=True)
>>> y = torch.sin(w * 3.0)
>>> [n.op for n in to_graph(y, params={"w": w}).nodes]
['AccumulateGrad', 'MulBackward0', 'SinBackward0']
"""

from __future__ import annotations

import contextlib
import os
import shutil
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..graph import Graph, Node
from ..i18n import N_, say
from ..i18n import gettext as _
from . import module_path_to_scope, small_value
from .loader import load_torch

FX_NAMES_ITS_NODES = N_("params= and saved_tensors= are for autograd graphs; an fx graph names its own nodes")
MODULE_IS_CODE = N_("a module ({type}) is code, not a graph yet -- that is the define-by-run point: the graph exists "
                    "only once it runs. Call it and pass the output tensor (to_graph(model(x).sum(), "
                    "params=dict(model.named_parameters()))), or pass torch.fx.symbolic_trace(model) for a static fx "
                    "graph")
CANNOT_CONVERT = N_("cannot convert {kind}: pass a tensor with grad_fn, a grad_fn, a torch.fx.GraphModule or "
                    "torch.fx.Graph")
LEAF = N_("this tensor is a leaf (you created it; nothing computed it), so it has no grad_fn and no graph behind it. "
          "Compute something from it, e.g. to_graph(x * 2), to see the graph autograd records")
NO_HISTORY = N_("this tensor has no autograd history: it was computed from tensors without requires_grad=True, or "
                "inside torch.no_grad() / torch.inference_mode(), so PyTorch recorded no graph")
NO_COMPILER = N_("no C++ compiler found (CXX={cxx!r}, PATH searched for it): inductor cannot compile here, so the "
                 "graphs were captured with aot_eager (same graphs, not compiled)")
INDUCTOR_FAILED = N_("inductor failed to compile ({error}); captured with aot_eager instead")

__all__ = [
    "CANNOT_CONVERT",
    "FX_NAMES_ITS_NODES",
    "INDUCTOR_FAILED",
    "LEAF",
    "MODULE_IS_CODE",
    "NO_COMPILER",
    "NO_HISTORY",
    "CompileCapture",
    "CountingBackend",
    "autograd_graph",
    "capture_compiled",
    "count_autograd_nodes",
    "cxx_compiler",
    "fx_graph",
    "module_scopes",
    "to_graph",
]


# ---------------------------------------------------------------------------------------------- dispatch
def to_graph(
    obj: Any,
    *,
    params: Mapping[str, Any] | None = None,
    saved_tensors: bool = False,
    name: str | None = None,
) -> Graph:
    """Convert a PyTorch object to a :class:`course_lib.graph.Graph`.

    A tensor (or a ``grad_fn``): its autograd graph (``params=dict(model.named_parameters())`` names the leaves,
    ``saved_tensors=True`` lists what each backward function saved). A ``torch.fx.GraphModule`` / ``Graph``: its
    nodes one to one.
    """
    torch = load_torch()
    if isinstance(obj, (torch.fx.GraphModule, torch.fx.Graph)):
        if saved_tensors or params:
            raise TypeError(say(FX_NAMES_ITS_NODES))
        return fx_graph(obj, name=name)
    if isinstance(obj, (torch.Tensor, torch.autograd.graph.Node)):
        return autograd_graph(obj, params=params, saved_tensors=saved_tensors, name=name)
    if isinstance(obj, torch.nn.Module):
        raise TypeError(say(MODULE_IS_CODE, type=type(obj).__name__))
    raise TypeError(say(CANNOT_CONVERT, kind=f"{type(obj).__module__}.{type(obj).__name__}"))


# ---------------------------------------------------------------------------------------------- autograd
def _root_fn(torch: Any, obj: Any) -> Any:
    if isinstance(obj, torch.autograd.graph.Node):
        return obj
    if obj.grad_fn is not None:
        return obj.grad_fn
    if obj.requires_grad:
        raise ValueError(say(LEAF))
    raise ValueError(say(NO_HISTORY))


def _children(fn: Any) -> list[Any]:
    return [c for c, _ in fn.next_functions if c is not None]


def _post_order(root: Any) -> list[Any]:
    """Every autograd node reachable from ``root``, each after all of its ``next_functions`` (iterative DFS)."""
    done: dict[int, Any] = {}  # id -> fn; holding fn keeps the id from being reused during the walk
    order: list[Any] = []
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        fn, expanded = stack.pop()
        if expanded:
            if id(fn) not in done:
                done[id(fn)] = fn
                order.append(fn)
            continue
        if id(fn) in done:
            continue
        stack.append((fn, True))
        # reversed, so the first next_function is walked (and numbered) first
        stack.extend((c, False) for c in reversed(_children(fn)) if id(c) not in done)
    return order


def count_autograd_nodes(obj: Any) -> int:
    """How many autograd nodes stand behind a tensor: a plain walk over ``grad_fn.next_functions``.

    An independent count (a set of visited nodes, nothing else), so tests can check :func:`autograd_graph` by it.
    """
    torch = load_torch()
    seen: dict[int, Any] = {}
    stack = [_root_fn(torch, obj)]
    while stack:
        fn = stack.pop()
        if id(fn) not in seen:
            seen[id(fn)] = fn
            stack.extend(_children(fn))
    return len(seen)


def autograd_graph(
    obj: Any,
    *,
    params: Mapping[str, Any] | None = None,
    saved_tensors: bool = False,
    name: str | None = None,
) -> Graph:
    """The autograd graph behind a tensor: one IR node per autograd node (see the module's mapping table).

    >>> import torch
    >>> x = torch.randn(3, 4); model = torch.nn.Linear(4, 2)
    >>> g = autograd_graph(model(x).sum(), params=dict(model.named_parameters()))
    >>> [n.name for n in g.nodes]                                        # creation order: inputs first
    ['bias', 'weight', 'TBackward0', 'AddmmBackward0', 'SumBackward0']
    """
    torch = load_torch()
    root = _root_fn(torch, obj)
    names = {id(p): n for n, p in (params or {}).items()}
    ir = Graph(name or "autograd")
    made: dict[int, Node] = {}
    for fn in _post_order(root):
        op = type(fn).__name__
        attrs: dict[str, Any] = {}
        value = None
        variable = getattr(fn, "variable", None) if op == "AccumulateGrad" else None
        if variable is not None:
            shape = tuple(variable.shape)
            pname = names.get(id(variable))
            node_name = pname or f"leaf{shape}"
            scope = module_path_to_scope(pname.rpartition(".")[0]) if pname else ""
            attrs.update(shape=list(shape), dtype=str(variable.dtype).removeprefix("torch."))
            if pname:
                attrs["parameter"] = pname
            value = small_value(variable.detach().cpu().numpy()) if variable.numel() <= 16 else None
            kind = "variable"
        else:
            node_name, kind = op, "op"
            scope = module_path_to_scope(_module_tag(fn))
        if saved_tensors:
            saved = _saved(torch, fn)
            if saved:
                attrs["saved"] = saved
        node = ir.add(
            op,
            [made[id(c)] for c in _children(fn)],
            name=node_name,
            kind=kind,
            attrs=attrs,
            value=value,
            scope=scope,
            gradient=True,
        )
        made[id(fn)] = node
    out = made[id(root)]
    if isinstance(obj, torch.Tensor):
        out.attrs["output_shape"] = list(obj.shape)
    ir.mark_output(out)
    return ir


def _module_tag(fn: Any) -> str:
    """The module path :func:`module_scopes` stored on an autograd node, or ''."""
    try:
        return str(fn.metadata.get("module", ""))
    except (AttributeError, RuntimeError):  # a node type without metadata
        return ""


def _describe(torch: Any, v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        return f"tensor{tuple(v.shape)} {str(v.dtype).removeprefix('torch.')}"
    if isinstance(v, (list, tuple)) and v and isinstance(v[0], torch.Tensor):
        return [_describe(torch, t) for t in v]
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _saved(torch: Any, fn: Any) -> dict[str, Any]:
    """What a backward function keeps from the forward pass (torchviz reads the same ``_saved_*`` attributes)."""
    out: dict[str, Any] = {}
    for attr in sorted(a for a in dir(fn) if a.startswith("_saved_")):
        try:
            out[attr] = _describe(torch, getattr(fn, attr))
        except RuntimeError:  # "Trying to backward through the graph a second time ...": freed by backward()
            out[attr] = _("freed by backward()")
    return out


@contextlib.contextmanager
def module_scopes(model: Any) -> Iterator[None]:
    """While active, every autograd node created inside a submodule's forward is tagged with the module's path
    (in ``grad_fn.metadata["module"]``), so :func:`autograd_graph` can put it in that scope and the renderer can
    cluster a big autograd graph by module.

    The innermost module wins: its forward hook runs first and tags the nodes between its inputs and outputs; the
    enclosing module's hook stops at nodes already tagged.

    >>> import torch
    >>> model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    >>> with module_scopes(model):
    ...     loss = model(torch.randn(3, 4)).sum()
    >>> sorted({n.scope for n in autograd_graph(loss).nodes})      # a Sequential(Linear, ReLU, Linear)
    ['', '0', '1', '2']
    """
    torch = load_torch()
    pending: list[dict[int, Any]] = []  # one stop-set per active forward call (modules may nest or repeat)

    def grad_fns(obj: Any) -> dict[int, Any]:
        found: dict[int, Any] = {}
        stack = [obj]
        while stack:
            o = stack.pop()
            if isinstance(o, torch.Tensor):
                if o.grad_fn is not None:
                    found[id(o.grad_fn)] = o.grad_fn
            elif isinstance(o, (list, tuple)):
                stack.extend(o)
            elif isinstance(o, dict):
                stack.extend(o.values())
        return found

    def pre_hook(module: Any, args: Any, kwargs: Any) -> None:
        pending.append(grad_fns((args, kwargs)))

    def make_hook(path: str) -> Callable[..., None]:
        def hook(module: Any, args: Any, kwargs: Any, output: Any) -> None:
            stop = pending.pop()
            stack = list(grad_fns(output).values())
            while stack:
                fn = stack.pop()
                if id(fn) in stop or type(fn).__name__ == "AccumulateGrad" or "module" in fn.metadata:
                    continue
                fn.metadata["module"] = path
                stack.extend(_children(fn))

        return hook

    handles = []
    for path, module in model.named_modules():
        handles.append(module.register_forward_pre_hook(pre_hook, with_kwargs=True))
        handles.append(module.register_forward_hook(make_hook(path), with_kwargs=True))
    try:
        yield
    finally:
        for h in handles:
            h.remove()


# ---------------------------------------------------------------------------------------------- torch.fx
def _target_name(torch: Any, target: Any) -> str:
    if isinstance(target, str):
        return target
    if isinstance(target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        return str(target)  # "aten.addmm.default": the ATen op, as aot/inductor graphs show it
    return getattr(target, "__name__", None) or str(target)


def _qualified(torch: Any, target: Any) -> str:
    try:
        return torch.fx.node._get_qualified_name(target)
    except (AttributeError, TypeError, RuntimeError):  # odd callables: their plain name is enough
        return _target_name(torch, target)


def _module_stack_scope(fx_node: Any) -> str | None:
    stack = fx_node.meta.get("nn_module_stack")
    if not stack:
        return None
    last = list(stack.values())[-1]
    path = last[0] if isinstance(last, tuple) else str(last)
    return module_path_to_scope(path)


def fx_graph(obj: Any, *, name: str | None = None) -> Graph:
    """A ``torch.fx`` graph, one IR node per fx node (``output`` included), in fx's own order.

    >>> import torch
    >>> gm = torch.fx.symbolic_trace(torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU()))
    >>> [(n.name, n.op) for n in fx_graph(gm).nodes]
    [('input_1', 'placeholder'), ('_0', 'Linear'), ('_1', 'ReLU'), ('output', 'output')]
    """
    torch = load_torch()
    gm = obj if isinstance(obj, torch.fx.GraphModule) else None
    fx = obj.graph if gm is not None else obj
    ir = Graph(name or (f"fx {type(gm).__name__}" if gm is not None else "fx graph"))
    made: dict[Any, Node] = {}
    for n in fx.nodes:
        inputs = [made[a] for a in _fx_inputs(torch, n)]
        attrs: dict[str, Any] = {}
        value = None
        stack_scope = _module_stack_scope(n)
        if n.op == "placeholder":
            op, kind = "placeholder", "input"
            static = (n.meta.get("tensor_dict") or {}).get("_dynamo_static_input_type")
            if "_buffers_" in n.name:  # torch.compile lifts module buffers and parameters to inputs
                kind = "constant"
            elif "_parameters_" in n.name or static:
                kind = "variable"
            scope = stack_scope if kind != "input" and stack_scope is not None else ""
        elif n.op == "get_attr":
            op, kind, value = "get_attr", *_get_attr(torch, gm, str(n.target))
            scope = module_path_to_scope(str(n.target).rpartition(".")[0])
        elif n.op == "call_module":
            sub = gm.get_submodule(str(n.target)) if gm is not None else None
            op, kind = (type(sub).__name__ if sub is not None else str(n.target)), "op"
            scope = stack_scope if stack_scope is not None else module_path_to_scope(str(n.target).rpartition(".")[0])
        elif n.op == "output":
            op, kind, scope = "output", "op", ""
        else:  # call_function, call_method
            op, kind = _target_name(torch, n.target), "op"
            scope = stack_scope or ""
        attrs["fx_op"] = n.op
        attrs["target"] = _qualified(torch, n.target) if n.op == "call_function" else str(n.target)
        val = n.meta.get("val", n.meta.get("example_value"))
        if isinstance(val, torch.Tensor):
            attrs["shape"] = [int(s) if isinstance(s, int) else str(s) for s in val.shape]
        made[n] = ir.add(op, inputs, name=n.name, kind=kind, attrs=attrs, value=value, scope=scope)
        if n.op == "output":
            ir.mark_output(made[n])
    return ir


def _fx_inputs(torch: Any, fx_node: Any) -> list[Any]:
    """Every fx node among ``fx_node``'s args and kwargs, in order, repeats kept (``mul(x, x)`` reads x twice)."""
    found: list[Any] = []
    torch.fx.node.map_arg((fx_node.args, fx_node.kwargs), found.append)
    return found


def _get_attr(torch: Any, gm: Any, target: str) -> tuple[str, Any]:
    """(kind, small value) of a ``get_attr`` target: a Parameter is a variable, a buffer or tensor a constant."""
    obj: Any = gm
    for part in target.split("."):
        obj = getattr(obj, part, None) if obj is not None else None
    if not isinstance(obj, torch.Tensor):
        return "constant", None
    kind = "variable" if isinstance(obj, torch.nn.Parameter) else "constant"
    return kind, small_value(obj.detach().cpu().numpy()) if obj.numel() <= 16 else None


# ---------------------------------------------------------------------------------------------- torch.compile
def cxx_compiler() -> str | None:
    """The C++ compiler inductor would use (``$CXX``, else its configured default ``g++``), if it is on PATH.

    Read from the environment at call time (inductor reads ``CXX`` once, at import), so a notebook or a test that
    hides the compiler sees the fallback at once.
    """
    candidate = os.environ.get("CXX")
    if candidate is None:
        try:
            from torch._inductor import config

            configured = config.cpp.cxx
            candidates = [c for c in (configured if isinstance(configured, (list, tuple)) else [configured]) if c]
        except (ImportError, AttributeError):  # inductor missing from this build: it could not compile anyway
            return None
        candidate = candidates[-1] if candidates else "g++"
    return shutil.which(candidate)


class CountingBackend:
    """A ``torch.compile`` backend that records every FX graph Dynamo hands it, then runs it with ``inner``.

    ``inner``: ``"eager"`` (run the captured graph as is: capture costs ~1 s, no compiler), ``"aot_eager"`` (also
    traces the backward with AOTAutograd, still no C++) or ``"inductor"`` (really compiles: C++ compiler, 10-20 s).
    ``count`` is the number of graphs captured so far: 1 after a first call, +1 per graph break, +1 per recompile.
    """

    def __init__(self, inner: str = "eager") -> None:
        self.inner = inner
        self.graphs: list[Any] = []

    @property
    def count(self) -> int:
        return len(self.graphs)

    def __call__(self, gm: Any, example_inputs: list[Any]) -> Callable[..., Any]:
        self.graphs.append(gm)
        if self.inner == "eager":
            return gm.forward
        from torch._dynamo import lookup_backend

        try:
            return lookup_backend(self.inner)(gm, example_inputs)
        except BaseException:
            # e.g. inductor's TensorifyScalarRestartAnalysis: Dynamo restarts and hands us the graph again, so
            # this attempt is not a captured graph (counting it would count one function twice)
            self.graphs.pop()
            raise


@dataclass
class CompileCapture:
    """What :func:`capture_compiled` saw: the FX graphs, the backend really used, and why if it differs."""

    compiled: Callable[..., Any]
    backend: CountingBackend
    requested: str
    output: Any = None
    fallback_reason: str | None = None
    graphs: list[Any] = field(init=False)

    def __post_init__(self) -> None:
        self.graphs = self.backend.graphs  # the same list: later calls of `compiled` that recompile add to it

    @property
    def count(self) -> int:
        return self.backend.count

    @property
    def used(self) -> str:
        return self.backend.inner


def capture_compiled(
    fn: Callable[..., Any], *example_inputs: Any, backend: str = "eager", **compile_options: Any
) -> CompileCapture:
    """Compile ``fn`` (a function or module) with ``torch.compile``, call it once on ``example_inputs``, and return
    the FX graphs Dynamo captured (:class:`CompileCapture`: ``.graphs``, ``.count``, ``.output``, ``.compiled``).

    ``backend="eager"`` (the default) captures without compiling, so a notebook cell takes about a second.
    ``backend="inductor"`` is honoured only when asked for, and falls back to ``"aot_eager"`` (with a warning and
    ``fallback_reason``) when no C++ compiler is available -- inductor would otherwise fail with
    ``InvalidCxxCompiler`` after a long wait.

    >>> cap = capture_compiled(model, torch.randn(3, 4))            # doctest: +SKIP
    >>> cap.count, len(cap.graphs[0].graph.nodes)                   # doctest: +SKIP
    (1, 9)
    """
    torch = load_torch()
    reason = None
    inner = backend
    if backend == "inductor" and cxx_compiler() is None:
        inner = "aot_eager"
        reason = say(NO_COMPILER, cxx=os.environ.get("CXX", ""))
        warnings.warn(reason, RuntimeWarning, stacklevel=2)
    counter = CountingBackend(inner)
    compiled = torch.compile(fn, backend=counter, **compile_options)
    try:
        output = compiled(*example_inputs)
    except Exception as err:  # inductor found a compiler name but could not use it
        if inner != "inductor" or "CxxCompiler" not in f"{type(err).__name__} {err}":
            raise
        reason = say(INDUCTOR_FAILED, error=type(err).__name__)
        warnings.warn(reason, RuntimeWarning, stacklevel=2)
        counter = CountingBackend("aot_eager")
        compiled = torch.compile(fn, backend=counter, **compile_options)
        output = compiled(*example_inputs)
    return CompileCapture(compiled=compiled, backend=counter, requested=backend, output=output, fallback_reason=reason)
