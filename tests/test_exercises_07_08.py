"""The checked exercises of notebooks 07 and 08: the worked solutions pass, wrong answers fail with a hint, an
unanswered `...` shows a hint, and nothing a student types crashes a check."""

from __future__ import annotations

import os

import pytest

from course_lib.i18n import message_of
from course_lib.lessons import exercises
from course_lib.lessons import exercises_07 as ex7

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def test_07_ops_recorded() -> None:
    ex = ex7.ops_recorded()
    assert ex.check(...).ok is None and ex.check(...).hint == 0
    assert ex.check(16).ok and ex.check(16).said.msgid is ex7.OPS_WHY
    wrong = ex.check(20)
    assert wrong.ok is False and wrong.hint is not None and wrong.said.msgid is exercises.NOT_IT
    assert "Hint" in wrong.message  # end to end, in English
    assert ex.check("sixteen").ok is False and ex.check(True).ok is False
    assert ex.check("sixteen").said.msgid is exercises.NUMBER_OF["operations"]
    assert ex.check("16").ok  # numeric text is read as the number, as in every exercise


def test_07_graphs_needed() -> None:
    ex = ex7.graphs_needed()
    assert ex.check(3).ok and ex.check(3).said.values == {"n": 3}
    assert not ex.check(6).ok and not ex.check(4).ok


@pytest.mark.parametrize(("answer", "ok"), [("(a (b (c (d e))))", True), ("((((a b) c) d) e)", True),
                                            ("(a b c d e)", True),  # read left to right: ((((a b) c) d) e)
                                            ("((a b) (c (d e)))", False), ("(a (b (c d)))", False),
                                            ("(a (b (c (d e)))", False), (5, False)])
def test_07_tallest_tree(answer: object, ok: bool) -> None:
    assert bool(ex7.tallest_tree().check(answer).ok) is ok


def test_07_tallest_tree_says_why_a_tree_is_refused() -> None:
    ex = ex7.tallest_tree()
    assert ex.check(5).said.msgid is ex7.TREE_AS_TEXT
    assert ex.check("(a (b (c d)))").said.values == {"n": 4, "words": 5}
    assert ex.check("(a b)").said.msgid is ex7.WORD_COUNT
    lower = ex.check("((a b) (c (d e)))").said
    assert lower.msgid is ex7.TALLER_EXISTS and lower.values == {"n": 3}
    assert ex.check("(a (b (c (d e))))").said.msgid is ex7.TALLEST_WHY


def test_07_tallest_tree_reports_parse_errors_in_words() -> None:
    from course_lib.lessons import trees

    r = ex7.tallest_tree().check("(a (b")
    assert r.ok is False and r.said.msgid is ex7.NOT_A_TREE_YET
    try:
        trees.parse("(a (b")
    except trees.TreeError as err:
        assert r.said.values["error"] == str(err) and message_of(err).msgid  # the parser's own message
    assert "never closed" in r.message  # end to end, in English


def test_07_batched_ops() -> None:
    ex = ex7.batched_ops()
    right = ex.check(32)  # 8 ops x (7 - 3) levels: the chain is 7 tall, the balanced tree 3
    assert right.ok and right.said.values == {"n": 32, "level_ops": 8, "tall": 7, "short": 3}
    assert ex.check(8 * 7 + 1).said.msgid is ex7.WHOLE_COUNT  # batch B's whole count
    assert ex.check(7 * 4).said.msgid is ex7.ONE_NODE_AT_A_TIME  # the chain, one node at a time
    assert ex.check(33).said.msgid is exercises.NOT_IT and not ex.check(8 * 101).ok


@pytest.fixture(scope="module")
def tf():
    from course_lib.adapters.loader import load_tensorflow

    return load_tensorflow()


def test_08_unrolled_ops(tf) -> None:
    from course_lib.lessons import exercises_08 as ex8

    @tf.function
    def unrolled(x, n):
        for _ in range(n):
            x = x * 0.5 + 1.0
        return x

    ex = ex8.unrolled_ops(unrolled)
    assert ex.check(2 + 4 * ex8.UNROLL_N).ok
    assert not ex.check(4 * ex8.UNROLL_N).ok and ex.check(...).ok is None


def test_08_retraces(tf) -> None:
    from course_lib.lessons import exercises_08 as ex8

    ex = ex8.retraces()
    assert ex.check(4).ok
    assert not ex.check(7).ok and not ex.check(5).ok


def test_08_wrong_input() -> None:
    pytest.importorskip("torch")
    from course_lib.lessons import exercises_08 as ex8

    ex = ex8.wrong_input()  # h doubles x when its largest value is above 1; traced on ones, the trace negates
    assert ex.check([2.0, 0.0, -5.0]).ok and ex.check([1.01, 1.0, 1.0]).ok
    for same in ([1.0, 1.0, 1.0], [-1.0, -2.0, 0.5]):  # largest value not above 1: h negates too
        assert not ex.check(same).ok and ex.check(same).said.msgid is ex8.TRACE_IS_RIGHT
    assert not ex.check([1.0]).ok and ex.check([1.0]).said.values == {"n": 1}
    assert not ex.check("abc").ok and ex.check("abc").said.msgid is ex8.THREE_NUMBERS and ex.check(None).ok is None


def test_08_which_capture() -> None:
    from course_lib.lessons import exercises_08 as ex8

    ex = ex8.which_capture_keeps_both_branches()
    assert ex.check({"compile", "export+cond"}).ok
    assert ex.check(["Compile ", "EXPORT+COND"]).ok
    assert not ex.check({"compile"}).ok and not ex.check({"fx", "jit.trace"}).ok
    unknown = ex.check({"tf.function"}).said
    assert unknown.msgid is ex8.UNKNOWN_NAMES and unknown.values["names"] == ["tf.function"]
    assert "unknown names" in ex.check({"tf.function"}).message  # end to end, in English
    assert ex.check({"compile"}).said.msgid is ex8.NOT_QUITE
    assert not ex.check(3).ok and ex.check(3).said.msgid is ex8.A_SET_OF_NAMES


def test_08_5_export_shapes_is_decided_by_real_torch_export() -> None:
    pytest.importorskip("torch")
    from course_lib.lessons import exercises_08

    assert exercises_08.export_verdict() == "b"  # fives: the length is a symbol (an aten.sym_size node) of the graph
    ex = exercises_08.export_shapes()
    assert ex.check("b").ok
    for k in "acd":
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k


def test_07_5_fold_choice_is_decided_by_our_engines() -> None:
    served, candidates = ex7.fold_batches()
    seen = {t.binarized().shape() for batch in served for t in batch}
    assert candidates["b"] and not seen & {t.binarized().shape() for t in candidates["b"]}  # option b says so
    assert len(candidates["a"]) == 200 and max(t.binarized().height for t in candidates["d"]) == 9
    assert ex7.fold_verdict() == "d"  # the one batch the graph of 8 levels refuses
    ex = ex7.fold_choice()
    assert ex.check("d").ok
    for k in "abc":
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k
