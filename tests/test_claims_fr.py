"""The claim ledger in French (course_lib/lessons/claims_fr.py), as notebook 08 shows it after set_language("fr").

- Every claim has French words; each quote is verbatim from ``qa/qa-fr.txt`` (no-break spaces included), and every
  sentence of the French answers is in some quote, as in English.
- The French statuses and verdicts are in step with the French notebooks' Verdict cells (``claims.check`` and
  ``claims.verdict_problems`` with ``lang="fr"``), and with the English ledger (same figures, same API names).
- The ledger speaks French: quotes in « », French headers, counts and parts, French verdicts; an unknown key says
  so in French and stays identifiable (``message_of``).
Each check can fail: the checkers are run on planted faults too.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import nbformat
import pytest

from course_lib.i18n import message_of, set_language
from course_lib.lessons import claims, claims_fr

ROOT = Path(__file__).resolve().parent.parent
QA_FR = (ROOT / "qa" / "qa-fr.txt").read_text(encoding="utf-8")
FR = ROOT / "notebooks" / "fr"
FRENCH = sorted(FR.glob("*.ipynb"))

#: French Verdict rows (outside a claim's own notebook) whose French status is worded differently from the claim's
#: own notebook, which the French ledger copies. Strict: once the notebook is reworded, its test fails until the
#: entry is taken off, so this can only shrink.
FRENCH_STATUS_ELSEWHERE: dict[str, set[str]] = {}


def pieces(quote: str) -> list[str]:
    """A French quote's verbatim pieces: split at … and at [our words]."""
    return [p.strip() for p in re.sub(r"\[[^\]]*\]", "…", quote).split("…") if p.strip()]


def test_every_claim_has_french_words() -> None:
    assert list(claims_fr.CLAIMS) == [c.key for c in claims.CLAIMS]  # same keys, same order
    for key, words in claims_fr.CLAIMS.items():
        assert words.quote and words.plain, key
        assert (words.status is None) == (words.verdict is None), f"{key}: a status goes with a verdict"


def test_french_quotes_are_verbatim_from_the_french_qa() -> None:
    """Each piece is in qa/qa-fr.txt exactly as written there (no-break spaces, « », apostrophes); pieces are joined
    by … (never '...'), and no English quotation mark is used."""
    for key, words in claims_fr.CLAIMS.items():
        assert "..." not in words.quote and not re.search(r"[“”\"]", words.quote), key
        for piece in pieces(words.quote):
            assert piece in QA_FR, f"{key}: {piece!r} is not in qa/qa-fr.txt"


def test_the_quote_check_sees_a_quote_that_is_not_verbatim() -> None:
    assert pieces("Dans tensorflow, […] puis vous l'exécutez.") == ["Dans tensorflow,", "puis vous l'exécutez."]
    assert "Une fois défini, votre graphe est immuable : vous" not in QA_FR  # a plain space before ':' differs
    assert "Une fois défini, votre graphe est immuable\u00a0: vous" in QA_FR


def test_every_sentence_of_the_french_answers_is_a_claim_of_the_ledger() -> None:
    """As in English: each sentence of the three French answers holds a piece of some French quote, so each English
    claim has found its French passage."""
    answers = QA_FR[QA_FR.index("Réponse 1"):QA_FR.index("Références")]
    sentences = [s.strip() for s in re.split(r"(?<=[.?!])\s+", " ".join(answers.split()))]
    found = [" ".join(p.split()) for w in claims_fr.CLAIMS.values() for p in pieces(w.quote) if len(p) >= 15]
    missing = [s for s in sentences if s and not s.startswith("Réponse ") and s != "Pas très pratique, hein."
               and not any(p.rstrip(".") in s or s.rstrip(".") in p for p in found)]
    assert missing == [], f"sentences of the French Q&A with no row in the French ledger: {missing}"


@pytest.mark.parametrize("name", claims.notebooks())
def test_each_french_notebook_and_its_french_verdicts_are_in_step(name: str) -> None:
    path = FR / name
    mine = [claims_fr.CLAIMS[c.key] for c in claims.CLAIMS if c.notebook == name]
    if path.exists():
        assert claims.verdict_cells(path), f"fr/{name}: no markdown cell headed 'Verdict'"
        assert all(w.verdict and w.status for w in mine), f"fr/{name} exists: copy its verdicts into claims_fr.py"
    else:
        assert not any(w.verdict or w.status for w in mine), f"fr/{name} is not written: no French verdict yet"


def test_check_reports_nothing_for_the_french_notebooks() -> None:
    assert claims.check(FR, lang="fr") == []


