"""A tree-RNN (recursive neural network) over a parse tree, in both of the course's engines.

Each word has a vector; each phrase gets a vector computed from its two parts by one shared cell::

    h(phrase) = tanh( h(left) · W_L  +  h(right) · W_R )          (4 ops: matmul, matmul, add, tanh)

so the sentence vector of "((the cat) sat)" is ``cell(cell(the, cat), sat)``. A phrase of k > 2 items is read left
to right as k - 1 binary steps (:meth:`course_lib.lessons.trees.Tree.binarized`). A tree with n words always needs n - 1
cells, but *which* cell feeds which depends on the tree: the computation graph has the shape of the tree.

* **Define-by-run** (:meth:`TreeRNN.encode`): a plain loop over the tree records exactly this sentence's graph;
  a new sentence simply records a new one. Nothing to declare in advance.
* **Define-then-run** (:class:`ShapeCache`): a graph must exist before the data, so each new *tree shape* needs
  its own graph built and compiled; sentences of a shape seen before reuse it. That is what a static graph
  costs here, and why TensorFlow needed TensorFlow Fold (:mod:`course_lib.lessons.fold`) to do better.

>>> from course_lib.lessons import trees
>>> net = TreeRNN(dim=3, seed=0)
>>> t = trees.parse("((the cat) sat)")
>>> h = net.encode(t)
>>> bool(np.allclose(h.data, net.reference(t)))
True
>>> cache = ShapeCache(net)
>>> bool(np.allclose(cache.run(t), h.data)), cache.graphs_built
(True, 1)
>>> _ = cache.run(trees.parse("((a dog) ran)")); cache.graphs_built      # same shape: graph reused
1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import dynamic as dy
from .. import graph as ir
from .. import static as st
from ..i18n import N_, say
from .trees import Tree, word_vector

__all__ = ["CELL_OPS", "ShapeCache", "StaticTree", "TreeRNN", "cells", "graph_view", "leaf_label", "phrase_label",
           "recorded_ops"]

#: ops one cell application records: matmul, matmul, add, tanh
CELL_OPS = 4
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

DIM_TOO_SMALL = N_("dim must be at least 1")
WRONG_SHAPE = N_("this graph was built for trees shaped {shape}; {text} is shaped {other}: a static graph fits one "
                 "shape, so build another graph for it")


def leaf_label(word: str, position: int) -> str:
    """A word's node name with its 1-based position as a subscript (``the₁``, ``the₅``): unique, and short."""
    return f"{word}{str(position).translate(_SUB)}"


def phrase_label(labels: list[str], limit: int = 3) -> str:
    """The name of a phrase's vector from its words' labels: ``h(the₁ cat₂)``, shortened to ``h(sat₃…mat₆)`` past
    ``limit`` words. Positions make it unique even when a phrase repeats ("the cat ... the cat")."""
    inner = " ".join(labels) if len(labels) <= limit else f"{labels[0]}…{labels[-1]}"
    return f"h({inner})"


@dataclass
class TreeRNN:
    """The cell's weights (``W_L``, ``W_R``: ``dim`` x ``dim``, fixed by ``seed``) and the ways to run it."""

    dim: int = 3
    seed: int = 0
    W_L: np.ndarray = field(init=False, repr=False)
    W_R: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.dim < 1:
            raise ValueError(say(DIM_TOO_SMALL))
        rng = np.random.default_rng(self.seed)
        scale = 1.0 / np.sqrt(self.dim)
        self.W_L = rng.normal(0.0, scale, size=(self.dim, self.dim))
        self.W_R = rng.normal(0.0, scale, size=(self.dim, self.dim))

    def vector(self, word: str) -> np.ndarray:
        return word_vector(word, self.dim)

    # -------------------------------------------------------------- plain numpy: the answer to compare with
    def reference(self, tree: Tree) -> np.ndarray:
        """The sentence vector computed with numpy alone (no graph at all)."""
        b = tree.binarized()
        vals: dict[int, np.ndarray] = {}
        for node in b.postorder():
            if node.is_leaf:
                vals[id(node)] = self.vector(node.word)  # type: ignore[arg-type]
            else:
                left, right = (vals[id(c)] for c in node.children)
                vals[id(node)] = np.tanh(left @ self.W_L + right @ self.W_R)
        return vals[id(b)]

    # -------------------------------------------------------------- define-by-run
    def encode(self, tree: Tree, *, requires_grad: bool = True) -> dy.Tensor:
        """Run the network over ``tree`` in define-by-run: each cell runs now and records its four nodes.

        A plain loop over the tree in post-order (children before parents), the iterative twin of the recursive
        ``def encode(t): return cell(encode(t.left), encode(t.right))`` a PyTorch user would write.
        ``result.graph()`` is the graph of this sentence only.
        """
        W_L = dy.Parameter(self.W_L, name="W_L")
        W_R = dy.Parameter(self.W_R, name="W_R")
        b = tree.binarized()
        vals: dict[int, dy.Tensor] = {}
        labels: dict[int, list[str]] = {}  # node -> the labels of the words it covers
        position = 0
        for node in b.postorder():
            if node.is_leaf:
                position += 1
                labels[id(node)] = [leaf_label(node.word, position)]  # type: ignore[arg-type]
                vals[id(node)] = dy.Tensor(self.vector(node.word), requires_grad=requires_grad,  # type: ignore[arg-type]
                                           name=labels[id(node)][0], kind="input")
                continue
            left, right = node.children
            labels[id(node)] = labels[id(left)] + labels[id(right)]
            scope = phrase_label(labels[id(node)])
            a, c = vals[id(left)] @ W_L, vals[id(right)] @ W_R
            s = a + c
            h = dy.tanh(s)
            for t, op in ((a, "matmul"), (c, "matmul"), (s, "add"), (h, "tanh")):
                t.name = f"{scope}/{op}"
            vals[id(node)] = h
        return vals[id(b)]

    # -------------------------------------------------------------- define-then-run
    def build(self, tree: Tree) -> StaticTree:
        """Define-then-run: build the graph for ``tree``'s *shape* (one placeholder per word position)."""
        return StaticTree(self, tree)


