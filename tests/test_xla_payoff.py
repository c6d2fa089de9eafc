"""XLA paying off (notebook 08, section 6): what the notebook asserts are counts, so these tests check the counts
(the kernels plain tf.function really ran, XLA's fusions) and the logic that turns medians into sentences; no timing
threshold anywhere (speed is for benchmarks/xla_chain.py)."""

from __future__ import annotations

import pytest

from course_lib.lessons import xla_payoff as xp
from course_lib.lessons.compiling import tables
from course_lib.measure import Measurement


def m(median: float, low: float, high: float) -> Measurement:
    return Measurement(median, low, high, 5, 10)


@pytest.mark.parametrize("first_a, steady_a, first_b, steady_b", [
    (0.1, 0.001, 0.01, 0.002), (2.0, 0.5, 1.0, 1.0), (1.0, 0.5, 1.0, 0.6), (5.0, 0.1, 0.2, 0.3)])
def test_break_even_is_the_first_call_count_where_a_costs_no_more(first_a, steady_a, first_b, steady_b) -> None:
    n = xp.break_even_calls(first_a, steady_a, first_b, steady_b)

    def total(first: float, steady: float, calls: int) -> float:
        return first + (calls - 1) * steady

    assert total(first_a, steady_a, n) <= total(first_b, steady_b, n) + 1e-12
    if n > 1:
        assert total(first_a, steady_a, n - 1) > total(first_b, steady_b, n - 1)


def test_no_break_even_when_the_steady_call_is_not_cheaper() -> None:
    assert xp.break_even_calls(0.1, 0.002, 0.01, 0.002) is None
    assert xp.break_even_calls(0.1, 0.003, 0.01, 0.002) is None


def test_compare_says_which_is_larger_and_whether_the_spreads_overlap() -> None:
    apart = xp.compare("A", m(1e-3, 0.9e-3, 1.1e-3), "B", m(3e-3, 2.8e-3, 3.3e-3))
    assert apart.msgid is tables.COST_LESS and (apart.values["a"], apart.values["b"]) == ("A", "B")
    assert apart.values["spreads"] == tables.SPREADS[False] and apart.values["ratio"] == "0.33"
    close = xp.compare("A", m(3.1e-3, 2.9e-3, 3.3e-3), "B", m(3e-3, 2.8e-3, 3.2e-3))
    assert close.msgid is tables.COST_MORE and close.values["spreads"] == tables.SPREADS[True]
    assert "A cost more than B" in close and "can change from run to run" in close  # the English, end to end
    assert xp.compare("A", m(2e-3, 1e-3, 3e-3), "B", m(2e-3, 1e-3, 3e-3)).msgid is tables.COST_SAME


def test_xla_kernels_counts_a_fusion_once_and_skips_plumbing() -> None:
    hlo = """HloModule m
%fused (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %e = f32[4]{0} exponential(%p)
  ROOT %t = f32[4]{0} tanh(%e)
}
ENTRY %main (a: f32[4], b: f32[4,4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4,4]{1,0} parameter(1)
  %d = f32[4]{0} dot(%b, %a), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %c = f32[4]{0} bitcast(%d)
  ROOT %f = f32[4]{0} fusion(%c), kind=kLoop, calls=%fused
}"""
    assert xp.xla_kernels(hlo) == 2  # dot + fusion; the fused body's exponential and tanh are not entry kernels


def test_fused_ops_counts_what_computes_inside_the_fusions() -> None:
    hlo = """HloModule m
%fused (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %c = f32[] constant(0.99)
  %b = f32[4]{0} broadcast(%c), dimensions={}
  %m = f32[4]{0} multiply(%p, %b)
  ROOT %a = f32[4]{0} add(%m, %b)
}
ENTRY %main (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  ROOT %f = f32[4]{0} fusion(%a), kind=kLoop, calls=%fused
}"""
    assert (xp.xla_kernels(hlo), xp.fused_ops(hlo)) == (1, 2)  # one kernel; a multiply and an add inside it


def test_the_chain_alternates_a_multiply_and_an_add() -> None:
    import numpy as np

    x = np.float32(2.0)
    assert xp.chain(x, ops=3) == ((x * np.float32(0.99)) + np.float32(0.01)) * np.float32(0.99)


def test_plain_tf_function_runs_one_kernel_per_op_and_xla_one_fusion() -> None:
    tf = pytest.importorskip("tensorflow")
    from course_lib.adapters.quiet import captured

    def chained(x):
        return xp.chain(x, 6)

    x = tf.ones((64, 64))
    assert xp.runtime_kernels(chained, x) == ["Mul", "AddV2"] * 3  # what the executor ran, after Grappler
    assert xp.kernel_counts(chained, x) == (6, 1)
    with captured("tensorflow"):
        hlo = tf.function(chained, jit_compile=True).experimental_get_compiler_ir(x)(stage="optimized_hlo")
    assert xp.fused_ops(hlo) == 6  # the six ops are all inside XLA's one fusion


