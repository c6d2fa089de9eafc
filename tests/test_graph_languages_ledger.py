"""Issue 25's ledger for the graph IR, the languages, the exercises' checkers and tools/run_notebooks.py: one row per
case an adversarial tester tries, each saying what it expects: a right value (compared with numpy, the standard
library, TensorFlow's own JSON or the contract in the docstring) or a refusal whose course message names the problem
(checked through its message id, ``message_of(err).msgid is MODULE.CONSTANT``, so the rows pass in French too).

Each row's ``before`` says what the code did before this change: ``"wrong"`` (a wrong result, silently), ``"crash"``
(Python's or numpy's words, a traceback), ``"unclear"`` (a course message that did not name the problem or the
field), ``"ok"`` (already right: kept as a guard). The counts are in the note of issue 25.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from course_lib import graph as ir
from course_lib import i18n
from course_lib import static as st
from course_lib.graph import Graph, GraphError
from course_lib.i18n import N_, Plural, message_of, number, say, set_language
from course_lib.lessons import exercises as ex

ROOT = Path(__file__).resolve().parent.parent
THIN = "\u202f"


def said(err: BaseException) -> i18n.Said:
    return message_of(err)


# ====================================================================== Graph.from_dict: bad data, named
def x_node(**changes):
    return {"op": "placeholder", "name": "x", "inputs": [], "kind": "input", **changes}


def two(second: dict) -> dict:
    """Two earlier nodes (x, w) and a third that reads them: an index past 0 is tried on a real choice."""
    return {"nodes": [x_node(), x_node(name="w"), {"op": "mul", "name": "m", "inputs": [0, 1], **second}]}


FROM_DICT_REFUSALS = [
    # (id, before, data, msgid, values that must be said)
    ("top level list", "ok", [], ir.NOT_GRAPH_DATA, {"kind": "list"}),
    ("top level text", "ok", "graph", ir.NOT_GRAPH_DATA, {"kind": "str"}),
    ("top level None", "ok", None, ir.NOT_GRAPH_DATA, {"kind": "NoneType"}),
    ("nodes null", "ok", {"nodes": None}, ir.NOT_GRAPH_DATA, {"kind": "dict"}),
    ("nodes a dict", "ok", {"nodes": {"0": x_node()}}, ir.NOT_GRAPH_DATA, {"kind": "dict"}),
    ("graph name null", "wrong", {"name": None, "nodes": [x_node()]}, ir.GRAPH_FIELD, {"field": "name"}),
    ("graph name a number", "wrong", {"name": 3, "nodes": [x_node()]}, ir.GRAPH_FIELD, {"field": "name"}),
    ("node a number", "unclear", {"nodes": [3]}, ir.NODE_NOT_A_DICT, {"k": 0, "kind": "int"}),
    ("node a list", "unclear", {"nodes": [["placeholder", "x", []]]}, ir.NODE_NOT_A_DICT, {"k": 0, "kind": "list"}),
    ("op missing", "unclear", {"nodes": [{"name": "x", "inputs": []}]}, ir.NOT_NODE_DATA, {"k": 0, "field": "op"}),
    ("op null", "wrong", {"nodes": [x_node(op=None)]}, ir.NOT_NODE_DATA, {"k": 0, "field": "op"}),
    ("op a number", "wrong", {"nodes": [x_node(op=7)]}, ir.NOT_NODE_DATA, {"k": 0, "field": "op"}),
    ("name null", "wrong", {"nodes": [x_node(name=None)]}, ir.NOT_NODE_DATA, {"k": 0, "field": "name"}),
    ("name a number", "wrong", {"nodes": [x_node(name=3)]}, ir.NOT_NODE_DATA, {"k": 0, "field": "name"}),
    ("name bytes-like list", "wrong", {"nodes": [x_node(name=[120])]}, ir.NOT_NODE_DATA, {"k": 0, "field": "name"}),
    ("inputs missing", "unclear", {"nodes": [{"op": "x", "name": "x"}]}, ir.NOT_NODE_DATA, {"field": "inputs"}),
    ("inputs null", "unclear", {"nodes": [x_node(inputs=None)]}, ir.NOT_NODE_DATA, {"k": 0, "field": "inputs"}),
    ("inputs text", "unclear", two({"inputs": "01"}), ir.NOT_NODE_DATA, {"k": 2, "field": "inputs"}),
    ("negative index", "wrong", two({"inputs": [-1]}), ir.NOT_NODE_DATA, {"k": 2, "field": "inputs"}),
    ("boolean index", "wrong", two({"inputs": [True]}), ir.NOT_NODE_DATA, {"k": 2, "field": "inputs"}),
    ("float index", "unclear", two({"inputs": [1.0]}), ir.NOT_NODE_DATA, {"k": 2, "field": "inputs"}),
    ("text index", "unclear", two({"inputs": ["1"]}), ir.NOT_NODE_DATA, {"k": 2, "field": "inputs"}),
    ("null index", "unclear", two({"inputs": [None]}), ir.NOT_NODE_DATA, {"k": 2, "field": "inputs"}),
    ("index out of range", "ok", two({"inputs": [5]}), ir.NOT_NODE_DATA, {"k": 2, "earlier": "by index, 0..1"}),
    ("cycle: a node reads itself", "unclear", two({"inputs": [2]}), ir.NOT_NODE_DATA, {"k": 2, "field": "inputs"}),
    ("cycle: reads a later node", "ok", {"nodes": [{"op": "sin", "name": "s", "inputs": [1]}, x_node()]},
     ir.NOT_NODE_DATA, {"k": 0, "earlier": "(none: it is the first node)"}),
    ("duplicate names", "wrong", {"nodes": [x_node(), x_node()]}, ir.SAME_NAME, {"k": 1, "name": "x", "other": 0}),
    ("duplicate ids", "wrong", {"nodes": [x_node(id=0), x_node(name="w", id=0)]}, ir.NODE_FIELD,
     {"k": 1, "field": "id"}),
    ("id not its place", "wrong", {"nodes": [x_node(id=5)]}, ir.NODE_FIELD, {"k": 0, "field": "id"}),
    ("id a boolean", "wrong", {"nodes": [x_node(id=False)]}, ir.NODE_FIELD, {"k": 0, "field": "id"}),
    ("kind null", "unclear", {"nodes": [x_node(kind=None)]}, ir.NODE_FIELD, {"k": 0, "field": "kind", "name": "x"}),
    ("kind unknown", "unclear", {"nodes": [x_node(kind="weird")]}, ir.NODE_FIELD, {"k": 0, "field": "kind"}),
    ("attrs a list", "crash", {"nodes": [x_node(attrs=[1, 2])]}, ir.NODE_FIELD, {"k": 0, "field": "attrs"}),
    ("attrs text", "crash", {"nodes": [x_node(attrs="shape")]}, ir.NODE_FIELD, {"k": 0, "field": "attrs"}),
    ("value text", "crash", {"nodes": [x_node(value="abc")]}, ir.NODE_FIELD, {"k": 0, "field": "value"}),
    ("value ragged", "crash", {"nodes": [x_node(value=[[1.0], [1.0, 2.0]])]}, ir.NODE_FIELD, {"field": "value"}),
    ("value with a null", "wrong", {"nodes": [x_node(value=[1.0, None])]}, ir.NODE_FIELD, {"field": "value"}),
    ("value with a boolean", "wrong", {"nodes": [x_node(value=[1.0, True])]}, ir.NODE_FIELD, {"field": "value"}),
    ("value an object", "crash", {"nodes": [x_node(value={"a": 1})]}, ir.NODE_FIELD, {"field": "value"}),
    ("scope null", "wrong", {"nodes": [x_node(scope=None)]}, ir.NODE_FIELD, {"k": 0, "field": "scope"}),
    ("scope a number", "wrong", {"nodes": [x_node(scope=3)]}, ir.NODE_FIELD, {"k": 0, "field": "scope"}),
    ("gradient text", "wrong", {"nodes": [x_node(gradient="no")]}, ir.NODE_FIELD, {"k": 0, "field": "gradient"}),
    ("gradient null", "wrong", {"nodes": [x_node(gradient=None)]}, ir.NODE_FIELD, {"k": 0, "field": "gradient"}),
    ("outputs negative", "wrong", {"nodes": [x_node()], "outputs": [-1]}, ir.BAD_OUTPUTS, {"last": 0}),
    ("outputs boolean", "wrong", {"nodes": [x_node(), x_node(name="w")], "outputs": [True]}, ir.BAD_OUTPUTS,
     {"outputs": "[True]"}),
    ("outputs float", "ok", {"nodes": [x_node()], "outputs": [0.0]}, ir.BAD_OUTPUTS, {"outputs": "[0.0]"}),
    ("outputs null", "ok", {"nodes": [x_node()], "outputs": None}, ir.BAD_OUTPUTS, {"outputs": "None"}),
    ("outputs a number", "ok", {"nodes": [x_node()], "outputs": 0}, ir.BAD_OUTPUTS, {"outputs": "0"}),
    ("outputs past the end", "ok", {"nodes": [x_node()], "outputs": [1]}, ir.BAD_OUTPUTS, {"last": 0}),
]


@pytest.mark.parametrize(("before", "data", "msgid", "values"), [pytest.param(*row[1:], id=row[0])
                                                                   for row in FROM_DICT_REFUSALS])
def test_from_dict_refuses_bad_data_naming_the_node_and_the_field(before, data, msgid, values):
    with pytest.raises(GraphError) as info:
        Graph.from_dict(data)
    message = said(info.value)
    assert message.msgid is msgid and {k: message.values[k] for k in values} == values


def test_a_static_graph_from_bad_data_is_refused_the_same_way():
    with pytest.raises(GraphError) as info:
        st.Graph.from_dict(two({"inputs": [-1]}))
    assert said(info.value).msgid is ir.NOT_NODE_DATA and said(info.value).values["field"] == "inputs"


# ---------------------------------------------------------------------- Graph data: right values
def _strict(text: str):
    """JSON as a strict parser reads it (JavaScript's JSON.parse): a bare NaN / Infinity is refused."""
    def refuse(constant: str):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def nonfinite_graph() -> Graph:
    g = Graph("g")
    x = g.add("placeholder", name="x", kind="input", value=float("nan"))
    c = g.add("constant", name="c", kind="constant", value=[[np.inf, -np.inf], [1.5, np.nan]],
              attrs={"p": float("nan"), "q": np.float64("-inf"), "flag": np.bool_(True), "shape": (2, 2)})
    g.mark_output(g.add("mul", [x, c]))
    return g


def test_to_json_is_strict_json_and_uses_tensorflows_own_encoding_of_nan():
    """Before: ``"value": NaN`` (refused by JSON.parse). Now protobuf's JSON mapping, the one TensorFlow's own
    TensorProto gets from ``json_format.MessageToJson`` ("NaN", "Infinity", "-Infinity")."""
    data = _strict(nonfinite_graph().to_json())
    assert data["nodes"][0]["value"] == "NaN"
    assert data["nodes"][1]["value"] == [["Infinity", "-Infinity"], [1.5, "NaN"]]
    assert data["nodes"][1]["attrs"]["p"] == "NaN" and data["nodes"][1]["attrs"]["q"] == "-Infinity"


def test_nan_and_infinities_round_trip_through_json():
    g = nonfinite_graph()
    h = Graph.from_dict(_strict(g.to_json()))
    for a, b in zip(g.nodes, h.nodes, strict=True):
        assert (a.op, a.name, a.input_ids, a.kind) == (b.op, b.name, b.input_ids, b.kind)
        if a.value is not None:
            np.testing.assert_array_equal(a.value, b.value)  # equal_nan: NaN where NaN, signs of infinities kept
    assert math.isnan(h["c"].attrs["p"]) and h["c"].attrs["q"] == -math.inf and h["c"].attrs["shape"] == (2, 2)
    assert h["c"].attrs["flag"] is True  # numpy's bool_ was written as the text "True" before


def test_tensorflow_writes_the_same_strings_for_nan():
    """The encoding is TensorFlow's: its TensorProto as JSON (protobuf's json_format) says "NaN", "Infinity"."""
    pytest.importorskip("google.protobuf")
    from google.protobuf import json_format
    from tensorflow.core.framework import tensor_pb2

    proto = tensor_pb2.TensorProto(dtype=1, float_val=[1.5, math.nan, math.inf, -math.inf])
    theirs = json.loads(json_format.MessageToJson(proto))["floatVal"]
    g = Graph()
    g.add("constant", name="c", kind="constant", value=[1.5, math.nan, math.inf, -math.inf])
    assert g.to_dict()["nodes"][0]["value"] == theirs == [1.5, "NaN", "Infinity", "-Infinity"]


def test_a_static_graph_with_nan_runs_the_same_after_json():
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = x * st.constant([1.0, float("nan"), float("inf")], name="c")
    h = st.Graph.from_dict(_strict(g.to_json()))
    want = st.Session(g).run(y, {x: 2.0})
    got = st.Session(h).run(_tensor_of(h, y.node.name), {_tensor_of(h, "x"): 2.0})
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, 2.0 * np.array([1.0, np.nan, np.inf]))


