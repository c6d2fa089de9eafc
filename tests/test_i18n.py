"""The course's languages (course_lib/i18n/, docs/ARCHITECTURE.md "Languages").

* every message marked in course_lib (``_``, ``gettext``, ``N_``, ``Lazy``, ``Plural``, extracted by Babel with the
  keywords of pyproject.toml) has a French text in the catalogue: the missing-translation test, shown to fail on a
  package with one untranslated message; a marked message Babel cannot see (an f-string) is named too;
* the .mo (built by ``./course setup``, never committed) is the compiled .po; each French text uses exactly its
  message's ``{placeholders}``;
* after ``set_language("fr")`` the core widgets speak French, and English comes back with ``set_language("en")``;
* numbers in running text; ``COURSE_LANG``; an unknown language is English with one warning.
"""

from __future__ import annotations

import gettext
import importlib.util
import io
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo

from course_lib import i18n, programs, trace
from course_lib.i18n import Plural, _, get_language, message_of, number, say, set_language

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "course_lib" / "i18n" / "locale" / "fr" / "LC_MESSAGES" / "course_lib.po"
MO = PO.with_suffix(".mo")
NBSP, THIN = "\u00a0", "\u202f"


def _load_tool():
    spec = importlib.util.spec_from_file_location("catalogue_tool", ROOT / "tools" / "catalogue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = _load_tool()


def catalogue():
    """The French catalogue as Babel reads it (obsolete ``#~`` entries are apart, in ``.obsolete``)."""
    return tool.read(PO)


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    pkg = tmp_path / "course_lib"
    pkg.mkdir()
    for name, text in files.items():
        (pkg / name).write_text(text, encoding="utf-8")
    return pkg


# ---------------------------------------------------------------------- (a) the missing-translation test
def test_every_message_of_course_lib_has_a_french_translation() -> None:
    template = tool.extract()
    assert sum(1 for m in template if m.id) > 100  # the widgets, the legend and the trace events are marked
    assert sum(1 for m in template if isinstance(m.id, tuple)) > 30  # and the messages with a count (Plural)
    assert tool.missing(PO, template) == []


def test_babel_sees_every_marked_message() -> None:
    assert tool.unseen() == []


def test_every_entry_of_the_catalogue_is_a_message_of_course_lib() -> None:
    """No stale French: an entry whose English message is no longer in the code is taken out of the .po."""
    used = {m.id for m in tool.extract() if m.id}
    assert [m.id for m in catalogue() if m.id and m.id not in used] == []


def test_the_missing_translation_check_fails_on_a_new_message(tmp_path: Path) -> None:
    """A copy of the widgets' base with one more message: the check names it (so the test above can fail)."""
    base = (ROOT / "course_lib" / "widgets" / "base.py").read_text(encoding="utf-8")
    pkg = _package(tmp_path, {"base.py": base})
    assert tool.missing(PO, tool.extract(pkg)) == []
    (pkg / "base.py").write_text(base + '\nWORDS = _("a sentence nobody translated")\n'
                                 'COUNT = Plural("{n} thing nobody translated", "{n} things nobody translated")\n',
                                 encoding="utf-8")
    line = base.count("\n") + 2
    assert tool.missing(PO, tool.extract(pkg)) == [
        f'#: course_lib/base.py:{line}\nmsgid "a sentence nobody translated"\nmsgstr ""\n',
        (f'#: course_lib/base.py:{line + 1}\nmsgid "{{n}} thing nobody translated"\n'
        'msgid_plural "{n} things nobody translated"\nmsgstr[0] ""\nmsgstr[1] ""\n')]


def test_a_message_babel_cannot_see_is_named(tmp_path: Path) -> None:
    pkg = _package(tmp_path, {"m.py": 'k = 1\nWORDS = _(f"step {k}")\nHIDDEN = f"<b>{_(\'hidden\')}</b>"\n'
                                      'NESTED = _(TABLE.get(k, N_("nested")))\n'})
    found = tool.unseen(pkg)
    assert len(found) == 3, found
    assert any(f.startswith("course_lib/m.py:2: _() needs a plain string") for f in found)
    assert any(f.startswith("course_lib/m.py:3: 'hidden' is marked but Babel") for f in found)
    assert any(f.startswith("course_lib/m.py:4: 'nested' is marked but Babel") for f in found)


def test_a_fuzzy_or_empty_french_text_counts_as_missing(tmp_path: Path) -> None:
    po = tmp_path / "fr.po"
    po.write_text('msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
                  '#, fuzzy\nmsgid "Next ▶"\nmsgstr "Suivant ▶"\n\nmsgid "Play"\nmsgstr ""\n\n'
                  'msgid "Pause"\nmsgstr "Pause"\n', encoding="utf-8")
    pkg = _package(tmp_path, {"m.py": 'A, B, C = _("Next ▶"), _("Play"), _("Pause")\n'})
    assert [entry.split("\n")[1] for entry in tool.missing(po, tool.extract(pkg))] == [
        'msgid "Next ▶"', 'msgid "Play"']


# ---------------------------------------------------------------------- (b) the .mo is the compiled .po
def _parsed(mo: bytes) -> dict:
    """The entries of a .mo, its header reduced to the plural rule (Babel stamps the header with the time)."""
    entries = dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)
    header = entries.pop("")
    return {**entries, "": [line for line in header.splitlines() if line.startswith("Plural-Forms:")]}


