"""Compiling a graph into a plan: the "compilation step" of define-then-run.

For one request (fetches, fed placeholders), :func:`compile_plan` turns the whole graph into straight-line steps:

1. **prune** — keep only what the fetches need, stopping at fed tensors (they are cut points);
2. **validate** — every needed placeholder is fed (else :class:`MissingFeedError`, naming it);
3. **fold** constants and **merge** common subexpressions (same op on the same inputs: computed once);
4. **emit** — one register per live value, one closure per step; a ``cond`` runs one block of steps.

When shape inference has proved every value a single number, the plan is *specialized* to Python floats and the
``math`` module (each op's ``scalar`` forward): about ten times less overhead per op than numpy on 0-d arrays. A
kernel that raises (``log(-1)``, overflow, ``1/0``) falls back to its numpy twin, so inf and nan come out as numpy
gives them. :meth:`Plan.source` shows the plan as Python, the way ``torch.fx`` shows generated code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import graph as ir
from .. import ops as _ops
from ..i18n import N_, say
from ..i18n import gettext as _
from .build import Graph, MissingFeedError, ShapeError

__all__ = ["Plan", "compile_plan"]

Step = Callable[[list[Any]], None]

# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
UNKNOWN_OP_IN_NODE = N_("unknown op {op!r} in node '{name}'; the static engine knows {ops}")
MISSING_FEED = N_("You must feed a value for placeholder '{name}': fetching {users} needs it. Pass {feed} to "
                  "Session.run")  # feed: code, feed_dict={x: value}
RUN_SHAPES = N_("running node '{name}' = {op}: input shapes {shapes} do not fit")
# the comments of a plan's source (Plan.source), in the language of the moment the plan was compiled
SPECIALIZED = N_("specialized: shape inference proved every value a single number -> float math")
CONSTANT = N_("constant")
FOLDED = N_("folded: {op} of constants")
BRANCH_TAKEN = N_("{name}: only the branch taken runs")


@dataclass(frozen=True)
class Plan:
    """What ``Session.run`` executes for one (fetches, fed placeholders): straight-line steps over registers.

    ``consts`` holds the initial registers (folded constants, None elsewhere); ``const_nodes`` which node each
    folded register belongs to; ``scalar`` whether the plan is specialized to Python floats. ``report`` says what
    compiling did (nodes before/after pruning, constants folded, duplicates merged, steps, scalar).
    """

    fetches: tuple[ir.Node, ...]
    fed: tuple[ir.Node, ...]
    steps: list[Step]
    fetch_regs: list[int]
    feed_regs: list[int]
    var_regs: list[tuple[int, ir.Node]]
    nregs: int
    lines: list[str]
    report: dict[str, int]
    graph_version: int
    consts: list[Any]
    const_nodes: list[tuple[ir.Node, int]]
    scalar: bool

    def _registers(self, feed_values: Sequence[np.ndarray]) -> list[Any]:
        regs: list[Any] = self.consts.copy()
        cast = float if self.scalar else _same
        for r, v in zip(self.feed_regs, feed_values, strict=True):
            regs[r] = cast(v)
        for r, node in self.var_regs:
            regs[r] = cast(node.value)
        return regs

    def run(self, feed_values: Sequence[np.ndarray]) -> list[Any]:
        regs = self._registers(feed_values)
        with np.errstate(all="ignore"):  # inf/nan are values the student should see, not warnings
            for step in self.steps:
                step(regs)
        return [regs[r] for r in self.fetch_regs]

    def run_observed(self, feed_values: Sequence[np.ndarray]) -> list[tuple[ir.Node, np.ndarray]]:
        """Like :meth:`run`, but returns (node, value) for every value in the order it appears: fed and
        variable values and folded constants first, then each executed step — only the taken branch of a cond,
        whose own constants appear when the branch is entered."""
        regs = self._registers(feed_values)
        seen: list[tuple[ir.Node, Any]] = list(zip(self.fed, feed_values, strict=True))
        seen += [(node, node.value) for _, node in self.var_regs]
        waiting = [(n, r) for n, r in self.const_nodes if n.attrs.get("branch")]
        seen += [(n, regs[r]) for n, r in self.const_nodes if not n.attrs.get("branch")]
        taken: set[Any] = set()

        def walk(steps: list[Any]) -> None:  # recursion only as deep as conds are nested
            for step in steps:
                if step.node.op == "cond":
                    side = _truth(regs[step.pred])
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
        """The plan as straight-line Python (for reading; it is never executed by the engine)."""
        return "\n".join(self.lines)


def _same(v: Any) -> Any:
    return v


# ---------------------------------------------------------------------- 1-2. prune and validate
def _prune(graph: Graph, fetches: Sequence[ir.Node], fed_ids: set[int]) -> list[ir.Node]:
    """The nodes the fetches need, in topological order: walk back from the fetches, stopping at fed tensors (a
    node inside a cond's branch also needs that cond, which computes it)."""
    cond_of = _branch_conds(graph)

    def cut(n: ir.Node) -> tuple[ir.Node, ...]:
        return () if n.id in fed_ids else n.inputs

    def needs(n: ir.Node) -> list[ir.Node]:
        return [*cut(n), *(c for key in n.attrs.get("branch", ()) for c in cond_of.get(key, ()))]

    return ir.topological(ir.ancestors(fetches, needs), cut)


def _branch_conds(graph: Graph) -> dict[tuple[int, int, bool], list[ir.Node]]:
    """Branch entry (cond key, pred id, side) → the cond node that runs that branch."""
    out: dict[tuple[int, int, bool], list[ir.Node]] = {}
    for n in graph.nodes:
        if n.op == "cond":
            for side in (True, False):
                out[(n.attrs["cond_key"], n.inputs[0].id, side)] = [n]
    return out


def _validate(graph: Graph, order: list[ir.Node], fetches: Sequence[ir.Node], fed_ids: set[int]) -> None:
    for n in order:
        if n.kind == "op" and n.op != "cond" and n.op not in _ops.OPS:
            raise ValueError(say(UNKNOWN_OP_IN_NODE, op=n.op, name=n.name, ops=", ".join(_ops.OPS)))
        if n.kind == "input" and n.id not in fed_ids:
            users = [f.name for f in fetches if n in graph.ancestors([f])] or [f.name for f in fetches]
            raise MissingFeedError(say(MISSING_FEED, name=n.name, users=", ".join(repr(u) for u in users),
                                       feed=f"feed_dict={{{n.name}: value}}"))


# ---------------------------------------------------------------------- 3. fold constants, merge duplicates
@dataclass
class _Simplified:
    const: dict[int, Any]  # node id -> value known at compile time
    rep: dict[int, ir.Node]  # node id -> the earlier node computing the same thing
    folded: int = 0
    merged: int = 0


def _fold_and_merge(order: list[ir.Node], fed_ids: set[int]) -> _Simplified:
    s = _Simplified({}, {})
    seen: dict[tuple[Any, ...], ir.Node] = {}
    for n in order:
        if n.id in fed_ids or n.kind not in ("constant", "op"):
            continue
        if n.kind == "constant":
            s.const[n.id] = n.value
            continue
        ins = [s.rep.get(i.id, i) for i in n.inputs]
        if n.op != "cond" and ins and all(i.id in s.const for i in ins):
            with np.errstate(all="ignore"):
                s.const[n.id] = _forward(n, [s.const[i.id] for i in ins])
            s.folded += 1
            continue
        key_ins = tuple(i.id for i in ins)
        if n.op != "cond" and _ops.OPS[n.op].commutative:
            key_ins = tuple(sorted(key_ins))
        key = (n.op, key_ins, tuple(sorted((k, repr(v)) for k, v in n.attrs.items() if k != "shape")))
        if key in seen and n.op != "cond":
            s.rep[n.id] = seen[key]
            s.merged += 1
        else:
            seen[key] = n
    return s


def _forward(n: ir.Node, args: list[Any]) -> np.ndarray:
    op = _ops.OPS[n.op]
    return op.forward(*args, **{k: n.attrs[k] for k in op.attrs if k in n.attrs})


# ---------------------------------------------------------------------- 4. emit
def compile_plan(graph: Graph, fetches: Sequence[ir.Node], fed: Sequence[ir.Node]) -> Plan:
    """Validate, prune, fold constants, merge duplicates, emit steps. See :class:`Plan`."""
    fed_ids = {n.id for n in fed}
    order = _prune(graph, fetches, fed_ids)
    fed = [n for n in fed if n.id in {m.id for m in order}]  # feeding a tensor the fetches do not need is allowed
    _validate(graph, order, fetches, fed_ids)
    s = _fold_and_merge(order, fed_ids)
    kept = [n for n in order if n.id not in s.rep]
    reg = {n.id: k for k, n in enumerate(kept)}
    reg.update({nid: reg[r.id] for nid, r in s.rep.items()})
    scalar = all(n.attrs.get("shape") == () and (n.kind != "op" or n.op == "cond" or _ops.OPS[n.op].scalar)
                 for n in kept)
    names = {nid: _pyname(s.rep.get(nid, graph.nodes[nid])) for nid in reg}
    emitted = [n for n in kept if n.kind == "op" and n.id not in s.const and n.id not in fed_ids]
    steps, body = _emit(emitted, reg, names, (), 1, scalar)
    lines = _header(kept, fed, fetches, emitted, s, names, fed_ids, scalar) + body
    lines.append(f"    return {', '.join(names[f.id] for f in fetches)}")
    consts: list[Any] = [None] * len(kept)
    folded = [(n, reg[n.id]) for n in kept if n.id in s.const and n.id not in fed_ids]
    for n, r in folded:
        consts[r] = float(s.const[n.id]) if scalar else s.const[n.id]
    report = {"graph_nodes": len(graph), "needed": len(order), "folded": s.folded, "merged": s.merged,
              "steps": len(kept) - len(s.const), "scalar": int(scalar)}
    return Plan(tuple(fetches), tuple(fed), steps, [reg[f.id] for f in fetches], [reg[n.id] for n in fed],
                [(reg[n.id], n) for n in kept if n.kind == "variable" and n.id not in fed_ids],  # a feed wins (TF1)
                len(kept), lines, report, graph.version,
                consts, folded, scalar)


def _header(kept: list[ir.Node], fed: Sequence[ir.Node], fetches: Sequence[ir.Node], emitted: list[ir.Node],
            s: _Simplified, names: dict[int, str], fed_ids: set[int], scalar: bool) -> list[str]:
    """The plan source before its steps: signature, constants, folded values, variable reads."""
    lines = [f"def plan({', '.join(names[n.id] for n in fed)}):"]
    if scalar:
        lines.append(f"    # {_(SPECIALIZED)}")
    used = {i.id for n in emitted for i in n.inputs} | {s.rep.get(f.id, f).id for f in fetches}
    constant, folded = _(CONSTANT), _(FOLDED)
    lines += [f"    {names[n.id]} = {_fmt(s.const[n.id])}  # {constant}" for n in kept
              if n.kind == "constant" and n.id in used and n.id not in fed_ids]
    lines += [f"    {names[n.id]} = {_fmt(s.const[n.id])}  # {folded.format(op=n.op)}" for n in kept
              if n.id in s.const and n.id not in fed_ids and n.kind != "constant"]
    lines += [f"    {names[n.id]} = read_variable({n.name!r})" for n in kept if n.kind == "variable"
              and n.id not in fed_ids]
    return lines


def _emit(nodes: list[ir.Node], reg: dict[int, int], names: dict[int, str], context: tuple[Any, ...],
          depth: int, scalar: bool) -> tuple[list[Step], list[str]]:
    """Steps and source lines for ``nodes`` at branch ``context``; nodes of deeper branches go in cond blocks."""
    steps: list[Step] = []
    lines: list[str] = []
    pad = "    " * depth
    here = [n for n in nodes if n.attrs.get("branch", ())[: len(context)] == context]
    for n in [n for n in here if len(n.attrs.get("branch", ())) == len(context)]:
        if n.op == "cond":
            step, src = _emit_cond(n, here, reg, names, context, depth, scalar)
            lines += src
        else:
            step = _step(n, [reg[i.id] for i in n.inputs], reg[n.id], scalar)
            op = _ops.OPS[n.op]
            lines.append(f"{pad}{names[n.id]} = {op.code([names[i.id] for i in n.inputs], n.attrs)}")
        step.node, step.out = n, reg[n.id]  # type: ignore[attr-defined]
        steps.append(step)
    return steps, lines


def _emit_cond(n: ir.Node, here: list[ir.Node], reg: dict[int, int], names: dict[int, str],
               context: tuple[Any, ...], depth: int, scalar: bool) -> tuple[Step, list[str]]:
    pad = "    " * depth
    pred = n.inputs[0]
    blocks = []
    for side, out in ((True, n.inputs[1]), (False, n.inputs[2])):
        sub = context + ((n.attrs["cond_key"], pred.id, side),)
        inner = [m for m in here if m.attrs.get("branch", ())[: len(sub)] == sub]
        s, src = _emit(inner, reg, names, sub, depth + 1, scalar)
        blocks.append((s, reg[out.id], src))
    lines = [f"{pad}if {names[pred.id]}:  # {_(BRANCH_TAKEN).format(name=n.name)}"]
    lines += blocks[0][2] + [f"{pad}    {names[n.id]} = {names[n.inputs[1].id]}", f"{pad}else:"]
    lines += blocks[1][2] + [f"{pad}    {names[n.id]} = {names[n.inputs[2].id]}"]
    return _cond_step(reg[pred.id], reg[n.id], blocks[0][:2], blocks[1][:2], scalar), lines


def _step(n: ir.Node, ins: list[int], out: int, scalar: bool) -> Step:
    """One plan step: a closure reading input registers and writing its output register."""
    op = _ops.OPS[n.op]
    kw = {k: n.attrs[k] for k in op.attrs if k in n.attrs}
    if scalar:
        return _scalar_step(op.scalar, op.forward, kw, ins, out)  # type: ignore[arg-type]
    f, name = op.forward, n.name

    def fail(shapes: list[Any]) -> ShapeError:
        return ShapeError(say(RUN_SHAPES, name=name, op=n.op, shapes=", ".join(map(str, shapes))))

    if op.check_shapes and not all(_known(i.attrs.get("shape")) for i in n.inputs):
        def step(r: list[Any]) -> None:  # shapes the build could not check (numpy accepts more than the course)
            args = [r[i] for i in ins]
            op.infer_shape([np.shape(a) for a in args], kw)
            r[out] = f(*args, **kw)
    elif kw:
        def step(r: list[Any]) -> None:
            try:
                r[out] = f(*[r[i] for i in ins], **kw)
            except ValueError:
                shapes = [np.shape(r[i]) for i in ins]
                op.infer_shape(shapes, kw)  # an axis past the rank known only now: the op's own message
                raise fail(shapes) from None
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
                 out: int) -> Step:
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


