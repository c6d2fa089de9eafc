"""Answer 1's 2017 figures next to today's measurements, with a verdict per row.

>>> op_verdict(1.5e-6), change_verdict(3e-3)
('holds: about 1 µs', 'no: more than ten times 200 µs')
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_, Said, number, say
from ...i18n import gettext as _
from .tables import Table
from .tf1 import TF1Sweep

__all__ = ["CLAIMS_2017", "change_verdict", "op_verdict", "ratio_text", "then_and_now"]


#: The figures Answer 1 gave in 2017 (seconds).
CLAIMS_2017 = {"graph change": 200e-6, "op": 1e-6}
#: Answer 1's words for them, as the table quotes them (verbatim).
PERHAPS_200, AS_LOW_AS_1 = N_("perhaps 200usec"), N_("as low as 1 usec")
#: A measured time against a 2017 figure (``ratio``: the number, as the language writes it).
TIMES_ABOVE, TIMES_BELOW = N_("{ratio}× the 2017 figure"), N_("{ratio}× below the 2017 figure")
#: The verdicts of :func:`op_verdict` (one op against "as low as 1 usec"), from the closest to the farthest.
OP_CHEAPER, OP_HOLDS = N_("holds, and lower still: under 0.5 µs"), N_("holds: about 1 µs")
OP_SAME_ORDER, OP_NO = N_("same order: a few µs"), N_("no: well above 1 µs")
#: The verdicts of :func:`change_verdict` (a graph change against "perhaps 200usec"), from the cheapest.
CHANGE_CHEAPER, CHANGE_HOLDS = N_("cheaper than 200 µs"), N_("holds: about 200 µs")
CHANGE_SAME_ORDER, CHANGE_LARGER = N_("same order: a few times 200 µs"), N_("no: more than ten times 200 µs")
#: When the steady runs did not grow with the ops (a noisy run): no slope to set against "as low as 1 usec".
NO_SLOPE = N_("not measured: the steady runs did not grow with the ops")


def ratio_text(today: float, then: float) -> str:
    """How a measured time compares with the 2017 figure, in words."""
    r = today / then
    if r >= 1:
        return _(TIMES_ABOVE).format(ratio=number(r, spec=",.0f" if r >= 10 else ".2g"))
    return _(TIMES_BELOW).format(ratio=number(1 / r, spec=".2g"))


def op_verdict(seconds: float) -> Said:
    """Answer 1's "as low as 1 usec" against one measured op (its ``msgid``: :data:`OP_CHEAPER`, ...)."""
    r = seconds / CLAIMS_2017["op"]
    return say(OP_CHEAPER if r < 0.5 else OP_HOLDS if r <= 2 else OP_SAME_ORDER if r <= 10 else OP_NO)


def change_verdict(seconds: float) -> Said:
    """Answer 1's "perhaps 200usec" against one measured graph change (its ``msgid``: :data:`CHANGE_CHEAPER`, ...)."""
    r = seconds / CLAIMS_2017["graph change"]
    return say(CHANGE_CHEAPER if r < 0.5 else CHANGE_HOLDS if r <= 2 else CHANGE_SAME_ORDER if r <= 10 else
               CHANGE_LARGER)


def then_and_now(tf1: TF1Sweep | None = None, per_op: dict[str, Any] | None = None) -> Table:
    """Answer 1's 2017 figures next to what measures the same thing today, as ratios (the times themselves are in
    the tables and plots that measured them). Only the extension alone of a TF1 graph is set against "perhaps
    200usec", at each graph size; against "as low as 1 usec", one more op in a steady TF1 run (the slope over the
    sizes, :meth:`TF1Sweep.per_op`) and one op of numpy and PyTorch eager. The last column is computed from this
    run's medians.

    >>> from course_lib.measure import Measurement
    >>> then_and_now(per_op={"numpy": Measurement(0.8e-6, 0.7e-6, 0.9e-6, 5, 1000)}).rows[0][-1]
    'holds: about 1 µs'
    """
    rows: list[tuple[str, ...]] = []
    for t in tf1.costs if tf1 else []:
        seconds = t.extension_s
        rows.append((_("TF1, {chain}: the extension alone").format(chain=t.chain), _(PERHAPS_200),
                     ratio_text(seconds, CLAIMS_2017["graph change"]), change_verdict(seconds)))
    if tf1 and len(tf1.costs) > 1:
        slope, _fixed = tf1.per_op()
        rows.append((_("TF1: one more op in a steady run (slope)"), _(AS_LOW_AS_1),
                     *((ratio_text(slope, CLAIMS_2017["op"]), op_verdict(slope)) if slope > 0 else
                       ("—", say(NO_SLOPE)))))
    for label in ("numpy", "PyTorch eager"):
        if per_op and label in per_op:
            seconds = per_op[label].median
            rows.append((_("{label}: one op").format(label=_(label)), _(AS_LOW_AS_1),
                         ratio_text(seconds, CLAIMS_2017["op"]), op_verdict(seconds)))
    return Table([_("what"), _("Answer 1 (2017)"), _("today vs 2017"), _("this run says")], rows)
