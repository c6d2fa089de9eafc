"""The renderer: deterministic DOT, one layout per graph, every engine missing still shows something useful."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass, replace

import pytest

from course_lib import render, trace
from course_lib.graph import Graph
from course_lib.i18n import message_of
from course_lib.render import layout, plan, theme

# built the same way in this process and in fresh interpreters (different hash seeds): same DOT expected
BUILDER = textwrap.dedent(
    """
    from course_lib.graph import Graph
    from course_lib import render
    g = Graph("demo")
    x = g.add("placeholder", name="x", kind="input")
    w = g.add("VariableV2", name="dense_1/kernel", kind="variable", value=2.0, scope="dense_1")
    c = g.add("Const", name="Const", kind="constant", value=1.0)
    m = g.add("MatMul", [x, w], name="dense_1/MatMul", scope="dense_1")
    a = g.add("add", [m, c], name="h")
    t = g.add("cond", [a], name="cond/then/sin", scope="cond/then")
    e = g.add("exp", [a], name="cond/else/exp", scope="cond/else")
    y = g.add("Merge", [t, e], name="cond/Merge", scope="cond")
    gy = g.add("AddmmBackward0", [y, x], gradient=True)
    g.mark_output(y)
    """
)


def build() -> Graph:
    ns: dict = {}
    exec(BUILDER, ns)  # noqa: S102 - a fixed string of this file, so the subprocess runs exactly the same code
    return ns["g"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    render.clear_cache()
    render.set_theme("classroom")
    yield
    render.set_theme("classroom")
    render.clear_cache()


def chain(n: int, scope_every: int = 0) -> Graph:
    """x -> op -> op ... (n nodes), optionally with a new scope every `scope_every` nodes."""
    g = Graph(f"chain{n}")
    prev = g.add("placeholder", name="x", kind="input")
    for k in range(1, n):
        scope = f"block_{k // scope_every}" if scope_every else ""
        prev = g.add("tanh" if k % 2 else "mul", [prev], scope=scope)
    g.mark_output(prev)
    return g


def layered(n: int) -> Graph:
    """Dense layers (kernel, bias, MatMul, BiasAdd, Relu per scope) with a skip connection every third layer:
    the shape of a real model's graph, n nodes exactly."""
    g = Graph(f"layered{n}")
    prev = g.add("placeholder", name="x", kind="input")
    relus = [prev]
    k = 0
    while len(g) < n:
        s = f"dense_{k}"
        parts = [("VariableV2", "kernel", "variable", ()), ("VariableV2", "bias", "variable", ()),
                 ("MatMul", "MatMul", "op", (prev, -2)), ("BiasAdd", "BiasAdd", "op", (-1, -2)),
                 ("Relu", "Relu", "op", (-1,))]
        made = []
        for op, name, kind, ins in parts:
            if len(g) >= n:
                break
            inputs = [made[i] if isinstance(i, int) else i for i in ins]
            made.append(g.add(op, inputs, name=f"{s}/{name}", kind=kind, scope=s,
                              value=0.5 if kind == "variable" else None))
        prev = made[-1]
        if k % 3 == 2 and len(g) < n:
            prev = g.add("add", [prev, relus[-3]], name=f"skip_{k}")
        relus.append(prev)
        k += 1
    g.mark_output(prev)
    return g


@dataclass(frozen=True)
class _NS:
    status: str
    value: float | None
    grad: float | None


def hand_trace(g: Graph) -> trace.Trace:
    """A trace made by hand (no program): every node defined, then every node run, with the value id / 3."""
    events = [trace.Event("define", "build", n.id, f"define {n.name}", None, None) for n in g.nodes]
    events += [trace.Event("run", "run", n.id, f"run {n.name}", float(n.id) / 3, None) for n in g.nodes]
    return trace.Trace("define-then-run", g, events, [])


# ---------------------------------------------------------------------------------------------------- determinism
def test_same_graph_gives_identical_dot_and_svg_twice():
    a, b = build(), build()
    assert render.to_dot(a) == render.to_dot(b)
    assert render.to_svg(a) == render.to_svg(b)
    assert "id(" not in render.to_dot(a)
    # node DOT names come from creation counters (clusters may list them out of id order)
    names = re.findall(r"^\s*(n\d+) \[", render.to_dot(a), re.MULTILINE)
    assert sorted(names) == sorted(f"n{k}" for k in range(len(a)))


