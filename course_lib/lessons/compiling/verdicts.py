"""Answer 1's 2017 figures next to today's measurements, with a verdict per row.

>>> op_verdict(1.5e-6), change_verdict(3e-3)
('holds: about 1 µs', 'the penalty is larger today')
"""

from __future__ import annotations

from typing import Any

from ...measure import fmt_seconds
from .engines import EngineCosts
from .tables import Table
from .tf1 import TF1Costs
from .tf_function import TFFunctionCosts
from .torch_compile import TorchCompileCosts

__all__ = ["CLAIMS_2017", "change_verdict", "op_verdict", "ratio_text", "then_and_now"]


#: The figures Answer 1 gave in 2017 (seconds).
CLAIMS_2017 = {"graph change": 200e-6, "op": 1e-6}


def ratio_text(today: float, then: float) -> str:
    """How a measured time compares with the 2017 figure, in words."""
    r = today / then
    if r >= 1:
        return f"{r:,.0f}× the 2017 figure" if r >= 10 else f"{r:.2g}× the 2017 figure"
    return f"{1 / r:.2g}× below the 2017 figure"


def op_verdict(seconds: float) -> str:
    """Answer 1's "as low as 1 µs" against one measured op."""
    r = seconds / CLAIMS_2017["op"]
    if r <= 2:
        return "holds: about 1 µs"
    if r <= 10:
        return "same order: a few µs"
    return "no: well above 1 µs"


def change_verdict(seconds: float) -> str:
    """Answer 1's "perhaps 200 µs" against one measured compile step."""
    r = seconds / CLAIMS_2017["graph change"]
    if r < 0.5:
        return "cheaper than 200 µs"
    if r <= 2:
        return "holds: about 200 µs"
    return "the penalty is larger today"


def then_and_now(engines: EngineCosts | None = None, tf1: TF1Costs | None = None,
                 per_op: dict[str, Any] | None = None, tf_fn: TFFunctionCosts | None = None,
                 torch_c: TorchCompileCosts | None = None) -> Table:
    """Answer 1's 2017 figures next to today's measurements, with a verdict per row (rows for what was measured).

    >>> from course_lib.measure import Measurement
    >>> then_and_now(per_op={"numpy": Measurement(0.4e-6, 0.3e-6, 0.5e-6, 5, 1000)}).rows[0][-1]
    'holds: about 1 µs'
    """
    rows: list[tuple[str, ...]] = []

    def change(what: str, claim: str, seconds: float) -> None:
        rows.append((what, claim, fmt_seconds(seconds), ratio_text(seconds, CLAIMS_2017["graph change"]),
                     change_verdict(seconds)))

    def op(what: str, claim: str, seconds: float) -> None:
        rows.append((what, claim, fmt_seconds(seconds), ratio_text(seconds, CLAIMS_2017["op"]), op_verdict(seconds)))

    if tf1 is not None:
        change("TF1: modify the graph, then run", "perhaps 200 µs", tf1.add_node_and_run_s.median)
        op("TF1: run an op in a previously defined graph", "as low as 1 µs", tf1.per_op_s)
        rows.append(("TF1: one Session.run call (whole graph)", "—", fmt_seconds(tf1.steady_s.median), "—",
                     "a fixed cost per run"))
    for label, claim in (("numpy", "as low as 1 µs"), ("PyTorch eager", "as low as 1 µs"),
                         ("PyTorch eager, recording autograd", "—"), ("TensorFlow eager", "did not exist")):
        if per_op and label in per_op:
            op(f"{label}: one op", claim, per_op[label].median)
    if tf_fn is not None:
        change("tf.function: first call (trace)", "did not exist", tf_fn.first_call_s.median)
        change("tf.function: retrace on a new shape", "did not exist", tf_fn.retrace_s.median)
    if torch_c is not None:
        change(f"torch.compile ({torch_c.backend}): first call", "did not exist", torch_c.first_call_s.median)
    if engines is not None:
        change(f"our static engine: add a node, recompile, run ({engines.n} ops)", "—",
               engines.edit_and_run_s.median)
    return Table(["what", "Answer 1 (2017)", "today, this machine", "today vs 2017", "verdict"], rows)
