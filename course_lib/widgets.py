"""The live widgets of the course: watch define-then-run and define-by-run happen, step by step.

Each is one short notebook cell and displays itself::

    from course_lib import widgets, programs, trace
    widgets.Stepper(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}))
    widgets.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    widgets.ExpressionExplorer("sin(x*w + 1)")
    widgets.ControlFlowExplorer(programs.branch_with_cond)

Why they are built the way they are:

* **Stepping runs in the browser.** Every step is pre-rendered (one layout, then a restyle per step, see
  :mod:`course_lib.render`) into a ``Stack`` of HTML frames; ``Play`` -> step slider -> ``Stack.selected_index``
  are joined with ``jslink``, so play and the slider work without a kernel, in an exported HTML page too.
  Only very large traces (over ``max_bytes`` of frames) fall back to stepping through the kernel.
* **Nothing typed is executed.** Expressions go through :func:`course_lib.expr.parse` (a whitelist), never eval.
* **Errors are shown, never lost.** JupyterLab hides exceptions raised in widget callbacks, so every callback is
  wrapped and its error is shown inline in words; the widget keeps working.
* **Short text repr.** nbval compares a widget's ``text/plain``; ours is one stable line, not a page of SVG.
* **Projector friendly.** Big buttons, labels in words, frames with a fixed minimum height so the page does not
  jump; ``render.set_theme("presenter")`` before creating a widget makes everything larger.
"""

from __future__ import annotations

import functools
import html
import inspect
import itertools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

try:  # ipywidgets is a course dependency, but importing course_lib must not need it
    import ipywidgets as W
except ImportError as _exc:  # pragma: no cover - reported when a widget is created
    W = None
    _IMPORT_ERROR: Exception | None = _exc
else:
    _IMPORT_ERROR = None

from . import render
from .graph import short_value

__all__ = ["MAX_BYTES", "ControlFlowExplorer", "ExpressionExplorer", "SideBySide", "Stepper"]

MAX_BYTES = 1_200_000  # frames of one widget kept in the page; above it, stepping goes through the kernel
STYLE_TITLES = {
    "define-then-run": "Define-then-run (TensorFlow 1 style): build the whole graph, then run it",
    "define-by-run": "Define-by-run (PyTorch style): each line runs now and records its node",
}
SHORT_TITLES = {  # side by side, where half a line is all there is
    "define-then-run": "Define-then-run (TensorFlow 1): build, then run",
    "define-by-run": "Define-by-run (PyTorch): run as you build",
}
PHASES = {  # phase -> (badge words, explanation, background); words first, so the badge reads without colour
    "start": ("START", "nothing has happened yet", "#FFFFFF"),
    "build": ("BUILD", "the graph is being defined: no values yet", "#E4E4E4"),
    "run": ("RUN", "values flow through the graph", "#F7D58E"),
    "backward": ("BACKWARD", "gradients flow back from the output", "#F5CDB3"),
}
_ids = itertools.count(1)


def _need_widgets() -> None:
    if W is None:
        raise ImportError(f"the course widgets need ipywidgets 8: pip install 'ipywidgets>=8' ({_IMPORT_ERROR})")


