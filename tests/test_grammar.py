"""English that agrees with its counts and values (and the French beside it): each message that once came out
wrong for some count or type is said here with the count that broke it and with one that did not.

* articles: no English message puts "a"/"an" before a value (the course rewrites no grammar at run time), so an
  int is "a value of type int" or "3 (type int)", never "a int";
* counts of 1 and 2 for every plural that was made with a fixed "s" ("1 runs", "after 1 calls", "1 frames", "1 fx
  nodes", "1 levels", "1 zeros", "1 words", ...), through an ``i18n.Plural`` (the course's one plural);
* agreement: "the TensorFlow count and the PyTorch count are not right", "y, z are not needed";
* a verdict ending in "?" is followed by its hint without a period ("...on padding? Hint: ...").
"""

from __future__ import annotations

import html
import importlib.util
import re
import tempfile
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from course_lib import graph as ir
from course_lib import i18n, ops
from course_lib import static as st
from course_lib.adapters import deployment, quiet
from course_lib.i18n import N_, Plural, message_of, say, set_language
from course_lib.lessons import claims, exercises, fold, graph_checks, padding, tree_rnn, trees
from course_lib.lessons import exercises_01 as ex1
from course_lib.lessons import exercises_02 as ex2
from course_lib.lessons import exercises_05 as ex5
from course_lib.lessons import exercises_06 as ex6
from course_lib.lessons import exercises_07 as ex7
from course_lib.lessons import sequences as sq
from course_lib.lessons import xla_payoff as xp
from course_lib.lessons.compiling import chains, engines, payoff, tables, tf_function
from course_lib.measure import Measurement
from course_lib.static import session

NBSP = "\u00a0"
ROOT = Path(__file__).resolve().parent.parent


def raised(fn, *args, **kwargs) -> str:
    """The text of the error ``fn(*args, **kwargs)`` raises."""
    with pytest.raises(Exception) as info:  # each test says which message it expects
        fn(*args, **kwargs)
    return str(info.value)


def m(median: float, repeat: int = 5, number: int = 10) -> Measurement:
    return Measurement(median, median, median, repeat, number)


