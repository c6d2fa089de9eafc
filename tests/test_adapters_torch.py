"""PyTorch -> IR: real models, node counts checked against what PyTorch itself reports.

Autograd graphs are counted by an independent plain walk over ``grad_fn.next_functions``; fx graphs by
``len(gm.graph.nodes)``; torch.compile by the graphs its backend receives. Kept fast (about 10 s with torch's
import): the compile tests use the ``eager``/``aot_eager`` backends, never inductor's C++ compile.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import pytest

import course_lib as cl  # course_lib imports no framework (tests/test_lazy_imports.py): safe before the skip
from course_lib.adapters import FrameworkMissingError, counters, loader, require
from course_lib.adapters import torch as ta
from course_lib.i18n import message_of

torch = pytest.importorskip("torch")
nn = torch.nn


# ---------------------------------------------------------------------------------------------- models
def mlp() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


class Recurrent(nn.Module):
    """A tiny sequence classifier: a recurrent layer, then a linear head on the last step."""

    def __init__(self, cell: type[nn.Module]) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.rnn = cell(4, 5, batch_first=True)
        self.head = nn.Linear(5, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


def walk_class_names(t: torch.Tensor) -> list[str]:
    """What PyTorch reports: the autograd nodes behind ``t``, by a plain set-based walk (no IR involved)."""
    seen: dict[int, object] = {}
    stack = [t.grad_fn]
    while stack:
        fn = stack.pop()
        if id(fn) not in seen:
            seen[id(fn)] = fn
            stack.extend(c for c, _ in fn.next_functions if c is not None)
    return sorted(type(f).__name__ for f in seen.values())


def structure(g: cl.Graph) -> list[tuple]:
    return [(n.id, n.name, n.op, n.kind, n.scope, n.input_ids, n.gradient) for n in g.nodes]


# ---------------------------------------------------------------------------------------------- import rules
def test_course_lib_and_adapters_package_import_no_framework() -> None:
    code = textwrap.dedent("""
        import sys, course_lib, course_lib.adapters, course_lib.adapters.counters
        print(sorted(m for m in ("torch", "tensorflow", "keras") if m in sys.modules))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_missing_framework_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # what `import torch` sees when torch is not installed
    with pytest.raises(FrameworkMissingError) as info:
        require("torch")
    said = message_of(info.value)
    assert said.msgid is loader.MISSING and said.values["module"] == "torch"
    assert said.values["hint"].startswith("pip install torch==")


# ---------------------------------------------------------------------------------------------- autograd
def test_mlp_autograd_graph_matches_the_grad_fn_walk() -> None:
    model = mlp()
    loss = model(torch.randn(3, 4)).sum()
    g = cl.to_graph(loss, params=dict(model.named_parameters()))

    assert len(g) == ta.count_autograd_nodes(loss) == 10
    assert sorted(n.op for n in g.nodes) == walk_class_names(loss)
    # leaves are the parameters, by their own names, in the scope of the module that owns them
    leaves = {n.name: n for n in g.nodes if n.kind == "variable"}
    assert sorted(leaves) == ["0.bias", "0.weight", "2.bias", "2.weight"]
    assert {n.op for n in leaves.values()} == {"AccumulateGrad"} and leaves["0.weight"].scope == "0"
    assert leaves["2.weight"].attrs["shape"] == [2, 8]
    # the backward graph: every node drawn in the gradient style; the loss's own grad_fn is the output
    assert all(n.gradient for n in g.nodes)
    assert [n.op for n in g.outputs] == ["SumBackward0"] and g.outputs[0] is g.nodes[-1]
    # edges follow next_functions: AddmmBackward0 of layer 2 reads its bias, the ReLU and the transposed weight
    addmm = g["AddmmBackward0_1"]
    assert [i.op for i in addmm.inputs] == ["AccumulateGrad", "ReluBackward0", "TBackward0"]


def test_every_forward_pass_records_a_new_graph_with_the_same_ir() -> None:
    model = mlp()
    params = dict(model.named_parameters())
    x = torch.randn(3, 4)
    a, b = model(x).sum(), model(x).sum()
    assert a.grad_fn is not b.grad_fn  # define-by-run: a fresh graph per forward pass...
    assert structure(cl.to_graph(a, params=params)) == structure(cl.to_graph(b, params=params))  # ...same shape


