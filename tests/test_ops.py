"""The op table (course_lib/ops.py): one entry makes an op work everywhere.

The central test registers an op the course does not have — softplus(x) = log(1 + eˣ), whose derivative is the
sigmoid — and runs it through both engines, the compiler (array and float-specialized plans, and the plan source),
``gradients`` and ``backward`` (against finite differences), the expression parser and the PyTorch namespace, with
no other edit anywhere. The same for an operator: ``%`` registered with its spelling works as ``a % b`` on the
tensors of both engines, in ``backward``, ``gradients``, the plan source and the parser, and leaves with
``unregister``.
"""

from __future__ import annotations

import ast
import math

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import expr, ops
from course_lib import static as st
from course_lib.i18n import message_of


def _softplus(a):
    return np.log1p(np.exp(a))


@pytest.fixture
def softplus():
    op = ops.register(ops.Op(
        "softplus", 1, _softplus, lambda o, g, x, y: (g * o.sigmoid(x),),
        lambda a: math.log1p(math.exp(a)), torch="nn.functional.softplus"))
    yield op
    ops.unregister("softplus")


def _finite_difference(f, a, h=1e-6):
    return (f(a + h) - f(a - h)) / (2 * h)


def test_a_registered_op_runs_define_by_run_with_its_derivative(softplus):
    x = dy.Tensor(0.3, requires_grad=True)
    y = dy.softplus(x * 2.0)
    y.backward()
    assert y.item() == pytest.approx(_softplus(0.6))
    assert float(x.grad) == pytest.approx(_finite_difference(lambda v: _softplus(2 * v), 0.3), rel=1e-6)
    assert [n.op for n in y.graph().nodes] == ["input", "constant", "mul", "softplus"]
    assert x.softplus().item() == pytest.approx(_softplus(0.3))  # a method too, as in PyTorch


@pytest.mark.parametrize("shape", [(), (3,)])
def test_a_registered_op_builds_compiles_and_differentiates_define_then_run(softplus, shape):
    a = np.linspace(-1.0, 1.5, 3).reshape(shape) if shape else np.float64(0.4)
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x", shape=shape)
        y = st.sum(st.softplus(x))
        (dx,) = st.gradients(y, [x])
    sess = st.Session(g)
    value, grad = sess.run([y, dx], {x: a})
    assert value == pytest.approx(np.sum(_softplus(a)))
    np.testing.assert_allclose(grad, _finite_difference(_softplus, a), rtol=1e-6)
    plan = sess.last_plan
    assert plan.scalar == (shape == ())  # the float forward is used exactly when every value is a number
    assert "softplus(" in plan.source()
    assert any(n.op == "sigmoid" and n.gradient for n in g.nodes)  # the rule built the backward node


def test_a_registered_op_can_be_typed_into_an_expression(softplus):
    e = expr.parse("softplus(x) * 2")
    assert e.variables == ["x"]
    assert float(e.program(dy, x=dy.Tensor(0.5)).data) == pytest.approx(2 * _softplus(0.5))
    with st.Graph().as_default() as g:
        out = e.program(st, x=st.placeholder("x"))
    assert [n.op for n in g.nodes if n.kind == "op"] == ["softplus", "mul"]
    assert out.shape == ()


def test_a_registered_op_reaches_pytorch_through_its_table_name(softplus):
    torch = pytest.importorskip("torch")
    from course_lib.adapters import frameworks

    t = frameworks.torch_ops().softplus(torch.tensor(0.5))
    assert float(t) == pytest.approx(_softplus(0.5))


def test_an_unknown_op_is_named_in_the_error():
    with pytest.raises(ValueError) as info:
        dy.apply("softsign", 1.0)
    assert message_of(info.value).msgid is ops.UNKNOWN_OP and message_of(info.value).values["name"] == "softsign"
    with st.Graph().as_default(), pytest.raises(ValueError) as info:
        st.apply("softsign", 1.0)
    assert message_of(info.value).msgid is ops.UNKNOWN_OP and message_of(info.value).values["name"] == "softsign"
    with pytest.raises(AttributeError):
        _ = st.softsign


def test_op_names_must_be_identifiers():
    with pytest.raises(ValueError) as info:
        ops.register(ops.Op("soft plus", 1, np.exp))
    assert message_of(info.value).msgid is ops.NOT_IDENTIFIER and message_of(info.value).values == {"name": "soft plus"}


def test_broadcasting_is_undone_by_sum_to():
    g = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(ops.sum_to(g, np.zeros((1, 3))), [[3.0, 5.0, 7.0]])
    np.testing.assert_array_equal(ops.sum_to(g, np.zeros(3)), [3.0, 5.0, 7.0])
    assert ops.sum_to(g, np.float64(0.0)) == 15.0
    with pytest.raises(ops.ShapeError) as info:
        ops.broadcast_shapes("add", [(2, 3), (2,)])
    assert message_of(info.value).msgid is ops.BROADCAST
    assert message_of(info.value).values == {"op": "add", "shapes": "(2, 3) and (2,)"}


