"""Running a graph (``tf.compat.v1.Session``): only placeholders let data in, only what the fetches need runs.

A Session keeps one compiled :class:`~course_lib.static.compile.Plan` per request (fetches, fed placeholders) and
reuses it while the graph is unchanged; a change to the graph (its ``version``) makes the next run compile again.
``compile_count`` counts the compilations, so a notebook can show "compiled once, ran a thousand times".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import graph as ir
from .. import ops as _ops
from ..i18n import N_, Lazy, say
from . import shapes
from .build import FetchError, Graph, ShapeError, Tensor, get_default_graph
from .compile import Plan, compile_plan

__all__ = ["Session"]

# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
NOT_A_GRAPH = N_("Session(graph) runs a define-then-run graph (course_lib.static.Graph); got {kind} {graph}. Build one "
                 "with g = st.Graph() and `with g.as_default(): ...`, then Session(g)")
FETCH_OTHER_GRAPH = N_("fetch '{name}' belongs to another graph than this session's; create the Session with that "
                       "graph: Session(graph)")
NO_TENSOR_NAMED = N_("no tensor named {name!r} in this graph; names are e.g. {names}")
CANNOT_FETCH = N_("cannot fetch {value!r} (type {kind}): fetch a tensor of the graph or its name")
# form, example: code
FEED_DICT_NOT_A_DICT = N_("feed_dict must be a dict {form}, like {example}; got a value of type {kind}")
FED_VALUE = Lazy("the value fed to '{name}'")  # what needs numbers, in ops.NOT_NUMBERS
FED_SHAPE = N_("'{name}' expects {expected} but was fed shape {shape}; feed a value of that shape, or declare "
               "placeholder({name!r}, shape=None) to accept any")


class Session:
    """Runs a graph: ``run(fetches, feed_dict)`` computes only what the fetches need.

    ``compile_count`` counts compilations: it grows when new fetches/feeds are asked for or the graph changed.
    """

    def __init__(self, graph: Graph | None = None) -> None:
        if graph is not None and not isinstance(graph, ir.Graph):  # a plain IR graph read back from JSON runs too
            raise TypeError(say(NOT_A_GRAPH, kind=type(graph).__name__, graph=f"{graph!r:.40}"))
        self.graph = graph or get_default_graph()
        self.compile_count = 0
        self._plans: dict[tuple[Any, ...], Plan] = {}
        self.last_plan: Plan | None = None

    def run(self, fetches: Any, feed_dict: dict[Any, Any] | None = None) -> Any:
        single = not isinstance(fetches, (list, tuple))
        fetch_nodes = tuple(self._node(f) for f in ([fetches] if single else fetches))
        feeds = self._feeds({} if feed_dict is None else feed_dict)
        plan = self.plan(fetch_nodes, tuple(feeds))
        values = plan.run([feeds[n] for n in plan.fed])
        out = [np.asarray(v, dtype=np.float64).copy() if isinstance(v, np.ndarray) else np.float64(v)
               for v in values]
        return out[0] if single else out

    def plan(self, fetches: Sequence[Any], fed: Sequence[Any] = ()) -> Plan:
        """The compiled plan for these fetches and fed tensors (compiling it if the cache has none)."""
        fetch_nodes = tuple(self._node(f) for f in fetches)
        fed_nodes = tuple(sorted((self._node(f) for f in fed), key=lambda n: n.id))
        key = (tuple(n.id for n in fetch_nodes), tuple(n.id for n in fed_nodes))
        plan = self._plans.get(key)
        if plan is None or plan.graph_version != self.graph.version:
            plan = compile_plan(self.graph, fetch_nodes, fed_nodes)
            self.compile_count += 1
            self._plans[key] = plan
        self.last_plan = plan
        return plan

    def _node(self, f: Any) -> ir.Node:
        """The node a fetch or feed key names: a tensor of this graph, one of its nodes, or a name."""
        if isinstance(f, Tensor):
            if f.graph is not self.graph:
                raise FetchError(say(FETCH_OTHER_GRAPH, name=f.name))
            return f.node
        if isinstance(f, ir.Node) and f.id < len(self.graph.nodes) and self.graph.nodes[f.id] is f:
            return f
        if isinstance(f, str):
            try:
                return self.graph[f.split(":")[0]]
            except ir.GraphError:
                raise FetchError(say(NO_TENSOR_NAMED, name=f, names=", ".join(repr(n.name) for n in
                                                                           self.graph.nodes[:4]))) from None
        raise FetchError(say(CANNOT_FETCH, kind=type(f).__name__, value=f))

    def _feeds(self, feed_dict: Any) -> dict[ir.Node, np.ndarray]:
        if not isinstance(feed_dict, dict):
            raise TypeError(say(FEED_DICT_NOT_A_DICT, form="{placeholder: value}", example="feed_dict={x: 3.0}",
                                kind=type(feed_dict).__name__))
        out: dict[ir.Node, np.ndarray] = {}
        for k, v in feed_dict.items():
            node = self._node(k)
            value = _ops.as_array(v, FED_VALUE, name=node.name)
            want = node.attrs.get("shape")
            if not shapes.fits(want, value.shape):
                raise ShapeError(say(FED_SHAPE, name=node.name, expected=shapes.describe(want), shape=value.shape))
            out[node] = value
        return out
