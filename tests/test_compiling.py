"""course_lib.lessons.compiling: the workloads, the counts every experiment reports, break-even arithmetic, the table.

Timings are never asserted (they vary); the counts that notebook 05 asserts next to them are.
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # before any TensorFlow import (importorskip below)

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import static as st
from course_lib.i18n import message_of
from course_lib.lessons import compiling as cc
from course_lib.lessons.compiling import payoff, tables, torch_compile, verdicts
from course_lib.lessons.compiling import tf1 as tf1_session
from course_lib.measure import Measurement


@pytest.mark.parametrize("n", [1, 2, 7, 40])
def test_chain_is_the_same_computation_in_numpy_and_both_engines(n: int) -> None:
    want = float(cc.chain(np, cc.X, cc.W, cc.C, n))
    assert float(cc.chain(dy, dy.Tensor(cc.X), dy.Tensor(cc.W), dy.Tensor(cc.C), n).data) == pytest.approx(want)
    assert cc.StaticChain(n).run() == pytest.approx(want)


def test_chain_has_exactly_n_ops_and_cycles_through_four_kinds() -> None:
    sc = cc.StaticChain(10)
    ops = [node.op for node in sc.graph.nodes if node.kind == "op"]
    assert ops == ["sin", "mul", "add", "tanh"] * 2 + ["sin", "mul"]
    assert len(sc.graph) == 10 + 3  # x, c, w
    assert sorted({node.scope for node in sc.graph.nodes if node.scope}) == ["ops 1-8", "ops 9-10"]


def test_static_chain_compiles_once_and_again_after_each_edit() -> None:
    sc = cc.StaticChain(5)
    for _ in range(50):
        sc.run()
    assert sc.session.compile_count == 1
    sc.add_node()
    sc.run()
    assert sc.session.compile_count == 2
    assert len(sc.graph) == 5 + 3 + 1
    for _ in range(10):
        sc.run()
    assert sc.session.compile_count == 2


def test_static_chain_edit_continues_the_cycle() -> None:
    sc = cc.StaticChain(5)
    y = sc.run()
    sc.add_node()  # k = 5 -> "· w"
    assert sc.run() == pytest.approx(y * cc.W)
    sc.add_node()  # k = 6 -> "+ c"
    assert sc.run() == pytest.approx(y * cc.W + cc.C)
    assert [n.scope for n in sc.graph.nodes[-2:]] == ["added", "added"]


def test_engine_costs_counts_are_exact() -> None:
    costs = cc.engine_costs(n=12, repeat=2)
    assert costs.compiles_after_runs == 1
    assert costs.edits == 1 + 2 * 10  # measure's warm-up + repeat × number
    assert costs.compiles_after_edits == 1 + costs.edits
    assert costs.dynamic_nodes_per_run == 12 + 3
    assert costs.plan_source.splitlines()[0] == "def plan(x_0, c_1):"
    assert costs.plan_report == {"graph_nodes": 15, "needed": 15, "folded": 0, "merged": 0, "steps": 15, "scalar": 1}
    assert "break-even" in repr(costs.table())


def test_break_even_arithmetic() -> None:
    assert cc.break_even(2e-3, 10e-6, 50e-6) == 50
    assert cc.break_even(2e-3 + 1e-9, 10e-6, 50e-6) == 51
    assert cc.break_even(0.0, 1.0, 2.0) == 1
    assert cc.break_even(1.0, 2.0, 2.0) is None
    assert cc.break_even(1.0, 3.0, 2.0) is None
    for c, s, e in [(0.3, 1e-4, 5e-3), (1e-3, 2e-5, 3e-5)]:
        n = cc.break_even(c, s, e)
        assert c + n * s <= n * e < c + (n - 1) * s + e  # n pays, n - 1 does not


def test_break_even_result_points_and_table() -> None:
    be = cc.BreakEven({"small": 2, "large": 200},
                      {"small": {"tf.function": (0.01, 2e-4), "TF eager": (2e-5, 2e-5),
                                 "our static engine": (3e-5, 5e-6), "our dynamic engine": (1e-5, 1e-5)},
                       "large": {"tf.function": (0.2, 2e-4), "TF eager": (8e-3, 8e-3),
                                 "our static engine": (3e-3, 2e-4), "our dynamic engine": (3e-4, 3e-4)}},
                      {})
    assert be.point("small", "tf.function", "TF eager") is None
    assert be.point("large", "tf.function", "TF eager") == cc.break_even(0.2 - 2e-4, 2e-4, 8e-3)
    text = repr(be.table())
    assert "never" in text and "runs" in text
    said = be.sentences()  # small, large graph; tf.function pair first: only it never pays, on the small graph
    assert [s.msgid for s in said] == [payoff.NEVER_PAYS] + [payoff.PAYS_AFTER] * 3
    assert said[3].values["runs"] == tables.runs_count(be.point("large", "our static engine", "our dynamic engine"))


def test_table_text_and_html() -> None:
    t = cc.Table(["a", "b"], [("x <y>", "1 µs")], caption="stamp")
    assert repr(t).splitlines() == ["a      b", "x <y>  1 µs", "stamp"]
    assert "x &lt;y&gt;" in t._repr_html_()
    assert cc.then_and_now().rows == []


def test_progress_is_silent_outside_jupyter() -> None:
    with cc.Progress(2, "x") as bar:
        bar.tick("a")
        bar.tick()
    assert bar.done == 2 and bar._bar is None


def test_tf_function_traces_once_then_once_per_new_shape() -> None:
    pytest.importorskip("tensorflow")
    r = cc.tf_function_costs(repeat=2)
    assert list(r.traces.values()) == [1, 1, 3]
    assert r.graph_ops > 0


def test_tf1_graph_grows_by_one_op_per_edit() -> None:
    pytest.importorskip("tensorflow")
    r = cc.tf1_costs(n=20, repeat=2, number=3)
    assert r.ops_before == 20 + 3
    # two measurements add nodes (extend only, extend + new fetch): each warm-up call and 2 × 3 timed calls
    assert r.ops_after - r.ops_before == r.edits == 2 * (1 + 2 * 3)
    assert r.new_fetches == 2 * 3 + 1  # repeat × number + warm-up
    assert {m.number for m in (r.extend_only_s, r.new_fetch_s, r.extend_and_new_fetch_s)} == {3}
    rows = repr(r.table())
    assert all(label in rows for label in cc.LABELS.values())


def test_tf1_costs_on_a_small_graph_have_enough_new_requests() -> None:
    pytest.importorskip("tensorflow")
    r = cc.tf1_costs(n=2, repeat=5, number=4)  # 21 requests never run before, from a graph of 2 ops
    assert r.new_fetches == 21
    with pytest.raises(ValueError) as info:
        cc.tf1_costs(n=1)
    assert message_of(info.value).msgid is tf1_session.TOO_SHORT and message_of(info.value).values == {"n": 1}


def test_torch_compile_captures_once_then_once_more_for_a_dynamic_shape() -> None:
    pytest.importorskip("torch")
    r = cc.torch_compile_costs(repeat=2)
    assert r.backend == "eager" and r.fallback_reason is None
    assert list(r.graphs.values()) == [1, 1, 2, 2]
    assert r.fx_nodes == 4  # x, sin, mul, output


def test_per_op_facts() -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("torch")
    r = cc.per_op_costs(repeat=2)
    assert r["facts"] == {
        "tensorflow executes eagerly": True,
        "TF eager result already has its value": True,
        "torch result records no graph without requires_grad": True,
        "autograd nodes behind torch.sin(x) with requires_grad": 2,
        "nodes our dynamic engine records for sin(x)": 2,
    }
    table = cc.then_and_now(per_op=r)
    assert [row[0] for row in table.rows][:2] == ["numpy: one op", "PyTorch eager: one op"]


def test_break_even_experiment_traces_each_function_once() -> None:
    pytest.importorskip("tensorflow")
    r = cc.break_even_experiment(small=2, large=12, repeat=2)
    assert set(r.traces.values()) == {1}
    assert set(r.pairs) == {"small", "large"}
    assert cc.plot_break_even(r).axes[0].get_xscale() == "log"


def test_static_engine_is_define_then_run() -> None:
    sc = cc.StaticChain(3)
    with pytest.raises(st.SymbolicBoolError):
        bool(sc.y)


def test_then_and_now_verdicts_follow_the_2017_figures() -> None:
    m = lambda s: Measurement(s, s, s, 1, 1)
    table = cc.then_and_now(per_op={"numpy": m(0.5e-6), "PyTorch eager": m(4e-6), "TensorFlow eager": m(30e-6)})
    assert [row[-1].msgid for row in table.rows] == [verdicts.OP_HOLDS, verdicts.OP_SAME_ORDER]  # TF eager: no row
    assert table.rows[0][-1] == "holds: about 1 µs"  # the English text, end to end
    assert verdicts.op_verdict(30e-6).msgid is verdicts.OP_NO
    assert verdicts.change_verdict(50e-6).msgid is verdicts.CHANGE_CHEAPER
    assert verdicts.change_verdict(250e-6).msgid is verdicts.CHANGE_HOLDS
    assert verdicts.change_verdict(3e-3).msgid is verdicts.CHANGE_LARGER
    assert table.header[-1] == "this run says" and all(len(row) == 5 for row in table.rows)


def test_only_the_extension_is_set_against_the_2017_figure() -> None:
    m = lambda s: Measurement(s, s, s, 1, 1)
    tf1 = cc.TF1Costs(100, m(3e-4), m(2.6e-3), m(25e-3), m(32e-3), 103, 110, 7, 5)
    rows = cc.then_and_now(tf1=tf1).rows
    against_200 = [r for r in rows if r[1] == "perhaps 200 µs"]
    assert [r[0] for r in against_200] == ["TF1, 100 ops: extend only (old fetch)"]
    assert against_200[0][2:4] == ("2.6 ms", "13× the 2017 figure")


def test_abandoned_captures_are_not_counted() -> None:
    """A capture Dynamo restarts (inductor, cold cache) leaves an emptied graph in the counting backend's list."""

    class FakeGraph:
        def __init__(self, n: int) -> None:
            self.graph = type("G", (), {"nodes": list(range(n))})()

    capture = type("Capture", (), {"graphs": [FakeGraph(0), FakeGraph(4), FakeGraph(5)]})()
    assert [len(g.graph.nodes) for g in torch_compile.kept_graphs(capture)] == [4, 5]


def test_one_op_of_a_tf1_run_is_read_on_the_largest_graph_only() -> None:
    m = lambda s: Measurement(s, s, s, 1, 1)
    small = cc.TF1Costs(2, m(4e-4), m(1e-3), m(2e-3), m(9e-3), 5, 12, 7, 5)
    large = cc.TF1Costs(100, m(3e-4), m(2e-3), m(25e-3), m(32e-3), 103, 110, 7, 5)
    rows = cc.then_and_now([small, large]).rows
    assert [r[0] for r in rows] == ["TF1, 2 ops: extend only (old fetch)", "TF1, 100 ops: extend only (old fetch)",
                                    "TF1, 100 ops: run an op in a previously defined graph"]
    assert rows[-1][2] == "3 µs"  # the steady run of 300 µs shared by 100 ops