def _tensor_of(g: st.Graph, name: str):
    return st.Tensor(g[name], g)


@pytest.mark.parametrize(("before", "data", "check"), [
    pytest.param("ok", {"nodes": [x_node(), {"op": "mul", "name": "xx", "inputs": [0, 0]}]},
                 lambda g: g["xx"].input_ids == (0, 0), id="x*x reads one node twice"),
    pytest.param("ok", {"nodes": [x_node()]}, lambda g: g.name == "graph" and g.outputs == [], id="name defaults"),
    pytest.param("ok", {"nodes": [x_node(value=3)]}, lambda g: g["x"].value.tolist() == 3.0, id="int value"),
    pytest.param("wrong", {"nodes": [x_node()], "outputs": [0, 0]}, lambda g: len(g.outputs) == 1,
                 id="an output listed twice is one output"),
    pytest.param("ok", {"nodes": [x_node(value="NaN")]}, lambda g: math.isnan(g["x"].value), id="value NaN string"),
])
def test_from_dict_right_values(before, data, check):
    assert check(Graph.from_dict(data))


# ---------------------------------------------------------------------- names that are not text; reading nodes
@pytest.mark.parametrize(("before", "make", "msgid", "values"), [
    pytest.param("wrong", lambda: Graph(3), ir.GRAPH_NAME_NOT_TEXT, {"kind": "int"}, id="Graph(3)"),
    pytest.param("wrong", lambda: Graph(None), ir.GRAPH_NAME_NOT_TEXT, {"kind": "NoneType"}, id="Graph(None)"),
    pytest.param("wrong", lambda: Graph(b"g"), ir.GRAPH_NAME_NOT_TEXT, {"kind": "bytes"}, id="Graph(bytes)"),
    pytest.param("wrong", lambda: Graph().add("sin", name=3), ir.NOT_TEXT, {"field": "name"}, id="node name int"),
    pytest.param("wrong", lambda: Graph().add("sin", name=b"s"), ir.NOT_TEXT, {"field": "name"}, id="name bytes"),
    pytest.param("wrong", lambda: Graph().add(None), ir.NOT_TEXT, {"field": "op"}, id="op None"),
    pytest.param("wrong", lambda: Graph().add(3), ir.NOT_TEXT, {"field": "op"}, id="op int"),
    pytest.param("wrong", lambda: Graph().add("sin", scope=None), ir.NOT_TEXT, {"field": "scope"}, id="scope None"),
    pytest.param("wrong", lambda: Graph().add("sin", scope=2), ir.NOT_TEXT, {"field": "scope"}, id="scope int"),
    pytest.param("crash", lambda: _one_node()[3.0], ir.NODE_KEY, {"kind": "float"}, id="g[3.0]"),
    pytest.param("wrong", lambda: _one_node()[True], ir.NODE_KEY, {"kind": "bool"}, id="g[True]"),
    pytest.param("crash", lambda: _one_node()[None], ir.NODE_KEY, {"kind": "NoneType"}, id="g[None]"),
    pytest.param("crash", lambda: _one_node()[5], ir.NO_NODE_AT, {"index": 5, "n": 1}, id="g[5]"),
    pytest.param("crash", lambda: _one_node()[-2], ir.NO_NODE_AT, {"index": -2, "n": 1}, id="g[-2]"),
    pytest.param("ok", lambda: _one_node()["nope"], ir.NO_NODE_NAMED, {"name": "nope"}, id="g[unknown name]"),
])
def test_names_are_text_and_nodes_are_read_by_name_or_index(before, make, msgid, values):
    with pytest.raises(GraphError) as info:
        make()
    message = said(info.value)
    assert message.msgid is msgid and {k: message.values[k] for k in values} == values


