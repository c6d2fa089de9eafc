"""The label-size table of issue 26, printed from the browser tests' measurements (no browser needed here).

The browser tests write what the screen shows of each widget as JSON in test-artifacts/browser/:
``projector-<notebook>.json`` (tests/browser/test_notebooks.py: every widget of every lesson, run as the instructor
presents it at 1280×720) and ``layout-<screen>-<kind>.json`` (tests/browser/test_layout.py: one widget per kind on
the projector, focused or not, and on the laptop). This prints them as Markdown tables::

    .venv/bin/python -m pytest tests/browser/test_notebooks.py tests/browser/test_layout.py -n 2 --dist loadscope
    .venv/bin/python tools/label_table.py            # or --dir another/artifacts/folder

A row: the notebook (or screen) and the widget, its kind, how many graphs it shows, the smallest and the median
label (px on the screen, over every label of the graphs shown), each graph's smallest label, the smallest word of
the widget (px; in brackets for a widget that is not the course's, a progress bar, held to no target), and the
targets it misses ("ok" when none; see the tests for the targets).

>>> row({"notebook": "notebooks/01.ipynb", "widget": 2, "kind": "stepper", "shown": 1, "min_label": 23.44,
...      "median_label": 25.0, "graphs": [{"min": 23.44}], "min_words": 21.0, "missed": ["labels"]})
'| 01 | 2 | stepper | 1 | 23.4 | 25.0 | 23.4 | 21.0 | labels |'
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HEADER = ("| notebook | widget | kind | graphs shown | smallest label px | median label px | per graph px "
          "| smallest word px | misses |\n|---|---|---|---|---|---|---|---|---|")


def px(value: float | None) -> str:
    """A size in px to one decimal, or a dash where nothing was measured.

    >>> px(19.96), px(None)
    ('20.0', '-')
    """
    return "-" if value is None else f"{value:.1f}"


def row(m: dict[str, Any]) -> str:
    """One widget's measurement as a table row (see the module's example)."""
    where = Path(m["notebook"]).stem if "notebook" in m else m["screen"]
    if "/fr/" in m.get("notebook", ""):
        where += " (fr)"
    missed = ", ".join(m.get("missed") or []) or "ok"
    graphs = " / ".join(px(g["min"]) for g in m.get("graphs", [])) or "-"
    # a widget that is not the course's (a progress bar): its own words, in brackets, held to no target
    own = m["min_words"] is None and m.get("any_words") is not None
    words = f"({m['any_words']:.1f})" if own else px(m["min_words"])
    return (f"| {where} | {m['widget']} | {m['kind']} | {m['shown']} | {px(m['min_label'])} "
            f"| {px(m['median_label'])} | {graphs} | {words} | {missed} |")


def tables(folder: Path) -> str:
    """Both tables, from every measurement file in ``folder`` (a note where a test wrote none)."""
    parts = []
    for title, pattern in (("Every widget of every lesson, projector (1280×720, presenter theme)", "projector-*.json"),
                           ("One widget per kind (test_layout.py)", "layout-*.json")):
        rows = [m for path in folder.glob(pattern) for m in json.loads(path.read_text(encoding="utf-8"))]
        rows.sort(key=lambda m: (Path(m.get("notebook", "")).stem, m.get("screen", ""), m["kind"], m["widget"]))
        parts.append(f"## {title}\n\n" + (HEADER + "\n" + "\n".join(row(m) for m in rows) if rows
                                          else f"(no {pattern} in {folder}: run the browser tests first)"))
    return "\n\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "test-artifacts" / "browser",
                        help="the folder the browser tests wrote their measurements in")
    args = parser.parse_args(argv)
    print(tables(args.dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
