"""The pip path (requirements.txt) and the conda/Binder path (environment.yml) must install the same course.

Fails when a package is in one file and not the other, when their pins differ, when a line has no comment
saying what uses it, or when the start page's environment check expects other versions than the files pin.
Both files are parsed line by line (one package per line is part of their format), so no YAML library is needed.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: PyPI name -> conda-forge name, where they differ.
PIP_TO_CONDA = {
    "torch": "pytorch-cpu",  # the CPU-only build (conda-forge's "pytorch" may pick CUDA where a GPU is present)
    "graphviz": "python-graphviz",  # on conda-forge "graphviz" is the C library and dot program
    "matplotlib": "matplotlib-base",  # matplotlib without the Qt GUI stack
}
CONDA_TO_PIP = {conda: pip for pip, conda in PIP_TO_CONDA.items()}
#: Conda-only lines: the interpreter, pip itself, and the Graphviz binaries conda's pygraphviz links against.
CONDA_ONLY = {"python", "pip", "graphviz"}


def normalize(name: str) -> str:
    """PEP 503 normalized name: 'jupyterlab_widgets' and 'JupyterLab-Widgets' are one package."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_requirements(text: str) -> dict[str, str]:
    """{normalized name: pin} of a requirements file whose every requirement is 'name==version  # why'."""
    pins: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9_.\-]*)==([^\s;]+)", line)
        assert match, f"requirements.txt line {number} is not an exact pin 'name==version': {raw!r}"
        assert "#" in raw and raw.split("#", 1)[1].strip(), f"requirements.txt line {number} has no comment: {raw!r}"
        name = normalize(match.group(1))
        assert name not in pins, f"requirements.txt lists {name} twice"
        pins[name] = match.group(2)
    return pins


def parse_environment(text: str) -> tuple[dict[str, str | None], dict[str, str], list[str]]:
    """(conda {name: pin or None}, pip-section {name: pin}, pip-section other lines such as '-e .').

    Expects the layout of environment.yml: a top-level 'dependencies:' list, one '- spec  # comment' per line,
    and one nested '- pip:' list. Every package line must carry a comment saying what uses it.
    """
    conda: dict[str, str | None] = {}
    pip: dict[str, str] = {}
    pip_other: list[str] = []
    section = None
    for number, raw in enumerate(text.splitlines(), 1):
        code, _, comment = raw.partition("#")
        stripped = code.strip()
        if not stripped:
            continue
        indent = len(code) - len(code.lstrip())
        if indent == 0:
            section = "dependencies" if stripped == "dependencies:" else None
            continue
        if section is None:
            continue
        if stripped == "- pip:":
            section = "pip"
            continue
        assert stripped.startswith("- "), f"environment.yml line {number}: expected '- package': {raw!r}"
        assert comment.strip(), f"environment.yml line {number} has no comment saying what uses it: {raw!r}"
        spec = stripped[2:].strip()
        if section == "pip" and indent > 4:
            match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9_.\-]*)==(\S+)", spec)
            if match:
                pip[normalize(match.group(1))] = match.group(2)
            else:
                pip_other.append(spec)
            continue
        section = "dependencies"  # back at the conda list after the pip block
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9_.\-]*)\s*(?:={1,2}\s*(\S+))?", spec)
        assert match, f"environment.yml line {number}: cannot read the conda spec {spec!r}"
        conda[normalize(match.group(1))] = match.group(2)
    return conda, pip, pip_other


def conda_as_pip(conda: dict[str, str | None], pip_section: dict[str, str]) -> dict[str, str | None]:
    """The environment file's packages under their PyPI names (conda-only lines dropped)."""
    packages: dict[str, str | None] = {}
    for name, pin in conda.items():
        if name in CONDA_ONLY:
            continue
        packages[CONDA_TO_PIP.get(name, name)] = pin
    for name, pin in pip_section.items():
        assert name not in packages, f"environment.yml lists {name} both as a conda package and in its pip section"
        packages[name] = pin
    return packages


def drift(requirements: dict[str, str], environment: dict[str, str | None]) -> list[str]:
    """Human-readable differences between the two package sets (empty when they agree)."""
    problems = []
    for name in sorted(set(requirements) - set(environment)):
        conda_name = PIP_TO_CONDA.get(name, name)
        problems.append(f"{name} is in requirements.txt but not in environment.yml (conda-forge name: {conda_name})")
    for name in sorted(set(environment) - set(requirements)):
        problems.append(f"{name} is in environment.yml but not in requirements.txt")
    for name in sorted(set(requirements) & set(environment)):
        if environment[name] != requirements[name]:
            problems.append(
                f"{name}: requirements.txt pins {requirements[name]}, environment.yml pins {environment[name]}"
            )
    return problems


@pytest.fixture(scope="module")
def requirements() -> dict[str, str]:
    return parse_requirements((ROOT / "requirements.txt").read_text())


@pytest.fixture(scope="module")
def environment() -> tuple[dict[str, str | None], dict[str, str], list[str]]:
    return parse_environment((ROOT / "environment.yml").read_text())


def test_same_packages_and_pins(requirements, environment) -> None:
    conda, pip_section, _ = environment
    problems = drift(requirements, conda_as_pip(conda, pip_section))
    assert not problems, "requirements.txt and environment.yml drifted apart:\n" + "\n".join(problems)


def test_environment_uses_conda_forge_python_311_and_installs_course_lib(environment) -> None:
    conda, _, pip_other = environment
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"^channels:\n  - conda-forge$", text, re.MULTILINE), "conda-forge must be the channel"
    assert conda.get("python") == "3.11"
    assert "pip" in conda and "graphviz" in conda, "pip (for course_lib) and the graphviz binaries are needed"
    assert "-e ." in pip_other, "course_lib must be installed from the checkout (pip: -e .)"


def test_python_pin_agrees_with_pyproject(environment) -> None:
    """The one minor version pyproject.toml allows (>=3.X,<3.X+1) is the one environment.yml installs."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    match = re.fullmatch(r">=3\.(\d+),<3\.(\d+)", requires.replace(" ", ""))
    assert match and int(match.group(2)) == int(match.group(1)) + 1, f"requires-python {requires!r}: one minor version"
    assert environment[0]["python"] == f"3.{match.group(1)}"


def test_drift_is_detected() -> None:
    """The checker itself: a package on one side only, and a different pin, are both reported."""
    req = parse_requirements("numpy==2.3.5  # x\ntorch==2.13.0  # y\nrich==14.0.0  # only here\n")
    env = conda_as_pip(
        *parse_environment(
            "dependencies:\n  - python=3.11  # a\n  - numpy=2.3.4  # b\n  - pytorch-cpu=2.13.0  # c\n"
            "  - pandas=2.3.0  # only here\n"
        )[:2]
    )
    assert drift(req, env) == [
        "rich is in requirements.txt but not in environment.yml (conda-forge name: rich)",
        "pandas is in environment.yml but not in requirements.txt",
        "numpy: requirements.txt pins 2.3.5, environment.yml pins 2.3.4",
    ]


def test_lines_without_comment_are_rejected() -> None:
    with pytest.raises(AssertionError, match="no comment"):
        parse_environment("dependencies:\n  - numpy=2.3.5\n")
    with pytest.raises(AssertionError, match="no comment"):
        parse_requirements("numpy==2.3.5\n")
