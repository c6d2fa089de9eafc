"""The renderer's one table of styles, its stable CourseDigraph, and gradient titles from a trace's grad_nodes."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace

import pytest

from course_lib import programs, render, trace
from course_lib.graph import Graph
from course_lib.render import theme as look


def _graph() -> Graph:
    g = Graph("styles")
    x = g.add("placeholder", name="x", kind="input")
    y = g.add("sin", [x])
    g.add("mul", [y, x], gradient=True)
    return g


@pytest.mark.parametrize("status", ["defined", "running", "done"])
@pytest.mark.parametrize("gradient", [False, True])
def test_dot_and_svg_take_a_box_style_from_the_one_table(monkeypatch, status, gradient):
    g = _graph()
    key = "n2" if gradient else "n1"
    row = list(look.NODE_STYLES[status][int(gradient)])
    row[1] = "cluster_fill"  # the stroke now reads another theme colour: both writers must follow
    rows = list(look.NODE_STYLES[status])
    rows[int(gradient)] = tuple(row)
    marked = render.get_theme().cluster_fill
    assert marked not in (render.get_theme().stroke, render.get_theme().gradient, render.get_theme().defined_stroke)
    before_dot, before_svg = render.to_dot(g, status), render.to_svg(g, status, legend=False)
    monkeypatch.setitem(look.NODE_STYLES, status, tuple(rows))
    dot_line = re.search(rf"^\s*{key} \[.*$", render.to_dot(g, status), re.MULTILINE).group(0)
    svg_box = re.search(rf'<g class="node {status}" data-id="{key}">.*?</g>', render.to_svg(g, status, legend=False))
    assert f'color="{marked}"' in dot_line and f'color="{marked}"' not in before_dot
    assert f'stroke="{marked}"' in svg_box.group(0) and f'stroke="{marked}"' not in before_svg


@pytest.mark.parametrize("head", ["defined", "running", "done"])
def test_dot_and_svg_take_an_edge_style_from_the_one_table(monkeypatch, head):
    g = _graph()
    state = {0: "done", 1: head, 2: "hidden"}
    _colour, dash, width, factor = look.EDGE_STYLES[head]
    monkeypatch.setitem(look.EDGE_STYLES, head, ("cluster_fill", dash, width, factor))
    marked = render.get_theme().cluster_fill
    assert re.search(rf'n0 -> n1 \[[^]]*color="{marked}"', render.to_dot(g, state))
    assert re.search(rf'<path d="M[^"]*" fill="none" stroke="{marked}"', render.to_svg(g, state, legend=False))


def test_course_digraph_is_one_class_before_and_after_the_first_drawing():
    code = (
        "import course_lib as cl\n"
        "from course_lib import render, dynamic as dy\n"
        "import sys\n"
        "assert 'graphviz' not in sys.modules  # importing the renderer does not import graphviz\n"
        "before = render.CourseDigraph\n"
        "d = cl.draw(dy.sin(dy.Tensor(1.0, requires_grad=True)))\n"
        "assert render.CourseDigraph is before and isinstance(d, before), (before, type(d))\n"
        "import graphviz; assert issubclass(before, graphviz.Digraph)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


def test_the_gradient_node_of_an_input_is_titled_from_the_trace_not_from_the_graph():
    tr = trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0})
    assert tr.grad_nodes and not any("grad_node" in n.attrs for n in tr.graph.nodes)
    titled = render.to_dot(tr.graph, grad_nodes=tr.grad_nodes)
    for x_id, g_id in tr.grad_nodes.items():
        name = tr.graph.nodes[x_id].name
        assert re.search(rf'n{g_id} \[[^]]*label="∂/∂{name}"', titled)
    assert "∂/∂" not in render.to_dot(tr.graph)  # without the mapping, no node claims to be a derivative
    frames = render.Frames(tr)
    assert all(f"∂/∂{tr.graph.nodes[x].name} = " in frames.svg(len(frames) - 1) for x in tr.grad_nodes)


# ------------------------------------------------------------------ compact labels (issue 26)
PROGRAMS = [(programs.affine_sin, {"x": 3.0, "w": 2.0}), (programs.branch_with_cond, {"x": -1.25})]


def _labels(svg: str) -> dict[str, list[str]]:
    """data-id -> the text lines of each drawn box."""
    return {m.group(1): re.findall(r"<text[^>]*>([^<]*)</text>", m.group(2))
            for m in re.finditer(r'<g class="node [a-z]+" data-id="([^"]+)">(.*?)</g>', svg)}


@pytest.mark.parametrize(("program", "inputs"), PROGRAMS)
@pytest.mark.parametrize("style", ["define-then-run", "define-by-run"])
def test_presenter_labels_are_one_line_and_a_gradient_only_once_it_exists(program, inputs, style):
    """Every step of both styles: one line per box, its value on it ("✓ mul = 6"); a second line only for a
    gradient already computed; nothing moves between steps (the room is reserved on one line)."""
    tr = trace.record(program, style, inputs)
    frames = render.Frames(tr, theme="presenter")
    first = render.node_boxes(frames.svg(len(tr)))
    seen_value = seen_grad = False
    for step in range(len(frames)):
        svg = frames.svg(step)
        assert {k: v for k, v in render.node_boxes(svg).items() if k in first} == \
            {k: first[k] for k in render.node_boxes(svg)}
        for key, text in _labels(svg).items():
            assert len(text) <= 2, (step, key, text)
            if len(text) == 2:
                assert text[1].startswith("grad = "), (step, key, text)
                seen_grad = True
            seen_value |= text[0].startswith("✓ ") and " = " in text[0]
    assert seen_value and (seen_grad or style == "define-then-run")


def test_the_compact_style_is_one_theme_field_and_turned_off_gives_the_stacked_labels():
    """Both themes draw compact labels (issue 26); turned off, the presenter draws the stacked labels it drew
    before (what the browser layout test must see fail)."""
    tr = trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})
    done = len(tr)
    assert render.get_theme("presenter").compact and render.get_theme("classroom").compact
    compact = _labels(render.Frames(tr, theme="presenter").svg(done))
    stacked = _labels(render.Frames(tr, theme=replace(render.get_theme("presenter"), compact=False)).svg(done))
    assert compact["n2"] == ["✓ mul = 6", "grad = 0.7539"]
    assert stacked["n2"] == ["✓ mul", "= 6", "grad = 0.7539"]


def test_a_compact_operation_is_a_stadium_in_the_drawing_the_dot_and_the_legend():
    g = _graph()
    presenter, stacked = render.get_theme("presenter"), replace(render.get_theme("classroom"), compact=False)
    svg = render.to_svg(g, "done", theme=presenter, legend=True)
    assert "<ellipse" not in svg and re.search(r'<rect [^>]*rx="[\d.]+"', svg)
    assert "<ellipse" in render.to_svg(g, "done", theme=stacked, legend=True)
    assert re.search(r'n1 \[[^\]]*shape="box"[^\]]*style="rounded,filled"', render.to_dot(g, "done", theme=presenter))


def test_a_compact_label_keeps_a_vector_on_a_line_of_its_own():
    """Joined to its title a vector made a tree of six words 1,450 pt wide; a number joins, a vector does not."""
    import numpy as np

    from course_lib.render.plan import Item, lines

    leaf = Item("n0", "input", "", (), "the₁", "")
    assert lines(leaf, "done", np.array([-0.949, -0.562, -0.766]), None, compact=True) == \
        ("✓ the₁", "= [-0.949, -0.562, -0.766]")
    assert lines(leaf, "done", np.float64(0.5), None, compact=True) == ("✓ the₁ = 0.5",)


def test_a_chain_of_operations_with_constants_is_drawn_straight():
    """Each op of x*0.5+1 repeated had its constant beside it and stood between the two: a staircase as wide as
    the chain was long (08's unrolled loop). The ops of the chain now share one column."""
    g = Graph("chain")
    x = g.add("placeholder", name="x", kind="input")
    for k in range(4):
        half = g.add("const", name=f"c{k}", kind="constant", value=0.5)
        one = g.add("const", name=f"d{k}", kind="constant", value=1.0)
        x = g.add("add", [g.add("mul", [x, half]), one])
    for theme in ("classroom", "presenter"):
        lay = render.Layout(g, theme=theme)
        xs = {round(lay.geometry.nodes[i.key][0]) for i in lay.plan.items if i.kind == "op"}
        assert len(xs) == 1, (theme, xs)


def test_a_compact_gradient_node_says_what_it_is_the_derivative_of():
    tr = trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0})
    compact = [t[0] for t in _labels(render.Frames(tr, theme="presenter").svg(len(tr))).values()]
    stacked = [t[0] for t in _labels(render.Frames(tr, theme=replace(render.get_theme("classroom"), compact=False))
                                     .svg(len(tr))).values()]
    assert "✓ ∂/∂x = 1.508" in compact and "✓ ∂/∂x = mul" in stacked


