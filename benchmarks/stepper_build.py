"""How long does a stepping widget take to build? Stepper at 250/500/1,000 ops, SideBySide at 100/200/300 ops.

Run: ``.venv/bin/python benchmarks/stepper_build.py`` (about a minute; minutes on code with a quadratic build).
It prints figures and ratios; it asserts nothing about time (tests count work, never seconds). ``--smoke``: one
tiny program, one call per figure (what ``./course test`` runs, so that a renamed API breaks CI instead of this
script). ``--sizes 250 500`` / ``--side-sizes 100``: other sizes; ``--repeat``: calls per figure.

* **record**: ``trace.record(program, style, inputs)``, the events a stepper replays (not part of the widget).
* **Stepper**: ``Stepper(trace)`` from that trace: the layout, the room for every label, the frames the page
  keeps (all of them while they fit ``MAX_BYTES``, else the one shown), the controls (layout cache cleared first:
  a new program is what a student builds).
* **SideBySide**: ``SideBySide(program, inputs)``: both recordings and both panes.
* **ratio**: the time at this size over the time at the previous size. Linear growth doubles it from 250 to 500
  (ratio ≈ 2); a quadratic build gives ≈ 4.

The program is a loop of ``n`` scalar ops (``y = ops.sin(y) * w``, ``n / 2`` times): the "1,000-op loop" of
issue 25, which took 12 s to step through before the build was made linear.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))  # this checkout's course_lib, wherever it is

from course_lib import render, trace
from course_lib.measure import fmt_seconds, measure, stamp
from course_lib.programs import loop
from course_lib.widgets import SideBySide, Stepper

INPUTS = {"x": 0.5, "w": 0.9}


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """The median of ``repeat`` single calls, no warm-up (every call is a first build: the layout cache is cleared
    in ``fn``), summarized as every timing of the course is (course_lib.measure)."""
    return measure(fn, repeat=repeat, number=1, warmup=0).median


def stepper_row(n: int, style: str, repeat: int) -> dict[str, float]:
    """Median seconds to record the trace and to build its Stepper, and the trace's length."""
    program = loop(n)
    tr = trace.record(program, style, INPUTS)

    def build() -> None:
        render.clear_cache()
        Stepper(tr)

    return {"record": timed(lambda: trace.record(program, style, INPUTS), repeat), "build": timed(build, repeat),
            "steps": float(len(tr))}


def side_by_side_row(n: int, repeat: int) -> dict[str, float]:
    """Median seconds to build a SideBySide of an ``n``-op program (both recordings included)."""
    program = loop(n)

    def build() -> None:
        render.clear_cache()
        SideBySide(program, INPUTS)

    return {"build": timed(build, repeat)}


def ratio(now: float, before: float | None) -> str:
    return f"{now / before:>5.2f}" if before else f"{'':>5}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one tiny program, one call each: checks the script runs")
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000], help="Stepper sizes, in ops")
    parser.add_argument("--side-sizes", type=int, nargs="+", default=[100, 200, 300], help="SideBySide sizes")
    parser.add_argument("--repeat", type=int, default=3, help="calls per figure (the median is printed)")
    args = parser.parse_args(argv)
    sizes = [8] if args.smoke else [2 * (s // 2) for s in args.sizes]
    side_sizes = [4] if args.smoke else [2 * (s // 2) for s in args.side_sizes]
    repeat = 1 if args.smoke else args.repeat
    info = stamp()
    print(f"stepper build benchmark  python {info.get('python', '')}  {info.get('machine', '')}  "
          f"cpus={os.cpu_count()}  medians of {repeat} call(s)")
    if args.smoke:
        print("SMOKE RUN (one tiny program, one call per figure): the figures below are not measurements")
    render.Layout(trace.record(loop(2), "define-by-run", INPUTS).graph)  # warm-up: Graphviz loads its plugins once
    head = f"{'widget':<10} | {'style':<15} | {'ops':>5} | {'steps':>5} | {'record':>9} | {'build':>9} | " \
           f"{'per op':>9} | {'ratio':>5}"
    print(head)
    print("-" * len(head))
    for style in trace.STYLES:
        before = None
        for n in sizes:
            m = stepper_row(n, style, repeat)
            print(f"{'Stepper':<10} | {style:<15} | {n:>5} | {int(m['steps']):>5} | {fmt_seconds(m['record']):>9} | "
                  f"{fmt_seconds(m['build']):>9} | {fmt_seconds(m['build'] / n):>9} | {ratio(m['build'], before)}")
            before = m["build"]
    before = None
    for n in side_sizes:
        m = side_by_side_row(n, repeat)
        print(f"{'SideBySide':<10} | {'both':<15} | {n:>5} | {'':>5} | {'(inside)':>9} | "
              f"{fmt_seconds(m['build']):>9} | {fmt_seconds(m['build'] / n):>9} | {ratio(m['build'], before)}")
        before = m["build"]
    print("ratio: this size's build over the previous size's (2x the ops: about 2 if linear, 4 if "
          "quadratic; 200 -> 300 ops: 1.5 linear, 2.25 quadratic). 2 shared cores: expect noise.")


if __name__ == "__main__":
    sys.exit(main())
