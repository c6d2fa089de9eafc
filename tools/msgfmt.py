"""Compile a gettext catalogue: ``.po`` (the committed source) -> ``.mo`` (what Python's ``gettext`` reads).

Standard library only, so the course needs no GNU gettext tools::

    python tools/msgfmt.py                      # every course_lib/locale/*/LC_MESSAGES/*.po, .mo beside it
    python tools/msgfmt.py path/to/file.po ...  # those files
    python tools/msgfmt.py --missing            # .po entries to fill in: the messages of course_lib not in the
                                                # French catalogue, or without a French text

Reads ``msgctxt`` (stored as ``context\\x04msgid``, as GNU msgfmt does), ``msgid_plural`` with ``msgstr[n]``
(the plural rule comes from the header's ``Plural-Forms``), multi-line strings and C escapes. Entries marked
``#, fuzzy`` and entries without a translation are left out (gettext then shows the English message id), like
GNU msgfmt. The output is the same bytes for the same catalogue (entries sorted, no hash table).
"""

from __future__ import annotations

import ast
import json
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "course_lib"
LOCALE = PACKAGE / "i18n" / "locale"
CATALOGUE = LOCALE / "fr" / "LC_MESSAGES" / "course_lib.po"
#: the functions that mark a message for translation (course_lib.i18n): name -> the string arguments that are ids
MARKERS = {"_": 1, "gettext": 1, "N_": 1, "Lazy": 1, "say": 1, "Said": 1, "ngettext": 2, "Plural": 2}


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)  # one string, or one per plural form
    fuzzy: bool = False
    line: int = 0

    @property
    def key(self) -> str:
        """The id in the .mo: ``context\\x04msgid`` when there is a context, ``msgid\\0plural`` for plurals."""
        base = self.msgid if self.msgid_plural is None else f"{self.msgid}\0{self.msgid_plural}"
        return base if self.msgctxt is None else f"{self.msgctxt}\x04{base}"

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr) and not self.fuzzy


def _string(text: str, where: str) -> str:
    """A quoted .po string ("a\\nb") as its text."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    return ast.literal_eval(text)  # the .po escapes (\\n \\t \\" \\\\) are Python's


def parse_po(text: str, name: str = "<po>") -> list[Entry]:
    """The entries of a .po file, in file order (the header is the entry whose msgid is "")."""
    entries: list[Entry] = []
    cur = Entry()
    target: tuple[str, int] | None = None  # which field a continuation line extends

    def finish() -> None:
        nonlocal cur
        if target is not None or cur.msgstr:
            entries.append(cur)
        cur = Entry()

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            continue
        if line.startswith("#"):
            if cur.msgstr:  # a comment after a complete entry starts the next one
                finish()
                target = None
            if line.startswith("#,") and "fuzzy" in line:
                cur.fuzzy = True
            continue
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{where}: a string continues no keyword")
            kind, index = target
            piece = _string(line, where)
            if kind == "msgstr":
                cur.msgstr[index] += piece
            else:
                setattr(cur, kind, getattr(cur, kind) + piece)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and cur.msgstr:
            finish()
        if keyword == "msgctxt":
            cur.msgctxt, target = _string(rest, where), ("msgctxt", 0)
        elif keyword == "msgid":
            cur.msgid, cur.line, target = _string(rest, where), number, ("msgid", 0)
        elif keyword == "msgid_plural":
            cur.msgid_plural, target = _string(rest, where), ("msgid_plural", 0)
        elif keyword == "msgstr":
            cur.msgstr, target = [_string(rest, where)], ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            index = int(keyword[7:-1])
            if index != len(cur.msgstr):
                raise ValueError(f"{where}: {keyword} out of order")
            cur.msgstr.append(_string(rest, where))
            target = ("msgstr", index)
        else:
            raise ValueError(f"{where}: unknown line {line!r}")
    finish()
    keys = [e.key for e in entries]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise ValueError(f"{name}: messages defined twice: {duplicates}")
    return entries


def compile_mo(entries: list[Entry]) -> bytes:
    """The .mo bytes of these entries (GNU format, little-endian, revision 0, no hash table)."""
    pairs = sorted((e.key.encode("utf-8"), "\0".join(e.msgstr).encode("utf-8"))
                   for e in entries if e.translated or e.msgid == "")
    n = len(pairs)
    header = 7 * 4
    ids_table, strs_table = header, header + 8 * n
    data_start = strs_table + 8 * n
    ids_data = b"".join(k + b"\0" for k, _ in pairs)
    offsets_ids, offsets_strs = [], []
    pos = data_start
    for k, _ in pairs:
        offsets_ids += [len(k), pos]
        pos += len(k) + 1
    for _, v in pairs:
        offsets_strs += [len(v), pos]
        pos += len(v) + 1
    strs_data = b"".join(v + b"\0" for _, v in pairs)
    return (struct.pack("<7I", 0x950412DE, 0, n, ids_table, strs_table, 0, data_start)
            + struct.pack(f"<{2 * n}I", *offsets_ids) + struct.pack(f"<{2 * n}I", *offsets_strs)
            + ids_data + strs_data)


def compile_file(po: Path) -> Path:
    """Compile ``po`` to the .mo beside it; returns the .mo's path."""
    mo = po.with_suffix(".mo")
    mo.write_bytes(compile_mo(parse_po(po.read_text(encoding="utf-8"), str(po))))
    return mo


