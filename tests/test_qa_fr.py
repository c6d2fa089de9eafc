"""The French Q&A (qa/qa-fr.txt) against the English copy (qa/qa-en.txt), and the glossary (docs/glossaire.md).

The French file is a translation of a CC BY-SA text: it must say so at its top, with the original's address and
licence, and keep the English file's parts (each headed by a line that is only the part's name: ``Question``,
``Réponse 1`` for ``Answer 1``...). Each part must carry over every piece of code, API name, URL and figure of the
English part unchanged, sentence for sentence, and none of the machine translation's faults may come back. The machine
translation it replaced is kept as qa/qa-fr.seed.txt; the last tests show that these checks fail on it.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from course_lib.lessons import claims

ROOT = Path(__file__).resolve().parent.parent
EN_PATH = ROOT / "qa" / "qa-en.txt"
FR_PATH = ROOT / "qa" / "qa-fr.txt"
SEED_PATH = ROOT / "qa" / "qa-fr.seed.txt"
GLOSSARY = ROOT / "docs" / "glossaire.md"

EN_LABELS = ["Question", "Answer 1", "Answer 2", "Answer 3"]
FR_LABELS = ["Question", "Réponse 1", "Réponse 2", "Réponse 3"]
LABEL = re.compile(r"^(Question|Answer \d+|Réponse \d+)$", re.MULTILINE)

#: Code-like pieces that a translation must not touch: code in backticks, URLs, dotted API names and file names
#: (tf.Session, torch.Tensor, session.py), and the figures with their units as the author wrote them.
CODE = re.compile(r"`[^`]+`|https?://\S+|\b(?:tf|torch|np|numpy)\.[\w.]+|\b\w+\.py\b|\b\d+ ?usec\b")

#: What the machine translation wrote (lower case): a computational graph is not a chart ("graphique"), an
#: interpreter is not a person ("interprète"), and a DAG is a "graphe orienté acyclique".
FAULTS = ("graphique informatique", "graphiques informatiques", "graphique acyclique", "graphe acyclique dirigé",
          "interprète", "graphiques de calcul", "graphique de calcul", "petits trous pour de toute façon")

#: Terms of the glossary that the Q&A uses: the glossary's French term, and the French Q&A using it.
QA_TERMS = {"computational graph": "graphe de calcul", "directed acyclic graph (DAG)": "graphe orienté acyclique (DAG)",
            "interpreter": "interpréteur", "node": "nœud", "tensor": "tenseur", "runtime": "environnement d'exécution",
            "framework": "framework", "placeholder": "placeholder", "session": "session"}


def parts(text: str) -> list[tuple[str, str]]:
    """(label, body) for each part of a Q&A file, in file order; a part runs until the next label line."""
    marks = list(LABEL.finditer(text))
    return [(m.group(1), text[m.end():marks[i + 1].start() if i + 1 < len(marks) else len(text)].strip())
            for i, m in enumerate(marks)]


def preamble(text: str) -> str:
    """What comes before the first part (the title, and in the French file the translation header)."""
    first = LABEL.search(text)
    return text[:first.start()] if first else text


def code_tokens(body: str) -> Counter[str]:
    return Counter(t.rstrip(".,;:)") for t in CODE.findall(body))


def sentence_counts(body: str) -> list[int]:
    """Sentences per paragraph ("vs." is an abbreviation, not the end of a sentence; URLs have no ". ")."""
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", body) if p.strip()]
    return [len([s for s in re.split(r"(?<=[.?!])\s+", p.replace("vs. ", "vs ")) if s.strip()]) for p in paragraphs]


def glossary_rows() -> list[tuple[str, str, str]]:
    """(English, French, note) for every row of the glossary's tables headed | Anglais | Français | Remarque |."""
    rows, in_table = [], False
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            in_table = False
        elif cells[:2] == ["Anglais", "Français"]:
            in_table = True
        elif in_table and not set("".join(cells)) <= set("-: "):
            assert len(cells) == 3, f"glossary row without three cells: {line!r}"
            rows.append((cells[0], cells[1], cells[2]))
    return rows


@pytest.fixture(scope="module")
def en() -> str:
    return EN_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def fr() -> str:
    return FR_PATH.read_text(encoding="utf-8")


def test_the_french_file_has_the_four_labelled_parts_in_order(fr: str) -> None:
    assert [label for label, _ in parts(fr)] == FR_LABELS
    assert all(body for _, body in parts(fr))


def test_the_french_parts_match_the_english_ones(en: str, fr: str) -> None:
    assert [label for label, _ in parts(en)] == EN_LABELS  # how qa-en.txt marks its parts (the check reads both)
    assert len(parts(fr)) == len(parts(en))


