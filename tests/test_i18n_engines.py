"""The engines and the expression parser in both languages (issue 16; docs/ARCHITECTURE.md, "Languages").

* every error the core raises (``expr``, ``dynamic``, ``static``, ``graph``, ``ops``, ``trace``) is a course message
  said with ``say()``: found with ``ast``, so a new English f-string in a ``raise`` fails here;
* every message of those modules has a French text;
* English stays word for word what the notebooks show (a cycle in 01, a missing feed and a finalized graph in 02,
  a Python ``if`` on a symbol in 04, a plan's source);
* after ``set_language("fr")`` the same errors are French, and ``message_of`` still tells which message each is;
  a plan's comments, a measurement and the expression explorer speak French too.
"""

from __future__ import annotations

import ast
import html
import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from course_lib import dynamic as dy
from course_lib import expr, measure, ops, programs, trace
from course_lib import graph as ir
from course_lib import static as st
from course_lib.i18n import Said, message_of, set_language
from course_lib.i18n import gettext as _
from course_lib.static import build, session, shapes
from course_lib.static import compile as plans

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "course_lib"
#: the modules of this area (the core engines and the parser); tiny_static / tiny_dynamic are shown as source in
#: notebooks 02 and 03 and stay plain
CORE = ["expr.py", "dynamic.py", "graph.py", "trace.py", "measure.py", "programs.py",
        *(f"{part}/{p.name}" for part in ("ops", "static") for p in sorted((PACKAGE / part).glob("*.py")))]


# ---------------------------------------------------------------------- every raise says a course message
def english_raises(source: str) -> list[str]:
    """``raise SomeError("text")`` / ``raise SomeError(f"...")``: errors raised with English text instead of a
    ``say()`` message. Python's own wording for a missing attribute (``AttributeError`` in ``__getattr__``, which
    ``hasattr`` relies on) is left as Python writes it."""
    found = []
    stack: list[tuple[ast.AST, str]] = [(ast.parse(source), "")]  # (node, the function it is in)
    while stack:
        node, where = stack.pop()
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            first = node.exc.args[0]
            python_own = where == "__getattr__" and getattr(node.exc.func, "id", "") == "AttributeError"
            if not python_own and (isinstance(first, ast.JoinedStr) or
                                   (isinstance(first, ast.Constant) and isinstance(first.value, str))):
                found.append(f"line {node.lineno}: {ast.unparse(node)[:90]}")
        inner = node.name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return sorted(found)


def test_the_check_finds_an_error_raised_with_english_words() -> None:
    bad = 'def f(x):\n    raise ValueError(f"bad {x}")\n\ndef g():\n    raise TypeError("no")\n'
    good = 'def f(x):\n    raise ValueError(say(BAD, x=x))\n\ndef __getattr__(n):\n    raise AttributeError(f"{n}")\n'
    assert len(english_raises(bad)) == 2 and english_raises(good) == []


@pytest.mark.parametrize("module", CORE)
def test_every_error_of_the_core_is_said_with_a_course_message(module: str) -> None:
    assert english_raises((PACKAGE / module).read_text(encoding="utf-8")) == []


