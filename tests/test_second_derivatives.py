"""Second derivatives of every differentiable op of the table, against PyTorch (``torch.autograd.grad`` with
``create_graph=True``), broadcasting included.

The static engine differentiates its own gradient graph: ``gradients`` of ``gradients``. That works only if every op
a gradient rule creates has a rule itself — the helpers ``sum_to``, ``expand_like``, ``matmul_grad`` and ``select``
included — written with table ops. For each case, with ``L = sum(sin(f(x₁, …)))``: the first derivatives ``∂L/∂xᵢ``,
and a Hessian-vector product ``∂(Σᵢ ⟨∂L/∂xᵢ, vᵢ⟩)/∂xⱼ`` for random ``vᵢ`` (the sine makes both terms of the chain
rule count: ``f''`` and ``f'·f'``).

The dynamic engine computes gradients as numpy values (``backward`` has no ``create_graph``): it cannot take a
second derivative. Its first derivatives, through the same rules (the helpers' too, as ops of a program), are
checked against PyTorch and the static engine.

Where a second derivative is undefined the inputs stay away from it: ``relu`` at 0 (no first derivative at the
kink; 0 on both sides), ``log`` and ``x ** p`` with ``p < 2`` at x ≤ 0, ``/`` at a zero denominator. The comparisons
and ``ones_like``/``zeros_like`` have no derivative to take: their outputs do not change with their inputs (a
comparison is piecewise constant, its derivative 0 where it is defined), so their rule is None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import ops
from course_lib import static as st

torch = pytest.importorskip("torch")


def _torch_path(path: str) -> Callable[..., Any]:
    obj: Any = torch
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _torch_matmul_grad(g, a, b, *, wrt):
    """PyTorch's own vector-Jacobian product of matmul: ∂⟨g, a @ b⟩/∂a (wrt=0) or /∂b, as a differentiable graph."""
    return torch.autograd.grad((torch.matmul(a, b) * g).sum(), (a, b)[wrt], create_graph=True)[0]


def _torch_expand_like(g, like, *, divide=False, axis=None):
    """Spread g over like's shape (the axes a reduction along ``axis`` took put back first), divided by the count
    each value stood for when ``divide`` (a mean's adjoint)."""
    axes = sorted(a % like.dim() for a in ((axis,) if isinstance(axis, int) else axis)) if axis is not None else []
    for a in axes:
        g = g.unsqueeze(a)
    n = int(np.prod([like.shape[a] for a in axes])) if axis is not None else like.numel()
    return g.expand(like.shape) / (n if divide else 1)


#: PyTorch's meaning of each op, written apart from the table's forwards (functions by their table torch name, so a
#: wrong name fails here too).
TORCH = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
    "neg": lambda x: -x, "pow": lambda x, *, p: x ** p, "matmul": torch.matmul,
    **{name: _torch_path(ops.OPS[name].torch) for name in ops.functions(1)},
    "sum_to": lambda g, like: g.sum_to_size(like.shape),
    "expand_like": lambda g, like, **attrs: _torch_expand_like(g, like, **attrs),
    "matmul_grad": _torch_matmul_grad,
    "select": lambda p, a, b: torch.where(p != 0, a, b),
}


@dataclass(frozen=True)
class Case:
    """``op`` applied to inputs of ``shapes``; ``fixed``: positions of inputs that are data, not variables (a
    ``like`` that only lends its shape, a mask); ``low``/``high``: where the values are drawn."""

    op: str
    shapes: tuple[tuple[int, ...], ...]
    attrs: dict[str, Any] = field(default_factory=dict)
    fixed: tuple[int, ...] = ()
    low: float = -2.0
    high: float = 2.0

    @property
    def id(self) -> str:
        extra = "".join(f",{k}={v}" for k, v in self.attrs.items())
        return f"{self.op}{extra}:" + "|".join("x".join(map(str, s)) or "()" for s in self.shapes)


ELEMENTWISE_SHAPES = [((), ()), ((3,), ()), ((), (3,)), ((2, 3), (3,)), ((3,), (2, 3)), ((2, 1), (3,)),
                      ((2, 3), (2, 3))]
MATMUL_SHAPES = [((2, 3), (3,)), ((3,), (3, 2)), ((2, 3), (3, 4)), ((3,), (3,))]