def test_same_dot_across_processes_and_hash_seeds():
    here = render.to_dot(build())
    code = BUILDER + "\nimport sys; sys.stdout.write(render.to_dot(g))\n"
    outs = []
    for seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                             check=False)
        assert res.returncode == 0, res.stderr
        outs.append(res.stdout)
    assert outs[0] == outs[1] == here


def test_different_graphs_get_different_id_prefixes_and_explicit_prefix_is_used():
    p1 = re.search(r'id="(g[0-9a-f]+)"', render.to_dot(chain(5))).group(1)
    p2 = re.search(r'id="(g[0-9a-f]+)"', render.to_dot(chain(6))).group(1)
    assert p1 != p2
    svg = render.to_svg(chain(5), prefix="lesson3_a")
    assert 'id="lesson3_a"' in svg
    with pytest.raises(ValueError):
        render.to_svg(chain(5), prefix="bad prefix with spaces")


# ---------------------------------------------------------------------------------------------------- visual language
def node_groups(svg: str) -> dict[str, str]:
    return dict(re.findall(r'<g class="node [a-z]+" data-id="([^"]+)">(.*?)</g>', svg))


def test_each_kind_has_its_own_shape_and_outputs_a_double_border():
    g = build()
    groups = node_groups(render.to_svg(g))
    shape = {k: re.search(r"</title><([a-z]+)", v).group(1) for k, v in groups.items()}
    assert shape["n0"] == "polygon"  # input: parallelogram
    assert shape["n1"] == "path"  # variable: cylinder
    assert shape["n2"] == "rect"  # constant: box
    assert shape["n3"] == "rect" and ' rx="' in groups["n3"]  # operation: a stadium (issue 26)
    assert groups["n7"].count(' rx="') == 2  # the output: double border
    assert groups["n3"].count(' rx="') == 1
    stacked = node_groups(render.to_svg(g, theme=replace(render.get_theme(), compact=False)))
    assert stacked["n3"].count("<ellipse") == 1 and stacked["n7"].count("<ellipse") == 2  # before issue 26


def test_states_are_readable_without_colour():
    g = build()
    state = {n.id: "defined" for n in g.nodes}
    state.update({0: "done", 3: "running", 4: "hidden"})
    groups = node_groups(render.to_svg(g, state=state, values={0: 3.0}))
    assert "stroke-dasharray" in groups["n2"]  # defined: dashed outline
    assert "▶" in groups["n3"] and 'font-weight="bold"' in groups["n3"]  # running: a mark
    assert "✓" in groups["n0"] and "= 3" in groups["n0"]  # done: a mark and the value
    assert "n4" not in groups  # hidden: laid out, not drawn


def test_framework_op_names_are_kept_and_gradient_nodes_have_their_own_style():
    svg = render.to_svg(build())
    assert "AddmmBackward0" in svg and "MatMul" in svg
    grad = node_groups(svg)["n8"]
    assert 'font-style="italic"' in grad and render.THEMES["classroom"].gradient in grad
    assert 'stroke-dasharray="1.5,3"' in svg  # the dotted gradient edge


def test_nested_control_flow_scopes_become_nested_clusters():
    dot = render.to_dot(build())
    outer = dot.index('label="cond"')
    assert dot.index('label="then"') > outer and dot.index('label="else"') > outer
    # the "then" cluster opens before "cond" closes: it is inside it
    depth = 0
    for line in dot.splitlines():
        if "subgraph cluster" in line:
            depth += 1
        if 'label="then"' in line:
            assert depth == 2
        if line.strip() == "}":
            depth -= 1


def test_awkward_names_are_escaped_in_dot_and_svg():
    g = Graph()
    x = g.add("placeholder", name='x"quoted\\back<tag>&é', kind="input")
    g.add("op with spaces", [x], name="ü/ç", scope='scope "q"/ß')
    svg = render.to_svg(g)
    ET.fromstring(svg)  # well-formed XML
    assert "&lt;tag&gt;" in svg
    assert "\\\\back" in render.to_dot(g)


def test_legend_is_switchable_and_themes_change_the_look():
    g = chain(3)
    assert "running now" in render.to_svg(g, legend=True)
    assert "running now" not in render.to_svg(g, legend=False)
    small = render.to_svg(g, legend=False)
    render.set_theme("presenter")
    big = render.to_svg(g, legend=False)
    assert 'font-size="20"' in big and 'font-size="14"' in small
    def width(svg):
        return float(re.search(r'width="([\d.]+)pt"', svg).group(1))

    assert width(big) > width(small)
    with pytest.raises(ValueError) as info:
        render.set_theme("disco")
    said = message_of(info.value)
    assert said.msgid is theme.UNKNOWN_THEME and said.values == {"theme": "disco", "themes": "classroom, presenter"}