def test_check_sees_a_missing_french_verdict(monkeypatch) -> None:
    key = "A3.12"
    monkeypatch.setitem(claims_fr.CLAIMS, key, claims_fr.CLAIMS[key]._replace(status=None, verdict=None))
    problems = claims.check(FR, lang="fr")
    assert problems == [(f"07_recursive_networks.ipynb exists: copy its verdicts for {key} into "
                         "course_lib/lessons/claims_fr.py")]
    assert claims.check(ROOT / "notebooks") == []  # the English ledger does not read claims_fr


@pytest.mark.parametrize("french", FRENCH, ids=lambda p: p.name)
def test_french_statuses_are_the_french_verdict_cells(french: Path) -> None:
    """Each French Verdict row opens with the French ledger's status in bold, in French alone (no English status)."""
    problems = claims.verdict_problems(french, lang="fr")
    keys = {re.search(r": (\S+)'s verdict", p).group(1) for p in problems}
    assert keys == FRENCH_STATUS_ELSEWHERE.get(french.name, set()), problems
    for key in keys:  # a claim's own notebook always agrees: the ledger copies it
        assert claims.by_key(key).notebook != french.name


def test_verdict_problems_sees_a_wrong_or_missing_french_status(tmp_path: Path) -> None:
    name = claims.by_key("A3.13").notebook
    rows = ["| Affirmation | Montré dans | Verdict aujourd'hui |", "| --- | --- | --- |",
            "| A3.11 « x » (Réponse 3) | §2 | **Toujours vrai.** Texte. |",
            "| A3.12 « x » (Réponse 3) | §4 | **History.** Le statut anglais, pas le français. |",
            f"| A3.13 « x » (Réponse 3) | §4 | **{claims_fr.CLAIMS['A3.13'].status}** Texte. |"]
    cell = nbformat.v4.new_markdown_cell("## Verdict\n\n" + "\n".join(rows))
    path = tmp_path / name
    path.write_text(json.dumps(nbformat.v4.new_notebook(cells=[cell])))
    problems = claims.verdict_problems(path, lang="fr")
    assert [p.split("'s")[0] for p in problems] == [f"{name}: A3.11", f"{name}: A3.12"]
    assert "**History.**" in problems[1] and "claims_fr.py" in problems[1]


def _figures(text: str) -> list[str]:
    text = re.sub(r"(?<=\d)[,\u202f](?=\d{3}\b)", "", text)  # 1,400 and 1 400 are the same figure
    return sorted(re.findall(r"(?<![\w.])\d+(?:\.\d+)?", text))


def _api_names(text: str) -> set[str]:
    """Dotted or underscored names and calls (tf.compat.v1, dynamic_shapes, finalize(), Session.run)."""
    return set(re.findall(r"[A-Za-z_]\w*(?:\.\w+)+(?:\(\w*\))?|[A-Za-z]\w*_\w+|[A-Za-z]\w*\(\w*\)", text))


@pytest.mark.parametrize("claim", claims.CLAIMS, ids=lambda c: c.key)
def test_the_french_verdict_says_what_the_english_one_says(claim: claims.Claim) -> None:
    """The French verdict is kept with the English one: the same figures and the same API names (a French
    ``tf.function`` stands for the English ``tf.functions``)."""
    words = claims_fr.CLAIMS[claim.key]
    if not (claim.verdict and words.verdict):
        pytest.skip("no verdict yet in one of the languages")
    assert _figures(words.verdict) == _figures(claim.verdict)
    missing = {n for n in _api_names(claim.verdict) if n not in words.verdict and n.removesuffix("s") not in
               words.verdict}
    assert missing == set()


def test_the_in_step_check_sees_a_changed_figure_or_a_lost_name() -> None:
    assert _figures("57 ops instead of 1,400") == _figures("57 opérations au lieu de 1\u202f400") == ["1400", "57"]
    assert _figures("TensorFlow 2.0, 3 nodes") != _figures("TensorFlow 2.0, 4 nœuds")
    assert _api_names("a tf.function and torch.compile's guards, finalize(), dynamic_shapes") == {
        "tf.function", "torch.compile", "finalize()", "dynamic_shapes"}


def _typography_fault(text: str) -> bool:
    """As tests/test_i18n.py: a no-break space before : ; ! ? and inside « », no English quotation marks; a
    Python error's own text (``RuntimeError: Graph is finalized``) is code and keeps its colon."""
    prose = re.sub(r"\b\w+Error: ", "", text)
    return bool(re.search(r"(?<![\u00a0\u202f]) *[:;!?](\s|$)", prose) or re.search(r"[\"“”]", prose)
                or re.search(r"«(?!\u00a0)|(?<!\u00a0)»", prose) or re.search(r"\d \d{3}\b", prose))


