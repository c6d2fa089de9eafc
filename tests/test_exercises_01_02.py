"""The exercises of notebooks 01 and 02: the solutions in instructor/ are accepted, wrong answers get a reason and a
hint, junk never crashes, and the facts they rest on are those of the engines and of real TensorFlow/PyTorch."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from course_lib import expr, trace
from course_lib import static as st
from course_lib.lessons import dag_checks, exercises
from course_lib.lessons import exercises_01 as ex1
from course_lib.lessons import exercises_02 as ex2
from course_lib.lessons.session_explorer import demo_graph


@pytest.fixture()
def graph():
    return trace.record(expr.parse("sin(x*w + 1)"), "define-then-run", {"x": 3.0, "w": 2.0}, backward=False).graph


JUNK = ("five", None, [1, 2, 3], {"a": 1}, 3.5, object())


def answers_behave(ex, right, wrong) -> None:
    unanswered = ex.check(...)
    assert unanswered.ok is None and unanswered.hint == 0
    good = ex.check(right)
    assert good.ok is True and good.hint is None and good.said.msgid, good.message  # a course message says why
    bad = ex.check(wrong)
    assert bad.ok is False and bad.hint is not None and bad.said.msgid
    for junk in JUNK:
        assert ex.check(junk).ok is not True


def test_01_node_count() -> None:
    answers_behave(ex1.node_count(), 5, 6)


def test_01_order() -> None:
    """01.2 asks for an order of exp(x) * (x + w), a graph whose orders the notebook never prints, with add before
    exp: exactly two orders qualify."""
    ex = ex1.topological_order()
    answers_behave(ex, ["x", "w", "add", "exp", "mul"], ["x", "w", "exp", "add", "mul"])
    assert ex.check(["w", "x", "add", "exp", "mul"]).ok
    assert ex.check(["x", "w", "exp", "add", "mul"]).said.msgid is dag_checks.NOT_BEFORE  # valid, not what was asked
    assert ex.check(["x", "add", "w", "exp", "mul"]).said.msgid is dag_checks.COMES_BEFORE


def test_01_cycle() -> None:
    answers_behave(ex1.cycle(), ("mul", "x"), ("x", "mul"))
    assert ex1.cycle().check(("add", "w")).ok and not ex1.cycle().check(("exp", "w")).ok


def test_01_reveals_are_the_answers_the_checks_accept() -> None:
    """REVEALS of 01.2 and 01.3 are worked out from the graph: every order and edge listed is accepted, and 01.3 lists
    every refused edge (the five nodes give 25 pairs; the refused ones are those where dst is src or feeds it)."""
    orders = [r for r in ex1.REVEALS["01.2"] if r.startswith("[")]
    assert len(orders) == 4 and all(ex1.topological_order().check(ast.literal_eval(r)).ok for r in orders)
    edges = [ast.literal_eval(r) for r in ex1.REVEALS["01.3"]]
    assert all(ex1.cycle().check(e).ok for e in edges)
    names = [n.name for n in ex1.order_graph().nodes]
    refused = {(a, b) for a in names for b in names if ex1.cycle().check((a, b)).ok}
    assert refused == set(edges) and ("mul", "x") in refused and ("x", "mul") not in refused


def test_01_framework_counts() -> None:
    pytest.importorskip("tensorflow")
    pytest.importorskip("torch")
    ex = ex1.framework_counts()
    answers_behave(ex, (5, 5), (6, 5))  # 6: tf.function's count (with its Identity), not the graph's
    assert ex.check((6, 5)).said.msgid is ex1.TF_COUNT_WRONG
    assert ex.check((5, 4)).said.msgid is ex1.TORCH_COUNT_WRONG and ex.check((1, 1)).said.msgid is ex1.BOTH_COUNTS_WRONG
    assert "the PyTorch count" in ex.check((5, 4)).message  # end to end, in English
    assert ex.check("5, 5").said.msgid is ex1.ANSWER_A_PAIR


def test_01_5_constant_choice_is_decided_by_pytorch() -> None:
    pytest.importorskip("torch")
    # The fact the answer rests on: a constant that requires grad adds exactly one (leaf) node.
    assert ex1.constant_nodes(True) == ex1.constant_nodes(False) + 1
    assert ex1.constant_verdict() == "a"
    ex = ex1.constant_choice()
    assert ex.check("a").ok
    for k in "bcd":
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k
    assert ex.check("e").ok is False and ex.check("e").said.msgid is exercises.ONE_LETTER
    assert ex.check(None).ok is not True


def test_02_needed_feeds() -> None:
    """02.1 asks about mul_2 = y·(2·3), a fetch the notebook never makes: x and w, not b."""
    answers_behave(ex2.needed_feeds(), {"x", "w"}, {"x", "w", "b"})
    assert ex2.needed_feeds().check("x, w").ok and ex2.needed_feeds().check(["W", "X"]).ok
    missing = ex2.needed_feeds().check({"x"}).said
    assert missing.msgid is ex2.MISSING and missing.values == {"names": "w"}
    unneeded = ex2.needed_feeds().check({"x", "w", "b"}).said
    assert unneeded.msgid is ex2.NOT_NEEDED and unneeded.values["names"] == "b"
    # y is needed by mul_2, but it is no placeholder: the verdict says so (never "y is not needed")
    computed = ex2.needed_feeds().check({"x", "w", "y"})
    assert computed.said.msgid is ex2.NOT_A_PLACEHOLDER and "not needed" not in computed.message
    several = ex2.needed_feeds().check({"x", "y", "q"}).said
    assert several.msgid is ex2.BOTH and "missing w" in several and "q is not a node" in several


def test_02_compile_count() -> None:
    """02.2's calls (not those of section 2): feed order, an extra fed placeholder, a pair of fetches, a change."""
    assert ex2.compile_counts() == [1, 1, 2, 3, 4, 4]
    assert ex2.compile_scenario() == 4
    answers_behave(ex2.compile_count(), 4, 3)


