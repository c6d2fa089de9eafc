"""Tables of measured numbers, stamped with the versions and hardware they were measured on.

>>> t = Table(["what", "time"], [("one op", "1 µs")], caption="stamp")
>>> print(repr(t))
what    time
one op  1 µs
stamp
>>> runs_text(1234), runs_text(None)
('1,234 runs', 'never (a compiled run is not faster)')
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from ...i18n import N_, Lazy, Plural, Said, number, say
from ...i18n import gettext as _
from ...measure import Measurement, fmt_seconds, stamp

__all__ = ["TIMED", "Table", "compare", "measured_with", "runs_count", "runs_text", "stamp_line", "timed"]

#: The line under a table of measured numbers (see :func:`measured_with`); ``n``: the number of CPUs, if known.
MEASURED_WITH = Plural("measured with {libs} on {cpu} ({cpus} CPU)",
                       "measured with {libs} on {cpu} ({cpus} CPUs)")
#: The sentences of :func:`compare`: which median is larger (``spreads``: one of :data:`SPREADS`).
COST_MORE = N_("On this run, {a} cost more than {b}: {ratio}× (medians {median_a} and {median_b}; {spreads}).")
COST_LESS = N_("On this run, {a} cost less than {b}: {ratio}× (medians {median_a} and {median_b}; {spreads}).")
COST_SAME = N_("On this run, {a} cost as much as {b}: {ratio}× (medians {median_a} and {median_b}; {spreads}).")
SPREADS = {True: N_("the spreads overlap: the order can change from run to run"),
           False: N_("the spreads do not overlap")}
NEVER = N_("never (a compiled run is not faster)")


def stamp_line() -> str:
    """Versions and hardware in one line, printed under every table and plot of measured numbers."""
    s = stamp()
    libs = ", ".join(f"{k} {s[k]}" for k in ("python", "numpy", "tensorflow", "torch") if k in s)
    return measured_with(libs, s.get("cpu", s.get("machine", "?")), s.get("cpus", "?"))


def measured_with(libs: str, cpu: str, cpus: Any) -> str:
    """``measured with numpy 2.3.5 on AMD EPYC (2 CPUs)``; "(1 CPU)" for one. ``cpus`` as the stamp holds it
    (text: ``"2"``); an unknown count (``"?"``, ``"None"``) takes the plural."""
    n = int(cpus) if str(cpus).isdigit() else 2
    return str(say(MEASURED_WITH, libs=libs, cpu=cpu, cpus=cpus, n=n))



@dataclass
class Table:
    """A small table of measured numbers; HTML in Jupyter, aligned text elsewhere, stamped with versions.

    Its words are those of the language in use when it is made (a header of :data:`TIMED` included)."""

    header: list[str]
    rows: list[tuple[str, ...]]
    caption: str = field(default_factory=stamp_line)

    def __post_init__(self) -> None:
        self.header = [str(h) for h in self.header]  # an i18n.Lazy heading: in the language of the moment

    def _repr_html_(self) -> str:
        head = "".join(f'<th style="text-align:left;padding:3px 10px">{html.escape(h)}</th>' for h in self.header)
        body = "".join("<tr>" + "".join(f'<td style="text-align:left;padding:3px 10px">{html.escape(str(c))}</td>'
                                        for c in row) + "</tr>" for row in self.rows)
        return (f'<table style="border-collapse:collapse;font-size:14px"><thead><tr>{head}</tr></thead>'
                f'<tbody>{body}</tbody></table>'
                f'<div style="font-size:11px;color:#555">{html.escape(self.caption)}</div>')

    def __repr__(self) -> str:
        cols = list(zip(*([tuple(self.header)] + [tuple(map(str, r)) for r in self.rows]), strict=True))
        widths = [max(len(c) for c in col) for col in cols]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
                 for row in [tuple(self.header)] + [tuple(map(str, r)) for r in self.rows]]
        return "\n".join(lines + [self.caption])



def timed(label: str, m: Measurement) -> tuple[str, str, str, str]:
    """A table row for one measurement: label, median, spread (interquartile range) and the calls timed.

    >>> timed("one op", Measurement(1e-6, 0.9e-6, 1.2e-6, 5, 1000))
    ('one op', '1 µs', '900 ns–1.2 µs', '5×1000')
    """
    return (label, fmt_seconds(m.median), f"{fmt_seconds(m.low)}–{fmt_seconds(m.high)}",
            f"{number(m.repeat)}×{number(m.number)}")


def compare(name_a: str, a: Measurement, name_b: str, b: Measurement) -> Said:
    """A sentence comparing two measurements of this run: which is larger, by how much (ratio of medians), and
    whether their spreads overlap (when they do, the order can change from run to run). The sentence is a
    :class:`~course_lib.i18n.Said`: its ``msgid`` is :data:`COST_MORE`, :data:`COST_LESS` or :data:`COST_SAME`.

    >>> m = lambda med, lo, hi: Measurement(med, lo, hi, 5, 10)
    >>> compare("compiled", m(4e-4, 3.8e-4, 4.2e-4), "eager", m(6e-5, 5e-5, 7e-5))
    'On this run, compiled cost more than eager: 6.7× (medians 400 µs and 60 µs; the spreads do not overlap).'
    >>> compare("a", m(1e-6, 0.9e-6, 1.3e-6), "b", m(1.1e-6, 1e-6, 1.2e-6))[:60]
    'On this run, a cost less than b: 0.91× (medians 1 µs and 1.1'
    """
    sentence = COST_MORE if a.median > b.median else COST_LESS if a.median < b.median else COST_SAME
    overlap = a.low <= b.high and b.low <= a.high
    return say(sentence, a=name_a, b=name_b, ratio=number(a.median / b.median, spec=".2g"),
               median_a=fmt_seconds(a.median), median_b=fmt_seconds(b.median), spreads=_(SPREADS[overlap]))


#: The header of a table of :func:`timed` rows, after its title (each heading in the language of the moment).
TIMED = [Lazy("median"), Lazy("spread (IQR)"), Lazy("calls")]


def runs_text(n: int | None) -> str:
    """A break-even count as a table cell: ``"1,234 runs"``, or ``"never ..."`` for None."""
    return _(NEVER) if n is None else runs_count(n)


def runs_count(n: int) -> str:
    """``"1,234 runs"``, ``"1 run"``."""
    return say(Plural("{n} run", "{n} runs", count="runs"), n=number(n, spec=","), runs=n)
