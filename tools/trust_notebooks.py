"""Mark the course's notebooks trusted for this machine's Jupyter, so JupyterLab draws their saved outputs.

    python tools/trust_notebooks.py [FOLDER_OR_NOTEBOOK ...]      (default: the notebooks/ folder of this checkout)

JupyterLab renders a saved output of an unsafe type (the graphs' ``image/svg+xml``, the widgets'
``application/vnd.jupyter.widget-view+json``) only when the notebook is trusted, i.e. when its signature is in the
trust database of this user's Jupyter data folder (``jupyter --data-dir``: ``nbsignatures.db`` and the key
``notebook_secret``). A fresh clone has no signature there, so before anything runs JupyterLab shows each output's
``text/plain`` fallback instead. This runs ``jupyter trust`` (nbformat) on the notebooks: the same step as
"Trust Notebook" in JupyterLab's command palette.

Used by ``./course start``, ``postBuild`` (Binder) and the browser test ``tests/browser/test_fresh_clone.py``.
A trusted notebook's HTML and JavaScript outputs run as they are, so a notebook that carries something that would
run (an output with a script, an event handler, a ``javascript:`` link; a JavaScript output: what the static site's
cleaner, site_tools/sanitize.py, would take out) is not signed: it is named, with the cell, and the others are.
The course's own outputs carry nothing of the kind (tests/test_trust_notebooks.py). Quiet and idempotent (an already
signed notebook stays as it is); on failure it prints why ``jupyter trust`` failed (its last line), or which notebook
it did not sign and why, and exits 1, and the callers warn and go on.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # site_tools, from this checkout

#: output kinds JupyterLab shows without running anything, trusted or not, beyond those the static site keeps as they
#: are (site_tools.sanitize.SAFE_MIMES); HTML and SVG (sanitize.CLEANED_MIMES) are checked instead
ALSO_DATA = {"text/markdown", "text/latex", "application/json"}


def notebooks_in(targets: list[str]) -> list[Path]:
    """The .ipynb files named, or found in the folders named and their sub-folders (the French edition is in
    notebooks/fr/); checkpoints are never signed."""
    found: list[Path] = []
    for target in targets:
        path = Path(target)
        if path.is_dir():
            found.extend(p for p in sorted(path.rglob("*.ipynb")) if ".ipynb_checkpoints" not in p.parts)
        else:
            found.append(path)
    return found


def would_run(path: Path) -> list[str]:
    """Where ``path`` carries an output that would run once the notebook is trusted, in words (empty: none). Read
    as JSON (0.3 s for the course's 18 notebooks); a file that is not a notebook is left to jupyter trust to name."""
    from site_tools import sanitize

    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return []
    found = []
    for k, cell in enumerate(cells, start=1):
        for out in cell.get("outputs", []) if isinstance(cell, dict) else []:
            data = out.get("data") if isinstance(out, dict) else None
            for mime, value in data.items() if isinstance(data, dict) else []:
                text = "".join(value) if isinstance(value, list) else value
                if mime in sanitize.CLEANED_MIMES and isinstance(text, str) and sanitize.runs_something(text):
                    found.append(f"cell {k}: {mime} with something that would run (a script, a handler, a link)")
                elif mime not in sanitize.SAFE_MIMES | sanitize.CLEANED_MIMES | ALSO_DATA:
                    found.append(f"cell {k}: a {mime} output, which runs as code")
    return found


def trust(targets: list[str]) -> tuple[bool, str]:
    """Sign every notebook of ``targets`` with ``jupyter trust``, except one that carries an output that would then
    run (:func:`would_run`, named in the text returned); return (succeeded, what it printed)."""
    found = notebooks_in(targets)
    if not found:
        return False, f"no notebooks found in {', '.join(targets)}"
    held = {p: would_run(p) for p in found if p.exists()}
    held = {p: where for p, where in held.items() if where}
    paths = [p for p in found if p not in held]
    refused = "".join(f"not trusted: {p} ({'; '.join(w[:3])}). It was not written by the course: look at that "
                      f"cell, re-run the notebook, or trust it yourself (Trust Notebook in JupyterLab) if you know "
                      f"what it does\n" for p, w in held.items())
    if not paths:
        return False, refused.strip()
    # `python -m jupyter trust`: this interpreter's Jupyter (the venv's), whatever is first on PATH.
    done = subprocess.run([sys.executable, "-m", "jupyter", "trust", *map(str, paths)],
                          capture_output=True, text=True, check=False)
    signed = done.returncode == 0  # what jupyter trust printed matters only when it failed
    return signed and not held, (refused + ("" if signed else done.stdout + done.stderr)).strip()


def main(argv: list[str]) -> int:
    ok, output = trust(argv or [str(ROOT / "notebooks")])
    if not ok:
        lines = output.splitlines()
        for line in (x for x in lines if x.startswith("not trusted: ")):
            print(line, file=sys.stderr)
        # The last line says why (a traceback's error, or "Notebook missing: ..."); the rest is Python's stack.
        rest = [x for x in lines if not x.startswith("not trusted: ")]
        if rest:
            print(f"jupyter trust failed: {rest[-1]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
