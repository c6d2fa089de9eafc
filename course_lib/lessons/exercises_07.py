"""The checked exercises of notebook 07, *Recursive networks*: defined here so the answers stay out of the notebook.

Every expected answer is computed from the library when the answer is checked (the tree-RNN, the shape cache, the
batching schedule), never typed in. Each function returns the same :class:`Exercise` on every call, so a re-run
cell keeps counting attempts and the hints move on; :data:`REVEALS` lists what would give each one away
(``tests/test_exercise_spoilers.py``). Worked solutions for instructors:
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

from ..i18n import N_, Plural, Said, say
from . import fold, tree_rnn, trees
from .exercises import Exercise, choice, count_is

__all__ = ["BALANCED", "CHAIN", "FOLD_CHOICES", "OPS_TEXT", "REVEALS", "SENTENCES", "batched_ops", "fold_batches",
           "fold_choice", "fold_verdict", "graphs_needed", "ops_recorded", "tallest_tree"]

#: The tree of exercise 07.1.
OPS_TEXT = "((a b) (c (d e)))"
#: The sentences of exercise 07.2.
SENTENCES = ("((the cat) sat)", "(the (cat sat))", "((a dog) ran)", "(the big cat)", "((the cat) (sat down))",
             "(a (b c))")
TALL_WORDS = 5
#: 07.4's trees: batch A is 100 copies of BALANCED, batch B the same plus one CHAIN (8 words each).
BALANCED = "(((a b) (c d)) ((e f) (g h)))"
CHAIN = "(a (b (c (d (e (f (g h)))))))"
BATCH_COPIES = 100

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
BATCHED_WHY = N_("{n} = {level_ops} × ({tall} − {short}): the tallest tree decides the number of levels (height "
                 "{tall} instead of {short}); the number of trees only changes the size of the matrices")
WHOLE_COUNT = N_("that is batch B's whole count; the question asks how many more than batch A's")
ONE_NODE_AT_A_TIME = N_("that is what the chain costs one node at a time; batched by depth, what decides the count?")


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
                           N_("which shape makes every cell wait for the one before it?")])


@functools.cache
def batched_ops() -> Exercise:
    """07.4: how many more ops the batched-by-depth run records for batch B (``BATCH_COPIES`` x ``BALANCED`` plus one
    ``CHAIN``) than for batch A (the copies alone)."""

    def counts() -> tuple[int, int, int]:
        a = [trees.parse(BALANCED)] * BATCH_COPIES
        b = [*a, trees.parse(CHAIN)]
        return fold.op_counts(a).by_depth, fold.op_counts(b).by_depth, fold.op_counts([trees.parse(CHAIN)]).per_node

    def why(more: int) -> Said:
        return say(BATCHED_WHY, n=more, level_ops=fold.LEVEL_OPS, tall=trees.parse(CHAIN).binarized().height,
                   short=trees.parse(BALANCED).binarized().height)

    def mistake(got: int, more: int) -> Said | None:
        _ops_a, ops_b, chain_alone = counts()
        return {ops_b: say(WHOLE_COUNT), chain_alone: say(ONE_NODE_AT_A_TIME)}.get(got)

    def more() -> int:
        ops_a, ops_b, _chain_alone = counts()
        return ops_b - ops_a

    check = count_is(more, "operations", why, mistake)

    return Exercise("07.4", say(N_("Batch A: {copies} copies of {balanced}. Batch B: batch A plus one {chain}. Each "
                                   "level of the batched-by-depth run costs {n} ops. How many more ops does batch B's "
                                   "run record than batch A's?"),
                                copies=BATCH_COPIES, balanced=BALANCED, chain=CHAIN, n=fold.LEVEL_OPS), check,
                    hints=[N_("which one number of a batch decides how many ops the batched run records?"),
                           N_("find each tree's height: a word is 0, a phrase one more than its taller part")])


#: 07.5's options: which batch the FoldGraph of section 5 (``max_levels=8``, five batches run, one compile) cannot
#: run. A setting the notebook does not show: every batch it fed was within the graph's levels.
FOLD_CHOICES = {
    "a": N_("a batch of 200 trees: more trees make bigger matrices, so the graph must be rebuilt"),
    "b": N_("a batch of trees whose shapes appear in none of the five batches it has run"),
    "c": N_("a batch of one-word sentences: with no phrase at all, its first level is empty"),
    "d": N_("a batch whose tallest tree has height 9: the graph holds only 8 levels of cells"),
}
FOLD_LEVELS = 8


def fold_batches(seed: int = 0) -> tuple[list[list[trees.Tree]], dict[str, list[trees.Tree]]]:
    """Section 5's five batches (sizes 2, 6, 3, 8, 5 words, seeds 0-4) and 07.5's candidate batch per option."""
    import numpy as np

    served = []
    for s in range(5):
        rng = np.random.default_rng(s)
        served.append([trees.random_tree(n, rng) for n in (2, 6, 3, 8, 5)])
    seen = {t.binarized().shape() for batch in served for t in batch}
    rng = np.random.default_rng(seed + 11)
    big = [trees.random_tree(int(n), rng) for n in rng.integers(2, 9, size=200)]
    new = [t for t in (trees.random_tree(n, rng) for n in (4, 5, 6, 7, 8) * 4) if t.binarized().shape() not in seen]
    words = [trees.parse(w) for w in ("good", "bad", "fine")]
    tall = trees.parse("(a " * 9 + "b" + ")" * 9)  # a chain: height 9
    return served, {"a": big, "b": new, "c": words, "d": [tall, *served[0]]}


def fold_verdict(seed: int = 0) -> str:
    """07.5's answer, decided by running our engines: one ``FoldGraph`` of ``FOLD_LEVELS`` levels serves section 5's
    five batches, then each option's batch; the right letter is the batch it refuses or compiles again for."""
    net = tree_rnn.TreeRNN(dim=3, seed=0)
    graph = fold.FoldGraph(net, max_levels=FOLD_LEVELS)
    served, candidates = fold_batches(seed)
    for batch in served:
        graph.run(batch)
    failed = []
    for letter, batch in candidates.items():
        try:
            graph.run(batch)
        except ValueError:
            failed.append(letter)
            continue
        if graph.session.compile_count > 1:
            failed.append(letter)
    return failed[0] if len(failed) == 1 else ""


