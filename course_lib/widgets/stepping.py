"""The clock of a stepping widget: Play, Previous, Next, the step slider and the pause between steps, and what a
step outside the trace does. :class:`Stepper` (one trace) and :class:`SideBySide` (two traces on one clock) are
both a :class:`SteppingWidget`.

Stepping runs in the browser: ``Play`` drives the step slider through a ``jslink``, and each view that follows
the clock (a :class:`course_lib.widgets.stepper.Pane`: a ``Stack`` of pre-rendered frames) is jslinked to the
slider too, so Play and the slider work without a kernel, in an exported HTML page as well. Previous and Next are
buttons: they need the kernel (the static site greys them). A view too large to pre-render follows the slider
through the kernel instead.

A step asked for from code (:meth:`SteppingWidget.go`) is read as a whole number by the widgets' one number reader
(:func:`course_lib.widgets.inputs.read_number`) and brought into ``0..steps``; a step that does not exist is said
in the message box, and the note goes away once the clock is on a real step, giving back what the box said before (a
widget's own problem, such as the define-then-run ``if`` lesson, stays). Something that is not a whole number (text,
None, NaN, 2.5) is refused in the same box and the clock stays (2.5: step 2, said so).

The pause between steps (``interval=``, in ms) is read by the same reader, in the speed slider's range
(:data:`SPEED_MIN` to :data:`SPEED_MAX`): Play and the speed slider, jslinked, always hold the same number (a value
out of the range would be clipped by the slider in the browser while the kernel kept the other one).
"""

from __future__ import annotations

from typing import Any

from .. import render
from ..i18n import N_, say
from ..i18n import gettext as _
from .base import CourseWidget, Sizes, guarded
from .base import ipywidgets as W
from .inputs import out_of_range, read_number, shown

__all__ = ["INTERVAL", "NO_SUCH_STEP", "OFF_STEP", "SPEED_MAX", "SPEED_MIN", "SPEED_STEP", "Controls", "SteppingWidget",
           "read_interval"]

NO_SUCH_STEP = N_("There are steps 0 to {n}; step {k} does not exist, so this shows step {shown}.")

#: the speed slider's range and step (ms per step): Play's interval is read within it, on a step of the slider
SPEED_MIN, SPEED_MAX, SPEED_STEP = 200, 3000, 100
INTERVAL = 900  # the default pause between steps
OFF_STEP = N_("interval={shown} is not a multiple of {step} ms, the steps of the speed slider: the widget uses "
              "{used} (pass one of {low}, {next}, ... {high}).")