def _cases() -> list[Case]:
    cases: list[Case] = []
    for name in ops.functions(1):
        lo, hi = ops.OPS[name].domain
        cases += [Case(name, (s,), low=lo, high=hi) for s in [(), (3,), (2, 3)]]
    cases += [Case(name, ((2, 3),), {"axis": a}) for name in ("sum", "mean") for a in (0, 1, -1, (0, 1))]
    cases += [Case("neg", (s,)) for s in [(), (2, 3)]]
    for p, lo in [(3.0, -2.0), (2.0, -2.0), (0.5, 0.2), (-1.0, 0.5), (0.0, -2.0)]:
        cases += [Case("pow", (s,), {"p": p}, low=lo) for s in [(), (3,)]]
    for name in ("add", "sub", "mul"):
        cases += [Case(name, s) for s in ELEMENTWISE_SHAPES]
    cases += [Case("div", s, low=0.5) for s in ELEMENTWISE_SHAPES]  # a denominator away from 0
    cases += [Case("matmul", s) for s in MATMUL_SHAPES]
    # the helpers: what the first derivatives above are made of
    cases += [Case("sum_to", s, fixed=(1,)) for s in [((2, 3), (3,)), ((2, 3), (2, 1)), ((2, 3), (1, 3)),
                                                       ((3,), ()), ((2, 3), (2, 3))]]
    cases += [Case("expand_like", s, {"divide": d}, fixed=(1,)) for d in (False, True)
              for s in [((), (2, 3)), ((3,), (2, 3)), ((), ())]]
    cases += [Case("expand_like", s, {"divide": d, "axis": a}, fixed=(1,)) for d in (False, True)
              for s, a in [(((3,), (2, 3)), 0), (((2,), (2, 3)), -1), (((), (2, 3)), (0, 1))]]
    for a, b in MATMUL_SHAPES:
        out = np.zeros(a) @ np.zeros(b)
        cases += [Case("matmul_grad", (out.shape, a, b), {"wrt": w}) for w in (0, 1)]
    cases += [Case("select", s, fixed=(0,)) for s in [((3,), (3,), (3,)), ((2, 3), (3,), ())]]
    return cases


CASES = _cases()


def test_every_differentiable_op_has_a_case():
    """A new op with a gradient rule must be added here (and to TORCH): its second derivative is then checked."""
    assert {c.op for c in CASES} == {name for name, op in ops.OPS.items() if op.grad is not None}