def test_wrong_arguments_say_which_message() -> None:
    g = chain(2)
    for call, error, msgid in [
        (lambda: render.to_svg(g, collapse=1.5), TypeError, plan.BAD_COLLAPSE),
        (lambda: render.to_svg(g, state=3), TypeError, plan.BAD_STATE),
        (lambda: render.to_svg(g, values=[1]), TypeError, plan.BAD_MAPPING),
        (lambda: render.Layout(3), TypeError, layout.NOT_A_GRAPH),
        (lambda: render.Layout(g, rankdir="XX"), ValueError, layout.BAD_RANKDIR),
        (lambda: render.Layout(g, max_nodes="a"), TypeError, layout.BAD_MAX_NODES),
        (lambda: render.Layout(g, prefix="1 2"), ValueError, layout.BAD_PREFIX),
    ]:
        with pytest.raises(error) as info:
            call()
        assert message_of(info.value).msgid is msgid
    with pytest.raises(TypeError) as info:
        render.to_svg(g, grads=[2])
    assert message_of(info.value).values == {"what": "grads", "value": "[2]"}


# ---------------------------------------------------------------------------------------------------- stepping
def test_a_step_only_restyles_positions_never_move():
    g = layered(40)
    frames = render.Frames(hand_trace(g))
    last = render.node_boxes(frames.svg(len(frames) - 1))
    assert len(last) == len(g)
    size = re.search(r'viewBox="[^"]+"', frames.svg(len(frames) - 1)).group(0)
    for step in (0, 1, 5, len(g), len(g) + 7, len(frames) - 2):
        svg = frames.svg(step)
        assert re.search(r'viewBox="[^"]+"', svg).group(0) == size
        boxes = render.node_boxes(svg)
        assert all(last[k] == v for k, v in boxes.items())
        assert len(boxes) == min(step, len(g))  # nodes not created yet are not drawn
    assert frames.svg(10_000) == frames.svg(len(frames) - 1)  # a step beyond the end shows the end
    assert frames.svg(-5) == frames.svg(0)


def test_layout_happens_once_per_structure(monkeypatch):
    g = layered(30)
    render.Layout(g)
    calls = []

    def boom(dot):
        calls.append(dot)
        raise RuntimeError("layout again!")

    monkeypatch.setattr(render.engines, "ENGINES", (("boom", boom),))
    lay = render.Layout(g)  # the same structure and the same room: laid out once
    assert lay.ok and calls == []
    values = {n.id: float(n.id) for n in g.nodes}
    assert render.node_boxes(lay.svg(values=values)) == render.node_boxes(lay.svg())


def test_engines_replaced_on_the_package_are_the_engines_the_layout_uses(monkeypatch):
    g = chain(4)
    calls = []

    def fake(dot):
        calls.append(dot)
        raise RuntimeError("no layout today")

    saved = render.engines.ENGINES
    monkeypatch.setattr(render, "ENGINES", (("fake", fake),))  # the old spelling: render.ENGINES = ...
    assert render.engines.ENGINES == (("fake", fake),) and render.ENGINES is render.engines.ENGINES
    lay = render.Layout(g)
    assert len(calls) == 1 and not lay.ok and "fake: RuntimeError: no layout today" in lay.message
    monkeypatch.undo()
    assert render.engines.ENGINES is saved and "ENGINES" not in vars(render)


def test_room_reserved_for_values_keeps_the_layout_when_values_change():
    g = chain(6)
    s1 = {n.id: _NS("done", 0.5, 0.25) for n in g.nodes}
    s2 = {n.id: _NS("done", -12.345, 4.5e-05) for n in g.nodes}
    a = render.Layout(g, reserve=[s1], room="value+grad", prefix="keep")
    b = render.Layout(g, reserve=[s2], room="value+grad", prefix="keep")
    assert a.dot == b.dot
    huge = {n.id: _NS("done", -123456.789e10, 1.0) for n in g.nodes}  # wider than the room: laid out anew
    assert render.Layout(g, reserve=[huge], room="value+grad", prefix="keep").dot != a.dot


# ---------------------------------------------------------------------------------------------------- big graphs
def test_a_300_node_graph_renders():
    g = layered(300)
    svg = render.to_svg(g, legend=True)
    assert svg.startswith("<svg") and svg.count('class="node ') == 300
    ET.fromstring(svg)


