"""Edge values: every op of the table, at 0, ±tiny, ±huge and where it is undefined, with broadcasting shapes.

Both engines must agree with PyTorch (float64) on values and gradients — or, where PyTorch's own float64 arithmetic
overflows or underflows in a step our rule does not take (``d(a/b)/db`` written as ``-(a/b)/b`` never forms
``b·b``), with the exact derivative, computed in 60-digit arithmetic by mpmath. Where the exact answer is not a
finite number, both engines must give the same inf/nan as PyTorch.

2,000 examples run in CI; ``COURSE_EDGE_EXAMPLES=20000`` runs a longer search.
"""

from __future__ import annotations

import functools
import os

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from course_lib import dynamic as dy
from course_lib import ops
from course_lib import static as st

torch = pytest.importorskip("torch")
mpmath.mp.dps = 60

EXAMPLES = int(os.environ.get("COURSE_EDGE_EXAMPLES", "2000"))
EDGE = [0.0, -0.0, 1e-300, -1e-300, 1e-8, -1e-8, 0.5, -0.5, 1.0, -1.0, 3.0, -3.0, 30.0, -30.0, 710.0, -710.0,
        1e300, -1e300]
UNARY = ops.functions(1)  # exp, log, sin, ... sum, mean: an op added to the table is tested here too
BINARY = ["add", "sub", "mul", "div"]
POWERS = [0.0, 1.0, 2.0, 3.0, 0.5, -1.0, -2.0, 2.5]
SHAPES = [((), ()), ((3,), ()), ((), (3,)), ((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3))]
TORCH = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}

number = hs.one_of(hs.sampled_from(EDGE), hs.floats(-1e3, 1e3, allow_nan=False))


def array(shape):
    size = int(np.prod(shape)) if shape else 1
    return hs.lists(number, min_size=size, max_size=size).map(lambda v: np.array(v, dtype=np.float64).reshape(shape))


def torch_fn(name):
    obj = torch
    for part in ops.OPS[name].torch.split("."):
        obj = getattr(obj, part)
    return obj