@functools.cache
def fold_choice() -> Exercise:
    """07.5: a prediction with its reason, checked against our engines when the answer is checked."""
    why = {
        "a": N_("the graph's ops depend only on the number of levels: 200 trees only make the fed matrices bigger"),
        "b": N_("the trees' wiring is fed as selection matrices: any shape of at most 8 levels runs in the same "
                "graph"),
        "c": N_("an empty level gets empty selections, as in every batch of fewer than 8 levels: it runs"),
        "d": N_("the graph is unrolled for 8 levels: a taller batch needs another graph, as a longer sentence needs "
                "a longer padded RNN"),
    }
    return Exercise("07.5", N_("Which batch can section 5's FoldGraph (max_levels=8) not run?"),
                    choice(FOLD_CHOICES, fold_verdict, why),
                    hints=[N_("what is fed through the placeholders, and what was fixed when the graph was built?"),
                           N_("what does the number of ops of the batched run depend on?")])


#: What would give each exercise away (``tests/test_exercise_spoilers.py``): the key line of a solution, the right
#: option's own words, the verdict that explains the count.
REVEALS: dict[str, tuple[str, ...]] = {
    "07.1": ("ex1.check(16)", "16: 5 words, so 4 cells", "16 : 5 mots, donc 4 cellules"),
    "07.2": ("ex2.check(3)", "3 shapes: ((* *) *), (* (* *)) and ((* *) (* *))",
             "3 formes : ((* *) *), (* (* *)) et ((* *) (* *))"),
    "07.3": ("(a (b (c (d e))))", "((((a b) c) d) e)", "height 4: a chain of 4 cells",
             "hauteur 4 : une chaîne de 4 cellules"),
    "07.4": ("ex4.check(32)", "32 = 8 × (7 − 3)"),
    "07.5": ("ex5.check(\"d\")", "tallest tree has height 9: the graph holds only 8 levels",
             "tallest tree has height 9", "l'arbre le plus haut a une hauteur de 9"),
}