def test_the_mo_is_the_compiled_po() -> None:
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(), use_fuzzy=False)
    assert MO.exists(), "no compiled catalogue: run ./course setup (or .venv/bin/python tools/catalogue.py compile)"
    assert _parsed(MO.read_bytes()) == _parsed(buffer.getvalue()), (
        "the .mo is older than the .po: run .venv/bin/python tools/catalogue.py compile")


def test_the_mo_is_built_not_committed() -> None:
    """The .mo is made by ./course setup from the committed .po; git ignores it (no binary to keep in step)."""
    tracked = subprocess.run(["git", "ls-files", "course_lib/i18n/locale"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert tracked and all(path.endswith(".po") for path in tracked), tracked
    ignored = subprocess.run(["git", "check-ignore", "-q", str(MO.relative_to(ROOT))], cwd=ROOT, check=False)
    assert ignored.returncode == 0


def test_compile_writes_the_french_plural_rule_and_skips_an_up_to_date_mo(tmp_path: Path) -> None:
    po = tmp_path / "course_lib.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                  '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
                  'msgid "Step"\nmsgstr "Pas"\n\n'
                  'msgid "{n} node"\nmsgid_plural "{n} nodes"\nmsgstr[0] "{n} nœud"\nmsgstr[1] "{n} nœuds"\n',
                  encoding="utf-8")
    mo, count = tool.compile_catalogue(po)
    t = gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
    assert count == 2 and t.gettext("Step") == "Pas"
    assert [t.ngettext("{n} node", "{n} nodes", n) for n in (0, 1, 2)] == ["{n} nœud", "{n} nœud", "{n} nœuds"]
    assert tool.compile_catalogue(po) is None  # up to date: nothing to do (./course setup runs it every time)
    os.utime(po, (mo.stat().st_mtime + 5, mo.stat().st_mtime + 5))
    assert tool.compile_catalogue(po) is not None


def test_a_broken_po_stops_the_compile(tmp_path: Path) -> None:
    """./course setup stops with the line to fix, instead of a catalogue silently missing entries."""
    po = tmp_path / "course_lib.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "Step"\nmsgstr "Pas"\nnot a po line\n', encoding="utf-8")
    with pytest.raises(Exception, match="misformatted"):
        tool.compile_catalogue(po)


# ---------------------------------------------------------------------- (c) placeholders
def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_each_french_text_uses_exactly_its_placeholders() -> None:
    wrong = []
    for m in catalogue():
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, tuple) else [m.id]
        for k, text in enumerate(_strings(m)):
            if _fields(text) != _fields(ids[min(k, len(ids) - 1)]):
                wrong.append((m.id, text))
    assert wrong == []


def _strings(message) -> list[str]:
    """A message's French text, or its texts (one per plural form)."""
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


def test_the_placeholder_check_sees_a_renamed_placeholder() -> None:
    assert _fields("étape {k} sur {n}") != _fields("step {k} of {count}")
    assert _fields("values={{'x': 2.0}} {values}") == {"values"}  # doubled braces are text


def test_french_typography_in_the_catalogue() -> None:
    """A no-break space before : ; ! ? in French running text (not inside code such as ``def f(ops, x):``), and
    no English quotation marks."""
    assert _typography_fault("Indice: x") and _typography_fault("la case ; vide") and _typography_fault('"x"')
    assert not _typography_fault("Indice\u00a0: x") and not _typography_fault("comme def f(ops, x): return")
    assert [text for m in catalogue() if m.id for text in _strings(m) if _typography_fault(text)] == []


def _typography_fault(text: str) -> bool:
    prose = re.sub(r"def f\(ops, x\):|values=\{\{'x': 2\.0\}\}|https?://\S+", "", text)
    return bool(re.search(r"(?<![\u00a0\u202f]) *[:;!?](\s|$)", prose) or re.search(r"[\"“”]", prose))