def test_big_graphs_are_collapsed_by_scope_or_capped_with_a_note():
    g = chain(1200, scope_every=40)  # 30 scopes of 40 nodes
    svg = render.to_svg(g, max_nodes=100)
    boxes = svg.count('class="node ')
    assert 0 < boxes <= 100
    assert "drawn as one box" in svg and "40 nodes" in svg
    flat = chain(500)  # no scopes: nothing to collapse, so it is capped
    svg = render.to_svg(flat, max_nodes=120)
    assert svg.count('class="node ') == 120 and "Showing the first 120 of 500" in svg


def test_collapse_by_name_and_by_size():
    g = build()
    svg = render.to_svg(g, collapse=["cond"])
    groups = node_groups(svg)
    assert sum(1 for v in groups.values() if "3 nodes" in v) == 1
    assert len(groups) == len(g) - 3 + 1
    sized = node_groups(render.to_svg(g, collapse=1))  # every scope with more than one box becomes one box
    assert sorted(v.split("</title>")[0].split("<title>")[1] for v in sized.values() if "nodes drawn" in v) == [
        "scope cond: 3 nodes drawn as one box", "scope dense_1: 2 nodes drawn as one box"]
    with pytest.raises(TypeError):
        render.to_svg(g, collapse=3.5)


def test_deep_chain_does_not_recurse():
    g = chain(5000)
    svg = render.to_svg(g, max_nodes=50)
    assert svg.count('class="node ') == 50


def test_the_first_layout_in_a_fresh_interpreter_prints_nothing_on_stderr():
    """pygraphviz's bundled fontconfig prints a notice on its first use (on this Debian: "Fontconfig warning ...
    reset-dirs"); ipykernel would put it under the cell. The renderer drops it with the course's stderr filter
    (course_lib.i18n.stderr), so drawing in a fresh interpreter writes nothing on stderr."""
    pytest.importorskip("pygraphviz")
    code = BUILDER + "\nassert render.Layout(g).engine == 'pygraphviz'\nprint(render.to_svg(g)[:4])\n"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0 and res.stdout.strip() == "<svg" and res.stderr == "", res.stderr


# ---------------------------------------------------------------------------------------------------- engines missing
def test_without_pygraphviz_the_dot_program_lays_it_out(monkeypatch):
    if shutil.which("dot") is None:
        pytest.skip("the dot program is not installed here")
    monkeypatch.setitem(sys.modules, "pygraphviz", None)  # `import pygraphviz` now raises ImportError
    lay = render.Layout(build())
    assert lay.engine == "dot program"
    svg = lay.svg()
    assert svg.startswith("<svg") and svg.count('class="node ') == len(build())


def test_without_any_engine_the_dot_text_and_an_install_hint_are_shown(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pygraphviz", None)
    monkeypatch.setenv("PATH", str(tmp_path))  # no `dot` program to find
    g = build()
    lay = render.Layout(g)
    assert not lay.ok and "pip install pygraphviz" in lay.message
    out = render.to_svg(g)
    assert "pip install pygraphviz" in out and "digraph" in out and "MatMul" in out
    bundle = render.draw(g)._repr_mimebundle_()
    assert "text/html" in bundle and "pip install pygraphviz" in bundle["text/plain"]
    frames = render.Frames(hand_trace(g))
    assert "pip install pygraphviz" in frames.svg(3)


def test_draw_returns_a_digraph_that_displays_without_the_dot_program(monkeypatch, tmp_path):
    import graphviz

    monkeypatch.setenv("PATH", str(tmp_path))
    d = render.draw(build())
    assert isinstance(d, graphviz.Digraph)
    bundle = d._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg")
    assert "0x" not in repr(d) and "9 nodes" in repr(d)
    d.node("extra", "added by hand")  # an edited Digraph is drawn as edited
    assert "added by hand" in d._repr_mimebundle_().get("image/svg+xml", "")


def test_a_wide_drawing_declares_a_width_that_fits_a_notebook_column():
    wide = Graph("wide")
    xs = [wide.add("placeholder", name=f"input_{k}", kind="input") for k in range(30)]
    wide.add("add_n", xs)
    svg = render.draw(wide)._repr_mimebundle_()["image/svg+xml"]
    declared = float(re.search(r'<svg[^>]* width="([\d.]+)pt"', svg).group(1))
    natural = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    assert declared <= render.DRAW_MAX_WIDTH < natural  # JupyterLab shows it as an <img> at the declared size


def test_cl_draw_goes_through_this_renderer():
    import course_lib as cl

    g = build()
    d = cl.draw(g, legend=False, theme="presenter")
    assert d.source == render.to_dot(g, theme="presenter")


def test_a_scope_whose_nodes_are_all_hidden_is_not_drawn():
    from course_lib import programs, trace

    t = trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0})
    frames = render.Frames(t)
    first_gradient = next(k for k, e in enumerate(t.events, start=1) if t.graph.nodes[e.node_id].gradient)
    before, after = frames.svg(first_gradient - 1), frames.svg(first_gradient)
    assert ">gradients</text>" not in before  # the backward scope does not exist yet: no empty box
    assert ">gradients</text>" in after
    assert before.count("<rect") < after.count("<rect")


