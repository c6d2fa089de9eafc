"""The lessons' measurements speak French after ``set_language("fr")``: tables, verdict sentences, progress lines,
summaries and plots (titles, axis labels, legends), with French numbers in running text (decimal comma, narrow
no-break space between thousands); and English stays exactly what it was.

Nothing here is timed: every measurement is made up (``Measurement(median, low, high, repeat, number)``), so the
texts are known in advance. Notebooks 02, 03, 05, 06 and 08 print these texts.
"""

from __future__ import annotations

import html
import re

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from course_lib.i18n import message_of, set_language
from course_lib.lessons import compiling as cc
from course_lib.lessons import debugging, edit_cost, padding, tf_debugging
from course_lib.lessons import sequences as sq
from course_lib.lessons import xla_payoff as xp
from course_lib.lessons.compiling import payoff, tables, verdicts
from course_lib.lessons.compiling import tf1 as tf1_session
from course_lib.measure import Measurement

NNBSP = "\u202f"  # narrow no-break space: French thousands


def m(median: float, spread: float = 1.1, number: int = 1200) -> Measurement:
    return Measurement(median, median / spread, median * spread, 5, number)


def tf1_costs(n: int = 100) -> cc.TF1Costs:
    return cc.TF1Costs(n, m(1.9e-4 + 1e-7 * n), m(2e-4), m(2.8e-3), m(25e-3), m(32e-3), (n + 15, n + 37),
                       {"steady": (0, 1200), "extension": (0, 11), "new_fetch": (11, 11), "both": (11, 11)}, n + 1)


def break_even() -> cc.BreakEven:
    return cc.BreakEven({"small": 2, "large": 200},
                        {"small": {"tf.function": (0.01, 2e-4), "TF eager": (2e-5, 2e-5),
                                   "our static engine": (3e-5, 5e-6), "our dynamic engine": (1e-5, 1e-5)},
                         "large": {"tf.function": (0.2, 2e-4), "TF eager": (8e-3, 8e-3),
                                   "our static engine": (3e-3, 2e-4), "our dynamic engine": (3e-4, 3e-4)}},
                        {}, {"small": {"tf.function": m(8e-3)}})


def xla_payoff() -> xp.XlaPayoff:
    ways = {xp.EAGER: xp.Way(xp.EAGER, m(6e-3), m(6.5e-3)), xp.TF_FUNCTION: xp.Way(xp.TF_FUNCTION, m(0.04), m(3e-3), 1),
            xp.XLA: xp.Way(xp.XLA, m(0.07), m(2.5e-3), 1)}
    return xp.XlaPayoff(xp.SHAPE, ways, {xp.TF_FUNCTION: 1e-6, xp.XLA: 2e-6}, 1e-4, 30, 1, xp.say(xp.NOT_ASKED),
                        {"tensorflow": "2.21.0", "cpu": "AMD EPYC", "cpus": "2"}, ops=30, fused=30)


def plot_words(fig) -> dict[str, list[str]]:
    """What a figure says, read through matplotlib: titles, axis labels, legend entries, annotations, figure text."""
    axes = fig.axes
    return {"titles": [ax.get_title(loc="left") for ax in axes],
            "xlabels": [ax.get_xlabel() for ax in axes], "ylabels": [ax.get_ylabel() for ax in axes],
            "legend": [t.get_text() for ax in axes if ax.get_legend() for t in ax.get_legend().get_texts()],
            "texts": [t.get_text() for ax in axes for t in ax.texts] + [t.get_text() for t in fig.texts],
            "ticks": [t.get_text() for ax in axes for t in ax.get_xticklabels() + ax.get_yticklabels()]}


def english_words_left(words: list[str], english: tuple[str, ...]) -> list[str]:
    """The English words (whole words: "graph" is not in "graphes") still found in ``words``."""
    return [w for w in english if any(re.search(rf"\b{re.escape(w)}\b", text) for text in words)]


