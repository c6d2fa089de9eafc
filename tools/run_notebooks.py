#!/usr/bin/env python3
"""Re-execute notebooks top to bottom in a fresh kernel and write their outputs back (the committed outputs).

    .venv/bin/python tools/run_notebooks.py                       # every notebooks/*.ipynb, in course order
    .venv/bin/python tools/run_notebooks.py notebooks/03_*.ipynb  # just these
    .venv/bin/python tools/run_notebooks.py notebooks/fr           # a folder: its own notebooks, in name order
    .venv/bin/python tools/run_notebooks.py --slides              # the slides' copies (below), every notebook
    ./course test --refresh-notebooks                             # all of them and their copies, then every test

This is "Kernel > Restart Kernel and Run All Cells" done the same way every time: one new kernel per notebook,
working directory = the notebook's folder (as nbval uses), no timing metadata, widget model ids numbered in
creation order: a re-run that changes nothing leaves `git diff` empty. Widget state is saved so GitHub/nbviewer
show widgets.

Cells marked ``# NBVAL_RAISES_EXCEPTION`` get the ``raises-exception`` tag (added here if missing): with it
nbclient, nbval *and* JupyterLab's "Run All" carry on past the expected error instead of stopping.
A cell that raises without that marker stops the run and nothing is written for that notebook.

With ``--slides`` a notebook is run the same way but with ``cl.set_theme("presenter")`` run first, and written
(without that first cell) to its slides' copy in ``site_tools/decks/`` (``site_tools/decks/fr/`` for the French
twins), never over the notebook: the reveal.js decks of ``./course site`` show the widgets drawn for a projector
(:mod:`site_tools.decks`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RAISES_MARKER = "NBVAL_RAISES_EXCEPTION"
RAISES_TAG = "raises-exception"
CELL_TIMEOUT_S = 600
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: Namespace of the stable widget model ids (any fixed UUID works; this one is uuid5(NAMESPACE_URL, "course")).
WIDGET_ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "course")


def marks_raises(source: str) -> bool:
    """True when a cell has nbval's raises marker as a comment line of its own (how nbval reads it)."""
    return any(line.strip().lstrip("#").strip() == RAISES_MARKER for line in source.splitlines())


def tag_expected_errors(nb) -> int:
    """Add the ``raises-exception`` tag to cells marked for nbval; returns how many tags were added."""
    added = 0
    for cell in nb.cells:
        if cell.cell_type == "code" and marks_raises(cell.source):
            tags = cell.metadata.setdefault("tags", [])
            if RAISES_TAG not in tags:
                tags.append(RAISES_TAG)
                added += 1
    return added


def stable_widget_ids(nb, name: str):
    """Replace the random widget model ids of a run by ids derived from the notebook name and creation order.

    A kernel gives every widget a random uuid, and the saved widget state is keyed by it, so every refresh would
    rewrite (and, keys being sorted, reshuffle) the whole state block. Widgets are created in the same order on
    every run, so numbering them in that order makes an unchanged notebook rewrite to identical bytes. The ids
    only serve static viewers (GitHub, nbviewer, a kernel-less JupyterLab); a live kernel makes its own.
    """
    import nbformat

    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    if not state:
        return nb
    text = json.dumps(nb)
    for index, old in enumerate(list(state)):  # dict order = the order the kernel opened the widgets
        text = text.replace(old, uuid.uuid5(WIDGET_ID_NAMESPACE, f"{name}:{index}").hex)
    return nbformat.from_dict(json.loads(text))


