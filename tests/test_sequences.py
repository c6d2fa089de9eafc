"""course_lib.lessons.sequences: the padded static unroll, the per-sentence dynamic unroll, and the padding arithmetic.

The central claim of notebook 06 is checked here against plain numpy: padding + mask in ONE fixed-length graph
gives exactly the per-sentence answers, and padding without the mask does not.
"""

from __future__ import annotations

import numpy as np
import pytest

from course_lib import static as st
from course_lib.i18n import message_of
from course_lib.lessons import padding
from course_lib.lessons import sequences as sq


@pytest.fixture(scope="module")
def rnn() -> sq.TinyRNN:
    return sq.TinyRNN.make()


def random_batch(rnn: sq.TinyRNN, seed: int, n: int = 6, longest: int = 7) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(int(L), rnn.dim)) for L in rng.integers(1, longest + 1, size=n)]




@pytest.mark.parametrize("seed", range(5))
def test_static_padded_and_masked_equals_dynamic_per_sentence_equals_numpy(rnn: sq.TinyRNN, seed: int) -> None:
    xs = random_batch(rnn, seed)
    T = max(len(x) for x in xs) + seed % 2  # also padded beyond the longest sentence
    static = sq.StaticUnroll(rnn, T)
    got_static = static.run(*sq.pad(xs, T))
    got_dynamic = np.array([float(sq.dynamic_unroll(rnn, x).score.data) for x in xs])
    want = sq.reference_scores(rnn, xs)
    np.testing.assert_allclose(got_static, want, rtol=1e-12)
    np.testing.assert_allclose(got_dynamic, want, rtol=1e-12)


def test_padding_without_the_mask_changes_every_shorter_sentence(rnn: sq.TinyRNN) -> None:
    xs = [rnn.embed(s) for s in sq.SENTENCES]
    lens = sq.lengths(sq.SENTENCES)
    T = max(lens)
    unmasked = sq.StaticUnroll(rnn, T, masked=False).run(*sq.pad(xs))
    want = sq.reference_scores(rnn, xs)
    for L, got, ok in zip(lens, unmasked, want, strict=True):
        assert np.isclose(got, ok) == (L == T)


def test_one_graph_compiles_once_for_many_batches_of_its_length(rnn: sq.TinyRNN) -> None:
    static = sq.StaticUnroll(rnn, 5)
    for seed in range(4):
        static.run(*sq.pad(random_batch(rnn, seed, longest=5), 5))
    assert static.session.compile_count == 1


def test_a_batch_of_another_length_is_refused_with_a_message_that_teaches(rnn: sq.TinyRNN) -> None:
    static = sq.StaticUnroll(rnn, 4)
    x, mask = sq.pad([np.ones((6, rnn.dim))])
    with pytest.raises(ValueError, match="built for exactly 4 steps.*static graph's length is fixed") as info:
        static.run(x, mask)
    assert message_of(info.value).msgid is sq.WRONG_LENGTH and message_of(info.value).values == {"steps": 4, "got": 6}
    with pytest.raises(ValueError) as info:
        sq.pad([np.ones((6, rnn.dim))], length=4)
    assert message_of(info.value).msgid is padding.TOO_SHORT
    assert message_of(info.value).values == {"steps": 4, "longest": 6}
    with pytest.raises(ValueError) as info:
        static.run(np.ones((1, 4)), np.ones((1, 4)))
    assert message_of(info.value).msgid is sq.BAD_SHAPE and message_of(info.value).values["dim"] == rnn.dim
    for bad in ({"steps": 0}, {}):
        with pytest.raises(ValueError) as info:
            sq.StaticUnroll(rnn, **bad) if bad else sq.pad([])
        assert message_of(info.value).msgid is (sq.NO_STEP if bad else padding.NO_SENTENCE)


def test_static_graph_has_one_scope_per_step_and_no_mask_at_step_one(rnn: sq.TinyRNN) -> None:
    static = sq.StaticUnroll(rnn, 3)
    scopes = [n.scope for n in static.graph.nodes]
    assert [s for s in dict.fromkeys(scopes) if s] == ["weights", "step 1", "step 2", "step 3"]
    assert [m.name for m in static.masks] == ["step 2/m2", "step 3/m3"]
    assert static.graph["score"].op == "sigmoid"
    assert all(n.kind != "input" or n.attrs["shape"][0] is None for n in static.graph.nodes)  # any batch size


