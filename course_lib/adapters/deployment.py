"""Graph as data: hand a model to another program without the Python code that built it.

Deploying means running a model where its Python source is not (a server in C++, a phone, a browser). What can be
shipped is a *graph*: a list of operations and edges, saved as data.

* Define-then-run has that graph before anything runs: our ``Graph.to_json()``, TensorFlow's ``GraphDef`` (a
  protocol buffer). Every branch of a ``cond`` is in it, because both were built.
* Define-by-run has only a *record of one run*: the branch that did not run is not in it. To ship a PyTorch model
  you capture a graph first -- ``torch.export`` runs the code symbolically and fails on a Python ``if`` on data,
  because one record cannot hold both paths; ``torch.cond`` puts both branches into the graph, the way ``tf.cond``
  did.

This module wraps the two calls whose plumbing does not belong in a notebook cell:

* :func:`torch_export` -- ``torch.export.export`` on a function or module, returning success or a one-line error
  instead of a page of partial graph on stderr;
* :func:`run_graph_def` -- load a ``GraphDef`` into a fresh ``tf.Graph`` and run it in a ``tf.compat.v1.Session``
  by tensor names only: the Python function that produced it is not used.

Frameworks are imported only when these functions are called (``import course_lib`` stays light).

>>> import torch
>>> torch_export(lambda x: torch.sin(x) * 2.0, torch.ones(3))       # placeholder, sin, mul, output
Exported(ok, 4 fx nodes)
>>> torch_export(lambda x: x if x.sum() > 0 else -x, torch.ones(3)).error_type
'GuardOnDataDependentSymNode'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..i18n import Plural, say
from ..i18n import gettext as _
from .loader import load_tensorflow, load_torch, require
from .quiet import captured

__all__ = ["Exported", "run_graph_def", "torch_export"]


@dataclass(frozen=True)
class Exported:
    """The outcome of :func:`torch_export`: ``program`` (a ``torch.export.ExportedProgram``) or ``error``.

    ``size`` is the number of fx nodes of the exported graph (inputs and ``output`` included); ``error`` is the
    exception's type and the first line of its message.
    """

    ok: bool
    program: Any = None
    error: str | None = None
    error_type: str | None = None

    @property
    def size(self) -> int:
        return len(self.program.graph.nodes) if self.program is not None else 0

    def __repr__(self) -> str:
        if self.ok:  # the words of a repr a notebook prints, translated; the class name and the error stay as they are
            return say(Plural("Exported(ok, {n} fx node)", "Exported(ok, {n} fx nodes)"), n=self.size)
        return _("Exported(failed: {error})").format(error=self.error)


def _as_module(torch: Any, fn: Callable[..., Any]) -> Any:
    if isinstance(fn, torch.nn.Module):
        return fn

    class Wrapped(torch.nn.Module):
        def forward(self, *args: Any) -> Any:
            return fn(*args)

    Wrapped.__name__ = Wrapped.__qualname__ = getattr(fn, "__name__", "Wrapped")
    return Wrapped()


def torch_export(fn: Callable[..., Any], *example_args: Any) -> Exported:
    """``torch.export.export`` a function (wrapped in a module) or a module, called on ``example_args``.

    Returns :class:`Exported`. On failure nothing is printed: the error is in ``.error`` (e.g. a Python ``if`` on a
    tensor's value: ``GuardOnDataDependentSymNode: Could not guard on data-dependent expression ...``).
    """
    torch = load_torch()
    require("torch.export")  # a submodule: makes torch.export reachable as an attribute
    module = _as_module(torch, fn)
    try:
        with captured("torch"):  # torch prints a partial graph and log lines on failure: the error says enough
            program = torch.export.export(module, tuple(example_args))
    except Exception as exc:  # noqa: BLE001 - the failure is the lesson: report it as data
        first = (str(exc).strip().splitlines() or [""])[0]
        return Exported(False, None, f"{type(exc).__name__}: {first}", type(exc).__name__)
    return Exported(True, program)


def run_graph_def(graph_def: Any, feeds: Mapping[str, Any], fetches: str | Sequence[str]) -> Any:
    """Run a TensorFlow ``GraphDef`` by names alone: import it into a fresh ``tf.Graph``, feed the placeholders
    named in ``feeds`` (``{"x": 1.0}``; ``"x"`` means the tensor ``"x:0"``), fetch ``fetches`` in a
    ``tf.compat.v1.Session``. Returns numpy values (one, or a list for a list of fetches)."""
    tf = load_tensorflow()

    def tensor_name(name: str) -> str:
        return name if ":" in name else f"{name}:0"

    single = isinstance(fetches, str)
    names = [fetches] if single else list(fetches)
    with tf.Graph().as_default() as graph:
        tf.graph_util.import_graph_def(graph_def, name="")
        feed = {graph.get_tensor_by_name(tensor_name(k)): v for k, v in feeds.items()}
        outs = [graph.get_tensor_by_name(tensor_name(n)) for n in names]
        with tf.compat.v1.Session(graph=graph) as sess:
            values = [np.asarray(v) for v in sess.run(outs, feed_dict=feed)]
    return values[0] if single else values
