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
from ..static.autodiff import SCOPE as GRADIENT_SCOPE
from ..trace import Trace, style_name
from .base import Sizes
from .base import ipywidgets as W
from .html import esc
from .sizing import FILL, fit_height
from .speech import announcer, said_html
from .stepping import SteppingWidget

__all__ = ["GRADIENT_SCOPE", "MAX_BYTES", "PHASES", "STYLE_TITLES", "Pane", "Stepper", "foldable", "frame_html",
           "graph_at", "graph_flex", "source_html", "text_html", "unfold_step"]

WORDS_PX = 310  # the least a stepper's words column gets beside its graph (its buttons in a row at 21 px)
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
        style = "background:#F7D58E;font-weight:bold;color:#111;" if on else ""  # dark words on any JupyterLab theme
        rows.append(f'<div style="{style}padding:0 6px 0 5.5ch;text-indent:-5ch">{"▶" if on else "&nbsp;"} {k:>2} '
                    f'{esc(text) or "&nbsp;"}</div>')
    return (f'<div style="font-family:monospace;font-size:{Sizes.of(theme).mono}px;line-height:1.3;'
            f"white-space:pre-wrap;overflow-wrap:anywhere;box-sizing:border-box;border:1px solid #CCC;"
            f'border-radius:4px;margin:4px 0;padding:2px 0">{"".join(rows)}</div>')


