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

from ...measure import stamp

__all__ = ["Table", "runs_text", "stamp_line"]


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



def runs_text(n: int | None) -> str:
    """A break-even count as a table cell: ``"1,234 runs"``, or ``"never ..."`` for None."""
    return "never (a compiled run is not faster)" if n is None else f"{n:,} runs"
