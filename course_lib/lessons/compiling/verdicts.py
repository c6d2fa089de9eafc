"""Answer 1's 2017 figures next to today's measurements, with a verdict per row.

>>> op_verdict(1.5e-6), change_verdict(3e-3)
('holds: about 1 µs', 'the penalty is larger today')
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_, Said, number, say
from ...i18n import gettext as _
from ...measure import fmt_seconds
from .tables import Table, compare
from .tf1 import LABELS, TF1Costs

__all__ = ["CLAIMS_2017", "change_verdict", "extension_vs_2017", "op_verdict", "ratio_text", "then_and_now"]


#: The figures Answer 1 gave in 2017 (seconds).
CLAIMS_2017 = {"graph change": 200e-6, "op": 1e-6}
#: Answer 1's words for them, as the table quotes them.
PERHAPS_200, AS_LOW_AS_1 = N_("perhaps 200 µs"), N_("as low as 1 µs")
#: A measured time against a 2017 figure (``ratio``: the number, as the language writes it).
TIMES_ABOVE, TIMES_BELOW = N_("{ratio}× the 2017 figure"), N_("{ratio}× below the 2017 figure")
#: The verdicts of :func:`op_verdict` (one op against "as low as 1 µs"), from the closest to the farthest.
OP_HOLDS, OP_SAME_ORDER, OP_NO = N_("holds: about 1 µs"), N_("same order: a few µs"), N_("no: well above 1 µs")
#: The verdicts of :func:`change_verdict` (a compile step against "perhaps 200 µs"), from the cheapest.
CHANGE_CHEAPER, CHANGE_HOLDS, CHANGE_LARGER = (N_("cheaper than 200 µs"), N_("holds: about 200 µs"),
                                               N_("the penalty is larger today"))
EXTENSION = N_("{n} ops, {label}: median {median} (IQR {low}–{high}), {ratio} (perhaps 200 µs); it includes the "
               "run itself, which alone costs {steady} (steady row).")


def ratio_text(today: float, then: float) -> str:
    """How a measured time compares with the 2017 figure, in words."""
    r = today / then
    if r >= 1:
        return _(TIMES_ABOVE).format(ratio=number(r, spec=",.0f" if r >= 10 else ".2g"))
    return _(TIMES_BELOW).format(ratio=number(1 / r, spec=".2g"))


def op_verdict(seconds: float) -> Said:
    """Answer 1's "as low as 1 µs" against one measured op (its ``msgid``: :data:`OP_HOLDS`, ...)."""
    r = seconds / CLAIMS_2017["op"]
    return say(OP_HOLDS if r <= 2 else OP_SAME_ORDER if r <= 10 else OP_NO)


def change_verdict(seconds: float) -> Said:
    """Answer 1's "perhaps 200 µs" against one measured compile step (its ``msgid``: :data:`CHANGE_CHEAPER`, ...)."""
    r = seconds / CLAIMS_2017["graph change"]
    return say(CHANGE_CHEAPER if r < 0.5 else CHANGE_HOLDS if r <= 2 else CHANGE_LARGER)


def extension_vs_2017(tf1: TF1Costs) -> list[str]:
    """Answer 1's cost (``extend only (old fetch)``) against "perhaps 200usec", then the two other costs beside it,
    each compared with the extension: sentences computed from this run's medians and spreads."""
    m = tf1.extend_only_s
    lines = [_(EXTENSION).format(n=tf1.n, label=_(LABELS["extend"]), median=fmt_seconds(m.median),
                                 low=fmt_seconds(m.low), high=fmt_seconds(m.high),
                                 ratio=ratio_text(m.median, CLAIMS_2017["graph change"]),
                                 steady=fmt_seconds(tf1.steady_s.median))]
    for key in ("new_fetch", "both"):
        lines.append(_("  beside it, not the quote's cost: {comparison}").format(
            comparison=compare(_(LABELS[key]), tf1.cost(key), _(LABELS["extend"]), m)))
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
        rows.append((_("TF1, {n} ops: {label}").format(n=t.n, label=_(LABELS["extend"])), _(PERHAPS_200),
                     fmt_seconds(m.median), ratio_text(m.median, CLAIMS_2017["graph change"]),
                     change_verdict(m.median)))
    if graphs:  # one op of a run: only the largest graph, where a run's fixed cost is shared by many ops
        t = max(graphs, key=lambda g: g.n)
        rows.append((_("TF1, {n} ops: run an op in a previously defined graph").format(n=t.n), _(AS_LOW_AS_1),
                     fmt_seconds(t.per_op_s), ratio_text(t.per_op_s, CLAIMS_2017["op"]), op_verdict(t.per_op_s)))
    for label in ("numpy", "PyTorch eager"):
        if per_op and label in per_op:
            seconds = per_op[label].median
            rows.append((_("{label}: one op").format(label=_(label)), _(AS_LOW_AS_1), fmt_seconds(seconds),
                         ratio_text(seconds, CLAIMS_2017["op"]), op_verdict(seconds)))
    return Table([_("what"), _("Answer 1 (2017)"), _("today, this machine (median)"), _("today vs 2017"),
                  _("this run says")], rows)
