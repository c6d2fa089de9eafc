"""No control of a course widget shows the tooltip "null" (issue 27), and every described control's tooltip says
something: its words, or what it does, in the course's language.

ipywidgets 8.1.8's front end writes a control's ``tooltip`` into an HTML ``title`` as it is, and ``tooltip`` is None
unless given: the label of a slider, text box, dropdown, check box or toggle buttons (``DescriptionView``) and a
``ToggleButton`` then show "null" on hover. ``widgets.base.with_tooltips`` fills them for every course widget;
these tests build each widget kind as a lesson does (``tests/browser/test_layout.py``'s ``WIDGETS``) in this
process and read every control's ``tooltip`` trait (the browser test, ``tests/browser/test_keyboard.py``, looks for
``title="null"`` in the page).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from course_lib import render
from course_lib.i18n import set_language
from course_lib.widgets.base import ipywidgets as W
from course_lib.widgets.base import tooltip_words, with_tooltips

pytestmark = pytest.mark.skipif(W is None, reason="ipywidgets is not installed")


def controls(widget: Any) -> Iterator[Any]:
    """Every widget under ``widget`` that is drawn and is not a box (controls, HTML, outputs)."""
    for kid in getattr(widget, "children", ()):
        if isinstance(kid, W.Box):
            yield from controls(kid)
        elif isinstance(kid, W.DOMWidget):
            yield kid


def null_tooltips(widget: Any) -> list[str]:
    """The controls whose hover would say "null", and the described controls whose tooltip says nothing."""
    found = []
    for c in controls(widget):
        words = getattr(c, "description", "")
        if c.tooltip is None or (words and not c.tooltip.strip()):
            found.append(f"{type(c).__name__}({words!r}).tooltip = {c.tooltip!r}")
    return found


@pytest.fixture(scope="module")
def built() -> dict[str, Any]:
    """Every widget kind of the layout test, built by the lessons' own constructor cells."""
    pytest.importorskip("tensorflow")
    from tests.browser.test_layout import SETUP, WIDGETS

    names: dict[str, Any] = {}
    exec(SETUP.replace("cl.set_theme('presenter')", ""), names)  # the test's own cells: no student input
    try:
        return {kind: eval(code, names) for kind, (code, _name) in WIDGETS.items()}
    finally:
        render.set_theme("classroom")


def test_every_kind_is_checked(built):
    assert len(built) == 12 and all(list(controls(w)) for w in built.values())


@pytest.mark.parametrize("kind", ["stepper", "stepper_static", "side_by_side", "expression", "control_flow", "chain",
                                  "session", "compile", "padding", "tree", "batching", "unroll"])
def test_no_control_says_null(built, kind):
    assert null_tooltips(built[kind]) == []


def test_stepper_tooltips_say_what_the_sliders_do(built):
    """The two labels that said "null" (issue 27) say what their slider does, not only its name."""
    c = built["stepper"].controls
    assert c.slider.tooltip == "the step shown: drag it, or use the arrow keys"
    assert c.speed.tooltip == "the pause between two steps while playing"


def test_controls_added_later_get_tooltips(built):
    """A box whose children change after the widget is built (a new expression: new sliders) is walked again."""
    explorer = built["expression"]
    explorer.text.value = "a * b + c"
    assert {s.tooltip for s in explorer.sliders.values()} == {"value of a", "value of b", "value of c"}
    assert null_tooltips(explorer) == []


def test_tooltips_in_french():
    from course_lib import programs, trace
    from course_lib.widgets import Stepper

    set_language("fr")
    s = Stepper(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}))
    assert s.controls.slider.tooltip == "l'étape montrée\u00a0: faites-la glisser, ou utilisez les flèches du clavier"
    assert s.controls.speed.tooltip == "la pause entre deux étapes pendant la lecture"
    assert null_tooltips(s) == []


def test_own_tooltip_kept_and_words_cleaned():
    box = W.VBox([W.Checkbox(description="draw:"), W.Button(description="go", tooltip="run it"),
                  W.Dropdown(options=["a"], description="<b>pick</b>\u00a0:", description_allow_html=True),
                  W.HTML("x")])
    with_tooltips(box)
    assert [c.tooltip for c in box.children] == ["draw", "run it", "pick", ""]
    assert tooltip_words(W.IntSlider()) == ""
