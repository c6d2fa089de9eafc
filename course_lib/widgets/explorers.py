"""Explorers: change the input, see both graphs at once (no stepping).

* :class:`ExpressionExplorer` -- type an expression (through :func:`course_lib.expr.parse`, never eval), move the
  sliders: both graphs, the value and the gradients, from both engines, update live.
* :class:`ControlFlowExplorer` -- a program with a data-dependent branch or loop: define-by-run's graph changes
  shape with the input, define-then-run's stays the one graph that holds every path.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from .. import render
from .. import trace as tr
from ..graph import short_value
from ..i18n import N_, Plural, number, said_by, say
from ..i18n import gettext as _
from ..ops import OPS
from ..static import SymbolicBoolError
from .base import CourseWidget, Sizes, guarded, message_html, quietly
from .base import ipywidgets as W
from .focus import Focus, Shown
from .html import esc
from .inputs import INPUTS_UNREADABLE, read_number, read_range, read_slider, shown, value_words
from .sizing import PAGE_PX, ROW_PX, TOGGLE_ROW_PX, fit_height, lines_px, share_width, text_lines
from .stepper import GRADIENT_SCOPE, foldable

__all__ = ["ControlFlowExplorer", "ExpressionExplorer", "draw_final", "finite_note", "first_undefined", "named_slider"]

_ids = itertools.count(1)  # one DOM id prefix per explorer: SVG element ids must not collide on one page


def named_slider(name: str, slider: Any, theme: render.Theme) -> Any:
    """A slider with its variable's name in large type (a slider's own description cannot change size)."""
    label = W.HTML(f'<b style="font-size:{Sizes.of(theme).heading}px;font-family:monospace">{esc(name)}</b>',
                   layout=W.Layout(width="auto", min_width="48px", margin="0 8px 0 12px"))
    slider.tooltip = _("value of {name}").format(name=name)
    return W.HBox([label, slider], layout=W.Layout(align_items="center"))


def value_slider(value: float, low: float, high: float) -> Any:
    """The explorers' slider for one input: a wide float slider, updating while it moves."""
    return W.FloatSlider(value=value, min=low, max=high, step=0.1, description="", continuous_update=True,
                         readout_format=".2f", layout=W.Layout(width="min(100%, 520px)", height="36px"),
                         style={"description_width": "5.5em"})


def draw_final(trace: tr.Trace, theme: render.Theme, prefix: str, room: str,
               max_height: str | None = None, collapse: Any = None,
               seen: Sequence[tr.Trace] = ()) -> tuple[str, float | None]:
    """A finished trace drawn at a stable position, and its natural width (pt). Room is reserved for any scalar
    value (and gradient), so moving a slider (new values, same structure) reuses the layout: nothing moves.
    ``max_height``: the CSS height the drawing scales down to (what the screen has left under the controls);
    ``collapse``: scopes drawn as one box each (``render.Layout``'s, e.g. ``[GRADIENT_SCOPE]``); ``seen``: the same
    program recorded at other slider positions: those of the same graph reserve room for exactly their labels
    instead of the generic room (`= -0.00000` on every box made 04's define-then-run graph a third wider), so a
    value never seen may still move a box, never cross it."""
    state = trace.final_state()
    also = [t.final_state() for t in seen if structure(t.graph) == structure(trace.graph)]
    lay = render.Layout(trace.graph, theme=theme, prefix=prefix, reserve=[state, *also], room="" if also else room,
                        grad_nodes=trace.grad_nodes, collapse=collapse)
    return lay.svg(state, max_height=max_height), (lay.width if lay.ok else None)


def structure(graph: Any) -> tuple[tuple[Any, ...], ...]:
    """What a graph is made of, values aside: two recordings with the same structure are drawn at one layout.

    >>> from course_lib import programs
    >>> def at(x):
    ...     return tr.record(programs.branch_with_cond, "define-by-run", {"x": x}).graph
    >>> structure(at(1.0)) == structure(at(2.0)), structure(at(1.0)) == structure(at(-1.0))
    (True, False)
    """
    return tuple((n.op, n.kind, n.input_ids, n.scope, n.gradient) for n in graph.nodes)


