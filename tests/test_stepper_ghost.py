"""Step 0 of a stepper is not a blank area: it shows where the graph will appear, faded, with no values (issue 13)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("ipywidgets")

from course_lib import programs, trace
from course_lib.widgets import Stepper


@pytest.mark.parametrize("style", ["define-then-run", "define-by-run"])
def test_step_zero_shows_every_box_faded_and_without_values(style: str) -> None:
    tr = trace.record(programs.affine_sin, style, {"x": 3.0, "w": 2.0})
    s = Stepper(tr)
    first, last = s.frame_html(0), s.frame_html(len(tr))
    assert "course-ghost" in first and "course-ghost" not in s.frame_html(1)
    states = re.findall(r'class="node (\w+)"', first)
    assert states and set(states) == {"defined"}  # every box of the final graph, none run
    assert len(states) == len(re.findall(r'class="node (\w+)"', last))
    assert "= 3" in last and "= 3" not in first  # values appear only by stepping
    ids = [i for k in range(len(tr) + 1) for i in re.findall(r'<svg [^>]*id="([^"]+)"', s.frame_html(k))]
    assert len(ids) == len(set(ids))  # the ghost's SVG id does not collide with a step's
