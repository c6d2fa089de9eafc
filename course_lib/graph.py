"""The one graph IR every source is converted to.

A computation is a directed acyclic graph (DAG): each node is one operation, its ``inputs`` are the nodes
whose values it consumes. Our two engines, real TensorFlow graphs and real PyTorch autograd/fx graphs all
become a :class:`Graph`, and the renderer draws only this.

Determinism is a design rule, not an accident:

* a node's ``id`` is a creation counter (0, 1, 2, ...), never ``id()``, so the same program gives the same ids;
* nodes live in a list in creation order and every traversal is ordered by id, never by a ``set``;
* every traversal is iterative, so a 100,000-node chain cannot hit Python's recursion limit; there is one
  topological order (:func:`topological`), used by this graph, both engines and the TensorFlow adapter.

>>> g = Graph()
>>> x = g.add("placeholder", name="x", kind="input")
>>> y = g.add("sin", [x])
>>> [n.name for n in g.topological_order()]
['x', 'sin']
"""

from __future__ import annotations

import heapq
import json
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, TypeVar

import numpy as np

from .i18n import N_, Plural, Said, get_language, number, say
from .i18n import gettext as _

#: Node kinds; each has its own shape in the renderer (render/theme.py).
KINDS = ("input", "constant", "variable", "op")


class CycleError(ValueError):
    """Raised when a graph would stop being a DAG: a value cannot depend on itself."""


class GraphError(ValueError):
    """Raised for a malformed graph: unknown node, node of another graph, bad kind."""


# ---------------------------------------------------------------------- messages (English ids, see course_lib.i18n)
UNKNOWN_KIND = N_("unknown node kind {kind!r}; use one of {kinds}")
CYCLE_EDGE = N_("adding the edge {src} -> {dst} would create the cycle {loop}: {dst} would need its own value before "
                "it can be computed. A computational graph must be a DAG; to reuse a value over time, unroll the loop "
                "(one node per step) or use a loop op such as while_loop.")
NO_NODE_NAMED = N_("no node named {name!r} in graph {graph!r}")
CYCLE = N_("the graph has a cycle through {cycle}; a graph must be a DAG")
NOT_GRAPH_DATA = N_("Graph.from_dict needs what Graph.to_dict() returns: a dict with a list of 'nodes' (each with "
                    "'op', 'name' and 'inputs'); got {kind} without one")
NOT_NODE_DATA = N_("node {k} of the data is not a node written by to_dict(): its {field!r} is missing or wrong (a node "
                   "has 'op' and 'name' as text, and 'inputs': indexes of earlier nodes {earlier}); got {data}")
EARLIER_NODES = N_("by index, 0..{last}")
NO_EARLIER_NODE = N_("(none: it is the first node)")
NODE_NOT_A_DICT = N_("node {k} of the data is {got} (type {kind}), not a dict written by to_dict()")
NODE_FIELD = N_("node {k} of the data ({name!r}): its {field!r} must be {expected}; got {got}")
GRAPH_FIELD = N_("the graph's {field!r} must be {expected}; got {got}")
SAME_NAME = N_("node {k} of the data is named {name!r} like node {other}: the names in a graph are unique")
BAD_OUTPUTS = N_("outputs {outputs} must be indexes of nodes, 0..{last}")
#: What a field of a node's data must be (said inside NODE_FIELD / GRAPH_FIELD).
TEXT = N_("text")
ONE_OF_KINDS = N_("one of {kinds}")
ATTRIBUTES = N_("a dict of attributes")
NUMBERS = N_("numbers of one shape (the strings \"NaN\", \"Infinity\" and \"-Infinity\" for the values JSON has no "
             "number for), or null")
TRUE_OR_FALSE = N_("true or false")
ITS_PLACE = N_("its place in the list of nodes, {k}")
NOT_TEXT = N_("the {field} of a node must be text; got {got} (type {kind})")
GRAPH_NAME_NOT_TEXT = N_("the name of a graph must be text; got {got} (type {kind})")
NO_NODE_AT = Plural("no node at index {index}: graph {graph!r} has {n} node", "no node at index {index}: graph "
                    "{graph!r} has {n} nodes")
NODE_KEY = N_("a node of graph {graph!r} is read by its name (text) or its index (a whole number); got {got} (type "
              "{kind})")
NOT_A_NODE = N_("expected a Node of graph {graph!r}, got {kind}")
NODE_OF_ANOTHER_GRAPH = N_("node {name!r} belongs to another graph than {graph!r}")


