"""The lessons' own widgets in French (issue 16): the compile, padding, session, tree and batching explorers and the
unroll explorer, built after ``set_language("fr")``, show French words on every control, title, table and note, and
none of their English ones; bad input gives a French message that still says which message it is, and the widget
keeps working. The tree lessons (trees, tree_rnn, fold) raise their errors in French too."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

# importing these never needs ipywidgets (course_lib/widgets/base.py guards it): safe before the skip
from course_lib.i18n import message_of, set_language
from course_lib.lessons import compile_explorer, fold, padding_explorer, session_explorer, tree_rnn, tree_widgets, trees
from course_lib.widgets.base import said_ids

ipywidgets = pytest.importorskip("ipywidgets")

#: English words of these widgets' labels and sentences: none may be left on a French widget (code is taken out
#: first: <code>, <pre>, the drawings, the session's call line, and the sentences and trees typed as data)
ENGLISH = {"the", "of", "and", "is", "was", "are", "with", "this", "that", "per", "far", "graph", "graphs", "run",
           "runs", "node", "nodes", "step", "steps", "sentence", "sentences", "tree", "trees", "word", "words", "cell",
           "cells", "ops", "op", "seed", "draw", "fetch", "feed", "start", "over", "every", "one", "built", "reused",
           "compiled", "compile", "compiles", "padding", "bucket", "buckets", "bucketing", "batch", "batched",
           "problem", "hint", "column", "never", "closed", "empty", "times", "after", "pays", "then",
           "explorer", "define", "spread", "length", "lengths", "strategy", "needed", "wasted", "none", "recorded",
           "height", "shape", "new", "seen", "before", "random", "most", "phrase", "phrases", "level", "levels",
           "depth", "box", "each", "grey", "below", "above", "type", "press", "enter", "read", "nothing", "value",
           "values", "call", "plan", "constants", "folded", "duplicates", "merged", "pruned", "so", "finalized",
           "while", "tracing", "unrolled", "traces", "body", "for", "range", "loop", "measured", "now", "engine"}
#: words French cannot show here either way (they are also French): left out of the check
BOTH = {"plan", "phrase", "phrases"}


def visible(markup: str) -> str:
    """What a reader sees of a widget's HTML, without its code and data: drawings, <code>, <pre>, the monospace
    call line, and text in « » (a sentence of the data set)."""
    markup = re.sub(r"<svg.*?</svg>|<style.*?</style>|<pre.*?</pre>|<code>.*?</code>", " ", markup, flags=re.DOTALL)
    markup = re.sub(r'<div style="font-family:monospace.*?</div>', " ", markup, flags=re.DOTALL)
    text = html.unescape(re.sub(r"<[^>]+>", " ", markup))
    # a value as code writes it ('one box per cell', view='nope'): a French apostrophe follows a letter (l'une)
    return re.sub(r"«[^»]*»|(?<![^\W\d_])'[^']*'", " ", text)


def words_of(widget: Any) -> str:
    """Every word a student reads on a widget: descriptions, tooltips, placeholders, option labels, HTML."""
    out = []
    for attr in ("description", "tooltip", "placeholder"):
        value = getattr(widget, attr, None)
        if isinstance(value, str):
            out.append(value)
    if isinstance(widget, ipywidgets.ToggleButtons):  # a dropdown's options are the graph's node names: data
        out += [str(label) for label in widget._options_labels]
    value = getattr(widget, "value", None)
    if isinstance(value, str) and "<" in value:
        out.append(visible(value))
    for child in getattr(widget, "children", ()):
        out.append(words_of(child))
    return "\n".join(out)


def english_left(text: str) -> set[str]:
    tokens = {t.lower() for t in re.findall(r"[\w.()=']+", text)}
    return {t for t in tokens if t in ENGLISH and t not in BOTH}


def compile_fr() -> compile_explorer.CompileExplorer:
    return compile_explorer.CompileExplorer(ops=40, timings=True)


def padding_fr() -> padding_explorer.PaddingExplorer:
    return padding_explorer.PaddingExplorer(spread=4, buckets=2)


def session_fr() -> session_explorer.SessionExplorer:
    e = session_explorer.SessionExplorer()
    e.finalize()  # the finalized note and "(finalized)" too
    return e


def tree_fr() -> tree_widgets.TreeExplorer:
    return tree_widgets.TreeExplorer("((the cat) (sat (on (the mat))))")


def batching_fr() -> tree_widgets.BatchingExplorer:
    return tree_widgets.BatchingExplorer(trees=40, words=5)  # the table and the "too many to draw" note


WIDGETS = {
    "compile": (compile_fr, ["opérations dans le graphe", "ajouter un nœud, puis exécuter", "l'exécuter 100 fois",
                             "Explorateur de compilation", "compilations (Session.compile_count)",
                             "exécutions du graphe", "rentabilisée au bout de", "même graphe, même plan"]),
    "padding": (padding_fr, ["écart des longueurs", "compartiments", "dessiner la phrase", "Explorateur du remplissage",
                             "stratégie", "pas de cellule exécutés", "graphes nécessaires", "Longueurs des phrases",
                             "Définir puis exécuter\u00a0: UN graphe de", "sur du remplissage", "% perdus",
                             "regroupement par longueur en 2 groupes", "Chaque boîte est un pas de temps"]),
    "session": (session_fr, ["demander", "ajouter un nœud", "recommencer", "alimenter x", "seule entrée (alimenter)",
                             "compilations jusqu'ici", "nœuds", "(figé)", "le graphe est figé", "Le plan compilé",
                             "élagués", "constantes repliées", "doublons fusionnés", "immuable"]),
    "tree": (tree_fr, ["arbre\u00a0:", "dessin\u00a0:", "une boîte par cellule", "toutes les opérations", "p. ex.",
                       "Tapez des mots entre parenthèses", "Définir en exécutant", "6 mots", "5 cellules",
                       "20 opérations enregistrées", "hauteur 4", "construit et compilé", "Graphes construits"]),
    "batching": (batching_fr, ["arbres dans le lot", "mots, au plus", "graine aléatoire", "un nœud à la fois",
                               "en lots par profondeur", "cellules à calculer", "opérations exécutées", "par niveau",
                               "c'est trop pour un dessin lisible", "Remarque"]),
}


@pytest.mark.parametrize("name", list(WIDGETS))
def test_a_lesson_widget_built_in_french_speaks_french(name: str) -> None:
    build, french = WIDGETS[name]
    set_language("fr")
    shown = words_of(build())
    missing = [w for w in french if w not in shown]
    assert not missing, f"{name}: French words missing: {missing}\n{shown}"
    assert not english_left(shown), f"{name}: English words left: {english_left(shown)}\n{shown}"


@pytest.mark.parametrize("name", list(WIDGETS))
def test_the_same_widget_in_english_is_caught_by_the_check(name: str) -> None:
    """The check above can fail: the same widget in English shows the English words it looks for."""
    shown = words_of(WIDGETS[name][0]())
    assert english_left(shown) and not [w for w in WIDGETS[name][1] if w in shown and not w.isascii()]


def test_the_unroll_explorer_speaks_french(tf_loops) -> None:
    from course_lib.lessons.unroll import UnrollExplorer

    unrolled, looped = tf_loops
    set_language("fr")
    e = UnrollExplorer(unrolled, looped, n=3, max_n="a")
    shown = words_of(e)
    for word in ("pas de la boucle n", "déroulée pendant le traçage", "une seule opération While", "Traçages jusqu'ici",
                 "le graphe déroulé a", "n'est pas un nombre"):
        assert word in shown, word
    code = {"for", "range", "while"}  # the loops' code in the titles (boucle for i in range(n))
    assert not english_left(shown) - code, english_left(shown)
    e.slider.value = 4  # the widget keeps working after the problem
    assert "n = 4\u00a0:" in e.summary.value


def test_the_compile_explorer_shortens_its_plan_in_french() -> None:
    set_language("fr")
    e = compile_explorer.CompileExplorer(ops=40, timings=False)
    assert "# … 31 lignes de plus …" in e.source.value and "more line" not in e.source.value


# ------------------------------------------------------------------ bad input, in French
def test_a_tree_typed_wrong_is_said_in_french_and_the_widget_goes_on() -> None:
    set_language("fr")
    e = tree_widgets.TreeExplorer("((the cat) sat)")
    before = e.picture.value
    e.set_text("((the cat) sat")
    assert said_ids(e) == [trees.NEVER_CLOSED]
    box = html.unescape(e.message.value)
    for word in ("Problème\u00a0:", "cette parenthèse «\u00a0(\u00a0» n'est jamais fermée", "(colonne 1)",
                 "Indice\u00a0: Ajoutez une", "(Le graphe ci-dessous est toujours celui de ((the cat) sat).)"):
        assert word in box, word
    assert not english_left(visible(e.message.value)), english_left(visible(e.message.value))
    assert e.picture.value == before
    e.set_text(42)
    assert said_ids(e) == [tree_widgets.NOT_TEXT]
    assert "passez l'arbre entre guillemets" in html.unescape(e.message.value)
    e.set_text("(big dog)")
    assert e.message.value == "" and "2 mots" in e.summary.value


def test_bad_arguments_of_each_widget_are_said_in_french() -> None:
    set_language("fr")
    cases = [
        (lambda: tree_widgets.TreeExplorer("(a b)", view="nope"), [tree_widgets.UNKNOWN_VIEW], "n'est pas une vue"),
        (lambda: compile_explorer.CompileExplorer(ops=3, timings="no"), [compile_explorer.TIMINGS_NOT_BOOL],
         "n'est ni True ni False"),
        (lambda: session_explorer.SessionExplorer(fetch="nope"), [session_explorer.FETCH_NOT_IN_GRAPH],
         "n'est pas une opération de ce graphe"),
        (lambda: session_explorer.SessionExplorer(feeds=[1]), [session_explorer.FEEDS_NOT_A_DICT],
         "n'est pas un dict"),
        (lambda: session_explorer.SessionExplorer(feeds={"x": 10.0}), [session_explorer.WIDEN],
         "pour élargir les curseurs"),
    ]
    for build, ids, french in cases:
        w = build()
        assert said_ids(w) == ids and french in html.unescape(w.message.value), (ids, w.message.value)
        assert not english_left(visible(w.message.value)), english_left(visible(w.message.value))


def test_bad_calls_in_french_are_said_in_french_and_the_widgets_go_on() -> None:
    set_language("fr")
    c = compile_explorer.CompileExplorer(ops=3, timings=False)
    c.run_many("a")
    assert said_ids(c) == [compile_explorer.RUN_MANY_BAD] and "rien n'a été exécuté" in html.unescape(c.message.value)
    assert "1\u202f000\u202f000" in c.shown[0]  # the largest k, written the French way
    c.run_many(5)
    assert c.runs == 6

    s = session_explorer.SessionExplorer()
    s.set_fetch("nope")
    assert said_ids(s) == [session_explorer.NO_NODE_TO_FETCH] and "à demander" in html.unescape(s.message.value)
    s.feed(q=1.0, x="abc")
    assert said_ids(s) == [session_explorer.NOT_A_PLACEHOLDER, session_explorer.FEED_NOT_A_NUMBER]
    assert "rien n'a été fourni à x" in html.unescape(s.message.value)
    s.feed(x=2.0)
    assert s.message.value == "" and float(s.value) == pytest.approx(0.1411200080598672)

    b = tree_widgets.BatchingExplorer(trees="a")
    assert "n'est pas un nombre" in html.unescape(b.message.value)
    b.seed.value = 3
    assert b.message.value == "" and b.counts is not None and b.counts.trees == 4


def test_the_controls_are_as_wide_as_their_french_words() -> None:
    """A slider's name in French is longer: its box is widened as much, so nothing is cut short (ipywidgets cuts a
    description that does not fit with an ellipsis); in English the widths chosen by eye stay as they were."""
    en = padding_explorer.PaddingExplorer()
    assert en.spread.style.description_width == "8.7em"
    set_language("fr")
    fr = padding_explorer.PaddingExplorer()
    assert fr.spread.style.description_width == "12.7em"  # "écart des longueurs": 19 characters for 13
    assert {s.style.description_width for s in (fr.spread, fr.buckets, fr.sentence)} == {"12.7em"}
    assert padding_explorer.wider(10, "em", ["trees in the batch", "random seed"]) == "10em"  # as long in French
    tree = tree_widgets.TreeExplorer("(a b)")
    assert float(tree.view.style.description_width.removesuffix("em")) > 3.5  # "dessin :" for "draw:"


# ------------------------------------------------------------------ the tree lessons' errors, in French
def test_a_tree_error_in_french_still_says_which_message() -> None:
    set_language("fr")
    with pytest.raises(trees.TreeError) as info:
        trees.parse("(a b))")
    err = info.value
    assert message_of(err).msgid is trees.CLOSES_NOTHING and err.position == 5
    assert str(err).startswith("cette parenthèse «\u00a0)\u00a0» ne ferme rien")
    assert err.hint == "Retirez-la, ou ajoutez une «\u00a0(\u00a0» avant elle"
    with pytest.raises(trees.TreeError) as info:
        trees.parse("(" * 31 + "a" + ")" * 31)
    assert message_of(info.value).values == {"max_depth": 30} and "plus de 30 niveaux" in str(info.value)


def test_the_tree_networks_speak_french() -> None:
    set_language("fr")
    net = tree_rnn.TreeRNN()
    g = tree_rnn.ShapeCache(net).graph_for(trees.parse("((x y) z)"))
    with pytest.raises(ValueError) as info:
        g.run(trees.parse("(x (y z))"))
    assert message_of(info.value).msgid is tree_rnn.WRONG_SHAPE
    assert "construisez donc un autre graphe" in str(info.value)
    with pytest.raises(ValueError) as info:
        fold.FoldGraph(net, max_levels=2).run([trees.parse("(a (b (c d)))")])
    assert message_of(info.value).values == {"needed": 3, "levels": 2} and "ce lot demande 3 niveaux" in str(info.value)
    picture = fold.picture([trees.parse("((a b) c)")])
    assert picture.nodes[0].scope == "arbre 1" and [n.op for n in picture.outputs] == ["niveau 2"]
    assert picture.name == "mise en lots dynamique par profondeur"


def test_counts_take_the_french_singular_for_zero_and_one() -> None:
    set_language("fr")
    b = tree_widgets.BatchingExplorer(trees=1, words=2)
    assert "(8 par niveau × 1 niveau + 1)" in b.table.value
    t = tree_widgets.TreeExplorer("cat")  # one word, no cell: 0 is singular in French
    assert "1 mot → 0 cellule → 0 opération enregistrée" in t.summary.value
