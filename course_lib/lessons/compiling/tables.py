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

from ...measure import Measurement, fmt_seconds, stamp

__all__ = ["TIMED", "Table", "compare", "runs_text", "stamp_line", "timed"]


def stamp_line() -> str:
    """Versions and hardware in one line, printed under every table and plot of measured numbers."""
    s = stamp()
    libs = ", ".join(f"{k} {s[k]}" for k in ("python", "numpy", "tensorflow", "torch") if k in s)
    return f"measured with {libs} on {s.get('cpu', s.get('machine', '?'))} ({s.get('cpus', '?')} CPUs)"



@dataclass
class Table:
    """A small table of measured numbers; HTML in Jupyter, aligned text elsewhere, stamped with versions."""

    header: list[str]
    rows: list[tuple[str, ...]]
    caption: str = field(default_factory=stamp_line)

    def _repr_html_(self) -> str:
        head = "".join(f'<th style="text-align:left;padding:3px 10px">{html.escape(h)}</th>' for h in self.header)
        body = "".join("<tr>" + "".join(f'<td style="text-align:left;padding:3px 10px">{html.escape(str(c))}</td>'
                                        for c in row) + "</tr>" for row in self.rows)
        return (f'<table style="border-collapse:collapse;font-size:14px"><thead><tr>{head}</tr></thead>'
                f'<tbody>{body}</tbody></table><div style="font-size:11px;color:#555">{html.escape(self.caption)}</div>')

    def __repr__(self) -> str:
        cols = list(zip(*([tuple(self.header)] + [tuple(map(str, r)) for r in self.rows])))
        widths = [max(len(c) for c in col) for col in cols]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
                 for row in [tuple(self.header)] + [tuple(map(str, r)) for r in self.rows]]
        return "\n".join(lines + [self.caption])



def timed(label: str, m: Measurement) -> tuple[str, str, str, str]:
    """A table row for one measurement: label, median, spread (interquartile range) and the calls timed.

    >>> timed("one op", Measurement(1e-6, 0.9e-6, 1.2e-6, 5, 1000))
    ('one op', '1 µs', '900 ns–1.2 µs', '5×1000')
    """
    return (label, fmt_seconds(m.median), f"{fmt_seconds(m.low)}–{fmt_seconds(m.high)}", f"{m.repeat}×{m.number}")


def compare(name_a: str, a: Measurement, name_b: str, b: Measurement) -> str:
    """A sentence comparing two measurements of this run: which is larger, by how much (ratio of medians), and
    whether their spreads overlap (when they do, the order can change from run to run).

    >>> m = lambda med, lo, hi: Measurement(med, lo, hi, 5, 10)
    >>> compare("compiled", m(4e-4, 3.8e-4, 4.2e-4), "eager", m(6e-5, 5e-5, 7e-5))
    'On this run, compiled cost more than eager: 6.7× (medians 400 µs and 60 µs; the spreads do not overlap).'
    >>> compare("a", m(1e-6, 0.9e-6, 1.3e-6), "b", m(1.1e-6, 1e-6, 1.2e-6))[:60]
    'On this run, a cost less than b: 0.91× (medians 1 µs and 1.1'
    """
    more = "more" if a.median > b.median else "less" if a.median < b.median else "as much as"
    overlap = a.low <= b.high and b.low <= a.high
    tail = ("the spreads overlap: the order can change from run to run" if overlap
            else "the spreads do not overlap")
    verb = f"cost {more} than" if more != "as much as" else "cost as much as"
    return (f"On this run, {name_a} {verb} {name_b}: {a.median / b.median:.2g}× "
            f"(medians {fmt_seconds(a.median)} and {fmt_seconds(b.median)}; {tail}).")


#: The header of a table of :func:`timed` rows, after its title.
TIMED = ["median", "spread (IQR)", "calls"]


def runs_text(n: int | None) -> str:
    """A break-even count as a table cell: ``"1,234 runs"``, or ``"never ..."`` for None."""
    return "never (a compiled run is not faster)" if n is None else f"{n:,} runs"
