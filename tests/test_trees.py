"""The parse-tree reader of notebook 07: what a student types becomes a Tree or a TreeError with a position."""

from __future__ import annotations

import numpy as np
import pytest

from course_lib.i18n import message_of
from course_lib.lessons import trees
from course_lib.lessons.trees import Tree, TreeError, parse


def test_example_sentence() -> None:
    t = parse("((the cat) (sat (on (the mat))))")
    assert t.words == ["the", "cat", "sat", "on", "the", "mat"]
    assert t.height == 4 and t.size == 11 and t.compositions == 5
    assert t.text == "((the cat) (sat (on (the mat))))"
    assert t.shape() == "((* *) (* (* (* *))))"


@pytest.mark.parametrize("text", ["cat", "(a b)", "((a b) c)", "(a (b (c d)) e)", "(don't  stop)", "((x))"])
def test_round_trip(text: str) -> None:
    t = parse(text)
    assert parse(t.text) == t


def test_spacing_and_top_level_items() -> None:
    assert parse("  ( the   cat )  ") == parse("(the cat)")
    assert parse("the cat sat").text == "(the cat sat)"
    assert parse("(a b) c").text == "((a b) c)"
    assert parse("cat").is_leaf


@pytest.mark.parametrize(
    ("text", "said", "values", "hint", "position"),
    [
        ("", trees.EMPTY, {}, trees.EMPTY_HINT, None),
        ("   ", trees.EMPTY, {}, trees.EMPTY_HINT, None),
        ("(the cat", trees.NEVER_CLOSED, {}, trees.NEVER_CLOSED_HINT, 0),
        ("((the cat) sat", trees.NEVER_CLOSED, {}, trees.NEVER_CLOSED_HINT, 0),
        ("(a (b c)", trees.NEVER_CLOSED, {}, trees.NEVER_CLOSED_HINT, 0),
        ("(a b))", trees.CLOSES_NOTHING, {}, trees.CLOSES_NOTHING_HINT, 5),
        (")", trees.CLOSES_NOTHING, {}, trees.CLOSES_NOTHING_HINT, 0),
        ("(a () b)", trees.EMPTY_BRACKETS, {}, trees.EMPTY_BRACKETS_HINT, 3),
        ("(" * 31 + "a" + ")" * 31, trees.TOO_DEEP, {"max_depth": 30}, trees.TOO_DEEP_HINT, 30),
        (" ".join(["w"] * 65), trees.TOO_MANY_WORDS, {"max_words": 64}, trees.TOO_MANY_WORDS_HINT, 128),
        ("x" * 41, trees.WORD_TOO_LONG, {"max_word": 40}, trees.WORD_TOO_LONG_HINT, 0),
        ("(a b\x07)", trees.CONTROL_CHARACTER, {}, trees.CONTROL_CHARACTER_HINT, 3),
    ],
)
def test_errors_say_what_and_where(text: str, said: str, values: dict, hint: str, position: int | None) -> None:
    """Which message was said (and its values), its hint and its column: not English words, which change with
    the language."""
    with pytest.raises(TreeError) as info:
        parse(text)
    err = info.value
    assert message_of(err).msgid is said and message_of(err).values == values
    assert err.message == message_of(err)  # the text shown is the message said
    assert err.hint.msgid is hint
    assert err.position == position
    if position is not None:
        assert err.pointer(text).splitlines()[-1] == " " * position + "^"


def test_the_english_text_of_an_error_is_unchanged() -> None:
    """One end-to-end check of the English words (the doctest of the module has another)."""
    with pytest.raises(TreeError) as info:
        parse("(a b))")
    assert str(info.value) == "this ')' closes nothing at column 6. Remove it, or add a '(' before it"


def test_inner_unclosed_bracket_points_at_the_innermost_open_one() -> None:
    with pytest.raises(TreeError) as info:
        parse("(a (b c")
    assert info.value.position == 3


def test_not_text_is_refused() -> None:
    with pytest.raises(TreeError) as info:
        parse(42)  # type: ignore[arg-type]
    assert message_of(info.value).msgid is trees.NOT_TEXT and message_of(info.value).values == {"type": "int"}


def test_no_eval_reaches_python() -> None:
    """Python syntax is just words here: nothing is executed, and it parses as words."""
    t = parse("(__import__('os').system('echo') x)")
    assert "__import__" in t.words[0]


def test_binarized_reads_left_to_right_and_drops_unary() -> None:
    assert parse("(a b c d)").binarized().text == "(((a b) c) d)"
    assert parse("((a))").binarized() == Tree(word="a")
    t = parse("(a (b c d) (e))")
    assert t.binarized().text == "((a ((b c) d)) e)"
    assert t.compositions == t.binarized().compositions == 4


def test_heights_are_the_levels_of_the_tree() -> None:
    t = parse("((a b) (c (d e)))")
    order = [n.word or n.text for n in t.postorder()]
    heights = t.heights()
    assert [heights[k] for k in range(len(order))] == [0, 0, 1, 0, 0, 0, 1, 2, 3]


def test_deep_trees_need_no_recursion() -> None:
    """10,000 levels built in code: every walk is iterative."""
    t = Tree(word="w0")
    for k in range(1, 10_000):
        t = Tree(children=(t, Tree(word=f"w{k}")))
    assert t.height == 9_999
    assert len(t.words) == 10_000
    assert t.binarized().compositions == 9_999
    assert t.text.startswith("(" * 9_999)
    assert parse(t.text, max_depth=10_000, max_words=10_000) == t


def test_a_tree_is_a_leaf_or_a_phrase() -> None:
    with pytest.raises(ValueError) as info:
        Tree()
    assert message_of(info.value).msgid is trees.LEAF_OR_PHRASE
    with pytest.raises(ValueError) as info:
        Tree(word="a", children=(Tree(word="b"),))
    assert message_of(info.value).msgid is trees.LEAF_OR_PHRASE


def test_random_trees_and_word_vectors_are_deterministic() -> None:
    a = [trees.random_tree(6, np.random.default_rng(3)) for _ in range(2)]
    assert a[0] == a[1] and len(a[0].words) == 6 and len(set(a[0].words)) == 6
    assert np.array_equal(trees.word_vector("cat", 4), trees.word_vector("cat", 4))
    assert not np.allclose(trees.word_vector("cat", 4), trees.word_vector("dog", 4))
    with pytest.raises(ValueError) as info:
        trees.random_tree(0, np.random.default_rng(0))
    assert message_of(info.value).msgid is trees.NO_WORDS


def test_nested_pairs_follow_the_binarized_tree() -> None:
    assert parse("((the cat) sat)").nested(str.upper) == (("THE", "CAT"), "SAT")
    assert parse("(a b c)").nested(len) == ((1, 1), 1)
    assert parse("cat").nested(str.upper) == "CAT"
