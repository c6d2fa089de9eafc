"""Define-then-run: the TensorFlow 1 style.

Building and running are two separate moments.

1. **Build** (:mod:`.build`, :mod:`.shapes`). ``placeholder``, ``Variable``, ``constant`` and every op only *add
   nodes* to a :class:`Graph`; a :class:`Tensor` here is a symbol with no value (TensorFlow's ``tf.Tensor`` in
   graph mode), whose shape is inferred at once.
2. **Compile** (:mod:`.compile`). ``Session.run`` turns (graph, fetches, fed placeholders) into a :class:`Plan`:
   validate, prune to what the fetches need, fold constants, merge common subexpressions, and emit straight-line
   steps (their Python source can be read with :meth:`Plan.source`). Plans are cached; a change to the graph
   invalidates them — the "compilation step" of the Q&A.
3. **Run** (:mod:`.session`). Values flow through the plan; only placeholders (``feed_dict``) let data in.

Autodiff is a graph transformation here (:mod:`.autodiff`): :func:`gradients` adds the backward computation as
ordinary nodes, built from the same local derivatives (:data:`course_lib.ops.OPS`) the dynamic engine runs on
numbers, so the derivative is itself a graph you can draw, compile and run.

Every op of the table is a function here: ``st.sin``, ``st.matmul``... (an op registered later too).

>>> g = Graph()
>>> with g.as_default():
...     x = placeholder("x")
...     w = Variable(2.0, name="w")
...     y = sin(x * w + constant(1.0))
>>> import math
>>> math.isclose(Session(g).run(y, feed_dict={x: 3.0}), math.sin(7.0))
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ops as _ops
from .autodiff import gradients
from .build import (
    FetchError,
    Graph,
    GraphFinalizedError,
    MissingFeedError,
    ShapeError,
    SymbolicBoolError,
    Tensor,
    Variable,
    apply,
    cond,
    constant,
    get_default_graph,
    name_scope,
    placeholder,
    reset_default_graph,
    to_graph,
)
from .compile import Plan, compile_plan
from .session import Session

__all__ = [
    "FetchError",
    "Graph",
    "GraphFinalizedError",
    "MissingFeedError",
    "Plan",
    "Session",
    "ShapeError",
    "SymbolicBoolError",
    "Tensor",
    "Variable",
    "apply",
    "compile_plan",
    "cond",
    "constant",
    "function",
    "get_default_graph",
    "gradients",
    "name_scope",
    "placeholder",
    "reset_default_graph",
    "to_graph",
]


def function(name: str) -> Callable[..., Tensor]:
    """The function ``st.<name>`` of op ``name`` of the table: adds a node (no value until the graph runs)."""
    def f(*args: Any, name: str | None = None, **attrs: Any) -> Tensor:
        return apply(f.__name__, *args, name=name, **attrs)

    f.__name__ = name
    f.__doc__ = f"Add a ``{name}`` node (no value until the graph runs; see course_lib.ops.OPS[{name!r}])."
    return f


_ops.install_functions(globals(), function)  # st.sin, st.matmul ... (and any op registered later)
