"""The live widgets of notebooks 07 and 08's tree part: typed trees redraw the graph, errors stay inline."""

from __future__ import annotations

import pytest

from course_lib.lessons import fold, tree_rnn, tree_widgets, trees
from course_lib.widgets.base import said_ids


def test_tree_explorer_follows_the_typed_tree() -> None:
    e = tree_widgets.TreeExplorer("((the cat) sat)")
    assert repr(e) == "TreeExplorer('((the cat) sat)', words=3, cells=2, ops=8)"
    assert tree_rnn.cells(e.view_graph) == ["h(the₁ cat₂)", "h(the₁ cat₂ sat₃)"]
    assert "built and compiled" in e.summary.value and e.cache.graphs_built == 1
    e.set_text("((a dog) ran)")  # same shape: reused
    assert "reused" in e.summary.value and e.cache.graphs_built == 1
    e.set_text("(a b c d)")  # read as (((a b) c) d): height 3
    assert "height 3" in e.summary.value and e.cache.graphs_built == 2


def test_tree_explorer_shows_errors_inline_and_keeps_the_last_graph() -> None:
    e = tree_widgets.TreeExplorer("((the cat) sat)")
    before = e.picture.value
    e.set_text("((the cat) sat")
    assert said_ids(e) == [trees.NEVER_CLOSED] and "^" in e.message.value
    assert e.picture.value == before and e.error.startswith("this '(' is never closed")
    e.set_text("")
    assert said_ids(e) == [trees.EMPTY]
    e.set_text(42)
    assert said_ids(e) == [tree_widgets.NOT_TEXT] and e.shown[0].values["type"] == "int"
    e.set_text("(big dog)")
    assert e.message.value == "" and e.error == "" and "words=2" in repr(e)


def test_tree_explorer_shows_a_parse_error_with_its_column_hint_and_the_graph_kept() -> None:
    """The English text of the message box, end to end, once."""
    e = tree_widgets.TreeExplorer("((the cat) sat)")
    e.set_text("(a b))")
    assert ("this ')' closes nothing (column 6)\n(a b))\n     ^\nHint: Remove it, or add a '(' before it\n"
            "(The graph below is still that of ((the cat) sat).)") in e.message.value.replace("&#x27;", "'")


def test_an_unknown_view_is_said_and_the_first_view_drawn() -> None:
    e = tree_widgets.TreeExplorer("((the cat) sat)", view="nope")
    assert said_ids(e) == [tree_widgets.UNKNOWN_VIEW] and e.view.value == tree_widgets.VIEWS[0]
    assert e.shown[0].values["view"] == "'nope'"


def test_tree_explorer_views() -> None:
    e = tree_widgets.TreeExplorer("((the cat) sat)")
    assert "left out of this view" in e.view_note.value and "left out" not in e.summary.value  # under the tree
    e.view.value = tree_widgets.VIEWS[1]
    assert "left out" not in e.view_note.value
    assert [n.name for n in e.view_graph.nodes if n.kind == "variable"] == ["W_L", "W_R"]


def test_batching_explorer_counts_and_caps_the_picture() -> None:
    b = tree_widgets.BatchingExplorer(trees=3, words=4, seed=0)
    assert "<svg" in b.picture.value
    b.n_trees.value = 40
    assert b.counts is not None and b.counts.trees == 40
    assert "too many to draw" in b.picture.value and "<svg" not in b.picture.value
    assert b.counts.by_depth == 8 * b.counts.levels + 1 and b.counts.per_node == 4 * b.counts.phrases


def test_a_failing_callback_shows_its_error_and_the_widget_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    b = tree_widgets.BatchingExplorer(trees=3, words=4, seed=0)

    def broken(_batch: object) -> None:
        raise ValueError("no counts today")

    monkeypatch.setattr(fold, "op_counts", broken)
    b.seed.value = 1  # the slider's callback raises: shown in the widget, not swallowed by JupyterLab
    assert "<b>Problem:</b> ValueError: no counts today" in b.message.value
    monkeypatch.undo()
    b.seed.value = 2
    assert b.message.value == "" and b.counts is not None and b.counts.trees == 3


def test_the_batching_table_keeps_its_english_words() -> None:
    """English end to end, once: the table's words, with "1 level" for one level and "2 levels" for two."""
    b = tree_widgets.BatchingExplorer(trees=1, words=2, seed=0)
    assert b.counts is not None and b.counts.levels == 1
    assert "9 (8 per level x 1 level + 1)" in b.table.value and "one node at a time" in b.table.value
    b = tree_widgets.BatchingExplorer(trees=1, words=3, seed=0)
    assert b.counts is not None and b.counts.levels == 2
    assert "17 (8 per level x 2 levels + 1)" in b.table.value