def _esc(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _ui_font(theme: render.Theme) -> int:
    """Pixel size of the words around the graphs: larger with the presenter theme."""
    return 20 if theme.fontsize >= 18 else 15


def _message_html(text: str, kind: str = "error", theme: render.Theme | None = None) -> str:
    """An inline message; the leading word says what it is (error / note), so colour is only a help."""
    t = theme or render.get_theme()
    colour, word, bg = {"error": ("#A23B00", "Problem", "#FBE3D6"), "note": ("#114B6E", "Note", "#E3F1FA")}[kind]
    return (f'<div role="status" style="font-size:{_ui_font(t)}px;color:{colour};background:{bg};'
            f'border-left:5px solid {colour};padding:6px 10px;margin:4px 0;white-space:pre-wrap">'
            f"<b>{word}:</b> {_esc(text)}</div>")


def _guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a widget callback; show any exception inline in the widget (JupyterLab would swallow it)."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - shown to the student instead of vanishing
            self._show_error(f"{type(exc).__name__}: {exc}")
            return None

    return wrapper


def _quiet(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call with numpy's overflow/division warnings silenced: inf and nan are shown in the graph instead."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _final_state(tr: Any) -> dict[int, Any]:
    """The state after the last event, with nothing left "running" (a finished picture).

    Computed in one pass over the events: ``Trace.state`` snapshots every step (quadratic), which an explorer
    redrawing a 900-node graph on every slider move cannot afford (9 s measured, against milliseconds here).
    """
    from .trace import NodeState

    values: dict[int, Any] = {}
    grads: dict[int, Any] = {}
    seen: set[int] = set()
    for e in tr.events:
        if e.node_id is None:
            continue
        seen.add(e.node_id)
        if e.kind == "run":
            values[e.node_id] = e.value
        elif e.kind == "backward":
            grads[e.node_id] = e.value
    hidden = NodeState("hidden", None, None)
    return {n.id: (NodeState("done" if n.id in values else "defined", values.get(n.id), grads.get(n.id))
                   if n.id in seen else hidden) for n in tr.graph.nodes}


def _is_trace(obj: Any) -> bool:
    return all(hasattr(obj, a) for a in ("graph", "events", "state", "style")) and hasattr(obj, "__len__")


def _input_names(program: Callable[..., Any]) -> list[str]:
    if hasattr(program, "variables"):
        return list(program.variables)
    params = list(inspect.signature(program).parameters.values())
    return [p.name for p in params[1:] if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


# ---------------------------------------------------------------------------------------------------- frames
def _source_html(source: list[str], line: int | None, theme: render.Theme) -> str:
    """The program with the line being executed marked ``▶`` and highlighted (the mark reads without colour)."""
    if not source:
        return ""
    size = _ui_font(theme) - 1
    rows = []
    for k, text in enumerate(source, start=1):
        on = k == line
        style = "background:#F7D58E;font-weight:bold;" if on else ""
        rows.append(f'<div style="{style}padding:0 6px">{"▶" if on else "&nbsp;"} {k:>2} {_esc(text) or "&nbsp;"}</div>')
    # width:0 + min-width:100%: the listing fills its pane but never widens it (long lines scroll inside)
    return (f'<div style="font-family:monospace;font-size:{size}px;line-height:1.35;white-space:pre;overflow-x:auto;'
            f"width:0;min-width:100%;box-sizing:border-box;border:1px solid #CCC;border-radius:4px;margin:4px 0;"
            f'padding:2px 0">{"".join(rows)}</div>')


def _frame_html(tr: Any, frames: render.Frames, step: int, theme: render.Theme, min_height: int) -> str:
    """One step as HTML: phase badge, step counter, the event in words, the source line, the graph."""
    n = len(tr)
    phase = tr.events[step - 1].phase if step > 0 else "start"
    word, why, bg = PHASES.get(phase, (phase.upper(), "", "#FFFFFF"))
    event = tr.events[step - 1] if step > 0 else None
    said = event.text if event else "press ▶ Play, or move the step slider (arrow keys work too)"
    size = _ui_font(theme)
    head = (f'<div style="display:flex;flex-wrap:wrap;gap:8px;align-items:center;font-size:{size}px;min-height:2.6em">'
            f'<span style="background:{bg};border:2px solid #333;border-radius:4px;padding:1px 8px;font-weight:bold">'
            f"{word}</span><span>{_esc(why)}</span>"
            f'<span style="margin-left:auto"><b>step {step} of {n}</b></span></div>'
            f'<div style="font-size:{size}px;margin:2px 0 4px 0;min-height:2.8em"><b>{_esc(said)}</b></div>')
    has_lines = any(e.line is not None for e in tr.events)
    src = _source_html(list(tr.source), event.line if event else None, theme) if has_lines else ""
    return f'<div style="min-height:{min_height}px">{head}{src}{frames.svg(step)}</div>'


class _Pane:
    """The frames of one trace, switched by a step slider: in the browser (a Stack) or through the kernel."""

    def __init__(self, tr: Any, *, steps: int, theme: render.Theme, max_bytes: int, label: str = "") -> None:
        self.trace = tr
        self.theme = theme
        self.frames = render.Frames(tr, theme=theme, prefix=f"cw{next(_ids)}")
        height = self.frames.layout.height if self.frames.layout.ok else 200
        src_lines = len(tr.source) if any(e.line is not None for e in tr.events) else 0
        self.min_height = int(min(900, height * 4 / 3 + 110 + src_lines * 22))
        self.title = W.HTML(f'<div style="font-size:{_ui_font(theme) + 1}px;font-weight:bold">{_esc(label)}</div>'
                            if label else "")
        # pre-render while the total stays small; an estimate from the last frame (the biggest) decides
        last = _frame_html(tr, self.frames, len(tr), theme, self.min_height)
        self.in_browser = len(last) * (steps + 1) <= max_bytes
        self._cache: dict[int, str] = {len(tr): last}
        layout = W.Layout(min_height=f"{self.min_height}px", width="100%")
        if self.in_browser:
            views = [W.HTML(self.html(k), layout=layout) for k in range(len(tr) + 1)]
            # a shorter trace keeps showing its last frame while the other side goes on: same widget reused
            views += [views[-1]] * (steps - len(tr))
            self.view: Any = W.Stack(views, selected_index=0, layout=W.Layout(width="100%"))
        else:
            self.view = W.HTML(self.html(0), layout=layout)
        self.box = W.VBox([self.title, self.view], layout=W.Layout(width="100%", min_width="0"))
        self.width = self.frames.layout.width if self.frames.layout.ok else None  # natural width, pt
        self.links: list[Any] = []  # the browser-side links (kept so they live as long as the pane)

    def html(self, step: int) -> str:
        step = min(max(step, 0), len(self.trace))
        out = self._cache.get(step)
        if out is None:
            out = _frame_html(self.trace, self.frames, step, self.theme, self.min_height)
            if self.in_browser:
                self._cache[step] = out
        return out

    def link(self, slider: Any) -> None:
        if self.in_browser:
            self.links.append(W.jslink((slider, "value"), (self.view, "selected_index")))
        else:
            slider.observe(lambda ch: setattr(self.view, "value", self.html(ch["new"])), "value")


class _Controls:
    """Play/pause, previous/next, a step slider and the pause between steps, all labelled in words."""

    def __init__(self, steps: int, theme: render.Theme, interval: int = 900) -> None:
        big = W.Layout(height="40px", width="auto", min_width="120px")
        bstyle = {"font_size": f"{_ui_font(theme)}px"}
        self.play = W.Play(value=0, min=0, max=max(steps, 0), step=1, interval=interval, show_repeat=False,
                           description="Play", tooltip="Play / pause the steps", layout=W.Layout(height="40px"))
        self.slider = W.IntSlider(value=0, min=0, max=max(steps, 0), step=1, description="Step",
                                  continuous_update=True, readout=True, layout=W.Layout(width="340px", height="40px"),
                                  style={"description_width": "50px"})
        self.prev = W.Button(description="◀ Previous", tooltip="one step back", layout=big, style=bstyle)
        self.next = W.Button(description="Next ▶", tooltip="one step forward", layout=big, style=bstyle)
        self.speed = W.IntSlider(value=interval, min=200, max=3000, step=100, description="ms per step",
                                 layout=W.Layout(width="300px", height="40px"), style={"description_width": "90px"})
        self.links = [W.jslink((self.play, "value"), (self.slider, "value")),  # in the browser: no kernel needed
                      W.jslink((self.speed, "value"), (self.play, "interval"))]
        if steps <= 0:
            for w in (self.play, self.slider, self.prev, self.next):
                w.disabled = True
        self.box = W.HBox([self.play, self.prev, self.next, self.slider, self.speed],
                          layout=W.Layout(flex_flow="row wrap", align_items="center"))


class _Base(W.VBox if W is not None else object):  # type: ignore[misc]
    """Shared by the widgets: an inline message area and error display."""

    def _init_message(self, theme: render.Theme) -> None:
        self.theme = theme
        self.message = W.HTML("")

    def _show_error(self, text: str) -> None:
        self.message.value = _message_html(text, "error", self.theme)

    def _show_note(self, text: str) -> None:
        self.message.value = _message_html(text, "note", self.theme) if text else ""


# ---------------------------------------------------------------------------------------------------- Stepper
class Stepper(_Base):
    """Step through one trace: play/pause, previous/next, a step slider, the phase, the event in words, the line.

    >>> from course_lib import trace, programs
    >>> s = Stepper(trace.record(programs.affine_sin, "define-by-run", {"x": 3.0, "w": 2.0}))
    >>> s
    Stepper(define-by-run, 11 steps)
    >>> s.go(3); s.step
    3
    """

    def __init__(self, trace: Any, *, theme: str | render.Theme | None = None, interval: int = 900,
                 max_bytes: int = MAX_BYTES, title: str | None = None) -> None:
        _need_widgets()
        super().__init__(layout=W.Layout(width="100%"))
        t = render.get_theme(theme)
        self._init_message(t)
        self.trace = trace
        self._n = 0
        if not _is_trace(trace):
            self.children = [self.message]
            self._show_error(f"Stepper needs a trace: trace.record(program, style, inputs); got a "
                             f"{type(trace).__name__}.")
            return
        self._n = len(trace)
        self.controls = _Controls(self._n, t, interval)
        self.pane = _Pane(trace, steps=self._n, theme=t, max_bytes=max_bytes,
                          label=title if title is not None else STYLE_TITLES.get(trace.style, trace.style))
        self.pane.link(self.controls.slider)
        self.controls.prev.on_click(lambda _b: self._move(-1))
        self.controls.next.on_click(lambda _b: self._move(+1))
        self.legend = W.HTML(render.legend_svg(t), layout=W.Layout(width="100%"))
        if self._n == 0:
            self._show_note("This trace has no events: the program defined and ran nothing, so there is nothing "
                            "to step through.")
        elif not self.pane.in_browser:
            self._show_note("This trace is large, so stepping goes through the running kernel (it will not "
                            "animate in an exported page).")
        self.children = [self.pane.title, self.controls.box, self.message, self.pane.view, self.legend]

    def __repr__(self) -> str:
        style = getattr(self.trace, "style", "no trace")
        return f"Stepper({style}, {self._n} steps)"

    @property
    def step(self) -> int:
        """The step shown (0 = before the first event)."""
        return self.controls.slider.value if self._n or hasattr(self, "controls") else 0

    @_guarded
    def go(self, step: int) -> None:
        """Show a step; a step outside 0..len is brought back into range, with a note that says so."""
        if not hasattr(self, "controls"):
            return
        try:
            k = int(step)
        except (TypeError, ValueError, OverflowError):
            self._show_error(f"step must be a whole number, got {step!r}")
            return
        if not 0 <= k <= self._n:
            self._show_note(f"There are steps 0 to {self._n}; step {k} does not exist, so this shows step "
                            f"{min(max(k, 0), self._n)}.")
            k = min(max(k, 0), self._n)
        else:
            self._show_note("")
        self.controls.slider.value = k

    @_guarded
    def _move(self, delta: int) -> None:
        self.go(min(max(self.controls.slider.value + delta, 0), self._n))

    def frame_html(self, step: int) -> str:
        """The HTML of one step (what the stack shows), for tests and for saving a step as a picture."""
        return self.pane.html(step)


# ---------------------------------------------------------------------------------------------------- SideBySide
class SideBySide(_Base):
    """One program stepped both ways, side by side, on one shared clock (one event per tick on each side).

    The define-by-run side has computed its result while the define-then-run side is still building a graph
    without values; the shorter trace then keeps showing its last step.

    >>> from course_lib import programs
    >>> SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    SideBySide(affine_sin: define-then-run 22 steps, define-by-run 11 steps)
    """

    def __init__(self, program: Callable[..., Any], inputs: dict[str, float] | None = None, *,
                 theme: str | render.Theme | None = None, interval: int = 900, backward: bool = True,
                 max_bytes: int = MAX_BYTES) -> None:
        _need_widgets()
        super().__init__(layout=W.Layout(width="100%"))
        t = render.get_theme(theme)
        self._init_message(t)
        self.program = program
        self.traces: dict[str, Any] = {}
        self._n = 0
        self.name = getattr(program, "__name__", None) or getattr(program, "text", "program")
        from . import trace as tr

        problems = []
        if not callable(program):
            self.children = [self.message]
            self._show_error(f"SideBySide needs a program: a function like def f(ops, x): return ops.sin(x); "
                             f"got a {type(program).__name__}.")
            return
        if inputs is None:
            try:
                inputs = {name: 1.0 for name in _input_names(program)}
            except (TypeError, ValueError) as exc:
                inputs = {}
                problems.append(f"cannot read the program's inputs: {exc}")
        for style in tr.STYLES:
            try:
                self.traces[style] = _quiet(tr.record, program, style, dict(inputs), backward=backward)
            except Exception as exc:  # noqa: BLE001 - a define-then-run `if` on a placeholder lands here, on purpose
                problems.append(f"{style}: {type(exc).__name__}: {exc}")
        self._n = max((len(x) for x in self.traces.values()), default=0)
        self.controls = _Controls(self._n, t, interval)
        self.controls.prev.on_click(lambda _b: self._move(-1))
        self.controls.next.on_click(lambda _b: self._move(+1))
        panes = []
        self.panes: dict[str, _Pane] = {}
        budget = max_bytes // max(1, len(self.traces))
        for style in tr.STYLES:
            if style in self.traces:
                pane = _Pane(self.traces[style], steps=self._n, theme=t, max_bytes=budget, label=SHORT_TITLES[style])
                pane.link(self.controls.slider)
                self.panes[style] = pane
                panes.append(pane.box)
            else:
                why = next((p for p in problems if p.startswith(style)), style)
                panes.append(W.VBox([W.HTML(f'<div style="font-size:{_ui_font(t) + 1}px;font-weight:bold">'
                                            f"{_esc(SHORT_TITLES[style])}</div>"
                                            + _message_html(why, "error", t))], layout=W.Layout(width="100%")))
        _share_width(list(zip(panes, [self.panes[st].width if st in self.panes else None for st in tr.STYLES])))
        if problems:
            self._show_error("\n".join(problems))
        self.legend = W.HTML(render.legend_svg(t), layout=W.Layout(width="100%"))
        head = W.HTML(f'<div style="font-size:{_ui_font(t) + 2}px"><b>{_esc(self.name)}</b>: the same program, '
                      "stepped both ways on one clock</div>")
        self.children = [head, self.controls.box, self.message,
                         W.HBox(panes, layout=W.Layout(width="100%")), self.legend]

    def __repr__(self) -> str:
        parts = ", ".join(f"{k} {len(v)} steps" for k, v in self.traces.items()) or "no traces"
        return f"SideBySide({self.name}: {parts})"

    @property
    def step(self) -> int:
        return self.controls.slider.value if hasattr(self, "controls") else 0

    @_guarded
    def go(self, step: int) -> None:
        """Show a step on both sides (brought back into range, with a note, if outside 0..longest trace)."""
        if not hasattr(self, "controls"):
            return
        k = int(step)
        if not 0 <= k <= self._n:
            self._show_note(f"There are steps 0 to {self._n}; showing step {min(max(k, 0), self._n)}.")
        self.controls.slider.value = min(max(k, 0), self._n)

    @_guarded
    def _move(self, delta: int) -> None:
        self.controls.slider.value = min(max(self.controls.slider.value + delta, 0), self._n)


# ---------------------------------------------------------------------------------------------------- explorers
def _named(name: str, slider: Any, theme: render.Theme) -> Any:
    """A slider with its variable's name in large type (a slider's own description cannot change size)."""
    label = W.HTML(f'<b style="font-size:{_ui_font(theme) + 2}px;font-family:monospace">{_esc(name)}</b>',
                   layout=W.Layout(width="auto", min_width="48px", margin="0 8px 0 12px"))
    slider.tooltip = f"value of {name}"
    return W.HBox([label, slider], layout=W.Layout(align_items="center"))


def _graph_view(theme: render.Theme) -> Any:
    return W.HTML("", layout=W.Layout(min_height="260px", width="100%"))


def _draw_final(tr: Any, theme: render.Theme, prefix: str, room: str) -> tuple[str, float | None]:
    """A finished trace drawn at a stable position, and its natural width (pt). Room is reserved for any scalar
    value (and gradient), so moving a slider (new values, same structure) reuses the layout: nothing moves."""
    state = _final_state(tr)
    lay = render.Layout(tr.graph, theme=theme, prefix=prefix, reserve=[state], room=room)
    return lay.svg(state), (lay.width if lay.ok else None)


def _share_width(panes: list[tuple[Any, float | None]]) -> None:
    """Side-by-side panes get widths in proportion to their graphs' natural widths.

    Each SVG scales down to its pane (max-width: 100%), so proportional panes give both graphs the same scale:
    with equal halves a wide define-then-run graph (both branches, gradient nodes) was drawn at half the size of
    its define-by-run neighbour, which made the two look unrelated.
    """
    for box, width in panes:
        grow = max(1, round(width)) if width else 300
        box.layout.flex = f"{grow} 1 0%"
        box.layout.width = "auto"
        box.layout.min_width = "0"
        box.layout.margin = "0 6px"
        box.layout.overflow = "hidden"  # long source lines scroll inside their box instead of widening the pane


def _finite_note(values: dict[str, Any]) -> str:
    bad = [k for k, v in values.items() if v is not None and not np.all(np.isfinite(np.asarray(v, dtype=float)))]
    if not bad:
        return ""
    return (f"{', '.join(bad)} {'is not a finite number' if len(bad) == 1 else 'are not finite numbers'} (inf = too large / division by zero, nan = undefined, e.g. "
            "log of a negative number or 0/0). Both engines agree: that is floating-point arithmetic, not a bug.")


class ExpressionExplorer(_Base):
    """Type an expression, move the sliders: both graphs, their values and gradients update live.

    Typed text goes through :func:`course_lib.expr.parse` (never eval); an error is shown inline with a caret
    under the problem, the last good graphs stay, and the widget keeps working.

    >>> e = ExpressionExplorer("sin(x*w + 1)")
    >>> e
    ExpressionExplorer('sin(x*w + 1)', variables x, w)
    >>> e.set_text("sin(x"); "Problem" in e.message.value
    True
    """

    def __init__(self, text: str = "sin(x*w + 1)", values: dict[str, float] | None = None, *,
                 theme: str | render.Theme | None = None, low: float = -5.0, high: float = 5.0) -> None:
        _need_widgets()
        super().__init__(layout=W.Layout(width="100%"))
        t = render.get_theme(theme)
        self._init_message(t)
        self.low, self.high = (float(low), float(high)) if low < high else (-5.0, 5.0)
        self._start_values = dict(values or {})
        self._uid = next(_ids)
        self.expression: Any = None
        self.sliders: dict[str, Any] = {}
        self.text = W.Text(value="", description="f =", continuous_update=False, placeholder="e.g. sin(x*w + 1)",
                           layout=W.Layout(width="min(100%, 640px)", height="40px"),
                           style={"description_width": "40px", "font_size": f"{_ui_font(t) + 2}px"})
        help_ = W.HTML(f'<div style="font-size:{_ui_font(t)}px">Type an expression and press Enter. Allowed: numbers, '
                       "names, + - * / ** @, and exp log sin cos tanh relu sigmoid sum mean.</div>")
        self.slider_box = W.VBox([])
        self.static_view, self.dynamic_view = _graph_view(t), _graph_view(t)
        self.results = W.HTML("")
        title = lambda s: W.HTML(f'<div style="font-size:{_ui_font(t) + 1}px;font-weight:bold">{_esc(s)}</div>')
        self.left = left = W.VBox([title("Define-then-run: the graph, then Session.run (gradients are graph nodes)"),
                                   self.static_view], layout=W.Layout(width="50%", min_width="0", margin="0 6px"))
        self.right = right = W.VBox([title("Define-by-run: recorded while running (gradients from backward)"),
                                     self.dynamic_view], layout=W.Layout(width="50%", min_width="0", margin="0 6px"))
        self.legend = W.HTML(render.legend_svg(t), layout=W.Layout(width="100%"))
        self.children = [help_, self.text, self.message, self.slider_box, self.results,
                         W.HBox([left, right], layout=W.Layout(width="100%")), self.legend]
        self.text.observe(self._on_text, "value")
        self.set_text(text)

    def __repr__(self) -> str:
        if self.expression is None:
            return "ExpressionExplorer(no valid expression yet)"
        return f"ExpressionExplorer({self.expression.text!r}, variables {', '.join(self.expression.variables) or '-'})"

    def set_text(self, text: Any) -> None:
        """Type ``text`` into the box (the same path as a student typing, then Enter)."""
        if not isinstance(text, str):
            self._show_error(f"an expression is text, like 'sin(x*w + 1)'; got a {type(text).__name__}")
            return
        if self.text.value == text:
            self._on_text({"new": text})
        else:
            self.text.value = text  # fires _on_text

    @_guarded
    def _on_text(self, change: dict[str, Any]) -> None:
        from . import expr

        text = change["new"]
        try:
            e = expr.parse(text)
        except expr.ExpressionError as err:
            shown = err.pointer(text) if len(text) <= 120 else text[:120] + "…"
            kept = f"\n(The graphs below are still those of {self.expression.text!r}.)" if self.expression else ""
            hint = f"\nHint: {err.hint}" if err.hint else ""
            self._show_error(f"{err.message}" + (f" (column {err.position + 1})" if err.position is not None else "")
                             + f"\n{shown}{hint}{kept}")
            return
        self.expression = e
        self._make_sliders(e.variables)
        self._show_note("")
        self._update()

    def _make_sliders(self, names: list[str]) -> None:
        old = self.sliders
        self.sliders = {}
        for name in names:
            s = old.get(name)
            if s is None:
                start = self._start_values.get(name, 1.0)
                try:
                    start = float(np.clip(float(start), self.low, self.high))
                except (TypeError, ValueError):
                    start = 1.0
                s = W.FloatSlider(value=start, min=self.low, max=self.high, step=0.1, description="",
                                  continuous_update=True, readout_format=".2f",
                                  layout=W.Layout(width="min(100%, 520px)", height="36px"),
                                  style={"description_width": "80px"})
                s.observe(self._on_slider, "value")
            self.sliders[name] = s
        self.slider_box.children = [_named(k, v, self.theme) for k, v in self.sliders.items()]

    @_guarded
    def _on_slider(self, change: dict[str, Any]) -> None:
        self._update()

    def values(self) -> dict[str, float]:
        """The current slider values."""
        return {k: float(s.value) for k, s in self.sliders.items()}

    def _update(self) -> None:
        from . import trace as tr

        e = self.expression
        values = self.values()
        outcome: dict[str, Any] = {}
        widths: list[float | None] = []
        # gradients are nodes with values in define-then-run (room for a value), and a second label line on each
        # node in define-by-run (room for value and gradient)
        for style, view, tag, room in (("define-then-run", self.static_view, "s", "value"),
                                       ("define-by-run", self.dynamic_view, "d", "value+grad")):
            try:
                rec = _quiet(tr.record, e, style, values, backward=True)
                view.value, width = _quiet(_draw_final, rec, self.theme, f"ee{self._uid}{tag}", room)
                outcome[style] = rec
            except Exception as exc:  # noqa: BLE001 - e.g. @ on numbers: shown in that pane, the other goes on
                view.value, width = _message_html(f"{type(exc).__name__}: {exc}", "error", self.theme), None
                outcome[style] = exc
            widths.append(width)
        _share_width([(self.left, widths[0]), (self.right, widths[1])])
        self.results.value = self._results_html(outcome, values)

    def _results_html(self, outcome: dict[str, Any], values: dict[str, float]) -> str:
        """A small table: f and ∂f/∂variable from each engine (they should agree)."""
        rows: list[tuple[str, str, str]] = []
        shown: dict[str, Any] = {}
        per_style: dict[str, dict[str, Any]] = {}
        for style, rec in outcome.items():
            got: dict[str, Any] = {}
            if not isinstance(rec, Exception):
                state = _final_state(rec)
                g = rec.graph
                out = g.outputs[0] if g.outputs else (g.nodes[-1] if g.nodes else None)
                got["f"] = None if out is None else state[out.id].value
                for n in g.nodes:
                    if n.kind == "input" and n.name in values:
                        if "grad_node" in n.attrs:  # define-then-run: the gradient is a node of the graph
                            got[f"∂f/∂{n.name}"] = state[n.attrs["grad_node"]].value
                        else:
                            got[f"∂f/∂{n.name}"] = state[n.id].grad
            per_style[style] = got
        keys = list(dict.fromkeys(k for got in per_style.values() for k in got))
        for k in keys:
            a = per_style.get("define-then-run", {}).get(k)
            b = per_style.get("define-by-run", {}).get(k)
            rows.append((k, "—" if a is None else short_value(a), "—" if b is None else short_value(b)))
            shown[k] = a if a is not None else b
        size = _ui_font(self.theme)
        inputs = ", ".join(f"{k} = {v:g}" for k, v in values.items()) or "no variables"
        body = "".join(f"<tr><td style='padding:2px 12px'>{_esc(k)}</td><td style='padding:2px 12px'>{_esc(a)}</td>"
                       f"<td style='padding:2px 12px'>{_esc(b)}</td></tr>" for k, a, b in rows)
        note = _finite_note(shown)
        return (f'<div style="font-size:{size}px"><div>At {_esc(inputs)}:</div><table style="border-collapse:collapse">'
                "<tr><th></th><th style='padding:2px 12px'>define-then-run</th>"
                f"<th style='padding:2px 12px'>define-by-run</th></tr>{body}</table></div>"
                + (_message_html(note, "note", self.theme) if note else ""))


class ControlFlowExplorer(_Base):
    """A program with a data-dependent branch or loop: move the input and watch both graphs.

    Define-by-run records only what ran, so its graph changes shape with the input. Define-then-run must hold
    every path in one graph built before any value exists (``cond``): its graph stays the same, and only the
    branch taken gets values. A plain Python ``if`` on a placeholder fails in define-then-run: that error is shown
    as it is, because it is the lesson.

    >>> from course_lib import programs
    >>> ControlFlowExplorer(programs.branch_with_cond)
    ControlFlowExplorer(branch_with_cond, x = 1)
    """

    def __init__(self, program: Callable[..., Any] | None = None, *, theme: str | render.Theme | None = None,
                 low: float = -3.0, high: float = 3.0, value: float = 1.0, backward: bool = False) -> None:
        _need_widgets()
        super().__init__(layout=W.Layout(width="100%"))
        t = render.get_theme(theme)
        self._init_message(t)
        if program is None:
            from .programs import branch_with_cond as program
        self.program = program
        self.backward = backward
        self._uid = next(_ids)
        self.name = getattr(program, "__name__", type(program).__name__)
        self.sliders: dict[str, Any] = {}
        self.static_view, self.dynamic_view = _graph_view(t), _graph_view(t)
        self.summary = W.HTML("")
        if not callable(program):
            self.children = [self.message]
            self._show_error(f"ControlFlowExplorer needs a program (a function of ops and inputs); got a "
                             f"{type(program).__name__}.")
            return
        try:
            names = _input_names(program)
        except (TypeError, ValueError) as exc:
            names = []
            self._show_error(f"cannot read the program's inputs: {exc}")
        lo, hi = (float(low), float(high)) if low < high else (-3.0, 3.0)
        for name in names:
            s = W.FloatSlider(value=float(np.clip(value, lo, hi)), min=lo, max=hi, step=0.1, description="",
                              continuous_update=True, readout_format=".2f",
                              layout=W.Layout(width="min(100%, 520px)", height="36px"),
                              style={"description_width": "80px"})
            s.observe(self._on_slider, "value")
            self.sliders[name] = s
        title = lambda s: W.HTML(f'<div style="font-size:{_ui_font(t) + 1}px;font-weight:bold">{_esc(s)}</div>')
        self.left = left = W.VBox([title("Define-then-run: one graph for every input (cond keeps both paths)"),
                                   self.static_view], layout=W.Layout(width="50%", min_width="0", margin="0 6px"))
        self.right = right = W.VBox([title("Define-by-run: the graph of what actually ran"), self.dynamic_view],
                                    layout=W.Layout(width="50%", min_width="0", margin="0 6px"))
        self.legend = W.HTML(render.legend_svg(t), layout=W.Layout(width="100%"))
        head = W.HTML(f'<div style="font-size:{_ui_font(t) + 2}px"><b>{_esc(self.name)}</b>: move the input and '
                      "compare the two graphs</div>")
        self.children = [head, W.VBox([_named(k, v, t) for k, v in self.sliders.items()]), self.message, self.summary,
                         W.HBox([left, right], layout=W.Layout(width="100%")), self.legend]
        self._update()

    def __repr__(self) -> str:
        vals = ", ".join(f"{k} = {s.value:g}" for k, s in self.sliders.items()) or "no inputs"
        return f"ControlFlowExplorer({self.name}, {vals})"

    @_guarded
    def _on_slider(self, change: dict[str, Any]) -> None:
        self._update()

    def set_input(self, **values: float) -> None:
        """Move sliders from code (values outside the range are clipped to it, as a slider would)."""
        for k, v in values.items():
            if k not in self.sliders:
                self._show_error(f"{self.name} has no input {k!r}; its inputs are {', '.join(self.sliders) or 'none'}")
                continue
            s = self.sliders[k]
            try:
                s.value = float(np.clip(float(v), s.min, s.max)) if np.isfinite(float(v)) else s.value
            except (TypeError, ValueError):
                self._show_error(f"{k} must be a number, got {v!r}")

    def _update(self) -> None:
        from . import trace as tr

        values = {k: float(s.value) for k, s in self.sliders.items()}
        sizes: dict[str, int] = {}
        errors = []
        widths: list[float | None] = []
        room = "value+grad" if self.backward else "value"
        for style, view, tag in (("define-then-run", self.static_view, "s"), ("define-by-run", self.dynamic_view, "d")):
            width = None
            try:
                rec = _quiet(tr.record, self.program, style, values, backward=self.backward)
                view.value, width = _quiet(_draw_final, rec, self.theme, f"cf{self._uid}{tag}", room)
                sizes[style] = len(rec.graph)
            except Exception as exc:  # noqa: BLE001 - the define-then-run `if` error is the lesson: show it
                view.value = _message_html(f"{type(exc).__name__}: {exc}", "error", self.theme)
                errors.append(style)
            widths.append(width)
        _share_width([(self.left, widths[0]), (self.right, widths[1])])
        at = ", ".join(f"{k} = {v:g}" for k, v in values.items())
        parts = []
        if "define-by-run" in sizes:
            parts.append(f"define-by-run recorded <b>{sizes['define-by-run']}</b> nodes for {_esc(at)} (only what ran)")
        if "define-then-run" in sizes:
            parts.append(f"define-then-run has <b>{sizes['define-then-run']}</b> nodes for every input (all paths; "
                         "dashed nodes were not run this time)")
        if "define-then-run" in errors:
            parts.append("define-then-run could not build this program: a Python if/while needs a value, and a "
                         "placeholder has none while the graph is being built")
        self.summary.value = f'<div style="font-size:{_ui_font(self.theme)}px">' + "; ".join(parts) + ".</div>"