@pytest.mark.parametrize("L", [1, 2, 5, 9])
def test_dynamic_graph_grows_with_the_sentence(rnn: sq.TinyRNN, L: int) -> None:
    run = sq.dynamic_unroll(rnn, np.ones((L, rnn.dim)))
    g = run.graph()
    # weights (Wh only once a step uses it: define-by-run records what ran) + step 1 (x, x·Wx, add b, tanh)
    # + 6 per later step (… h·Wh, add …) + logit + score
    weights = 3 if L == 1 else 4
    assert len(g.nodes) == weights + 4 + 6 * (L - 1) + 2
    assert run.steps == L
    step_scopes = [s for s in dict.fromkeys(n.scope for n in g.nodes) if s.startswith("step")]
    assert step_scopes == [f"step {t}" for t in range(1, L + 1)]


def test_the_boxes_of_both_unrolls_are_named_in_the_language_of_the_moment(rnn: sq.TinyRNN) -> None:
    """The scopes are what a drawing shows as box labels: French "pas 2" and "poids", not "step 2" and "weights"."""
    from course_lib.i18n import set_language

    set_language("fr")
    static, run = sq.StaticUnroll(rnn, 2), sq.dynamic_unroll(rnn, np.ones((2, rnn.dim)))
    for g in (static.graph, run.graph()):
        scopes = [s for s in dict.fromkeys(n.scope for n in g.nodes) if s]
        assert scopes == ["poids", "pas 1", "pas 2"], scopes
    assert static.graph.name == "RNN statique, 2 pas"
    set_language("en")
    assert sq.StaticUnroll(rnn, 1).graph.name == "static RNN, 1 step"


def test_tensorflow_runs_a_while_loop_lowered_into_a_cycle() -> None:
    """TensorFlow 2 stores one While op (acyclic); the graph its runtime ran has the cycle of TensorFlow 1's control
    flow again (Enter, Merge, Switch, NextIteration, Exit), and it still counts to the limit."""
    pytest.importorskip("tensorflow")
    from course_lib.adapters import frameworks

    loop = frameworks.tf1_loop_graph(limit=4, control_flow_v2=True)
    stored = [op.type for op in loop.get_operations()]
    assert "StatelessWhile" in stored and "NextIteration" not in stored
    ran = sq.ran_op_types(loop)
    assert {"Enter", "Merge", "Switch", "NextIteration", "Exit", "LoopCond"} <= set(ran)
    assert "StatelessWhile" not in ran and "While" not in ran


def test_padding_counts() -> None:
    c = sq.padding_count([5, 2, 3])
    assert (c.real, c.padded, c.total) == (10, 5, 15)
    assert c.wasted == pytest.approx(1 / 3)
    assert sq.padding_count([4, 4]).padded == 0
    assert sq.padding_count([2, 3], pad_to=10).padded == 15
    assert sq.padding_count([]).total == 0
    with pytest.raises(ValueError) as info:
        sq.padding_count([5], pad_to=3)
    assert message_of(info.value).msgid is padding.PAD_TO_SHORT and message_of(info.value).values == {"steps": 3,
                                                                                                     "longest": 5}


def test_buckets_by_count_and_by_boundaries() -> None:
    lens = [9, 1, 4, 8, 2, 7]
    assert sq.buckets(lens, k=1) == [[0, 1, 2, 3, 4, 5]]
    assert sq.buckets(lens, k=2) == [[1, 2, 4], [0, 3, 5]]
    assert sq.buckets(lens, k=6) == [[1], [4], [2], [5], [3], [0]]
    assert sq.buckets(lens, boundaries=[3, 8]) == [[1, 4], [2, 3, 5], [0]]
    assert sq.buckets(lens, boundaries=[100]) == [[0, 1, 2, 3, 4, 5]]
    for both_or_neither in ({}, {"k": 2, "boundaries": [3]}):
        with pytest.raises(ValueError) as info:
            sq.buckets(lens, **both_or_neither)
        assert message_of(info.value).msgid is padding.K_OR_BOUNDARIES
    with pytest.raises(ValueError) as info:
        sq.buckets(lens, k=0)
    assert message_of(info.value).msgid is padding.K_TOO_SMALL


def test_bucketing_never_pads_more_and_one_bucket_per_sentence_pads_nothing() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        lens = [int(v) for v in rng.integers(1, 15, size=10)]
        padded = sq.padding_count(lens).padded
        for k in range(1, 11):
            b = sq.bucketed_count(lens, sq.buckets(lens, k=k))
            assert b.real == sum(lens)
            assert b.padded <= padded
        assert sq.bucketed_count(lens, sq.buckets(lens, k=10)).padded == 0


