"""What the course's prose may say: the rules that keep every number and every quotation honest.

The notebooks' markdown is written once, but their measurements change on every run. So three rules hold for
every markdown cell, and ``tests/test_prose.py`` applies them to the committed notebooks:

1. **No measured figure typed into prose** (:func:`typed_figures`). A number with a unit of time (``30 ms``) or a
   speed-up (``3.9×``, ``two to three times faster``) must be printed by the cell that measured it. Allowed: the
   Q&A's own words (block quotes and quoted fragments), sentences about the 2017 figures (they name ``2017``),
   running-time notes (a sentence that says ``Running time``) and exercise data (a cell that starts with an
   exercise number, ``**05.3**``).
2. **Quotation marks only around verbatim text** (:func:`quoted_fragments`): every fragment in quotation marks is
   in the Q&A, word for word (``...`` joins pieces; ``[words in brackets]`` are ours). A label, a message or a
   paraphrase goes in ``code`` or in plain words instead.
3. **A verdict is the ledger's** (:func:`verdict_rows`): a Verdict table row names its claim's key (``A1.7``)
   and starts its verdict with the ledger's status in bold.

>>> typed_figures("It took 30 ms. In 2017 it was perhaps 200 µs. `sleep(1 s)`")
['30 ms']
>>> typed_figures("The batched run was two to three times faster, 3.9× in fact.")
['two to three times faster', '3.9×']
>>> [f for f, _ in quoted_fragments('He said “as low as 1 usec” and the button "run".')]
['as low as 1 usec', 'run']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["EXEMPT_SENTENCE", "normal", "qa_pieces", "quoted_fragments", "typed_figures", "unquoted", "verdict_rows"]

_NUMBER = r"(?<![\w.])\d[\d,]*(?:\.\d+)?"
_WORD_NUMBER = r"(?:two|three|four|five|six|seven|eight|nine|ten|a hundred|hundred|thousand|\d[\d,.]*)"
_UNIT = r"(?:µs|μs|us|usec|microseconds?|ms|milliseconds?|ns|nanoseconds?|s|sec|secs|seconds?|min|minutes?|h|hours?)"
_FIGURE = re.compile(
    rf"{_NUMBER}\s*(?:[–-]\s*\d[\d,.]*\s*)?{_UNIT}(?![\w])"          # 30 ms, 10–30 s, 1.5 seconds
    rf"|{_NUMBER}\s*[×x](?![\w])"                                 # 3.9×, 93x
    rf"|\b{_WORD_NUMBER}(?:\s+to\s+{_WORD_NUMBER})?\s+times\s+"
    r"(?:faster|slower|quicker|longer|shorter|cheaper|dearer|more|less|as\s+\w+)\b",  # two to three times faster
    re.IGNORECASE)
#: A sentence with one of these may carry a figure: the 2017 figures, running-time notes.
EXEMPT_SENTENCE = re.compile(r"\b2017\b|running time|durée d'exécution", re.IGNORECASE)
_EXERCISE_CELL = re.compile(r"^\s*\*\*\d\d\.\d+\*\*")
_CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_HTML_TAG = re.compile(r"<[^>\n]*>")
_QUOTES = re.compile(r"“([^”]*)”|\"([^\"\n]*)\"|(?<![\w])‘([^’]*)’(?![\w])|«\s*([^»]*?)\s*»")  # « » French


def _strip_code(text: str) -> str:
    """Markdown without code blocks, code spans, link targets and HTML tags (none of them is prose)."""
    for pattern in (_CODE_BLOCK, _CODE_SPAN, _LINK_TARGET, _HTML_TAG):
        text = pattern.sub(" ", text)
    return text


def _blockquotes(text: str) -> tuple[list[str], str]:
    """The block quotes of a markdown text (each joined into one line, attribution lines dropped) and the rest."""
    quotes, rest, current = [], [], []
    for line in text.splitlines():
        if line.lstrip().startswith(">"):
            body = line.lstrip()[1:].strip()
            if not re.match(r"^(—|--|-\s)", body):
                current.append(body)
            continue
        if current:
            quotes.append(" ".join(current))
            current = []
        rest.append(line)
    if current:
        quotes.append(" ".join(current))
    return quotes, "\n".join(rest)


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+(?=[A-Z*(])|\n\s*\n|\n\s*(?:[-*+]\s|\|)", text)


def typed_figures(markdown: str) -> list[str]:
    """The measured-looking figures typed into a markdown cell's prose (see rule 1 above); empty when clean."""
    if _EXERCISE_CELL.match(markdown):
        return []
    _, rest = _blockquotes(_strip_code(markdown))
    rest = _QUOTES.sub("(quote)", rest)  # the Q&A's words in quotation marks are checked by rule 2
    found = []
    for sentence in _sentences(rest):
        if not EXEMPT_SENTENCE.search(sentence):
            found += [m.group(0).strip() for m in _FIGURE.finditer(sentence)]
    return found