def test_french_typography_of_the_ledger() -> None:
    assert _typography_fault("vrai ; faux") and _typography_fault("« x\u00a0»") and _typography_fault("1 400")
    assert not _typography_fault("(RuntimeError: Graph is finalized)") and not _typography_fault("«\u00a0x\u00a0»")
    faults = [(key, text[:60]) for key, w in claims_fr.CLAIMS.items() for text in w if text and _typography_fault(text)]
    assert faults == []


def test_the_ledger_speaks_french_then_english_again() -> None:
    set_language("fr")
    page = html.unescape(claims.ledger()._repr_html_())
    a313 = claims_fr.CLAIMS["A3.13"]
    for french in ("<b>Réponse 1</b>\u00a0: 8 affirmations (A1.1–A1.8)", "<b>Question</b>\u00a0: 1 affirmation (Q)",
                   ">affirmation</th>", ">verdict aujourd'hui</th>", f"«\u00a0{a313.quote}\u00a0»",
                   f"Réponse 3 — {a313.plain}", f"<b>{a313.status}</b><br>{a313.verdict}", "Citations\u00a0:",
                   "<a href='07_recursive_networks.ipynb'>07</a>"):
        assert french in page
    for english in ("Answer 1", ">claim</th>", "tested in", "verdict today", "Open a part", "claims (",
                    "PyTorch has it by-default", claims.by_key("A3.13").verdict, "still true"):
        assert english not in page
    assert repr(claims.ledger()).startswith(
        f"Registre des affirmations\u00a0: {len(claims.CLAIMS)} affirmations de la Q&R")
    set_language("en")
    page = claims.ledger()._repr_html_()
    assert "<b>Answer 1</b>: 8 claims (A1.1–A1.8)" in page and "Réponse" not in page
    assert f"“{html.escape(claims.by_key('A3.13').quote)}”" in page


def test_a_claim_not_yet_judged_in_french() -> None:
    """A claim whose French notebook has no verdict yet says so in French."""
    set_language("fr")
    unjudged = claims.Claim("Z1", "Answer 3", "quote", "plain", "99_not_yet.ipynb")
    page = html.unescape(claims.Ledger((unjudged,))._repr_html_())
    assert "<i>pas encore écrit</i>" in page and "<i>à mettre à l'épreuve dans le notebook 99</i>" in page
    assert "«\u00a0quote\u00a0»" in page  # no French words for it: its English words, in French quotation marks
    assert repr(claims.Ledger((unjudged,))) == ("Registre des affirmations\u00a0: 1 affirmation de la Q&R, 0 avec un "
                                                "verdict aujourd'hui, 1 encore à mettre à l'épreuve")


def test_an_unknown_claim_is_said_in_french() -> None:
    set_language("fr")
    with pytest.raises(KeyError) as info:
        claims.by_key("A9.9")
    said = message_of(info.value)
    assert said.msgid is claims.NO_CLAIM and said.values["key"] == "A9.9" and "A3.13" in said.values["keys"]
    assert str(said).startswith("aucune affirmation 'A9.9'\u00a0; les clés sont Q, A1.1")


def test_by_key_stays_english_in_french() -> None:
    """The claims are data (notebook 07 asserts on an English verdict in both editions); in_language translates."""
    set_language("fr")
    assert "57 ops instead of 1,400" in claims.by_key("A3.12").verdict
    assert "57 opérations au lieu de 1\u202f400" in claims.in_language(claims.by_key("A3.12")).verdict
    assert claims.in_language(claims.by_key("A3.12"), "en") == claims.by_key("A3.12")


@pytest.mark.parametrize("french", FRENCH, ids=lambda p: p.name)
def test_every_french_notebook_opens_with_the_french_attribution(french: Path) -> None:
    cells = nbformat.read(french, as_version=4).cells
    assert cells[0].cell_type == "markdown" and cells[0].source.startswith("# ")
    assert cells[1].source == claims_fr.ATTRIBUTION, "copy claims_fr.ATTRIBUTION into the cell after the title"


def test_french_attribution_names_the_question_the_licence_and_the_translation() -> None:
    assert claims.QUESTION_URL in claims_fr.ATTRIBUTION and "CC BY-SA 3.0" in claims_fr.ATTRIBUTION
    assert "qa/qa-fr.txt" in claims_fr.ATTRIBUTION and "qa/qa-en.txt" in claims_fr.ATTRIBUTION
    title = (ROOT / "qa" / "qa-en.txt").read_text(encoding="utf-8").splitlines()[0].strip()
    assert f"«\u00a0{title}\u00a0»" in claims_fr.ATTRIBUTION  # the question's title, verbatim, in French marks