def text_html(tr: Trace, step: int, theme: render.Theme, *, source: bool = True, explain: bool = True,
              style: bool = False) -> str:
    """One step in words: phase badge, step counter, the event, the source line (and at step 0, what the faded
    graph means). ``explain=False``: what the phase means only as the badge's tooltip, so the badge, the counter
    and the event take two lines of a narrow pane, not four. The step is also one hidden sentence for the
    widget's live region (:func:`~course_lib.widgets.speech.said_html`), naming the style when ``style`` (side by
    side, where two panes speak)."""
    word, why, bg = PHASES.get(tr.phase_at(step), (tr.phase_at(step).upper(), "", "#FFFFFF"))
    word, why = _(word), _(why) if why else ""
    event = tr.event_at(step)
    said = event.said() if event else _("press ▶ Play or Next, or move the step slider")
    size = Sizes.of(theme).ui
    counter = _("step {k} of {n}").format(k=number(step), n=number(len(tr)))
    head = (said_html(style_name(tr.style) if style else "", word, counter, said)
            + f'<div style="display:flex;flex-wrap:wrap;column-gap:8px;align-items:baseline;font-size:{size}px">'
            f'<span title="{esc(why)}" style="background:{bg};color:#111;border:2px solid #333;border-radius:4px;'
            f'padding:0 6px;font-weight:bold">{esc(word)}</span><b>{esc(counter)}</b>'
            f'{f"<span>{esc(why)}</span>" if explain else ""}'
            "</div>"
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
    where the graph will be: every box at its place, its shapes faded and its names readable, without values
    (:func:`text_html` says so)."""
    if step > 0 or len(tr) == 0 or not frames.layout.ok:
        return frames.svg(step)
    title = _("{style}, faded: where the graph will appear").format(style=style_name(tr.style))
    ghost = frames.layout.svg("defined", {}, {}, svg_id=f"{frames.layout.prefix}-ghost", max_height=frames.max_height,
                              title=title, step=(0, len(tr)))
    return f'<div class="course-ghost">{render.faded(ghost, theme)}</div>'


def foldable(tr: Trace) -> bool:
    """Whether a trace's gradient nodes can be drawn as one folded box: two or more, all in :data:`GRADIENT_SCOPE`
    (a define-then-run trace with a backward pass; define-by-run gradients are values on the nodes, not nodes).

    >>> from course_lib import trace, programs
    >>> [foldable(trace.record(programs.affine_sin, s, {"x": 3.0, "w": 2.0})) for s in trace.STYLES]
    [True, False]
    """
    grads = [n for n in tr.graph.nodes if n.gradient]
    return len(grads) >= 2 and all(n.scope.split("/", 1)[0] == GRADIENT_SCOPE for n in grads)


def unfold_step(tr: Trace) -> int:
    """The first step of the backward phase (``len(tr) + 1`` when there is none): from there on a folded pane
    shows the gradient nodes, since they are what the step is about.

    >>> from course_lib import trace, programs
    >>> unfold_step(trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0}))
    19
    """
    return next((k for k in range(1, len(tr) + 1) if tr.phase_at(k) == "backward"), len(tr) + 1)


class Pane:
    """The frames of one trace, switched by a step slider: in the browser (Stacks) or through the kernel.

    Two views follow the slider: ``text`` (the step in words and the source) and ``graph`` (the drawing), so a
    widget can put them side by side or one above the other. ``steps``: the length of the shared clock (a shorter
    trace keeps showing its last frame). ``max_height``: CSS height the graph scales down to (see ``fit_height``).

    ``fold=True`` (a :func:`foldable` trace only) also draws the steps before the backward pass with the gradient
    nodes folded into one box (``collapse="gradients"``: a smaller graph, so a larger scale on the screen): then
    ``picture`` is a Stack of two views, ``folded`` (index 0, the gradient nodes shown again from
    :func:`unfold_step` on: the same frame widgets as ``graph``) and ``graph`` (index 1), for a fold control to
    switch; without folding ``picture`` is ``graph``. Put ``picture`` on the page. ``explain``: see
    :func:`text_html`; ``hint``: the title's tooltip; ``speak_style``: the step's hidden sentence names the style
    (see :func:`text_html`).
    """

    def __init__(self, tr: Trace, *, steps: int, theme: render.Theme, max_bytes: int, label: str = "",
                 max_height: str | None = None, source: bool = True, fold: bool = False, explain: bool = True,
                 hint: str = "", speak_style: bool = False) -> None:
        self.trace, self.theme, self.source, self.explain = tr, theme, source, explain
        self.speak_style = speak_style
        prefix = f"cw{next(_ids)}"
        self.frames = render.Frames(tr, theme=theme, prefix=prefix, max_height=max_height)
        fold = fold and foldable(tr)
        self.folded_frames = render.Frames(tr, theme=theme, prefix=f"{prefix}f", max_height=max_height,
                                           collapse=GRADIENT_SCOPE) if fold else None
        self.unfold_at = unfold_step(tr)
        self.fold_index = 0 if fold else 1  # through the kernel: which of folded (0) / shown (1) a step draws
        tip = f' title="{esc(hint)}"' if hint else ""
        self.title = W.HTML(f'<div{tip} style="font-size:{Sizes.of(theme).title}px;font-weight:bold">{esc(label)}</div>'
                            if label else "")
        self._cache: dict[tuple[int, bool], tuple[str, str]] = {}
        self.in_browser = False
        # pre-render while the total stays small; an estimate from the last frame (the biggest) decides
        n_frames = (steps + 1) + (min(self.unfold_at, len(tr) + 1) if fold else 0)
        self.in_browser = len(self.html(len(tr))) * n_frames <= max_bytes
        src_lines = len(tr.source) if source and tr.has_lines else 0
        sz = Sizes.of(theme)  # room for the longest words (badge, two lines of event) and the listing: no jumps
        text_height = f"{int(5 * sz.ui * 1.25 + src_lines * 1.3 * sz.mono)}px"
        self.folded: Any = None
        if self.in_browser:
            # a frame fills its Stack's row (flex, never width:100%: with ipywidgets' 2 px margins that overflowed
            # the Stack by 4 px, which then showed a scrollbar of its own); one layout and one style for all the
            # frames of a view (the first frame's): each is a model saved with the notebook
            text_layout, graph_layout = W.Layout(min_height=text_height, **FILL), W.Layout(**FILL)
            first = W.HTML(self.parts(0)[0], layout=text_layout)
            texts = [first] + [W.HTML(self.parts(k)[0], layout=text_layout, style=first.style)
                               for k in range(1, len(tr) + 1)]
            graphs = [W.HTML(self.parts(k)[1], layout=graph_layout, style=first.style) for k in range(len(tr) + 1)]
            # a shorter trace keeps showing its last frame while the other side goes on: same widget reused
            texts += [texts[-1]] * (steps - len(tr))
            graphs += [graphs[-1]] * (steps - len(tr))
            self.text: Any = W.Stack(texts, selected_index=0)
            self.graph: Any = W.Stack(graphs, selected_index=0, layout=W.Layout(min_width="0"))
            if fold:  # the backward steps are the unfolded frames themselves: no copy in the page
                folded = [W.HTML(self.parts(k, folded=True)[1], layout=graph_layout, style=first.style)
                          for k in range(min(self.unfold_at, len(graphs)))]
                self.folded = W.Stack(folded + graphs[len(folded):], selected_index=0,
                                      layout=W.Layout(min_width="0"))
        else:
            self.text = W.HTML(self.parts(0)[0], layout=W.Layout(min_height=text_height))
            self.graph = W.HTML(self.parts(0, folded=fold)[1], layout=W.Layout(min_width="0"))
        self.picture: Any = self.graph
        if self.folded is not None:
            self.picture = W.Stack([self.folded, self.graph], selected_index=0, layout=W.Layout(min_width="0"))
        # its natural width, pt: the widest it is drawn (unfolded, at the backward pass), so that side by side the
        # unfolded graph is not squeezed into the folded one's share (19.7 px at 1280x720, 22.7 with this)
        widths = [f.layout.width for f in (self.frames, self.folded_frames) if f is not None and f.layout.ok]
        self.width = max(widths) if widths else None
        self.links: list[Any] = []  # the browser-side links to a slider (SteppingWidget.follow), kept while it lives

    @property
    def stepped(self) -> list[Any]:
        """The views whose ``selected_index`` follows the step slider in the browser."""
        return [v for v in (self.text, self.graph, self.folded) if v is not None]

    def parts(self, step: int, folded: bool = False) -> tuple[str, str]:
        """(words, graph) HTML of one step (brought into 0..len); ``folded``: with the gradient nodes folded, when
        this pane folds them and the step is before the backward pass."""
        step = min(max(step, 0), len(self.trace))
        folded = folded and self.folded_frames is not None and step < self.unfold_at
        out = self._cache.get((step, folded))
        if out is None:
            frames = self.folded_frames if folded else self.frames
            out = (text_html(self.trace, step, self.theme, source=self.source, explain=self.explain,
                             style=self.speak_style),
                   graph_at(self.trace, frames, step, self.theme))
            if self.in_browser:
                self._cache[(step, folded)] = out
        return out

    def show(self, step: int) -> None:
        """Through the kernel (frames not in the page): draw ``step``, folded as ``fold_index`` says."""
        self.text.value, self.graph.value = self.parts(step, folded=self.fold_index == 0)

    def html(self, step: int) -> str:
        """The HTML of one step, words then graph (what a test or a saved picture wants in one piece)."""
        text, graph = self.parts(step)
        return f"<div>{text}{graph}</div>"


def graph_flex(width_pt: float | None, words_px: int = WORDS_PX) -> str:
    """The CSS flex of a graph beside its words: its natural width in px as the basis, at most what the row leaves
    the words (``words_px``), never less than 300 px: the row wraps (the graph under the words) only on a screen
    too narrow for both. It may shrink, never grow.

    >>> graph_flex(300)
    '0 1 min(400px, max(300px, 100% - 310px))'
    """
    if not width_pt:
        return "1 1 0%"
    return f"0 1 min({round(width_pt * 4 / 3)}px, max(300px, 100% - {words_px}px))"


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
        self.legend = W.HTML(render.legend_svg(self.theme))  # a column stretches it: no width (see sizing.FILL)
        notes = [say(NO_EVENTS)] if self.steps == 0 else [] if self.pane.in_browser else [say(LARGE_TRACE)]
        notes += [trace.note] if trace.note else []
        if not self.clock_problem:  # a wrong argument is said first, never hidden by a note
            self.show_notes(notes)
        # the graph asks for its natural width, the words take the rest (at least 300 px, else the graph wraps
        # under them): a wide define-then-run graph got 60 % of the row and was drawn at 0.77 of its size
        left = W.VBox([self.pane.title, controls.main, self.message, self.pane.text, controls.speed],
                      layout=W.Layout(flex=f"1 1 {WORDS_PX - 10}px", min_width=f"min(100%, {WORDS_PX - 10}px)"))
        self.pane.graph.layout.flex = graph_flex(self.pane.width)
        self.children = [W.HBox([left, self.pane.graph], layout=W.Layout(width="100%", flex_flow="row wrap",
                                                                         align_items="flex-start")), announcer(),
                         self.legend]

    def __repr__(self) -> str:
        style = getattr(self.trace, "style", "no trace")
        return f"Stepper({style}, steps={self.steps})"  # name=value: no plural to agree

    def frame_html(self, step: int) -> str:
        """The HTML of one step (what the stack shows), for tests and for saving a step as a picture."""
        return self.pane.html(step)