def _load_tool():
    spec = importlib.util.spec_from_file_location("catalogue_tool", ROOT / "tools" / "catalogue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_message_of_the_core_has_a_french_text() -> None:
    tool = _load_tool()
    template = tool.extract()
    core = tuple(f"course_lib/{m}" for m in CORE)
    for message in list(template):  # keep the core's messages only
        if message.id and not any(f in core for f, _line in message.locations):
            template.delete(message.id, message.context)
    assert sum(1 for m in template if m.id) > 100
    assert tool.missing(tool.catalogues()[0], template) == []


# ---------------------------------------------------------------------- English, word for word as the notebooks show it
def dag() -> ir.Graph:
    """Notebook 01's graph: y = sin(x·w + 1)."""
    g = ir.Graph()
    x, w = g.add("placeholder", name="x", kind="input"), g.add("variable", name="w", kind="variable")
    add = g.add("add", [g.add("mul", [x, w]), g.add("constant", name="one", kind="constant")])
    g.add("sin", [add], name="y")
    return g


def add_a_cycle() -> None:
    g = dag()
    g.add_edge(g["y"], g["x"])  # CycleError


def python_if() -> None:
    with st.Graph().as_default():
        programs.branch_with_python_if(st, st.placeholder("x"))  # SymbolicBoolError


def feed_x_only() -> None:
    g = st.Graph()
    with g.as_default():
        x, b = st.placeholder("x"), st.placeholder("b")
        z = st.sin(x) + b
    st.Session(g).run(z, {x: 1.0})  # MissingFeedError


def add_to_a_finalized_graph() -> None:
    g = st.Graph()
    with g.as_default():
        y = st.placeholder("x") * 3.0
    g.finalize()
    with g.as_default():
        y * 2.0  # GraphFinalizedError


def feed_a_wrong_shape() -> None:
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x", shape=(None, 3))
    st.Session(g).run(x, {x: np.ones((2, 2))})  # ShapeError


def raised(make) -> BaseException:
    try:
        make()
    except Exception as error:  # noqa: BLE001 - each case raises its own kind of error
        return error
    raise AssertionError(f"{make.__name__} raised no error")


def plan_source() -> str:
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x")
        y = st.cond(x > 0.0, lambda: st.sin(x) * (st.constant(2.0) * 3.0), lambda: x + 1.0)
    sess = st.Session(g)
    sess.run(y, {x: 1.0})
    return sess.last_plan.source()


def test_english_is_word_for_word_what_the_notebooks_show() -> None:
    assert str(raised(add_a_cycle)) == (
        "adding the edge y -> x would create the cycle x -> mul -> add -> y -> x: x would need its own value before "
        "it can be computed. A computational graph must be a DAG; to reuse a value over time, unroll the loop (one "
        "node per step) or use a loop op such as while_loop.")
    assert str(raised(python_if)) == (
        "Python needs True or False *now*, but 'greater' is a symbolic tensor: it has no value until a Session runs "
        "the graph. A Python `if`/`while`/`and`/`or` on it cannot be put into the graph. Put both branches in the "
        "graph with st.cond(pred, true_fn, false_fn) instead (TensorFlow: tf.cond; in TF2, tf.function's AutoGraph "
        "rewrites such an `if` into tf.cond for you). In define-by-run (course_lib.dynamic) the value exists, so a "
        "plain `if` just works.")
    assert str(raised(feed_x_only)) == ("You must feed a value for placeholder 'b': fetching 'add' needs it. Pass "
                                         "feed_dict={b: value} to Session.run")
    assert str(raised(add_to_a_finalized_graph)).startswith(
        "Graph is finalized and cannot be modified: tried to add 'Const'. "
        "finalize() made the graph immutable (TensorFlow does this when")
    lines = plan_source().splitlines()
    for line in ["    # specialized: shape inference proved every value a single number -> float math",
                 "    Const_1 = 0  # constant", "    mul_6 = 6  # folded: mul of constants",
                 "    if greater_2:  # cond: only the branch taken runs"]:
        assert line in lines
    assert str(measure.Measurement(7.68e-6, 6.89e-6, 2.03e-5, 7, 2598)) == "7.68 µs (IQR 6.89 µs–20.3 µs, 7×2598 calls)"
    assert shapes.describe(()) == "a single number"
    assert shapes.describe((None, 3)) == "shape (None, 3) (None = any size)"


# ---------------------------------------------------------------------- the same errors in French
def _static(build_it):
    def run():
        with st.Graph().as_default():
            build_it()
    return run


CASES = {  # one error of each module of the area -> (how to raise it, the message id, French words it must hold)
    "cycle": (add_a_cycle, ir.CYCLE_EDGE, ["créerait le cycle x -> mul -> add -> y -> x", "graphe de calcul"]),
    "python if": (python_if, build.NEEDS_TRUE_OR_FALSE, ["tenseur symbolique", "st.cond(pred, true_fn"]),
    "missing feed": (feed_x_only, plans.MISSING_FEED, ["Vous devez fournir une valeur au placeholder 'b'"]),
    "finalized": (add_to_a_finalized_graph, build.FINALIZED, ["Le graphe est figé", "tentative d'ajouter 'Const'"]),
    "broadcast": (lambda: dy.Tensor([1.0, 2.0]) + dy.Tensor([1.0, 2.0, 3.0]), ops.BROADCAST,
                  ["add\u00a0: les formes (2,) et (3,) sont incompatibles"]),
    "not numbers": (lambda: dy.Tensor(None), ops.NOT_NUMBERS, ["un Tensor attend un nombre"]),
    "backward": (lambda: dy.Tensor(1.0).backward(), dy.NOTHING_RECORDED, ["rien n'a été enregistré"]),
    "fed shape": (feed_a_wrong_shape, session.FED_SHAPE, ["attend la forme (None, 3) (None = taille",
                                                                   "a reçu une valeur de forme (2, 2)"]),
    "placeholder name": (_static(lambda: st.placeholder("")), build.NAME_NOT_TEXT, ["doit être un texte non vide"]),
    "style": (lambda: trace.record(programs.affine_sin, "lazy", {"x": 1.0, "w": 1.0}), trace.UNKNOWN_STYLE,
              ["style inconnu 'lazy'"]),
    "expression": (lambda: expr.parse("x + open(y)"), expr.UNKNOWN_FUNCTION,
                   ["fonction inconnue 'open' à la colonne 5. les fonctions sont exp, "]),
}


ENGLISH_WORDS = re.compile(r"\b(the|would|needs?|must|cannot|value|given|shape|unknown|column|graph)\b")


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_error_is_french_after_set_language_and_still_tells_which_message_it_is(case: str) -> None:
    make, msgid, french_words = CASES[case]
    english = raised(make)
    set_language("fr")
    french = raised(make)
    assert type(french) is type(english)
    said = message_of(french)
    assert isinstance(said, Said) and said.msgid is msgid is message_of(english).msgid
    assert said.values.keys() == message_of(english).values.keys()  # the values: code, names, translated words
    text = str(french)
    assert [w for w in french_words if w not in text] == [], text
    # no English word left in the French words around the values (code excepted: backquotes, API names, shape=None)
    template = re.sub(r"\{[^}]*\}|`[^`]*`|course_lib\.\w+|st\.cond\([^)]*\)|\w+=\w+", " ", _(msgid))
    assert ENGLISH_WORDS.findall(template) == [], template
    set_language("en")
    assert str(raised(make)) == str(english)


def test_an_expression_error_in_french_keeps_its_parts() -> None:
    set_language("fr")
    with pytest.raises(expr.ExpressionError) as info:
        expr.parse("sine(x)")
    err = info.value
    assert message_of(err) is err.message and err.message.msgid is expr.UNKNOWN_FUNCTION
    assert err.hint.msgid is expr.DID_YOU_MEAN and str(err.hint).endswith("vouliez-vous dire sin\u00a0?")
    assert str(err).startswith("fonction inconnue 'sine' à la colonne 1. les fonctions sont ")
    assert err.pointer("sine(x)") == "sine(x)\n^"
    # a subclass may pass plain text (lessons.trees.TreeError): no course message, the column still in French
    plain = expr.ExpressionError("this ')' closes nothing", 9, "Remove it")
    assert str(plain) == "this ')' closes nothing à la colonne 10. Remove it"
    with pytest.raises(LookupError):
        message_of(plain)


def test_the_expression_explorer_shows_a_parser_error_in_french() -> None:
    pytest.importorskip("ipywidgets")
    from course_lib.widgets import explorers
    from course_lib.widgets.base import said_ids

    set_language("fr")
    e = explorers.ExpressionExplorer("sin(x*w + 1)")
    e.set_text("x + open(y)")
    shown = html.unescape(re.sub(r"<[^>]+>", " ", e.message.value))
    assert said_ids(e) == [expr.UNKNOWN_FUNCTION]
    assert "fonction inconnue 'open'" in shown and "les fonctions sont exp" in shown
    assert "unknown function" not in shown and "the functions are" not in shown


def test_a_plan_a_measurement_and_a_shape_read_in_french() -> None:
    set_language("fr")
    source = plan_source()
    assert "# spécialisé\u00a0: l'inférence de forme a prouvé" in source
    assert "# replié\u00a0: mul de constantes" in source
    assert "# cond\u00a0: seule la branche choisie s'exécute" in source
    assert "specialized" not in source and "folded" not in source and "only the branch" not in source
    assert "    mul_6 = 6  # " in source and "greater_2 = greater(x_0, Const_1)" in source  # the code is the same
    m = str(measure.Measurement(7.68e-6, 6.89e-6, 2.03e-5, 7, 2598))
    assert m == "7,68 µs (écart interquartile 6,89 µs–20,3 µs, 7×2\u202f598 appels)"
    assert measure.fmt_seconds(0.00123) == "1,23 ms"
    assert shapes.describe(()) == "un nombre seul" and shapes.describe((None, 3)).startswith("la forme (None, 3)")


def test_a_symbol_prints_in_french() -> None:
    """A printed symbol says when it gets a value, in the language of the moment (02, 03 and 04 print them)."""
    g = st.Graph()
    with g.as_default():
        x = st.placeholder("x", shape=None)
        y = st.sin(x)
    english = repr(y)
    set_language("fr")
    try:
        assert repr(y).startswith("<Tensor statique 'sin' op=sin") and "pas de valeur avant Session.run" in repr(y)
        assert "no value" not in repr(y) and "inconnue" in repr(x)
    finally:
        set_language("en")
    assert "no value until Session.run" in english and repr(x).endswith("shape=unknown — no value until Session.run>")