class StaticTree:
    """The define-then-run graph of one tree shape: placeholders ``w1 … wn`` (a vector per word position),
    variables ``W_L``/``W_R``, one cell per phrase. Any sentence with this shape can be fed through it."""

    def __init__(self, net: TreeRNN, tree: Tree) -> None:
        self.net = net
        self.shape = tree.binarized().shape()  # (a b c) and ((a b) c) run the same cells: one graph
        self.graph = st.Graph(f"tree {self.shape}")
        b = tree.binarized()
        with self.graph.as_default():
            W_L = st.Variable(net.W_L, name="W_L")
            W_R = st.Variable(net.W_R, name="W_R")
            vals: dict[int, st.Tensor] = {}
            self.words: list[st.Tensor] = []
            for node in b.postorder():
                if node.is_leaf:
                    p = st.placeholder(f"w{len(self.words) + 1}", shape=(net.dim,))
                    self.words.append(p)
                    vals[id(node)] = p
                    continue
                left, right = (vals[id(c)] for c in node.children)
                vals[id(node)] = st.tanh(st.matmul(left, W_L) + st.matmul(right, W_R))
            self.output = vals[id(b)]
        self.graph.mark_output(self.output.node)
        self.session = st.Session(self.graph)

    def run(self, tree: Tree) -> np.ndarray:
        """Feed ``tree``'s word vectors (it must have this graph's shape) and run the graph."""
        if tree.binarized().shape() != self.shape:
            raise ValueError(say(WRONG_SHAPE, shape=self.shape, text=tree.text, other=tree.binarized().shape()))
        feeds = {p: self.net.vector(w) for p, w in zip(self.words, tree.binarized().words, strict=True)}
        return self.session.run(self.output, feed_dict=feeds)

    @property
    def op_count(self) -> int:
        return sum(1 for n in self.graph.nodes if n.kind == "op")


class ShapeCache:
    """Define-then-run for many sentences: one static graph per distinct tree shape, built the first time that
    shape is seen (``graphs_built``), each compiled by its Session (``compiles``)."""

    def __init__(self, net: TreeRNN) -> None:
        self.net = net
        self.graphs: dict[str, StaticTree] = {}

    def graph_for(self, tree: Tree) -> StaticTree:
        shape = tree.binarized().shape()
        if shape not in self.graphs:
            self.graphs[shape] = self.net.build(tree)
        return self.graphs[shape]

    def run(self, tree: Tree) -> np.ndarray:
        return self.graph_for(tree).run(tree)

    @property
    def graphs_built(self) -> int:
        return len(self.graphs)

    @property
    def compiles(self) -> int:
        return sum(g.session.compile_count for g in self.graphs.values())

    def __repr__(self) -> str:
        # name=value, as Python shows an object: no words whose plural would depend on the count
        return f"ShapeCache(graphs_built={self.graphs_built}, compiles={self.compiles})"


def recorded_ops(t: Any) -> int:
    """How many operation nodes a define-by-run result recorded (leaves and parameters not counted)."""
    return sum(1 for n in t.graph().nodes if n.kind == "op")


def graph_view(result: dy.Tensor, *, weights: bool = True) -> ir.Graph:
    """The recorded graph of :meth:`TreeRNN.encode`, each cell's four ops grouped under its phrase
    (``h(the₁ cat₂)``) so the renderer can draw a cell as a cluster, or as one box with ``collapse=cells(view)``.

    ``weights=False`` leaves out the two shared parameter nodes ``W_L``/``W_R`` (they feed every cell, and their
    edges cross the whole picture); the caption of such a picture must say so.
    """
    g = result.graph()
    view = ir.Graph(g.name)
    made: dict[int, ir.Node] = {}
    for n in g.nodes:
        if n.kind == "variable" and not weights:
            continue
        scope = n.name.rsplit("/", 1)[0] if "/" in n.name else ""
        made[n.id] = view.add(n.op, [made[i.id] for i in n.inputs if i.id in made], name=n.name, kind=n.kind,
                              attrs=n.attrs, value=n.value, scope=scope)
    view.mark_output(*[made[o.id] for o in g.outputs])
    return view


def cells(view: ir.Graph) -> list[str]:
    """The scopes of the cells in a :func:`graph_view` (pass as ``collapse=`` to draw one box per cell)."""
    return list(dict.fromkeys(n.scope for n in view.nodes if n.scope))
