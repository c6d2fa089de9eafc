"""Property tests: random programs give the same values and gradients in both engines, numpy and PyTorch.

A random program is a short list of ops over two inputs; it is interpreted with an ``ops`` namespace, so the very
same program runs as a static graph, as a dynamic record, as plain numpy and as PyTorch autograd.
Domains are kept safe by construction (each function acts on its table domain, ** on positive values, division
by b² + 0.5), so that disagreements are real bugs and not nan-versus-nan noise.
"""

from __future__ import annotations

import types

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as hs

from course_lib import dynamic as dy
from course_lib import ops
from course_lib import static as st

torch = pytest.importorskip("torch")

#: The one-argument functions of the op table: a new op is in every test below with no edit here.
FUNCTIONS = ops.functions(1)
UNARY = ["neg", "pow2", "pow3", "sqrt", *FUNCTIONS]
BINARY = ["add", "sub", "mul", "div", "matmul", "radd", "rmul", "rsub", "rdiv"]

# The references are written independently of the table's forwards (numpy by hand; PyTorch by the table's torch
# names, so a wrong name in the table fails here too).
NP_REFERENCE = {
    "exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos, "tanh": np.tanh, "relu": lambda a: np.maximum(a, 0.0),
    "sigmoid": lambda a: 1.0 / (1.0 + np.exp(-a)), "sum": np.sum, "mean": np.mean,
}
NP_OPS = types.SimpleNamespace(**NP_REFERENCE)


def _torch_function(path):
    obj = torch
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


TORCH_OPS = types.SimpleNamespace(**{name: _torch_function(ops.OPS[name].torch) for name in FUNCTIONS})


def test_every_function_of_the_table_has_an_independent_reference():
    assert sorted(NP_REFERENCE) == sorted(FUNCTIONS), "add a numpy reference for the new op here"


def _into_domain(ops_ns, name, a):
    """Map any value smoothly into the op's domain (ops.OPS[name].domain), so disagreements are real bugs."""
    lo, hi = ops.OPS[name].domain
    return lo + (hi - lo) * ops_ns.sigmoid(a)


def run_program(ops, steps, x, y):
    """Interpret a program: each step appends one value computed from earlier ones."""
    vals = [x, y]
    for op, i, j in steps:
        a, b = vals[i % len(vals)], vals[j % len(vals)]
        if op == "neg":
            v = -a
        elif op == "pow2":
            v = a ** 2
        elif op == "pow3":
            v = a ** 3
        elif op == "sqrt":
            v = (a * a + 0.25) ** 0.5
        elif op in FUNCTIONS:
            v = getattr(ops, op)(_into_domain(ops, op, a))
        elif op == "add":
            v = a + b
        elif op == "sub":
            v = a - b
        elif op == "mul":
            v = a * b
        elif op == "div":
            v = a / (b * b + 0.5)
        elif op == "matmul":
            v = (a * 1.0) @ (b * 1.0) if _ndim(a) == 1 and _ndim(b) == 1 else a * b
        elif op == "radd":
            v = 1.5 + a
        elif op == "rmul":
            v = 0.5 * a
        elif op == "rsub":
            v = 2.0 - a
        elif op == "rdiv":
            v = 1.0 / (a * a + 1.0)
        else:  # pragma: no cover
            raise AssertionError(op)
        vals.append(v)
    out = vals[-1]
    return ops.sum(out) if _ndim(out) else out


def _ndim(v):
    if isinstance(v, st.Tensor):
        return len(v.shape)
    if isinstance(v, dy.Tensor):
        return v.data.ndim
    return np.ndim(v) if not isinstance(v, torch.Tensor) else v.dim()


steps_strategy = hs.lists(
    hs.tuples(hs.sampled_from(UNARY + BINARY), hs.integers(0, 20), hs.integers(0, 20)), min_size=1, max_size=8)
shapes = hs.sampled_from([(), (3,)])


def value(shape):
    return hs.lists(hs.floats(-2.0, 2.0, allow_nan=False), min_size=max(1, int(np.prod(shape))),
                    max_size=max(1, int(np.prod(shape)))).map(lambda v: np.array(v, dtype=np.float64).reshape(shape))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=steps_strategy, data=hs.data(), sx=shapes, sy=shapes)
