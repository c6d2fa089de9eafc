"""The view layer in French (issue 16): the start page's environment check, the notes and one-line summaries of
drawings, ``cl.present()``, the adapters' errors and summaries. Each check also looks for the English words that
must be gone, and a French error still says which message it is (``message_of``)."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import course_lib as cl
from course_lib import render
from course_lib.adapters import counters, loader, quiet
from course_lib.graph import Graph
from course_lib.i18n import message_of, set_language
from course_lib.lessons import envcheck
from course_lib.render import plan, theme

NBSP = "\u00a0"
CFG = Path(__file__).resolve().parent / "nbval_sanitize.cfg"


def scoped(scopes: int = 6, per_scope: int = 40) -> Graph:
    """A chain of ops in ``scopes`` name scopes: big enough to be collapsed, then capped."""
    g = Graph("big")
    prev = g.add("placeholder", name="x", kind="input")
    for s in range(scopes):
        for k in range(per_scope):
            prev = g.add("sin", [prev], name=f"s{s}/op{k}", scope=f"s{s}")
    g.mark_output(prev)
    return g


def small() -> Graph:
    g = Graph("demo")
    x = g.add("placeholder", name="x", kind="input")
    w = g.add("VariableV2", name="layer/w", kind="variable", value=2.0, scope="layer")
    y = g.add("mul", [x, w], name="layer/mul", scope="layer")
    g.mark_output(y)
    return g


# ---------------------------------------------------------------------------------------------------- envcheck
def test_the_environment_check_speaks_french_in_a_new_interpreter() -> None:
    """COURSE_LANG=fr, as a French start page's kernel could have it: every line of the table is French."""
    code = ("from course_lib.lessons import envcheck\nr = envcheck.report(import_frameworks=False)\n"
            "print(repr(r))\nprint(r._repr_html_())")
    env = dict(os.environ, COURSE_LANG="fr")
    text = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    for french in ("vérifications ont réussi", "composant", "requis", "trouvé", "état", "que faire", "facultatif",
                   "programme dot (Graphviz)", "graphviz (paquet Python)", "mise en page SVG dans le processus",
                   "moteur de secours"):
        assert french in text, french
    for english in ("checks passed", "component", "required", "found", "what to do", "optional", "dot program",
                    "Python package", "in-process", "fallback renderer"):
        assert english not in text, english


def test_a_french_report_names_its_problems_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    real = importlib.metadata.version

    def version(dist: str) -> str:
        if dist == "torch":
            raise importlib.metadata.PackageNotFoundError(dist)
        return "1.26" if dist == "numpy" else real(dist)

    monkeypatch.setattr(importlib.metadata, "version", version)
    set_language("fr")
    report = envcheck.report(import_frameworks=False)
    rows = {row.component: row for row in report.rows}
    assert rows["PyTorch"].status == "PROBLEM" and rows["PyTorch"].found == "non installé"  # the status stays a key
    assert rows["PyTorch"].found.msgid is envcheck.NOT_INSTALLED and rows["NumPy"].todo.msgid is envcheck.WRONG_VERSION
    assert report.summary() == (f"2 problèmes à corriger{NBSP}: PyTorch, NumPy. "
                                f"Voir «{NBSP}que faire{NBSP}» sur leurs lignes.")
    text, page = repr(report), report._repr_html_()
    assert "PROBLÈME" in text and "Mauvaise version de numpy. Fermez JupyterLab" in text
    assert "&#10008; PROBLÈME" in page and "non installé" in page
    for english in ("PROBLEM ", "problems to fix", "not installed", "Wrong numpy", "Close JupyterLab"):
        assert english not in text and english not in page, english


def sanitize(text: str) -> str:
    from nbval.plugin import get_sanitize_patterns

    for regex, replace in get_sanitize_patterns(CFG.read_text()):
        text = re.sub(regex, replace, text)
    return text


def test_the_french_start_page_is_the_same_whatever_dot_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    """nbval compares the French start page too: the dot row's French found text is sanitized like the English."""
    set_language("fr")
    reports = []
    for output, code in [(None, 0), ("dot - graphviz version 2.43.0 (0)", 0), ("version 12.2.1", 0), ("", 0),
                         ("libgvc.so.6: cannot open", 127)]:
        monkeypatch.setattr(envcheck.shutil, "which", lambda name, o=output: None if o is None else "/somewhere/dot")
        monkeypatch.setattr(envcheck, "_dot_version", lambda path, o=output, c=code: envcheck.dot_found(o, c))
        reports.append(envcheck.report(import_frameworks=False))
    texts = {sanitize(repr(r)) for r in reports}
    pages = {sanitize(r._repr_html_()) for r in reports}
    assert len(texts) == 1 and len(pages) == 1
    text = texts.pop()
    dot_line = next(line for line in text.splitlines() if line.startswith("programme dot"))
    assert dot_line.endswith("DOT-PROGRAM-STATUSfacultatif")
    assert "PATH" not in text and "dot 2.43.0 est dans le PATH" == sanitize("dot 2.43.0 est dans le PATH")