def _one_node() -> Graph:
    g = Graph()
    g.add("placeholder", name="x", kind="input")
    return g


def test_a_node_read_by_index_like_a_list():
    g = _one_node()
    assert g[0] is g[-1] is g[np.int64(0)] is g["x"]


# ====================================================================== languages
def _in_new_python(code: str, lang: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_LANG", "PYTHONWARNINGS")}
    if lang is not None:
        env["COURSE_LANG"] = lang
    return subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, env=env,
                          timeout=300, cwd=ROOT)


SPEAK = ("from course_lib.i18n import _, get_language, say, Plural\n"
         "print(_('Next ▶')); print(say(Plural('{n} node', '{n} nodes'), n=2)); print(_('try again'))\n"
         "print(get_language())")


@pytest.mark.parametrize(("before", "lang", "language", "warned"), [
    pytest.param("crash", "de", "en", 1, id="de"),
    pytest.param("crash", "de_DE.UTF-8", "en", 1, id="de_DE.UTF-8"),
    pytest.param("crash", "C.UTF-8", "en", 0, id="C.UTF-8"),
    pytest.param("crash", "C", "en", 0, id="C"),
    pytest.param("crash", "POSIX", "en", 0, id="POSIX"),
    pytest.param("ok", "", "en", 0, id="empty"),
    pytest.param("ok", "en_US.UTF-8", "en", 0, id="en_US.UTF-8"),
    pytest.param("ok", "fr_CA.UTF-8", "fr", 0, id="fr_CA.UTF-8"),
    pytest.param("ok", "fr_FR.UTF-8", "fr", 0, id="fr_FR.UTF-8"),
    pytest.param("ok", "fr-CA", "fr", 0, id="fr-CA"),
    pytest.param("ok", " FR ", "fr", 0, id="FR with spaces"),
    pytest.param("crash", "de:fr", "fr", 0, id="gettext list de:fr"),
    pytest.param("crash", "klingon", "en", 1, id="klingon"),
])
def test_course_lang_never_kills_a_message(before, lang, language, warned):
    out = _in_new_python(SPEAK, lang)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == language
    assert lines[:3] == (["Next ▶", "2 nodes", "try again"] if language == "en" else ["Suivant ▶", "2 nœuds",
                                                                                      "essayez encore"])
    assert out.stderr.count("LanguageWarning") == warned  # once per process, not once per message
    if warned:
        assert "COURSE_LANG" in out.stderr and repr(lang) in out.stderr