def test_02_tf_feed_dict_and_finalize() -> None:
    pytest.importorskip("tensorflow")
    ex = ex2.tf_feed_dict()
    answers_behave(ex, {"add": 7.0, "mul_4": 6.0}, {"w": 2.0, "b": 0.5})
    for cut in ({"mul": 6.0, "mul_3": 6.0, "b": 0.5}, {"mul:0": 6.0, "mul_4:0": 3.0}, {"add": 7.0, "mul_3": 6.0,
                                                                                        "b": 1.0, "w": 2.0}):
        assert ex.check(cut).ok, (cut, ex.check(cut).message)
    refused = ex.check({"w": 2.0, "b": 0.5}).said
    assert refused.msgid is ex2.TF_REFUSED and "placeholder tensor 'x'" in refused.values["line"]  # TensorFlow's words
    assert ex.check({"x": 3.0, "w": 2.0, "b": 0.5}).said.msgid is ex2.X_IS_LOST
    for skip in ("y", "mul_2", "add_1", "z"):  # y and what is computed from it: the sin would not run
        said = ex.check({skip: 0.5, "mul_3": 6.0, "b": 1.0}).said
        assert said.msgid is ex2.SKIPS_SIN and said.values["name"] == skip
    unknown = ex.check({"q": 1.0}).said
    assert unknown.msgid is ex2.NOT_A_TENSOR and unknown.values["name"] == "q"
    assert ex.check({"add": "three", "mul_4": 1.0}).said.msgid is ex2.EVERY_VALUE_A_NUMBER
    assert ex2.finalize_outcomes() == {"a": True, "b": False, "c": True, "d": False}
    answers_behave(ex2.after_finalize(), {"a", "c"}, {"a"})
    assert ex2.after_finalize().check("a, c").ok


def test_the_same_exercise_object_so_hints_move_on() -> None:
    assert ex1.node_count() is ex1.node_count() and ex1.cycle() is ex1.cycle()
    assert ex2.needed_feeds() is ex2.needed_feeds()
    ex = ex1.topological_order()
    first = ex.check(["mul"])
    second = ex.check(["mul"])
    assert (first.hint, second.hint) == (0, 1)  # the second wrong answer shows the next hint
    assert first.message != second.message


def test_02_5_fed_fetch_is_decided_by_tensorflow() -> None:
    """02.5: fetching a tensor that is also fed returns the fed value (TensorFlow runs nothing for it): "c"."""
    pytest.importorskip("tensorflow")
    assert ex2.fed_fetch_outcome() == "c"
    ex = ex2.fed_fetch()
    assert ex.check("c").ok
    for k in "abd":
        result = ex.check(k)
        assert result.ok is False and result.said.msgid is exercises.CHOSE and result.said.values["letter"] == k
    assert ex.check("a").message.startswith("a: ")  # end to end, in English


def test_02_reveals_cover_every_exercise_and_name_the_live_answers() -> None:
    """REVEALS has every key of 02, and the count it guards is the one the scenario computes."""
    assert set(ex2.REVEALS) == {f"02.{k}" for k in range(1, 7)}
    assert f"compiles: {ex2.compile_counts()}" in ex2.REVEALS["02.2"]


def test_02_2_prompt_shows_the_calls_the_check_counts() -> None:
    """The calls printed in 02.2's prompt (both editions) run to the count the check expects: the prompt cannot drift
    from compile_counts()."""
    root = Path(__file__).resolve().parent.parent
    for path in (root / "notebooks" / "02_define_then_run_tensorflow.ipynb",
                 root / "notebooks" / "fr" / "02_define_then_run_tensorflow.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        prompt = next("".join(c["source"]) for c in cells if "".join(c["source"]).startswith("**02.2**"))
        (calls,) = re.findall(r"```python\n(.*?)```", prompt, flags=re.DOTALL)
        scope = {"st": st, "demo_graph": demo_graph}
        exec(calls, scope)  # noqa: S102 - the course's own prompt, run to check it
        assert scope["sess"].compile_count == ex2.compile_scenario(), path.name
