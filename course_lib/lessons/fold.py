"""Dynamic batching by depth -- the idea of TensorFlow Fold (Looks et al., ICLR 2017), rebuilt with our engines.

A tree-RNN over one sentence runs one small cell per phrase, one after the other: n words, n - 1 cells, each a
handful of tiny ops. Over a batch of 50 sentences that is thousands of tiny ops, and the trees all differ, so they
cannot be stacked into one tensor the way equal-length sequences can.

Fold's observation: a phrase can be computed as soon as its two parts are, so give every node its **height**
(words 0; a phrase 1 + the taller of its parts). All nodes of one height -- across *all* trees of the batch -- are
independent of each other and run the *same* cell. So run the cell once per height, on a matrix that stacks them:

    for level k = 1 .. max height:
        L = S_L(k) · H          gather the left parts of the level-k phrases  (one-hot selection matrix)
        R = S_R(k) · H          gather the right parts
        N = tanh(L · W_L + R · W_R)                     the cell, on every level-k phrase at once
        H = H + P(k) · N        scatter the new rows into the table of all node vectors

``H`` has one row per node of the batch (words filled in at the start, phrases zero until computed). A gather
written as a product with a one-hot matrix keeps everything differentiable with the ops both engines already
have (Fold used ``tf.gather`` and ``tf.concat``). Ops per batch: ``8 x max height + 1`` instead of
``4 x (words - trees)``.

Fold's second trick, also shown here (:class:`FoldGraph`): the graph of that loop depends on the number of levels
only, never on the trees. So one static graph, compiled once, runs every batch; the selection matrices are fed
through placeholders. (Fold wrapped the loop in a ``tf.while_loop``; our static engine has no loops, so the graph
is unrolled for a maximum number of levels and unused levels get empty selections.)

>>> from course_lib.lessons import trees, tree_rnn
>>> rng = np.random.default_rng(0)
>>> batch = [trees.random_tree(n, rng) for n in (3, 5, 4)]
>>> plan = schedule(batch)
>>> plan.level_sizes
[12, 3, 3, 2, 1]
>>> counts = op_counts(batch); (counts.per_node, counts.by_depth)
(36, 33)
>>> net = tree_rnn.TreeRNN()
>>> bool(np.allclose(run_by_depth(net, batch).data, [net.reference(t) for t in batch]))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import dynamic as dy
from .. import graph as ir
from .. import static as st
from ..i18n import N_, Plural, number, say
from ..i18n import gettext as _
from .tree_rnn import CELL_OPS, TreeRNN, recorded_ops
from .trees import Tree

__all__ = ["LEVEL_OPS", "FoldGraph", "OpCounts", "Schedule", "op_counts", "picture", "run_by_depth", "run_per_node",
           "schedule"]

#: ops per level of the batched loop: 2 gathers, 2 matmuls, add, tanh, scatter, add
LEVEL_OPS = 8

MAX_LEVELS_TOO_SMALL = N_("max_levels must be at least 1")
FEWER = N_("{ratio} times fewer ops batched")
COUNTS = N_("trees: {trees}, phrases: {phrases}, levels: {levels}; ops one node at a time: {per_node}, batched by "
            "depth: {by_depth}")
TOO_MANY_LEVELS = N_("this batch needs {needed} levels but the graph was built for {levels}; build FoldGraph(net, "
                     "max_levels={needed}) -- like padding, a static graph has a maximum size")


@dataclass
class Schedule:
    """Every node of a batch of (binarized) trees, numbered 0..n-1, with what the batched loop needs.

    ``words[i]``: the word of node i (None for a phrase); ``height[i]``; ``tree[i]``: which tree it belongs to;
    ``left[i]``/``right[i]``: its parts (-1 for a word); ``roots[t]``: the node of tree t's sentence vector;
    ``levels[k]``: the nodes of height k, in batch order (``levels[0]`` are the words).
    """

    words: list[str | None] = field(default_factory=list)
    height: list[int] = field(default_factory=list)
    tree: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    right: list[int] = field(default_factory=list)
    roots: list[int] = field(default_factory=list)
    levels: list[list[int]] = field(default_factory=list)

    @property
    def n_nodes(self) -> int:
        return len(self.words)

    @property
    def max_height(self) -> int:
        return len(self.levels) - 1

    @property
    def level_sizes(self) -> list[int]:
        return [len(lv) for lv in self.levels]

    def leaf_matrix(self, net: TreeRNN) -> np.ndarray:
        """``H`` before the loop: one row per node, word vectors filled in, phrase rows zero."""
        X = np.zeros((self.n_nodes, net.dim))
        for i, w in enumerate(self.words):
            if w is not None:
                X[i] = net.vector(w)
        return X

    def selections(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One-hot ``S_L`` (m x n), ``S_R`` (m x n) and ``P`` (n x m) for the m phrases of level k (k >= 1);
        an empty level (k past the tallest tree) gives matrices with zero rows/columns."""
        nodes = self.levels[k] if 0 < k < len(self.levels) else []
        n, m = self.n_nodes, len(nodes)
        S_L, S_R, P = np.zeros((m, n)), np.zeros((m, n)), np.zeros((n, m))
        for r, node in enumerate(nodes):
            S_L[r, self.left[node]] = 1.0
            S_R[r, self.right[node]] = 1.0
            P[node, r] = 1.0
        return S_L, S_R, P

    def root_selection(self) -> np.ndarray:
        """One-hot (trees x n): picks each tree's sentence vector out of ``H``."""
        R = np.zeros((len(self.roots), self.n_nodes))
        for t, node in enumerate(self.roots):
            R[t, node] = 1.0
        return R


