"""Answer 1's 2017 figures next to today's measurements, with a verdict per row.

>>> op_verdict(1.5e-6), change_verdict(3e-3)
('holds: about 1 µs', 'the penalty is larger today')
"""

from __future__ import annotations

from typing import Any

from ...measure import fmt_seconds
from .tables import Table, compare
from .tf1 import LABELS, TF1Costs

__all__ = ["CLAIMS_2017", "change_verdict", "extension_vs_2017", "op_verdict", "ratio_text", "then_and_now"]


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


def extension_vs_2017(tf1: TF1Costs) -> list[str]:
    """Answer 1's cost (``extend only (old fetch)``) against "perhaps 200usec", then the two other costs beside it,
    each compared with the extension: sentences computed from this run's medians and spreads."""
    m = tf1.extend_only_s
    lines = [(f"{tf1.n} ops, {LABELS['extend']}: median {fmt_seconds(m.median)} (IQR {fmt_seconds(m.low)}–"
              f"{fmt_seconds(m.high)}), {ratio_text(m.median, CLAIMS_2017['graph change'])} (perhaps 200 µs); "
              f"it includes the run itself, which alone costs {fmt_seconds(tf1.steady_s.median)} (steady row).")]
    for key in ("new_fetch", "both"):
        lines.append("  beside it, not the quote's cost: " + compare(LABELS[key], tf1.cost(key), LABELS["extend"], m))
    return lines


def then_and_now(tf1: TF1Costs | list[TF1Costs] | None = None, per_op: dict[str, Any] | None = None) -> Table:
    """Answer 1's 2017 figures next to what measures the same thing today. Only the extension of a TF1 graph
    (``extend only (old fetch)``) is set against "perhaps 200usec"; a new executor, a trace or a capture are
    other operations, in their own tables. The last column is computed from this run's medians.

    >>> from course_lib.measure import Measurement
    >>> then_and_now(per_op={"numpy": Measurement(0.4e-6, 0.3e-6, 0.5e-6, 5, 1000)}).rows[0][-1]
    'holds: about 1 µs'
    """
    rows: list[tuple[str, ...]] = []
    graphs = [] if tf1 is None else tf1 if isinstance(tf1, list) else [tf1]
    for t in graphs:
        m = t.extend_only_s
        rows.append((f"TF1, {t.n} ops: {LABELS['extend']}", "perhaps 200 µs", fmt_seconds(m.median),
                     ratio_text(m.median, CLAIMS_2017["graph change"]), change_verdict(m.median)))
    if graphs:  # one op of a run: only the largest graph, where a run's fixed cost is shared by many ops
        t = max(graphs, key=lambda g: g.n)
        rows.append((f"TF1, {t.n} ops: run an op in a previously defined graph", "as low as 1 µs",
                     fmt_seconds(t.per_op_s), ratio_text(t.per_op_s, CLAIMS_2017["op"]), op_verdict(t.per_op_s)))
    for label in ("numpy", "PyTorch eager"):
        if per_op and label in per_op:
            seconds = per_op[label].median
            rows.append((f"{label}: one op", "as low as 1 µs", fmt_seconds(seconds),
                         ratio_text(seconds, CLAIMS_2017["op"]), op_verdict(seconds)))
    return Table(["what", "Answer 1 (2017)", "today, this machine (median)", "today vs 2017",
                  "this run says"], rows)