# ---------------------------------------------------------------------- (d) the widgets in French
ENGLISH = ("step", "Step", "Next", "Previous", "Play", "nothing has happened yet", "BUILD", "RUN", "BACKWARD",
           "START", "the same program", "Define-", "define ", "no value yet", "feed ", "running now", "ms per")


def _visible(html: str) -> str:
    import html as h

    return h.unescape(re.sub(r"<[^>]+>", " ", html))


def _stepper_words(s) -> str:
    c = s.controls
    frames = " ".join(_visible(s.pane.parts(k)[0]) for k in range(len(s.trace) + 1))
    return " ".join([c.prev.description, c.next.description, c.play.description, c.play.tooltip,
                     c.slider.description, c.speed.description, c.prev.tooltip, c.next.tooltip,
                     _visible(s.pane.title.value), _visible(s.legend.value), frames])


def _without_code(words: str, tr) -> str:
    """The words with the program's listing and the events' code-like parts (``mul = mul(x, w)``) taken out."""
    for line in tr.source:
        words = words.replace(line.strip(), " ")
    return words


@pytest.mark.parametrize("style", trace.STYLES)
def test_a_stepper_speaks_french_then_english_again(style: str) -> None:
    from course_lib import widgets

    pytest.importorskip("ipywidgets")
    tr = trace.record(programs.affine_sin, style, {"x": 3.0, "w": 2.0})  # recorded in English
    set_language("fr")
    s = widgets.Stepper(tr)
    words = _stepper_words(s)
    for french in ("◀ Précédent", "Suivant ▶", "Lecture", "Étape", f"étape 0 sur {len(tr)}",
                   "rien ne s'est encore passé", "EXÉCUTION", "PASSE ARRIÈRE", "Définir", "arêtes en pointillés"):
        assert french in words
    assert ("CONSTRUCTION" in words) == (style == "define-then-run")
    left = _without_code(words, tr)
    assert [w for w in ENGLISH if w in left] == []
    set_language("en")
    english = _stepper_words(widgets.Stepper(tr))
    assert "Next ▶" in english and f"step 0 of {len(tr)}" in english and "nothing has happened yet" in english
    assert "Suivant" not in english


def test_a_side_by_side_speaks_french() -> None:
    from course_lib import widgets

    pytest.importorskip("ipywidgets")
    set_language("fr")
    w = widgets.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    head = _visible(w.children[0].value)
    assert "le même programme" in head and "affine_sin" in head
    titles = " ".join(_visible(p.title.value) for p in w.panes.values())
    assert "Définir puis exécuter" in titles and "Définir en exécutant" in titles
    steps = " ".join(_visible(p.parts(k)[0]) for p in w.panes.values() for k in range(len(p.trace) + 1))
    assert "passe arrière\u00a0: dsin/dw = 2,262" in steps  # a define-by-run backward event, French decimal comma
    assert "définir le placeholder x (pas encore de valeur)" in steps
    c = w.controls
    words = " ".join([c.prev.description, c.next.description, c.play.description, head, titles,
                      _without_code(steps, w.traces["define-by-run"])])
    assert [x for x in ENGLISH if x in words] == []
    w.go(99)
    assert "Remarque\u00a0:" in _visible(w.message.value) and "Les étapes vont de 0 à" in _visible(w.message.value)
    set_language("en")
    again = widgets.SideBySide(programs.affine_sin, {"x": 3.0, "w": 2.0})
    assert "the same program, stepped both ways" in _visible(again.children[0].value)


def test_a_control_flow_explorer_keeps_its_titles_french_when_an_input_moves() -> None:
    """The define-then-run pane's title is set again at each update (graph built or not): in French too."""
    from course_lib import widgets

    pytest.importorskip("ipywidgets")
    set_language("fr")
    for program in (programs.branch_with_cond, programs.repeat_until_large):
        c = widgets.ControlFlowExplorer(program, value=1.0)
        c.set_input(x=0.5)
        title = _visible(c.left_title.value).strip()
        assert title.startswith("Définir puis exécuter\u00a0:") and "Define" not in title, title


def test_messages_follow_the_language_when_they_are_made() -> None:
    from course_lib.render.svg import INSTALL_HINT, legend_svg
    from course_lib.widgets.base import message_html
    from course_lib.widgets.inputs import read_number

    english = read_number("abc", "spread", 3, whole=True, low=0, high=5)[1]
    set_language("fr")
    french = read_number("abc", "spread", 3, whole=True, low=0, high=5)[1]
    assert french.startswith("spread='abc' n'est pas un nombre\u00a0: passez un nombre entier de 0 à 5")
    assert english != french and "is not a number" in english
    assert "<b>Problème\u00a0:</b>" in message_html("x")
    assert str(INSTALL_HINT).startswith("Aucun moteur") and ("" + INSTALL_HINT).startswith("Aucun moteur")
    assert f"{INSTALL_HINT}".startswith("Aucun moteur") and "pip install pygraphviz" in INSTALL_HINT
    assert "en cours d'exécution" in _visible(legend_svg()) and "running now" not in legend_svg()
    set_language("en")
    assert str(INSTALL_HINT).startswith("No Graphviz") and "running now" in legend_svg()