# ---------------------------------------------------------------------------------------------- tables
def test_measured_tables_have_french_headers_and_rows() -> None:
    set_language("fr")
    tf1 = cc.tf1_table([tf1_costs(2), tf1_costs(1000)])
    assert tf1.header == ["Session TF1\u00a0: médiane (écart interquartile)", "exécution en régime établi de la chaîne",
                          "extension seule", "nouvelle demande (n + 1 opérations)",
                          "extension + nouvelle demande (n + 1 opérations)"]
    assert tf1.rows[1][:3] == (f"chaîne de 1{NNBSP}000 opérations", "290 µs (264–319)",
                               "2,6 ms (2,35–2,88)")  # French digits, a thousand as French writes it
    assert tf1.caption.startswith("mesuré avec ") and " sur " in tf1.caption
    assert tf1_costs(2).counts().startswith("chaîne de 2 opérations (graphe de 17 → 39 nœuds)\u00a0: exécuteurs "
                                            "construits par les exécutions en régime établi 0 en "
                                            f"1{NNBSP}200 exécutions")
    table = cc.then_and_now(cc.TF1Sweep([tf1_costs(10), tf1_costs()]), {"numpy": m(4e-7), "PyTorch eager": m(2.4e-6)})
    assert table.header == ["quoi", "Réponse 1 (2017)", "aujourd'hui face à 2017", "verdict de cette mesure"]
    assert [row[0] for row in table.rows][-2:] == ["numpy\u00a0: une opération",
                                                  "PyTorch en mode immédiat\u00a0: une opération"]
    assert table.rows[0][:3] == ("TF1, chaîne de 10 opérations\u00a0: l'extension seule", "peut-être 200usec",
                                 "13× le chiffre de 2017")
    assert table.rows[-2][2] == "2,5× moins que le chiffre de 2017"
    assert [row[-1].msgid for row in table.rows] == [verdicts.CHANGE_LARGER, verdicts.CHANGE_LARGER,
                                                     verdicts.OP_CHEAPER, verdicts.OP_CHEAPER, verdicts.OP_SAME_ORDER]
    assert table.rows[-2][-1] == "vérifié, et même moins\u00a0: sous 0,5\u00a0µs"
    shown = repr(table) + table._repr_html_()
    assert english_words_left([shown], ("today", "this run", "perhaps", "as low as", "holds", "figure", "one op")) == []


def test_the_other_tables_of_notebook_05_and_06_are_french() -> None:
    set_language("fr")
    engines = cc.EngineCosts(100, m(8.5e-4), m(1.95e-5), m(2.6e-4), m(9e-4), 800, 1, 51, 52, 103, "", {})
    table = engines.table()
    assert table.header[0] == "nos moteurs, chaîne de 100 opérations"
    assert table.rows[1][:2] == ("moteur statique\u00a0: une exécution du plan compilé", "19,5 µs")
    assert table.rows[-1][1] == "4 exécutions"
    tf_fn = cc.TFFunctionCosts(m(8e-3), m(4.45e-4), m(7e-3), m(6e-5), {}, 5).table()
    assert tf_fn.header[0] == "tf.function(lambda x: tf.sin(x) * 2.0)", "code stays code"
    assert tf_fn.rows[2][0] == "appel avec une nouvelle forme\u00a0: tracer de nouveau (retraçage)"
    torch_c = cc.TorchCompileCosts("eager", None, m(0.04), m(1.7e-5), m(0.03), m(5e-6), {}, 4).table()
    assert torch_c.rows[0][0].endswith("sans générer de code")
    be = break_even().table()
    assert be.header[0] == "au bout de combien d'exécutions la compilation devient-elle rentable\u00a0?"
    assert be.rows[0] == ("petit graphe (2 opérations)\u00a0: tf.function contre TF en mode immédiat",
                          "8 ms (7,27 ms–8,8 ms)", "jamais (une exécution compilée n'est pas plus rapide)")
    strategies = sq.StrategyCosts({sq.PADDED: m(2.1e-4), "TF tf.function: padded": m(3e-3)}, {sq.PADDED: 80_123},
                                  {sq.PADDED: sq.say(sq.PADDED)})
    assert strategies.table().header == ["un lot de phrases", "médiane", "écart interquartile",
                                         "pas de cellule exécutés"]
    assert strategies.table().rows[0][0::3] == ("notre moteur statique\u00a0: lot complété, un graphe", f"80{NNBSP}123")
    assert strategies.table().rows[1][0] == "TF tf.function: padded", "a notebook's own label is shown as it is"
    ranking = strategies.ranking()
    assert ranking.msgid is sq.RANKING and ranking.startswith("Cette fois-ci, la stratégie la plus rapide a été")
    rows = edit_cost.table([edit_cost.EditCost("course_lib.static Session", m(3.2e-6), m(4.1e-4), 5, 5, 18, 13)])
    head, _rule, row = rows.splitlines()
    assert head.split()[:3] == ["moteur", "exécution", "en"] and head.endswith("nœuds ajoutés")
    assert len(head) == len(row) and "128,1x" in row, "the columns widen for the French words and stay aligned"