# ---------------------------------------------------------------------------------------------------- articles
def _tool():
    spec = importlib.util.spec_from_file_location("catalogue_tool", ROOT / "tools" / "catalogue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: "a {kind}" / "an {kind}": an article whose right form depends on the value filled in ("a int")
ARTICLE_BEFORE_A_VALUE = re.compile(r"\b(?:[Aa]|[Aa]n) \{[^{}]*\}")


def articles_before_values(messages: list[str]) -> list[str]:
    return [m for m in messages if ARTICLE_BEFORE_A_VALUE.search(m)]


def test_no_english_message_puts_an_article_before_a_value() -> None:
    """The course rewrites no grammar at run time, so no message may say "a {kind}": with kind = "int" it would
    read "a int". Every message Babel extracts from course_lib is checked, singular and plural forms."""
    ids = [text for m in _tool().extract() if m.id for text in (m.id if isinstance(m.id, tuple) else (m.id,))]
    assert len(ids) > 500
    assert articles_before_values(ids) == []


def test_the_article_check_finds_an_article_before_a_value() -> None:
    assert articles_before_values(["got a {type}", "An {kind} here", "got an {x!r}", "a value of type {type}",
                                   "data {x}", "got {value!r} (type {kind})"]) == [
        "got a {type}", "An {kind} here", "got an {x!r}"]


def test_an_int_and_a_list_are_said_in_good_english() -> None:
    g = st.Graph()
    with g.as_default():
        st.placeholder("x")
    sess = st.Session(g)
    assert raised(sess.run, 3) == "cannot fetch 3 (type int): fetch a tensor of the graph or its name"
    assert raised(sess.run, 3.5).startswith("cannot fetch 3.5 (type float)")
    assert raised(sess.run, "x", feed_dict=3).endswith("; got a value of type int")
    assert raised(sess.run, "x", feed_dict=[1]).endswith("; got a value of type list")
    with pytest.raises(Exception) as info:
        sess.run(3)
    said = message_of(info.value)
    assert said.msgid is session.CANNOT_FETCH and said.values == {"kind": "int", "value": 3}  # the values stay
    assert ops._describe(10 ** 100) == "a value of type int"
    assert ops._describe(list(range(100))) == "a value of type list"
    assert raised(ops.as_array, [object()] * 30, "x").endswith("got a value of type list")
    assert raised(set_language, 3).endswith("got 3 (type int)")
    said = [raised(sess.run, 3), raised(sess.run, "x", feed_dict=3), ops._describe(10 ** 100), raised(set_language, 3)]
    assert not any(re.search(r"\ba (int|object|EagerTensor)\b", text) for text in said)


def test_said_as_written() -> None:
    """say() fills the values in and changes no word: no article made to agree at run time."""
    assert say(N_("A {kind} is not a {what}"), kind="int", what="op") == "A int is not a op"
    assert not hasattr(i18n, "article")


def test_french_keeps_its_own_article() -> None:
    set_language("fr")
    assert str(say(session.CANNOT_FETCH, kind="int", value=3)).startswith("impossible de demander 3 (type int)")
    assert ops._describe(10 ** 100) == "une valeur de type int"


# ---------------------------------------------------------------------------------------------------- agreement
def test_01_4_two_wrong_counts_are_not_right() -> None:
    result = ex1.framework_counts().check((1, 1))
    assert result.said.msgid is ex1.BOTH_COUNTS_WRONG
    assert result.message.startswith("the TensorFlow count and the PyTorch count are not right. ")


def test_02_1_one_name_is_not_a_placeholder_two_are_not_placeholders() -> None:
    one = ex2.needed_feeds().check({"x", "w", "y"})
    two = ex2.needed_feeds().check({"x", "w", "y", "mul_1"})
    assert one.said.msgid is two.said.msgid is ex2.NOT_A_PLACEHOLDER
    assert one.said.startswith("y is not a placeholder: the session computes it")
    assert two.said.startswith("mul_1, y are not placeholders: the session computes them")
    assert ex2.needed_feeds().check({"x", "b"}).said == "missing w; b is not needed: mul_2 does not depend on it"
    set_language("fr")
    assert ex2.needed_feeds().check({"x", "w", "y"}).said.startswith("y n'est pas un placeholder")
    assert ex2.needed_feeds().check({"x", "w", "y", "mul_1"}).said.startswith("mul_1, y ne sont pas des placeholders")


# ---------------------------------------------------------------------------------------------------- hint after ?
def test_a_question_is_followed_by_its_hint_without_a_period() -> None:
    result = ex6.padded_steps().check(48)
    assert result.said.msgid is ex6.EVERY_STEP
    assert "on padding? Hint: " in result.message and "?." not in result.message
    set_language("fr")
    result = ex6.padded_steps().check(48)
    assert f"{NBSP}? Indice{NBSP}: " in result.message and "?." not in result.message


def test_then_adds_a_period_only_where_a_sentence_has_none() -> None:
    assert exercises.then("not quite", "try again") == "not quite. try again"
    assert exercises.then("which one?", "Hint: x") == "which one? Hint: x"
    assert exercises.then("well!", "x") == "well! x" and exercises.then("done.", "x") == "done. x"
    assert exercises.then("", "try again") == "try again"
    assert ex2.needed_feeds().check({"x"}).message.startswith("missing w. Hint: ")  # the usual case


# ---------------------------------------------------------------------------------------------------- counts: 1 and 2
@pytest.mark.parametrize(("n", "runs"), [(1, "1 run"), (2, "2 runs"), (1234, "1,234 runs")])
def test_runs(n: int, runs: str) -> None:
    assert tables.runs_count(n) == tables.runs_text(n) == runs


def test_runs_in_french() -> None:
    set_language("fr")
    assert (tables.runs_count(1), tables.runs_count(2)) == ("1 exécution", "2 exécutions")


def test_calls_with_new_shapes() -> None:
    assert tf_function.after_new_shapes(1) == "after 1 call with a new shape"
    assert tf_function.after_new_shapes(2) == "after 2 calls with new shapes"
    set_language("fr")
    assert tf_function.after_new_shapes(1) == "après 1 appel avec une nouvelle forme"


def test_graphs_captured_and_compiled() -> None:
    assert xp.captured_note(1) == "run, 1 graph captured and compiled"
    assert xp.captured_note(2) == "run, 2 graphs captured and compiled"


def _payoff(xla_first: float, xla_steady: float) -> xp.XlaPayoff:
    ways = {xp.XLA: xp.Way(xp.XLA, m(xla_first), m(xla_steady)),
            xp.TF_FUNCTION: xp.Way(xp.TF_FUNCTION, m(1.0), m(2.0)), xp.EAGER: xp.Way(xp.EAGER, m(9.0), m(9.0))}
    return xp.XlaPayoff((2, 2), ways, {}, 1e-6, 5, 2, "", stamp={"cpus": "1"})


@pytest.mark.parametrize(("first", "calls"), [(1.0, "after 1 call:"), (2.0, "after 2 calls:")])
def test_xla_caught_up_after_calls(first: float, calls: str) -> None:
    said = _payoff(first, 1.0).sentences()[3]
    assert said.msgid is xp.CAUGHT_UP and calls in said


def test_cpus_under_a_table() -> None:
    assert tables.measured_with("numpy 2", "a CPU", "1") == "measured with numpy 2 on a CPU (1 CPU)"
    assert tables.measured_with("numpy 2", "a CPU", "2") == "measured with numpy 2 on a CPU (2 CPUs)"
    assert tables.measured_with("numpy 2", "a CPU", "?") == "measured with numpy 2 on a CPU (? CPUs)"
    assert "(1 CPU)" in _payoff(1.0, 1.0).table()


def test_calls_of_a_measurement() -> None:
    assert str(m(1e-3, repeat=1, number=1)).endswith(", 1×1 call)")
    assert str(m(1e-3, repeat=1, number=2)).endswith(", 1×2 calls)")
    assert str(m(1e-3, repeat=5, number=10)).endswith(", 5×10 calls)")


def test_zeros_of_a_padded_group() -> None:
    assert padding._group_label([3, 2], [0, 1], 0, 1) == "padded to 3, 1 zero"
    assert padding._group_label([3, 1], [0, 1], 0, 1) == "padded to 3, 2 zeros"
    assert padding._group_label([3, 3], [0, 1], 1, 2) == "bucket 2: padded to 3, 0 zeros"
    set_language("fr")
    assert padding._group_label([3, 2], [0, 1], 0, 1) == "complété jusqu'à 3, 1 zéro"


def test_frames_of_an_error() -> None:
    def summary(frames: int) -> str:
        page = quiet.ErrorSummary("ValueError", "boom", frames=tuple(f"a.py:{k} in f" for k in range(frames)),
                                  full="ValueError: boom")._repr_html_()
        return re.search(r"traceback \(\d+ \w+\)", html.unescape(page)).group(0)

    assert (summary(1), summary(2)) == ("traceback (1 frame)", "traceback (2 frames)")


def test_fx_nodes_of_an_exported_program() -> None:
    def exported(n: int) -> str:
        return repr(deployment.Exported(True, SimpleNamespace(graph=SimpleNamespace(nodes=[None] * n))))

    assert (exported(1), exported(2)) == ("Exported(ok, 1 fx node)", "Exported(ok, 2 fx nodes)")


def test_cell_steps_of_a_strategy() -> None:
    costs = sq.StrategyCosts({"a": m(1e-3), "b": m(2e-3)}, {"a": 1, "b": 2})
    assert costs.ranking() == "On this run the fastest was a (1 cell step), the slowest b (2 cell steps)."


def test_05_3_with_one_call() -> None:
    assert ex5.break_even_runs().check(1).said.startswith("with 1 call, compiled takes ")
    assert ex5.break_even_runs().check(2).said.startswith("with 2 calls, compiled takes ")


def test_07_3_a_tree_of_one_word() -> None:
    assert ex7.tallest_tree().check("a").said == "it has 1 word; use exactly 5"
    assert ex7.tallest_tree().check("(a b)").said == "it has 2 words; use exactly 5"


def test_a_placeholder_shape_given_as_a_number() -> None:
    with st.Graph().as_default():
        one, two = raised(st.placeholder, "x", shape=1), raised(st.placeholder, "x", shape=2)
    assert "shape=(1,) for a vector of 1 number (" in one and "shape=(2,) for a vector of 2 numbers (" in two


def test_padding_too_short() -> None:
    sentence = [np.ones((3, 2))]
    assert raised(sq.pad, sentence, length=1).startswith("cannot pad to 1 step: the longest sentence has 3 words")
    assert raised(sq.pad, sentence, length=2).startswith("cannot pad to 2 steps: the longest sentence has 3 words")
    assert raised(sq.padding_count, [1], pad_to=0).endswith("the longest sentence (1 word)")
    assert raised(sq.padding_count, [2], pad_to=1).endswith("the longest sentence (2 words)")


@pytest.mark.parametrize(("steps", "words"), [(1, "exactly 1 step, the batch has 3"),
                                              (2, "exactly 2 steps, the batch has 3")])
def test_a_static_unroll_built_for_one_step(steps: int, words: str) -> None:
    rnn = sq.TinyRNN.make()
    unroll = sq.StaticUnroll(rnn, steps)
    assert unroll.graph.name == f"static RNN, {steps} step{'s' if steps > 1 else ''}"
    assert words in raised(unroll.run, *sq.pad([np.ones((3, rnn.dim))]))


def test_tree_limits() -> None:
    assert raised(trees.parse, "((a b) c)", max_depth=1).startswith("the tree is nested deeper than 1 level")
    assert raised(trees.parse, "(((a b) c) d)", max_depth=2).startswith("the tree is nested deeper than 2 levels")
    assert raised(trees.parse, "(a b)", max_words=1).startswith("more than 1 word")
    assert raised(trees.parse, "(a b c)", max_words=2).startswith("more than 2 words")


def test_graph_checks_with_one_node_value_number_or_input() -> None:
    changes = graph_checks.graph_changes_between({"x": 1.0}, {"x": -1.0})
    assert changes(lambda ops, x: x)[1].startswith("both inputs give the same graph (1 node, same operations)")
    assert changes(lambda ops, x: ops.sin(x))[1].startswith("both inputs give the same graph (2 nodes, same")

    def short_when_positive(ops, x):
        return x if x > 0 else ops.sin(x)

    def long_when_positive(ops, x):
        return ops.sin(x) if x > 0 else x

    assert changes(short_when_positive)[1] == "the graph has 1 node for x = 1 and 2 for x = -1"
    assert changes(long_when_positive)[1] == "the graph has 2 nodes for x = 1 and 1 for x = -1"
    one = graph_checks.values_are(lambda ops, x: ops.sin(x), ["x"], {"x": 1.0})([])[1]
    two = graph_checks.values_are(lambda ops, x: ops.sin(x), ["x", "x"], {"x": 1.0})([])[1]
    assert (one, two) == ("answer with a list of 1 value: [x]", "answer with a list of 2 values: [x, x]")
    one = graph_checks.compile_report_is(lambda ops, x: ops.sin(x), {"x": 1.0}, keys=("pruned",))(())[1]
    two = graph_checks.compile_report_is(lambda ops, x: ops.sin(x), {"x": 1.0}, keys=("pruned", "folded"))(())[1]
    assert one == "answer with 1 whole number in this order: (pruned)"
    assert two == "answer with 2 whole numbers in this order: (pruned, folded)"


def test_an_export_that_agrees_on_one_input() -> None:
    torch = pytest.importorskip("torch")
    one = graph_checks.torch_export_matches(torch.sin, [torch.tensor([1.0, 2.0])])(torch.sin)
    assert one[0] and one[1].endswith("and it agrees on the 1 input")
    two = graph_checks.torch_export_matches(torch.sin, [torch.tensor([1.0]), torch.tensor([2.0])])(torch.sin)
    assert two[0] and two[1].endswith("and it agrees on all 2 inputs")


def test_widgets_name_their_only_input_placeholder_or_operation() -> None:
    pytest.importorskip("ipywidgets")
    from course_lib.lessons.session_explorer import SessionExplorer
    from course_lib.widgets.base import said_ids
    from course_lib.widgets.explorers import NO_SUCH_INPUT, ControlFlowExplorer

    def text(widget) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", widget.message.value))

    def affine(ops, x, w):
        return ops.sin(x * w)

    one, two = ControlFlowExplorer(lambda ops, x: ops.sin(x)), ControlFlowExplorer(affine)
    one.set_input(q=1.0)
    two.set_input(q=1.0)
    assert said_ids(one) == said_ids(two) == [NO_SUCH_INPUT]
    assert "its only input is x" in text(one) and "its inputs are x, w" in text(two)

    def single() -> st.Graph:
        g = st.Graph("one op")
        with g.as_default():
            st.sin(st.placeholder("x"), name="y")
        return g

    e = SessionExplorer(single, fetch="y")
    e.feed(q=1.0)
    assert "its only placeholder is 'x'" in text(e) or "its only placeholder is x" in text(e)
    e.set_fetch("nope")
    assert "the graph's only operation is y" in text(e)
    e = SessionExplorer(single, fetch="y", feeds={"q": 1.0})
    assert "its only placeholder is x." in text(e)
    demo = SessionExplorer()
    demo.feed(q=1.0)
    assert "its placeholders are x, w, b" in text(demo)


def test_payoff_graphs_and_chains() -> None:
    assert say(payoff.GRAPHS["small"], n=1) == "small graph (1 op)"
    assert say(payoff.GRAPHS["small"], n=2) == "small graph (2 ops)"
    assert say(payoff.SIZED_CHAIN, size="tiny", n=1) == "tiny graph: a chain of 1 op"
    assert say(payoff.CHAINS["large"], n=200) == "large graph: a chain of 200 ops"
    set_language("fr")
    assert say(payoff.GRAPHS["small"], n=1) == "petit graphe (1 opération)"


def test_engine_table_and_graph_names_for_one() -> None:
    costs = engines.EngineCosts(1, m(1e-3), m(1e-5), m(1e-4), m(1e-3), 1, 1, 1, 2, 1, "", {})
    assert costs.table().header[0] == "our engines, chain of 1 op"
    assert chains.StaticChain(1).graph.name == "chain of 1 op" and chains.StaticChain(2).graph.name == "chain of 2 ops"
    net = tree_rnn.TreeRNN()
    assert (fold.FoldGraph(net, 1).graph.name, fold.FoldGraph(net, 2).graph.name) == ("fold, 1 level", "fold, 2 levels")
    cache = tree_rnn.ShapeCache(net)
    cache.run(trees.parse("(a b)"))
    assert repr(cache) == "ShapeCache(graphs_built=1, compiles=1)"  # name=value: no plural to agree
    g = ir.Graph("g")
    g.add("placeholder", name="x", kind="input")
    assert repr(g) == "<Graph 'g': nodes=1, edges=0>"


def test_the_ledger_check_says_claim_or_claims() -> None:
    problems = [p for p in claims.check(tempfile.mkdtemp()) if "does not exist" in p]
    assert problems
    for p in problems:
        keys = p.split(" yet ", 1)[1]
        assert re.fullmatch(r"claim [^,]+ has a verdict|claims .+, .+ have verdicts", keys), p


def test_plural_needs_its_count() -> None:
    with pytest.raises(TypeError, match="needs its count n="):
        say(Plural("{n} node", "{n} nodes"))
    assert say(Plural("{k} box", "{k} boxes", count="k"), k=0) == "0 boxes"
