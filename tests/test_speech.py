"""What a screen reader is given for every graph (issue 27): the SVG's <title> (name) and <desc> (description),
made from the plan and state the picture is drawn from (course_lib/render/speech.py), and cl.describe's text;
the steppers' hidden step sentences and their live region (course_lib/widgets/speech.py)."""

from __future__ import annotations

import html
import re

import pytest

import course_lib as cl
import course_lib.widgets as cw
from course_lib import programs, render, trace
from course_lib.graph import Graph
from course_lib.i18n import set_language
from course_lib.render import speech
from course_lib.render.plan import item_states, plan

TITLE = re.compile(r'^<svg [^>]*role="img"><title>([^<]*)</title><desc>([^<]*)</desc>')


def said(svg: str) -> tuple[str, str]:
    """The name and description an SVG carries as its first children (what SVG-AAM makes its accessible name and
    description), unescaped."""
    m = TITLE.match(svg)
    assert m, f"no <title> and <desc> first in the SVG: {svg[:200]}"
    return html.unescape(m.group(1)), html.unescape(m.group(2))


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


def affine(style: str) -> trace.Trace:
    return trace.record(programs.affine_sin, style, {"x": 3.0, "w": 2.0})


def test_every_step_of_a_stepper_says_its_step_and_its_boxes():
    for style in trace.STYLES:
        tr = affine(style)
        frames = render.Frames(tr)
        for k in range(1, len(tr) + 1):
            svg = frames.svg(k)
            name, desc = said(svg)
            drawn = svg.count('<g class="node ')
            assert name.startswith(f"Graph {trace.style_name(style)}, step {k} of {len(tr)}: {drawn} box"), name
            running = svg.count('<g class="node running"')
            if running:  # counted in the name; said on the box where other boxes are in another state
                assert f"{running} at this step" in name, (style, k, name)
                assert ("this step's box" in desc) == (running < drawn), (style, k, desc)
            assert "▶" not in desc and "✓" not in desc  # marks said in words, not spelled out as symbols


def test_the_walk_names_every_box_and_who_feeds_it_in_topological_order():
    g = Graph("walk")
    x = g.add("placeholder", name="x", kind="input")
    w = g.add("placeholder", name="w", kind="input")
    m = g.add("mul", [x, w])
    a = g.add("add", [m, g.add("constant", name="one", kind="constant", value=1.0)])
    s = g.add("sin", [a])
    g.mark_output(s)
    name, desc = said(render.to_svg(g, legend=False))
    assert name == "Graph walk: 6 boxes, 5 arrows; 1 done, 5 not run yet."  # a constant has its value: done
    assert desc == "x (input), w (input), 1 (constant, done). x and w feed mul; mul and 1 feed add, then sin (output)."
    assert desc.index("feed mul") < desc.index("feed add") < desc.index("then sin")


def test_the_state_of_a_box_is_said_where_it_differs_from_most():
    tr = affine("define-by-run")
    frames = render.Frames(tr)
    _name, desc = said(frames.svg(5))  # mul done, add running: "add = 7 (this step's box)"
    assert "add = 7 (this step's box)" in desc and "mul = 6 (" not in desc


def test_two_boxes_with_one_title_are_told_apart():
    _name, desc = said(render.Frames(affine("define-then-run")).svg(22))
    assert "grad_ys and cos feed gradients/mul" in desc  # not "mul", which is also the forward box
    assert "∂/∂x = 1.508" in desc and "∂/∂w = 2.262" in desc


def test_a_large_graph_is_summarized_with_its_largest_scopes_and_stays_short():
    g = Graph("big")
    prev = g.add("placeholder", name="x", kind="input")
    for block in range(12):
        for k in range(90):
            prev = g.add("tanh", [prev], name=f"tanh_{block}_{k}", scope=f"net/block{block}")
    name, desc = speech.spoken(p := plan(g, 2000, False), item_states(p, None, None, None))
    assert name.startswith("Graph: 1,081 boxes, 1,080 arrows")
    assert desc.startswith("1,081 nodes in 12 scopes; the largest: net/block0 (90), net/block1 (90), net/block2 (90)."
                           " Drawn: 1,080 operations, 1 input. The first 40 boxes: x (input). x feeds tanh_0_0 = tanh,"
                           " then tanh_0_1 = tanh, then")
    assert len(desc) < 3000


