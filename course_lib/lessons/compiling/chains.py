"""The workload of every experiment: a chain of ``n`` scalar ops, in any ``ops`` and in our two engines.

The chain cycles ``sin``, ``·w``, ``+c``, ``tanh``: nothing to fold, nothing shared, so a compiled plan cannot
skip work and ``n`` is the number of ops that really run. ``X, W, C`` are the inputs of every chain.

>>> sc = StaticChain(8)
>>> round(sc.run(), 6) == round(float(chain(np, X, W, C, 8)), 6) == round(float(dynamic_chain(8)().data), 6)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np  # noqa: F401 - chain's docstring, which notebook 05 prints, runs its example with numpy

from ... import dynamic as dy
from ... import static as st
from ...i18n import N_, Plural, say
from ...i18n import gettext as _

__all__ = ["C", "StaticChain", "W", "X", "chain", "chain_from", "dynamic_chain"]


X, W, C = 0.3, 1.1, 0.2  # inputs of every chain
#: The names a StaticChain gives its graph and its scopes (in the language of the moment: they are drawn).
NAME, SCOPE, ADDED = Plural("chain of {n} op", "chain of {n} ops"), N_("ops {first}-{last}"), N_("added")


def chain(ops: Any, x: Any, w: Any, c: Any, n: int) -> Any:
    """``n`` scalar ops in a row, cycling sin, ·w, +c, tanh (nothing to fold, nothing shared).

    Works with any ``ops`` that has ``sin`` and ``tanh``: numpy, ``torch``, ``tf.math``, our two engines.

    >>> float(chain(np, 0.3, 1.1, 0.2, 2)) == float(np.sin(0.3) * 1.1)
    True
    """
    y = x
    for k in range(int(n)):
        r = k % 4
        if r == 0:
            y = ops.sin(y)
        elif r == 1:
            y = y * w
        elif r == 2:
            y = y + c
        else:
            y = ops.tanh(y)
    return y


def chain_from(ops: Any, y: Any, w: Any, c: Any, start: int, n: int) -> Any:
    """Ops ``start`` .. ``start + n - 1`` of the cycle applied to ``y`` (to continue a chain, or grow it by one).

    :func:`chain` is written out as a loop a student reads in notebook 05; this is the same cycle, resumable."""
    for k in range(start, start + n):
        r = k % 4
        y = ops.sin(y) if r == 0 else y * w if r == 1 else y + c if r == 2 else ops.tanh(y)
    return y


class StaticChain:
    """The chain in our define-then-run engine, built in name scopes of ``block`` ops (for drawing), plus a
    Session. ``add_node()`` appends one op after the current output: the graph changed, so the next run compiles.
    """

    def __init__(self, n: int, block: int = 8) -> None:
        self.n = int(n)
        self.graph = st.Graph(str(say(NAME, n=self.n)))
        with self.graph.as_default():
            self.x, self.c = st.placeholder("x"), st.placeholder("c")
            self.w = st.Variable(W, name="w")
            y = self.x
            for start in range(0, self.n, block):
                size = min(block, self.n - start)
                with st.name_scope(_(SCOPE).format(first=start + 1, last=start + size)):
                    y = chain_from(st, y, self.w, self.c, start, size)
        self.y = y
        self.session = st.Session(self.graph)
        self.edits = 0

    @property
    def feeds(self) -> dict[st.Tensor, float]:
        return {self.x: X, self.c: C}

    def run(self) -> float:
        return float(self.session.run(self.y, self.feeds))

    def add_node(self) -> st.Tensor:
        """Append one op (the next of the cycle) after the output and make it the new output."""
        with self.graph.as_default(), st.name_scope(_(ADDED)):
            self.y = chain_from(st, self.y, self.w, self.c, self.n + self.edits, 1)
        self.edits += 1
        return self.y

    def compile_only(self) -> st.Plan:
        """Compile the current fetch without running it (what the first run of a new graph pays)."""
        return st.compile_plan(self.graph, [self.y.node], [self.x.node, self.c.node])


def dynamic_chain(n: int) -> Callable[[], dy.Tensor]:
    """A function that runs the chain in our dynamic engine (recording it again on every call)."""
    x, w, c = dy.Tensor(X, requires_grad=True), dy.Parameter(W, name="w"), dy.Tensor(C)
    return lambda: chain(dy, x, w, c, n)