@pytest.mark.parametrize("i", range(len(EN_LABELS)), ids=FR_LABELS)
def test_code_api_names_urls_and_figures_are_kept_part_by_part(en: str, fr: str, i: int) -> None:
    english, french = parts(en)[i][1], parts(fr)[i][1]
    assert code_tokens(french) == code_tokens(english), f"{FR_LABELS[i]}: code-like pieces differ from {EN_LABELS[i]}"


def test_the_code_check_is_not_vacuous(en: str) -> None:
    found = sum((code_tokens(body) for _, body in parts(en)), Counter())
    assert {"tf.Session", "tf.Placeholder", "tf.contrib.graph_editor", "session.py", "200usec", "1 usec",
            *claims.REFERENCES} <= set(found)
    assert code_tokens("see `x` at https://a.example/b. and tf.Graph().") == Counter(
        ["`x`", "https://a.example/b", "tf.Graph"])


@pytest.mark.parametrize("i", range(len(EN_LABELS)), ids=FR_LABELS)
def test_sentence_for_sentence(en: str, fr: str, i: int) -> None:
    """Same paragraphs, and as many sentences in each as in English: nothing dropped, nothing added."""
    assert sentence_counts(parts(fr)[i][1]) == sentence_counts(parts(en)[i][1])


def test_answer_3_gives_both_references(fr: str) -> None:
    answer3 = dict(parts(fr))["Réponse 3"]
    assert "Références\u00a0:" in answer3
    for ref in claims.REFERENCES:
        assert answer3.count(ref) == 1, f"missing reference {ref}"


def test_the_header_says_it_is_a_translation_with_the_attribution(en: str, fr: str) -> None:
    head = preamble(fr)
    assert fr.startswith("Traduction française")
    title = en.splitlines()[0].strip()
    for piece in (title, claims.QUESTION_URL, "CC BY-SA 3.0", "https://creativecommons.org/licenses/by-sa/3.0/",
                  "https://stackoverflow.com/help/licensing", "2017", "auteurs"):
        assert piece in head, f"the header lacks {piece!r}"
    # the French title, translated, is the last line before the question
    assert head.strip().splitlines()[-1].startswith("Quelle est la différence entre les graphes de calcul statiques")


def test_no_machine_translation_fault_remains(fr: str) -> None:
    text = fr.lower()
    assert [f for f in FAULTS if f in text] == []
    assert "graphique" not in text  # the Q&A has no chart: a "graphique" here is always a graph mistranslated
    assert "communiquer. Quoi qu'il en soit" in fr


def test_french_typography(fr: str) -> None:
    """Non-breaking space before : ; ? ! and inside « »; no English quotation marks or '--' in the French text."""
    assert re.findall(r"[ \t][:;?!»]|«[ \t]", fr) == []
    assert fr.count("«") == fr.count("»") >= 3
    assert re.findall(r"«(?!\u00a0)|(?<!\u00a0)»", fr) == []
    assert '"' not in fr and "“" not in fr and "‘" not in fr and "--" not in fr


def test_every_glossary_term_has_a_french_side() -> None:
    rows = glossary_rows()
    assert 40 <= len(rows) <= 80
    assert all(english and french for english, french, _ in rows), [r for r in rows if not (r[0] and r[1])]
    assert len({english for english, _, _ in rows}) == len(rows), "a term is listed twice"


def test_the_glossary_follows_its_own_typography() -> None:
    """Its prose (code spans aside) has the non-breaking spaces it asks for."""
    prose = re.sub(r"`[^`]*`", "", GLOSSARY.read_text(encoding="utf-8"))
    assert re.findall(r".{0,20}(?:[ \t][:;?!»]|«[ \t]).{0,5}", prose) == []


def test_the_french_qa_uses_the_glossary_terms(fr: str) -> None:
    glossary = {english: french for english, french, _ in glossary_rows()}
    for english, french in QA_TERMS.items():
        assert glossary.get(english, "").startswith(french), f"glossary: {english} -> {glossary.get(english)!r}"
        assert french.lower() in fr.lower(), f"the French Q&A does not use {french!r}"


# --- the checks fail on the machine translation they replace ------------------------------------------------------

def test_the_seed_fails_these_checks(en: str) -> None:
    seed = SEED_PATH.read_text(encoding="utf-8")
    assert [label for label, _ in parts(seed)] != FR_LABELS  # unlabelled
    assert [f for f in FAULTS if f in seed.lower()]  # "graphiques informatiques", "interprètes"...
    assert claims.REFERENCES[1] not in seed  # one of Answer 3's references is missing
    assert re.findall(r"[ \t][:;?!»]|«[ \t]", seed) or re.findall(r"\w[:;?!]", seed)  # English punctuation
    assert not seed.startswith("Traduction française")