def test_the_runtime_count_sees_a_matrix_product_between_two_chains() -> None:
    tf = pytest.importorskip("tensorflow")
    w = tf.ones((32, 32))

    def mixed(x):
        return xp.chain(tf.matmul(xp.chain(x, 2), w), 2)

    assert sorted(xp.runtime_kernels(mixed, tf.ones((32, 32)))) == ["AddV2", "AddV2", "MatMul", "Mul", "Mul"]
    assert xp.kernel_counts(mixed, tf.ones((32, 32))) == (5, 3)  # XLA: fusion, dot, fusion


def test_run_traces_once_agrees_with_eager_counts_kernels_and_speaks_of_this_run() -> None:
    pytest.importorskip("tensorflow")
    payoff = xp.run(shape=(64, 32), ops=4, repeat=2, budget=0.02)
    assert list(payoff.ways) == [xp.EAGER, xp.TF_FUNCTION, xp.XLA]
    assert [w.traces for w in payoff.ways.values()] == [None, 1, 1]
    assert set(payoff.max_diff) == {xp.TF_FUNCTION, xp.XLA}
    assert all(d <= payoff.tolerance for d in payoff.max_diff.values())
    assert (payoff.graph_ops, payoff.kernels, payoff.fused) == (4, 1, 4)
    counts = payoff.counts().splitlines()
    assert counts[2].startswith("plain tf.function ran 4 kernels") and "an array of 0.00781 MB" in counts[2]
    assert counts[3] == "XLA's optimized program runs 1 kernel (a fusion counted once), with 4 ops inside its fusions"
    assert counts[4] == "inductor: not run (USE_INDUCTOR = False)"
    sentences = payoff.sentences()
    assert len(sentences) == 5 and all(s.startswith("On this run") for s in sentences)
    assert all(s.msgid in (tables.COST_MORE, tables.COST_LESS, tables.COST_SAME) for s in sentences[:3])
    assert all(s.msgid in (xp.CAUGHT_UP, xp.AHEAD_FROM_THE_START, xp.NEVER_CAUGHT_UP) for s in sentences[3:])
    table = payoff.table()
    assert table.startswith("A chain of 4 elementwise ops on a float32 matrix of 64 × 32 (0.00781 MB)")
    assert all(f"| {name} |" in table for name in payoff.ways)


def _payoff(xla_first: float, xla_steady: float) -> xp.XlaPayoff:
    ways = {xp.EAGER: xp.Way(xp.EAGER, m(0.05, 0.04, 0.06), m(0.05, 0.04, 0.06)),
            xp.TF_FUNCTION: xp.Way(xp.TF_FUNCTION, m(0.1, 0.09, 0.11), m(0.02, 0.018, 0.022), 1),
            xp.XLA: xp.Way(xp.XLA, m(xla_first, xla_first, xla_first), m(xla_steady, xla_steady, xla_steady), 1)}
    return xp.XlaPayoff(xp.SHAPE, ways, {}, 1e-4, 30, 1, "", stamp={"cpus": "2"}, fused=30)


def test_a_break_even_sentence_for_each_outcome() -> None:
    ahead, caught_up, never = _payoff(0.08, 0.004), _payoff(0.15, 0.004), _payoff(0.08, 0.03)
    assert ahead.sentences()[3].msgid is xp.AHEAD_FROM_THE_START and "its first call cost 20 ms less" in \
        ahead.sentences()[3]
    assert caught_up.sentences()[3].msgid is xp.CAUGHT_UP and "after 5 calls" in caught_up.sentences()[3]
    assert never.sentences()[3].msgid is xp.NEVER_CAUGHT_UP
    assert caught_up.sentences()[4].msgid is xp.CAUGHT_UP and "after 4 calls" in caught_up.sentences()[4]
    assert caught_up.table().startswith("A chain of 30 elementwise ops on a float32 matrix of 2,048 × 2,048 (16 MB)")


def test_inductor_is_skipped_with_a_reason_when_no_cxx_compiler(monkeypatch) -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("torch")
    import course_lib.adapters.torch as torch_adapter

    monkeypatch.setattr(torch_adapter, "cxx_compiler", lambda: None)
    payoff = xp.run(inductor=True, shape=(16, 8), ops=2, repeat=1, budget=0.01)
    assert payoff.inductor.msgid is xp.NO_COMPILER
    assert xp.INDUCTOR not in payoff.ways


def test_08_6_is_decided_by_xla() -> None:
    pytest.importorskip("tensorflow")
    from course_lib.lessons import exercises_08

    plain, kernels = exercises_08.mixed_counts()
    assert (plain, kernels) == (xp.OPS + 1, 3)  # each op and the product a kernel; XLA: fusion, dot, fusion
    truth = exercises_08.xla_verdict()
    assert truth == "c"  # the letter the course assigns to this item, as the live run decides it
    ex = exercises_08.xla_kernels_choice()
    assert ex.check(truth).ok
    for k in set(exercises_08.XLA_CHOICES) - {truth}:
        result = ex.check(k)
        assert result.ok is False and result.message.startswith(f"{k}: ")