def finite_note(values: dict[str, Any]) -> str:
    """A note naming the values that are inf or nan (empty when all are finite)."""
    bad = [k for k, v in values.items() if v is not None and not np.all(np.isfinite(np.asarray(v, dtype=float)))]
    if not bad:
        return ""
    return say(Plural("{names} is not a finite number (inf = too large / division by zero, nan = undefined, e.g. log "
                      "of a negative number or 0/0). Both engines agree: that is floating-point arithmetic, not a "
                      "bug.",
                      "{names} are not finite numbers (inf = too large / division by zero, nan = undefined, e.g. log "
                      "of a negative number or 0/0). Both engines agree: that is floating-point arithmetic, not a "
                      "bug."),
               names=", ".join(bad), n=len(bad))


# why an op's result is not a finite number although its inputs are (the ops marked partial in ops.py, and overflow)
_UNDEFINED = {
    "log": N_("log is defined only for numbers above 0 (log of 0 is -inf, log of a negative number is nan: "
              "undefined)"),
    "div": N_("a division by zero (x/0 is inf or -inf, 0/0 is nan)"),
    "pow": N_("a negative number to a fractional power has no real value (nan), and 0 to a negative power divides "
              "by 0"),
}
_OVERFLOW = N_("the result is too large for a float (above about 1.8e308): inf, or nan from inf")


def first_undefined(trace: tr.Trace) -> str:
    """Where a trace's numbers stop being finite, in words: the first operation whose result is inf or nan while
    its inputs are finite (``log(-1) = nan: log is defined only for numbers above 0 …``), or "" when there is none.

    >>> from course_lib import expr
    >>> first_undefined(tr.record(expr.parse("log(-1)"), "define-then-run", {}, backward=False))[:35]
    'log(-1) = nan: log is defined only '
    """
    state = trace.final_state()

    def finite(v: Any) -> bool:
        return v is not None and bool(np.all(np.isfinite(np.asarray(v, dtype=float))))

    for n in trace.graph.nodes:
        value = state[n.id].value
        if n.kind != "op" or n.gradient or value is None or finite(value):
            continue
        args = [state[i.id].value for i in n.inputs]
        if not all(finite(a) for a in args):
            continue  # not where it started
        op = OPS.get(n.op)
        infix = op is not None and op.source is not None  # "(-2) ** 0.5", but "log(-1)"
        written = [f"({v})" if infix and v.startswith("-") else v for v in map(short_value, args)]
        call = op.code(written, n.attrs) if op is not None else f"{n.op}({', '.join(written)})"
        why = _(_UNDEFINED.get(n.op, _OVERFLOW))
        return _("{call} = {value}: {why}.").format(call=call, value=short_value(value), why=why)
    return ""


STYLES = tr.STYLES  # the left pane's, the right pane's
SAMPLES = 13  # inputs across a control-flow slider's range recorded once, for the room their labels need


