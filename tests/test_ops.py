"""The op table (course_lib/ops.py): one entry makes an op work everywhere.

The central test registers an op the course does not have — softplus(x) = log(1 + eˣ), whose derivative is the
sigmoid — and runs it through both engines, the compiler (array and float-specialized plans, and the plan source),
``gradients`` and ``backward`` (against finite differences), the expression parser and the PyTorch namespace, with
no other edit anywhere.
"""

from __future__ import annotations

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
    del ops.OPS["softplus"]
    delattr(ops.NUMPY, "softplus")


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
