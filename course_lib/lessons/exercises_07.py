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

from ..i18n import N_, Plural, say
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

# The verdicts (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
OPS_WHY = N_("{n}: 5 words, so 4 cells, and each cell records matmul, matmul, add and tanh")
SHAPES_WHY = N_("{n} shapes: ((* *) *), (* (* *)) and ((* *) (* *)); the words never matter, and (the big cat) is "
                "read as ((the big) cat)")
TREE_AS_TEXT = N_("answer with the tree as text, in quotes, like {example}")
NOT_A_TREE_YET = N_("that is not a tree yet: {error}")
WORD_COUNT = Plural("it has {n} word; use exactly {words}", "it has {n} words; use exactly {words}")
TALLEST_WHY = N_("height {n}: a chain of {n} cells, each waiting for the one before -- the worst case for batching by "
                 "depth, which needs one level per cell")
TALLER_EXISTS = N_("its height is {n}; a taller one exists")
BATCHED_WHY = N_("{n} = {level_ops} x {height} + 1, whatever the number of trees: the batch only changes the size of "
                 "the matrices, not the number of ops")


@functools.cache
def ops_recorded() -> Exercise:
    """07.1: how many op nodes define-by-run records for ``OPS_TEXT``."""
    check = count_is(lambda: tree_rnn.recorded_ops(tree_rnn.TreeRNN().encode(trees.parse(OPS_TEXT))), "operations",
                     lambda truth: say(OPS_WHY, n=truth))
    return Exercise("07.1", say(N_("How many operation nodes does define-by-run record for {tree}?"), tree=OPS_TEXT),
                    check,
                    hints=[N_("a tree with n words needs n - 1 cells, whatever its shape"),
                           say(N_("each cell records {n} ops; words and weights are leaves, not ops"),
                               n=tree_rnn.CELL_OPS)])


@functools.cache
def graphs_needed() -> Exercise:
    """07.2: how many static graphs one-graph-per-shape needs for ``SENTENCES``."""

    def truth() -> int:
        cache = tree_rnn.ShapeCache(tree_rnn.TreeRNN())
        for s in SENTENCES:
            cache.run(trees.parse(s))
        return cache.graphs_built

    check = count_is(truth, "graphs", lambda t: say(SHAPES_WHY, n=t))
    return Exercise("07.2", say(N_("Define-then-run builds one graph per tree shape. How many graphs for these "
                                   "sentences? {sentences}"), sentences=", ".join(SENTENCES)), check,
                    hints=[N_("replace every word by * and compare the bracket patterns"),
                           N_("a phrase of three words (a b c) is read left to right as ((a b) c)")])


@functools.cache
def tallest_tree() -> Exercise:
    """07.3: type a tree of ``TALL_WORDS`` words that is as tall as possible (checked by parsing it)."""
    best = TALL_WORDS - 1

    def check(answer: Any) -> tuple[bool, str]:
        if not isinstance(answer, str):
            return False, say(TREE_AS_TEXT, example="'((a b) c)'")
        try:
            t = trees.parse(answer)
        except trees.TreeError as err:
            return False, say(NOT_A_TREE_YET, error=str(err))
        b = t.binarized()
        if len(t.words) != TALL_WORDS:
            return False, say(WORD_COUNT, n=len(t.words), words=TALL_WORDS)
        if b.height == best:
            return True, say(TALLEST_WHY, n=best)
        return False, say(TALLER_EXISTS, n=b.height)

    return Exercise("07.3", say(N_("Type a tree of {n} words whose height is as large as possible."), n=TALL_WORDS),
                    check,
                    hints=[N_("height = the longest chain of cells from a word up to the sentence"),
                           N_("nest every phrase inside the next one, always on the same side")])


@functools.cache
def batched_ops() -> Exercise:
    """07.4: ops of the batched-by-depth run for 100 trees whose tallest has height ``BATCH_HEIGHT``."""
    tall = trees.parse("(a " * BATCH_HEIGHT + "b" + ")" * BATCH_HEIGHT)  # a chain: height BATCH_HEIGHT
    check = count_is(lambda: fold.op_counts([tall] * 100).by_depth, "operations",
                     lambda truth: say(BATCHED_WHY, n=truth, level_ops=fold.LEVEL_OPS, height=BATCH_HEIGHT))
    return Exercise("07.4", say(N_("A batch of 100 trees; the tallest has height {height}. How many ops does the "
                                   "batched-by-depth run record? (Each level costs fold.LEVEL_OPS = {n} ops: 2 "
                                   "gathers, 2 matmuls, add, tanh, scatter, add.)"),
                                height=BATCH_HEIGHT, n=fold.LEVEL_OPS), check,
                    hints=[N_("one batched cell per level; how many levels are there?"),
                           say(N_("each level costs {n} ops, and one more op picks the sentence vectors"),
                               n=fold.LEVEL_OPS)])


#: 07.5's options: how to serve a tree-RNN in *one* static graph, whatever the trees' shapes.
SERVING_CHOICES = {
    "a": N_("build a graph per tree shape and cache it: after a while every shape has been seen"),
    "b": N_("batch by depth, Fold's way: the graph's ops depend only on the number of levels, and the wiring of the "
            "trees is fed as data"),
    "c": N_("trace the recursive function once on a typical tree: the graph then serves every tree"),
    "d": N_("no static graph can serve trees of different shapes: only define-by-run can"),
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
        "a": N_("real parse trees are nearly all different shapes: the cache keeps growing and every new shape "
                "compiles"),
        "b": N_("one FoldGraph served every batch above with one compile; the trees' wiring enters through "
                "placeholders"),
        "c": N_("a trace follows one tree: the recursion on data either unrolls that tree only or cannot be traced "
                "at all"),
        "d": N_("Fold's graph is static and serves every batch of up to max_levels levels: section 5 ran one"),
    }
    return Exercise("07.5", N_("How can one static graph serve trees of every shape?"),
                    choice(SERVING_CHOICES, serving_verdict, why),
                    hints=[N_("which graph of section 5 compiled once for five different batches?"),
                           N_("what decides the number of ops of the batched run?")])