def schedule(trees: list[Tree]) -> Schedule:
    """Number the nodes of every tree (post-order, tree after tree) and group them by height."""
    s = Schedule()
    for t, tree in enumerate(trees):
        b = tree.binarized()
        index: dict[int, int] = {}
        for node in b.postorder():
            i = s.n_nodes
            index[id(node)] = i
            s.tree.append(t)
            if node.is_leaf:
                s.words.append(node.word)
                s.height.append(0)
                s.left.append(-1)
                s.right.append(-1)
            else:
                left, right = (index[id(c)] for c in node.children)
                s.words.append(None)
                s.height.append(1 + max(s.height[left], s.height[right]))
                s.left.append(left)
                s.right.append(right)
        s.roots.append(index[id(b)])
    top = max(s.height, default=-1)
    s.levels = [[i for i, h in enumerate(s.height) if h == k] for k in range(top + 1)]
    return s


@dataclass(frozen=True)
class OpCounts:
    """Ops a batch costs: ``per_node`` (one cell per phrase, tree by tree) vs ``by_depth`` (one batched cell per
    level); ``levels`` = the tallest tree's height; ``phrases`` = cells to compute."""

    trees: int
    phrases: int
    levels: int
    per_node: int
    by_depth: int

    @property
    def ratio(self) -> float:
        return self.per_node / self.by_depth if self.by_depth else float("inf")

    def fewer(self) -> str:
        """How many times fewer ops the batched way runs, in the language of the moment.

        >>> OpCounts(50, 350, 7, 1400, 57).fewer()
        '24.6 times fewer ops batched'
        """
        return _(FEWER).format(ratio=number(self.ratio, spec=".1f"))

    def __str__(self) -> str:
        """The counts in words, in the language of the moment (``print(counts)``; ``repr`` keeps the fields).

        >>> print(OpCounts(50, 350, 7, 1400, 57))
        trees: 50, phrases: 350, levels: 7; ops one node at a time: 1,400, batched by depth: 57
        """
        return _(COUNTS).format(trees=number(self.trees, spec=","), phrases=number(self.phrases, spec=","),
                                levels=number(self.levels, spec=","), per_node=number(self.per_node, spec=","),
                                by_depth=number(self.by_depth, spec=","))


def op_counts(trees: list[Tree]) -> OpCounts:
    """Count the ops of both ways from the schedule (tests check them against the recorded graphs)."""
    s = schedule(trees)
    phrases = sum(1 for w in s.words if w is None)
    return OpCounts(len(trees), phrases, s.max_height, CELL_OPS * phrases, LEVEL_OPS * s.max_height + 1)


# ---------------------------------------------------------------------------------------------------- running
def run_per_node(net: TreeRNN, trees: list[Tree]) -> tuple[list[dy.Tensor], int]:
    """Define-by-run, one tree after the other, one cell per phrase; returns the vectors and the ops recorded."""
    outs = [net.encode(t, requires_grad=True) for t in trees]
    return outs, sum(recorded_ops(o) for o in outs)