def read_interval(interval: Any) -> tuple[int, str]:
    """The pause between steps (ms) as the speed slider can hold it: ``(interval, problem)``. Read by the one
    number reader in ``SPEED_MIN..SPEED_MAX``, then put on the slider's nearest step: a slider shows only its steps,
    and Play, jslinked to it, must run at the pause the slider shows.

    >>> read_interval(900), read_interval(0)[0], read_interval("fast")[0], read_interval(1234)[0]
    ((900, ''), 200, 900, 1200)
    """
    got, problem = read_number(interval, "interval", INTERVAL, whole=True, low=SPEED_MIN, high=SPEED_MAX)
    on_step = SPEED_MIN + (got - SPEED_MIN + SPEED_STEP // 2) // SPEED_STEP * SPEED_STEP  # half a step: up
    if on_step != got:  # a number in the range (the ends and the default are steps): this says what is used
        problem = say(OFF_STEP, shown=shown(interval), step=SPEED_STEP, used=on_step, low=SPEED_MIN,
                      next=SPEED_MIN + SPEED_STEP, high=SPEED_MAX)
    return on_step, problem


class Controls:
    """Play/pause, previous/next, a step slider and the pause between steps, all labelled in words."""

    def __init__(self, steps: int, theme: render.Theme, interval: int = INTERVAL) -> None:
        interval = read_interval(interval)[0]  # the widget says the problem (start_clock)
        big = W.Layout(height="40px", width="auto")  # as wide as its words: Next stays on the row of Previous
        bstyle = {"font_size": f"{Sizes.of(theme).ui}px"}
        self.play = W.Play(value=0, min=0, max=max(steps, 0), step=1, interval=interval, show_repeat=False,
                           description=_("Play"), tooltip=_("Play / pause the steps"), layout=W.Layout(height="40px"))
        self.slider = W.IntSlider(value=0, min=0, max=max(steps, 0), step=1, description=_("Step"),
                                  tooltip=_("the step shown: drag it, or use the arrow keys"),
                                  continuous_update=True, readout=True,
                                  layout=W.Layout(width="min(100%, 340px)", height="40px"),
                                  style={"description_width": "3.5em"})
        self.prev = W.Button(description=_("◀ Previous"), tooltip=_("one step back"), layout=big, style=bstyle)
        self.next = W.Button(description=_("Next ▶"), tooltip=_("one step forward"), layout=big, style=bstyle)
        self.speed = W.IntSlider(value=interval, min=SPEED_MIN, max=SPEED_MAX, step=SPEED_STEP,
                                 description=_("ms per step"), tooltip=_("the pause between two steps while playing"),
                                 layout=W.Layout(width="min(100%, 300px)", height="40px"),
                                 style={"description_width": "initial"})  # its words, in any language
        self.links = [W.jslink((self.play, "value"), (self.slider, "value")),  # in the browser: no kernel needed
                      W.jslink((self.speed, "value"), (self.play, "interval"))]
        if steps <= 0:
            for w in (self.play, self.slider, self.prev, self.next):
                w.disabled = True
        wrap = W.Layout(flex_flow="row wrap", align_items="center")
        self.box = W.HBox([self.play, self.prev, self.next, self.slider, self.speed], layout=wrap)
        # without the speed slider (a widget with little room puts it last: it is the control used least)
        self.main = W.HBox([self.play, self.prev, self.next, self.slider], layout=wrap)


class SteppingWidget(CourseWidget):
    """A course widget with one clock: ``steps`` + 1 positions (0 = before the first event), the controls that
    move it, the views that follow it.

    A subclass calls :meth:`start_clock` once it knows how many steps there are, hands each view to
    :meth:`follow`, and puts ``self.controls.main`` (and ``self.controls.speed``) among its children. Until then
    (a widget given something it cannot step through) the clock does not exist: :attr:`step` is 0 and
    :meth:`go` does nothing.
    """

    controls: Controls | None = None
    steps: int = 0  # the last step (the length of the longest trace)
    #: what the message box said before a step note (its HTML, its messages) and the note: given back after it
    _before_note: tuple[str, list[str], str] | None = None
    clock_problem: str = ""  # what was wrong with ``interval`` (said with the widget's other argument problems)

    def start_clock(self, steps: int, interval: int = INTERVAL) -> Controls:
        """Build the controls for ``steps`` steps; Previous and Next move the clock one step. A wrong ``interval``
        is said in the message box (and kept among the problems :meth:`show_problems` shows)."""
        self.steps = steps
        interval, self.clock_problem = read_interval(interval)
        self.controls = Controls(steps, self.theme, interval)
        self.show_problems([])
        self.controls.prev.on_click(lambda _b: self._move(-1))
        self.controls.next.on_click(lambda _b: self._move(+1))
        return self.controls

    def follow(self, pane: Any) -> None:
        """Make ``pane`` (its ``stepped`` views: words, graph, folded graph) follow the step slider: in the browser
        (jslink) when its frames are in the page, else through the kernel. The links are kept on the pane, as long
        as it lives."""
        slider = self.controls.slider  # type: ignore[union-attr]
        if pane.in_browser:
            pane.links += [W.jslink((slider, "value"), (view, "selected_index")) for view in pane.stepped]
        else:
            slider.observe(lambda change: pane.show(change["new"]), "value")

    def show_problems(self, problems: list[str]) -> None:
        """The widget's argument problems, the interval's first (a subclass says its own after start_clock)."""
        super().show_problems([self.clock_problem, *problems])

    @property
    def step(self) -> int:
        """The step shown (0 = before the first event)."""
        return self.controls.slider.value if self.controls is not None else 0

    @guarded
    def go(self, step: int) -> None:
        """Show a step; a step outside ``0..steps`` is brought back into range, with a note that says so; what is
        not a whole number is refused (the clock stays), a fraction is rounded down, both said as problems."""
        if self.controls is None:
            return
        k, problem = read_number(step, "step", self.step, whole=True, low=0, high=self.steps)
        if problem and out_of_range(step, 0, self.steps):  # a number, but no such step: a note, as a slider clips
            self._set_step(k, say(NO_SUCH_STEP, n=self.steps, k=shown(step), shown=k))
        elif problem:
            self._step_note(problem, "error")
            self.controls.slider.value = k
        else:
            self._set_step(k)

    @guarded
    def _move(self, delta: int) -> None:
        self._set_step(min(max(self.controls.slider.value + delta, 0), self.steps))  # type: ignore[union-attr]

    def _set_step(self, k: int, note: str = "") -> None:
        """Move the clock to step ``k`` (in range): with ``note`` said, or else with the box as it was before the
        last step note."""
        if note:
            self._step_note(note, "note")
        elif self._before_note is not None:
            value, shown, said = self._before_note
            if self.shown == [said]:  # still the step note (not a message said since): give the box back
                self.message.value, self.shown = value, shown
            self._before_note = None
        self.controls.slider.value = k  # type: ignore[union-attr]

    def _step_note(self, text: str, kind: str) -> None:
        """Say something about the step asked for, keeping what the box said before (given back by _set_step)."""
        value, shown = (self.message.value, list(self.shown)) if self._before_note is None else self._before_note[:2]
        self._before_note = (value, shown, text)
        self.show_message(text, kind)
