"""The cost of compiling (notebook 05): what a graph change costs, what a run costs, and after how many runs
compiling pays.

Answer 1 of the Q&A compares TensorFlow to a compiler and PyTorch/numpy to an interpreter. In numbers, with
``C`` the one-off cost of turning a graph into something runnable (TensorFlow 1: extending the session and
building an executor; ``tf.function``: tracing; ``torch.compile``: capturing, maybe compiling; our static engine:
:func:`course_lib.static.compile_plan`), ``s`` the cost of one compiled run and ``e`` the cost of one eager
(interpreted) run of the same computation::

    compiled, n runs:   C + n · s          eager, n runs:   n · e
    break-even:         n* = ceil(C / (e - s))   when e > s, else compiling never pays (see :func:`break_even`)

Every experiment returns its timings (which vary from run to run: notebooks mark them ``NBVAL_IGNORE_OUTPUT``)
*and* counts that are the same on every machine (compiles, traces, captured graphs, graph sizes), which the
notebooks assert. Repeat counts are small on purpose: each experiment takes a few seconds on two cores.
TensorFlow and PyTorch are imported (through :mod:`course_lib.adapters.loader`) only inside the experiments
that need them.

One idea per module:

=====================  ==========================================================================================
``chains``             the workload: a chain of ``n`` ops in any ``ops``, :class:`StaticChain`, ``dynamic_chain``
``engines``            our static engine (compile once) vs our dynamic engine (record every run)
``tf1``                a TF1 ``Session``: steady run, extension alone, new fetch, extend + new fetch; per-op slope
``per_op``             one op run at once in numpy, PyTorch, TensorFlow and our dynamic engine
``tf_function``        ``tf.function``: first call, steady call, retrace
``torch_compile``      ``torch.compile``: capture, steady call, recompile
``payoff``             the break-even and its experiment and plot
``tables``, ``verdicts``  measured tables, and 2017's figures against today's
``progress``           the progress bar the slow experiments tick
=====================  ==========================================================================================

>>> costs = engine_costs(n=8, repeat=2)
>>> costs.compiles_after_runs, costs.compiles_after_edits - costs.compiles_after_runs == costs.edits
(1, True)
>>> break_even(compile_s=2e-3, compiled_run_s=10e-6, eager_run_s=50e-6)
50
"""

from __future__ import annotations

from .chains import C, StaticChain, W, X, chain, chain_from, dynamic_chain
from .engines import EngineCosts, engine_costs, extension_recompiles
from .payoff import BreakEven, break_even, break_even_experiment, plot_break_even
from .per_op import per_op_costs, plot_per_op
from .progress import Progress
from .tables import TIMED, Table, compare, stamp_line, timed
from .tf1 import TF1Costs, TF1Sweep, tf1_costs, tf1_steps, tf1_sweep, tf1_table
from .tf_function import TFFunctionCosts, tf_function_costs
from .torch_compile import TorchCompileCosts, torch_compile_costs
from .verdicts import CLAIMS_2017, then_and_now

__all__ = [
    "CLAIMS_2017",
    "TIMED",
    "BreakEven",
    "C",
    "EngineCosts",
    "Progress",
    "StaticChain",
    "TF1Costs",
    "TF1Sweep",
    "TFFunctionCosts",
    "Table",
    "TorchCompileCosts",
    "W",
    "X",
    "break_even",
    "break_even_experiment",
    "chain",
    "chain_from",
    "compare",
    "dynamic_chain",
    "engine_costs",
    "extension_recompiles",
    "per_op_costs",
    "plot_break_even",
    "plot_per_op",
    "stamp_line",
    "tf1_costs",
    "tf1_steps",
    "tf1_sweep",
    "tf1_table",
    "tf_function_costs",
    "then_and_now",
    "timed",
    "torch_compile_costs",
]