def test_a_deep_chain_is_said_without_recursion():
    g = Graph("deep")
    prev = g.add("placeholder", name="x", kind="input")
    for _ in range(20_000):
        prev = g.add("exp", [prev])
    text = speech.describe(g, max_nodes=30_000, collapse=False)
    assert text.startswith("Graph deep: 20,001 boxes, 20,000 arrows.")


def test_describe_prints_what_the_picture_carries(capsys):
    tr = affine("define-by-run")
    cl.describe(tr, step=5)
    printed = capsys.readouterr().out
    name, desc = said(render.Frames(tr).svg(5))
    assert printed.split("\n", 1)[0] == name
    assert " ".join(printed.split("\n", 1)[1].split()) == desc


def test_a_graph_drawn_by_draw_and_show_says_the_same():
    from course_lib import dynamic as dy

    g = cl.to_graph(dy.sin(dy.Tensor(1.0, requires_grad=True)))
    for svg in (cl.draw(g).svg(), cl.show(g).svg, render.to_svg(g)):
        assert said(svg)[0] == "Graph define-by-run: 2 boxes, 1 arrow."


def test_the_legend_and_the_faded_step_0_have_names():
    assert said(render.legend_svg())[0] == "Legend of the graphs"
    s = cw.Stepper(affine("define-by-run"))
    name, _desc = said(re.search(r"<svg.*</svg>", s.pane.parts(0)[1]).group(0))
    assert name.startswith("Graph define-by-run, faded: where the graph will appear, step 0 of 11")


def test_french_names_and_walks_have_no_english_words():
    set_language("fr")
    name, desc = said(render.Frames(affine("define-then-run")).svg(11))
    assert name.startswith("Graphe définir-puis-exécuter, étape 11 sur 22\u00a0: 11 boîtes, 12 flèches\u00a0;"), name
    assert " et " in desc and " alimente" in desc
    for english in ("Graph ", " boxes", " arrows", " feed ", " and ", "not run yet", " at this step"):
        assert english not in name + desc, english


def test_each_step_frame_carries_its_sentence_and_the_widgets_their_live_region():
    s = cw.Stepper(affine("define-then-run"))
    text = s.pane.parts(3)[0]
    said = "BUILD, step 3 of 22: define op mul = mul(x, w) (no value yet)"
    assert f'<span class="course-said" hidden="">{said}</span>' in text
    b = cw.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    assert 'hidden="">define-by-run, RUN, step 3 of 11: ' in b.panes["define-by-run"].parts(3)[0]
    for widget in (s, b):
        regions = [c.value for c in widget.children if "course-live" in getattr(c, "value", "")]
        assert len(regions) == 1 and 'role="status"' in regions[0], type(widget).__name__
        for word in ("play", "stop", "repeat"):
            assert f'class="course-word-{word}" hidden="">' in regions[0]


def test_mobilenet_v2_from_pytorch_is_summarized_by_its_blocks():
    torch = pytest.importorskip("torch")
    from mobilenet_v2 import MobileNetV2  # tests/ is on the path, as for site_planted

    gm = torch.fx.symbolic_trace(MobileNetV2().eval())
    text = speech.describe(cl.to_graph(gm))
    name, desc = text.split("\n", 1)
    assert name == "Graph fx MobileNetV2: 155 boxes, 164 arrows."
    assert desc.startswith("155 nodes in 35 scopes; the largest: features/2/conv (8)")
    assert len(text) < 3000


def test_a_picture_drawn_again_after_a_language_switch_says_it_in_the_new_language():
    g = Graph("g")
    g.add("exp", [g.add("placeholder", name="x", kind="input")])
    lay = render.Layout(g)
    assert said(lay.svg())[0] == "Graph g: 2 boxes, 1 arrow."
    set_language("fr")
    assert said(lay.svg())[0] == "Graphe g\u00a0: 2 boîtes, 1 flèche."
