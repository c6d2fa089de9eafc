"""The cost of ONE op run at once: numpy, PyTorch eager, TensorFlow eager and our dynamic engine.

Answer 1 says running an op in numpy/PyTorch "can be as low as 1 usec"; :func:`plot_per_op` draws that line next
to today's numbers (and, given as ``extra``, the cost of one more op in a steady TensorFlow 1 run: a slope, see
:meth:`course_lib.lessons.compiling.tf1.TF1Sweep.per_op`). The frameworks are imported (quietly) only when
:func:`per_op_costs` runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import dynamic as dy
from ... import render
from ...adapters.loader import load_tensorflow, load_torch
from ...i18n import N_, number
from ...i18n import gettext as _
from ...measure import Measurement, measure
from .chains import X
from .progress import Progress, ticker
from .tables import stamp_line

__all__ = ["FACTS", "WAYS", "per_op_costs", "plot_per_op"]

#: The ways one op is run, by their keys in what :func:`per_op_costs` returns (shown with ``_(key)``).
WAYS = ("numpy", N_("PyTorch eager"), N_("PyTorch eager, recording autograd"), N_("TensorFlow eager"),
        N_("our dynamic engine"))
#: The keys of ``per_op_costs()["facts"]``: English, read by the notebooks; a French notebook shows ``_(fact)``.
FACTS = (N_("tensorflow executes eagerly"), N_("TF eager result already has its value"),
         N_("torch result records no graph without requires_grad"),
         N_("autograd nodes behind torch.sin(x) with requires_grad"), N_("nodes our dynamic engine records for sin(x)"))


def per_op_costs(repeat: int = 5, progress: Progress | None = None) -> dict[str, Any]:
    """The cost of ONE ``sin`` on a float64 scalar, run at once: numpy, PyTorch eager, TensorFlow eager, and our
    dynamic engine; plus facts that hold on every machine (what each call leaves behind)."""
    tf, torch = load_tensorflow(), load_torch()
    tick = ticker(progress)
    xn = np.float64(X)
    xt = torch.tensor(X, dtype=torch.float64)
    xg = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    xf = tf.constant(X, dtype=tf.float64)
    xd = dy.Tensor(X, requires_grad=True)
    out: dict[str, Any] = {}
    calls = (lambda: np.sin(xn), lambda: torch.sin(xt), lambda: torch.sin(xg), lambda: tf.sin(xf),
             lambda: dy.sin(xd))
    for label, fn in zip(WAYS, calls, strict=True):
        tick(_(label))
        out[label] = measure(fn, repeat=repeat, budget=0.08)
    from ...adapters.torch import count_autograd_nodes

    out["facts"] = dict(zip(FACTS, (
        bool(tf.executing_eagerly()),
        bool(np.isclose(tf.sin(xf).numpy(), np.sin(X))),
        torch.sin(xt).grad_fn is None,
        count_autograd_nodes(torch.sin(xg)),
        len(dy.sin(xd).graph().nodes),
    ), strict=True))
    tick()
    return out


def plot_per_op(costs: dict[str, Any], extra: dict[str, float] | None = None) -> Any:
    """A horizontal bar chart (log scale) of per-op costs, with the Q&A's "as low as 1 usec" as a line."""
    import matplotlib.pyplot as plt

    rows = [(_(k), v.median) for k, v in costs.items() if isinstance(v, Measurement)] + list((extra or {}).items())
    rows = [(label, seconds) for label, seconds in rows if seconds > 0]  # a log scale draws no bar for 0 or less
    with plt.rc_context(render.plot_style()):  # words follow the theme (larger for a projector)
        return _per_op_figure(plt, rows)


def _per_op_figure(plt: Any, rows: list[tuple[str, float]]) -> Any:
    longest = max(len(r[0]) for r in rows)  # a language with longer labels gets a wider figure, not a narrow plot
    fig, ax = plt.subplots(figsize=(8 + 0.075 * max(0, longest - 45), 0.45 * len(rows) + 1.6))
    ax.barh([r[0] for r in rows], [r[1] * 1e6 for r in rows], color="#0072B2")
    ax.axvline(1.0, color="#D55E00", linestyle="--")
    ax.set_ylim(len(rows) - 0.5, -1.3)  # room above the first bar for the label of the 2017 line
    ax.text(0.92, -0.85, _("Answer 1 (2017): “as low as 1 usec” →"), color="#A23B00", va="center", ha="right")
    ax.set_xscale("log")
    left = min(0.05, 0.5 * min(r[1] * 1e6 for r in rows))  # room for the shortest bar, however short
    ax.set_xlim(left=left)
    ticks = [t for t in (0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000)
             if left <= t <= 2 * max(r[1] * 1e6 for r in rows)]
    ax.set_xticks(ticks, [number(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel(_("µs per op (log scale)"))
    ax.set_title(_("One op, run at once"), loc="left")
    fig.text(0.01, 0.005, stamp_line(), fontsize="x-small", color="#555555")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    plt.close(fig)
    return fig