@pytest.mark.parametrize(("before", "lang"), [pytest.param("crash", "de", id="de"),
                                              pytest.param("crash", "C.UTF-8", id="C.UTF-8"),
                                              pytest.param("crash", "POSIX", id="POSIX")])
def test_the_start_pages_check_runs_whatever_course_lang_says(before, lang):
    """Before, the start page's check died at its first message (ValueError: no language 'de')."""
    code = ("from course_lib.lessons import envcheck\nr = envcheck.report(import_frameworks=False)\n"
            "print(r.rows[0].component, r.rows[0].status)")
    out = _in_new_python(code, lang)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:2] == ["Python", "OK"]


@pytest.fixture
def fresh_warnings(monkeypatch):
    """Each test sees the first warning of its process again (the course warns once per process and value)."""
    monkeypatch.setattr(i18n, "_warned", set())


@pytest.mark.parametrize(("before", "lang", "language", "warned"), [
    pytest.param("crash", "de", "en", 1, id="de"),
    pytest.param("crash", "", "en", 1, id="empty"),
    pytest.param("crash", "C.UTF-8", "en", 0, id="C.UTF-8"),
    pytest.param("ok", "fr_CA", "fr", 0, id="fr_CA"),
    pytest.param("ok", "FR", "fr", 0, id="FR"),
    pytest.param("ok", "en_GB.UTF-8", "en", 0, id="en_GB.UTF-8"),
])
def test_set_language_falls_back_to_english_with_one_warning(fresh_warnings, before, lang, language, warned):
    set_language("fr")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            set_language(lang)
            assert i18n.get_language() == language
    assert sum(issubclass(w.category, i18n.LanguageWarning) for w in caught) == warned