# ---------------------------------------------------------------------- the program, run four ways
def program(o, op, a, b, p):
    """One op, and its output summed to a number (so backward needs no grad=); ``o`` is an engine or "torch"."""
    if op == "pow":
        y = a ** p
    elif op in BINARY:
        y = TORCH[op](a, b) if o == "torch" else {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[op]
    else:
        y = torch_fn(op)(a) if o == "torch" else getattr(o, op)(a)
    return y, (y.sum() if o == "torch" else o.sum(y))


def ours_dynamic(op, a, b, p):
    ta, tb = dy.Tensor(a, requires_grad=True), dy.Tensor(b, requires_grad=True)
    y, out = program(dy, op, ta, tb, p)
    out.backward()
    zero = np.zeros_like
    return y.data, (zero(a) if ta.grad is None else ta.grad), (zero(b) if tb.grad is None else tb.grad)


def ours_static(op, a, b, p):
    g = st.Graph()
    with g.as_default():
        pa, pb = st.placeholder("a", shape=a.shape), st.placeholder("b", shape=b.shape)
        y, out = program(st, op, pa, pb, p)
        da, db = st.gradients(out, [pa, pb])
    fetch = [y] + [d for d in (da, db) if d is not None]
    got = iter(st.Session(g).run(fetch, {pa: a, pb: b}))
    value = next(got)
    return value, (np.zeros_like(a) if da is None else next(got)), (np.zeros_like(b) if db is None else next(got))


def pytorch(op, a, b, p):
    ta, tb = (torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (a, b))
    y, out = program("torch", op, ta, tb, p)
    ga, gb = torch.autograd.grad(out, [ta, tb], allow_unused=True)
    zero = np.zeros_like
    return (y.detach().numpy(), zero(a) if ga is None else ga.numpy(), zero(b) if gb is None else gb.numpy())


# ---------------------------------------------------------------------- the exact answer, where it is needed
MP = {"exp": mpmath.exp, "log": mpmath.log, "sin": mpmath.sin, "cos": mpmath.cos, "tanh": mpmath.tanh}


def _mp_derivatives(op, a, b, p):
    """Elementwise d(op)/da, d(op)/db in 60-digit arithmetic (object arrays, broadcast to the output's shape)."""
    A, B = np.broadcast_arrays(np.vectorize(mpmath.mpf, otypes=[object])(a),
                               np.vectorize(mpmath.mpf, otypes=[object])(b))
    one, zero = np.ones(A.shape, dtype=object), np.zeros(A.shape, dtype=object)
    if op in ("add", "sub"):
        return one * mpmath.mpf(1), (one if op == "add" else -one) * mpmath.mpf(1)
    if op == "mul":
        return B, A
    if op == "div":
        return np.vectorize(lambda x, y: 1 / y if y else mpmath.inf)(A, B), \
            np.vectorize(lambda x, y: -x / (y * y) if y else mpmath.nan)(A, B)
    if op == "pow":  # from the float itself: mpmath has no -0, and the sign of zero matters here
        return np.vectorize(lambda x: _dpow(float(x), p), otypes=[object])(np.broadcast_to(a, A.shape)), zero
    if op == "relu":
        return np.vectorize(lambda x: mpmath.mpf(1 if x > 0 else 0))(A), zero
    if op == "sigmoid":
        return np.vectorize(lambda x: mpmath.exp(-x) / (1 + mpmath.exp(-x)) ** 2)(A), zero
    if op in ("sum", "mean"):
        return one / (A.size if op == "mean" else 1), zero
    return np.vectorize(lambda x: mpmath.diff(MP[op], x))(A), zero


def _dpow(x, p):
    """d(xᵖ)/dx = p xᵖ⁻¹: 0 for p = 0; undefined (nan) for x < 0 and p not whole; at ±0, IEEE's pow(±0, p-1) says
    which infinity (the sign of zero decides it, as it does for numpy and PyTorch)."""
    if p == 0:
        return mpmath.mpf(0)
    if x == 0:
        return mpmath.mpf(float(p * np.power(np.float64(x), p - 1.0)))
    if x < 0 and p != int(p):
        return mpmath.nan
    return p * mpmath.power(mpmath.mpf(x), p - 1)


def exact_gradients(op, a, b, p):
    da, db = _mp_derivatives(op, a, b, p)
    return (ops.sum_to(np.vectorize(float)(da).astype(np.float64), a),
            ops.sum_to(np.vectorize(float)(db).astype(np.float64), b))


def check(what, ours, theirs, exact, atol=1e-12):
    """Ours equals PyTorch's (close where finite, the same inf or nan elsewhere); where it does not, ours must be the
    exact answer (PyTorch's float64 steps overflowed or underflowed, or it took a sign of zero for a limit)."""
    ours, theirs = np.broadcast_arrays(np.asarray(ours, dtype=np.float64), np.asarray(theirs, dtype=np.float64))
    same = np.isclose(ours, theirs, rtol=1e-6, atol=atol, equal_nan=True)
    if same.all():
        return
    want = np.broadcast_to(np.asarray(exact(), dtype=np.float64), ours.shape)
    right = np.isclose(ours, want, rtol=1e-6, atol=1e-12, equal_nan=True)
    wrong = ~same & ~right
    assert not wrong.any(), f"{what}: PyTorch {theirs[wrong]}, exact {want[wrong]}, ours {ours[wrong]}"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=hs.data(), op=hs.sampled_from([*UNARY, *BINARY, "pow"]), shapes=hs.sampled_from(SHAPES),
       p=hs.sampled_from(POWERS))
def test_every_op_agrees_with_pytorch_at_the_edges(data, op, shapes, p):
    a, b = data.draw(array(shapes[0]), "a"), data.draw(array(shapes[1]), "b")
    with np.errstate(all="ignore"):
        ref = pytorch(op, a, b, p)
        for engine, got in (("define-by-run", ours_dynamic(op, a, b, p)),
                            ("define-then-run", ours_static(op, a, b, p))):
            where = f"{engine} {op} p={p} a={a!r} b={b!r}"
            # a sum is only as exact as its terms are large: 1e-8 + 1e300 - 1e300 is 0 or 1e-8 by the order of adding
            scale = float(np.sum(np.abs(a[np.isfinite(a)]))) * 1e-12 if op in ("sum", "mean") else 0.0
            check(f"value of {where}", got[0], ref[0], lambda: ref[0], atol=max(1e-12, scale))
            exact = functools.cache(lambda: exact_gradients(op, a, b, p))  # only where ours and PyTorch's differ
            check(f"d/da of {where}", got[1], ref[1], lambda exact=exact: exact()[0])
            check(f"d/db of {where}", got[2], ref[2], lambda exact=exact: exact()[1])
