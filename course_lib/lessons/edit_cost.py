"""What it costs to change our define-then-run graph: run it unchanged, against add one node and run that node.

Our session keys its compiled plans on the graph's version, so any change costs a compile at the next run, whatever
is fetched (TensorFlow 1's three separate costs of a change are measured by
:func:`course_lib.lessons.compiling.tf1_costs`). Measured here:

* **steady**: ``Session.run(y, feed_dict)`` again and again on a graph that does not change;
* **edit and run**: each call first appends one node ``y + one`` to the graph (``one`` is a constant made
  beforehand, so exactly one node is added per call) and then runs that new node.

The timings go in a table (and are marked as machine-dependent in the notebooks); what is *checked* is the
structure behind them, the same on every machine: the steady runs added no node and (our engine) compiled
nothing, each edit added exactly one node and (our engine) cost exactly one compile.

>>> c = static_edit_cost(repeat=2, number=3)
>>> c.nodes_added == c.edits, c.compiles_steady, c.compiles_edit == c.edits
(True, 0, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import N_, number
from ..i18n import gettext as _
from ..measure import Measurement, fmt_seconds, measure

__all__ = ["EditCost", "static_edit_cost", "table"]

#: The columns of :func:`table` and their widths (wider when a language's heading is longer).
COLUMNS = ((N_("engine"), 34), (N_("steady run"), 12), (N_("extend + new fetch"), 18), (N_("ratio"), 7),
           (N_("nodes added"), 12))


@dataclass(frozen=True)
class EditCost:
    """Timings and counts of one engine. ``edits`` counts every edit made (timed calls and the warm-up one)."""

    engine: str
    steady: Measurement
    edit_and_run: Measurement
    nodes_before: int  # after building, before any timing
    nodes_after_steady: int  # after the steady runs: the same as nodes_before
    nodes_after: int  # after the edits
    edits: int
    compiles_steady: int | None = None  # our engine only: compiles done by the steady runs
    compiles_edit: int | None = None  # our engine only: compiles done by the edits

    @property
    def nodes_added(self) -> int:
        return self.nodes_after - self.nodes_after_steady

    @property
    def ratio(self) -> float:
        """How many times slower an edit-and-run is than a steady run (median against median)."""
        return self.edit_and_run.median / self.steady.median


def _calls(repeat: int, number: int, warmup: int) -> int:
    return repeat * number + warmup


def static_edit_cost(repeat: int = 5, number: int = 20) -> EditCost:
    """The course's define-then-run engine (:mod:`course_lib.static`), where a compile is counted."""
    from .. import static as st
    g = st.Graph("edit cost")
    with g.as_default():
        x = st.placeholder("x")
        y = st.sin(x * 2.0 + 1.0)
        one = st.constant(1.0, name="one")
    sess = st.Session(g)
    feed = {x: 3.0}
    sess.run(y, feed)
    before = len(g)
    c0 = sess.compile_count
    steady = measure(lambda: sess.run(y, feed), repeat=repeat, number=number)
    after_steady, c1 = len(g), sess.compile_count

    def edit() -> Any:
        with g.as_default():
            z = y + one  # one new node
        return sess.run(z, feed)

    edited = measure(edit, repeat=repeat, number=number, warmup=1)
    return EditCost("course_lib.static Session", steady, edited, before, after_steady, len(g),
                    _calls(repeat, number, 1), c1 - c0, sess.compile_count - c1)


def table(costs: list[EditCost]) -> str:
    """The timings as a small text table (machine-dependent: show it, do not compare it)."""
    words = [_(word) for word, _width in COLUMNS]
    w = [max(width, len(word)) for word, (_word, width) in zip(words, COLUMNS, strict=True)]
    head = f"{words[0]:{w[0]}} {words[1]:>{w[1]}} {words[2]:>{w[2]}} {words[3]:>{w[3]}} {words[4]:>{w[4]}}"
    rows = [head, "-" * len(head)]
    for c in costs:
        ratio = number(c.ratio, spec=f">{w[3] - 1}.1f") + "x"
        rows.append(f"{c.engine:{w[0]}} {fmt_seconds(c.steady.median):>{w[1]}} "
                    f"{fmt_seconds(c.edit_and_run.median):>{w[2]}} {ratio} {c.nodes_added:>{w[4]}}")
    return "\n".join(rows)
