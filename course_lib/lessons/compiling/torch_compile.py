"""``torch.compile`` on a small function: capture (first call), steady call, recompile on a new shape.

Graphs are counted by a counting backend (:func:`course_lib.adapters.torch.capture_compiled`); ``eager`` captures
without generating code, ``inductor`` really compiles (10-30 s, needs a C++ compiler).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ...adapters.loader import load_torch
from ...i18n import N_
from ...i18n import gettext as _
from ...measure import Measurement, measure, summarize
from .chains import X
from .progress import Progress, ticker
from .tables import TIMED, Table, timed

__all__ = ["TorchCompileCosts", "kept_graphs", "torch_compile_costs"]

#: The first row of :meth:`TorchCompileCosts.table`: with inductor, and with a backend that generates no code.
FIRST_CALL = {True: N_("first call: capture the graph (Dynamo), compile it (inductor)"),
              False: N_("first call: capture the graph (Dynamo), no code generated")}
#: The other rows, in order.
ROWS = (N_("steady call: guards pass, the captured graph is reused"),
        N_("call with a new shape: capture again (recompile)"), N_("the same function eagerly"))


@dataclass
class TorchCompileCosts:
    """``torch.compile`` on a small function: capture (first call), steady call, recompile on a new shape."""

    backend: str
    fallback_reason: str | None
    first_call_s: Measurement
    steady_s: Measurement
    recompile_s: Measurement
    eager_s: Measurement
    graphs: dict[str, int]
    fx_nodes: int
    capture: Any = field(repr=False, default=None)

    @property
    def first_graph(self) -> Any:
        """The first FX graph Dynamo captured and kept (a ``torch.fx.GraphModule``)."""
        return kept_graphs(self.capture)[0]

    def table(self) -> Table:
        first = timed(_(FIRST_CALL[self.backend == "inductor"]), self.first_call_s)
        later = zip(ROWS, (self.steady_s, self.recompile_s, self.eager_s), strict=True)
        return Table([f"torch.compile(…, backend={self.backend!r})", *TIMED],
                     [first] + [timed(_(label), m) for label, m in later])


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
    firsts, recompiles = [], []
    # a capture and a recompile happen once per fresh function: time `rounds` fresh ones (inductor: one, it is
    # slow); the first round also warms Dynamo up and is not counted
    rounds = 1 if inductor else max(2, repeat) + 1
    for k in range(rounds):
        torch._dynamo.reset()
        t0 = time.perf_counter()
        cap = capture_compiled(small, x, backend=backend)
        first = time.perf_counter() - t0
        if k == rounds - 1:  # the last round also counts graphs and times steady calls
            # graphs after each phase, said in the language of the moment (the notebook prints them)
            graphs = {_("after the first call"): len(kept_graphs(cap))}
            steady = measure(lambda cap=cap: cap.compiled(x), repeat=repeat, budget=0.1)
            graphs[_("after many calls with the same input")] = len(kept_graphs(cap))
        t0 = time.perf_counter()
        cap.compiled(torch.ones(3, dtype=torch.float64))
        again = time.perf_counter() - t0
        if k or rounds == 1:
            firsts.append(first)
            recompiles.append(again)
        tick(_("capture") if k < rounds - 1 else _("recompile"))
    graphs[_("after a new shape (3,)")] = len(kept_graphs(cap))
    for k in (4, 5):
        cap.compiled(torch.ones(k, dtype=torch.float64))
    graphs[_("after shapes (4,) and (5,)")] = len(kept_graphs(cap))
    eager = measure(lambda: small(x), repeat=repeat, budget=0.05)
    tick()
    return TorchCompileCosts(cap.used, cap.fallback_reason, summarize(firsts), steady, summarize(recompiles),
                             eager, graphs, len(kept_graphs(cap)[0].graph.nodes), cap)


def kept_graphs(capture: Any) -> list[Any]:
    """The graphs a counting backend received, minus captures Dynamo abandoned and restarted.

    With inductor on a cold cache, Dynamo may call the backend, abort inside it (``TensorifyScalarRestartAnalysis``)
    and trace again; :class:`course_lib.adapters.torch.CountingBackend` records the aborted graph too, which Dynamo
    then empties. Only graphs that still have nodes were really captured.
    """
    return [g for g in capture.graphs if len(g.graph.nodes)]
