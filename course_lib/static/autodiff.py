"""Autodiff as a graph transformation (``tf.gradients``): the derivative is more graph, built before anything runs.

Reverse mode: walk the nodes between the ``xs`` and the ``ys`` from the outputs back; each op turns the gradient of
its output into gradients of its inputs with its local derivative from :data:`course_lib.ops.OPS` — the *same*
rule the dynamic engine runs on numbers, here called with :data:`SYMBOLIC`, whose functions add nodes. A node used
twice receives the sum of both contributions (an ``add`` node).

>>> from course_lib import static as st
>>> g = st.Graph()
>>> with g.as_default():
...     x = st.placeholder("x")
...     y = st.sin(x)
...     (dx,) = gradients(y, [x])
>>> dx.op, float(st.Session(g).run(dx, feed_dict={x: 0.0}))
('mul', 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import graph as ir
from .. import ops as _ops
from ..i18n import N_, say
from .build import Graph, Tensor, apply, as_tensor, cond, constant

__all__ = ["SCOPE", "SYMBOLIC", "gradients"]

#: the name scope gradients() builds in (TensorFlow 1's tf.gradients: name="gradients"), what a drawing folds
SCOPE = "gradients"

# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
NO_SUCH_OP = N_("no op {name!r} in course_lib.ops.OPS")
NO_OUTPUT = N_("gradients() needs at least one output y")
SEEDS_PER_OUTPUT = N_("gradients(ys, xs, grad_ys): {seeds} seeds for {ys} outputs; give one grad_ys tensor per y, "
                      "or none (ones)")
NOT_TENSORS = N_("gradients(ys, xs): {what} must be tensors of the graph (or lists of them); got {kind} {value}")
NO_GRAD_RULE = N_("no gradient rule for op {name!r}: it is not in course_lib.ops.OPS")


class _Symbolic:
    """The ``ops`` namespace a gradient rule sees in define-then-run: ``ops.cos(x)`` adds a ``cos`` node."""

    @staticmethod
    def sum_to(grad: Tensor, like: Tensor) -> Tensor:
        # Undo broadcasting only where shapes may differ: equal known shapes need no node.
        return grad if grad.shape is not None and grad.shape == like.shape else apply("sum_to", grad, like)

    def __getattr__(self, name: str) -> Any:
        if name not in _ops.OPS:
            raise AttributeError(say(NO_SUCH_OP, name=name))
        return lambda *args, **attrs: apply(name, *args, **attrs)


SYMBOLIC = _Symbolic()


def gradients(ys: Tensor | Sequence[Tensor], xs: Tensor | Sequence[Tensor],
              grad_ys: Tensor | Sequence[Tensor] | None = None) -> list[Tensor | None]:
    """Symbolic reverse mode: add nodes computing ``d(sum of ys)/dx`` for each x; returns them (``tf.gradients``).

    An ``x`` the ys do not depend on gets ``None``, as in TensorFlow. Through a ``cond``, each branch's gradient is
    itself built inside a ``cond`` on the same predicate, so only the taken branch is differentiated at run time.
    """
    ys = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    xs = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    if not ys:
        raise ValueError(say(NO_OUTPUT))
    for what, ts in (("ys", ys), ("xs", xs)):
        bad = [t for t in ts if not isinstance(t, Tensor)]
        if bad:
            raise TypeError(say(NOT_TENSORS, what=what, kind=type(bad[0]).__name__, value=f"{bad[0]!r:.40}"))
    graph = ys[0].graph
    for t in ys + xs:
        as_tensor(t, graph)
    if grad_ys is None:
        seeds = [constant(1.0, "grad_ys", graph=graph) if y.shape == () else _ones_like(y) for y in ys]
    else:
        seeds = [as_tensor(s, graph) for s in ([grad_ys] if isinstance(grad_ys, Tensor) else grad_ys)]
        if len(seeds) != len(ys):
            raise ValueError(say(SEEDS_PER_OUTPUT, seeds=len(seeds), ys=len(ys)))
    with graph.name_scope(SCOPE), graph.building_gradients():
        return _backprop(graph, ys, xs, seeds)


def _ones_like(y: Tensor) -> Tensor:
    with y.graph.building_gradients():
        return apply("ones_like", y, name="grad_ys")


def _live(order: list[ir.Node], x_ids: set[int]) -> set[int]:
    """Ids of the nodes that depend on some x: only they carry gradient."""
    live: set[int] = set()
    for n in order:
        if n.id in x_ids or any(i.id in live for i in n.inputs):
            live.add(n.id)
    return live


def _backprop(graph: Graph, ys: list[Tensor], xs: list[Tensor], seeds: list[Tensor]) -> list[Tensor | None]:
    x_ids = {x.node.id for x in xs}
    order = graph.topological_order([y.node for y in ys])
    live = _live(order, x_ids)
    pending: dict[int, list[Tensor]] = {}
    for y, s in zip(ys, seeds, strict=True):
        pending.setdefault(y.node.id, []).append(s)
    total: dict[int, Tensor] = {}
    for n in reversed(order):
        parts = pending.pop(n.id, None)
        if not parts or n.id not in live:
            continue
        g = parts[0]
        for p in parts[1:]:
            g = apply("add", g, p)
        total[n.id] = g
        if n.kind != "op" or n.id in x_ids and not any(i.id in live for i in n.inputs):
            continue
        contribs = _cond_grads(graph, n, g, live) if n.op == "cond" else _local_grads(graph, n, g)
        for i, c in contribs:
            if c is not None and i.id in live:
                pending.setdefault(i.id, []).append(c)
    return [total.get(x.node.id) for x in xs]


def _local_grads(graph: Graph, n: ir.Node, g: Tensor) -> list[tuple[ir.Node, Tensor | None]]:
    """The op's rule from the table, called with symbols: it returns new nodes, one per input (or None)."""
    op = _ops.OPS.get(n.op)
    if op is None:
        raise NotImplementedError(say(NO_GRAD_RULE, name=n.op))
    if op.grad is None:
        return [(i, None) for i in n.inputs]
    attrs = {k: n.attrs[k] for k in op.attrs if k in n.attrs}
    # the rule sees symbols for the existing nodes: its inputs and its output
    grads = op.grad(SYMBOLIC, g, *[Tensor(i, graph) for i in n.inputs], Tensor(n, graph), **attrs)
    return list(zip(n.inputs, grads, strict=True))


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
                return r if r is not None else apply("zeros_like", Tensor(a, graph))

            def zeros(a: ir.Node = a) -> Tensor:
                return apply("zeros_like", Tensor(a, graph))

            fns = (grad_branch, zeros) if side else (zeros, grad_branch)
            out.append((a, cond(Tensor(pred, graph), fns[0], fns[1], name=f"{n.name.split('/')[-1]}_grad")))
    return out