@pytest.mark.parametrize("lang", [None, 3, b"fr", ["fr"]])
def test_a_language_that_is_not_text_is_a_programmers_mistake(lang):
    with pytest.raises(TypeError) as info:
        set_language(lang)
    assert said(info.value).msgid is i18n.LANGUAGE_NOT_TEXT and said(info.value).values["kind"] == type(lang).__name__


# ====================================================================== Plural, say, number with odd values
NODES = Plural("{n} node", "{n} nodes")


@pytest.mark.parametrize(("before", "count", "en", "fr"), [
    pytest.param("ok", 0, "0 nodes", "0 nœud", id="0"),
    pytest.param("ok", 1, "1 node", "1 nœud", id="1"),
    pytest.param("wrong", -1, "-1 node", "-1 nœud", id="-1 (CLDR: the form of its size)"),
    pytest.param("wrong", -2, "-2 nodes", "-2 nœuds", id="-2 (French said '-2 nœud')"),
    pytest.param("ok", np.int64(1), "1 node", "1 nœud", id="numpy int64 1"),
    pytest.param("ok", np.int32(5), "5 nodes", "5 nœuds", id="numpy int32 5"),
    pytest.param("ok", 1.0, "1.0 node", "1.0 nœud", id="1.0 (gettext's form for 1)"),
    pytest.param("ok", 10**30, f"{10**30} nodes", f"{10**30} nœuds", id="10**30"),
])
def test_plural_counts_choose_the_right_form(before, count, en, fr):
    assert say(NODES, n=count) == en
    set_language("fr")
    assert say(NODES, n=count) == fr


@pytest.mark.parametrize(("before", "count", "error"), [
    pytest.param("crash", None, TypeError, id="None"),
    pytest.param("crash", float("nan"), ValueError, id="nan"),
    pytest.param("crash", float("inf"), ValueError, id="inf"),
    pytest.param("wrong", 1.5, ValueError, id="1.5 (was said as '1.5 node')"),
    pytest.param("wrong", True, TypeError, id="True"),
    pytest.param("wrong", np.bool_(True), TypeError, id="numpy bool"),
    pytest.param("crash", "3", TypeError, id="text 3"),
    pytest.param("crash", np.array([2]), TypeError, id="array of one"),
])
def test_a_count_that_is_not_a_whole_number_is_refused_naming_the_message(before, count, error):
    for lang in ("en", "fr"):
        set_language(lang)
        with pytest.raises(error) as info:
            say(NODES, n=count)
        message = said(info.value)
        assert message.msgid is i18n.COUNT_NOT_WHOLE and message.values["message"] == "{n} node"


def test_a_count_that_is_missing_is_named():
    with pytest.raises(TypeError) as info:
        say(Plural("{k} run", "{k} runs", count="k"), n=2)
    assert said(info.value).msgid is i18n.COUNT_MISSING and said(info.value).values["count"] == "k"


STEP = N_("step {k} of {n}")  # a message the catalogue has (widgets/stepping.py)


@pytest.mark.parametrize(("before", "call", "msgid", "name"), [
    pytest.param("crash", lambda: say(STEP, k=1), i18n.VALUE_MISSING, "n", id="a value missing"),
    pytest.param("crash", lambda: say(N_("{x:.2f} s"), x="abc"), i18n.VALUE_UNFIT, "x", id="text for a float spec"),
    pytest.param("crash", lambda: say(N_("{x:d} s"), x=1.5), i18n.VALUE_UNFIT, "x", id="a float for an int spec"),
    pytest.param("crash", lambda: say(N_("{} s")), i18n.VALUE_MISSING, "{}", id="a positional placeholder"),
    pytest.param("crash", lambda: say(N_("{x.size} s"), y=1), i18n.VALUE_MISSING, "x", id="attribute of a missing"),
])
def test_say_names_the_value_a_message_cannot_show(before, call, msgid, name):
    for lang in ("en", "fr"):
        set_language(lang)
        with pytest.raises(TypeError) as info:
            call()
        assert said(info.value).msgid is msgid and said(info.value).values["name"] == name


def test_say_in_french_names_the_missing_value_too():
    set_language("fr")
    with pytest.raises(TypeError) as info:
        say(STEP, k=1)
    assert said(info.value).values["name"] == "n" and str(info.value).startswith("le message")


def test_a_value_the_message_does_not_show_is_kept_not_refused():
    """One of several messages is said with the same values (a table of verdicts), each showing what it needs."""
    m = say(STEP, k=1, n=2, extra=3)
    assert m == "step 1 of 2" and m.values["extra"] == 3
    set_language("fr")
    assert say(STEP, k=1, n=2, extra=3) == "étape 1 sur 2"


