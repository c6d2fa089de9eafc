"""The axe-core counts of issue 27, printed from the browser tests' results (no browser needed here).

tests/browser/test_axe.py writes, in test-artifacts/browser/, ``axe-site.json`` (every page of the static edition,
and each widget slide of each deck) and ``axe-lab-<theme>.json`` (one widget of each kind in JupyterLab, and the
JupyterLab page outside the course's outputs). This prints each as a Markdown table of WCAG 2.0/2.1 A/AA violations
(elements counted by impact; the rules with their counts; best-practice rules apart, which fail no test)::

    .venv/bin/python -m pytest tests/browser/test_axe.py
    .venv/bin/python tools/axe_table.py                       # or --dir another/folder
    .venv/bin/python tools/axe_table.py --before /work/axe-before   # each count as before → now

>>> row("index.html", {"critical": 0, "serious": 2, "moderate": 0, "minor": 0, "rules": {"color-contrast": 2},
...                    "best_practice": {"region": 1}})
'| index.html | 0 | 2 | 0 | 0 | color-contrast 2 | region 1 |'
>>> row("x", {"critical": 0, "serious": 0, "moderate": 0, "minor": 0, "rules": {}, "best_practice": {}},
...     {"critical": 2, "serious": 5, "moderate": 0, "minor": 0, "rules": {"button-name": 2, "svg-img-alt": 5},
...      "best_practice": {}})
'| x | 2 → 0 | 5 → 0 | 0 | 0 | ~~button-name 2~~, ~~svg-img-alt 5~~ | - |'
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMPACTS = ("critical", "serious", "moderate", "minor")
HEADER = ("| {what} | critical | serious | moderate | minor | WCAG rules (elements) | best practice |\n"
          "|---|---|---|---|---|---|---|")


def rules(now: dict[str, int], before: dict[str, int] | None) -> str:
    """The rules with their element counts; with ``before``, a changed count as 'before → now' and a rule gone
    struck through."""
    before = before or {}
    out = [f"{r} {before[r]} → {n}" if r in before and before[r] != n else f"{r} {n}" for r, n in sorted(now.items())]
    out += [f"~~{r} {n}~~" for r, n in sorted(before.items()) if r not in now]
    return ", ".join(out) or "-"


def row(where: str, now: dict[str, Any], before: dict[str, Any] | None = None) -> str:
    """One page's (or widget kind's) counts as a table row; with ``before``, each changed count as 'before → now'."""
    cells = [f"{before[i]} → {now[i]}" if before and before[i] != now[i] else str(now[i]) for i in IMPACTS]
    return (f"| {where} | {' | '.join(cells)} | {rules(now['rules'], before and before['rules'])} "
            f"| {rules(now['best_practice'], before and before['best_practice'])} |")


def read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def tables(folder: Path, before: Path | None = None) -> str:
    """A table per results file in ``folder`` (rows in the tests' order), compared with ``before``'s when given."""
    files = sorted(folder.glob("axe-*.json"))
    if not files:
        return f"no axe-*.json in {folder}: run .venv/bin/python -m pytest tests/browser/test_axe.py first"
    parts = []
    for path in files:
        data = read(path)
        old = read(before / path.name) if before and (before / path.name).exists() else None
        what = "page" if path.stem == "axe-site" else "widget kind"
        title = {"axe-site": "The static edition"}.get(path.stem, f"JupyterLab, {path.stem.removeprefix('axe-lab-')} "
                                                                   "theme")
        version = f"axe-core {data['axe']}" + (f" (before: axe-core {old['axe']})" if old else "")
        lines = [f"### {title} ({version})", "", HEADER.format(what=what)]
        lines += [row(k, v, old["rows"].get(k) if old else None) for k, v in data["rows"].items()]
        if old:
            lines += [row(f"~~{k}~~ (not checked now)", {i: 0 for i in IMPACTS} | {"rules": {}, "best_practice": {}},
                          v) for k, v in old["rows"].items() if k not in data["rows"]]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=ROOT / "test-artifacts" / "browser",
                    help="the folder holding axe-*.json (default: test-artifacts/browser)")
    ap.add_argument("--before", type=Path, help="a folder of earlier axe-*.json to compare with")
    args = ap.parse_args(argv)
    print(tables(args.dir, args.before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