def _values(case: Case, seed: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    xs = [rng.uniform(case.low, case.high, s) for s in case.shapes]
    if case.op == "select":
        xs[0] = (rng.uniform(size=case.shapes[0]) > 0.5).astype(np.float64)
    vs = [rng.normal(size=s) for s in case.shapes]
    return [np.asarray(x, dtype=np.float64) for x in xs], [np.asarray(v) for v in vs]


def _variables(case: Case) -> list[int]:
    return [i for i in range(len(case.shapes)) if i not in case.fixed]


def torch_derivatives(case: Case, xs: list[np.ndarray], vs: list[np.ndarray]) -> tuple[list, list]:
    ts = [torch.tensor(x, dtype=torch.float64, requires_grad=i in _variables(case)) for i, x in enumerate(xs)]
    loss = torch.sin(TORCH[case.op](*ts, **case.attrs)).sum()
    wrt = [ts[i] for i in _variables(case)]
    first = torch.autograd.grad(loss, wrt, create_graph=True, allow_unused=True)
    hvp = sum(((g * torch.tensor(vs[i])).sum() for i, g in zip(_variables(case), first, strict=True) if g is not None),
              torch.zeros((), dtype=torch.float64))
    second = torch.autograd.grad(hvp, wrt, allow_unused=True) if hvp.requires_grad else [None] * len(wrt)
    return [_numpy(g, xs[i]) for i, g in zip(_variables(case), first, strict=True)], \
        [_numpy(h, xs[i]) for i, h in zip(_variables(case), second, strict=True)]


def _numpy(t: Any, like: np.ndarray) -> np.ndarray:
    """A gradient as numpy; None (no dependence) as zeros."""
    return np.zeros_like(like) if t is None else t.detach().numpy()


def static_derivatives(case: Case, xs: list[np.ndarray], vs: list[np.ndarray]) -> tuple[list, list]:
    """``gradients`` of ``gradients``: the second derivative is a graph built from the first one."""
    g = st.Graph()
    with g.as_default():
        inputs = [st.constant(x) if i in case.fixed else st.placeholder(f"x{i}", shape=x.shape)
                  for i, x in enumerate(xs)]
        wrt = [inputs[i] for i in _variables(case)]
        loss = st.sum(st.sin(st.apply(case.op, *inputs, **case.attrs)))
        first = st.gradients(loss, wrt)
        parts = [st.sum(d * st.constant(vs[i])) for i, d in zip(_variables(case), first, strict=True) if d is not None]
        hvp = parts[0] if parts else None
        for p in parts[1:]:
            hvp = hvp + p
        second = st.gradients(hvp, wrt) if hvp is not None else [None] * len(wrt)
    feeds = {inputs[i]: xs[i] for i in _variables(case)}
    sess = st.Session(g)

    def run(ds: list) -> list[np.ndarray]:
        return [np.zeros_like(xs[i]) if d is None else sess.run(d, feeds)
                for i, d in zip(_variables(case), ds, strict=True)]

    return run(first), run(second)


def dynamic_first_derivatives(case: Case, xs: list[np.ndarray]) -> list[np.ndarray]:
    ts = [x if i in case.fixed else dy.Tensor(x, requires_grad=True) for i, x in enumerate(xs)]
    dy.sum(dy.sin(dy.apply(case.op, *ts, **case.attrs))).backward()
    return [np.zeros_like(xs[i]) if ts[i].grad is None else ts[i].grad for i in _variables(case)]


def _close(ours: list[np.ndarray], theirs: list[np.ndarray], what: str) -> None:
    assert len(ours) == len(theirs)
    for k, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert np.shape(a) == np.shape(b), f"{what} of input {k}: shape {np.shape(a)}, PyTorch {np.shape(b)}"
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, err_msg=f"{what} of input {k}")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_second_derivatives_match_pytorch(case):
    xs, vs = _values(case, seed=len(CASES) + CASES.index(case))
    want_first, want_second = torch_derivatives(case, xs, vs)
    first, second = static_derivatives(case, xs, vs)
    _close(first, want_first, "static first derivative")
    _close(second, want_second, "static second derivative (Hessian-vector product)")
    _close(dynamic_first_derivatives(case, xs), want_first, "dynamic first derivative")


def test_the_issue_example_gradients_of_gradients_with_a_broadcast_scalar():
    """``gradients(gradients(sum(tanh(x*b)), b), b)`` with x of shape (3,): failed with NO_GRAD_RULE (sum_to had no
    rule). d²/db² Σ tanh(xᵢ b) = Σ xᵢ² · (-2 tanh(xᵢb)(1 - tanh²(xᵢb)))."""
    x_value, b_value = np.array([0.5, -1.0, 2.0]), 0.7
    g = st.Graph()
    with g.as_default():
        x, b = st.placeholder("x", shape=(3,)), st.placeholder("b")
        (db,) = st.gradients(st.sum(st.tanh(x * b)), [b])
        (d2b,) = st.gradients(db, [b])
    assert any(n.op == "sum_to" for n in g.nodes)  # the first gradient undid the broadcast of b
    got = st.Session(g).run(d2b, {x: x_value, b: b_value})
    t = np.tanh(x_value * b_value)
    assert got == pytest.approx(np.sum(x_value ** 2 * -2 * t * (1 - t ** 2)), rel=1e-12)
    tx, tb = torch.tensor(x_value), torch.tensor(b_value, dtype=torch.float64, requires_grad=True)
    (tdb,) = torch.autograd.grad(torch.tanh(tx * tb).sum(), tb, create_graph=True)
    assert got == pytest.approx(float(torch.autograd.grad(tdb, tb)[0]), rel=1e-12)


def test_a_third_derivative_through_the_helpers():
    """Rules written with table ops compose without end: d³/db³ Σ sin(xᵢ b) = -Σ xᵢ³ cos(xᵢ b)."""
    x_value, b_value = np.array([0.5, -1.0, 2.0]), 0.3
    g = st.Graph()
    with g.as_default():
        x, b = st.placeholder("x", shape=(3,)), st.placeholder("b")
        d = st.sum(st.sin(x * b))
        for _ in range(3):
            (d,) = st.gradients(d, [b])
    assert st.Session(g).run(d, {x: x_value, b: b_value}) == pytest.approx(
        -np.sum(x_value ** 3 * np.cos(x_value * b_value)), rel=1e-12)
