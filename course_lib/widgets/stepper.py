"""Stepping through a trace: the frames of each step (:class:`Pane`) and the :class:`Stepper`.

Every step is pre-rendered (one layout, then a restyle per step, see :mod:`course_lib.render`) into a ``Stack`` of
HTML frames that follows the step slider in the browser (the clock, its controls and links are
:mod:`course_lib.widgets.stepping`'s), so play and the slider work without a kernel, in an exported HTML page too.
Only very large traces (over ``max_bytes`` of frames) fall back to stepping through the kernel.
"""

from __future__ import annotations

import itertools
from typing import Any

from .. import render
from ..i18n import N_, number, say
from ..i18n import gettext as _
from ..trace import Trace
from .base import Sizes
from .base import ipywidgets as W
from .html import esc
from .sizing import fit_height
from .stepping import SteppingWidget

__all__ = ["MAX_BYTES", "PHASES", "STYLE_TITLES", "Pane", "Stepper", "frame_html", "graph_at", "source_html",
           "text_html"]

MAX_BYTES = 1_200_000  # frames of one widget kept in the page; above it, stepping goes through the kernel
# the words of these tables are message ids (English), translated where they are shown
STYLE_TITLES = {
    "define-then-run": N_("Define-then-run (TensorFlow 1 style): build the whole graph, then run it"),
    "define-by-run": N_("Define-by-run (PyTorch style): each line runs now and records its node"),
}
PHASES = {  # phase -> (badge words, explanation, background); words first, so the badge reads without colour
    "start": (N_("START"), N_("nothing has happened yet"), "#FFFFFF"),
    "build": (N_("BUILD"), N_("the graph is being defined: no values yet"), "#E4E4E4"),
    "run": (N_("RUN"), N_("values flow through the graph"), "#F7D58E"),
    "backward": (N_("BACKWARD"), N_("gradients flow back from the output"), "#F5CDB3"),
}
_ids = itertools.count(1)  # one DOM id prefix per pane: SVG element ids must not collide on one page


def source_html(source: list[str], line: int | None, theme: render.Theme) -> str:
    """The program with the line being executed marked ``▶`` and highlighted (the mark reads without colour).

    Long lines wrap inside the box, indented under their line number: the box never widens its pane and no line
    is cut off (a clipped "y = ops.sin(z" hides what runs)."""
    if not source:
        return ""
    rows = []
    for k, text in enumerate(source, start=1):
        on = k == line
        style = "background:#F7D58E;font-weight:bold;" if on else ""
        rows.append(f'<div style="{style}padding:0 6px 0 5.5ch;text-indent:-5ch">{"▶" if on else "&nbsp;"} {k:>2} '
                    f'{esc(text) or "&nbsp;"}</div>')
    return (f'<div style="font-family:monospace;font-size:{Sizes.of(theme).mono}px;line-height:1.3;'
            f"white-space:pre-wrap;overflow-wrap:anywhere;box-sizing:border-box;border:1px solid #CCC;"
            f'border-radius:4px;margin:4px 0;padding:2px 0">{"".join(rows)}</div>')


def text_html(tr: Trace, step: int, theme: render.Theme, *, source: bool = True) -> str:
    """One step in words: phase badge, step counter, the event, the source line (and at step 0, what the faded
    graph means)."""
    word, why, bg = PHASES.get(tr.phase_at(step), (tr.phase_at(step).upper(), "", "#FFFFFF"))
    word, why = _(word), _(why) if why else ""
    event = tr.event_at(step)
    said = event.said() if event else _("press ▶ Play or Next, or move the step slider")
    size = Sizes.of(theme).ui
    counter = _("step {k} of {n}").format(k=number(step), n=number(len(tr)))
    head = (f'<div style="display:flex;flex-wrap:wrap;column-gap:8px;align-items:baseline;font-size:{size}px">'
            f'<span style="background:{bg};border:2px solid #333;border-radius:4px;padding:0 6px;font-weight:bold">'
            f"{esc(word)}</span><b>{esc(counter)}</b><span>{esc(why)}</span></div>"
            f'<div style="font-size:{size}px;margin:2px 0;min-height:2.6em"><b>{esc(said)}</b></div>')
    src = source_html(list(tr.source), event.line if event else None, theme) if source and tr.has_lines else ""
    ghost = ""
    if step == 0 and len(tr) > 0:
        faded = _("Faded: where the graph will appear, box by box, as you step. Nothing exists yet.")
        ghost = f'<div style="font-size:{size}px;color:#555;margin:2px 0">{esc(faded)}</div>'
    return head + ghost + src


def frame_html(tr: Trace, frames: render.Frames, step: int, theme: render.Theme, min_height: int = 0) -> str:
    """One step as HTML: the words of :func:`text_html`, then the graph."""
    return (f'<div style="min-height:{min_height}px">{text_html(tr, step, theme)}'
            f"{graph_at(tr, frames, step, theme)}</div>")


def graph_at(tr: Trace, frames: render.Frames, step: int, theme: render.Theme) -> str:
    """The graph of one step. Before the first event nothing exists yet, so instead of a blank area step 0 shows
    where the graph will be: every box at its place, faded and without values (:func:`text_html` says so)."""
    if step > 0 or len(tr) == 0 or not frames.layout.ok:
        return frames.svg(step)
    ghost = frames.layout.svg("defined", {}, {}, svg_id=f"{frames.layout.prefix}-ghost", max_height=frames.max_height)
    return f'<div class="course-ghost" style="opacity:0.3">{ghost}</div>'