def test_a_timed_table_made_in_french_after_english_speaks_french() -> None:
    """TIMED is imported by notebooks (07's table) and used as text: each heading is said when the table is made."""
    english = cc.Table(["one batch", *cc.TIMED], [cc.timed("x", m(1e-6))], caption="")
    set_language("fr")
    french = cc.Table(["un lot", *cc.TIMED], [cc.timed("x", m(1e-6))], caption="")
    assert english.header[1:] == ["median", "spread (IQR)", "calls"]
    assert french.header[1:] == ["médiane", "écart interquartile", "appels"]
    assert french.rows[0][1:] == ("1 µs", "909 ns–1,1 µs", f"5×1{NNBSP}200")


# ---------------------------------------------------------------------------------------------- sentences
def test_verdict_sentences_are_french_with_french_numbers() -> None:
    set_language("fr")
    said = cc.compare("le code compilé", m(4e-4, 1.05), "le mode immédiat", m(6e-5, 1.05))
    assert said == ("Cette fois-ci, le code compilé contre le mode immédiat\u00a0: le premier a coûté plus cher, 6,7× "
                    "(médianes 400 µs et 60 µs\u00a0; les écarts interquartiles ne se chevauchent pas).")
    assert said.msgid is tables.COST_MORE and said.values["ratio"] == "6,7"
    growth = cc.TF1Sweep([tf1_costs(10), tf1_costs(3000)]).growth_sentence()
    assert growth == ("L'extension seule est passée de 2,6 ms à 10 opérations à "
                      f"2,6 ms à 3{NNBSP}000 opérations\u00a0: 1× pour 300× plus d'opérations.")
    sentences = break_even().sentences()
    assert [s.msgid for s in sentences] == [payoff.NEVER_PAYS] + [payoff.PAYS_AFTER] * 3
    assert "cette fois-ci, compiler n'est jamais rentable" in sentences[0]
    assert sentences[1].endswith("la compilation est rentable au bout de 5 exécutions\u00a0: l'étape de compilation "
                                 "(25 µs) divisée par ce que chaque exécution fait gagner (5 µs).")
    assert cc.TFFunctionCosts(m(8e-3), m(4.45e-4), m(7e-3), m(6e-5), {}, 5).steady_vs_eager().startswith(
        "Cette fois-ci, un appel tf.function en régime établi contre")
    assert str(sq.padding_count([5, 2, 3, 9])) == ("36 pas de la cellule\u00a0: 19 sur des mots, 17 sur du remplissage "
                                                   f"(47{NNBSP}% perdus)")
    assert tables.runs_text(1234) == f"1{NNBSP}234 exécutions" and tables.runs_text(1) == "1 exécution"


