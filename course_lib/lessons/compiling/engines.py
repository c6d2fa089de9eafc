"""Our two engines on the same chain: compile once then run (static) vs record on every run (dynamic).

With ``C`` the compile, ``s`` a static run and ``e`` a dynamic run, the table ends with the break-even
``ceil(C / (e - s))`` (:func:`course_lib.lessons.compiling.payoff.break_even`).

>>> costs = engine_costs(n=8, repeat=2)
>>> costs.compiles_after_runs, costs.compiles_after_edits - costs.compiles_after_runs == costs.edits
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import N_, Plural, say
from ...i18n import gettext as _
from ...measure import Measurement, measure
from .chains import StaticChain, dynamic_chain
from .payoff import break_even
from .progress import Progress, ticker
from .tables import TIMED, Table, runs_text, timed

__all__ = ["EngineCosts", "engine_costs", "extension_recompiles"]

#: The rows of :meth:`EngineCosts.table`, in order (the last one is the break-even).
ROWS = (N_("static engine: compile the graph (once)"), N_("static engine: one run of the compiled plan"),
        N_("dynamic engine: one run (records the graph again)"), N_("static engine: add a node, recompile, run"),
        N_("break-even: runs after which compiling pays (from medians)"))
#: What :func:`extension_recompiles` counts (its keys, in the language of the moment).
RECOMPILES = (N_("compiles before"), N_("compiles after extend + old fetch"), N_("compiles after one more run"))


@dataclass
class EngineCosts:
    """Our two engines on the same chain of ``n`` ops (timings in seconds, counts exact)."""

    n: int
    compile_s: Measurement
    static_run_s: Measurement
    dynamic_run_s: Measurement
    edit_and_run_s: Measurement
    runs: int
    compiles_after_runs: int
    edits: int
    compiles_after_edits: int
    dynamic_nodes_per_run: int
    plan_source: str
    plan_report: dict[str, int]

    def table(self) -> Table:
        measured = (self.compile_s, self.static_run_s, self.dynamic_run_s, self.edit_and_run_s)
        pays = break_even(self.compile_s.median, self.static_run_s.median, self.dynamic_run_s.median)
        head = say(Plural("our engines, chain of {n} op", "our engines, chain of {n} ops"), n=self.n)
        rows = [timed(_(label), m) for label, m in zip(ROWS[:-1], measured, strict=True)]  # the last row: break-even
        return Table([head, *TIMED], rows + [(_(ROWS[-1]), runs_text(pays), "", "")])


def engine_costs(n: int = 100, repeat: int = 5, progress: Progress | None = None) -> EngineCosts:
    """Compile once then run (static) vs record on every run (dynamic), and what one graph edit costs."""
    tick = ticker(progress)
    sc = StaticChain(n)
    sc.run()  # the first run compiles
    compile_s = measure(sc.compile_only, repeat=repeat, budget=0.1)
    tick(_("static runs"))
    static_run_s = measure(sc.run, repeat=repeat, budget=0.1)
    runs = 1 + 1 + repeat * static_run_s.number  # first run, measure's warm-up, the timed runs
    compiles_after_runs = sc.session.compile_count
    tick(_("dynamic runs"))
    dyn = dynamic_chain(n)
    dynamic_run_s = measure(dyn, repeat=repeat, budget=0.1)
    dynamic_nodes = len(dyn().graph().nodes)
    tick(_("graph edits"))

    def edit_and_run() -> None:
        sc.add_node()
        sc.run()

    number = 10
    edit_s = measure(edit_and_run, repeat=repeat, number=number, warmup=1)
    tick()
    return EngineCosts(n, compile_s, static_run_s, dynamic_run_s, edit_s, runs, compiles_after_runs,
                       sc.edits, sc.session.compile_count, dynamic_nodes, StaticChain(min(n, 6)).compile_only()
                       .source(), dict(StaticChain(n).compile_only().report))


def extension_recompiles(n: int = 6) -> dict[str, int]:
    """Our engine's plan cache after an extension: add a node that the old fetch does not use, run the old fetch.

    TensorFlow 1 keeps its executor for an old request after the graph is extended (it pays only the extension);
    our session keys its plans on the graph's ``version``, so any change makes the next run of *any* request
    compile again -- simpler, and dearer for graphs that grow while they run.

    >>> extension_recompiles(4)
    {'compiles before': 1, 'compiles after extend + old fetch': 2, 'compiles after one more run': 2}
    """
    from ... import static as st

    sc = StaticChain(n)
    sc.run()
    before = sc.session.compile_count
    with sc.graph.as_default():
        st.sin(sc.y)  # a new node; the fetch stays sc.y
    sc.run()
    after = sc.session.compile_count
    sc.run()
    return dict(zip(map(_, RECOMPILES), (before, after, sc.session.compile_count), strict=True))