@pytest.mark.parametrize(("before", "x", "kw", "en", "fr"), [
    pytest.param("ok", float("nan"), {}, "nan", "nan", id="nan"),
    pytest.param("ok", float("inf"), {}, "inf", "inf", id="inf"),
    pytest.param("ok", -math.inf, {}, "-inf", "-inf", id="-inf"),
    pytest.param("ok", -0.0, {}, "-0", "-0", id="-0.0"),
    pytest.param("ok", 1e300, {}, "1e+300", "1e+300", id="huge float"),
    pytest.param("ok", 1.5e-300, {}, "1.5e-300", "1,5e-300", id="tiny float"),
    pytest.param("ok", 10**30, {}, str(10**30), THIN.join(["1"] + ["000"] * 10), id="10**30"),
    pytest.param("ok", np.float32(0.1), {}, "0.1", "0,1", id="numpy float32"),
    pytest.param("ok", np.int64(20000), {}, "20000", f"20{THIN}000", id="numpy int64"),
    pytest.param("ok", np.array(2.5), {}, "2.5", "2,5", id="numpy 0-d array"),
    pytest.param("ok", np.bool_(True), {}, "1", "1", id="numpy bool"),
    pytest.param("ok", True, {}, "1", "1", id="bool"),
    pytest.param("ok", Fraction(1, 4), {}, "0.25", "0,25", id="Fraction"),
    pytest.param("ok", -12500.25, {"spec": ",.2f"}, "-12,500.25", f"-12{THIN}500,25", id="negative grouped"),
    pytest.param("wrong", 1400, {"spec": "+,.0f"}, "+1,400", f"+1{THIN}400", id="plus sign (fr not grouped)"),
    pytest.param("wrong", 1400000, {"spec": "_"}, "1_400_000", f"1{THIN}400{THIN}000", id="underscore groups"),
    pytest.param("ok", float("nan"), {"spec": ".1%"}, "nan%", f"nan{THIN}%", id="nan percent"),
    pytest.param("crash", 10**400, {"spec": ".0f"}, str(10**400), THIN.join(["10"] + ["000"] * 133),
                 id="int past float with a float spec"),
])
def test_number_renders_odd_values_in_each_language(before, x, kw, en, fr):
    assert number(x, **kw) == en
    if not kw and not isinstance(x, (int, np.integer, bool, np.bool_)):
        assert en == format(float(x), ".6g")  # the contract: exactly :g in English
    set_language("fr")
    assert number(x, **kw) == fr


@pytest.mark.parametrize(("before", "x", "kw", "error", "msgid"), [
    pytest.param("crash", None, {}, TypeError, i18n.NOT_A_NUMBER, id="None"),
    pytest.param("wrong", "3.5", {}, TypeError, i18n.NOT_A_NUMBER, id="text"),
    pytest.param("crash", "abc", {}, TypeError, i18n.NOT_A_NUMBER, id="words"),
    pytest.param("wrong", np.array([2.5]), {}, TypeError, i18n.NOT_A_NUMBER, id="array of one"),
    pytest.param("crash", [1.0, 2.0], {}, TypeError, i18n.NOT_A_NUMBER, id="list"),
    pytest.param("crash", 1 + 2j, {}, TypeError, i18n.NOT_A_NUMBER, id="complex"),
    pytest.param("crash", 1.5, {"spec": "d"}, ValueError, i18n.BAD_SPEC, id="int spec for a float"),
    pytest.param("crash", 1.5, {"spec": "q"}, ValueError, i18n.BAD_SPEC, id="unknown spec"),
    pytest.param("crash", 1.5, {"digits": -1}, ValueError, i18n.NO_DIGITS, id="digits -1"),
    pytest.param("wrong", 1.5, {"digits": 0}, ValueError, i18n.NO_DIGITS, id="digits 0"),
])
def test_number_refuses_what_is_no_number_naming_it(before, x, kw, error, msgid):
    for lang in ("en", "fr"):
        set_language(lang)
        with pytest.raises(error) as info:
            number(x, **kw)
        assert said(info.value).msgid is msgid


def test_number_takes_a_torch_scalar():
    torch = pytest.importorskip("torch")
    assert number(torch.tensor(2.5)) == "2.5"
    set_language("fr")
    assert number(torch.tensor(2.5, requires_grad=True)) == "2,5"


# ====================================================================== exercises: one number reader
SIX = ex.count_is(lambda: 6, "nodes", "six nodes")


@pytest.mark.parametrize(("before", "answer", "ok"), [
    pytest.param("ok", 6, True, id="6"),
    pytest.param("ok", 6.0, True, id="6.0"),
    pytest.param("ok", "6", True, id="text 6"),
    pytest.param("ok", " 6 ", True, id="text 6 with spaces"),
    pytest.param("ok", np.int64(6), True, id="numpy int64"),
    pytest.param("ok", np.float64(6.0), True, id="numpy float64 6.0"),
    pytest.param("ok", np.array(6), True, id="numpy 0-d array"),
    pytest.param("ok", Fraction(12, 2), True, id="Fraction 12/2"),
    pytest.param("ok", 7, False, id="7: not it"),
    pytest.param("ok", -6, False, id="-6: not it"),
    pytest.param("wrong", 10**30 + 6, False, id="10**30 + 6 (not rounded to a float)"),
    pytest.param("crash", 10**400, False, id="10**400 (past a float: OverflowError before)"),
])
def test_a_count_is_read_the_teachers_way(before, answer, ok):
    got, message = SIX(answer)
    assert got is ok
    if not ok:  # the verdict shows the answer itself, not its nearest float (1000000000000000019884624838656)
        assert message.msgid is ex.NOT_IT and message.values["answer"] == str(answer)


