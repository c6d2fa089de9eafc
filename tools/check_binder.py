"""Check that repo2docker (Binder's builder, and the course image's for JupyterHub) reads the course as intended.

    .venv/bin/python tools/check_binder.py [FOLDER] [-- REPO2DOCKER OPTIONS]   (default: this checkout)

repo2docker turns a repository into an image: it picks a *buildpack* from the files it finds (here ``environment.yml``:
the conda buildpack; a ``Dockerfile`` or a ``binder/`` folder would change that), writes a Dockerfile, and builds it.
``jupyter-repo2docker --no-build`` stops after writing: it prints the Dockerfile and needs no container engine
(``Repo2Docker.build`` connects to the engine only when it is not a dry run; ``find_image`` answers False on a dry
run), so it runs here. This tool runs it and checks what the course relies on:

- the buildpack is the conda one (repo2docker's own detection, called as a library in the same order as its app)
  and it reads the Python that environment.yml pins;
- the repository is copied into the image *before* ``mamba env update --file environment.yml`` runs (the
  environment's ``-e .`` line installs course_lib from it);
- ``postBuild`` runs after the environment, as the notebook user (not root).

repo2docker is not a package of the course's environment: it is pinned in ``deploy/binder/repo2docker-requirements.txt``
and installed, the first time, into a virtualenv of its own (``.venv/tools/repo2docker``: 38 MB, 10 to 20 s of CPU
and up to a minute or two of download). Example::

    >>> problems_in("RUN ./postBuild\\n", "CondaBuildPack", "Building conda environment for python=3.11", "3.11")[0]
    'the repository is not copied into the image (COPY ... src/ ${REPO_DIR}/)'
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINS = ROOT / "deploy" / "binder" / "repo2docker-requirements.txt"
TOOLS_VENV = ROOT / ".venv" / "tools" / "repo2docker"
STAMP_NAME = ".course-pins-sha256"
#: the image as Zero to JupyterHub runs it: user jovyan with the chart's uid, the repository outside the home folder
#: the chart mounts over /home/jovyan (docs/deployment.md; deploy/z2jh/config.yaml)
IMAGE_OPTIONS = ["--user-id", "1000", "--user-name", "jovyan", "--target-repo-dir", "/srv/course"]

ENV_UPDATE = re.compile(r'env update -p \$\{NB_PYTHON_PREFIX\} --file "environment\.yml"')
COPY_REPO = re.compile(r"^COPY --chown=\S+ src/ \$\{REPO_DIR\}/$", re.MULTILINE)
RUN_POSTBUILD = re.compile(r"^RUN \./postBuild$", re.MULTILINE)
USER_LINE = re.compile(r"^USER (\S+)$", re.MULTILINE)


class ToolMissing(Exception):
    """repo2docker could not be installed or run (the message says why and what to do)."""


def _pins_digest() -> str:
    return hashlib.sha256(PINS.read_bytes()).hexdigest()


def ensure_repo2docker(venv: Path = TOOLS_VENV) -> Path:
    """The ``python`` of a virtualenv holding exactly the pinned repo2docker; made or updated when needed."""
    python = venv / "bin" / "python"
    stamp = venv / STAMP_NAME
    if python.exists() and stamp.exists() and stamp.read_text() == _pins_digest():
        return python
    shutil.rmtree(venv, ignore_errors=True)
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(PINS)],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            raise ToolMissing(
                f"could not install repo2docker into {venv} ({' '.join(step[:4])} ... failed: "
                f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}). To do: check that PyPI is reachable "
                f"(pip config list; HTTPS_PROXY behind a proxy) and run again; the pins are in {PINS}."
            )
    stamp.write_text(_pins_digest())
    return python


def detect_buildpack(python: Path, folder: Path) -> str:
    """The class name of the buildpack repo2docker picks for ``folder``: its own ``detect()``, in its own order."""
    code = (
        "import os, sys\n"
        "from repo2docker.app import Repo2Docker\n"
        "os.chdir(sys.argv[1])\n"
        "app = Repo2Docker()\n"
        "for bp in app.buildpacks:\n"
        "    if bp(base_image=app.base_image).detect():\n"
        "        print(bp.__name__); break\n"
        "else:\n"
        "    print('none')\n"
    )
    done = subprocess.run([str(python), "-c", code, str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        raise ToolMissing(f"repo2docker's buildpack detection failed: {done.stderr.strip()[-400:]}")
    return done.stdout.strip()


def dry_run(python: Path, folder: Path, options: list[str]) -> tuple[str, str]:
    """(Dockerfile, log) of ``jupyter-repo2docker OPTIONS --no-build FOLDER``: no engine, no image."""
    command = [str(python.parent / "jupyter-repo2docker"), *options, "--no-build", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise ToolMissing(f"{' '.join(command)} failed (exit {done.returncode}): {done.stderr.strip()[-800:]}")
    return done.stdout, done.stderr


def pinned_python(folder: Path) -> str | None:
    """The ``python=X.Y`` environment.yml pins (None without one)."""
    path = folder / "environment.yml"
    if not path.is_file():
        return None
    match = re.search(r"^\s*-\s*python\s*=\s*([0-9.]+)", path.read_text(encoding="utf-8"), re.MULTILINE)
    return match.group(1) if match else None


def problems_in(dockerfile: str, buildpack: str, log: str, python: str | None) -> list[str]:
    """What in repo2docker's Dockerfile (and its log, its buildpack) is not what the course relies on."""
    problems = []
    if buildpack != "CondaBuildPack":
        problems.append(f"repo2docker picks {buildpack}, not the conda buildpack (environment.yml): is there a "
                        "Dockerfile, a binder/ folder or no environment.yml?")
    if python and f"Building conda environment for python={python}" not in log:
        problems.append(f"repo2docker does not build the conda environment for python={python} (environment.yml)")
    copy, update, post = COPY_REPO.search(dockerfile), ENV_UPDATE.search(dockerfile), RUN_POSTBUILD.search(dockerfile)
    if not copy:
        problems.append("the repository is not copied into the image (COPY ... src/ ${REPO_DIR}/)")
    if not update:
        problems.append('environment.yml is not installed (mamba env update ... --file "environment.yml")')
    if copy and update and copy.start() > update.start():
        problems.append("environment.yml is installed before the repository is copied: its '-e .' would fail")
    if not post:
        problems.append("postBuild is not run (RUN ./postBuild)")
    else:
        if update and post.start() < update.start():
            problems.append("postBuild runs before environment.yml is installed")
        users = [m.group(1) for m in USER_LINE.finditer(dockerfile, 0, post.start())]
        if not users or users[-1] != "${NB_USER}":
            problems.append(f"postBuild runs as {users[-1] if users else 'root'}, not as the notebook user")
    return problems


def check(folder: Path = ROOT, options: list[str] | None = None) -> tuple[str, list[str]]:
    """(buildpack, problems) of repo2docker's reading of ``folder`` with ``options`` (default: IMAGE_OPTIONS)."""
    python = ensure_repo2docker()
    buildpack = detect_buildpack(python, folder)
    dockerfile, log = dry_run(python, folder, IMAGE_OPTIONS if options is None else options)
    return buildpack, problems_in(dockerfile, buildpack, log, pinned_python(folder))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT), help="the repository to check (default: this one)")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="after --: repo2docker options")
    args = parser.parse_args(argv)
    options = [o for o in args.options if o != "--"] or None
    try:
        buildpack, problems = check(Path(args.folder), options)
    except ToolMissing as missing:
        print(f"check_binder: ERROR: {missing}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"check_binder: {problem}")
    if problems:
        return 1
    pin = re.search(r"^jupyter-repo2docker==(\S+)", PINS.read_text(), re.MULTILINE)
    print(f"check_binder: repo2docker {pin.group(1) if pin else '?'} (--no-build) picks {buildpack}, installs "
          "environment.yml after copying the repository and runs postBuild as the notebook user")
    return 0


if __name__ == "__main__":
    sys.exit(main())