def test_leaves_without_params_are_named_by_shape() -> None:
    w = torch.ones(2, 3, requires_grad=True)
    g = cl.to_graph((w * 2.0).sum())
    assert [n.name for n in g.nodes] == ["leaf(2, 3)", "MulBackward0", "SumBackward0"]
    assert g.nodes[0].value is not None and g.nodes[0].value.shape == (2, 3)  # 6 elements: small enough to show


def test_saved_tensors_are_listed_and_freed_by_backward() -> None:
    model = mlp()
    loss = model(torch.randn(3, 4)).sum()
    before = ta.autograd_graph(loss, saved_tensors=True)
    assert before["ReluBackward0"].attrs["saved"] == {"_saved_result": "tensor(3, 8) float32"}
    assert before["AddmmBackward0_1"].attrs["saved"]["_saved_mat1"] == "tensor(3, 8) float32"
    loss.backward()
    after = ta.autograd_graph(loss, saved_tensors=True)
    assert after["ReluBackward0"].attrs["saved"] == {"_saved_result": "freed by backward()"}
    assert "saved" not in ta.autograd_graph(loss)["ReluBackward0"].attrs  # only on request


@pytest.mark.parametrize("cell", [nn.GRU, nn.LSTM])
def test_recurrent_autograd_graph_matches_the_walk_and_groups_by_module(cell: type[nn.Module]) -> None:
    model = Recurrent(cell)
    with ta.module_scopes(model):
        loss = model(torch.randn(2, 3, 4)).sum()
    g = cl.to_graph(loss, params=dict(model.named_parameters()))

    assert len(g) == ta.count_autograd_nodes(loss)
    assert sorted(n.op for n in g.nodes) == walk_class_names(loss)
    assert {n.name for n in g.nodes if n.kind == "variable"} == {name for name, _ in model.named_parameters()}
    assert {n.scope for n in g.nodes} == {"", "rnn", "head"}
    if cell is nn.GRU:  # the CPU GRU records every gate: dozens of nodes, all inside the rnn module
        assert len(g) > 40 and sum(n.scope == "rnn" for n in g.nodes) > 30
    else:  # the CPU LSTM is one fused autograd node
        assert any(n.op == "MkldnnRnnLayerBackward0" and n.scope == "rnn" for n in g.nodes)


def test_module_scopes_removes_its_hooks() -> None:
    model = mlp()
    with ta.module_scopes(model):
        pass
    assert all(not m._forward_hooks and not m._forward_pre_hooks for m in model.modules())


def test_a_2500_op_chain_converts_under_a_tiny_recursion_limit() -> None:
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(2500):
        y = y * 1.0001 + 0.5  # two autograd nodes per step
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)  # far below the graph's depth: any recursive walk would fail
    try:
        g = ta.autograd_graph(y, params={"x": x})
        n = ta.count_autograd_nodes(y)
    finally:
        sys.setrecursionlimit(limit)
    assert len(g) == n == 5001
    assert g.nodes[0].name == "x" and g.depths()[g.outputs[0].id] == 5000