class _TwoGraphs(CourseWidget):
    """Shared by the explorers: a define-then-run pane and a define-by-run pane, sized to their graphs."""

    def _init_panes(self, left_title: str, right_title: str) -> None:
        self._uid = next(_ids)
        self.static_view = W.HTML("", layout=W.Layout(min_height="200px", width="auto"))
        self.dynamic_view = W.HTML("", layout=W.Layout(min_height="200px", width="auto"))
        self.left_title, self.right_title = self.title(left_title), self.title(right_title)
        self.legend = W.HTML(render.legend_svg(self.theme), layout=W.Layout(width="auto"))
        # Show: both graphs side by side, or one enlarged with the other as a thumbnail (no kernel needed)
        self.focus = Focus([Shown(tr.style_name(STYLES[0]), [self.left_title, self.static_view], self.static_view),
                            Shown(tr.style_name(STYLES[1]), [self.right_title, self.dynamic_view], self.dynamic_view)],
                           self.sizes)
        self.graphs = self.focus.view
        self.left, self.right = self.focus.view.children[0].children  # side by side: sized by share_width
        # define-then-run's gradient nodes, one box or each drawn: the lesson is that they are nodes of the graph
        self.unfold = W.Checkbox(value=not self.theme.fold_gradients, description=_("show every gradient node"),
                                 indent=False, layout=W.Layout(width="auto"))
        self.unfold.observe(self._on_unfold, "value")

    @guarded
    def _on_unfold(self, change: dict[str, Any]) -> None:
        self._update()

    def _update(self) -> None:  # pragma: no cover - each explorer draws its own
        raise NotImplementedError

    #: the panes' titles over their graphs (message ids), for :meth:`titles_px`
    pane_titles: ClassVar[tuple[str, str]] = ("", "")

    def room(self) -> int:
        """px of the screen this widget's words and controls take beside its graphs (the graphs get the rest)."""
        raise NotImplementedError

    def titles_px(self) -> int:
        """px of the titles over the graphs drawn now (a pane that shows a problem has no graph to push down): the
        taller of them, each pane about half the width."""
        z = self.sizes
        over = [t for t, drawn in zip(self.pane_titles, getattr(self, "_drawn", (True, True)), strict=True) if drawn]
        lines = max((text_lines(_(t), z.title, PAGE_PX // 2) for t in over), default=1)
        return lines_px(z.title, lines) + 6  # and the title's margins

    def _draw_both(self, program: Any, values: dict[str, float], backward: bool, tag: str,
                   rooms: tuple[str, str], seen: Mapping[str, Sequence[tr.Trace]] | None = None
                   ) -> dict[str, tr.Trace | Exception]:
        """Record and draw the program both ways; a style that fails shows its error in its own pane. ``seen``:
        each style's recordings at other inputs, to reserve room for their labels (:func:`draw_final`)."""
        outcome: dict[str, tr.Trace | Exception] = {}
        for style in STYLES:
            try:
                outcome[style] = quietly(tr.record, program, style, values, backward=backward)
            except Exception as exc:  # noqa: BLE001 - e.g. @ on numbers, or the define-then-run `if` lesson
                outcome[style] = exc
        self._drawn = tuple(isinstance(outcome[style], tr.Trace) for style in STYLES)
        height = fit_height(self.room())  # counted once it is known which panes hold a graph
        widths: list[float | None] = []
        for style, view, side, room in zip(STYLES, (self.static_view, self.dynamic_view), "sd", rooms, strict=True):
            rec, width = outcome[style], None
            try:
                if isinstance(rec, Exception):
                    raise rec
                # nothing to fold without a "gradients" scope (no variable, or the program failed early)
                fold = [GRADIENT_SCOPE] if style == STYLES[0] and not self.unfold.value and foldable(rec) else None
                view.value, width = quietly(draw_final, rec, self.theme, f"{tag}{self._uid}{side}{'f' * bool(fold)}",
                                            room, height, fold, (seen or {}).get(style, ()))
            except Exception as exc:  # noqa: BLE001 - its error in its own pane, the other pane still drawn
                view.value = message_html(f"{type(exc).__name__}: {exc}", "error", self.theme)
                outcome[style] = exc
            widths.append(width)
        share_width([(self.left, widths[0]), (self.right, widths[1])])
        return outcome


VALUES_NOT_A_DICT = N_("values={values} is not a dict: pass each variable's starting value, like "
                       "values={{'x': 2.0}} (the sliders start at 1 for now).")
NOT_A_VARIABLE = N_("values: {name} is not a variable of {text} (its variables: {names}); check the name, or type an "
                    "expression that uses it.")
NOT_TEXT = N_("an expression is text, like 'sin(x*w + 1)'; got a value of type {type}")
NOT_A_PROGRAM = N_("ControlFlowExplorer needs a program (a function of ops and inputs); got a value of type {type}.")
NO_SUCH_INPUT = Plural("{name} has no input {input}; its only input is {inputs}",
                        "{name} has no input {input}; its inputs are {inputs}")  # n: how many inputs


class ExpressionExplorer(_TwoGraphs):
    """Type an expression, move the sliders: both graphs, their values and gradients update live.

    Typed text goes through :func:`course_lib.expr.parse` (never eval); an error is shown inline with a caret
    under the problem, the last good graphs stay, and the widget keeps working.

    >>> e = ExpressionExplorer("sin(x*w + 1)")
    >>> e
    ExpressionExplorer('sin(x*w + 1)', variables x, w)
    >>> e.set_text("sin(x"); "Problem" in e.message.value
    True
    """

    #: the panes' titles (message ids): define-then-run, define-by-run
    pane_titles: ClassVar[tuple[str, str]] = (N_("Define-then-run: graph, then Session.run"),
                                              N_("Define-by-run: recorded as it runs"))

    def __init__(self, text: str = "sin(x*w + 1)", values: dict[str, float] | None = None, *,
                 theme: str | render.Theme | None = None, low: float = -5.0, high: float = 5.0) -> None:
        super().__init__(theme=theme)
        self.low, self.high, self._problems = read_range(low, high, (-5.0, 5.0))
        self._start_values: dict[str, float] = {}
        if values is not None and not isinstance(values, dict):
            self._problems.append(say(VALUES_NOT_A_DICT, values=f"{values!r:.60}"))
        for k, v in (values or {}).items() if isinstance(values, dict) else ():
            got, problem = read_number(v, f"values[{shown(k)}]", 1.0, low=self.low, high=self.high)
            self._problems.append(problem)
            self._start_values[str(k)] = float(got)
        self.expression: Any = None
        self.sliders: dict[str, Any] = {}
        self.text = W.Text(value="", description="f =", tooltip=_("the expression to draw: type it, then press Enter"),
                           continuous_update=False,
                           placeholder=_("e.g. {example}").format(example="sin(x*w + 1)"),
                           layout=W.Layout(width="min(100%, 640px)", height="40px"),
                           style={"description_width": "2.8em", "font_size": f"{self.sizes.heading}px"})
        help_ = self.html(esc(_("Type an expression and press Enter. Allowed: numbers, names, + - * / ** @, and exp "
                                "log sin cos tanh relu sigmoid sum mean.")), "small")
        self.slider_box = W.VBox([], layout=W.Layout(flex="1 1 420px", min_width="0"))
        self.results = W.HTML("", layout=W.Layout(flex="1 1 420px"))
        self._init_panes(*map(_, self.pane_titles))
        # the graphs right under the typed expression and the view's switches, the sliders (and the table beside
        # them) under the graphs, then the help: the graphs get the screen's height, the sliders stay on the
        # screen with them (the table and the help may not)
        numbers = W.HBox([self.slider_box, self.results], layout=W.Layout(flex_flow="row wrap",
                                                                          align_items="flex-start"))
        wrap = W.Layout(flex_flow="row wrap", align_items="center")
        top = W.HBox([self.text, W.HBox([self.unfold, *self.focus.row], layout=wrap)], layout=wrap)
        self.children = [top, self.message, self.graphs, numbers, help_, self.legend]
        self.text.observe(self._on_text, "value")
        self.set_text(text)
        if self.expression is not None:  # a value for no variable of the expression: a typo, said (its slider is 1)
            names = self.expression.variables
            self._problems += [say(NOT_A_VARIABLE, name=shown(k), text=repr(self.expression.text),
                                   names=", ".join(names) or _("none"))
                               for k in (values if isinstance(values, dict) else {}) if str(k) not in names]
        if any(self._problems):
            self.show_problems(self._problems + [re.sub("<[^>]+>", "", self.message.value)])

    def __repr__(self) -> str:
        if self.expression is None:
            return "ExpressionExplorer(no valid expression yet)"
        return f"ExpressionExplorer({self.expression.text!r}, variables {', '.join(self.expression.variables) or '-'})"

    def set_text(self, text: Any) -> None:
        """Type ``text`` into the box (the same path as a student typing, then Enter)."""
        if not isinstance(text, str):
            self.show_error(say(NOT_TEXT, type=type(text).__name__))
            return
        if self.text.value == text:
            self._on_text({"new": text})
        else:
            self.text.value = text  # fires _on_text

    @guarded
    def _on_text(self, change: dict[str, Any]) -> None:
        from .. import expr

        text = change["new"]
        try:
            e = expr.parse(text)
        except expr.ExpressionError as err:
            pointed = err.pointer(text) if len(text) <= 120 else text[:120] + "…"
            kept = ("\n" + _("(The graphs below are still those of {text}.)").format(text=repr(self.expression.text))
                    if self.expression else "")
            hint = "\n" + _("Hint: {hint}").format(hint=err.hint) if err.hint else ""
            column = (" " + _("(column {k})").format(k=err.position + 1)) if err.position is not None else ""
            self.show_error(f"{err.message}{column}\n{pointed}{hint}{kept}")
            self.shown = [said_by(err)]
            return
        self.expression = e
        self._make_sliders(e.variables)
        self.clear_message()
        self._update()

    def room(self) -> int:
        """The typed expression and the view's switches (a second row), the panes' titles, and the sliders under
        the graphs (a row each)."""
        return 52 + TOGGLE_ROW_PX + self.titles_px() + ROW_PX * max(1, len(self.sliders))

    def _make_sliders(self, names: list[str]) -> None:
        old, self.sliders = self.sliders, {}
        for name in names:
            s = old.get(name)
            if s is None:  # a starting value was read (read_number) into the range; 1 is brought into it too
                start = self._start_values.get(name, min(max(1.0, self.low), self.high))
                s = value_slider(start, self.low, self.high)
                s.observe(self._on_slider, "value")
            self.sliders[name] = s
        self.slider_box.children = [named_slider(k, v, self.theme) for k, v in self.sliders.items()]

    @guarded
    def _on_slider(self, change: dict[str, Any]) -> None:
        self._update()

    def values(self) -> dict[str, float]:
        """The current slider values."""
        return {k: float(s.value) for k, s in self.sliders.items()}

    def _update(self) -> None:
        values = self.values()
        # gradients are nodes with values in define-then-run (room for a value), and a second label line on each
        # node in define-by-run (room for value and gradient)
        outcome = self._draw_both(self.expression, values, True, "ee", ("value", "value+grad"))
        self.results.value = self._results_html(outcome, values)

    def _results_html(self, outcome: dict[str, Any], values: dict[str, float]) -> str:
        """A small table: f and ∂f/∂variable from each engine (they should agree)."""
        per_style: dict[str, dict[str, Any]] = {}
        for style, rec in outcome.items():
            got: dict[str, Any] = {}
            if isinstance(rec, tr.Trace):
                got["f"] = rec.output_value()
                got.update({f"∂f/∂{k}": g for k, g in rec.gradients().items() if k in values})
            per_style[style] = got
        rows: list[tuple[str, str, str]] = []
        results: dict[str, Any] = {}
        for k in dict.fromkeys(k for got in per_style.values() for k in got):
            a = per_style.get("define-then-run", {}).get(k)
            b = per_style.get("define-by-run", {}).get(k)
            rows.append((k, "—" if a is None else value_words(a), "—" if b is None else value_words(b)))
            results[k] = a if a is not None else b
        inputs = ", ".join(f"{k} = {number(v)}" for k, v in values.items())
        head = _("At {inputs}:").format(inputs=inputs) if inputs else _("For this expression (it has no variables):")
        body = "".join(f"<tr><td style='padding:2px 12px'>{esc(k)}</td><td style='padding:2px 12px'>{esc(a)}</td>"
                       f"<td style='padding:2px 12px'>{esc(b)}</td></tr>" for k, a, b in rows)
        note = finite_note(results)
        if note:
            causes = (first_undefined(rec) for rec in outcome.values() if isinstance(rec, tr.Trace))
            cause = next((c for c in causes if c), "")
            note = (f"{cause}\n" if cause else "") + note
        return (f'<div style="font-size:{self.sizes.ui}px"><div>{esc(head)}</div>'
                '<table style="border-collapse:collapse">'
                f"<tr><td></td><th style='padding:2px 12px'>{esc(tr.style_name('define-then-run'))}</th>"
                f"<th style='padding:2px 12px'>{esc(tr.style_name('define-by-run'))}</th></tr>{body}</table></div>"
                + (message_html(note, "note", self.theme) if note else ""))


class ControlFlowExplorer(_TwoGraphs):
    """A program with a data-dependent branch or loop: move the input and watch both graphs.

    Define-by-run records only what ran, so its graph changes shape with the input. Define-then-run must hold
    every path in one graph built before any value exists (``cond``): its graph stays the same, and only the
    branch taken gets values. A plain Python ``if`` on a placeholder fails in define-then-run: that error is shown
    as it is, because it is the lesson.

    >>> from course_lib import programs
    >>> ControlFlowExplorer(programs.branch_with_cond)
    ControlFlowExplorer(branch_with_cond, x = 1)
    """

    #: the left pane's title, by whether define-then-run could build the program: it says what the pane shows
    STATIC_TITLES: ClassVar[dict[bool, str]] = {
        True: N_("Define-then-run: one graph, every path"),
        False: N_("Define-then-run: no graph (building it failed: the problem is below)"),
    }
    DYNAMIC_TITLE: ClassVar[str] = N_("Define-by-run: what actually ran")
    #: the titles over a graph (when define-then-run fails, its pane shows the problem under a longer title)
    pane_titles: ClassVar[tuple[str, str]] = (STATIC_TITLES[True], DYNAMIC_TITLE)

    def __init__(self, program: Callable[..., Any] | None = None, *, theme: str | render.Theme | None = None,
                 low: float = -3.0, high: float = 3.0, value: float = 1.0, backward: bool = False) -> None:
        super().__init__(theme=theme)
        if program is None:
            from ..programs import branch_with_cond as program
        self.program, self.backward = program, backward
        self.name = getattr(program, "__name__", type(program).__name__)
        self.sliders: dict[str, Any] = {}
        self.summary = W.HTML("")
        self._init_panes(_(self.STATIC_TITLES[True]), _(self.DYNAMIC_TITLE))
        if not callable(program):
            self.children = [self.message]
            self.show_error(say(NOT_A_PROGRAM, type=type(program).__name__))
            return
        try:
            names = tr.input_names(program)
        except (TypeError, ValueError) as exc:
            names = []
            self.show_error(say(INPUTS_UNREADABLE, error=exc))
        lo, hi, problems = read_range(low, high, (-3.0, 3.0))
        start, value_problem = read_number(value, "value", min(max(1.0, lo), hi), low=lo, high=hi)
        for name in names:
            self.sliders[name] = value_slider(float(start), lo, hi)
            self.sliders[name].observe(self._on_slider, "value")
        self._seen = self._sample(names[0], lo, hi) if len(names) == 1 else {}
        self.head_text = _("{name}: move the input and compare the two graphs")
        head = self.html(esc(self.head_text).replace("{name}", f"<b>{esc(self.name)}</b>", 1), "heading")
        # the summary (what each style built) under the graphs: they start right under the slider and get the
        # screen's height, a long define-by-run chain included
        self.children = [head, W.VBox([named_slider(k, v, self.theme) for k, v in self.sliders.items()]),
                         self.message, self.graphs, W.HBox([*self.focus.row, *([self.unfold] if backward else [])],
                                                           layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.summary, self.legend]
        self._update()
        self.show_problems([*problems, value_problem])

    def _sample(self, name: str, low: float, high: float) -> dict[str, list[tr.Trace]]:
        """The program recorded both ways at SAMPLES inputs across the slider's range (those that fail left out):
        the labels each graph will show as the slider moves, so its boxes are as wide as those and no wider."""
        seen: dict[str, list[tr.Trace]] = {style: [] for style in STYLES}
        for x in np.linspace(low, high, SAMPLES):
            for style in STYLES:
                try:
                    seen[style].append(quietly(tr.record, self.program, style, {name: float(x)},
                                               backward=self.backward))
                except Exception:  # noqa: BLE001 - a failing input shows its error when the slider gets there
                    continue
        return seen

    def room(self) -> int:
        """The heading, a row per input's slider and the panes' titles over the graphs."""
        z = self.sizes
        head = lines_px(z.heading, text_lines(self.head_text.format(name=self.name), z.heading)) + 2
        return head + ROW_PX * max(1, len(self.sliders)) + self.titles_px()

    def __repr__(self) -> str:
        vals = ", ".join(f"{k} = {s.value:g}" for k, s in self.sliders.items()) or "no inputs"
        return f"ControlFlowExplorer({self.name}, {vals})"

    @guarded
    def _on_slider(self, change: dict[str, Any]) -> None:
        self._update()

    def set_input(self, **values: float) -> None:
        """Move sliders from code (values outside the range are clipped to it, as a slider would, and said so)."""
        problems = []
        for k, v in values.items():
            if k not in self.sliders:
                problems.append(say(NO_SUCH_INPUT, name=self.name, input=repr(k),  # none: "its inputs are none"
                                    inputs=", ".join(self.sliders) or _("none"), n=len(self.sliders) or 2))
                continue
            got, problem = read_slider(v, k, self.sliders[k])
            problems.append(problem)
            if got is not None:  # in range, or brought into it as the slider would
                self.sliders[k].value = got
        if any(problems):
            self.show_problems(problems)
        else:
            self.clear_message()  # a good value after a bad one: the old problem no longer holds

    def _update(self) -> None:
        values = {k: float(s.value) for k, s in self.sliders.items()}
        room = "value+grad" if self.backward else "value"
        outcome = self._draw_both(self.program, values, self.backward, "cf", (room, room), self._seen)
        sizes = {style: len(rec.graph) for style, rec in outcome.items() if isinstance(rec, tr.Trace)}
        at = ", ".join(f"{k} = {number(v)}" for k, v in values.items())  # in the sentence: the language's number
        self.left_title.value = self.title_html(_(self.STATIC_TITLES["define-then-run" in sizes]))
        parts = []

        def count(style: str) -> str:
            n = sizes[style]
            return esc(Plural("{n} node", "{n} nodes").template({"n": n})).replace("{n}", f"<b>{n}</b>", 1)

        if "define-by-run" in sizes:
            parts.append(esc(_("define-by-run recorded {count} for {inputs} (only what ran)")).replace(
                "{inputs}", esc(at)).replace("{count}", count("define-by-run"), 1))
        if "define-then-run" in sizes:
            parts.append(esc(_("define-then-run has {count} for every input (all paths; dashed nodes were not run "
                               "this time)")).replace("{count}", count("define-then-run"), 1))
        elif isinstance(outcome.get("define-then-run"), SymbolicBoolError):
            parts.append(esc(_("define-then-run could not build this program: a Python if/while needs a value, and "
                               "a placeholder has none while the graph is being built")))
        else:
            parts.append(esc(_("define-then-run could not build this program (the problem is in its pane)")))
        # the parts of one sentence: "; " in English, " ; " (no-break space) in French
        self.summary.value = f'<div style="font-size:{self.sizes.ui}px">' + esc(_("; ")).join(parts) + ".</div>"