def test_notebook_08s_summary_table_and_sentences_are_french() -> None:
    set_language("fr")
    payoff_08 = xla_payoff()
    assert payoff_08.counts().splitlines() == [
        "traçages (ou graphes) par fonction neuve\u00a0: tf.function 1, tf.function(jit_compile=True) 1",
        "les sorties concordent avec celles de TF en mode immédiat à 0,0001 près (2 comparées)",
        ("la tf.function seule a exécuté 30 noyaux (son graphe après Grappler), chacun lisant un tableau de 16 Mo et "
         "en écrivant un nouveau"),
        ("le programme optimisé de XLA exécute 1 noyau (une fusion comptée une fois), avec 30 opérations dans ses "
         "fusions"),
        "inductor\u00a0: pas exécuté (USE_INDUCTOR = False)"]
    table = payoff_08.table()
    assert table.startswith("Une chaîne de 30 opérations élément par élément sur une matrice float32 de 2\u202f048 × "
                            "2\u202f048 (16 Mo)\n")
    assert "| TF en mode immédiat | 6 ms (5,45 ms–6,6 ms, 5×1\u202f200) |" in table
    assert table.endswith("<small>mesuré avec tensorflow 2.21.0 sur AMD EPYC (2 CPU)</small>"), "versions keep dots"
    sentences = payoff_08.sentences()
    assert all(s.startswith("Cette fois-ci, ") for s in sentences)
    assert sentences[-1].msgid is xp.CAUGHT_UP
    assert "a rattrapé TF en mode immédiat au bout de 17 appels" in sentences[-1]
    assert english_words_left(sentences + [table, payoff_08.counts()],
                              ("On this run", "cost", "medians", "calls", "outputs", "measured", "way")) == []


def test_progress_lines_debugging_lines_and_summaries_are_french() -> None:
    set_language("fr")

    class Bar:  # the ipywidgets IntProgress a notebook would show
        value, description, bar_style = 0, "", ""

    with cc.Progress(2) as progress:
        progress._bar = Bar()
        progress.tick("exécutions statiques")
        assert progress._bar.description == "mesure\u00a0: exécutions statiques"
    assert progress._bar.description == "mesure\u00a0: terminé"
    with pytest.raises(RuntimeError), cc.Progress(2, "nos moteurs") as failing:
        failing._bar = Bar()
        raise RuntimeError("a measurement failed")
    assert failing._bar.description == "nos moteurs\u00a0: échec"
    assert str(debugging.Stop("model", 3, {})) == ("point d'arrêt dans model, ligne 3\u00a0:\n"
                                                   "    (aucune variable locale)")
    assert tf_debugging.VariableLesson(None, 1, (), (), 1).summary() == ("aucune erreur\u00a0: "
                                                                         "la variable a été acceptée")
    assert list(cc.extension_recompiles(3)) == ["compilations avant", "compilations après extension + ancienne demande",
                                               "compilations après une exécution de plus"]
    svg = html.unescape(sq.grid_svg([3, 1, 5], [[0, 1], [2]]))
    assert "phrase 1</text>" in svg and "compartiment 1\u00a0: complété jusqu'à 3, 2 zéros</text>" in svg
    assert "compartiment 2\u00a0: complété jusqu'à 5, 0 zéro</text>" in svg, "French: singular for 0"
    assert "sentence" not in svg and "padded" not in svg


# ---------------------------------------------------------------------------------------------- plots
def test_plots_have_french_titles_axis_labels_and_legends() -> None:
    set_language("fr")
    waste = plot_words(sq.plot_waste(3, ks=(1, 2)))
    assert waste["titles"] == ["Le remplissage gaspillé\u00a0: compté, pas chronométré"]
    assert waste["xlabels"] == ["écart des longueurs (8 phrases de 6 ± écart mots)"]
    assert waste["ylabels"] == ["% des pas de la cellule sur du remplissage"]
    assert waste["legend"] == ["définir puis exécuter, compléter jusqu'à la plus longue",
                               "regroupement par longueur\u00a0: 2 graphes",
                               "définir en exécutant, une phrase à la fois"]
    curves = plot_words(cc.plot_break_even(break_even()))
    assert curves["titles"] == ["petit graphe\u00a0: une chaîne de 2 opérations",
                                "grand graphe\u00a0: une chaîne de 200 opérations"]
    assert curves["xlabels"] == ["nombre d'exécutions (échelle log)"] * 2
    assert curves["ylabels"][0] == "temps total en secondes (échelle log)"
    assert curves["legend"] == ["tf.function", "TF en mode immédiat", "notre moteur statique", "notre moteur dynamique"]
    assert "rentable au bout de 5 exécutions" in curves["texts"]
    assert curves["texts"][-1].startswith("trait plein\u00a0: compiler une fois puis exécuter")
    bars = plot_words(cc.plot_per_op({"numpy": m(4e-7), "PyTorch eager": m(2.4e-6), "facts": {}},
                                     {"Session TF1\u00a0: une opération": 3e-6}))
    assert bars["titles"] == ["Une opération à la fois"]
    assert bars["xlabels"] == ["µs par opération (échelle log)"]
    assert "Réponse 1 (2017)\u00a0: «\u00a0peut ne prendre que 1 usec\u00a0» →" in bars["texts"]
    assert {"0,1", "0,3", "PyTorch en mode immédiat", "Session TF1\u00a0: une opération"} <= set(bars["ticks"])
    everything = [w for fig in (waste, curves, bars) for words in fig.values() for w in words]
    assert english_words_left(everything, ("graph", "runs", "Padding", "spread", "define-", "eager", "per op",
                                           "solid", "Answer", "engine", "bucketing", "total time")) == []