@dataclass(eq=False)
class Node:
    """One operation of a graph.

    ``id``: creation counter, unique in its graph. ``op``: the operation's name (``"add"``, ``"MatMul"``,
    ``"AddmmBackward0"`` ...). ``inputs``: the nodes it reads, in argument order (a node may appear twice, as
    in ``x * x``). ``kind``: ``"input"`` (placeholder / fed value), ``"constant"``, ``"variable"``
    (parameter) or ``"op"``. ``scope``: a ``/``-separated name scope used to group big graphs.
    ``gradient``: True for nodes that compute derivatives (drawn in the gradient style).
    ``value``: the node's value when known (a numpy array), else None.
    """

    id: int
    op: str
    name: str
    inputs: tuple[Node, ...] = ()
    kind: str = "op"
    attrs: dict[str, Any] = field(default_factory=dict)
    value: np.ndarray | None = None
    scope: str = ""
    gradient: bool = False

    @property
    def input_ids(self) -> tuple[int, ...]:
        return tuple(n.id for n in self.inputs)

    def __repr__(self) -> str:
        args = ", ".join(n.name for n in self.inputs)
        return f"<Node {self.id} {self.name} = {self.op}({args})>"


class Graph:
    """An ordered DAG of :class:`Node` objects.

    ``outputs`` lists the nodes a user asked for (fetches, a loss, a function's results); the renderer marks them.
    """

    def __init__(self, name: str = "graph") -> None:
        if not isinstance(name, str):  # a name is shown, compared and written to JSON as text: refuse 3, None, b"g"
            raise GraphError(say(GRAPH_NAME_NOT_TEXT, got=f"{name!r:.60}", kind=type(name).__name__))
        self.name = name
        self.nodes: list[Node] = []
        self.outputs: list[Node] = []
        self._by_name: dict[str, Node] = {}
        self._name_counts: dict[str, int] = {}
        self.version = 0  # bumped on every change, so caches (compiled plans, layouts) know when to drop

    # ------------------------------------------------------------------ building
    def unique_name(self, base: str) -> str:
        """TensorFlow's naming rule: ``add``, then ``add_1``, ``add_2`` ..."""
        base = base or "node"
        if base not in self._by_name:
            self._name_counts.setdefault(base, 0)
            return base
        k = self._name_counts.get(base, 0)
        while True:
            k += 1
            candidate = f"{base}_{k}"
            if candidate not in self._by_name:
                self._name_counts[base] = k
                return candidate

    def add(
        self,
        op: str,
        inputs: Sequence[Node] = (),
        name: str | None = None,
        kind: str = "op",
        attrs: dict[str, Any] | None = None,
        value: Any = None,
        scope: str = "",
        gradient: bool = False,
    ) -> Node:
        """Append a node whose inputs already exist in this graph; returns it.

        Because inputs must exist first, a graph built only with ``add`` is acyclic by construction.
        """
        if kind not in KINDS:
            raise GraphError(say(UNKNOWN_KIND, kind=kind, kinds=", ".join(KINDS)))
        for field_name, text in (("op", op), ("name", name), ("scope", scope)):
            if not isinstance(text, str) and not (text is None and field_name == "name"):
                raise GraphError(say(NOT_TEXT, field=field_name, got=f"{text!r:.60}", kind=type(text).__name__))
        for i in inputs:
            self._check_member(i)
        node = Node(
            id=len(self.nodes),
            op=op,
            name=self.unique_name(name or op),
            inputs=tuple(inputs),
            kind=kind,
            attrs=dict(attrs or {}),
            value=None if value is None else np.asarray(value, dtype=np.float64),
            scope=scope,
            gradient=bool(gradient),
        )
        self.nodes.append(node)
        self._by_name[node.name] = node
        self.version += 1
        return node

    def add_edge(self, src: Node, dst: Node) -> None:
        """Make ``dst`` also read ``src``. Refuses (``CycleError``) an edge that would close a cycle.

        This is how a student can try to make a value depend on itself, and see why a graph must be a DAG.
        """
        self._check_member(src)
        self._check_member(dst)
        path = self._path(src, dst)  # does src already depend on dst?
        if path is not None:
            loop = " -> ".join(n.name for n in path + [dst])
            raise CycleError(say(CYCLE_EDGE, src=src.name, dst=dst.name, loop=loop))
        dst.inputs = dst.inputs + (src,)
        self.version += 1

    def mark_output(self, *nodes: Node) -> None:
        for n in nodes:
            self._check_member(n)
            if n not in self.outputs:
                self.outputs.append(n)
        self.version += 1

    def view(self, outputs: Sequence[Node]) -> Graph:
        """The same nodes with ``outputs`` marked: a new Graph sharing the nodes; this one is not changed."""
        for n in outputs:
            self._check_member(n)
        g = Graph(self.name)
        g.nodes = list(self.nodes)
        g._by_name = dict(self._by_name)
        g._name_counts = dict(self._name_counts)
        g.outputs = list(dict.fromkeys(outputs))
        g.version = self.version
        return g

    # ------------------------------------------------------------------ reading
    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __getitem__(self, key: int | str) -> Node:
        """A node by its name (``g["x"]``) or its index (``g[0]``, ``g[-1]``: the last one, as for a list)."""
        if isinstance(key, str):
            try:
                return self._by_name[key]
            except KeyError:
                raise GraphError(say(NO_NODE_NAMED, name=key, graph=self.name)) from None
        if isinstance(key, (bool, np.bool_)) or not isinstance(key, (int, np.integer)):  # g[True] is no node 1
            raise GraphError(say(NODE_KEY, graph=self.name, got=f"{key!r:.60}", kind=type(key).__name__))
        if not -len(self.nodes) <= key < len(self.nodes):
            raise GraphError(say(NO_NODE_AT, index=int(key), graph=self.name, n=len(self.nodes)))
        return self.nodes[key]

    def __repr__(self) -> str:
        edges = sum(len(n.inputs) for n in self.nodes)
        n = len(self.nodes)
        return f"<Graph {self.name!r}: nodes={n}, edges={edges}>"  # name=value: no plural to agree

    @property
    def edges(self) -> list[tuple[Node, Node]]:
        """(source, destination) pairs, ordered by destination then argument position."""
        return [(i, n) for n in self.nodes for i in n.inputs]

    def consumers(self) -> dict[int, list[Node]]:
        """For each node id, the nodes that read it (ordered by id)."""
        out: dict[int, list[Node]] = {n.id: [] for n in self.nodes}
        for n in self.nodes:
            for i in dict.fromkeys(n.inputs):
                out[i.id].append(n)
        return out

    def ancestors(self, targets: Iterable[Node]) -> list[Node]:
        """The targets and every node they depend on, in id order (iterative walk)."""
        return ancestors(targets, _INPUTS)

    def topological_order(self, targets: Iterable[Node] | None = None) -> list[Node]:
        """Every node after all its inputs; ties broken by creation id (:func:`topological`).

        With ``targets``, only the subgraph they need. Raises :class:`CycleError` naming a cycle if there is one.
        """
        return topological(self.nodes if targets is None else targets, _INPUTS)

    def check_acyclic(self) -> None:
        """Raise :class:`CycleError` if the graph is not a DAG."""
        self.topological_order()

    def depths(self) -> dict[int, int]:
        """Longest distance from a source for each node id (sources are depth 0)."""
        depth: dict[int, int] = {}
        for n in self.topological_order():
            depth[n.id] = 1 + max((depth[i.id] for i in n.inputs), default=-1)
        return depth

    # ------------------------------------------------------------------ data
    def to_dict(self) -> dict[str, Any]:
        """The graph as plain data (TensorFlow calls this a GraphDef): it can be saved, sent and rebuilt.

        Strict JSON has no NaN or infinity, so a value or attribute that is one is written as the string
        ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``: protobuf's JSON mapping of a float (what TensorFlow's own
        GraphDef becomes as JSON), which :meth:`from_dict` reads back as the same float.

        >>> g = Graph(); _ = g.add("constant", name="c", kind="constant", value=[1.0, float("nan")])
        >>> g.to_dict()["nodes"][0]["value"], Graph.from_dict(g.to_dict())["c"].value.tolist()
        ([1.0, 'NaN'], [1.0, nan])
        """
        return {
            "name": self.name,
            "nodes": [
                {
                    "id": n.id, "op": n.op, "name": n.name, "inputs": list(n.input_ids), "kind": n.kind,
                    "attrs": {k: _jsonable(v) for k, v in n.attrs.items()},
                    "value": None if n.value is None else _jsonable(n.value), "scope": n.scope, "gradient": n.gradient,
                }
                for n in self.nodes
            ],
            "outputs": [n.id for n in self.outputs],
        }

    def to_json(self, indent: int | None = 1) -> str:
        """:meth:`to_dict` as strict JSON (no bare ``NaN``: any JSON parser reads it, JavaScript's included)."""
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Graph:
        """The graph :meth:`to_dict` wrote; data that is not one raises :class:`GraphError` naming the node and the
        field that is wrong (``inputs`` are indexes of earlier nodes, so data cannot hold a cycle)."""
        if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
            raise GraphError(say(NOT_GRAPH_DATA, kind=type(data).__name__))
        name = data.get("name", "graph")
        if not isinstance(name, str):
            raise GraphError(say(GRAPH_FIELD, field="name", expected=_(TEXT), got=f"{name!r:.60}"))
        g = cls(name)
        for k, d in enumerate(data["nodes"]):
            fields = _node_fields(k, d, g.nodes)
            if fields["name"] in g._by_name:
                raise GraphError(say(SAME_NAME, k=k, name=fields["name"], other=g._by_name[fields["name"]].id))
            g.add(**fields)
        outputs = data.get("outputs", [])
        if not isinstance(outputs, list) or not all(_is_index(i, len(g.nodes)) for i in outputs):
            raise GraphError(say(BAD_OUTPUTS, outputs=f"{outputs!r:.60}", last=len(g.nodes) - 1))
        g.outputs = list(dict.fromkeys(g.nodes[i] for i in outputs))
        return g

    def summary(self) -> str:
        """One line per node in topological order: ``name = op(inputs)``, the way a student reads a program."""
        lines = []
        for n in self.topological_order():
            if n.kind == "op":
                lines.append(f"{n.name} = {n.op}({', '.join(i.name for i in n.inputs)})")
            else:
                shown = "" if n.value is None else f" = {_short(n.value)}"
                lines.append(f"{n.name}: {n.kind}{shown}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ helpers
    def _check_member(self, node: Any) -> None:
        if not isinstance(node, Node):
            raise GraphError(say(NOT_A_NODE, graph=self.name, kind=type(node).__name__))
        if node.id >= len(self.nodes) or self.nodes[node.id] is not node:
            raise GraphError(say(NODE_OF_ANOTHER_GRAPH, name=node.name, graph=self.name))

    def _path(self, start: Node, goal: Node) -> list[Node] | None:
        """A dependency path goal <- ... <- start (``start`` reads, eventually, ``goal``), if one exists."""
        parent: dict[int, Node | None] = {start.id: None}
        stack = [start]
        while stack:
            n = stack.pop()
            if n is goal:
                path = [n]
                while parent[path[-1].id] is not None:
                    path.append(parent[path[-1].id])  # type: ignore[arg-type]
                return path
            for i in n.inputs:
                if i.id not in parent:
                    parent[i.id] = n
                    stack.append(i)
        return None


# ---------------------------------------------------------------------- the one topological order
T = TypeVar("T")
_INPUTS = attrgetter("inputs")
_ID = attrgetter("id")
_NAME = attrgetter("name")


def _walk(targets: Iterable[T], parents: Callable[[T], Iterable[T]],
          key: Callable[[T], Hashable]) -> tuple[dict[Any, T], bool]:
    """Every target and all it depends on, by key; and whether each parent's key is smaller than its child's.

    An explicit stack, never recursion: a 100,000-deep chain is walked under any recursion limit.
    """
    seen: dict[Any, T] = {}
    ordered = True
    stack = list(targets)
    while stack:
        n = stack.pop()
        k = key(n)
        if k in seen:
            continue
        seen[k] = n
        for p in parents(n):  # a loop, not any(<generator>): this runs for every backward pass
            if not key(p) < k:
                ordered = False
            stack.append(p)
    return seen, ordered


def ancestors(targets: Iterable[T], parents: Callable[[T], Iterable[T]],
              key: Callable[[T], Any] = _ID) -> list[T]:
    """The targets and everything they depend on (through ``parents``), each once, in ``key`` order.

    >>> ancestors([3], lambda n: [n - 1] if n else [], key=lambda n: n)
    [0, 1, 2, 3]
    """
    seen, _ = _walk(targets, parents, key)
    return [seen[k] for k in sorted(seen)]


def topological(targets: Iterable[T], parents: Callable[[T], Iterable[T]], key: Callable[[T], Any] = _ID, *,
                back_edges: dict[Any, list[T]] | None = None, name: Callable[[T], str] = _NAME) -> list[T]:
    """The one topological order of the course: the targets and all they depend on, each after its parents;
    of the values that could come next, the one of smallest ``key`` (the creation id) first.

    Works on anything with a ``parents`` function: graph nodes (``inputs``), define-by-run tensors (``_parents``),
    positions in a TensorFlow GraphDef. Kahn's algorithm with a heap on ``key``; when the ``key`` order already
    puts every parent first (always, for values created after their inputs) it *is* that order, found with one
    walk and a sort. A cycle raises :class:`CycleError` naming it (``name`` names a value); with a ``back_edges``
    dict the cycle is broken instead: when no value is ready, the smallest waiting one goes next and its unmet
    parents are recorded as ``back_edges[key]``. Iterative throughout.

    >>> parents = {"x": [], "w": [], "mul": ["w", "x"], "sin": ["mul"]}
    >>> topological(["sin"], parents.get, key=list(parents).index)
    ['x', 'w', 'mul', 'sin']
    """
    seen, ordered = _walk(targets, parents, key)
    keys = sorted(seen)
    if ordered:
        return [seen[k] for k in keys]
    indegree: dict[Any, int] = {}
    users: dict[Any, list[Any]] = {k: [] for k in keys}
    for k in keys:
        distinct = dict.fromkeys(key(p) for p in parents(seen[k]))
        indegree[k] = len(distinct)
        for pk in distinct:
            users[pk].append(k)
    ready = [k for k in keys if indegree[k] == 0]
    heapq.heapify(ready)
    done: set[Any] = set()
    order: list[T] = []
    while len(order) < len(keys):
        if not ready:
            stuck = [seen[k] for k in keys if k not in done]
            if back_edges is None:
                raise CycleError(say(CYCLE, cycle=_describe_cycle(stuck, parents, key, name)))
            first = key(stuck[0])
            back_edges[first] = [p for p in parents(stuck[0]) if key(p) not in done]
            indegree[first] = 0
            heapq.heappush(ready, first)
        k = heapq.heappop(ready)
        if k in done:
            continue
        done.add(k)
        order.append(seen[k])
        for u in users[k]:
            indegree[u] -= 1
            if indegree[u] == 0 and u not in done:
                heapq.heappush(ready, u)
    return order


def _describe_cycle(stuck: list[T], parents: Callable[[T], Iterable[T]], key: Callable[[T], Any],
                    name: Callable[[T], str]) -> str:
    """``a <- c <- b <- a``: from the first stuck value, follow stuck parents until one repeats."""
    stuck_keys = {key(n) for n in stuck}
    n = stuck[0]
    path: dict[Any, T] = {}  # key -> value, in the order followed
    while key(n) not in path:
        path[key(n)] = n
        n = next(p for p in parents(n) if key(p) in stuck_keys)
    followed = list(path)
    loop = [path[k] for k in followed[followed.index(key(n)):]] + [n]
    return " <- ".join(name(m) for m in loop)


#: Protobuf's JSON mapping of the floats strict JSON has no number for (to_dict writes them, from_dict reads them).
_NONFINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def _jsonable(v: Any) -> Any:
    """Attributes and values as JSON data; a float JSON has no number for as its protobuf string ("NaN"...)."""
    if isinstance(v, np.ndarray):
        return _jsonable(v.tolist()) if v.dtype.kind == "f" and not np.isfinite(v).all() else v.tolist()
    if isinstance(v, (np.bool_, np.floating, np.integer)):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if v is None or isinstance(v, (str, int, float)):
        return v
    return str(v)


def _tuples(v: Any) -> Any:
    """JSON has no tuples: give back the tuples attributes had (shapes, branch keys) so they compare equal again;
    and the floats written as "NaN", "Infinity", "-Infinity" (:meth:`Graph.to_dict`) as floats again."""
    if isinstance(v, list):
        return tuple(_tuples(x) for x in v)
    if isinstance(v, dict):
        return {k: _tuples(x) for k, x in v.items()}
    if isinstance(v, str):
        return _NONFINITE.get(v, v)
    return v


def _numbers(v: Any) -> Any:
    """Value data as nested floats: numbers and the three protobuf strings; anything else (null, true, "3") is not."""
    if isinstance(v, list):
        return [_numbers(x) for x in v]
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, str) and v in _NONFINITE:
        return _NONFINITE[v]
    raise ValueError(v)


