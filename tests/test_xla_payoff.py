"""XLA paying off (notebook 08, section 6): what the notebook asserts are counts, so these tests check the counts
and the logic that turns medians into sentences; no timing threshold anywhere (speed is for benchmarks/)."""

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


def test_xla_runs_fewer_kernels_than_the_graph_has_ops_and_more_layers_more_kernels() -> None:
    pytest.importorskip("tensorflow")
    one, two = xp.kernel_counts(layers=1, hidden=16), xp.kernel_counts(layers=2, hidden=16)
    for ops, kernels in (one, two):
        assert 0 < kernels < ops
    assert two[0] > one[0] and two[1] > one[1]


def test_run_traces_once_agrees_with_eager_and_speaks_of_this_run() -> None:
    pytest.importorskip("tensorflow")
    payoff = xp.run(batch=32, features=8, hidden=16, layers=2, repeat=2, budget=0.02)
    assert list(payoff.ways) == [xp.EAGER, xp.TF_FUNCTION, xp.XLA]
    assert [w.traces for w in payoff.ways.values()] == [None, 1, 1]
    assert set(payoff.max_diff) == {xp.TF_FUNCTION, xp.XLA}
    assert all(d <= payoff.tolerance for d in payoff.max_diff.values())
    assert 0 < payoff.kernels < payoff.graph_ops
    assert "agree" in payoff.counts() and "not run (USE_INDUCTOR = False)" in payoff.counts()
    sentences = payoff.sentences()
    assert len(sentences) == 5 and all(s.startswith("On this run") for s in sentences)
    assert all(s.msgid in (tables.COST_MORE, tables.COST_LESS, tables.COST_SAME) for s in sentences[:3])
    assert all(s.msgid in (xp.CAUGHT_UP, xp.NEVER_CAUGHT_UP) for s in sentences[3:])
    table = payoff.table()
    assert all(f"| {name} |" in table for name in payoff.ways)


def test_inductor_is_skipped_with_a_reason_when_no_cxx_compiler(monkeypatch) -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("torch")
    import course_lib.adapters.torch as torch_adapter

    monkeypatch.setattr(torch_adapter, "cxx_compiler", lambda: None)
    payoff = xp.run(inductor=True, batch=16, features=4, hidden=8, layers=1, repeat=1, budget=0.01)
    assert payoff.inductor.msgid is xp.NO_COMPILER
    assert xp.INDUCTOR not in payoff.ways


def test_08_6_is_decided_by_xla() -> None:
    pytest.importorskip("tensorflow")
    from course_lib.lessons import exercises_08

    truth = exercises_08.xla_verdict()
    assert truth in exercises_08.XLA_CHOICES  # one of the options matches what XLA really does
    ex = exercises_08.xla_kernels_choice()
    assert ex.check(truth).ok
    for k in set(exercises_08.XLA_CHOICES) - {truth}:
        result = ex.check(k)
        assert result.ok is False and result.message.startswith(f"{k}: ")