def test_a_scopes_count_goes_under_its_name_when_asked_and_a_wrong_choice_is_said():
    """08's while loop has cond, body and tf.range side by side in one rank: counts under their names made it
    556 pt wide instead of 795; every other picture keeps one line."""
    g = Graph("loop")
    x = g.add("placeholder", name="x", kind="input")
    for scope in ("cond", "body"):
        x = g.add("add", [g.add("sin", [x], scope=scope)], scope=scope)
    beside = _labels(render.Layout(g, theme="presenter", collapse=["cond", "body"]).svg())
    under = _labels(render.Layout(g, theme="presenter", collapse=["cond", "body"], counts="under").svg())
    assert beside["c0"] == ["cond · 2 nodes"] and under["c0"] == ["cond", "2 nodes"]
    assert under["n0"] == beside["n0"] == ["x"]
    with pytest.raises(ValueError) as info:
        render.Layout(g, counts="below")
    from course_lib.i18n import message_of
    from course_lib.render.layout import BAD_COUNTS
    assert message_of(info.value).msgid is BAD_COUNTS


def test_a_picture_drawn_in_its_given_states_keeps_no_room_for_a_mark_it_never_shows():
    """A still picture (to_svg, cl.draw) and a stepper's frames (whose states hold the running ones) are drawn in
    the states they were given: the room for "▶ " was 25 pt a box (07's batch of trees 832 -> 654 pt wide). A
    layout told no states may be drawn in any, and keeps it."""
    g = Graph("still")
    g.add("placeholder", name="a", kind="input")
    still = render.Layout(g, reserve=[None], theme="presenter").geometry.nodes["n0"][2]
    anything = render.Layout(g, theme="presenter").geometry.nodes["n0"][2]
    assert anything - still > 15
    tr = trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0})
    frames = render.Frames(tr, theme="presenter")
    assert any(lines[0].startswith("▶ ") for lines in frames.layout.labels.values())  # its running states