# ---------------------------------------------------------------------------------------------------- drawings
def test_a_drawings_note_and_summary_speak_french() -> None:
    set_language("fr")
    svg = render.to_svg(scoped(), max_nodes=20)
    assert f"6 portées dessinées chacune comme une seule boîte{NBSP}: s0, s1, s2, s3 et 2 de plus." in svg
    assert "portée s0" in svg and "40 nœuds" in svg
    capped = render.to_svg(scoped(), max_nodes=50, collapse=False)
    assert "Seules les 50 premières boîtes sur 241 sont dessinées (max_nodes=50)" in capped
    summary = repr(render.draw(small(), rankdir="LR", theme="presenter"))
    assert summary == (f"<graphe du cours 'demo'{NBSP}: 3 nœuds, 3 boîtes, de gauche à droite, au plus 680{NBSP}pt de "
                       f"large, texte de 20{NBSP}pt{NBSP}; exécutez la cellule pour voir le graphe>")
    figure = repr(render.Figure(small()))
    assert figure.startswith(f"<figure 'demo'{NBSP}: 3 nœuds") and "à la largeur de la page" in figure
    everything = svg + capped + summary + figure
    for english in ("drawn as one box", "Showing the first", "more", "nodes", "boxes", "top to bottom",
                    "run the cell", "pt text", "scaled to the page"):
        assert not re.search(rf"\b{english}\b", everything), english  # (max_nodes= is code)
    set_language("en")
    assert "drawn as one box each" in render.to_svg(scoped(), max_nodes=20)
    assert "run the cell to see the graph" in repr(render.draw(small()))


def test_a_drawing_without_a_layout_engine_explains_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(dot: str):
        raise RuntimeError("no layout today")

    monkeypatch.setattr(render, "ENGINES", (("pygraphviz", refuse),))
    render.clear_cache()
    set_language("fr")
    lay = render.Layout(small())
    assert lay.message.startswith("Graphviz n'a pas pu mettre ce graphe en page") and "essayez collapse=" in lay.message
    assert repr(render.draw(small())).endswith("aucun moteur de mise en page, affiché en texte DOT>")
    render.clear_cache()


def test_a_french_error_of_the_renderer_still_says_which_message_it_is() -> None:
    set_language("fr")
    with pytest.raises(ValueError) as info:
        render.set_theme("disco")
    assert str(info.value) == f"thème inconnu 'disco'{NBSP}; les thèmes sont{NBSP}: classroom, presenter"
    assert message_of(info.value).msgid is theme.UNKNOWN_THEME and message_of(info.value).values["theme"] == "disco"
    with pytest.raises(TypeError) as info:
        render.to_svg(small(), collapse=1.5)
    assert message_of(info.value).msgid is plan.BAD_COLLAPSE and "noms de portées" in str(info.value)


# ---------------------------------------------------------------------------------------------------- present()
def test_present_speaks_french_and_keeps_jupyterlabs_menu_labels(capsys: pytest.CaptureFixture[str]) -> None:
    set_language("fr")
    try:
        cl.present()
    finally:
        render.set_theme("classroom")
    out = capsys.readouterr().out
    for french in ("Thème présentateur activé", "Dans JupyterLab", "texte du notebook plus grand", "sans onglets",
                   "plein écran", "Pour revenir à la normale", "cl.set_theme('classroom')"):
        assert french in out, french
    # JupyterLab has no French language pack here: its menu items keep their English labels
    for label in ("View → Appearance → Presentation Mode", "Simple Interface (Ctrl+Shift+D)", "Show Left Sidebar"):
        assert label in out
    for english in ("Presenter theme on", "In JupyterLab", "larger notebook text", "no tabs", "full screen",
                    "Back to normal"):
        assert english not in out, english


# ---------------------------------------------------------------------------------------------------- adapters
def test_the_adapters_errors_and_summaries_speak_french(monkeypatch: pytest.MonkeyPatch) -> None:
    set_language("fr")
    monkeypatch.setitem(sys.modules, "no_such_framework_here", None)
    with pytest.raises(loader.FrameworkMissingError) as info:
        loader.require("no_such_framework_here")
    assert message_of(info.value).msgid is loader.MISSING and message_of(info.value).values["module"] == (
        "no_such_framework_here")
    assert f"Installez-le avec{NBSP}:\n    pip install no_such_framework_here" in str(info.value)
    with pytest.raises(TypeError) as info:
        counters.count(3)
    assert message_of(info.value).msgid is counters.NOTHING_TO_COUNT and str(info.value).startswith("rien à compter")
    with pytest.raises(TypeError) as info:
        cl.to_graph(3)
    assert message_of(info.value).msgid is cl.CANNOT_CONVERT and "impossible de convertir" in str(info.value)

    def traced_again() -> None:
        raise RuntimeError('in user code:\n  File "a.py", line 1, in f\n    h = g(x)\n  File "a.py", line 1, in f\n'
                           "    h = g(x)\nRecursionError: maximum recursion depth exceeded")

    summary = quiet.error_of(traced_again)
    text, page = repr(summary), summary._repr_html_()
    assert f"erreur la plus profonde{NBSP}: RecursionError" in text and "la ligne tracée encore et encore" in text
    assert "la pile d'appels (2 niveaux)" in html.unescape(page) and repr(quiet.Captured()) == "aucun avertissement"
    for english in ("innermost error", "again and again", "whole message", "no warnings"):
        assert english not in text + page + repr(quiet.Captured()), english