def extract(root: Path = PACKAGE) -> dict[tuple[str, str | None], list[str]]:
    """Every message marked in the .py files under ``root``, found with ``ast``: (msgid, msgid_plural) -> where.

    A marker called with something other than a plain string (an f-string, a name) is reported as an error: its
    message could never be in a catalogue."""
    found: dict[tuple[str, str | None], list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS):
                continue
            where = f"{path.relative_to(root.parent)}:{node.lineno}"
            count = MARKERS[node.func.id]
            args = node.args[:count]
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args) or len(args) < count:
                if node.func.id in ("_", "gettext", "Lazy", "say", "Said") and args and not isinstance(args[0], ast.JoinedStr):
                    continue  # _(SOME_TABLE[key]): the table's entries are marked with N_ where they are written
                raise ValueError(f"{where}: {node.func.id}() needs a plain string (no f-string), got "
                                 f"{ast.unparse(node)[:80]}")
            key = (args[0].value, args[1].value if count == 2 else None)
            found.setdefault(key, []).append(where)
    return found


def untranslated(po: Path = CATALOGUE, root: Path = PACKAGE) -> list[str]:
    """The .po entries (to fill in) for messages of ``root`` that ``po`` does not translate."""
    done = {(e.msgid, e.msgid_plural) for e in parse_po(po.read_text(encoding="utf-8"), str(po)) if e.translated}
    out = []
    for (msgid, plural), where in extract(root).items():
        if (msgid, plural) in done:
            continue
        quote = json_quote
        head = f"#: {' '.join(where)}\nmsgid {quote(msgid)}\n"
        out.append(head + (f"msgstr {quote('')}\n" if plural is None else
                           f"msgid_plural {quote(plural)}\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"))
    return out


def json_quote(text: str) -> str:
    """A .po string literal (the escapes .po files use are JSON's, for the characters the course writes)."""
    return json.dumps(text, ensure_ascii=False)


def main(argv: list[str]) -> int:
    if argv == ["--missing"]:
        todo = untranslated()
        print("\n".join(todo) or "every message of course_lib has a French translation")
        return 1 if todo else 0
    files = [Path(a) for a in argv] or sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
    if not files:
        print(f"no .po file under {LOCALE}", file=sys.stderr)
        return 1
    for po in files:
        entries = parse_po(po.read_text(encoding="utf-8"), str(po))
        left = [e.msgid for e in entries if e.msgid and not e.translated]
        mo = compile_file(po)
        print(f"{mo}: {sum(1 for e in entries if e.msgid and e.translated)} messages"
              + (f", {len(left)} without a translation (shown in English)" if left else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
