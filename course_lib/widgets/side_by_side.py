"""One program stepped both ways, side by side, on one shared clock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import render
from .. import trace as tr
from ..i18n import N_, message_of, said_by, say
from ..i18n import gettext as _
from .base import ipywidgets as W
from .base import message_html, quietly
from .html import esc
from .sizing import fit_height, share_width
from .stepper import MAX_BYTES, Pane
from .stepping import SteppingWidget

__all__ = ["GRAPH_TOP", "SHORT_TITLES", "SideBySide"]

SHORT_TITLES = {  # side by side, where half a line is all there is
    "define-then-run": N_("Define-then-run (TensorFlow 1): build, then run"),
    "define-by-run": N_("Define-by-run (PyTorch): run as you build"),
}


#: px above a pane's graph: the heading, the controls and the pane's title (two lines on a projector)
GRAPH_TOP = 150


NOT_A_PROGRAM = N_("SideBySide needs a program: a function like def f(ops, x): return ops.sin(x); got a value of "
                   "type {type}.")


class SideBySide(SteppingWidget):
    """One program stepped both ways, side by side, on one shared clock (one event per tick on each side).

    The define-by-run side has computed its result while the define-then-run side is still building a graph
    without values; the shorter trace then keeps showing its last step.

    >>> from course_lib import programs
    >>> SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    SideBySide(affine_sin: define-then-run steps=22, define-by-run steps=11)
    """

    def __init__(self, program: Callable[..., Any], inputs: dict[str, float] | None = None, *,
                 theme: str | render.Theme | None = None, interval: int = 900, backward: bool = True,
                 max_bytes: int = MAX_BYTES) -> None:
        super().__init__(theme=theme)
        self.program = program
        self.traces: dict[str, tr.Trace] = {}
        self.panes: dict[str, Pane] = {}
        self.failures: dict[str, Exception] = {}  # style -> what recording it raised (shown in the message box)
        self.name = getattr(program, "__name__", None) or getattr(program, "text", "program")
        if not callable(program):
            self.children = [self.message]
            self.show_error(say(NOT_A_PROGRAM, type=type(program).__name__))
            return
        try:  # a class, a generator, a builtin, no parameter for ops...: said once, before recording anything
            names = tr.check_program(program)
        except TypeError as exc:
            self.children = [self.message]
            self.show_error(said_by(exc))
            return
        problems = self._record(program, names, inputs, backward)
        controls = self.start_clock(max((len(x) for x in self.traces.values()), default=0), interval)
        panes = self._panes(problems, max_bytes)
        self.show_problems(problems)
        notes = list(dict.fromkeys(t.note for t in self.traces.values() if t.note))  # the same words for both
        if not self.shown:
            self.show_notes(notes)
        self.legend = W.HTML(render.legend_svg(self.theme), layout=W.Layout(width="100%"))
        head = self.html(esc(_("{name}: the same program, stepped both ways on one clock")).replace(
            "{name}", f"<b>{esc(self.name)}</b>", 1), "heading")
        # the speed slider, the control used least, goes last: the graphs start higher
        self.children = [head, controls.main, self.message,
                         W.HBox(panes, layout=W.Layout(width="100%")), self.legend, controls.speed]

    def _record(self, program: Callable[..., Any], names: list[str], inputs: Any, backward: bool) -> list[str]:
        """Record both traces; what went wrong, in words (a define-then-run ``if`` on a placeholder, on purpose)."""
        problems = []
        inputs = {name: 1.0 for name in names} if inputs is None else inputs
        for style in tr.STYLES:
            try:
                self.traces[style] = quietly(tr.record, program, style, inputs, backward=backward)
            except Exception as exc:  # noqa: BLE001 - shown in the widget: the failure is part of the lesson
                self.failures[style] = exc
                # a course error of Python's kind (ValueError...) is its message; a course class (SymbolicBoolError)
                # or Python's own error (NameError in the program) is named, it is part of what to learn
                try:
                    said, named = message_of(exc), type(exc).__module__ != "builtins"
                except LookupError:
                    said, named = str(exc), True
                problems.append(f"{tr.style_name(style)}: " + (f"{type(exc).__name__}: {said}" if named else said))
        return problems

    def _panes(self, problems: list[str], max_bytes: int) -> list[Any]:
        """A stepping pane per recorded trace, the problem in its place for a style that could not run."""
        boxes = []
        budget = max_bytes // max(1, len(self.traces))
        for style in tr.STYLES:
            if style in self.traces:
                # the graph right under the pane's title, the step in words and the listing under it: with the
                # heading and the controls above, the graphs take what is left of the screen
                pane = Pane(self.traces[style], steps=self.steps, theme=self.theme, max_bytes=budget,
                            label=_(SHORT_TITLES[style]), max_height=fit_height(GRAPH_TOP))
                self.follow(pane)
                self.panes[style] = pane
                boxes.append(W.VBox([pane.title, pane.graph, pane.text], layout=W.Layout(width="100%")))
            else:
                why = next((p for p in problems if p.startswith(tr.style_name(style) + ":")), style)
                boxes.append(W.VBox([W.HTML(f'<div style="font-size:{self.sizes.title}px;font-weight:bold">'
                                            f"{esc(_(SHORT_TITLES[style]))}</div>"
                                            + message_html(why, "error", self.theme))],
                                    layout=W.Layout(width="100%")))
        widths = [self.panes[s].width if s in self.panes else None for s in tr.STYLES]
        share_width(list(zip(boxes, widths, strict=True)))
        return boxes

    def __repr__(self) -> str:
        parts = ", ".join(f"{k} steps={len(v)}" for k, v in self.traces.items()) or "no traces"
        return f"SideBySide({self.name}: {parts})"
