"""XLA against plain tf.function and eager on notebook 08's chain of elementwise ops: figures and ratios, no asserts.

    .venv/bin/python benchmarks/xla_chain.py           # the notebook's workload, three runs, then the contrasts
    .venv/bin/python benchmarks/xla_chain.py --smoke   # every code path once, tiny sizes (what ./course test runs)

The workload is :func:`course_lib.lessons.xla_payoff.chain`: 30 elementwise ops over a 2,048 × 2,048 float32 matrix
(16 MB). Plain tf.function runs one kernel per op, each reading one 16 MB array and writing another; XLA runs one
fused loop that reads the input once and writes the output once. The script prints, for each run, the medians and
quartiles of the first and steady calls of eager, tf.function and tf.function(jit_compile=True), the kernels each
way ran, the ratios of the steady medians and the break-even calls (first calls included). The contrasts then
show where the gain comes from: the same chain on a small matrix (the data fits in cache and per-call overhead
dominates) and a shorter chain. On a busy machine the spreads widen; the notebook's sentences say so when they
overlap. The smoke run prints the same lines, but its figures mean nothing.
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from course_lib.lessons import xla_payoff as xp
from course_lib.measure import Measurement, fmt_seconds, stamp


def spread(m: Measurement) -> str:
    return f"{fmt_seconds(m.median)} [{fmt_seconds(m.low)}–{fmt_seconds(m.high)}]"


def report(label: str, p: xp.XlaPayoff) -> None:
    """One run: figures per way, counts, ratios, break-evens."""
    w = p.ways
    print(f"\n{label}: {p.ops} ops on {p.shape[0]}×{p.shape[1]} float32 ({p.megabytes:.3g} MB)")
    for name, way in w.items():
        print(f"  {name:<30} first {spread(way.first):<28} steady {spread(way.steady):<28} "
              f"first - steady {fmt_seconds(max(0.0, way.first.median - way.steady.median))}")
    print(f"  kernels: plain tf.function {p.graph_ops}, XLA {p.kernels} ({p.fused} ops fused); "
          f"bytes moved per call, counted from the kernels: plain {2 * p.graph_ops * p.megabytes:.0f} MB, "
          f"XLA {2 * p.kernels * p.megabytes:.0f} MB")
    xla, plain, eager = w[xp.XLA].steady.median, w[xp.TF_FUNCTION].steady.median, w[xp.EAGER].steady.median
    print(f"  ratios of steady medians: XLA / tf.function {xla / plain:.3f}, XLA / eager {xla / eager:.3f}, "
          f"tf.function / eager {plain / eager:.3f}")
    overlap = w[xp.XLA].steady.high >= w[xp.TF_FUNCTION].steady.low
    print(f"  XLA's and tf.function's steady spreads {'OVERLAP' if overlap else 'do not overlap'}")
    for a, b in ((xp.XLA, xp.TF_FUNCTION), (xp.XLA, xp.EAGER), (xp.TF_FUNCTION, xp.EAGER)):
        n = p.break_even(a, b)
        print(f"  break-even {a} vs {b}: {'never' if n is None else f'{n} call(s)'}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one call each: checks the script runs")
    parser.add_argument("--runs", type=int, default=3, help="runs of the notebook's workload (default 3)")
    args = parser.parse_args(argv)
    print("stamp:", ", ".join(f"{k}={v}" for k, v in stamp().items()))
    if args.smoke:
        print("SMOKE RUN (tiny sizes, one call per figure): the figures below are not measurements")
        report("smoke", xp.run(shape=(16, 8), ops=4, repeat=1, budget=0.001))
        return
    for k in range(args.runs):
        report(f"notebook 08's workload, run {k + 1}", xp.run())
    report("contrast: the same chain on a small matrix", xp.run(shape=(64, 64), budget=0.5))
    report("contrast: a chain of 6 ops", xp.run(ops=6))


if __name__ == "__main__":
    main()