def normal(text: str) -> str:
    """Text compared for verbatim quotes: one space between words, one kind of apostrophe and ellipsis."""
    text = text.replace("’", "'").replace("‘", "'").replace("…", "...").replace("&quot;", '"')
    return " ".join(text.split())


def qa_pieces(quote: str) -> list[str]:
    """The pieces of a quote that must each be verbatim: split at ``...``, ``[our words]`` removed, outer quotes,
    spaces and trailing punctuation trimmed (a quote may end where the sentence does not)."""
    pieces = []
    for piece in re.sub(r"\[[^\]]*\]", "...", normal(quote)).split("..."):
        piece = piece.strip().strip("\"“”'").strip().rstrip(".,;:").strip()
        if piece:
            pieces.append(piece)
    return pieces


def quoted_fragments(markdown: str) -> Iterator[tuple[str, str]]:
    """Every fragment of a markdown cell in quotation marks, with where it was found (``block`` or ``inline``).

    A block quote that opens with a quotation mark is one fragment (its outer marks removed, so a quote may
    contain the Q&A's own "compilation"); any other text yields the fragments between “…”, "…" or ‘…’."""
    quotes, rest = _blockquotes(_strip_code(markdown))
    for quote in quotes:
        stripped = re.sub(r"\s+(—|--)\s*(Answer \d|the question|Question).*$", "", quote.strip())
        if stripped[:1] in "\"“":
            yield stripped[1:].rstrip().rstrip("\"”").strip(), "block"
        else:
            rest += "\n" + quote
    for m in _QUOTES.finditer(rest):
        yield next(g for g in m.groups() if g is not None), "inline"


_ROW_KEY = re.compile(r"^\s*\**\s*(Q|A\d\.\d+)\b")
_ROW_STATUS = re.compile(r"^\s*\*\*(.+?)\*\*")


def verdict_rows(markdown: str) -> list[tuple[str | None, str | None, str]]:
    """The rows of a Verdict table: ``(key, bold status, row text)``; key or status is None when missing.

    >>> verdict_rows("| Claim | In | Verdict |\\n| --- | --- | --- |\\n| A1.2 “x” | §4 | **Still true.** Because. |")
    [('A1.2', 'Still true.', '| A1.2 “x” | §4 | **Still true.** Because. |')]
    """
    rows = []
    for line in markdown.splitlines():
        line = line.strip()
        if not (line.startswith("|") and line.endswith("|")) or re.fullmatch(r"[|\s:-]+", line):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells and cells[0].lower().startswith(("claim", "affirmation")):
            continue  # the header row (English or French edition)
        key = _ROW_KEY.match(cells[0])
        status = _ROW_STATUS.match(cells[-1])
        rows.append((key.group(1) if key else None, status.group(1) if status else None, line))
    return rows


def unquoted(markdown: str, qa_text: str) -> list[str]:
    """The quoted fragments of a markdown cell that are not verbatim in ``qa_text`` (rule 2); empty when clean.
    Only a quote's first letter may change case (a quote can start mid-sentence).

    >>> unquoted('As it says, “they differ drastically” and “differ a lot”.', "but they differ drastically on")
    ['differ a lot']
    """
    text = normal(qa_text)
    bad = []
    for fragment, _ in quoted_fragments(markdown):
        for piece in qa_pieces(fragment):
            if not any(v in text for v in (piece, piece[:1].lower() + piece[1:], piece[:1].upper() + piece[1:])):
                bad.append(piece)
    return bad


def notebook_problems(path: str, qa_text: str) -> list[str]:
    """Rules 1 and 2 over every markdown cell of a notebook file: one line per problem, empty when clean."""
    import json
    from pathlib import Path

    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    problems = []
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "markdown":
            continue
        src = cell.get("source", "")
        text = "".join(src) if isinstance(src, list) else str(src)
        for figure in typed_figures(text):
            problems.append(f"cell {i}: {figure!r} is a figure typed into prose: print it from the measurement "
                            "(or make the point with a count)")
        for piece in unquoted(text, qa_text):
            problems.append(f"cell {i}: “{piece[:70]}” is in quotation marks but not in the Q&A: quote it "
                            "exactly, or say it in plain words (labels and messages go in `code`)")
    return problems