def test_the_events_of_a_trace_are_shown_in_the_language_of_the_moment() -> None:
    t = trace.record(programs.affine_sin, "define-then-run", {"x": 3.0, "w": 2.0})
    first = t.events[0]
    assert first.text == first.said() == "define placeholder x (no value yet)"
    set_language("fr")
    assert first.said() == "définir le placeholder x (pas encore de valeur)"
    assert first.text == "define placeholder x (no value yet)"  # the recorded English is kept
    hand_made = trace.Event("run", "run", 0, "input x", None, None)
    assert hand_made.said() == "input x"


# ---------------------------------------------------------------------- (e) numbers
@pytest.mark.parametrize(("x", "en", "fr"), [
    (0.5, "0.5", "0,5"), (1400, "1400", f"1{THIN}400"), (1400.0, "1400", f"1{THIN}400"),
    (-12500.25, "-12500.2", f"-12{THIN}500,2"), (999, "999", "999"), (3, "3", "3"),
    (1234567, "1234567", f"1{THIN}234{THIN}567"), (1.5e-7, "1.5e-07", "1,5e-07"), (2.0, "2", "2"),
])
def test_numbers_in_running_text(x, en, fr) -> None:
    assert number(x) == en == format(x, "g") if isinstance(x, float) else number(x) == en
    set_language("fr")
    assert number(x) == fr


def test_number_digits_and_numpy() -> None:
    import numpy as np

    assert number(2 / 3, digits=3) == "0.667" and number(np.float64(0.25)) == "0.25" and number(np.int64(7)) == "7"
    set_language("fr")
    assert number(2 / 3, digits=3) == "0,667" and number(np.int64(20000)) == f"20{THIN}000"


# ---------------------------------------------------------------------- (f) choosing the language
def _in_new_python(code: str, lang: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_LANG", "PYTHONWARNINGS")}  # warnings shown
    if lang is not None:
        env["COURSE_LANG"] = lang
    return subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.mark.parametrize(("lang", "said"), [(None, "Next ▶|en"), ("fr", "Suivant ▶|fr"),
                                            ("fr_FR.UTF-8", "Suivant ▶|fr"), ("en", "Next ▶|en")])
def test_course_lang_chooses_the_language(lang, said) -> None:
    out = _in_new_python("from course_lib.i18n import _, get_language; print(_('Next ▶') + '|' + get_language())", lang)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == said


def test_an_unknown_language_is_english_with_one_warning() -> None:
    """``de`` is no course language: English, and a LanguageWarning that names it, once (tests/
    test_graph_languages_ledger.py tries the other values); a language that is not text is a programmer's mistake."""
    with pytest.warns(i18n.LanguageWarning, match=r"no language 'de'.*'en', 'fr'"):
        set_language("de")
    assert get_language() == "en"
    with pytest.raises(TypeError) as info:
        set_language(None)  # type: ignore[arg-type]
    assert message_of(info.value).msgid is i18n.LANGUAGE_NOT_TEXT
    out = _in_new_python("from course_lib.i18n import _\nprint(_('Next ▶'))\nprint(_('Previous'))", "klingon")
    assert out.returncode == 0 and out.stdout.split("\n")[:2] == ["Next ▶", "Previous"], out.stderr
    assert out.stderr.count("LanguageWarning") == 1 and "COURSE_LANG" in out.stderr and "'klingon'" in out.stderr


def test_set_language_overrides_course_lang() -> None:
    code = "from course_lib.i18n import _, set_language\nset_language('en')\nprint(_('Next ▶'))"
    assert _in_new_python(code, "fr").stdout.strip() == "Next ▶"


def test_english_needs_no_catalogue_and_plurals_count() -> None:
    assert _("a message no catalogue has") == "a message no catalogue has"
    nodes = Plural("{n} node", "{n} nodes")
    assert [say(nodes, n=n) for n in (0, 1, 2)] == ["0 nodes", "1 node", "2 nodes"]
    set_language("fr")
    assert [say(nodes, n=n) for n in (0, 1, 2)] == ["0 nœud", "1 nœud", "2 nœuds"]
    assert i18n.catalogue("fr") is i18n.catalogue("fr")  # loaded once
