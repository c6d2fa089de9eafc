"""Mark the course's notebooks trusted for this machine's Jupyter, so JupyterLab draws their saved outputs.

    python tools/trust_notebooks.py [FOLDER_OR_NOTEBOOK ...]      (default: the notebooks/ folder of this checkout)

JupyterLab renders a saved output of an unsafe type (the graphs' ``image/svg+xml``, the widgets'
``application/vnd.jupyter.widget-view+json``) only when the notebook is trusted, i.e. when its signature is in the
trust database of this user's Jupyter data folder (``jupyter --data-dir``: ``nbsignatures.db`` and the key
``notebook_secret``). A fresh clone has no signature there, so before anything runs JupyterLab shows each output's
``text/plain`` fallback instead. This runs ``jupyter trust`` (nbformat) on the notebooks: the same step as
"Trust Notebook" in JupyterLab's command palette.

Used by ``./course start``, ``postBuild`` (Binder) and the browser test ``tests/browser/test_fresh_clone.py``.
Quiet and idempotent (an already signed notebook stays as it is); on failure it prints why ``jupyter trust`` failed
(its last line) and exits 1, and the callers warn and go on.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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


def trust(targets: list[str]) -> tuple[bool, str]:
    """Sign every notebook of ``targets`` with ``jupyter trust``; return (succeeded, what it printed)."""
    paths = notebooks_in(targets)
    if not paths:
        return False, f"no notebooks found in {', '.join(targets)}"
    # `python -m jupyter trust`: this interpreter's Jupyter (the venv's), whatever is first on PATH.
    done = subprocess.run([sys.executable, "-m", "jupyter", "trust", *map(str, paths)],
                          capture_output=True, text=True, check=False)
    return done.returncode == 0, (done.stdout + done.stderr).strip()


def main(argv: list[str]) -> int:
    ok, output = trust(argv or [str(ROOT / "notebooks")])
    if not ok:
        # The last line says why (a traceback's error, or "Notebook missing: ..."); the rest is Python's stack.
        last = output.splitlines()[-1] if output else "no message"
        print(f"jupyter trust failed: {last}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
