"""Execution traces of both styles: events in order, the state at every step, the final picture, the gradients."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib import expr, programs, trace
from course_lib.graph import Graph
from course_lib.i18n import message_of

PHASE_ORDER = ("build", "run", "backward")


def test_define_then_run_trace_builds_everything_before_any_value():
    t = trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0})
    phases = [e.phase for e in t.events]
    first_run = phases.index("run")
    assert set(phases[:first_run]) == {"build"} and "build" not in phases[first_run:]
    assert all(e.value is None for e in t.events[:first_run])
    # right after the build phase: every node exists, none has a value
    assert {s.status for s in t.state(first_run).values()} <= {"defined", "running"}
    assert {s.status for s in t.state(0).values()} == {"hidden"}
    final = t.state(len(t))
    out = t.graph.outputs[0].id
    assert float(final[out].value) == pytest.approx(np.sin(7.0))
    assert any(e.phase == "backward" for e in t.events)  # gradient nodes ran
    assert t.events[2].line == 3 and "h = x * w" in t.source[2]


def test_define_by_run_trace_gives_each_node_its_value_when_it_appears():
    t = trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})
    runs = [e for e in t.events if e.kind == "run"]
    assert all(e.value is not None for e in runs)
    for k, e in enumerate(t.events, start=1):
        if e.kind == "run":
            s = t.state(k)[e.node_id]
            assert s.status == "running" and s.value is not None
    ops = [e for e in runs if "= sin(" in e.text]
    assert ops and "y = ops.sin(z)" in t.source[ops[0].line - 1]
    back = [e for e in t.events if e.kind == "backward"]
    grads = {t.graph.nodes[e.node_id].name: float(e.value) for e in back}
    assert grads["x"] == pytest.approx(2 * np.cos(7.0)) and grads["w"] == pytest.approx(3 * np.cos(7.0))


def test_traces_of_a_branch_differ_per_input_only_in_define_by_run():
    sizes = {style: {len(trace.record(programs.branch_with_cond, style, {"x": v}).graph) for v in (1.5, -1.5)}
             for style in trace.STYLES}
    assert len(sizes["define-then-run"]) == 1 and len(sizes["define-by-run"]) == 2


def test_trace_errors():
    with pytest.raises(ValueError) as info:
        trace.record(programs.affine_sin, "lazy", {"x": 1.0, "w": 1.0})
    assert message_of(info.value).msgid is trace.UNKNOWN_STYLE and message_of(info.value).values["style"] == "lazy"
    with pytest.raises(ValueError) as info:
        trace.record(programs.affine_sin, "define-by-run", {"x": 1.0})
    assert message_of(info.value).msgid is trace.NO_VALUE_GIVEN
    assert message_of(info.value).values == {"missing": "w", "example": "inputs={x, w...}"}
    t = trace.record(programs.affine_sin, "define-by-run", {"x": 1.0, "w": 1.0})
    with pytest.raises(IndexError) as info:
        t.state(len(t) + 1)
    assert message_of(info.value).msgid is trace.STEP_OUTSIDE
    assert message_of(info.value).values == {"step": len(t) + 1, "last": len(t)}


def test_trace_of_a_typed_expression():
    t = trace.record(expr.parse("tanh(a * b)"), "define-then-run", {"a": 0.5, "b": -1.0})
    assert t.source[-1].strip() == "return tanh(a * b)"
    assert float(t.state(len(t))[t.graph.outputs[0].id].value) == pytest.approx(np.tanh(-0.5))


def test_static_trace_runs_only_the_taken_branch_constants_included():
    for x, ran, idle in ((1.5, "cond/then/", "cond/else/"), (-1.5, "cond/else/", "cond/then/")):
        t = trace.record(programs.branch_with_cond, "define-then-run", {"x": x}, backward=False)
        names = [t.graph.nodes[e.node_id].name for e in t.events if e.kind == "run"]
        assert any(n.startswith(ran) for n in names)
        assert not any(n.startswith(idle) for n in names), names  # not even the constant of the other branch
        assert len(names) == len(set(names))  # each node runs once


def test_trace_state_matches_a_step_by_step_replay():
    t = trace.record(programs.branch_with_cond, "define-then-run", {"x": 0.7})
    replay = {n.id: ("hidden", None, None) for n in t.graph.nodes}
    for k, e in enumerate(t.events, start=1):
        status, value, grad = replay[e.node_id]
        if e.kind == "define":
            replay[e.node_id] = ("defined", value, grad)
        elif e.kind == "run":
            replay[e.node_id] = ("done", e.value, grad)
        got = t.state(k)
        for nid, (status, value, _grad) in replay.items():
            want = "running" if nid == e.node_id else status
            assert got[nid].status == want and (value is None) == (got[nid].value is None)


@pytest.mark.parametrize("style", trace.STYLES)
def test_final_state_is_the_last_step_with_nothing_running(style):
    t = trace.record(programs.branch_with_cond, style, {"x": 0.7})
    final, last = t.final_state(), t.state(len(t))
    assert "running" not in {s.status for s in final.values()}
    ran = {e.node_id for e in t.events if e.kind == "run"}
    seen = {e.node_id for e in t.events}
    for n in t.graph.nodes:
        want = "done" if n.id in ran else "defined" if n.id in seen else "hidden"
        assert final[n.id].status == want, n.name
        assert (final[n.id].value is None) == (last[n.id].value is None)


def test_final_state_of_a_static_branch_leaves_the_other_path_defined():
    t = trace.record(programs.branch_with_cond, "define-then-run", {"x": 1.5}, backward=False)
    final = t.final_state()
    statuses = {n.name: final[n.id].status for n in t.graph.nodes}
    assert {s for name, s in statuses.items() if name.startswith("cond/else/")} == {"defined"}
    assert {s for name, s in statuses.items() if name.startswith("cond/then/")} == {"done"}


@pytest.mark.parametrize("style", trace.STYLES)
def test_phases_come_in_order_and_start_before_the_first_event(style):
    t = trace.record(programs.affine_sin, style, {"x": 3.0, "w": 2.0})
    assert t.phase_at(0) == "start" and t.event_at(0) is None
    ranks = [PHASE_ORDER.index(t.phase_at(k)) for k in range(1, len(t) + 1)]
    assert ranks == sorted(ranks) and ranks[-1] == PHASE_ORDER.index("backward")
    assert ("build" in [t.phase_at(k) for k in range(1, len(t) + 1)]) == (style == "define-then-run")


def test_gradient_nodes_are_an_explicit_field_of_a_static_trace():
    t = trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0})
    names = {n.id: n.name for n in t.graph.nodes}
    assert sorted(names[i] for i in t.grad_nodes) == ["w", "x"]
    final = t.final_state()
    for grad_id in t.grad_nodes.values():
        node = next(n for n in t.graph.nodes if n.id == grad_id)
        assert node.gradient and final[grad_id].status == "done"
    by_name = {names[i]: float(final[g].value) for i, g in t.grad_nodes.items()}
    assert by_name == pytest.approx({"x": 2.0 * np.cos(7.0), "w": 3.0 * np.cos(7.0)})


def test_both_styles_give_the_same_value_and_gradients():
    got = {style: trace.record(programs.affine_sin, style, {"x": 3.0, "w": 2.0}) for style in trace.STYLES}
    assert got["define-by-run"].grad_nodes == {}  # its gradients arrive on the nodes themselves
    for t in got.values():
        assert float(t.output_value()) == pytest.approx(np.sin(7.0))
        grads = {k: float(v) for k, v in t.gradients().items()}
        assert grads == pytest.approx({"x": 2.0 * np.cos(7.0), "w": 3.0 * np.cos(7.0)})


@pytest.mark.parametrize("style", trace.STYLES)
def test_without_backward_there_are_no_gradients(style):
    t = trace.record(programs.affine_sin, style, {"x": 3.0, "w": 2.0}, backward=False)
    assert t.grad_nodes == {} and t.gradients() == {"x": None, "w": None}


def test_input_names_skip_the_ops_argument_and_star_arguments():
    def program(ops, a, *rest, b=1.0, **more):
        return a

    assert trace.input_names(program) == ["a", "b"]
    assert trace.input_names(expr.parse("tanh(q * p)")) == ["q", "p"]


def test_a_hand_made_trace_without_lines_or_events():
    empty = trace.Trace("define-by-run", Graph(), [], [])
    assert not empty.has_lines and empty.output is None and empty.output_value() is None
    assert empty.final_state() == {} and empty.gradients() == {}
    assert trace.record(programs.affine_sin, "define-by-run", {"x": 1.0, "w": 1.0}).has_lines