def run_by_depth(net: TreeRNN, trees: list[Tree]) -> dy.Tensor:
    """Define-by-run with dynamic batching: one batched cell per level; returns the (trees x dim) sentence
    vectors, whose recorded graph has ``LEVEL_OPS`` ops per level plus one to pick the roots."""
    s = schedule(trees)
    W_L = dy.Parameter(net.W_L, name="W_L")
    W_R = dy.Parameter(net.W_R, name="W_R")
    H = dy.Tensor(s.leaf_matrix(net), requires_grad=True, name="H0", kind="input")
    for k in range(1, s.max_height + 1):
        S_L, S_R, P = s.selections(k)
        new = dy.tanh((dy.constant(S_L, name=f"S_L{k}") @ H) @ W_L + (dy.constant(S_R, name=f"S_R{k}") @ H) @ W_R)
        H = H + dy.constant(P, name=f"P{k}") @ new
    return dy.constant(s.root_selection(), name="roots") @ H


class FoldGraph:
    """One define-then-run graph for every batch with at most ``max_levels`` levels (Fold's static graph).

    Placeholders: ``H0`` (the leaf matrix), ``S_L<k>``, ``S_R<k>``, ``P<k>`` per level, ``roots``; all of any
    size (``shape=None``), so batches of different trees feed the same graph. ``session.compile_count`` stays 1.
    """

    def __init__(self, net: TreeRNN, max_levels: int) -> None:
        if max_levels < 1:
            raise ValueError(say(MAX_LEVELS_TOO_SMALL))
        self.net, self.max_levels = net, max_levels
        self.graph = st.Graph(str(say(Plural("fold, {n} level", "fold, {n} levels"), n=max_levels)))
        self.sel: list[tuple[st.Tensor, st.Tensor, st.Tensor]] = []
        with self.graph.as_default():
            W_L, W_R = st.Variable(net.W_L, name="W_L"), st.Variable(net.W_R, name="W_R")
            self.H0 = H = st.placeholder("H0", shape=None)
            for k in range(1, max_levels + 1):
                with st.name_scope(f"level{k}"):
                    S_L, S_R, P = (st.placeholder(f"{nm}{k}", shape=None) for nm in ("S_L", "S_R", "P"))
                    new = st.tanh(st.matmul(st.matmul(S_L, H), W_L) + st.matmul(st.matmul(S_R, H), W_R))
                    H = H + st.matmul(P, new)
                self.sel.append((S_L, S_R, P))
            self.roots = st.placeholder("roots", shape=None)
            self.output = st.matmul(self.roots, H)
        self.graph.mark_output(self.output.node)
        self.session = st.Session(self.graph)

    def run(self, trees: list[Tree]) -> np.ndarray:
        """Feed one batch (its schedule as matrices) and run; trees taller than ``max_levels`` are refused."""
        s = schedule(trees)
        if s.max_height > self.max_levels:
            raise ValueError(say(TOO_MANY_LEVELS, needed=s.max_height, levels=self.max_levels))
        feeds: dict[Any, np.ndarray] = {self.H0: s.leaf_matrix(self.net), self.roots: s.root_selection()}
        for k, (S_L, S_R, P) in enumerate(self.sel, start=1):
            feeds[S_L], feeds[S_R], feeds[P] = s.selections(k)
        return self.session.run(self.output, feed_dict=feeds)

    @property
    def op_count(self) -> int:
        return sum(1 for n in self.graph.nodes if n.kind == "op")


# ---------------------------------------------------------------------------------------------------- picture
def picture(trees: list[Tree]) -> ir.Graph:
    """The batch as one graph for drawing: each tree in its own cluster (``tree 2``), each phrase labelled with its
    level (``level 2``). Drawn bottom-up, a node's row is its level (words at the bottom), so one row across all the
    trees is one batched cell. Those words, and the graph's name, are the drawing's, in the language of the moment
    (French: ``arbre 2``, ``niveau 2``)."""
    s = schedule(trees)
    g = ir.Graph(_("dynamic batching by depth"))  # its name is shown with the picture (a figure's summary line)
    made: list[ir.Node] = []
    for i in range(s.n_nodes):
        tree = _("tree {n}").format(n=s.tree[i] + 1)
        if s.words[i] is not None:
            made.append(g.add("word", name=f"{tree}/{s.words[i]}", kind="input", scope=tree))
        else:  # op = the label; the renderer hides the _1, _2 suffixes of repeated names
            level = _("level {n}").format(n=s.height[i])
            made.append(g.add(level, [made[s.left[i]], made[s.right[i]]], name=f"{tree}/{level}", scope=tree))
    g.mark_output(*[made[r] for r in s.roots])
    return g
