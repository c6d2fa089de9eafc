"""``torch.compile`` on a small function: capture (first call), steady call, recompile on a new shape.

Graphs are counted by a counting backend (:func:`course_lib.adapters.torch.capture_compiled`); ``eager`` captures
without generating code, ``inductor`` really compiles (10-30 s, needs a C++ compiler).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ...adapters.loader import load_torch
from ...measure import Measurement, fmt_seconds, measure
from .chains import X
from .progress import Progress, ticker
from .tables import Table

__all__ = ["TorchCompileCosts", "kept_graphs", "torch_compile_costs"]


@dataclass
class TorchCompileCosts:
    """``torch.compile`` on a small function: capture (first call), steady call, recompile on a new shape."""

    backend: str
    fallback_reason: str | None
    first_call_s: Measurement
    steady_s: Measurement
    recompile_s: float
    eager_s: Measurement
    graphs: dict[str, int]
    fx_nodes: int
    capture: Any = field(repr=False, default=None)

    @property
    def first_graph(self) -> Any:
        """The first FX graph Dynamo captured and kept (a ``torch.fx.GraphModule``)."""
        return kept_graphs(self.capture)[0]

    def table(self) -> Table:
        return Table([f"torch.compile(…, backend={self.backend!r})", "time"], [
            ("first call: capture the graph (Dynamo)" + (", compile it (inductor)" if self.backend == "inductor"
                                                         else ", no code generated"),
             fmt_seconds(self.first_call_s.median)),
            ("steady call: guards pass, the captured graph is reused", fmt_seconds(self.steady_s.median)),
            ("call with a new shape: capture again (recompile)", fmt_seconds(self.recompile_s)),
            ("the same function eagerly", fmt_seconds(self.eager_s.median)),
        ])


def torch_compile_costs(inductor: bool = False, repeat: int = 5, progress: Progress | None = None
                        ) -> TorchCompileCosts:
    """Capture with a counting backend (``eager`` unless ``inductor``: then really compile, 10-30 s, needs a C++
    compiler; without one it falls back to ``aot_eager`` and says why). Graph counts after each phase."""
    torch = load_torch()
    from ...adapters.torch import capture_compiled

    tick = ticker(progress)

    def small(x: Any) -> Any:
        return torch.sin(x) * 2.0

    x = torch.tensor(X, dtype=torch.float64)
    backend = "inductor" if inductor else "eager"
    firsts = []
    for _ in range(2 if not inductor else 1):  # the very first capture also warms Dynamo up: take two
        torch._dynamo.reset()
        t0 = time.perf_counter()
        cap = capture_compiled(small, x, backend=backend)
        firsts.append(time.perf_counter() - t0)
        tick("capture")
    graphs = {"after the first call": len(kept_graphs(cap))}
    steady = measure(lambda: cap.compiled(x), repeat=repeat, budget=0.1)
    graphs["after many calls with the same input"] = len(kept_graphs(cap))
    tick("recompile")
    t0 = time.perf_counter()
    cap.compiled(torch.ones(3, dtype=torch.float64))
    recompile = time.perf_counter() - t0
    graphs["after a new shape (3,)"] = len(kept_graphs(cap))
    for k in (4, 5):
        cap.compiled(torch.ones(k, dtype=torch.float64))
    graphs["after shapes (4,) and (5,)"] = len(kept_graphs(cap))
    eager = measure(lambda: small(x), repeat=repeat, budget=0.05)
    tick()
    return TorchCompileCosts(cap.used, cap.fallback_reason, Measurement(firsts[-1], min(firsts), max(firsts),
                             len(firsts), 1), steady, recompile, eager, graphs, len(kept_graphs(cap)[0].graph.nodes), cap)


def kept_graphs(capture: Any) -> list[Any]:
    """The graphs a counting backend received, minus captures Dynamo abandoned and restarted.

    With inductor on a cold cache, Dynamo may call the backend, abort inside it (``TensorifyScalarRestartAnalysis``)
    and trace again; :class:`course_lib.adapters.torch.CountingBackend` records the aborted graph too, which Dynamo
    then empties. Only graphs that still have nodes were really captured.
    """
    return [g for g in capture.graphs if len(g.graph.nodes)]