# ---------------------------------------------------------------------------------------------- errors
def test_errors_raised_in_french_still_say_which_message_they_are() -> None:
    set_language("fr")
    with pytest.raises(ValueError) as info:
        cc.tf1_costs(n=1)
    assert str(info.value) == "tf1_costs a besoin d'une chaîne d'au moins 2 opérations\u00a0; reçu n=1"
    assert message_of(info.value).msgid is tf1_session.TOO_SHORT and message_of(info.value).values == {"n": 1}
    with pytest.raises(ValueError) as info:
        sq.pad([np.ones((6, 3))], length=4)
    assert str(info.value).startswith("impossible de compléter à 4 pas\u00a0: la phrase la plus longue a 6 mots")
    assert message_of(info.value).msgid is padding.TOO_SHORT
    rnn = sq.TinyRNN.make()
    with pytest.raises(ValueError) as info:
        sq.StaticUnroll(rnn, 4).run(*sq.pad([np.ones((6, rnn.dim))]))
    assert message_of(info.value).msgid is sq.WRONG_LENGTH and "la longueur d'un graphe statique est fixe" in str(
        info.value)
    with pytest.raises(TypeError) as info:
        debugging.locals_at_return(print, 1)
    assert message_of(info.value).msgid is debugging.NOT_A_FUNCTION and "attend une fonction Python" in str(info.value)


# ---------------------------------------------------------------------------------------------- English unchanged
def test_english_is_unchanged_after_french() -> None:
    set_language("fr")
    cc.compare("a", m(1e-6), "b", m(2e-6))
    set_language("en")
    assert cc.compare("compiled", Measurement(4e-4, 3.8e-4, 4.2e-4, 5, 10), "eager",
                      Measurement(6e-5, 5e-5, 7e-5, 5, 10)) == (
        "On this run, compiled cost more than eager: 6.7× (medians 400 µs and 60 µs; the spreads do not overlap).")
    assert tables.runs_text(1234) == "1,234 runs" and tables.runs_text(1) == "1 run" and tables.runs_text(2) == "2 runs"
    assert cc.timed("one op", m(1e-6)) == ("one op", "1 µs", "909 ns–1.1 µs", "5×1200")
    assert verdicts.ratio_text(2.6e-3, 200e-6) == "13× the 2017 figure"
    assert verdicts.ratio_text(3.2e-2, 1e-6) == "32,000× the 2017 figure"
    assert str(sq.padding_count([5, 2, 3])) == "15 cell steps: 10 on words, 5 on padding (33% wasted)"
    assert break_even().sentences()[1].startswith("small graph (2 ops), our static engine vs our dynamic engine: it "
                                                  "pays after 5 runs: the compile step (25 µs)")
    words = plot_words(sq.plot_waste(3, ks=(1, 2)))
    assert words["ylabels"] == ["% of cell steps on padding"] and words["legend"][1] == "bucketing: 2 graphs"
    assert xla_payoff().counts().splitlines()[-1] == "inductor: not run (USE_INDUCTOR = False)"
    bars = cc.plot_per_op({"PyTorch eager, recording autograd": m(4e-6)},
                          {"our static engine: one node of a compiled run": 2e-7})  # notebook 05's longest label
    assert tuple(bars.get_size_inches()) == (8.0, 0.45 * 2 + 1.6), "the English figure keeps its size"
    assert edit_cost.table([]).startswith("engine" + " " * 29 + "  steady run extend + new fetch   ratio  nodes added")
