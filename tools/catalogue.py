"""The course's message catalogues, with Babel: extract the marked messages, update the French ``.po``, compile it.

One command per step of the cycle (docs/ARCHITECTURE.md, "Languages")::

    .venv/bin/python tools/catalogue.py missing   # the messages of course_lib without French, as .po entries to fill
                                                  # in (exit 1 when there are some)
    .venv/bin/python tools/catalogue.py update    # add every new message to the .po (empty), mark the ones no code
                                                  # uses any more obsolete (#~), keep every translation
    .venv/bin/python tools/catalogue.py compile   # .po -> .mo beside it, when the .po is newer (--force: always);
                                                  # ./course setup runs it, so the .mo is never committed
    .venv/bin/python tools/catalogue.py extract   # the template course_lib.pot (for a translation editor)

The keywords, paths and options are in pyproject.toml (``[tool.babel...]``), which Babel's own command line reads
too when run from the repository's root: ``pybabel extract``, ``pybabel update``, ``pybabel compile`` do the same.

Messages are marked where they are written (course_lib.i18n): ``_("…")`` / ``gettext("…")`` translate at once,
``N_("…")`` and ``Lazy("…")`` mark a constant, ``Plural("…", "…")`` a message with a count (its two English forms).
Notebooks are not extracted: their words are their own (each edition is written in its language).
"""

from __future__ import annotations

import argparse
import ast
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["babel"]
PACKAGE = ROOT / CONFIG["extract_messages"]["input-paths"]
LOCALE = ROOT / CONFIG["compile_catalog"]["directory"]
DOMAIN = CONFIG["compile_catalog"]["domain"]
TEMPLATE = ROOT / CONFIG["extract_messages"]["output-file"]
#: the functions that mark a message (course_lib.i18n), as Babel's keywords: name -> the arguments that are ids
KEYWORDS: dict[str, tuple[int, ...] | None] = parse_keywords(CONFIG["extract_messages"]["keywords"].split())
METHODS = [(m["pattern"], m["method"]) for m in CONFIG["mappings"]]
WIDTH = CONFIG["extract_messages"]["width"]  # the project's line length: long messages stay on few lines


def catalogues() -> list[Path]:
    """The .po files of the course (one per language but English, whose messages are the ids)."""
    return sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def extract(root: Path = PACKAGE) -> Catalog:
    """Every message marked in the .py files under ``root`` (Babel's Python extractor), as a template catalogue.
    A plural message's id is the pair (singular, plural); each message keeps where it is written."""
    template = Catalog(project=DOMAIN, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            root, method_map=METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
        template.add(message, None, [(f"{root.name}/{filename}", lineno)], auto_comments=comments, context=context)
    return template


def marked_literals(root: Path = PACKAGE) -> Iterator[tuple[str, str]]:
    """(where, message) for every marker called with a literal text in the .py files under ``root``, found with
    ``ast``: what Babel must see. On Python 3.11 Babel's tokenizer-based extractor does not look inside f-strings
    (``f"{_('x')}"``) nor at a marker inside another marker's call, so the tests compare the two."""
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                yield f"{root.name}/{path.relative_to(root)}:{node.lineno}", node.args[0].value


def unseen(root: Path = PACKAGE, template: Catalog | None = None) -> list[str]:
    """The marked messages Babel cannot extract, each with where it is: a marker called with an f-string
    (``_(f"step {k}")`` makes a message id no catalogue can hold: write ``_("step {k}").format(k=k)``), and a
    literal Babel missed (inside an f-string's braces, or inside another marker's call: take it out)."""
    template = template if template is not None else extract(root)
    ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in template if m.id}
    found = [f"{where}: {text!r} is marked but Babel does not see it (inside an f-string or another marker's "
             "call): write it on its own" for where, text in marked_literals(root) if text not in ids]
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS
                    and node.args and isinstance(node.args[0], ast.JoinedStr)):
                found.append(f"{root.name}/{path.relative_to(root)}:{node.lineno}: {node.func.id}() needs a plain "
                             f"string, not an f-string: {ast.unparse(node)[:80]}")
    return found


def read(po: Path) -> Catalog:
    with po.open("rb") as f:
        return read_po(f, abort_invalid=True)  # a broken line stops here, named, instead of a silent gap


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return bool(message.id) and not message.fuzzy and all(strings)


def missing(po: Path, template: Catalog | None = None) -> list[str]:
    """The .po entries (to fill in) for the messages of the template that ``po`` does not translate: absent,
    empty, or fuzzy."""
    template = template if template is not None else extract()
    done = read(po)
    todo = []
    for message in template:
        if not message.id:
            continue
        found = done.get(message.id, message.context)
        if found is None or not _translated(found):
            where = " ".join(f"{f}:{n}" for f, n in message.locations)
            if isinstance(message.id, tuple):
                todo.append(f'#: {where}\nmsgid "{_escape(message.id[0])}"\nmsgid_plural "{_escape(message.id[1])}"\n'
                            'msgstr[0] ""\nmsgstr[1] ""\n')
            else:
                todo.append(f'#: {where}\nmsgid "{_escape(message.id)}"\nmsgstr ""\n')
    return todo


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def update(po: Path, template: Catalog | None = None) -> tuple[int, int]:
    """Merge the template into ``po``: new messages added untranslated, messages no code uses any more kept as
    obsolete (#~), every translation kept, no fuzzy guess (a guessed translation is worse than none). Returns
    (messages added, messages made obsolete)."""
    template = template if template is not None else extract()
    catalogue = read(po)
    before = {m.id for m in catalogue if m.id}
    catalogue.update(template, no_fuzzy_matching=True, update_header_comment=False)
    with po.open("wb") as f:
        write_po(f, catalogue, width=WIDTH, sort_by_file=True, include_previous=False)
    after = {m.id for m in catalogue if m.id}
    return len(after - before), len(catalogue.obsolete)


def compile_catalogue(po: Path, force: bool = False) -> tuple[Path, int] | None:
    """Compile ``po`` to the .mo beside it (Babel's ``write_mo``; fuzzy and empty entries are left out, gettext
    then shows the English id). Skipped (None) when the .mo is newer than the .po, unless ``force``."""
    mo = po.with_suffix(".mo")
    if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return None
    catalogue = read(po)
    tmp = mo.with_suffix(".mo.tmp")
    with tmp.open("wb") as f:
        write_mo(f, catalogue, use_fuzzy=False)
    tmp.replace(mo)  # atomic: a kernel starting meanwhile reads the old .mo or the new one, never half of one
    return mo, sum(1 for m in catalogue if _translated(m))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tools/catalogue.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=["missing", "update", "compile", "extract"])
    parser.add_argument("--force", action="store_true", help="compile even when the .mo is up to date")
    args = parser.parse_args(argv)
    if args.step == "compile":
        for po in catalogues():
            done = compile_catalogue(po, force=args.force)
            if done:
                print(f"{done[0].relative_to(ROOT)}: {done[1]} messages")
        return 0
    template = extract()
    if args.step == "extract":
        with TEMPLATE.open("wb") as f:
            write_po(f, template, width=WIDTH, sort_by_file=True)
        print(f"{TEMPLATE.relative_to(ROOT)}: {sum(1 for m in template if m.id)} messages")
        return 0
    if args.step == "update":
        for po in catalogues():
            added, obsolete = update(po, template)
            print(f"{po.relative_to(ROOT)}: {added} new messages to translate, {obsolete} obsolete")
        return 0
    todo = unseen(PACKAGE, template) + [entry for po in catalogues() for entry in missing(po, template)]
    print("\n".join(todo) or "every message of course_lib has a translation")
    return 1 if todo else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
