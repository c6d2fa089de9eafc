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


def test_static_chain_names_its_scopes_in_the_language_of_the_moment() -> None:
    from course_lib.i18n import set_language

    set_language("fr")
    try:
        sc = cc.StaticChain(10)
        sc.add_node()
    finally:
        set_language("en")
    assert sorted({node.scope for node in sc.graph.nodes if node.scope}) == ["ajoutés", "opérations 1-8",
                                                                             "opérations 9-10"]
    assert sc.graph.name == "chaîne de 10 opérations"


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


def test_tf1_costs_count_the_executors_the_session_builds() -> None:
    pytest.importorskip("tensorflow")
    r = cc.tf1_costs(n=20, repeat=2, number=3)
    calls = 1 + 2 * 3  # warm-up + repeat × number: each call one edit or one new request
    assert r.executors["steady"][0] == 0 and r.executors["extension"] == (0, calls)  # old requests: reused
    assert r.executors["new_fetch"] == r.executors["both"] == (calls, calls)  # one executor per run
    assert r.fetched_ops == 20 + 1  # a new fetch needs the chain and its own op, no more
    # x, c, w, the chain, s and the never-fetched nodes; then one node per extension and per extend + new fetch
    assert r.nodes == (3 + 20 + 1 + calls, 3 + 20 + 1 + calls + 2 * calls)
    assert r.extension_s == r.extend_s.median - r.one_op_s.median
    row = r.cells()
    assert row[0] == "chain of 20 ops" and len(row) == 1 + len(cc.tf1.COLUMNS)
    assert r.counts().startswith("chain of 20 ops (graph of 31 → 45 nodes): executors built by steady runs 0 in 120 "
                                 "runs, by extensions 0 in 7 runs")  # 2 × (20 warm-up calls + 2 rounds of 20)
    assert r.counts().endswith("by new fetches of 21 ops 7 in 7 runs, by extend + new fetch 7 in 7 runs")


def test_a_fed_fetch_is_dropped_before_the_runtime_sees_the_request() -> None:
    """session.py keeps only the fetches that are not fed: [y, x] with x fed is y's old request, no executor."""
    tf = pytest.importorskip("tensorflow")
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float64, shape=())
        y, z = tf.sin(x), tf.cos(x)
        sess = tf.compat.v1.Session(graph=g)
    requests = tf1_session.Requests(sess)
    assert requests.during(lambda: sess.run(y, {x: 1.0}))[1] == (1, 1)
    assert requests.during(lambda: sess.run([y, x], {x: 1.0}))[1] == (0, 1)  # x is fed: y's request again
    assert requests.during(lambda: sess.run([z, y], {x: 1.0}))[1] == (1, 1)  # a node never fetched: new
    assert requests.during(lambda: sess.run([y, z], {x: 1.0}))[1] == (0, 1)  # the same request, sorted
    sess.close()


def test_tf1_sweep_slope_table_and_sentences() -> None:
    pytest.importorskip("tensorflow")
    sweep = cc.tf1_sweep(sizes=(30, 4), full=(4,), repeat=2, number=1)
    assert [c.n for c in sweep.costs] == [4, 30]  # smallest first
    assert sweep.costs[1].new_fetch_s is None and "new_fetch" not in sweep.costs[1].executors
    table = sweep.table()
    assert table.rows[1][3:] == ("—", "—") and table.header[0] == "TF1 Session: median (spread)"
    assert cc.tf1_steps((30, 4), (4,)) == 2 + 1 + 2 + 2 + 1  # graphs; steady; extensions; 2 per full size; end
    assert sweep.per_op_sentence().msgid is tf1_session.PER_OP
    assert sweep.growth_sentence().values["size"] == "8"  # 30 / 4, as a whole number of times
    with pytest.raises(ValueError) as info:
        cc.tf1_costs(n=1)
    assert message_of(info.value).msgid is tf1_session.TOO_SHORT and message_of(info.value).values == {"n": 1}


def flat(s: float) -> Measurement:
    """A measurement of ``s`` seconds with no spread (median and both quartiles ``s``)."""
    return Measurement(s, s, s, 1, 1)


def test_the_per_op_cost_is_a_slope_not_a_division() -> None:
    sizes, fixed, per_op = (10, 300, 1000, 3000), 190e-6, 0.3e-6
    costs = [cc.TF1Costs(n, flat(fixed + per_op * n), flat(1e-4), flat(5e-4), None, None, (n, n), {})
             for n in sizes]
    slope, intercept = cc.TF1Sweep(costs).per_op()
    assert slope == pytest.approx(per_op) and intercept == pytest.approx(fixed)
    assert costs[0].steady_s.median / 10 > 60 * per_op  # what a run divided by its ops would have said
    assert tf1_session.line([1, 2, 3], [2.0, 4.0, 6.0]) == (2.0, 0.0)


def test_edits_batched_pays_one_extension_per_run_after_a_change() -> None:
    pytest.importorskip("tensorflow")
    batched, one_by_one = tf1_session.edits_batched(n=50, edits=20)
    assert batched > 0 and one_by_one > 0  # timings: never asserted beyond being measured


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
    assert table.rows[0][1] == "as low as 1 usec"  # Answer 1's words, verbatim