def _is_index(i: Any, size: int) -> bool:
    """A whole number (not a bool, not 0.0) in 0..size-1: an index of an earlier node, as to_dict writes it."""
    return isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size


def _node_fields(k: int, d: Any, earlier: list[Node]) -> dict[str, Any]:
    """The arguments of :meth:`Graph.add` for node ``k`` of :meth:`Graph.from_dict`'s data, each field checked: a
    wrong one is a :class:`GraphError` naming the node and the field (a negative index, ``true`` or ``0.0`` as an
    index, a name that is not text, a value that is not numbers...)."""
    if not isinstance(d, dict):
        raise GraphError(say(NODE_NOT_A_DICT, k=k, got=f"{d!r:.60}", kind=type(d).__name__))
    for key in ("op", "name", "inputs"):
        v = d.get(key)
        good = (isinstance(v, list) and all(_is_index(i, k) for i in v)) if key == "inputs" else isinstance(v, str)
        if not good:
            where = _(EARLIER_NODES).format(last=k - 1) if k else _(NO_EARLIER_NODE)
            raise GraphError(say(NOT_NODE_DATA, k=k, field=key, earlier=where, data=f"{d!r:.80}"))
    name = d["name"]

    def wrong(field_name: str, expected: str) -> Said:
        return say(NODE_FIELD, k=k, name=name, field=field_name, expected=expected, got=f"{d[field_name]!r:.60}")

    if d.get("id", k) != k or isinstance(d.get("id"), bool):  # to_dict writes ids that are the places in the list
        raise GraphError(wrong("id", _(ITS_PLACE).format(k=k)))
    if d.get("kind", "op") not in KINDS:
        raise GraphError(wrong("kind", _(ONE_OF_KINDS).format(kinds=", ".join(KINDS))))
    if not isinstance(d.get("attrs") or {}, dict):
        raise GraphError(wrong("attrs", _(ATTRIBUTES)))
    if not isinstance(d.get("scope", ""), str):
        raise GraphError(wrong("scope", _(TEXT)))
    if not isinstance(d.get("gradient", False), bool):
        raise GraphError(wrong("gradient", _(TRUE_OR_FALSE)))
    value = d.get("value")
    if value is not None:
        try:
            value = np.asarray(_numbers(value), dtype=np.float64)
        except ValueError:  # not a number, or lists of different lengths
            raise GraphError(wrong("value", _(NUMBERS))) from None
    return {"op": d["op"], "inputs": [earlier[i] for i in d["inputs"]], "name": name, "kind": d.get("kind", "op"),
            "attrs": _tuples(d.get("attrs") or {}), "value": value, "scope": d.get("scope", ""),
            "gradient": d.get("gradient", False)}


