"""What converting real framework graphs to the IR costs, in one run: prints figures (never asserts).

    .venv/bin/python benchmarks/adapters.py           # the full run (about 15 s, most of it framework imports)
    .venv/bin/python benchmarks/adapters.py --smoke   # the same conversions on tiny graphs, one call each

Why it matters: a notebook cell converts and draws a real graph on every run, so conversion must stay a small
part of the cell (framework import ~1-3 s, a first ``tf.function`` trace ~30 ms, ``torch.compile`` capture ~1 s).
Sizes: a 2,001-op TF1 chain, a ``tf.function`` with ``cond`` + ``while`` (bodies expanded), a 1,801-node torch
autograd graph with module scopes, its fx counterpart, and a torch.compile capture with the eager backend.
The smoke run (what ``./course test`` runs) shrinks the chain and the network; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from course_lib.measure import fmt_seconds, measure, stamp


@dataclass(frozen=True)
class Config:
    """Sizes and repeats: a TF1 chain of ``chain`` Mul ops, a network of ``stages`` × ``blocks`` residual blocks."""

    chain: int = 1000
    stages: int = 15
    blocks: int = 20
    smoke: bool = False

    def time(self, fn, repeat: int = 7) -> float:
        return measure(fn, repeat=1, number=1).median if self.smoke else measure(fn, repeat=repeat).median


FULL = Config()
SMOKE = Config(chain=10, stages=2, blocks=2, smoke=True)


def row(what: str, nodes: int, seconds: float) -> None:
    print(f"  {what:<52} {nodes:>6} nodes  {fmt_seconds(seconds):>10}  ({fmt_seconds(seconds / nodes)} per node)")


def tensorflow_rows(cfg: Config) -> None:
    t0 = time.perf_counter()
    import tensorflow as tf

    from course_lib.adapters import tensorflow as tfa

    print(f"TensorFlow {tf.__version__} (import {time.perf_counter() - t0:.1f} s)")
    with tf.Graph().as_default() as g:
        y = tf.compat.v1.placeholder(tf.float32, [], name="x")
        for _ in range(cfg.chain):
            y = y * 1.0001
    row("TF1 chain, tf.Graph -> IR", len(g.get_operations()), cfg.time(lambda: tfa.to_graph(g), repeat=5))

    @tf.function
    def branchy(x: tf.Tensor, n: tf.Tensor) -> tf.Tensor:
        y = x * 2.0 if tf.reduce_sum(x) > 0 else x - 1.0
        i = tf.constant(0)
        while i < n:
            y = y + 1.0
            i += 1
        return y

    c = branchy.get_concrete_function(tf.TensorSpec([3], tf.float32), tf.TensorSpec([], tf.int32))
    row("tf.function cond + while, bodies expanded", tfa.count_ops(c).total, cfg.time(lambda: tfa.to_graph(c)))


def torch_rows(cfg: Config) -> None:
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
    model = nn.Sequential(*[nn.Sequential(*[Block() for _ in range(cfg.blocks)]) for _ in range(cfg.stages)])
    params = dict(model.named_parameters())
    x = torch.randn(2, 4)
    with ta.module_scopes(model):
        loss = model(x).sum()
    n = ta.count_autograd_nodes(loss)
    blocks = cfg.stages * cfg.blocks
    row(f"autograd graph, {blocks} residual blocks -> IR", n, cfg.time(lambda: ta.autograd_graph(loss, params=params)))
    row("forward pass alone (records that graph)", n, cfg.time(lambda: model(x).sum()))
    gm = torch.fx.symbolic_trace(model)
    row("torch.fx.symbolic_trace graph -> IR", len(gm.graph.nodes), cfg.time(lambda: ta.fx_graph(gm)))
    t0 = time.perf_counter()
    cap = ta.capture_compiled(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)), torch.randn(3, 4))
    row("torch.compile capture (backend eager), first call", len(cap.graphs[0].graph.nodes), time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny graphs, one call each: checks the script runs")
    cfg = SMOKE if parser.parse_args(argv).smoke else FULL
    print(" ".join(f"{k}={v}" for k, v in stamp().items()))
    if cfg.smoke:
        print("SMOKE RUN (tiny graphs, one call per figure): the figures below are not measurements")
    tensorflow_rows(cfg)
    torch_rows(cfg)


if __name__ == "__main__":
    main()