def run_notebook(path: Path, slides: bool = False) -> float:
    """Execute one notebook in a fresh kernel and write it back in place (with ``slides``: in the presenter theme,
    to its slides' copy); returns the seconds it took."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    if slides:
        decks = _decks()
        nb.cells.insert(0, nbformat.v4.new_code_cell(decks.THEME_CELL))
    added = tag_expected_errors(nb)
    if added:
        print(f"  tagged {added} cell(s) {RAISES_TAG!r} (they carry # {RAISES_MARKER})")
    for cell in nb.cells:
        # Old timing metadata from other tools would make every refresh a diff.
        cell.metadata.pop("execution", None)
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        record_timing=False,
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    t0 = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - t0
    # the English ids stay keyed by the file name; a twin in a sub-folder (fr/) gets ids of its own
    folder = path.parent.relative_to(ROOT / "notebooks").as_posix() if path.is_relative_to(ROOT / "notebooks") else "."
    name = path.name if folder == "." else f"{folder}/{path.name}"
    target = path
    if slides:
        del nb.cells[0]  # the copy keeps the notebook's code cells, one for one (tests/test_site_build.py)
        nb.metadata[decks.COPY_KEY] = {"theme": "presenter", "notebook": path.relative_to(ROOT).as_posix(),
                                       "made_by": "tools/run_notebooks.py --slides"}
        target, name = decks.copy_path(path), f"slides/{name}"
        target.parent.mkdir(parents=True, exist_ok=True)
    nb = stable_widget_ids(nb, name)
    nbformat.validate(nb)
    nbformat.write(nb, target)
    return elapsed


def _decks():
    """:mod:`site_tools.decks` (the slides' copies), imported from the project's root (tools/ is run as a script)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from site_tools import decks

    return decks


def notebooks_of(given: list[Path]) -> tuple[list[Path], list[str]]:
    """The notebooks to run for the paths given: a notebook itself, a folder's own ``*.ipynb`` in name order (not
    its sub-folders: ``notebooks`` is the English edition, ``notebooks/fr`` the French one); and a problem for each
    path that is none of these (missing, not a notebook, a folder without one), so nothing runs before all are
    known to be right. Nothing given: every notebook of both editions.

    >>> notebooks_of([ROOT / "nowhere.ipynb"])[1]
    ['nowhere.ipynb: no such file or folder']
    """
    if not given:
        return sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks" / "fr").glob("*.ipynb")), []
    paths: list[Path] = []
    problems: list[str] = []
    for path in given:
        shown = path.relative_to(ROOT) if path.is_absolute() and path.is_relative_to(ROOT) else path
        if path.is_dir():
            found = sorted(path.glob("*.ipynb"))
            paths += found
            if not found:
                problems.append(f"{shown}: a folder without notebooks (*.ipynb); sub-folders are not searched")
        elif not path.exists():
            problems.append(f"{shown}: no such file or folder")
        elif path.suffix != ".ipynb":
            problems.append(f"{shown}: not a notebook (a .ipynb file, or a folder of them)")
        else:
            paths.append(path)
    return list(dict.fromkeys(paths)), problems


def main(argv: list[str] | None = None) -> int:
    """Run the given notebooks and folders of notebooks (default: every notebooks/*.ipynb in name order, then the
    French edition's notebooks/fr/*.ipynb); 1 if any failed, 2 (nothing run) if a path is not one."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="notebooks, or folders whose *.ipynb to run (default: notebooks/ then notebooks/fr/)")
    parser.add_argument("--slides", action="store_true",
                        help="run them in the presenter theme and write the slides' copies (site_tools/decks/), "
                             "leaving the notebooks as they are")
    args = parser.parse_args(argv)
    paths, problems = notebooks_of(args.notebooks)
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        print("nothing was run: give notebooks (.ipynb) or folders of them", file=sys.stderr)
        return 2
    if not paths:
        print("no notebooks found in notebooks/", file=sys.stderr)
        return 1
    # Kernels must run in this environment (the .venv), not in a user-wide "python3" kernel elsewhere.
    os.environ.setdefault("JUPYTER_PREFER_ENV_PATH", "1")
    failed = []
    for path in paths:
        print(f"running {path} ...", flush=True)
        try:
            elapsed = run_notebook(path.resolve(), slides=args.slides)
        except Exception as exc:  # noqa: BLE001 - report every notebook, then fail at the end
            print(f"  FAILED: {type(exc).__name__}: {str(exc)[-2000:]}", file=sys.stderr)
            failed.append(str(path))
            continue
        print(f"  ok in {elapsed:.1f} s, " + ("slides' copy written" if args.slides else "outputs written"))
    if failed:
        print(f"{len(failed)} notebook(s) failed and were not rewritten: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