def test_lengths_with_spread() -> None:
    assert sq.lengths_with_spread(0) == [6] * 8
    for spread in range(1, 6):
        lens = sq.lengths_with_spread(spread)
        assert min(lens) == max(1, 6 - spread) and max(lens) == 6 + spread
        assert lens == sq.lengths_with_spread(spread)  # fixed, not random per call
    assert sq.lengths(sq.sentences_with_spread(4)) == sq.lengths_with_spread(4)


def test_embedding_is_fixed_per_word_and_tokens_ignore_case_and_punctuation(rnn: sq.TinyRNN) -> None:
    assert sq.tokens("Not good, at ALL!") == ["not", "good", "at", "all"]
    np.testing.assert_array_equal(rnn.embed("Good")[0], sq.TinyRNN.make().embed("good")[0])
    assert not np.allclose(rnn.embed("good"), rnn.embed("bad"))
    assert rnn.embed("").shape == (0, rnn.dim)


def test_grid_draws_one_dashed_zero_per_padded_step() -> None:
    lens = [3, 1, 5]
    svg = sq.grid_svg(lens)
    assert svg.count('stroke-dasharray="3,2"') == sq.padding_count(lens).padded
    groups = sq.buckets(lens, k=2)
    assert sq.grid_svg(lens, groups).count('stroke-dasharray="3,2"') == sq.bucketed_count(lens, groups).padded


def test_static_nodes_are_symbols_until_run(rnn: sq.TinyRNN) -> None:
    static = sq.StaticUnroll(rnn, 2)
    with pytest.raises(st.SymbolicBoolError):
        float(static.score)


def test_torch_rnn_with_our_weights_and_packed_sequences_matches_numpy(rnn: sq.TinyRNN) -> None:
    torch = pytest.importorskip("torch")
    from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence

    xs = [rnn.embed(s) for s in sq.SENTENCES]
    lens = sq.lengths(sq.SENTENCES)
    padded = pad_sequence([torch.from_numpy(x) for x in xs], batch_first=True)
    packed = pack_padded_sequence(padded, torch.tensor(lens), batch_first=True, enforce_sorted=False)
    assert int(packed.batch_sizes.sum()) == sum(lens)  # the padded steps are not in the packed data
    _, h = sq.to_torch(rnn)(packed)
    scores = torch.sigmoid(h[0] @ torch.from_numpy(rnn.v)).detach().numpy()
    np.testing.assert_allclose(scores, sq.reference_scores(rnn, xs), rtol=1e-10)


def test_waste_rows_count_what_padding_costs() -> None:
    rows = sq.waste_rows(5, ks=(1, 2, 8))
    assert [r[0] for r in rows] == list(range(6))
    assert rows[0][3:] == (0, 0, 0)  # equal lengths: nothing to pad
    padded = [r[3] for r in rows]
    assert padded == sorted(padded) and padded[-1] > 0  # more spread, more padding
    assert all(r[4] <= r[3] for r in rows) and all(r[5] == 0 for r in rows)  # 8 buckets of 1: no padding
    for spread, longest, words, *_ in rows:
        assert longest == max(sq.lengths_with_spread(spread)) and words == sum(sq.lengths_with_spread(spread))
    assert sq.plot_waste(3).axes[0].get_ylabel() == "% of cell steps on padding"


def test_strategy_costs_count_the_cell_steps_of_each_strategy(rnn: sq.TinyRNN) -> None:
    pytest.importorskip("torch")
    xs = [rnn.embed(s) for s in sq.SENTENCES]
    lens = sq.lengths(sq.SENTENCES)
    costs = sq.strategy_costs(rnn, xs, repeat=1, k=2, extra={"nothing": lambda: None})
    steps = costs.steps
    assert steps["our static engine: padded, one graph"] == len(lens) * max(lens)
    assert steps["our dynamic engine: one sentence at a time"] == sum(lens)
    assert steps["torch nn.RNN: pack_padded_sequence"] == sum(lens)
    assert sum(lens) < steps["our static engine: 2 buckets, 2 graphs"] < len(lens) * max(lens)
    assert set(costs.times) == set(steps) | {"nothing"}
    assert "cell steps run" in repr(costs.table())
    assert costs.label("nothing") == "nothing"
    assert costs.said["our static engine: 2 buckets, 2 graphs"].values == {"n": 2}
    ranking = costs.ranking()
    assert ranking.msgid is sq.RANKING and {ranking.values["fastest"], ranking.values["slowest"]} <= {
        costs.label(k) + (f" ({steps[k]:,} cell steps)" if k in steps else "") for k in costs.times}