def test_random_programs_agree_everywhere(steps, data, sx, sy):
    xv, yv = data.draw(value(sx)), data.draw(value(sy))
    ref = run_program(NP_OPS, steps, xv, yv)
    assume(np.all(np.isfinite(ref)))

    # define-by-run
    x, y = dy.Tensor(xv, requires_grad=True), dy.Tensor(yv, requires_grad=True)
    out_dy = run_program(dy, steps, x, y)
    # define-then-run
    g = st.Graph()
    with g.as_default():
        px, py = st.placeholder("x", shape=sx), st.placeholder("y", shape=sy)
        out_st = run_program(st, steps, px, py)
        grads_st = st.gradients(out_st, [px, py])
    sess = st.Session(g)
    fetch = [out_st] + [d for d in grads_st if d is not None]
    got = sess.run(fetch, {px: xv, py: yv})
    # PyTorch
    tx = torch.tensor(xv, requires_grad=True)
    ty = torch.tensor(yv, requires_grad=True)
    out_t = run_program(TORCH_OPS, steps, tx, ty)

    np.testing.assert_allclose(out_dy.data, ref, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(got[0], ref, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(out_t.detach().numpy(), ref, rtol=1e-6, atol=1e-12)

    tgrads = torch.autograd.grad(out_t, [tx, ty], allow_unused=True) if out_t.requires_grad else (None, None)
    if out_dy.requires_grad:
        out_dy.backward()
    st_iter = iter(got[1:])
    for dyv, stv, tv, shape in zip((x.grad, y.grad), grads_st, tgrads, (sx, sy), strict=True):
        expect = np.zeros(shape) if tv is None else tv.numpy()
        np.testing.assert_allclose(np.zeros(shape) if dyv is None else dyv, expect, rtol=1e-6, atol=1e-10)
        st_val = np.zeros(shape) if stv is None else next(st_iter)
        np.testing.assert_allclose(st_val, expect, rtol=1e-6, atol=1e-10)


OP_DOMAINS = {name: ops.OPS[name].domain for name in FUNCTIONS}
OP_DOMAINS.update({"relu_neg": (-2, -0.1), "neg": (-2, 2), "pow": (0.3, 2)})


def _unary_program(name):
    if name == "neg":
        return lambda ops, a: -a
    if name == "pow":
        return lambda ops, a: a ** 2.5
    if name == "relu_neg":
        return lambda ops, a: ops.relu(a)
    return lambda ops, a: getattr(ops, name)(a)


def _finite_difference(f, a, h=1e-6):
    grad = np.zeros_like(a)
    for k in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[k] += h
        down[k] -= h
        grad[k] = (np.sum(f(up)) - np.sum(f(down))) / (2 * h)
    return grad


@pytest.mark.parametrize("name", sorted(OP_DOMAINS))
@given(data=hs.data())
@settings(max_examples=25, deadline=None)
def test_unary_derivative_matches_finite_differences(name, data):
    lo, hi = OP_DOMAINS[name]
    a = np.array(data.draw(hs.lists(hs.floats(lo, hi), min_size=3, max_size=3)))
    prog = _unary_program(name)
    fd = _finite_difference(lambda v: prog(NP_OPS, v), a)
    x = dy.Tensor(a, requires_grad=True)
    dy.sum(prog(dy, x)).backward()
    np.testing.assert_allclose(x.grad, fd, rtol=1e-5, atol=1e-6)
    g = st.Graph()
    with g.as_default():
        p = st.placeholder("a", shape=(3,))
        (d,) = st.gradients(st.sum(prog(st, p)), [p])
    np.testing.assert_allclose(st.Session(g).run(d, {p: a}), fd, rtol=1e-5, atol=1e-6)


BIN = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
    "matmul": lambda a, b: a @ b,
}


@pytest.mark.parametrize("name", sorted(BIN))
@pytest.mark.parametrize("shapes", [((2, 3), (3, 2)), ((3,), (3, 2)), ((2, 3), (3,)), ((3,), (3,)), ((2, 1), (1, 3))])
def test_binary_derivatives_match_finite_differences(name, shapes):
    sa, sb = shapes
    if name == "matmul" and (sa[-1] != sb[0]):
        pytest.skip("shapes do not multiply")
    if name != "matmul":
        try:
            np.broadcast_shapes(sa, sb)
        except ValueError:
            pytest.skip("shapes do not broadcast")
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0.5, 2, sa), rng.uniform(0.5, 2, sb)
    f = BIN[name]
    fda = _finite_difference(lambda v: f(v, b), a)
    fdb = _finite_difference(lambda v: f(a, v), b)
    ta, tb = dy.Tensor(a, requires_grad=True), dy.Tensor(b, requires_grad=True)
    out = f(ta, tb)
    (out.sum() if out.data.ndim else out).backward()
    np.testing.assert_allclose(ta.grad, fda, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tb.grad, fdb, rtol=1e-5, atol=1e-6)
    g = st.Graph()
    with g.as_default():
        pa, pb = st.placeholder("a", shape=sa), st.placeholder("b", shape=sb)
        o = f(pa, pb)
        da, db = st.gradients(st.sum(o), [pa, pb])
    got_a, got_b = st.Session(g).run([da, db], {pa: a, pb: b})
    np.testing.assert_allclose(got_a, fda, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_b, fdb, rtol=1e-5, atol=1e-6)
