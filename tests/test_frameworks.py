"""Course programs run on the real frameworks: same values as our engines, the expected op types, and a quiet
TensorFlow import (its known start-up lines dropped, anything else passed through)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import expr, programs
from course_lib.adapters import frameworks
from course_lib.i18n import message_of


def test_input_names() -> None:
    assert frameworks.input_names(expr.parse("sin(x*w + 1)")) == ["x", "w"]
    assert frameworks.input_names(programs.neuron) == ["x", "w", "b"]


def test_quiet_stderr_drops_only_the_noise() -> None:
    code = (
        "import os, sys\n"
        "from course_lib.adapters.quiet import NOISE\n"
        "from course_lib.i18n.stderr import quiet_stderr\n"
        "with quiet_stderr(NOISE):\n"
        "    os.write(2, b'WARNING: All log messages before absl::InitializeLog() is called are written to '\n"
        "                b'STDERR\\n')\n"
        "    os.write(2, b'I0000 00:00:1796226827.125300   15623 port.cc:153] oneDNN custom operations are on. x\\n')\n"
        "    os.write(2, b'a real problem\\n')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0 and out.stderr == "a real problem\n"


def test_tensorflow_loads_quietly() -> None:
    pytest.importorskip("tensorflow")
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    code = "from course_lib.adapters.frameworks import load_tensorflow\nprint(load_tensorflow().__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env,
                         check=False)
    assert out.stdout.strip() == "tensorflow" and out.stderr == ""


@pytest.mark.parametrize("text", ["sin(x*w + 1)", "x * y + sin(x)", "tanh(a) / (1 + exp(-b)) ** 2", "relu(x) - log(y)"])
def test_same_values_everywhere(text: str) -> None:
    tf = pytest.importorskip("tensorflow")
    torch = pytest.importorskip("torch")
    e = expr.parse(text)
    inputs = {n: 0.5 + k for k, n in enumerate(e.variables)}
    ours = float(e.program(dy, **{n: dy.Tensor(v) for n, v in inputs.items()}).data)
    g, xs, y = frameworks.tf1_graph(e)
    with tf.compat.v1.Session(graph=g) as sess:
        tf1 = float(sess.run(y, {xs[n]: v for n, v in inputs.items()}))
    cf = frameworks.tf_function_graph(e)
    tf2 = float(cf(*[tf.constant(v, tf.float64) for v in inputs.values()]))
    out, _leaves = frameworks.torch_output(e, inputs)
    assert isinstance(out, torch.Tensor) and out.grad_fn is not None
    assert np.allclose([tf1, tf2, float(out.detach())], ours)


def test_tf_graph_ops_and_names() -> None:
    pytest.importorskip("tensorflow")
    g, xs, _y = frameworks.tf1_graph(programs.affine_sin)
    assert [op.type for op in g.get_operations()] == ["Placeholder", "Placeholder", "Mul", "Const", "AddV2", "Sin"]
    assert list(xs) == ["x", "w"]
    cf = frameworks.tf_function_graph(programs.affine_sin)
    assert [op.name for op in cf.graph.get_operations()][:2] == ["x", "w"]
    g2, _, y2 = frameworks.tf1_graph(programs.affine_sin, name="y")
    assert y2.op.name == "y" and len(g2.get_operations()) == 7


def test_torch_cond_is_a_python_if_and_missing_inputs_are_named() -> None:
    pytest.importorskip("torch")
    out, _ = frameworks.torch_output(programs.branch_with_cond, {"x": -1.0})
    assert float(out.detach()) == pytest.approx(2 * (np.exp(-1.0) - 1.0))
    with pytest.raises(ValueError) as info:
        frameworks.torch_output(programs.affine_sin, {"x": 1.0})
    assert message_of(info.value).msgid is frameworks.NO_VALUE and message_of(info.value).values == {"names": "w"}


def test_node_counts_of_the_running_example() -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("torch")
    counts = frameworks.node_counts(expr.parse("sin(x*w + 1)"), {"x": 3.0, "w": 2.0})
    assert counts == {"ours (define-then-run)": 6, "ours (define-by-run)": 6, "TF tf.compat.v1 graph": 6,
                      "TF tf.function": 7, "PyTorch autograd": 5}  # Identity output in TF2; no constant node in torch


def test_loop_graph_v1_has_a_cycle_v2_has_none_and_the_setting_is_restored() -> None:
    tf = pytest.importorskip("tensorflow")
    import course_lib as cl

    before = tf.compat.v1.control_flow_v2_enabled()
    v1 = frameworks.tf1_loop_graph()
    assert tf.compat.v1.control_flow_v2_enabled() == before
    merge = v1.get_operation_by_name("loop/Merge")
    assert [t.op.type for t in merge.inputs] == ["Enter", "NextIteration"]  # the back edge, in TF's own graph
    ir = cl.to_graph(v1)
    assert [n.attrs["back_edges"] for n in ir.nodes if "back_edges" in n.attrs] == [["loop/NextIteration"]]
    v2 = frameworks.tf1_loop_graph(control_flow_v2=True)
    assert "NextIteration" not in [op.type for op in v2.get_operations()]
    assert tf.compat.v1.control_flow_v2_enabled() == before