class Pane:
    """The frames of one trace, switched by a step slider: in the browser (Stacks) or through the kernel.

    Two views follow the slider: ``text`` (the step in words and the source) and ``graph`` (the drawing), so a
    widget can put them side by side or one above the other. ``steps``: the length of the shared clock (a shorter
    trace keeps showing its last frame). ``max_height``: CSS height the graph scales down to (see ``fit_height``).
    """

    def __init__(self, tr: Trace, *, steps: int, theme: render.Theme, max_bytes: int, label: str = "",
                 max_height: str | None = None, source: bool = True) -> None:
        self.trace, self.theme, self.source = tr, theme, source
        self.frames = render.Frames(tr, theme=theme, prefix=f"cw{next(_ids)}", max_height=max_height)
        self.title = W.HTML(f'<div style="font-size:{Sizes.of(theme).title}px;font-weight:bold">{esc(label)}</div>'
                            if label else "")
        self._cache: dict[int, tuple[str, str]] = {}
        self.in_browser = False
        # pre-render while the total stays small; an estimate from the last frame (the biggest) decides
        self.in_browser = len(self.html(len(tr))) * (steps + 1) <= max_bytes
        src_lines = len(tr.source) if source and tr.has_lines else 0
        sz = Sizes.of(theme)  # room for the longest words (badge, two lines of event) and the listing: no jumps
        text_layout = W.Layout(min_height=f"{int(5 * sz.ui * 1.25 + src_lines * 1.3 * sz.mono)}px", width="100%")
        if self.in_browser:
            texts = [W.HTML(self.parts(k)[0], layout=text_layout) for k in range(len(tr) + 1)]
            graphs = [W.HTML(self.parts(k)[1]) for k in range(len(tr) + 1)]
            # a shorter trace keeps showing its last frame while the other side goes on: same widget reused
            texts += [texts[-1]] * (steps - len(tr))
            graphs += [graphs[-1]] * (steps - len(tr))
            self.text: Any = W.Stack(texts, selected_index=0, layout=W.Layout(width="100%"))
            self.graph: Any = W.Stack(graphs, selected_index=0, layout=W.Layout(width="100%", min_width="0"))
        else:
            self.text = W.HTML(self.parts(0)[0], layout=text_layout)
            self.graph = W.HTML(self.parts(0)[1], layout=W.Layout(width="100%", min_width="0"))
        self.width = self.frames.layout.width if self.frames.layout.ok else None  # natural width, pt
        self.links: list[Any] = []  # the browser-side links to a slider (SteppingWidget.follow), kept while it lives

    def parts(self, step: int) -> tuple[str, str]:
        """(words, graph) HTML of one step (brought into 0..len)."""
        step = min(max(step, 0), len(self.trace))
        out = self._cache.get(step)
        if out is None:
            out = (text_html(self.trace, step, self.theme, source=self.source),
                   graph_at(self.trace, self.frames, step, self.theme))
            if self.in_browser:
                self._cache[step] = out
        return out

    def html(self, step: int) -> str:
        """The HTML of one step, words then graph (what a test or a saved picture wants in one piece)."""
        text, graph = self.parts(step)
        return f"<div>{text}{graph}</div>"


NOT_A_TRACE = N_("Stepper needs a trace: trace.record(program, style, inputs); got a value of type {type}.")
NO_EVENTS = N_("This trace has no events: the program defined and ran nothing, so there is nothing to step through.")
LARGE_TRACE = N_("This trace is large, so stepping goes through the running kernel (it will not animate in an "
                 "exported page).")


class Stepper(SteppingWidget):
    """Step through one trace: play/pause, previous/next, a step slider, the phase, the event in words, the line.

    >>> from course_lib import trace, programs
    >>> s = Stepper(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}))
    >>> s
    Stepper(define-by-run, steps=11)
    >>> s.go(3); s.step
    3
    """

    def __init__(self, trace: Any, *, theme: str | render.Theme | None = None, interval: int = 900,
                 max_bytes: int = MAX_BYTES, title: str | None = None) -> None:
        super().__init__(theme=theme)
        self.trace = trace
        if not isinstance(trace, Trace):
            self.children = [self.message]
            self.show_error(say(NOT_A_TRACE, type=type(trace).__name__))
            return
        controls = self.start_clock(len(trace), interval)
        # the words and the controls in a column on the left, the graph beside them from the widget's top down:
        # on a 1280x720 projector the Next button and the whole graph are on the screen together
        self.pane = Pane(trace, steps=self.steps, theme=self.theme, max_bytes=max_bytes, max_height=fit_height(0),
                         label=title if title is not None else _(STYLE_TITLES.get(trace.style, trace.style)))
        self.follow(self.pane)
        self.legend = W.HTML(render.legend_svg(self.theme), layout=W.Layout(width="100%"))
        notes = [say(NO_EVENTS)] if self.steps == 0 else [] if self.pane.in_browser else [say(LARGE_TRACE)]
        notes += [trace.note] if trace.note else []
        if not self.clock_problem:  # a wrong argument is said first, never hidden by a note
            self.show_notes(notes)
        left = W.VBox([self.pane.title, controls.main, self.message, self.pane.text, controls.speed],
                      layout=W.Layout(flex="0 1 40%", min_width="min(100%, 300px)"))
        self.pane.graph.layout.flex = "1 1 0%"
        self.children = [W.HBox([left, self.pane.graph], layout=W.Layout(width="100%", flex_flow="row wrap",
                                                                         align_items="flex-start")), self.legend]

    def __repr__(self) -> str:
        style = getattr(self.trace, "style", "no trace")
        return f"Stepper({style}, steps={self.steps})"  # name=value: no plural to agree

    def frame_html(self, step: int) -> str:
        """The HTML of one step (what the stack shows), for tests and for saving a step as a picture."""
        return self.pane.html(step)