def test_break_even_experiment_traces_each_function_once() -> None:
    pytest.importorskip("tensorflow")
    r = cc.break_even_experiment(small=2, large=12, repeat=2)
    assert set(r.traces.values()) == {1}
    assert set(r.pairs) == {"small", "large"}
    assert cc.plot_break_even(r).axes[0].get_xscale() == "log"


def test_break_even_reuses_the_tf_function_timings_it_is_given() -> None:
    """The small graph's tf.function pair is section 6's measurement, not timed a second time nor shown twice."""
    pytest.importorskip("tensorflow")
    tf_fn = cc.TFFunctionCosts(flat(9e-3), flat(3e-4), flat(6e-3), flat(6e-5), {}, 5)
    r = cc.break_even_experiment(small=2, large=12, repeat=2, tf_small=tf_fn)
    assert r.pairs["small"]["tf.function"] == (9e-3, 3e-4) and r.pairs["small"]["TF eager"] == (6e-5, 6e-5)
    assert "tf.function, small graph" not in r.traces and "tf.function, large graph" in r.traces
    assert r.table().rows[0][1] == "as in §6"
    never = r.sentences()[0]
    assert never.msgid is payoff.NEVER_PAYS and never.values["ratio"] == "5"  # 300 µs / 60 µs, no median repeated
    assert len(tf_fn.table().rows) == 3  # first call, steady call, retrace: the eager time is shown in §8 only


def test_static_engine_is_define_then_run() -> None:
    sc = cc.StaticChain(3)
    with pytest.raises(st.SymbolicBoolError):
        bool(sc.y)


def sweep(*sizes: int) -> cc.TF1Sweep:
    """Costs at these sizes: steady run 190 µs + 0.3 µs per op, extension alone 0.27 ms + 3.8 µs per op."""
    return cc.TF1Sweep([cc.TF1Costs(n, flat(190e-6 + 0.3e-6 * n), flat(190e-6), flat(460e-6 + 3.8e-6 * n), None,
                                    None, (n, n), {}) for n in sizes])


def test_then_and_now_verdicts_follow_the_2017_figures() -> None:
    table = cc.then_and_now(per_op={"numpy": flat(0.5e-6), "PyTorch eager": flat(4e-6),
                                    "TensorFlow eager": flat(30e-6)})
    assert [row[-1].msgid for row in table.rows] == [verdicts.OP_HOLDS, verdicts.OP_SAME_ORDER]  # TF eager: no row
    assert table.rows[0][-1] == "holds: about 1 µs"  # the English text, end to end
    assert verdicts.op_verdict(30e-6).msgid is verdicts.OP_NO
    assert verdicts.op_verdict(0.2e-6).msgid is verdicts.OP_CHEAPER  # a steady TF1 run's slope, lower than 2017
    assert verdicts.change_verdict(50e-6).msgid is verdicts.CHANGE_CHEAPER
    assert verdicts.change_verdict(250e-6).msgid is verdicts.CHANGE_HOLDS
    assert verdicts.change_verdict(1e-3).msgid is verdicts.CHANGE_SAME_ORDER
    assert verdicts.change_verdict(3e-3).msgid is verdicts.CHANGE_LARGER
    assert table.header == ["what", "Answer 1 (2017)", "today vs 2017", "this run says"]
    assert all(len(row) == 4 for row in table.rows)


def test_only_the_extension_alone_is_set_against_the_2017_figure() -> None:
    rows = cc.then_and_now(tf1=sweep(10, 3000)).rows
    against_200 = [r for r in rows if r[1] == "perhaps 200usec"]
    assert [r[0] for r in against_200] == ["TF1, chain of 10 ops: the extension alone",
                                           "TF1, chain of 3,000 ops: the extension alone"]
    assert against_200[0][2:] == ("1.5× the 2017 figure", "holds: about 200 µs")  # 0.308 ms, the run taken out
    assert against_200[1][3].msgid is verdicts.CHANGE_LARGER


def test_one_op_of_a_tf1_run_is_the_slope_over_the_sizes() -> None:
    rows = cc.then_and_now(sweep(10, 300, 1000, 3000)).rows
    assert rows[-1][0] == "TF1: one more op in a steady run (slope)"
    assert rows[-1][1:] == ("as low as 1 usec", "3.3× below the 2017 figure", "holds, and lower still: under 0.5 µs")
    # 0.3 µs per op: the slope, not 19.3 µs = a run of 10 ops divided by 10
    assert cc.then_and_now(sweep(10)).rows[-1][0].startswith("TF1, chain of 10 ops")  # one size: no slope
    noisy = sweep(10, 3000)
    noisy.costs[0].steady_s = noisy.costs[1].steady_s  # a busy machine: the runs did not grow with the ops
    assert cc.then_and_now(noisy).rows[-1][2:] == ("—", "not measured: the steady runs did not grow with the ops")


def test_abandoned_captures_are_not_counted() -> None:
    """A capture Dynamo restarts (inductor, cold cache) leaves an emptied graph in the counting backend's list."""

    class FakeGraph:
        def __init__(self, n: int) -> None:
            self.graph = type("G", (), {"nodes": list(range(n))})()

    capture = type("Capture", (), {"graphs": [FakeGraph(0), FakeGraph(4), FakeGraph(5)]})()
    assert [len(g.graph.nodes) for g in torch_compile.kept_graphs(capture)] == [4, 5]
