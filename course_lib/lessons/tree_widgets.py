"""Live widgets of notebook 07: type a parse tree and watch the graph follow it; batch trees by depth.

* :class:`TreeExplorer` -- a text box for a bracketed tree (read by :func:`course_lib.lessons.trees.parse`, never eval).
  Enter redraws the define-by-run graph the tree-RNN records for it and says what define-then-run had to do:
  build a graph for this tree's shape, or reuse the one built for an earlier tree of the same shape.
* :class:`BatchingExplorer` -- sliders choose a batch of random trees; the picture puts every node of every tree in
  the cluster of its level (what TensorFlow Fold runs as one batched op) and a table counts the ops both ways.

Like the course's other widgets: errors appear inline in words (with a caret under the problem) and the widget keeps
working; every callback is guarded; the text repr is one short stable line (nbval compares it).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from .. import render
from ..i18n import N_, Plural, said_by, say
from ..i18n import gettext as _
from ..widgets.base import CourseWidget, guarded, message_html
from ..widgets.base import ipywidgets as W
from ..widgets.html import esc
from ..widgets.inputs import read_number
from ..widgets.sizing import fit_height, wider
from . import fold, tree_rnn, trees

__all__ = ["BatchingExplorer", "TreeExplorer", "words_only"]

#: the two drawings of the tree explorer: the values of ``view=`` (English, as code passes them), shown translated
VIEWS = (N_("one box per cell"), N_("every op"))
MAX_DRAWN = 80  # nodes in the batching picture; past it only the counts are shown
_ids = itertools.count(1)


NET_NOT_A_TREE_RNN = N_("TreeExplorer's net must be a tree_rnn.TreeRNN (e.g. tree_rnn.TreeRNN()), or None for the "
                        "course's own; got {type} {net}")
UNKNOWN_VIEW = N_("view={view} is not a view of this widget: pass one of {views} (the widget draws {default} for now).")
NOT_TEXT = N_("a tree is text like '((the cat) sat)', got {type} {text}: pass the tree in quotes")
TOO_MANY_TO_DRAW = N_("{nodes} nodes are too many to draw legibly (at most {most}); the counts above are exact. "
                      "Move the sliders down to see the picture.")

#: px of the tree explorer above its picture: the box and switch, the summary (four lines on a projector)
TREE_TOP = 240


def words_only(graph: Any) -> tuple[Any, dict[int, str]]:
    """``graph`` (a fresh view, changed in place) with its words' vectors taken off, and the state that draws every
    node as run: a leaf then reads ``✓ the₁``, not ``✓ the₁ = [-0.949, -0.562, -0.766]``.

    >>> g, state = words_only(tree_rnn.graph_view(tree_rnn.TreeRNN().encode(trees.parse("(a b)"))))
    >>> [(n.name, n.value) for n in g.nodes if n.kind == "input"], set(state.values())
    ([('a₁', None), ('b₂', None)], {'done'})
    """
    for n in graph.nodes:
        if n.kind == "input":
            n.value = None
    return graph, {n.id: "done" for n in graph.nodes}


class TreeExplorer(CourseWidget):
    """Type a parse tree, press Enter: the tree-RNN's define-by-run graph for it, drawn bottom-up like the tree.

    >>> e = TreeExplorer("((the cat) sat)")
    >>> e
    TreeExplorer('((the cat) sat)', words=3, cells=2, ops=8)
    >>> e.set_text("((the cat) sat"); e.error.startswith("this '(' is never closed")
    True
    >>> from course_lib.widgets.base import said_ids
    >>> said_ids(e) == [trees.NEVER_CLOSED]
    True
    """

    monospace_messages = True  # a parse error puts a caret under the typed text

    def __init__(self, text: str = "((the cat) (sat (on (the mat))))", *, net: tree_rnn.TreeRNN | None = None,
                 view: str = VIEWS[0], theme: str | render.Theme | None = None) -> None:
        super().__init__(theme=theme)
        if net is not None and not isinstance(net, tree_rnn.TreeRNN):
            raise TypeError(say(NET_NOT_A_TREE_RNN, type=type(net).__name__, net=f"{net!r:.40}"))
        view_problem = "" if isinstance(view, str) and view in VIEWS else say(
            UNKNOWN_VIEW, view=f"{view!r:.40}", views=", ".join(map(repr, VIEWS)), default=repr(VIEWS[0]))
        self.net = net or tree_rnn.TreeRNN()
        self.cache = tree_rnn.ShapeCache(self.net)
        self.tree: trees.Tree | None = None
        self._new_graph = False
        self.view_graph: Any = None
        self.error = ""
        self._prefix = f"te{next(_ids)}"
        tree_label, draw_label = N_("tree:"), N_("draw:")
        self.text = W.Text(value="", description=_(tree_label), continuous_update=False,
                           placeholder=_("e.g. {example}").format(example="((the cat) (sat (on (the mat))))"),
                           layout=W.Layout(width="min(100%, 680px)", height="40px"),
                           style={"description_width": wider(3.5, "em", [tree_label]),
                                  "font_size": f"{self.sizes.heading}px"})
        # each button shows its words in the language of the moment; its value stays the English name code passes
        self.view = W.ToggleButtons(options=[(_(v), v) for v in VIEWS], value=view if view in VIEWS else VIEWS[0],
                                    description=_(draw_label),
                                    style={"description_width": wider(3.5, "em", [draw_label]), "button_width": "auto"})
        help_ = W.HTML(f'<div style="font-size:{self.sizes.small}px">'
                       + _("Type words in brackets and press <b>Enter</b>: <code>(the cat)</code> is a phrase of two "
                           "words; <code>(a b c)</code> is read as <code>((a b) c)</code>. Nothing you type is run as "
                           "Python.") + "</div>")
        self.summary = W.HTML("")
        self.picture = W.HTML("", layout=W.Layout(min_height="320px", width="auto"))
        self.view_note = W.HTML("")  # what this view leaves out: under the tree, which it explains
        # the box and the view switch on one band, what each style did, the tree, then the help under it: the tree
        # starts higher and stays on the screen whole (in French too: the view's note above it took two more lines)
        self.children = [W.HBox([self.text, self.view], layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.message, self.summary, self.picture, self.view_note, help_]
        self.text.observe(self._on_text, "value")
        self.view.observe(self._on_view, "value")
        self.set_text(text)
        if view_problem:
            self.show_error(view_problem + (f"\n{self.error}" if self.error else ""))
            self.shown = [view_problem] + ([self.error] if self.error else [])

    def __repr__(self) -> str:
        if self.tree is None:
            return "TreeExplorer(no tree yet)"
        t = self.tree
        return (f"TreeExplorer({t.text!r}, words={len(t.words)}, cells={t.compositions}, "
                f"ops={tree_rnn.CELL_OPS * t.compositions})")

    def set_text(self, text: Any) -> None:
        """Type ``text`` and press Enter (what a student does), from code."""
        if not isinstance(text, str):
            self.error = say(NOT_TEXT, type=type(text).__name__, text=f"{text!r:.40}")
            self.show_error(self.error)
            return
        if self.text.value == text:
            self._on_text({"new": text})
        else:
            self.text.value = text

    @guarded
    def _on_text(self, change: dict[str, Any]) -> None:
        text = change["new"]
        try:
            tree = trees.parse(text)
        except trees.TreeError as err:
            self.error = str(err)
            kept = ("\n" + _("(The graph below is still that of {text}.)").format(text=self.tree.text)
                    if self.tree is not None else "")
            shown = err.pointer(text) if len(text) <= 100 else text[:100] + "…"
            where = (_("{message} (column {column})").format(message=err.message, column=err.position + 1)
                     if err.position is not None else f"{err.message}")
            self.show_error(where + f"\n{shown}\n" + _("Hint: {hint}").format(hint=err.hint) + kept)
            self.shown = [said_by(err)]  # which message the parser said, for tests (the box shows its words)
            return
        self.error = ""
        self.clear_message()
        before = self.cache.graphs_built
        self.cache.run(tree)  # define-then-run: a graph for this shape (new or reused)
        self.tree = tree
        self._new_graph = self.cache.graphs_built > before
        self._summary()
        self._draw()

    @guarded
    def _on_view(self, change: dict[str, Any]) -> None:
        if self.tree is not None:
            self._summary()
            self._draw()

    def _draw(self) -> None:
        h = self.net.encode(self.tree)  # type: ignore[arg-type]
        every = self.view.value == VIEWS[1]
        self.view_graph = tree_rnn.graph_view(h, weights=every)
        drawn, state = self.view_graph, None
        if not every:  # the words without their vectors: a vector per leaf made the tree too wide to read
            drawn, state = words_only(tree_rnn.graph_view(h, weights=False))
        collapse = False if every else (tree_rnn.cells(drawn) or False)
        self.picture.value = render.to_svg(drawn, state, rankdir="BT", legend=False, collapse=collapse,
                                           prefix=f"{self._prefix}{'e' if every else 'c'}", theme=self.theme,
                                           max_height=fit_height(TREE_TOP))

    def _summary(self) -> None:
        t = self.tree
        assert t is not None
        new_graph = self._new_graph
        n, c, height = len(t.words), t.compositions, t.binarized().height
        shape = esc(t.binarized().shape())
        static = (_("this shape <code>{shape}</code> is new, so a graph was <b>built and compiled</b> for it")
                  if new_graph else _("a tree of this shape <code>{shape}</code> was seen before, so its graph was "
                                      "<b>reused</b>")).format(shape=shape)
        hidden = "" if self.view.value == VIEWS[1] else " " + _("Each box is one cell (4 ops); the shared weights "
                                                                "W_L, W_R are left out of this view.") + " " + _(
            "So are the words' vectors (3 numbers each): the view “{every}” shows them.").format(every=_(VIEWS[1]))
        ops = tree_rnn.CELL_OPS * c
        by_run = _("<b>Define-by-run</b>: {words} &rarr; {cells} &rarr; {ops}, height {height}; the graph below is "
                   "this sentence's alone.").format(
            words=say(Plural("{n} word", "{n} words"), n=n), cells=say(Plural("{n} cell", "{n} cells"), n=c),
            ops=say(Plural("{n} op recorded", "{n} ops recorded"), n=ops), height=height)
        then_run = _("<b>Define-then-run</b>: {static}. Graphs built so far: <b>{built}</b>, one per distinct shape "
                     "typed.").format(static=static, built=self.cache.graphs_built)
        self.summary.value = (f'<div style="font-size:{self.sizes.ui}px;line-height:1.5">{by_run}<br>'
                              f"{then_run}</div>")
        self.view_note.value = f'<div style="font-size:{self.sizes.ui}px">{hidden.strip()}</div>' if hidden else ""


#: px of the batching explorer above its picture: three sliders and the two-line key
BATCH_TOP = 190


class BatchingExplorer(CourseWidget):
    """A batch of random trees grouped by level (TensorFlow Fold's dynamic batching), with the ops counted.

    >>> BatchingExplorer(trees=3, words=4)
    BatchingExplorer(trees=3, max_words=4, ops_one_node_at_a_time=28, ops_batched_by_depth=25)
    """

    monospace_messages = True  # like the tree explorer next to it

    def __init__(self, trees: int = 4, words: int = 5, seed: int = 0, *, max_trees: int = 40,
                 max_words: int = 8, theme: str | render.Theme | None = None) -> None:
        super().__init__(theme=theme)
        self._prefix = f"be{next(_ids)}"
        problems: list[str] = []

        def read(value: Any, name: str, default: int, low: int, high: int) -> int:
            got, problem = read_number(value, name, default, whole=True, low=low, high=high)
            problems.append(problem)
            return int(got)

        max_trees, max_words = read(max_trees, "max_trees", 40, 1, 200), read(max_words, "max_words", 8, 1, 20)
        trees = read(trees, "trees", min(4, max_trees), 1, max_trees)
        words = read(words, "words", min(5, max_words), 1, max_words)
        seed = read(seed, "seed", 0, 0, 20)
        labels = (N_("trees in the batch"), N_("words, at most"), N_("random seed"))
        style = {"description_width": wider(10, "em", labels)}  # the three sliders start at one line
        lay = W.Layout(width="min(100%, 520px)", height="36px")
        self.n_trees = W.IntSlider(value=trees, min=1, max=max_trees,
                                   description=_(labels[0]), style=style, layout=lay)
        self.n_words = W.IntSlider(value=words, min=1, max=max_words,
                                   description=_(labels[1]), style=style, layout=lay)
        self.seed = W.IntSlider(value=seed, min=0, max=20, description=_(labels[2]),
                                style=style, layout=lay)
        self.table = W.HTML("")
        self.picture = W.HTML("", layout=W.Layout(min_height="260px", width="auto"))
        self.batch: list[trees.Tree] = []
        self.counts: fold.OpCounts | None = None
        for s in (self.n_trees, self.n_words, self.seed):
            s.observe(self._on_change, "value")
        self.key = self.html(esc(_("Each grey box below is one tree; a phrase's row is its level, and one row of "
                                   "phrases across all the trees runs as one batched cell.")))
        # the sliders, then the picture they change (scaled to the screen under them), then the counts: the
        # sliders and the whole picture on a projector's screen together
        self.children = [self.n_trees, self.n_words, self.seed, self.message, self.key, self.picture, self.table]
        self._update()
        self.show_problems(problems)

    def __repr__(self) -> str:
        c = self.counts
        if c is None:
            return "BatchingExplorer(no batch)"
        return (f"BatchingExplorer(trees={c.trees}, max_words={self.n_words.value}, "
                f"ops_one_node_at_a_time={c.per_node}, ops_batched_by_depth={c.by_depth})")

    @guarded
    def _on_change(self, change: dict[str, Any]) -> None:
        self._update()

    def make_batch(self) -> list[trees.Tree]:
        """The batch the sliders describe: tree k has between 1 and ``words`` words (fixed by the seed)."""
        rng = np.random.default_rng(self.seed.value)
        sizes = rng.integers(1, self.n_words.value + 1, size=self.n_trees.value)
        return [trees.random_tree(int(n), rng) for n in sizes]

    def _update(self) -> None:
        self.batch = self.make_batch()
        c = self.counts = fold.op_counts(self.batch)
        size = self.sizes.ui
        rows = [(_("trees"), c.trees, c.trees), (_("cells to compute (phrases)"), c.phrases, c.phrases),
                (_("ops run"), _("{n} ({per} per phrase)").format(n=c.per_node, per=tree_rnn.CELL_OPS),
                 say(Plural("{n} ({per} per level x {levels} level + 1)", "{n} ({per} per level x {levels} levels + 1)",
                            count="levels"), n=c.by_depth, per=fold.LEVEL_OPS, levels=c.levels))]
        body = "".join(f"<tr><td style='padding:2px 10px'>{esc(a)}</td><td style='padding:2px 10px'>{esc(b)}</td>"
                       f"<td style='padding:2px 10px'>{esc(d)}</td></tr>" for a, b, d in rows)
        self.table.value = (
            f'<div style="font-size:{size}px"><table style="border-collapse:collapse"><tr><td></td>'
            "<th style='padding:2px 10px'>" + _("one node at a time") + "</th><th style='padding:2px 10px'>"
            + _("batched by depth (Fold)") + f"</th></tr>{body}</table></div>")
        nodes = sum(t.binarized().size for t in self.batch)
        if nodes <= MAX_DRAWN:
            self.picture.value = render.to_svg(fold.picture(self.batch), rankdir="BT", legend=False,
                                               prefix=f"{self._prefix}", theme=self.theme,
                                               max_height=fit_height(BATCH_TOP))
        else:
            self.picture.value = message_html(say(TOO_MANY_TO_DRAW, nodes=nodes, most=MAX_DRAWN), "note", self.theme,
                                              monospace=True)
        self.clear_message()
