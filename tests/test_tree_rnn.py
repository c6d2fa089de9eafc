"""The tree-RNN of notebook 07 in both engines, and TensorFlow Fold's dynamic batching rebuilt with them."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.i18n import message_of
from course_lib.lessons import fold, tree_rnn, trees
from course_lib.lessons.tree_rnn import CELL_OPS, ShapeCache, TreeRNN, graph_view, recorded_ops

SENTENCE = "((the cat) (sat (on (the mat))))"


@pytest.fixture
def net() -> TreeRNN:
    return TreeRNN(dim=3, seed=0)


def batch(sizes: tuple[int, ...], seed: int = 0) -> list[trees.Tree]:
    rng = np.random.default_rng(seed)
    return [trees.random_tree(n, rng) for n in sizes]


def test_define_by_run_graph_follows_the_tree(net: TreeRNN) -> None:
    t = trees.parse(SENTENCE)
    h = net.encode(t)
    assert np.allclose(h.data, net.reference(t))
    g = h.graph()
    assert recorded_ops(h) == CELL_OPS * t.compositions == 20
    assert [n.name for n in g.nodes if n.kind == "input"] == ["the₁", "cat₂", "sat₃", "on₄", "the₅", "mat₆"]
    assert [n.name for n in g.nodes if n.kind == "variable"] == ["W_L", "W_R"]
    assert g.outputs[0].name == "h(the₁…mat₆)/tanh"
    # another shape records another graph: the graph IS the tree
    other = net.encode(trees.parse("(((the cat) sat) (on (the mat)))")).graph()
    assert [n.name for n in other.nodes if n.op == "tanh"] != [n.name for n in g.nodes if n.op == "tanh"]


def test_gradients_flow_to_every_word_and_both_weights(net: TreeRNN) -> None:
    h = net.encode(trees.parse(SENTENCE))
    h.sum().backward()
    g = h.graph()
    leaves = [n for n in g.nodes if n.kind in ("input", "variable")]
    assert all(n.attrs.get("grad") is not None and np.any(n.attrs["grad"] != 0) for n in leaves)


def test_gradient_matches_finite_differences(net: TreeRNN) -> None:
    t = trees.parse("((a b) c)")
    def f(WL: np.ndarray) -> float:
        saved, net.W_L = net.W_L, WL
        try:
            return float(net.reference(t).sum())
        finally:
            net.W_L = saved
    h = net.encode(t)
    h.sum().backward()
    grad = next(n.attrs["grad"] for n in h.graph().nodes if n.name == "W_L")
    eps, num = 1e-6, np.zeros_like(net.W_L)
    for i in range(3):
        for j in range(3):
            d = np.zeros_like(net.W_L)
            d[i, j] = eps
            num[i, j] = (f(net.W_L + d) - f(net.W_L - d)) / (2 * eps)
    assert np.allclose(grad, num, atol=1e-6)


def test_graph_view_groups_each_cell_and_can_hide_weights(net: TreeRNN) -> None:
    h = net.encode(trees.parse(SENTENCE))
    full, bare = graph_view(h), graph_view(h, weights=False)
    assert len(full) == len(h.graph()) == 28 and len(bare) == 26
    assert tree_rnn.cells(bare) == ["h(the₁ cat₂)", "h(the₅ mat₆)", "h(on₄ the₅ mat₆)", "h(sat₃…mat₆)",
                                    "h(the₁…mat₆)"]
    assert all(sum(1 for n in bare.nodes if n.scope == c) == CELL_OPS for c in tree_rnn.cells(bare))


def test_repeated_phrases_get_their_own_cells(net: TreeRNN) -> None:
    v = graph_view(net.encode(trees.parse("((the cat) (the cat))")), weights=False)
    assert tree_rnn.cells(v) == ["h(the₁ cat₂)", "h(the₃ cat₄)", "h(the₁…cat₄)"]


def test_define_then_run_needs_a_graph_per_shape(net: TreeRNN) -> None:
    cache = ShapeCache(net)
    sentences = ["((the cat) sat)", "((a dog) ran)", "(the (cat sat))", "((big dog) saw)", "cat"]
    for s in sentences:
        t = trees.parse(s)
        assert np.allclose(cache.run(t), net.reference(t))
    assert cache.graphs_built == 3  # ((* *) *), (* (* *)), *
    assert cache.compiles == 3
    g = cache.graph_for(trees.parse("((x y) z)"))
    assert g.op_count == CELL_OPS * 2
    with pytest.raises(ValueError) as info:
        g.run(trees.parse("(x (y z))"))
    said = message_of(info.value)
    assert said.msgid is tree_rnn.WRONG_SHAPE
    assert said.values == {"shape": "((* *) *)", "text": "(x (y z))", "other": "(* (* *))"}


def test_single_word_has_no_cell(net: TreeRNN) -> None:
    h = net.encode(trees.parse("cat"))
    assert recorded_ops(h) == 0 and np.allclose(h.data, net.vector("cat"))


@pytest.mark.parametrize("sizes", [(1,), (2, 2), (3, 5, 4), (7, 1, 6, 2, 9)])
def test_batched_by_depth_equals_one_tree_at_a_time(net: TreeRNN, sizes: tuple[int, ...]) -> None:
    b = batch(sizes)
    expected = np.array([net.reference(t) for t in b])
    by_depth = fold.run_by_depth(net, b)
    assert np.allclose(by_depth.data, expected)
    outs, per_node_ops = fold.run_per_node(net, b)
    assert np.allclose([o.data for o in outs], expected)
    counts = fold.op_counts(b)
    assert per_node_ops == counts.per_node == CELL_OPS * (sum(sizes) - len(sizes))
    assert tree_rnn.recorded_ops(by_depth) == counts.by_depth == fold.LEVEL_OPS * counts.levels + 1


def test_batched_gradients_equal_per_tree_gradients(net: TreeRNN) -> None:
    b = batch((4, 3, 5))
    by_depth = fold.run_by_depth(net, b)
    by_depth.sum().backward()
    g_batched = next(n.attrs["grad"] for n in by_depth.graph().nodes if n.name == "W_R")
    total = np.zeros_like(net.W_R)
    for t in b:
        h = net.encode(t)
        h.sum().backward()
        total += next(n.attrs["grad"] for n in h.graph().nodes if n.name == "W_R")
    assert np.allclose(g_batched, total)


def test_schedule_levels() -> None:
    s = fold.schedule([trees.parse("((a b) c)"), trees.parse("(d (e (f g)))")])
    assert s.level_sizes == [7, 2, 2, 1]
    assert s.words[:3] == ["a", "b", None] and s.roots == [4, 11]
    S_L, S_R, P = s.selections(1)
    assert S_L.shape == (2, 12) and P.shape == (12, 2) and S_L.sum() == S_R.sum() == P.sum() == 2
    empty = s.selections(9)
    assert [m.shape for m in empty] == [(0, 12), (0, 12), (12, 0)]


def test_batching_saves_ops_for_many_trees() -> None:
    c = fold.op_counts(batch(tuple([8] * 50), seed=1))
    assert c.per_node == 50 * 7 * CELL_OPS
    assert c.by_depth == fold.LEVEL_OPS * c.levels + 1 and c.levels <= 7
    assert c.ratio > 20


def test_counts_print_in_the_language_of_the_moment() -> None:
    from course_lib.i18n import set_language

    c = fold.OpCounts(trees=50, phrases=350, levels=7, per_node=1400, by_depth=57)
    assert str(c) == "trees: 50, phrases: 350, levels: 7; ops one node at a time: 1,400, batched by depth: 57"
    set_language("fr")
    assert str(c) == ("arbres\u00a0: 50, groupes\u00a0: 350, niveaux\u00a0: 7\u00a0; "
                      "opérations un nœud à la fois\u00a0: 1\u202f400, en lots par profondeur\u00a0: 57")
    assert repr(c).startswith("OpCounts(trees=50")  # the fields stay for a reader of the code


def test_one_static_graph_compiled_once_runs_every_batch(net: TreeRNN) -> None:
    g = fold.FoldGraph(net, max_levels=6)
    for seed in range(4):
        b = batch((2, 5, 3, 6), seed=seed)
        assert np.allclose(g.run(b), [net.reference(t) for t in b])
    assert g.session.compile_count == 1
    assert g.op_count == fold.LEVEL_OPS * 6 + 1
    with pytest.raises(ValueError) as info:
        g.run([trees.parse("(a (b (c (d (e (f (g (h i))))))))")])
    assert message_of(info.value).msgid is fold.TOO_MANY_LEVELS
    assert message_of(info.value).values == {"needed": 8, "levels": 6}


def test_sizes_below_one_are_refused() -> None:
    with pytest.raises(ValueError) as info:
        TreeRNN(dim=0)
    assert message_of(info.value).msgid is tree_rnn.DIM_TOO_SMALL
    with pytest.raises(ValueError) as info:
        fold.FoldGraph(TreeRNN(), max_levels=0)
    assert message_of(info.value).msgid is fold.MAX_LEVELS_TOO_SMALL


def test_picture_clusters_by_tree_and_labels_levels() -> None:
    b = [trees.parse("((a b) c)"), trees.parse("(d (e (f g)))")]
    g = fold.picture(b)
    assert [n.scope for n in g.nodes].count("tree 1") == 5 and [n.scope for n in g.nodes].count("tree 2") == 7
    assert [n.op for n in g.outputs] == ["level 2", "level 3"]
    assert g["tree 1/a"].kind == "input"
    levels = [int(n.op.split()[1]) for n in g.nodes if n.kind == "op"]
    assert levels == [1, 2, 1, 2, 3]
    depth = g.depths()  # the renderer's row of a node is its longest path from a word: its level
    assert all(depth[n.id] == int(n.op.split()[1]) for n in g.nodes if n.kind == "op")