# ---------------------------------------------------------------- the text line of every drawing (nbval compares it)
def wide_graph() -> Graph:
    wide = Graph("wide")
    xs = [wide.add("placeholder", name=f"input_{k}", kind="input") for k in range(30)]
    wide.add("add_n", xs)
    return wide


def test_a_drawing_describes_its_structure_in_one_line():
    import course_lib as cl

    g = build()
    text = repr(cl.draw(g))
    assert text == ("<course graph 'demo': 9 nodes, 9 boxes, top to bottom, at most 680 pt wide, 14 pt text; "
                    "run the cell to see the graph>")
    assert render.draw(g)._repr_mimebundle_()["text/plain"] == text
    assert "\n" not in text and "0x" not in text


def test_the_description_changes_when_the_picture_changes_shape():
    g = build()
    base = repr(render.draw(g))
    assert "left to right" in repr(render.draw(g, rankdir="LR")) and "top to bottom" in base
    assert "bottom to top" in repr(render.draw(g, rankdir="BT"))
    assert "20 pt text" in repr(render.draw(g, theme="presenter"))
    render.set_theme("presenter")  # the theme in force when the graph is drawn
    assert "20 pt text" in repr(render.draw(g))
    render.set_theme("classroom")
    collapsed = repr(render.draw(g, collapse=["dense_1", "cond"]))
    assert "9 nodes" in collapsed and "9 boxes" not in collapsed
    assert len({base, collapsed, repr(render.draw(g, rankdir="LR")), repr(render.draw(g, theme="presenter"))}) == 4


def test_a_wide_graph_says_it_is_shrunk_to_the_column_and_says_so_when_it_is_not(monkeypatch):
    d = render.draw(wide_graph())
    assert "at most 680 pt wide" in repr(d)
    assert render.DRAW_MAX_WIDTH == 680
    real_svg = render.Layout.svg

    def uncapped(self, *args, **kwargs):  # the regression: the declared width no longer capped
        kwargs.pop("max_width", None)
        return real_svg(self, *args, **kwargs)

    monkeypatch.setattr(render.Layout, "svg", uncapped)
    assert "wider than 680 pt, not shrunk to the column" in repr(d)
    assert "at most 680 pt wide" in repr(render.draw(build()))  # a narrow graph fits either way


def test_the_description_does_not_depend_on_the_machines_fonts():
    """Other font metrics give other positions and sizes; the line holds only what they cannot change."""
    import dataclasses

    for g in (build(), wide_graph()):
        other_fonts = dataclasses.replace(render.get_theme("classroom"), fontname="Courier")
        a, b = render.draw(g), render.draw(g, theme=other_fonts)
        assert a._repr_mimebundle_()["image/svg+xml"] != b._repr_mimebundle_()["image/svg+xml"]
        assert repr(a) == repr(b)


def test_a_figure_describes_its_structure_in_one_line():
    import course_lib as cl

    g = build()
    fig = cl.show(g, rankdir="BT")
    assert repr(fig) == ("<figure 'demo': 9 nodes, 9 boxes, bottom to top, scaled to the page width, 14 pt text; "
                         "run the cell to see the graph>")
    assert "top to bottom" in repr(cl.show(g)) and "20 pt text" in repr(cl.show(g, theme="presenter"))
    assert 'style="max-width:100%"' in fig._repr_html_()


def test_without_a_layout_engine_the_description_says_the_graph_is_text(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pygraphviz", None)
    monkeypatch.setenv("PATH", str(tmp_path))
    d = render.draw(build())
    assert repr(d) == ("<course graph 'demo': 9 nodes, 9 boxes, top to bottom, 14 pt text; no layout engine, "
                       "shown as DOT text>")
    assert "run the cell" not in repr(render.Figure(build()))
