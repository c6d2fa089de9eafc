"""Switch nbgrader's JupyterLab and server extensions off in the running Python's environment (sys.prefix).

    python tools/nbgrader_extensions_off.py

nbgrader (pinned for ``./course assignments``) installs extensions a student working alone needs none of: its
assignment list, formgrader, course list and validate buttons, and notebook 7's lab extension (its "Open in..."
menus). They change JupyterLab's menus and start-up (formgrader's import alone takes ~0.65 s), so ``./course setup``
(for .venv) and ``postBuild`` (Binder, a hub's course image) switch them off with jupyter's own commands (nbgrader's
installation docs); a hub image for a graded class turns them back on (docs/assignments.md). It first reads the files
those commands write, so where they are already off it costs one small Python call. Prints what it did; exit 1 when
jupyter failed (the callers warn and go on: only the menus are affected).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

LAB = ("@jupyter/nbgrader", "@jupyter-notebook/lab-extension")
SERVER = tuple(f"nbgrader.server_extensions.{n}"
               for n in ("formgrader", "validate_assignment", "assignment_list", "course_list"))


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def already_off(config: Path) -> bool:
    """True when ``config`` (an environment's etc/jupyter) has every extension of LAB and SERVER switched off."""
    off = _read(config / "labconfig" / "page_config.json").get("disabledExtensions", {})
    return all(off.get(n) for n in LAB) and all(
        _read(config / "jupyter_server_config.d" / f"{n}.json").get("ServerApp", {})
        .get("jpserver_extensions", {}).get(n) is False for n in SERVER)


def main() -> int:
    if already_off(Path(sys.prefix, "etc", "jupyter")):
        return 0
    print("switching off nbgrader's JupyterLab and server extensions (students alone need none of them)")
    jupyter = [sys.executable, "-m", "jupyter"]
    for cmd in (["labextension", "disable", "--level=sys_prefix", *LAB],
                ["server", "extension", "disable", "--sys-prefix", *SERVER]):
        done = subprocess.run(jupyter + cmd, capture_output=True, text=True, check=False)
        if done.returncode:
            print(f"jupyter {' '.join(cmd[:2])} failed: {(done.stderr or done.stdout).strip()[-300:]}",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
