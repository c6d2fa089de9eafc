"""How fast is the renderer? Full render, one step, and the `dot` program for comparison, at 20/100/300 nodes.

Run: ``.venv/bin/python benchmarks/render.py`` (about 20 s with the ``dot`` program, 1 s without). It prints figures;
it asserts nothing about time (tests check structure, never timings). ``--smoke``: one 20-node graph, one call per
figure (what ``./course test`` runs, so that a renamed renderer API breaks CI instead of this script).

* **full render (pygraphviz)**: a graph never seen before -> plan, DOT, in-process layout, SVG (cache cleared).
* **full render (dot program)**: the DOT of ``render.draw`` piped through the ``dot`` program by the graphviz
  package, as a course without pygraphviz would do on every display (process start included).
* **our path on the dot program**: the same as the first line, with the layout taken from ``dot -Tjson``.
* **one step**: a new state of an already laid-out graph (every node gets a value it never had: no cached
  fragment helps); **replayed step**: a state drawn before (what a stepper's slider does after pre-rendering).
* targets: step / full render <= 5 %, rebuild (our full render) / dot-program render <= 0.8 at 100 nodes.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))  # this checkout's course_lib, wherever it is

from course_lib import render
from course_lib.graph import Graph
from course_lib.measure import measure as timed


def model_graph(n: int) -> Graph:
    """A graph shaped like a real model: dense layers (kernel, bias, MatMul, BiasAdd, Relu) under name scopes and a
    skip connection every third layer; exactly ``n`` nodes."""
    g = Graph(f"model{n}")
    prev = g.add("placeholder", name="x", kind="input")
    outs = [prev]
    k = 0
    while len(g) < n:
        s = f"dense_{k}"
        made = []
        for op, name, kind, ins in (("VariableV2", "kernel", "variable", ()), ("VariableV2", "bias", "variable", ()),
                                    ("MatMul", "MatMul", "op", (prev, -2)), ("BiasAdd", "BiasAdd", "op", (-1, -2)),
                                    ("Relu", "Relu", "op", (-1,))):
            if len(g) >= n:
                break
            inputs = [made[i] if isinstance(i, int) else i for i in ins]
            made.append(g.add(op, inputs, name=f"{s}/{name}", kind=kind, scope=s,
                              value=0.5 if kind == "variable" else None))
        prev = made[-1]
        if k % 3 == 2 and len(g) < n:
            prev = g.add("add", [prev, outs[-3]], name=f"skip_{k}")
        outs.append(prev)
        k += 1
    g.mark_output(prev)
    return g


@dataclass(frozen=True)
class _NS:
    status: str
    value: float | None
    grad: float | None


def median_time(fn, repeats: int) -> float:
    """The median of ``repeats`` single calls, no warm-up (a first render is part of what is timed), summarized as
    every timing of the course is (course_lib.measure)."""
    return timed(fn, repeat=repeats, number=1, warmup=0).median


def measure(n: int, reps: int, has_dot: bool) -> dict[str, float]:
    """Median seconds for one graph size (see the module docstring for what each figure is); ``reps`` calls each
    (the step figures 2 × ``reps``, the dot-program ones at least 3 unless ``reps`` is 1: a smoke run)."""
    few = 1 if reps == 1 else max(3, reps // 2)
    import graphviz

    g = model_graph(n)

    def full() -> None:
        render.clear_cache()
        render.Layout(g).svg()

    out = {"full": median_time(full, reps), "dot": float("nan"), "ours_dot": float("nan")}
    if has_dot:
        source = render.draw(g).source
        out["dot"] = median_time(lambda: graphviz.Source(source).pipe(format="svg"), few)
        saved = render.engines.ENGINES
        render.engines.ENGINES = tuple(e for e in saved if e[0] == "dot program")
        try:
            out["ours_dot"] = median_time(full, few)
        finally:
            render.engines.ENGINES = saved

    lay = render.Layout(g, reserve=[{k.id: _NS("running", 0.5, 0.5) for k in g.nodes}])
    counter = iter(range(10**9))

    def new_step() -> None:  # every node a value it never had: all fragments built anew
        k = next(counter)
        lay.svg({node.id: _NS("done", k + node.id / 1000, None) for node in g.nodes})

    out["step"] = median_time(new_step, reps * 2)
    replay_state = {node.id: _NS("done" if node.id % 2 else "defined", 1.0, None) for node in g.nodes}
    lay.svg(replay_state)
    out["replay"] = median_time(lambda: lay.svg(replay_state), reps * 2)
    return out


FULL = ((20, 25), (100, 11), (300, 5))  # (nodes, calls per figure)
SMOKE = ((20, 1),)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one small graph, one call each: checks the script runs")
    smoke = parser.parse_args(argv).smoke
    has_dot = shutil.which("dot") is not None
    print(f"renderer benchmark  python {platform.python_version()}  {platform.machine()}  cpus={os.cpu_count()}  "
          f"dot program: {'yes' if has_dot else 'no (skipped)'}")
    if smoke:
        print("SMOKE RUN (one 20-node graph, one call per figure): the figures below are not measurements")
    render.Layout(model_graph(5))  # warm-up: first use loads the Graphviz plugins and fonts
    head = (f"{'nodes':>5} | {'full pygraphviz':>15} | {'full dot prog':>13} | {'ours on dot':>11} | {'one step':>9} | "
            f"{'replayed':>9} | {'step/full':>9} | {'rebuild/dot':>11}")
    print(head)
    print("-" * len(head))
    for n, reps in SMOKE if smoke else FULL:
        m = measure(n, reps, has_dot)
        print(f"{n:>5} | {m['full'] * 1e3:>12.2f} ms | {m['dot'] * 1e3:>10.2f} ms | {m['ours_dot'] * 1e3:>8.2f} ms | "
              f"{m['step'] * 1e3:>6.3f} ms | {m['replay'] * 1e3:>6.3f} ms | {m['step'] / m['full']:>8.1%} | "
              f"{m['full'] / m['dot']:>11.2f}")
    print("targets: step/full <= 5 %; rebuild/dot <= 0.8 at 100 nodes. Medians; 2 shared cores, so expect noise.")


if __name__ == "__main__":
    sys.exit(main())