@pytest.mark.parametrize(("before", "answer"), [
    pytest.param("ok", True, id="True"),
    pytest.param("ok", np.bool_(True), id="numpy bool"),
    pytest.param("wrong", np.array(True), id="numpy 0-d bool array"),
    pytest.param("ok", 6.5, id="6.5"),
    pytest.param("ok", float("nan"), id="nan"),
    pytest.param("ok", float("inf"), id="inf"),
    pytest.param("ok", "six", id="words"),
    pytest.param("ok", "nan", id="text nan"),
    pytest.param("ok", [6], id="list of one"),
    pytest.param("ok", np.array([6]), id="array of one"),
    pytest.param("ok", 6 + 0j, id="complex"),
])
def test_what_is_not_a_count_is_refused_with_the_same_words(before, answer):
    got, message = SIX(answer)
    assert got is False and message.msgid is ex.NUMBER_OF["nodes"]


def test_a_torch_bool_is_no_count_and_a_torch_scalar_is():
    torch = pytest.importorskip("torch")
    assert SIX(torch.tensor(True))[1].msgid is ex.NUMBER_OF["nodes"]
    assert SIX(torch.tensor(6))[0] is True and SIX(torch.tensor(6.0, requires_grad=True))[0] is True


@pytest.mark.parametrize(("before", "expect", "answer", "ok"), [
    pytest.param("wrong", 1, True, False, id="True for 1"),
    pytest.param("wrong", 0, False, False, id="False for 0"),
    pytest.param("wrong", 1.0, np.bool_(True), False, id="numpy True for 1.0"),
    pytest.param("ok", 1, 1.0, True, id="1.0 for 1"),
    pytest.param("ok", 2.5, "2.5", True, id="text 2.5"),
    pytest.param("ok", 2.5, float("nan"), False, id="nan"),
    pytest.param("wrong", 3, np.array([3]), False, id="array of one for a number"),
    pytest.param("wrong", np.array([3.0, 3.0]), 3, False, id="one number for a vector"),
    pytest.param("wrong", np.array([1.0, 0.0]), [True, False], False, id="bools for a vector"),
    pytest.param("ok", np.array([1.0, 2.0]), [1, 2.0], True, id="a list for a vector"),
    pytest.param("ok", np.array([[1.0, 2.0], [3.0, 4.0]]), [[1, 2], [3, 4]], True, id="rows for a matrix"),
    pytest.param("ok", np.array([[1.0, 2.0], [3.0, 4.0]]), [[1, 2], [3]], False, id="ragged rows"),
    pytest.param("ok", True, True, True, id="True for True"),
    pytest.param("ok", True, 1, False, id="1 for True"),
])
def test_an_exercise_with_a_plain_expected_value(before, expect, answer, ok):
    result = ex.Exercise("t.1", "?", expect).check(answer)
    assert result.ok is ok


@pytest.mark.parametrize(("before", "answer", "ok", "msgid"), [
    pytest.param("ok", [6, 15], True, None, id="6, 15"),
    pytest.param("ok", [15, 6], True, None, id="15, 6"),
    pytest.param("ok", (6.0, 15.0), True, None, id="floats 6.0, 15.0"),
    pytest.param("ok", {6, 15}, True, None, id="a set (boundaries have no order)"),
    pytest.param("wrong", [6.5, 15.9], False, "AT_MOST_TWO_NUMBERS", id="6.5 rounded down to 6 before"),
    pytest.param("wrong", [True, 15], False, "AT_MOST_TWO_NUMBERS", id="True as 1"),
    pytest.param("crash", [float("inf"), 15], False, "AT_MOST_TWO_NUMBERS", id="inf"),
    pytest.param("ok", [float("nan"), 15], False, "AT_MOST_TWO_NUMBERS", id="nan"),
    pytest.param("ok", "6 15", False, "AT_MOST_TWO_NUMBERS", id="text"),
    pytest.param("ok", 6, False, "AT_MOST_TWO_NUMBERS", id="one number"),
    pytest.param("ok", [6, 15, 20], False, "TOO_MANY_BOUNDARIES", id="three"),
])
def test_bucket_boundaries_06_2(before, answer, ok, msgid):
    from course_lib.lessons import exercises_06 as e6

    got, message = e6.bucket_boundaries().expect(answer)
    assert got is ok
    if msgid:
        assert message.msgid is getattr(e6, msgid)


@pytest.mark.parametrize(("before", "answer", "ok", "msgid"), [
    pytest.param("ok", [3, 3, 2, 1, 1], True, None, id="right"),
    pytest.param("ok", [3.0, 3, 2, 1, 1], True, None, id="floats"),
    pytest.param("ok", np.array([3, 3, 2, 1, 1]), True, None, id="numpy array"),
    pytest.param("wrong", [3, 3, 2.9, 1, 1], False, "ONE_NUMBER_PER_STEP", id="2.9 rounded to 2 before"),
    pytest.param("wrong", [3, 3, 2, 1, True], False, "ONE_NUMBER_PER_STEP", id="True as 1"),
    pytest.param("wrong", "33211", False, "ONE_NUMBER_PER_STEP", id="text read digit by digit"),
    pytest.param("ok", [3, 3, 2, 1], False, "STEPS_OF_LONGEST", id="one short"),
])
def test_packed_batch_sizes_06_4(before, answer, ok, msgid):
    pytest.importorskip("torch")
    from course_lib.lessons import exercises_06 as e6

    got, message = e6.packed_batch_sizes().expect(answer)
    assert got is ok
    if msgid:
        assert message.msgid is getattr(e6, msgid)


