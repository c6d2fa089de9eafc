"""course_lib.adapters.deployment: torch.export success or a one-line failure (silently), and a GraphDef run by names
alone."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def test_torch_export_of_a_python_if_fails_quietly_and_torch_cond_exports(capfd):
    torch = pytest.importorskip("torch")
    from course_lib.adapters.deployment import torch_export

    def with_if(x):
        if x.sum() > 0:
            return torch.sin(x) * x
        return torch.exp(x) - 1.0

    failed = torch_export(with_if, torch.tensor([1.0, 2.0]))
    assert not failed.ok and failed.program is None and failed.size == 0
    assert failed.error_type == "GuardOnDataDependentSymNode" and "data-dependent" in failed.error
    assert "\n" not in failed.error and repr(failed).startswith("Exported(failed: GuardOnDataDependentSymNode")
    out, err = capfd.readouterr()
    assert "def forward" not in out + err, "the partial graph torch prints on failure is swallowed"

    def with_cond(x):
        return torch.cond(x.sum() > 0, lambda x: torch.sin(x) * x, lambda x: torch.exp(x) - 1.0, (x,))

    exported = torch_export(with_cond, torch.tensor([1.0, 2.0]))
    assert exported.ok and repr(exported) == "Exported(ok, 8 fx nodes)"
    targets = [str(n.target) for n in exported.program.graph.nodes]
    assert "cond" in targets, "both branches live in the exported graph, as subgraphs of one cond"
    neg = torch.tensor([-1.0, -2.0])
    assert torch.allclose(exported.program.module()(neg), with_if(neg))


def test_torch_export_accepts_a_module():
    torch = pytest.importorskip("torch")
    from course_lib.adapters.deployment import torch_export

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
    exported = torch_export(model, torch.ones(1, 3))
    assert exported.ok and exported.size >= 5


def test_run_graph_def_runs_without_the_python_function():
    tf = pytest.importorskip("tensorflow")
    from course_lib.adapters.deployment import run_graph_def

    @tf.function
    def branchy(x):
        if x > 0:
            return tf.sin(x) * x
        return tf.exp(x) - 1.0

    concrete = branchy.get_concrete_function(tf.TensorSpec([], tf.float32, name="x"))
    graph_def = concrete.graph.as_graph_def()
    out = concrete.outputs[0].name
    del branchy, concrete  # only the data is left
    assert np.isclose(run_graph_def(graph_def, {"x": 1.0}, out), np.sin(1.0))
    pos, = run_graph_def(graph_def, {"x:0": -1.0}, [out])
    assert np.isclose(pos, np.exp(-1.0) - 1.0)
    assert tf.executing_eagerly(), "the TF1 Session ran inside its own graph; eager mode is untouched"
