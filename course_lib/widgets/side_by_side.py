"""One program stepped both ways, side by side, on one shared clock."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .. import render
from .. import trace as tr
from ..i18n import N_, message_of, said_by, say
from ..i18n import gettext as _
from .base import Sizes, guarded, message_html, quietly
from .base import ipywidgets as W
from .focus import Focus, Shown, named
from .html import esc
from .sizing import PAGE_PX, ROW_PX, TOGGLE_ROW_PX, fit_height, lines_px, text_lines
from .speech import announcer
from .stepper import MAX_BYTES, Pane
from .stepping import SteppingWidget

__all__ = ["FOLDED", "GRADIENT_NODES", "PROJECTOR_TITLES", "SHORT_TITLES", "UNFOLDED", "SideBySide", "graph_room"]

SHORT_TITLES = {  # side by side, where half a line is all there is
    "define-then-run": N_("Define-then-run (TensorFlow 1): build, then run"),
    "define-by-run": N_("Define-by-run (PyTorch): run as you build"),
}


#: on a projector, one line over each graph (the sentence above is its tooltip): the graph gets the line
PROJECTOR_TITLES = {
    "define-then-run": N_("Define-then-run (TensorFlow 1)"),
    "define-by-run": N_("Define-by-run (PyTorch)"),
}
FOLDED = N_("folded")
UNFOLDED = N_("shown")
GRADIENT_NODES = N_("Gradient nodes")
FOLD_TIPS = (N_("the gradient nodes drawn as one box until the backward pass: a smaller graph, drawn larger"),
             N_("every gradient node drawn from the first step"))


def graph_room(sizes: Sizes, words_on_screen: bool, heading: str = "", titles: tuple[str, ...] = ()) -> int:
    """The px of the widget over and under a pane's graph that share the screen with it: over it, the ``heading``
    and the panes' ``titles`` (their lines estimated from their lengths, a title across half the page:
    :func:`~course_lib.widgets.sizing.text_lines`), the clock's row of controls and the view's row (toggle buttons:
    lower); with ``words_on_screen`` (on a projector), under it the step's words (the badge line, the event on up
    to two lines), so the class sees what the step did. The listing comes after them, below the fold if it must;
    on a laptop the words may be too, and the graph takes their room.

    >>> from course_lib import render
    >>> presenter, classroom = (Sizes.of(render.get_theme(t)) for t in ("presenter", "classroom"))
    >>> graph_room(presenter, True, "f: a heading", ("A title",)), graph_room(classroom, False, "f: a heading")
    (235, 122)
    """
    above = lines_px(sizes.heading, text_lines(heading, sizes.heading)) + ROW_PX + TOGGLE_ROW_PX
    above += lines_px(sizes.title, max((text_lines(t, sizes.title, PAGE_PX // 2) for t in titles), default=1))
    # the badge's border and padding, then 2.6em of event (text_html's min-height) and its margins
    # (+4 px: the French badge line ended 2.5 px past a 720 px screen)
    under = lines_px(sizes.ui) + 6 + math.ceil(2.6 * sizes.ui) + 8 if words_on_screen else 0
    return above + under


NOT_A_PROGRAM = N_("SideBySide needs a program: a function like def f(ops, x): return ops.sin(x); got a value of "
                   "type {type}.")


class SideBySide(SteppingWidget):
    """One program stepped both ways, side by side, on one shared clock (one event per tick on each side).

    The define-by-run side has computed its result while the define-then-run side is still building a graph
    without values; the shorter trace then keeps showing its last step. Each pane's step in words sits under its
    graph, on the screen with it. ``Show`` (:class:`~course_lib.widgets.focus.Focus`) enlarges one graph, the other
    kept as a thumbnail; ``fold`` (default: in the presenter theme) draws the define-then-run gradient nodes as one
    box until the backward pass, and ``Gradient nodes`` unfolds them. Both controls work with no kernel.

    >>> from course_lib import programs
    >>> SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    SideBySide(affine_sin: define-then-run steps=22, define-by-run steps=11)
    """

    def __init__(self, program: Callable[..., Any], inputs: dict[str, float] | None = None, *,
                 theme: str | render.Theme | None = None, interval: int = 900, backward: bool = True,
                 max_bytes: int = MAX_BYTES, fold: bool | None = None) -> None:
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
        fold = self.theme.fold_gradients if fold is None else bool(fold)
        heading = _("{name}: the same program, stepped both ways on one clock")
        self.focus = Focus(self._panes(problems, max_bytes, fold, heading.replace("{name}", self.name, 1)),
                           self.sizes)
        self.show_problems(problems)
        notes = list(dict.fromkeys(t.note for t in self.traces.values() if t.note))  # the same words for both
        if not self.shown:
            self.show_notes(notes)
        self.legend = W.HTML(render.legend_svg(self.theme))
        head = self.html(esc(heading).replace("{name}", f"<b>{esc(self.name)}</b>", 1), "heading")
        wrap = W.Layout(flex_flow="row wrap", align_items="center")
        # the clock's row, then the view's (one row in any language); the controls used least, the speed slider
        # and the fold (the backward pass unfolds by itself), go last: the graphs start higher
        self.children = [head, controls.main, W.HBox(self.focus.row, layout=wrap), self.message, self.focus.view,
                         announcer(), self.legend, W.HBox([controls.speed, *self._fold_control()], layout=wrap)]

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

    def _panes(self, problems: list[str], max_bytes: int, fold: bool, heading: str) -> list[Shown]:
        """A stepping pane per recorded trace (its title, graph and words in a column), the problem in its place
        for a style that could not run."""
        shown = []
        budget = max_bytes // max(1, len(self.traces))
        projector = self.theme.name == "presenter"  # the step's words on the screen, in two lines: see graph_room
        titles = {s: _((PROJECTOR_TITLES if projector else SHORT_TITLES)[s]) for s in tr.STYLES}
        room = graph_room(self.sizes, projector, heading, tuple(titles.values()))
        for style in tr.STYLES:
            if style in self.traces:
                pane = Pane(self.traces[style], steps=self.steps, theme=self.theme, max_bytes=budget,
                            label=titles[style], hint=_(SHORT_TITLES[style]) if projector else "",
                            max_height=fit_height(room), fold=fold, explain=not projector, speak_style=True)
                self.follow(pane)
                self.panes[style] = pane
                shown.append(Shown(tr.style_name(style), [pane.title, pane.picture, pane.text], pane.picture,
                                   pane.width))
            else:
                why = next((p for p in problems if p.startswith(tr.style_name(style) + ":")), style)
                box = W.HTML(f'<div style="font-size:{self.sizes.title}px;font-weight:bold">'
                             f"{esc(_(SHORT_TITLES[style]))}</div>" + message_html(why, "error", self.theme))
                shown.append(Shown(tr.style_name(style), [box], box))
        return shown

    def _fold_control(self) -> list[Any]:
        """The control that unfolds the define-then-run gradient nodes (none when no pane folds them): jslinked to
        each folding pane's picture in the browser, else drawn again through the kernel."""
        folding = [p for p in self.panes.values() if p.folded_frames is not None]
        if not folding:
            self.fold = None
            return []
        self.fold = W.ToggleButtons(options=[_(FOLDED), _(UNFOLDED)], index=0, tooltips=[_(t) for t in FOLD_TIPS],
                                    style={"button_width": "auto"})
        for pane in folding:
            if pane.in_browser:
                pane.links.append(W.jslink((self.fold, "index"), (pane.picture, "selected_index")))
        if not all(p.in_browser for p in folding):
            self.fold.observe(self._refold, "index")
        return [named(_(GRADIENT_NODES), self.sizes), self.fold]

    @guarded
    def _refold(self, change: Any) -> None:
        for pane in self.panes.values():
            if not pane.in_browser and pane.folded_frames is not None:
                pane.fold_index = change["new"]
                pane.show(self.step)

    def __repr__(self) -> str:
        parts = ", ".join(f"{k} steps={len(v)}" for k, v in self.traces.items()) or "no traces"
        return f"SideBySide({self.name}: {parts})"