def _cond_step(pred: int, out: int, then: tuple[list[Step], int], other: tuple[list[Step], int],
               scalar: bool) -> Step:
    (then_steps, then_reg), (else_steps, else_reg) = then, other
    truth = bool if scalar else _truth

    def step(r: list[Any]) -> None:
        steps, res = (then_steps, then_reg) if truth(r[pred]) else (else_steps, else_reg)
        for s in steps:
            s(r)
        r[out] = r[res]

    step.pred = pred  # type: ignore[attr-defined]
    step.branches = {True: (then_steps, then_reg), False: (else_steps, else_reg)}  # type: ignore[attr-defined]
    return step


def _known(shape: Any) -> bool:
    return shape is not None and None not in shape


def _truth(value: Any) -> bool:
    """A cond's predicate at run time: one number (its shape was unknown when the graph was built), non-zero is
    true; any other shape is refused with the message the build and the dynamic engine give."""
    _ops.cond_predicate(np.shape(value))
    return bool(value != 0)


def _pyname(n: ir.Node) -> str:
    """A Python identifier for a node's register (user names are sanitized, never trusted as code)."""
    base = "".join(c if c.isalnum() or c == "_" else "_" for c in n.name.split("/")[-1]) or "v"
    if base[0].isdigit():
        base = "v" + base
    return f"{base}_{n.id}"


def _fmt(v: Any) -> str:
    return ir.short_value(v, 6)