class Block(nn.Module):
    """x + tanh(fc(x)): six autograd nodes per block (Add, Tanh, Addmm, T, weight, bias)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + torch.tanh(self.fc(x))


def test_a_1801_node_residual_network_converts_and_groups_into_its_15_stages() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Sequential(*[Block() for _ in range(20)]) for _ in range(15)])
    with ta.module_scopes(model):
        loss = model(torch.randn(2, 4)).sum()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)
    try:
        g = cl.to_graph(loss, params=dict(model.named_parameters()))
    finally:
        sys.setrecursionlimit(limit)
    assert len(g) == ta.count_autograd_nodes(loss) == 15 * 20 * 6 + 1
    stages: dict[str, int] = {}
    for n in g.nodes:
        stages[n.scope.split("/")[0]] = stages.get(n.scope.split("/")[0], 0) + 1
    assert stages == {**{str(k): 120 for k in range(15)}, "": 1}  # every node but the final sum sits in a stage
    assert g["3.7.fc.weight"].scope == "3/7/fc" and g.nodes[-1].op == "SumBackward0"


def test_errors_teach() -> None:
    with pytest.raises(TypeError) as info:
        cl.to_graph(mlp())
    assert message_of(info.value).msgid is ta.MODULE_IS_CODE and message_of(info.value).values == {"type": "Sequential"}
    with pytest.raises(ValueError) as info:
        cl.to_graph(torch.ones(2, requires_grad=True))
    assert message_of(info.value).msgid is ta.LEAF
    with torch.no_grad():
        quiet = torch.ones(2, requires_grad=True) * 2
    with pytest.raises(ValueError) as info:
        cl.to_graph(quiet)
    assert message_of(info.value).msgid is ta.NO_HISTORY
    with pytest.raises(TypeError) as info:
        ta.to_graph(torch.fx.symbolic_trace(mlp()), saved_tensors=True)
    assert message_of(info.value).msgid is ta.FX_NAMES_ITS_NODES


# ---------------------------------------------------------------------------------------------- torch.fx
def test_fx_mlp_one_node_per_fx_node() -> None:
    gm = torch.fx.symbolic_trace(mlp())
    g = cl.to_graph(gm)
    assert len(g) == len(gm.graph.nodes) == 5
    assert [(n.name, n.op, n.kind) for n in g.nodes] == [
        ("input_1", "placeholder", "input"),
        ("_0", "Linear", "op"),
        ("_1", "ReLU", "op"),
        ("_2", "Linear", "op"),
        ("output", "output", "op"),
    ]
    assert g.outputs == [g["output"]] and g["_2"].attrs["target"] == "2"
    assert not any(n.gradient for n in g.nodes)  # a forward graph


def test_fx_recurrent_model() -> None:
    gm = torch.fx.symbolic_trace(Recurrent(nn.LSTM))
    g = cl.to_graph(gm)
    assert len(g) == len(gm.graph.nodes)
    assert [n.name for n in g.nodes] == [n.name for n in gm.graph.nodes]
    assert g["rnn"].op == "LSTM" and g["head"].op == "Linear"
    assert [n.op for n in g.nodes if n.attrs["fx_op"] == "call_function"] == ["getitem"] * 3


class WithAttrs(nn.Module):
    """Reads a parameter and a buffer directly: fx records them as get_attr nodes."""

    def __init__(self) -> None:
        super().__init__()
        self.w = nn.Parameter(torch.tensor([2.0, 3.0]))
        self.register_buffer("offset", torch.tensor([1.0, 1.0]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x * self.w + self.offset).sum()


def test_fx_get_attr_parameters_are_variables_buffers_constants() -> None:
    gm = torch.fx.symbolic_trace(WithAttrs())
    g = cl.to_graph(gm)
    assert len(g) == len(gm.graph.nodes)
    assert (g["w"].kind, g["offset"].kind) == ("variable", "constant")
    assert g["w"].value.tolist() == [2.0, 3.0]
    assert [n.op for n in g.nodes] == ["placeholder", "get_attr", "mul", "get_attr", "add", "relu", "sum", "output"]
    assert g["mul"].inputs == (g["x"], g["w"])


def test_fx_2000_node_graph_under_a_tiny_recursion_limit() -> None:
    def chain(x: torch.Tensor) -> torch.Tensor:
        for _ in range(2000):
            x = x * 1.0001
        return x

    gm = torch.fx.symbolic_trace(chain)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(120)
    try:
        g = cl.to_graph(gm)
    finally:
        sys.setrecursionlimit(limit)
    assert len(g) == len(gm.graph.nodes) == 2002


# ---------------------------------------------------------------------------------------------- torch.compile
def test_capture_compiled_collects_the_dynamo_graph_and_counts_recompiles() -> None:
    model, x = mlp(), torch.randn(3, 4)
    cap = ta.capture_compiled(model, x)
    assert (cap.count, cap.used, cap.fallback_reason) == (1, "eager", None)
    torch.testing.assert_close(cap.output, model(x))
    gm = cap.graphs[0]
    g = cl.to_graph(gm)
    assert len(g) == len(gm.graph.nodes)
    assert [n.op for n in g.nodes if n.kind == "op"] == ["linear", "relu", "linear", "output"]
    # torch.compile lifts the parameters to graph inputs; the IR shows them as variables, in their module's scope
    assert sorted(n.scope for n in g.nodes if n.kind == "variable") == ["0", "0", "2", "2"]
    assert [n.name for n in g.nodes if n.kind == "input"] == ["l_args_0_"]

    with counters.counting(cap) as c:
        cap.compiled(torch.randn(3, 4))  # same shape: the guards pass, no new graph
    assert c.delta == 0
    with counters.counting(cap) as c:
        cap.compiled(torch.randn(5, 4))  # a new batch size: recompiled (with a dynamic size)
    assert c.delta == 1 and counters.compiled_graph_count(cap) == 2


def test_graph_break_on_data_dependent_if_gives_two_graphs() -> None:
    def f(x: torch.Tensor) -> torch.Tensor:
        y = torch.sin(x)
        if y.sum() > 0:  # Python branch on a tensor value: Dynamo must stop the graph here
            return y * 2
        return y - 1

    cap = ta.capture_compiled(f, torch.ones(3))
    assert cap.count == 2
    assert all(len(cl.to_graph(gm)) == len(gm.graph.nodes) for gm in cap.graphs)


def test_inductor_falls_back_to_aot_eager_when_the_cxx_compiler_is_hidden(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.setenv("CXX", "no-such-cxx-compiler")
    assert ta.cxx_compiler() is None

    def f(x: torch.Tensor) -> torch.Tensor:
        return torch.cos(x) * 3

    with pytest.warns(RuntimeWarning) as seen:
        cap = ta.capture_compiled(f, torch.zeros(2), backend="inductor")
    assert (cap.requested, cap.used, cap.count) == ("inductor", "aot_eager", 1)
    assert [message_of(w.message).msgid for w in seen if w.category is RuntimeWarning] == [ta.NO_COMPILER]
    assert cap.fallback_reason.msgid is ta.NO_COMPILER and cap.fallback_reason.values == {"cxx": "no-such-cxx-compiler"}
    assert cap.output.tolist() == [3.0, 3.0]


def test_cxx_compiler_lookup_follows_path(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.delenv("CXX", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no g++ anywhere
    assert ta.cxx_compiler() is None
    fake = tmp_path / "g++"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert ta.cxx_compiler() == str(fake)


def test_default_backend_never_compiles_cxx(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CXX", "no-such-cxx-compiler")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback warning: eager never needed a compiler
        cap = ta.capture_compiled(lambda x: x + 1, torch.zeros(2))
    assert cap.used == "eager" and cap.count == 1


# ---------------------------------------------------------------------------------------------- counters
def test_session_compile_count_of_our_static_engine() -> None:
    from course_lib import static as st

    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = st.sin(x * 2.0)
        z = y + 1.0
    sess = st.Session(g)
    with counters.counting(sess) as c:
        sess.run(y, feed_dict={x: 1.0})
        sess.run(y, feed_dict={x: 2.0})  # same fetches and feeds: the compiled plan is reused
    assert c.delta == 1
    sess.run(z, feed_dict={x: 1.0})  # new fetch: a new plan
    assert counters.session_compile_count(sess) == counters.count(sess) == 2


def test_counters_refuse_what_they_cannot_count() -> None:
    for call, msgid, kind in [(lambda: counters.tf_trace_count(lambda: None), counters.NOT_A_TF_FUNCTION, "function"),
                              (lambda: counters.compiled_graph_count(object()), counters.NOT_A_CAPTURE, "object"),
                              (lambda: counters.session_compile_count(object()), counters.NOT_A_SESSION, "object"),
                              (lambda: counters.count(3), counters.NOTHING_TO_COUNT, "int")]:
        with pytest.raises(TypeError) as info:
            call()
        assert message_of(info.value).msgid is msgid and message_of(info.value).values == {"type": kind}
