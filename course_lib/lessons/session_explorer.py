"""The brick wall and its holes: a live widget around ``Session.run`` of the define-then-run engine.

Answer 3 of the Q&A: in TensorFlow "all communication with outer world is performed via tf.Session object and
tf.Placeholder", "behind a brick wall with several tiny holes". :class:`SessionExplorer` shows one graph and the
only two things the outside world can do with it, plus what building it further costs:

* choose the **fetch** (what ``Session.run`` must return) and which **placeholders are fed** (the holes), with a
  slider for each fed value;
* every change calls ``Session.run(fetch, feed_dict)`` for real and shows the call, the value, the compiled
  plan (its Python source and report: nodes pruned, constants folded, duplicates merged) and how many times the
  session has compiled so far; the graph is drawn with the nodes that ran filled and valued, the others dashed;
* **add a node** appends ``fetch + 1`` (a constant and an add) and fetches it: the graph changed, so the next run
  compiles again; **finalize()** makes the graph immutable, after which adding a node is refused.

An unfed placeholder the fetch needs, a finalized graph, anything else that goes wrong: the error is shown inside
the widget in words (never a traceback) and the widget keeps working. Its text repr is one short stable line.

>>> e = SessionExplorer()
>>> e
SessionExplorer(fetch 'y', fed x, w; nodes=15, compiles=1)
>>> e.ran
['x', 'w', 'mul', 'Const', 'add', 'y']
>>> e.set_fetch("z"); "You must feed a value for placeholder" in e.message.value
True
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import render
from .. import static as st
from ..graph import short_value
from ..i18n import N_, Plural, said_by, say
from ..i18n import gettext as _
from ..widgets.base import CourseWidget, guarded
from ..widgets.base import ipywidgets as W
from ..widgets.html import esc
from ..widgets.inputs import out_of_range, read_number, read_range, read_slider, shown
from ..widgets.sizing import ROW_PX, fit_height, lines_px, text_lines, wider

__all__ = ["SessionExplorer", "demo_graph"]

_ids = itertools.count(1)
WIDE = 1.6  # a graph this many times wider than tall is drawn under the controls, not beside them

NOT_A_GRAPH = N_("SessionExplorer needs a course_lib.static Graph, or a function that builds one (like "
                 "session_explorer.demo_graph); got {type} {build}")
BUILT_NOT_A_GRAPH = N_("SessionExplorer needs a course_lib.static Graph (or a function that builds one); the build "
                       "function returned {type} {graph}")
NO_FIRST_GRAPH = N_("SessionExplorer could not build its first graph: {error}")
FETCH_NOT_A_NAME = N_("fetch={fetch} is not a node name: pass the name of an operation, like fetch='y' (the widget "
                      "fetches the graph's last operation for now).")
FETCH_NOT_IN_GRAPH = N_("fetch={fetch} is not an operation of this graph: pass one of {names} (the widget fetches "
                        "{default} for now).")
FEEDS_NOT_A_DICT = N_("feeds={feeds} is not a dict: pass the placeholders to feed and their values, like {example} "
                      "(the widget feeds what the fetch needs, at 1.0, for now).")
WIDEN = N_("{problem} Pass low= and high= to widen the sliders.")
FEEDS_NOT_A_PLACEHOLDER = Plural("feeds: {name} is not a placeholder of this graph; its only placeholder is {inputs}.",
                                  "feeds: {name} is not a placeholder of this graph; its placeholders are {inputs}.")
FEEDS_NO_PLACEHOLDER = N_("feeds: {name} is not a placeholder of this graph; its placeholders are none.")
NOT_A_PLACEHOLDER = Plural("{name} is not a placeholder of this graph; its only placeholder is {inputs}",
                            "{name} is not a placeholder of this graph; its placeholders are {inputs}")
NO_PLACEHOLDER = N_("{name} is not a placeholder of this graph; its placeholders are none")
NO_NODE_TO_FETCH = Plural("there is no node {name} to fetch; the graph's only operation is {names}",
                           "there is no node {name} to fetch; the graph's operations are {names}")
FEED_NOT_A_NUMBER = N_("{k} must be a number, got {got}: pass a number, like {k}=1.5 (nothing was fed to {k}).")
FEED_NOT_FINITE = N_("{k} must be a finite number, got {got}: pass a number, like {k}=1.5 (nothing was fed to {k}).")
UNFEED_NOT_TEXT = N_("unfeed takes placeholder names as text, like unfeed('x'); got {type} {name}.")
NOT_FED = N_("{name} is not fed now, so there is nothing to unfeed (fed now: {fed}).")
NOTHING_TO_FETCH = N_("this graph has no operation to fetch")
FINALIZED = N_("the graph is finalized: running still works, adding a node does not")


def demo_graph() -> st.Graph:
    """The explorer's default graph: two fetchable results over three placeholders.

    ``y = sin(x·w + 1)`` needs only x and w. ``z = tanh(y·(2·3) + b·(x·w))`` needs b too; compiling it folds
    ``2·3`` into 6 and merges the second ``x·w`` into the first.
    """
    g = st.Graph("brick wall")
    with g.as_default():
        x, w, b = st.placeholder("x"), st.placeholder("w"), st.placeholder("b")
        y = st.sin(x * w + 1.0, name="y")
        scale = st.constant(2.0) * st.constant(3.0)
        st.tanh(y * scale + b * (x * w), name="z")
    return g


class SessionExplorer(CourseWidget):
    """Fetch, feed, add a node, finalize: ``Session.run`` on a define-then-run graph, live.

    ``build``: a function returning a fresh :class:`course_lib.static.Graph` (default :func:`demo_graph`; "start
    over" calls it again) or a graph itself. ``fetch``: the node to fetch first. ``feeds``: the placeholders fed at
    the start and their values (default: the ones the first fetch needs, at 1.0 each).
    """

    def __init__(self, build: Callable[[], st.Graph] | st.Graph | None = None, fetch: str | None = "y",
                 feeds: dict[str, float] | None = None, *, theme: str | render.Theme | None = None,
                 low: float = -3.0, high: float = 3.0) -> None:
        build = demo_graph if build is None else build
        if not isinstance(build, st.Graph) and not callable(build):
            raise TypeError(say(NOT_A_GRAPH, type=type(build).__name__, build=f"{build!r:.40}"))
        super().__init__(theme=theme)
        self._uid = next(_ids)
        self._feeds: dict[str, tuple[Any, Any]] = {}
        self._build = build if callable(build) else None
        self._initial_graph = build if isinstance(build, st.Graph) else None
        self.low, self.high, self._problems = read_range(low, high, (-3.0, 3.0))
        if fetch is not None and not isinstance(fetch, str):
            self._problems.append(say(FETCH_NOT_A_NAME, fetch=shown(fetch)))
            fetch = None
        self._initial = (fetch, self._read_feeds(feeds))
        self.value: Any = None
        self.ran: list[str] = []
        self._layouts: dict[int, render.Layout] = {}
        self._busy = False
        self._last_request: tuple[Any, ...] | None = None
        big = W.Layout(height="40px", width="auto", min_width="150px")
        bstyle = self.button_style()
        fetch_label = N_("fetch")
        self.fetch = W.Dropdown(description=_(fetch_label), layout=W.Layout(width="260px", height="40px"),
                                style={"description_width": wider(3.5, "em", [fetch_label])})
        self.add_button = W.Button(description=_("add a node: fetch + 1"), layout=big, style=bstyle,
                                   tooltip=_("append an add node to the graph and fetch it"))
        self.finalize_button = W.Button(description="finalize()", layout=big, style=bstyle,
                                        tooltip=_("make the graph immutable, as TensorFlow's MonitoredSession does"))
        self.restart_button = W.Button(description=_("start over"), layout=big, style=bstyle,
                                       tooltip=_("a new graph and a new Session"), disabled=self._build is None)
        self.feed_box = W.VBox([])
        self.call = W.HTML("")
        self.plan_view = W.HTML("")
        self.graph_view = W.HTML("", layout=W.Layout(min_height="300px", width="auto"))
        self.legend = W.HTML(render.legend_svg(self.theme), layout=W.Layout(width="auto"))
        # one line on a projector: the graph under it gets the height
        self.head_text = _("<b>Session.run</b>: the only way in (feed) and out (fetch) of the graph")
        self.head = self.html(self.head_text, "heading")
        self.buttons = W.HBox([self.fetch, self.add_button, self.finalize_button, self.restart_button],
                              layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.wide: bool | None = None  # how the graph is placed: under the controls (True) or beside them
        self.fetch.observe(self._on_change, "value")
        self.add_button.on_click(lambda _b: self.add_node())
        self.finalize_button.on_click(lambda _b: self.finalize())
        self.restart_button.on_click(lambda _b: self.start_over())
        self.start_over()
        if not hasattr(self, "graph"):
            raise TypeError(say(NO_FIRST_GRAPH, error=self._start_error))

    def _read_feeds(self, feeds: Any) -> dict[str, float] | None:
        """The feeds argument as {name: finite number}; anything else is left out, and said so."""
        if feeds is None:
            return None
        if not isinstance(feeds, dict):
            self._problems.append(say(FEEDS_NOT_A_DICT, feeds=f"{feeds!r:.60}", example="feeds={'x': 3.0, 'w': 2.0}"))
            return None
        out = {}
        for k, v in feeds.items():
            got, problem = read_number(v, f"feeds[{k!r:.40}]", 1.0, low=self.low, high=self.high)
            if problem:
                self._problems.append(say(WIDEN, problem=problem) if out_of_range(v, self.low, self.high) else problem)
            out[str(k)] = float(got)
        return out

    # ------------------------------------------------------------------ public actions (also the buttons)
    def start_over(self) -> None:
        """A fresh graph (from ``build``) and a fresh Session, with the initial fetch and feeds."""
        try:
            graph = self._build() if self._build is not None else self._initial_graph
            if not isinstance(graph, st.Graph):
                raise TypeError(say(BUILT_NOT_A_GRAPH, type=type(graph).__name__, graph=f"{graph!r:.40}"))
        except Exception as exc:  # noqa: BLE001 - shown in the widget
            self._start_error = f"{type(exc).__name__}: {exc}"
            self.show_error(self._start_error)
            return
        self.graph = graph
        self.session = st.Session(graph)
        self._layouts.clear()
        fetch, feeds = self._initial
        names = self._fetchable()
        problems = list(self._problems)
        if fetch is not None and fetch not in names:
            problems.append(say(FETCH_NOT_IN_GRAPH, fetch=f"{fetch!r:.40}", names=", ".join(names),
                                default=repr(names[-1] if names else _("nothing"))))
        fetch = fetch if fetch in names else (names[-1] if names else None)
        if feeds is None:
            feeds = {n: 1.0 for n in self._needed_placeholders(fetch)}
        inputs = [n.name for n in self.graph.nodes if n.kind == "input"]
        problems += [say(FEEDS_NOT_A_PLACEHOLDER if inputs else FEEDS_NO_PLACEHOLDER, name=repr(k),
                         inputs=", ".join(inputs), n=len(inputs)) for k in feeds if k not in inputs]
        self._make_feeds(feeds)
        self._set_options(names, fetch)
        self._last_request = None
        self._run()
        self.show_problems(problems)

    def set_fetch(self, name: str) -> None:
        """Fetch another node (the same as choosing it in the dropdown)."""
        if not isinstance(name, str) or name not in self.fetch.options:  # an array has no truth to test `in` with
            self.show_error(say(NO_NODE_TO_FETCH, name=shown(name), names=", ".join(self.fetch.options),
                                n=len(self.fetch.options)))
            return
        if self.fetch.value == name:
            self._run()
        else:
            self.fetch.value = name

    def feed(self, **values: float) -> None:
        """Feed placeholders (tick their box) with these values, then run."""
        problems = []
        with self._batch():
            for k, v in values.items():
                if k not in self._feeds:
                    problems.append(say(NOT_A_PLACEHOLDER if self._feeds else NO_PLACEHOLDER, name=repr(k),
                                        inputs=", ".join(self._feeds), n=len(self._feeds)))
                    continue
                box, slider = self._feeds[k]
                got, problem = read_slider(v, k, slider, refused=(FEED_NOT_A_NUMBER, FEED_NOT_FINITE))
                problems.append(problem)
                if got is not None:  # in range, or brought into it as the slider would
                    slider.value = got
                    box.value = True
        self._run()
        self.show_problems(problems)

    def unfeed(self, *names: str) -> None:
        """Stop feeding these placeholders (untick their box), then run. A name that is not a placeholder, or
        not fed now, is said (the others are unfed all the same)."""
        problems = []
        with self._batch():
            for k in names:
                if not isinstance(k, str):
                    problems.append(say(UNFEED_NOT_TEXT, type=type(k).__name__, name=shown(k)))
                elif k not in self._feeds:
                    problems.append(say(NOT_A_PLACEHOLDER if self._feeds else NO_PLACEHOLDER, name=repr(k),
                                        inputs=", ".join(self._feeds), n=len(self._feeds)))
                elif not self._feeds[k][0].value:
                    problems.append(say(NOT_FED, name=repr(k), fed=", ".join(self.fed) or _("nothing")))
                else:
                    self._feeds[k][0].value = False
        self._run()
        self.show_problems(problems)

    def add_node(self) -> None:
        """Append ``fetch + 1`` to the graph (two nodes: a constant and an add) and fetch the new node."""
        current = self.fetch.value
        if current is None:
            return
        try:
            with self.graph.as_default():
                new = self.graph.get_tensor(current) + 1.0
        except st.GraphFinalizedError as exc:
            self.show_error(f"GraphFinalizedError: {exc}")
            self.shown = [said_by(exc)]
            return
        self._layouts.clear()
        self._set_options(self._fetchable(), new.name)
        self._run()

    def finalize(self) -> None:
        """``graph.finalize()``: from now on, adding a node is refused (running is still fine)."""
        self.graph.finalize()
        self._run()

    @property
    def compile_count(self) -> int:
        return self.session.compile_count

    @property
    def fed(self) -> list[str]:
        return [k for k, (box, _s) in self._feeds.items() if box.value]

    def __repr__(self) -> str:
        fetch = self.fetch.value if hasattr(self, "fetch") else None
        if not hasattr(self, "graph"):
            return "SessionExplorer(no graph)"
        c = self.session.compile_count
        final = ", finalized" if self.graph.finalized else ""
        return (f"SessionExplorer(fetch {fetch!r}, fed {', '.join(self.fed) or 'nothing'}; "
                f"nodes={len(self.graph)}, compiles={c}{final})")

    # ------------------------------------------------------------------ building the controls
    def _fetchable(self) -> list[str]:
        return [n.name for n in self.graph.nodes if n.kind == "op"]

    def _needed_placeholders(self, fetch: str | None) -> list[str]:
        if fetch is None:
            return []
        return [n.name for n in self.graph.ancestors([self.graph[fetch]]) if n.kind == "input"]

    def _set_options(self, names: list[str], value: str | None) -> None:
        with self._batch():
            self.fetch.options = names
            self.fetch.value = value

    def _make_feeds(self, feeds: dict[str, float]) -> None:
        self._feeds = {}
        rows = []
        feed_label = N_("feed {name}")
        for n in self.graph.nodes:
            if n.kind != "input":
                continue
            start = feeds.get(n.name, 1.0)
            box = W.Checkbox(value=n.name in feeds, description=_(feed_label).format(name=n.name), indent=False,
                             layout=W.Layout(width=wider(110, "px", [feed_label])))
            slider = W.FloatSlider(value=min(max(float(start), self.low), self.high), min=self.low, max=self.high,
                                   step=0.1, description=n.name, readout_format=".2f", continuous_update=True,
                                   layout=W.Layout(width="min(100%, 360px)", height="36px"),
                                   style={"description_width": "2.8em"})
            box.observe(self._on_change, "value")
            slider.observe(self._on_change, "value")
            self._feeds[n.name] = (box, slider)
            rows.append(W.HBox([box, slider], layout=W.Layout(align_items="center")))
        self.feed_box.children = rows

    class _Batch:
        def __init__(self, owner: SessionExplorer) -> None:
            self.owner = owner

        def __enter__(self) -> None:
            self.was = self.owner._busy
            self.owner._busy = True

        def __exit__(self, *exc: object) -> None:
            self.owner._busy = self.was

    def _batch(self) -> SessionExplorer._Batch:
        """Change several controls and run once afterwards (not once per control)."""
        return SessionExplorer._Batch(self)

    def _on_change(self, _change: Any) -> None:
        if not self._busy:
            self._run()

    # ------------------------------------------------------------------ running and showing
    @guarded
    def _run(self) -> None:
        fetch = self.fetch.value
        if fetch is None:
            self.show_note(say(NOTHING_TO_FETCH))
            return
        # rounded: the browser snaps a slider to its step (3.0 may come back as 2.9999999999999996)
        fed = {k: round(float(s.value), 9) for k, (box, s) in self._feeds.items() if box.value}
        request = (fetch, tuple(fed.items()), self.graph.version, self.graph.finalized, id(self.session))
        if request == self._last_request:  # e.g. the browser echoing a value back: nothing changed, nothing to do
            return
        self._last_request = request
        feed_dict = {self.graph.get_tensor(k): v for k, v in fed.items()}
        fed_text = ", ".join(f"{k}: {v:g}" for k, v in fed.items())  # Python's numbers: the call is code
        call = f"sess.run({fetch!r}, feed_dict={{{fed_text}}})"
        before = self.session.compile_count
        self.value, self.ran = None, []
        try:
            self.value = self.session.run(fetch, feed_dict=feed_dict)
        except (st.MissingFeedError, st.ShapeError, st.FetchError) as exc:
            self.show_error(f"{type(exc).__name__}: {exc}")
            self.shown = [said_by(exc)]
            self.call.value = self._call_html(call, None, before)
            self.plan_view.value = ""
            self.graph_view.value = self._svg({})
            return
        plan = self.session.last_plan
        assert plan is not None
        observed = plan.run_observed([np.asarray(fed[n.name], dtype=np.float64) for n in plan.fed])
        values = {n.id: v for n, v in observed}
        self.ran = [n.name for n in self.graph.nodes if n.id in values]
        self.show_note(say(FINALIZED) if self.graph.finalized else "")
        self.call.value = self._call_html(call, self.value, before)
        self.plan_view.value = self._plan_html(plan)
        self.graph_view.value = self._svg(values)

    def _call_html(self, call: str, value: Any, before: int) -> str:
        size = self.sizes.ui
        after = self.session.compile_count
        if value is None:
            result = _("no value: the run was refused")
            why = _("nothing was compiled")
        else:
            result = short_value(value)
            why = (_("this call compiled a new plan (new fetch or feeds, or the graph changed)") if after > before
                   else _("this call reused the cached plan: nothing to compile"))
        n = len(self.graph)
        finalized = " " + _("(finalized)") if self.graph.finalized else ""
        return (f'<div style="font-size:{size}px"><div style="font-family:monospace;background:#F4F4F4;'
                f'padding:4px 8px;border-radius:4px;overflow-x:auto">{esc(call)}<br>→ <b>{esc(result)}</b></div>'
                "<div>" + _("compiles so far: <b>{count}</b> ({why})").format(count=after, why=esc(why))
                + " · " + say(Plural("graph: <b>{n}</b> node", "graph: <b>{n}</b> nodes"), n=n)
                + f"{esc(finalized)}</div></div>")  # one paragraph: a line less above the graph

    def _plan_html(self, plan: st.Plan) -> str:
        r = plan.report
        size, mono = self.sizes.ui, self.sizes.mono
        pruned = r.get("graph_nodes", 0) - r.get("needed", 0)
        nodes = r.get("graph_nodes", 0)
        lines = _("needed by the fetch: {needed} of {nodes} (pruned {pruned}); constants folded: {folded}; duplicates "
                  "merged: {merged}; steps run: {steps}").format(
            needed=r.get("needed"), nodes=say(Plural("{n} node", "{n} nodes"), n=nodes), pruned=pruned,
            folded=r.get("folded"), merged=r.get("merged"), steps=r.get("steps"))
        return (f'<div style="font-size:{size}px;margin-top:6px">'
                + _("<b>The compiled plan</b> — {details}").format(details=esc(lines)) + "</div>"
                f'<pre style="font-size:{mono}px;line-height:1.3;background:#F4F4F4;padding:6px 8px;'
                f'border-radius:4px;overflow-x:auto;margin:4px 0">{esc(plan.source())}</pre>')

    def _svg(self, values: dict[int, Any]) -> str:
        version = self.graph.version
        lay = self._layouts.get(version)
        if lay is None:
            self._layouts.clear()
            every = {n.id: "done" for n in self.graph.nodes}
            lay = render.Layout(self.graph, theme=self.theme, prefix=f"se{self._uid}v{version}", reserve=[every],
                                room="value")
            self._layouts[version] = lay
        state = {n.id: ("done" if n.id in values else "defined") for n in self.graph.nodes}
        self._arrange(lay.ok and lay.width > WIDE * lay.height)
        with np.errstate(all="ignore"):
            return lay.svg(state, values=values, max_height=fit_height(self.room() if self.wide else 0))

    def _arrange(self, wide: bool) -> None:
        """A wide graph (one-line labels on a projector) goes under the controls, across the whole width: beside a
        column of controls it had 60% of it, too little to read. A tall one (two-line labels on a laptop) goes
        beside the controls, from the widget's top down. What the call did stays beside the feeds or under them."""
        if wide == self.wide:
            return
        self.wide = wide
        if wide:
            self.feed_box.layout = W.Layout(flex="0 0 auto", min_width="0", margin="0 16px 0 0")
            self.call.layout = W.Layout(flex="1 1 320px", min_width="0")
            self.graph_view.layout = W.Layout(min_height="300px", width="auto")
            self.children = [self.head, self.buttons, W.HBox([self.feed_box, self.call], layout=W.Layout(
                flex_flow="row wrap", align_items="flex-start")), self.message, self.graph_view, self.plan_view,
                self.legend]
            return
        self.feed_box.layout, self.call.layout = W.Layout(), W.Layout()
        self.graph_view.layout = W.Layout(min_height="300px", flex="1 1 0%", min_width="0")
        left = W.VBox([self.head, self.buttons, self.feed_box, self.message, self.call, self.plan_view],
                      layout=W.Layout(flex="0 1 40%", min_width="min(100%, 320px)", margin="0 12px 0 0"))
        self.children = [W.HBox([left, self.graph_view], layout=W.Layout(width="100%", flex_flow="row wrap",
                                                                        align_items="flex-start")), self.legend]

    def room(self) -> int:
        """px of the widget above its graph: the heading, the buttons, then a row per placeholder (40 px each)
        beside what the call did (the call and its value, the compiles' sentence, the graph's size)."""
        z = self.sizes
        head = lines_px(z.heading, text_lines(re.sub("<[^>]+>", "", self.head_text), z.heading)) + 2
        said = re.sub("<[^>]+>", "", self.call.value.replace("<br>", "\n").replace("</div>", "\n")).splitlines()
        call = lines_px(z.ui, sum(text_lines(line, z.ui, 700) for line in said if line.strip())) + 16
        return head + ROW_PX + max(40 * max(1, len(self._feeds)), call) + 16
