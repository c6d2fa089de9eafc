"""The live widgets of the course: watch define-then-run and define-by-run happen, step by step.

Each is one short notebook cell and displays itself::

    from course_lib import widgets, programs, trace
    widgets.Stepper(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}))
    widgets.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    widgets.ExpressionExplorer("sin(x*w + 1)")
    widgets.ControlFlowExplorer(programs.branch_with_cond)

One idea per module:

* :mod:`.base` -- :class:`CourseWidget`, the base of every widget of the course (lesson explorers too): the
  ipywidgets import guard (the one way to reach ipywidgets: ``from course_lib.widgets.base import ipywidgets as W``),
  text sizes that follow the theme (``render.set_theme("presenter")`` before creating a widget makes all of its
  words larger), the message box, the callback guard that shows an error instead of losing it.
* :mod:`.html` (escaping), :mod:`.inputs` (numbers and typed text read, with the problem in words),
  :mod:`.sizing` (the graph's height on the screen, controls wide enough in any language, the style sheet).
* :mod:`.stepping` -- :class:`SteppingWidget`, the base of a widget with a clock: play / previous / next / slider,
  the links that step in the browser, a step that does not exist said in words.
* :mod:`.stepper` -- the frames of a trace's steps (:class:`~.stepper.Pane`) and :class:`Stepper`.
* :mod:`.side_by_side` -- :class:`SideBySide`: one program stepped both ways on one clock.
* :mod:`.explorers` -- :class:`ExpressionExplorer` and :class:`ControlFlowExplorer`: change the input, see both graphs.

Why they are built the way they are:

* **Stepping runs in the browser** (frames in a ``Stack`` jslinked to the slider), so it works in an exported page.
* **Nothing typed is executed.** Expressions go through :func:`course_lib.expr.parse` (a whitelist), never eval.
* **Errors are shown, never lost**, in words; the widget keeps working.
* **Short text repr.** nbval compares a widget's ``text/plain``; ours is one stable line, not a page of SVG.
* **Projector friendly.** Big buttons, labels in words, frames with a fixed minimum height so the page does not jump.
"""

from __future__ import annotations

from .base import CourseWidget, Sizes, guarded, message_html
from .explorers import ControlFlowExplorer, ExpressionExplorer
from .inputs import read_whole
from .side_by_side import SHORT_TITLES, SideBySide
from .stepper import MAX_BYTES, PHASES, STYLE_TITLES, Stepper
from .stepping import SteppingWidget

__all__ = ["MAX_BYTES", "PHASES", "SHORT_TITLES", "STYLE_TITLES", "ControlFlowExplorer", "CourseWidget",
           "ExpressionExplorer", "SideBySide", "Sizes", "Stepper", "SteppingWidget", "guarded", "message_html",
           "read_whole"]
