"""What converting real framework graphs to the IR costs, in one run: prints figures (never asserts).

    .venv/bin/python benchmarks/adapters.py

Why it matters: a notebook cell converts and draws a real graph on every run, so conversion must stay a small
part of the cell (framework import ~1-3 s, a first ``tf.function`` trace ~30 ms, ``torch.compile`` capture ~1 s).
Sizes: a 2,001-op TF1 chain, a ``tf.function`` with ``cond`` + ``while`` (bodies expanded), a 1,801-node torch
autograd graph with module scopes, its fx counterpart, and a torch.compile capture with the eager backend.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from course_lib.measure import fmt_seconds, measure, stamp


def row(what: str, nodes: int, seconds: float) -> None:
    print(f"  {what:<52} {nodes:>6} nodes  {fmt_seconds(seconds):>10}  ({fmt_seconds(seconds / nodes)} per node)")


def tensorflow_rows() -> None:
    t0 = time.perf_counter()
    import tensorflow as tf

    from course_lib.adapters import tensorflow as tfa

    print(f"TensorFlow {tf.__version__} (import {time.perf_counter() - t0:.1f} s)")
    with tf.Graph().as_default() as g:
        y = tf.compat.v1.placeholder(tf.float32, [], name="x")
        for _ in range(1000):
            y = y * 1.0001
    row("TF1 chain, tf.Graph -> IR", len(g.get_operations()), measure(lambda: tfa.to_graph(g), repeat=5).median)

    @tf.function
    def branchy(x: tf.Tensor, n: tf.Tensor) -> tf.Tensor:
        y = x * 2.0 if tf.reduce_sum(x) > 0 else x - 1.0
        i = tf.constant(0)
        while i < n:
            y = y + 1.0
            i += 1
        return y

    c = branchy.get_concrete_function(tf.TensorSpec([3], tf.float32), tf.TensorSpec([], tf.int32))
    row("tf.function cond + while, bodies expanded", tfa.count_ops(c).total, measure(lambda: tfa.to_graph(c)).median)


def torch_rows() -> None:
    t0 = time.perf_counter()
    import torch
    from torch import nn

    from course_lib.adapters import torch as ta

    print(f"PyTorch {torch.__version__} (import {time.perf_counter() - t0:.1f} s)")

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x + torch.tanh(self.fc(x))

    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Sequential(*[Block() for _ in range(20)]) for _ in range(15)])
    params = dict(model.named_parameters())
    x = torch.randn(2, 4)
    with ta.module_scopes(model):
        loss = model(x).sum()
    n = ta.count_autograd_nodes(loss)
    row("autograd graph, 300 residual blocks -> IR", n, measure(lambda: ta.autograd_graph(loss, params=params)).median)
    row("forward pass alone (records that graph)", n, measure(lambda: model(x).sum()).median)
    gm = torch.fx.symbolic_trace(model)
    row("torch.fx.symbolic_trace graph -> IR", len(gm.graph.nodes), measure(lambda: ta.fx_graph(gm)).median)
    t0 = time.perf_counter()
    cap = ta.capture_compiled(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), torch.randn(3, 4))
    row("torch.compile capture (backend eager), first call", len(cap.graphs[0].graph.nodes), time.perf_counter() - t0)


if __name__ == "__main__":
    print(" ".join(f"{k}={v}" for k, v in stamp().items()))
    tensorflow_rows()
    torch_rows()