def test_every_function_has_a_local_derivative_and_framework_names():
    for name in ops.functions():
        op = ops.OPS[name]
        assert op.grad is not None, name
        assert op.tf and op.torch, name


# ---------------------------------------------------------------- a new operator: one entry, everywhere
def _mod_grad(o, g, a, b, y):
    """d(a mod b) = da - floor(a/b) db, with floor(a/b) = (a - a mod b) / b: written with table ops only."""
    return o.sum_to(g, a), o.sum_to(-(g * ((a - y) / b)), b)


@pytest.fixture
def mod():
    """``%`` as the course would add it: one register() call, spelling included; unregistered afterwards."""
    op = ops.register(ops.Op(
        "mod", 2, np.mod, _mod_grad, lambda a, b: a % b, role="operator",
        spelling=ops.Spelling("%", ast.Mod, "__mod__", "__rmod__")))
    yield op
    ops.unregister("mod")


def test_a_registered_operator_is_spelled_in_both_engines_with_its_derivative(mod):
    a, b = np.array([5.5, -3.25, 7.0]), 2.5
    # define-by-run: t % b, b % t and the backward pass through the rule
    x = dy.Tensor(a, requires_grad=True)
    y = dy.Tensor(b, requires_grad=True)
    out = x % y
    np.testing.assert_array_equal(out.data, np.mod(a, b))
    assert out.op == "mod" and (3.0 % dy.Tensor(2.0)).item() == 1.0
    dy.sum(out * out).backward()
    np.testing.assert_allclose(x.grad, 2 * np.mod(a, b))
    np.testing.assert_allclose(y.grad, np.sum(2 * np.mod(a, b) * -np.floor(a / b)))
    # define-then-run: a node, gradients, and the compiled plan spelled with the symbol
    g = st.Graph()
    with g.as_default():
        xp = st.placeholder("x", shape=(3,))
        yp = st.placeholder("y")
        sq = st.sum((xp % yp) * (xp % yp))
        dx, dyy = st.gradients(sq, [xp, yp])
        r = 7.0 % yp  # the reflected method, with a plain number on the left
    sess = st.Session(g)
    value, gx, gy, rv = sess.run([sq, dx, dyy, r], {xp: a, yp: b})
    assert value == pytest.approx(np.sum(np.mod(a, b) ** 2))
    np.testing.assert_allclose(gx, x.grad)
    assert gy == pytest.approx(float(y.grad))
    assert rv == pytest.approx(7.0 % b)
    assert " % " in sess.plan([sq], [xp, yp]).source()
    # the expression parser reads the same spelling
    e = expr.parse("x % 3")
    assert float(e.program(dy, x=dy.Tensor(7.5)).data) == 1.5
    with st.Graph().as_default() as g2:
        e.program(st, x=st.placeholder("x"))
    assert [n.op for n in g2.nodes if n.kind == "op"] == ["mod"]
    assert "%" in ops.operators()


def test_an_unregistered_operator_is_gone_from_both_engines_and_the_parser(mod):
    ops.unregister("mod")
    try:
        assert not hasattr(dy.Tensor, "__mod__") and not hasattr(st.Tensor, "__rmod__")
        with pytest.raises(TypeError):
            _ = dy.Tensor(1.0) % 2.0
        with pytest.raises(expr.ExpressionError) as info:
            expr.parse("x % 3")
        assert message_of(info.value).msgid is expr.OPERATOR
        assert info.value.hint.values == {"operators": "+ - * / ** @"}
    finally:
        ops.register(mod)  # the fixture unregisters it


def test_the_exponent_of_star_star_must_be_a_plain_number_in_both_engines():
    """The one ``**`` rule (ops.Spelling.number_only), said with the same message id by both Tensor classes."""
    with st.Graph().as_default():
        sx = st.placeholder("x")
        for base, exponent in ((dy.Tensor(2.0), dy.Tensor(3.0)), (dy.Tensor(2.0), [1.0, 2.0]), (sx, sx)):
            with pytest.raises(TypeError) as info:
                _ = base ** exponent
            assert message_of(info.value).msgid is ops.POW_NEEDS_NUMBER
        for exponent in (dy.Tensor(2.0), sx):
            with pytest.raises(TypeError) as info:
                _ = 2.0 ** exponent
            assert message_of(info.value).msgid is ops.TENSOR_EXPONENT
        assert (sx ** 2).node.attrs["p"] == 2.0 and (dy.Tensor(3.0) ** np.int64(2)).item() == 9.0


def test_both_tensor_classes_take_every_operator_from_the_table():
    for op in ops.OPS.values():
        if op.spelling is None:
            continue
        for cls in (dy.Tensor, st.Tensor):
            for dunder in (op.spelling.method, op.spelling.reflected):
                if dunder is not None:
                    assert getattr(cls, dunder)._op == op.name, (cls, dunder)