@pytest.mark.parametrize(("before", "answer", "ok", "msgid"), [
    pytest.param("ok", [2, 0, 0], True, "TRACE_IS_WRONG", id="right"),
    pytest.param("ok", np.array([2.0, 0.0, 0.0]), True, "TRACE_IS_WRONG", id="numpy array"),
    pytest.param("ok", [0.5, 0, 0], False, "TRACE_IS_RIGHT", id="same branch as the trace"),
    pytest.param("wrong", [float("nan"), 0, 0], False, "THREE_NUMBERS", id="nan marked right before"),
    pytest.param("wrong", [float("inf"), 0, 0], False, "THREE_NUMBERS", id="inf marked right before"),
    pytest.param("wrong", "123", False, "THREE_NUMBERS", id="text marked right before"),
    pytest.param("wrong", [True, 2, 3], False, "THREE_NUMBERS", id="True as 1"),
    pytest.param("ok", [1, 2], False, "EXACTLY_THREE", id="two numbers"),
])
def test_wrong_input_08_3(before, answer, ok, msgid):
    pytest.importorskip("torch")
    from course_lib.lessons import exercises_08 as e8

    got, message = e8.wrong_input().expect(answer)
    assert got is ok and message.msgid is getattr(e8, msgid)


@pytest.mark.parametrize(("before", "value"), [pytest.param("wrong", True, id="True"),
                                               pytest.param("wrong", "nan", id="text nan"),
                                               pytest.param("ok", None, id="None")])
def test_feed_values_02_3_are_numbers(before, value):
    pytest.importorskip("tensorflow")
    from course_lib.lessons import exercises_02 as e2

    got, message = e2.tf_feed_dict().expect({"w": value})
    assert got is False and message.msgid is e2.EVERY_VALUE_A_NUMBER


@pytest.mark.parametrize(("before", "answer", "want"), [
    pytest.param("wrong", np.array(True), None, id="0-d bool array"),
    pytest.param("crash", 10**400, None, id="int past a float"),
    pytest.param("ok", " 2.5 ", 2.5, id="text with spaces"),
    pytest.param("ok", Fraction(1, 2), 0.5, id="Fraction"),
    pytest.param("ok", "1e400", None, id="text past a float"),
])
def test_the_shared_number_reader(before, answer, want):
    assert ex.number(answer) == want


@pytest.mark.parametrize(("before", "answer", "want"), [
    pytest.param("wrong", 10**30, 10**30, id="10**30 exactly"),
    pytest.param("ok", "4", 4, id="text 4"),
    pytest.param("ok", 4.5, None, id="4.5"),
    pytest.param("ok", [True, 2], None, id="list"),
])
def test_the_shared_whole_number_reader(before, answer, want):
    assert ex.whole_number(answer) == want


# ====================================================================== tools/run_notebooks.py
def _tool():
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_notebooks_tool", ROOT / "tools" / "run_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def folder(tmp_path):
    import nbformat

    for name in ("02_b.ipynb", "01_a.ipynb"):
        nbformat.write(nbformat.v4.new_notebook(), tmp_path / name)
    (tmp_path / "sub").mkdir()
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "sub" / "03_c.ipynb")
    (tmp_path / "notes.txt").write_text("not a notebook")
    (tmp_path / "empty").mkdir()
    (tmp_path / "broken.ipynb").write_text("{ not json")
    return tmp_path


def test_run_notebooks_runs_a_folders_notebooks_in_name_order(folder, monkeypatch, capsys):
    """Before: IsADirectoryError for the folder, printed as FAILED, nothing run."""
    tool = _tool()
    ran: list[str] = []
    monkeypatch.setattr(tool, "run_notebook", lambda path, slides=False: ran.append(path.name) or 0.0)
    (folder / "broken.ipynb").unlink()
    assert tool.main([str(folder)]) == 0
    assert ran == ["01_a.ipynb", "02_b.ipynb"]  # its own notebooks, not its sub-folders'


@pytest.mark.parametrize(("before", "given", "problem"), [
    pytest.param("unclear", "missing.ipynb", "no such file or folder", id="missing path"),
    pytest.param("unclear", "notes.txt", "not a notebook", id="not a notebook"),
    pytest.param("unclear", "empty", "a folder without notebooks", id="empty folder"),
])
def test_run_notebooks_refuses_what_it_cannot_run_before_running_anything(folder, monkeypatch, capsys, before, given,
                                                                          problem):
    tool = _tool()
    ran: list[str] = []
    monkeypatch.setattr(tool, "run_notebook", lambda path, slides=False: ran.append(path.name) or 0.0)
    assert tool.main([str(folder / "01_a.ipynb"), str(folder / given)]) == 2
    err = capsys.readouterr().err
    assert ran == [] and problem in err and given in err and "nothing was run" in err


def test_run_notebooks_names_a_broken_notebook_and_goes_on(folder, capsys):
    """A .ipynb that is not JSON fails when read (before any kernel starts): named, and the others still run."""
    tool = _tool()
    assert tool.main([str(folder / "broken.ipynb")]) == 1
    err = capsys.readouterr().err
    assert "broken.ipynb" in err and "FAILED" in err