def _short(v: Any, digits: int = 4) -> str:
    """A value as a short label: a scalar as ``0.8415``, an array as ``[3x2]`` or its few numbers."""
    a = np.asarray(v)
    if a.ndim == 0:
        return f"{float(a):.{digits}g}"
    if a.size <= 3:
        return "[" + ", ".join(f"{float(x):.{digits - 1}g}" for x in a.ravel()) + "]"
    return "[" + "x".join(str(s) for s in a.shape) + "]"


short_value = _short


def value_text(v: Any, digits: int = 4) -> str:
    """A value as a drawing or a step shows it, in the language of the moment: a scalar with ``digits``
    significant digits, a small array its numbers, a bigger one its shape. English: exactly
    :func:`short_value`; French: decimal commas (:func:`course_lib.i18n.number`), so the numbers of
    an array are separated by `` ; `` (``[0,5 ; 1]``), as French writes a list of decimals.

    >>> from course_lib.i18n import set_language
    >>> set_language("fr"); value_text(0.49534), value_text([0.5, 1.0]), value_text(np.zeros((3, 2)))
    ('0,4953', '[0,5 ; 1]', '[3x2]')
    >>> set_language("en"); value_text(0.49534), value_text([0.5, 1.0])
    ('0.4953', '[0.5, 1]')
    """
    if get_language() != "fr":
        return _short(v, digits)
    a = np.asarray(v)
    if a.ndim == 0:
        return number(float(a), digits)
    if a.size <= 3:
        return "[" + " ; ".join(number(float(x), digits - 1) for x in a.ravel()) + "]"
    return _short(a, digits)
