"""The real frameworks, running the course's own programs: one program, built by TensorFlow and by PyTorch.

A course program is ``program(ops, **inputs)`` (see :mod:`course_lib.programs`), and a typed expression
(:func:`course_lib.expr.parse`) is one too. Give it an ``ops`` namespace of TensorFlow or PyTorch functions and the
*same* source builds a real ``tf.Graph``, a real ``tf.function`` graph or a real autograd graph, which
:func:`course_lib.draw` then draws next to ours:

=================================  ========================================================================
``tf1_graph(program)``             TF1 style: one ``tf.compat.v1.placeholder`` per input, inside
                                   ``with tf.Graph().as_default():`` (eager stays on everywhere else)
``tf_function_graph(program)``     TF2 style: the ``ConcreteFunction`` a ``tf.function`` traces
``torch_output(program, inputs)``  define-by-run: leaves with ``requires_grad=True``, and the output tensor
=================================  ========================================================================

TensorFlow and PyTorch are imported through :mod:`course_lib.adapters.loader` (quietly); its
:func:`load_tensorflow` and :func:`load_torch` are importable from here too, the spelling the notebooks use
(``tf = frameworks.load_tensorflow()``).

Nothing here runs at ``import course_lib``: TensorFlow and PyTorch are imported by the functions that need them.

>>> from course_lib import expr
>>> input_names(expr.parse("sin(x * w + 1)"))
['x', 'w']
>>> g, xs, y = tf1_graph(expr.parse("sin(x * w + 1)"))                 # doctest: +SKIP
>>> [op.type for op in g.get_operations()]                            # doctest: +SKIP
['Placeholder', 'Placeholder', 'Mul', 'Const', 'AddV2', 'Sin']
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType, SimpleNamespace
from typing import Any

from .. import ops as course_ops
from ..i18n import N_, say
from .loader import load_tensorflow, load_torch

NO_VALUE = N_("no value given for {names}: pass inputs={{{names}: ...}}")

__all__ = [
    "input_names",
    "load_tensorflow",
    "load_torch",
    "node_counts",
    "tf1_graph",
    "tf1_loop_graph",
    "tf_function_graph",
    "tf_ops",
    "torch_ops",
    "torch_output",
]



def _namespace(module: ModuleType, framework: str, cond: Callable[..., Any]) -> SimpleNamespace:
    """The op table's functions under the framework's own names (``OPS["log"].tf == "math.log"``), and ``cond``."""
    ops: dict[str, Any] = {}
    for name in course_ops.functions():
        path = getattr(course_ops.OPS[name], framework)
        if path is None:
            continue  # an op the framework has no function for: a program using it fails with AttributeError
        obj: Any = module
        for part in path.split("."):
            obj = getattr(obj, part)
        ops[name] = obj
    ops["cond"] = cond
    return SimpleNamespace(**ops)


def tf_ops() -> SimpleNamespace:
    """The course's op functions as TensorFlow ops (``log`` is ``tf.math.log``, ``sum`` is ``tf.reduce_sum`` ...);
    ``cond`` is ``tf.cond``. Arithmetic (``+ - * / ** @``) needs nothing: tensors overload the operators."""
    tf = load_tensorflow()
    return _namespace(tf, "tf", lambda pred, true_fn, false_fn: tf.cond(pred, true_fn, false_fn))


def torch_ops() -> SimpleNamespace:
    """The course's op functions as PyTorch functions; ``cond`` is a plain Python ``if`` on the value, which is
    exactly what define-by-run allows."""
    torch = load_torch()
    return _namespace(torch, "torch", lambda pred, true_fn, false_fn: true_fn() if bool(pred) else false_fn())


def input_names(program: Any) -> list[str]:
    """The input names of a program (its parameters after ``ops``) or of a parsed expression (its variables)."""
    if hasattr(program, "variables") and hasattr(program, "program"):
        return list(program.variables)
    params = list(inspect.signature(program).parameters.values())
    return [p.name for p in params[1:] if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def tf1_graph(program: Any, names: Sequence[str] | None = None, *, dtype: str = "float64",
              name: str | None = None) -> tuple[Any, dict[str, Any], Any]:
    """Build ``program`` the TensorFlow 1 way: a fresh ``tf.Graph`` with one scalar ``tf.compat.v1.placeholder``
    per input. Returns ``(graph, {name: placeholder}, output)``; run it with ``tf.compat.v1.Session(graph=graph)``.

    ``name``: also wrap the output in ``tf.identity(..., name=name)`` so it can be fetched by that name.
    The graph is built inside ``with graph.as_default():`` only, so eager execution stays on for the rest of the
    notebook (never ``tf.compat.v1.disable_eager_execution()``, which is process-wide).
    """
    tf = load_tensorflow()
    ops = tf_ops()
    names = list(names) if names is not None else input_names(program)
    with tf.Graph().as_default() as graph:
        xs = {n: tf.compat.v1.placeholder(getattr(tf, dtype), shape=(), name=n) for n in names}
        out = program(ops, **xs)
        if name:
            out = tf.identity(out, name=name)
    return graph, xs, out


def tf_function_graph(program: Any, names: Sequence[str] | None = None, *, dtype: str = "float64") -> Any:
    """The ``ConcreteFunction`` that ``tf.function`` traces for ``program`` with one scalar input per name (its
    ``.graph`` is a real TensorFlow graph; :func:`course_lib.draw` draws it). AutoGraph is off: these programs
    have no Python control flow on tensors to convert."""
    tf = load_tensorflow()
    ops = tf_ops()
    names = list(names) if names is not None else input_names(program)

    def traced(*args: Any) -> Any:
        return program(ops, **dict(zip(names, args, strict=True)))

    traced.__name__ = getattr(program, "__name__", "expression")
    specs = [tf.TensorSpec([], getattr(tf, dtype), name=n) for n in names]
    return tf.function(traced, autograph=False).get_concrete_function(*specs)


def torch_output(program: Any, inputs: Mapping[str, float]) -> tuple[Any, dict[str, Any]]:
    """Run ``program`` define-by-run in PyTorch: one float64 leaf with ``requires_grad=True`` per input.

    Returns ``(output, leaves)``; draw the autograd graph with ``cl.draw(output, params=leaves)`` so the leaves
    carry the inputs' names.
    """
    torch = load_torch()
    ops = torch_ops()
    missing = [n for n in input_names(program) if n not in inputs]
    if missing:
        raise ValueError(say(NO_VALUE, names=", ".join(missing)))
    leaves = {n: torch.tensor(float(v), dtype=torch.float64, requires_grad=True) for n, v in inputs.items()}
    return program(ops, **leaves), leaves


def tf1_loop_graph(limit: int = 10, *, control_flow_v2: bool = False) -> Any:
    """A ``tf.Graph`` holding ``tf.compat.v1.while_loop(i < limit, i + 1)``, built with TensorFlow 1's original
    control flow (``control_flow_v2=False``) or TensorFlow 2's (``True``); the process-wide setting is restored.

    Control flow v1 writes the loop *into the graph*: ``Enter``, ``Merge``, ``Switch``, ``NextIteration``, ``Exit``,
    and ``Merge`` reads ``NextIteration``, which (through the body) reads ``Merge``: a real cycle in the GraphDef,
    run by the executor one "frame" per iteration. Control flow v2 keeps the outer graph acyclic: one
    ``While``/``StatelessWhile`` op whose condition and body are separate functions.
    """
    tf = load_tensorflow()
    was_v2 = tf.compat.v1.control_flow_v2_enabled()
    try:
        if control_flow_v2:
            tf.compat.v1.enable_control_flow_v2()
        else:
            tf.compat.v1.disable_control_flow_v2()
        with tf.Graph().as_default() as graph:
            i = tf.constant(0, name="i")
            tf.compat.v1.while_loop(lambda i: i < limit, lambda i: i + 1, [i], name="loop")
    finally:
        if was_v2:
            tf.compat.v1.enable_control_flow_v2()
        else:
            tf.compat.v1.disable_control_flow_v2()
    return graph


def node_counts(program: Any, inputs: Mapping[str, float]) -> dict[str, int]:
    """How many nodes each way of building ``program`` makes, forward only (no gradients):

    ``ours (define-then-run)``: nodes of the static graph; ``ours (define-by-run)``: nodes of the recorded history;
    ``TF tf.compat.v1 graph``: operations of the TF1 graph; ``TF tf.function``: operations of the traced graph
    (one more, the ``Identity`` of the returned value); ``PyTorch autograd``: nodes behind the output's
    ``grad_fn`` (backward functions plus one ``AccumulateGrad`` per leaf; constants are no nodes there).
    """
    from .. import dynamic as dy
    from .. import static as st
    from . import torch as torch_adapter

    names = input_names(program)
    g = st.Graph()
    with g.as_default():
        program(st, **{n: st.placeholder(n) for n in names})
    recorded = program(dy, **{n: dy.Tensor(float(inputs[n]), requires_grad=True, name=n) for n in names})
    tf_graph, _, _ = tf1_graph(program, names)
    out, _leaves = torch_output(program, {n: inputs[n] for n in names})
    return {
        "ours (define-then-run)": len(g),
        "ours (define-by-run)": len(recorded.graph()),
        "TF tf.compat.v1 graph": len(tf_graph.get_operations()),
        "TF tf.function": len(tf_function_graph(program, names).graph.get_operations()),
        "PyTorch autograd": torch_adapter.count_autograd_nodes(out),
    }
