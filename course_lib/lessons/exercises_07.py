"""The checked exercises of notebook 07, *Recursive networks*: defined here so the answers stay out of the notebook.

Every expected answer is computed from the library when the answer is checked (the tree-RNN, the shape cache, the
batching schedule), never typed in. Each function returns the same :class:`Exercise` on every call, so a re-run
cell keeps counting attempts and the hints move on. Worked solutions for instructors:
``instructor/07_recursive_networks_solutions.md``.

>>> ex = ops_recorded()
>>> ex.check(...).ok is None          # unanswered: shows the first hint
True
>>> ex.check(12).ok
False
"""

from __future__ import annotations

import functools
from typing import Any

from . import fold, tree_rnn, trees
from .exercises import Exercise, choice, count_is

__all__ = ["OPS_TEXT", "SENTENCES", "SERVING_CHOICES", "batched_ops", "graphs_needed", "ops_recorded", "serving_choice",
           "serving_verdict", "tallest_tree"]

#: The tree of exercise 07.1.
OPS_TEXT = "((a b) (c (d e)))"
#: The sentences of exercise 07.2.
SENTENCES = ("((the cat) sat)", "(the (cat sat))", "((a dog) ran)", "(the big cat)", "((the cat) (sat down))",
             "(a (b c))")
TALL_WORDS = 5
BATCH_HEIGHT = 6


@functools.cache
def ops_recorded() -> Exercise:
    """07.1: how many op nodes define-by-run records for ``OPS_TEXT``."""
    check = count_is(lambda: tree_rnn.recorded_ops(tree_rnn.TreeRNN().encode(trees.parse(OPS_TEXT))), "operations",
                     lambda truth: f"{truth}: 5 words, so 4 cells, and each cell records matmul, matmul, add and tanh")
    return Exercise("07.1", f"How many operation nodes does define-by-run record for {OPS_TEXT}?", check,
                    hints=["a tree with n words needs n - 1 cells, whatever its shape",
                           f"each cell records {tree_rnn.CELL_OPS} ops; words and weights are leaves, not ops"])


@functools.cache
def graphs_needed() -> Exercise:
    """07.2: how many static graphs one-graph-per-shape needs for ``SENTENCES``."""

    def truth() -> int:
        cache = tree_rnn.ShapeCache(tree_rnn.TreeRNN())
        for s in SENTENCES:
            cache.run(trees.parse(s))
        return cache.graphs_built

    check = count_is(truth, "graphs", lambda t: (f"{t} shapes: ((* *) *), (* (* *)) and ((* *) (* *)); the words "
                                                 "never matter, and (the big cat) is read as ((the big) cat)"))
    return Exercise("07.2", "Define-then-run builds one graph per tree shape. How many graphs for these sentences? "
                    + ", ".join(SENTENCES), check,
                    hints=["replace every word by * and compare the bracket patterns",
                           "a phrase of three words (a b c) is read left to right as ((a b) c)"])


@functools.cache
def tallest_tree() -> Exercise:
    """07.3: type a tree of ``TALL_WORDS`` words that is as tall as possible (checked by parsing it)."""
    best = TALL_WORDS - 1

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, str):
            return False, "answer with the tree as text, in quotes, like '((a b) c)'"
        try:
            t = trees.parse(answer)
        except trees.TreeError as err:
            return False, f"that is not a tree yet: {err}"
        b = t.binarized()
        if len(t.words) != TALL_WORDS:
            return False, f"it has {len(t.words)} words; use exactly {TALL_WORDS}"
        if b.height == best:
            return True, (f"height {best}: a chain of {best} cells, each waiting for the one before -- the worst case "
                          "for batching by depth, which needs one level per cell")
        return False, f"its height is {b.height}; a taller one exists"

    return Exercise("07.3", f"Type a tree of {TALL_WORDS} words whose height is as large as possible.", check,
                    hints=["height = the longest chain of cells from a word up to the sentence",
                           "nest every phrase inside the next one, always on the same side"])


@functools.cache
def batched_ops() -> Exercise:
    """07.4: ops of the batched-by-depth run for 100 trees whose tallest has height ``BATCH_HEIGHT``."""
    tall = trees.parse("(a " * BATCH_HEIGHT + "b" + ")" * BATCH_HEIGHT)  # a chain: height BATCH_HEIGHT
    check = count_is(lambda: fold.op_counts([tall] * 100).by_depth, "operations",
                     lambda truth: (f"{truth} = {fold.LEVEL_OPS} x {BATCH_HEIGHT} + 1, whatever the number of trees: "
                                    "the batch only changes the size of the matrices, not the number of ops"))
    return Exercise("07.4", f"A batch of 100 trees; the tallest has height {BATCH_HEIGHT}. How many ops does the "
                    f"batched-by-depth run record? (Each level costs fold.LEVEL_OPS = {fold.LEVEL_OPS} ops: 2 gathers, "
                    "2 matmuls, add, tanh, scatter, add.)", check,
                    hints=["one batched cell per level; how many levels are there?",
                           f"each level costs {fold.LEVEL_OPS} ops, and one more op picks the sentence vectors"])


#: 07.5's options: how to serve a tree-RNN in *one* static graph, whatever the trees' shapes.
SERVING_CHOICES = {
    "a": "build a graph per tree shape and cache it: after a while every shape has been seen",
    "b": "batch by depth, Fold's way: the graph's ops depend only on the number of levels, and the wiring of the "
         "trees is fed as data",
    "c": "trace the recursive function once on a typical tree: the graph then serves every tree",
    "d": "no static graph can serve trees of different shapes: only define-by-run can",
}


def serving_verdict(seed: int = 3) -> str:
    """07.5's answer, decided by running our engines on five batches of random trees: ``"b"`` when one Fold graph
    served them all with a single compile while the per-shape cache needed more than one graph."""
    import numpy as np

    net = tree_rnn.TreeRNN(dim=3, seed=0)
    fold_graph, cache = fold.FoldGraph(net, max_levels=8), tree_rnn.ShapeCache(net)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        batch = [trees.random_tree(n, rng) for n in (2, 6, 3, 8, 5)]
        fold_graph.run(batch)
        for t in batch:
            cache.run(t)
    one_graph = fold_graph.session.compile_count == 1 and cache.graphs_built > 1
    return "b" if one_graph else "a"


@functools.cache
def serving_choice() -> Exercise:
    """07.5: a decision with its reason, checked against our engines when the answer is checked."""
    why = {
        "a": "real parse trees are nearly all different shapes: the cache keeps growing and every new shape compiles",
        "b": "one FoldGraph served every batch above with one compile; the trees' wiring enters through placeholders",
        "c": "a trace follows one tree: the recursion on data either unrolls that tree only or cannot be traced at all",
        "d": "Fold's graph is static and serves every batch of up to max_levels levels: section 5 ran one",
    }
    return Exercise("07.5", "How can one static graph serve trees of every shape?",
                    choice(SERVING_CHOICES, serving_verdict, why),
                    hints=["which graph of section 5 compiled once for five different batches?",
                           "what decides the number of ops of the batched run?"])
