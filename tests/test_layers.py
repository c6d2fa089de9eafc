"""The layers of course_lib, read from the source with ``ast`` (docs/ARCHITECTURE.md explains them).

* the core (graph, ops, static, dynamic, trace, expr, programs, measure) imports no view, adapters or lessons;
* static and dynamic never import each other (each stands alone; both read the op table);
* render imports no widgets or lessons; widgets import no lessons; the view (render, widgets) imports no adapters;
* adapters import only the core (and each other); every part may import ``i18n`` (standard library only);
* nothing outside lessons imports lessons;
* no module imports another part's private ``_names``;
* sizes: no module over 600 lines, no core or view function over 60 lines, at most 14 entries at the top level
  (``__init__``, the core, the view, adapters, lessons, and the languages: the package ``i18n/`` with its catalogues).

Every import counts, including the lazy ones inside functions. The checker is tested on a small package built
in a temporary folder, where each rule is broken once, so the test on the real package can fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "course_lib"

CORE = {"graph", "ops", "static", "dynamic", "trace", "expr", "programs", "measure"}
VIEW = {"render", "widgets"}
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
MAX_TOP_LEVEL = 14


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _part(module: str) -> str:
    """'course_lib.static.compile' -> 'static'; the package itself -> '__init__'."""
    bits = module.split(".")
    return bits[1] if len(bits) > 1 else "__init__"


def _imports(path: Path, root: Path) -> list[tuple[str, str, int]]:
    """(imported module, imported name or '', line) for every import of the file, lazy ones included."""
    here = _module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, "", node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                sub = root.parent.joinpath(*f"{target}.{a.name}".split("."))
                is_module = sub.with_suffix(".py").exists() or (sub / "__init__.py").exists()
                found.append((f"{target}.{a.name}", "", node.lineno) if is_module else (target, a.name, node.lineno))
    return [(m, n, line) for m, n, line in found if m.split(".")[0] == root.name]


def _allowed(src: str, dst: str) -> str | None:
    """Why ``src`` may not import ``dst`` (part names), or None if it may."""
    if src == dst or dst in ("__init__", "i18n"):  # i18n: the languages, standard library only, for every part
        return None
    if dst == "lessons" and src != "lessons":
        return "nothing outside lessons imports lessons"
    if src in CORE and (dst in VIEW or dst == "adapters"):
        return "the core imports no view or adapters"
    if {src, dst} == {"static", "dynamic"}:
        return "static and dynamic never import each other"
    if src == "render" and dst == "widgets":
        return "render imports no widgets"
    if src in VIEW and dst == "adapters":
        return "the view imports no adapters"
    if src == "adapters" and dst not in CORE:
        return "adapters import only the core"
    return None


def violations(root: Path) -> list[str]:
    """Every broken layering rule in the package at ``root``, as 'file:line: rule (imports x)'."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        src = _part(_module_name(path, root))
        for module, name, line in _imports(path, root):
            dst = _part(module)
            where = f"{path.relative_to(root.parent)}:{line}"
            why = _allowed(src, dst)
            if why:
                problems.append(f"{where}: {why} (imports {module})")
            if name.startswith("_") and not name.startswith("__") and src != dst:
                problems.append(f"{where}: imports the private name {name} of {module}")
    return problems


def oversized(root: Path) -> list[str]:
    """Modules over the line limit anywhere; core and view functions over theirs."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(root.parent)
        if text.count("\n") > MAX_MODULE_LINES:
            problems.append(f"{rel}: {text.count(chr(10))} lines (limit {MAX_MODULE_LINES}: split it into a package)")
        if _part(_module_name(path, root)) not in CORE | VIEW:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1  # type: ignore[operator]
                if length > MAX_FUNCTION_LINES:
                    problems.append(f"{rel}:{node.lineno}: {node.name} has {length} lines "
                                    f"(limit {MAX_FUNCTION_LINES})")
    return problems


# ---------------------------------------------------------------------- the real package
def test_course_lib_keeps_its_layers() -> None:
    assert violations(PACKAGE) == []


def test_no_module_or_function_is_too_long() -> None:
    assert oversized(PACKAGE) == []


def top_level(root: Path) -> list[str]:
    """The package's top-level entries (modules and sub-packages), as 'N entries (limit M): names' when over the
    limit, else an empty list."""
    entries = sorted(p.name for p in root.iterdir() if p.name != "__pycache__" and not p.name.startswith("."))
    if len(entries) <= MAX_TOP_LEVEL:
        return []
    why = f"{root.name}/ has {len(entries)} top-level entries (limit {MAX_TOP_LEVEL}: move one into the part it serves)"
    return [f"{why}: {', '.join(entries)}"]


def test_the_top_level_is_the_core_and_the_view() -> None:
    assert top_level(PACKAGE) == []
    entries = {p.name for p in PACKAGE.iterdir()}
    assert {"adapters", "lessons", "ops", "graph.py", "i18n"} <= entries


# ---------------------------------------------------------------------- the checker itself can fail
def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "course_lib"
    for rel, text in {"__init__.py": "", **files}.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in {p.parent for p in root.rglob("*.py")}:
        (folder / "__init__.py").touch()
    return root


@pytest.mark.parametrize(("files", "expected"), [
    ({"static/build.py": "from ..dynamic import Tensor\n", "dynamic.py": ""}, "never import each other"),
    ({"dynamic.py": "def f():\n    from . import static\n", "static/__init__.py": ""}, "never import each other"),
    ({"graph.py": "from .render import draw\n", "render.py": ""}, "core imports no view"),
    ({"trace.py": "import course_lib.adapters.torch\n", "adapters/torch.py": ""}, "core imports no view"),
    ({"render.py": "from .widgets import Stepper\n", "widgets.py": ""}, "render imports no widgets"),
    ({"render/engines.py": "def f():\n    from ..adapters.quiet import quiet_stderr\n", "adapters/quiet.py": ""},
     "the view imports no adapters"),
    ({"widgets/base.py": "import course_lib.adapters.loader\n", "adapters/loader.py": ""},
     "the view imports no adapters"),
    ({"widgets/base.py": "from ..lessons import trees\n", "lessons/trees.py": ""}, "outside lessons"),
    ({"adapters/torch.py": "from ..render import draw\n", "render.py": ""}, "adapters import only the core"),
    ({"widgets.py": "from .static.compile import _step\n", "static/compile.py": ""}, "private name _step"),
])
def test_the_checker_finds_each_broken_rule(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    found = violations(_package(tmp_path, files))
    assert len(found) == 1 and expected in found[0], found


def test_the_checker_allows_what_the_layers_allow(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "static/autodiff.py": "from .build import _helper\nfrom .. import ops as _ops\n",
        "static/build.py": "", "ops.py": "", "dynamic.py": "from . import graph\n", "graph.py": "",
        "widgets/base.py": "from .. import render\n", "render.py": "from .graph import Graph\n",
        "lessons/fold.py": "from ..adapters import torch\nfrom .trees import _private_ok_within_lessons\n",
        "lessons/trees.py": "", "adapters/torch.py": "from ..static import build\n",
    })
    assert violations(root) == []


def test_a_fifteenth_top_level_entry_is_found(tmp_path: Path) -> None:
    names = [f"part{k}.py" for k in range(MAX_TOP_LEVEL - 1)]  # with __init__.py: exactly the limit
    root = _package(tmp_path, dict.fromkeys(names, ""))
    assert top_level(root) == []
    (root / "one_more.py").write_text("", encoding="utf-8")
    found = top_level(root)
    assert len(found) == 1 and f"has {MAX_TOP_LEVEL + 1} top-level entries (limit {MAX_TOP_LEVEL}" in found[0], found


def test_size_limits_are_measured(tmp_path: Path) -> None:
    long_body = "".join(f"    x{k} = {k}\n" for k in range(MAX_FUNCTION_LINES))
    root = _package(tmp_path, {"render.py": "def draw():\n" + long_body,
                               "lessons/big.py": "def fine():\n" + long_body + "\n" * MAX_MODULE_LINES})
    found = oversized(root)
    assert len(found) == 2, found
    assert any("lessons/big.py: 661 lines" in f for f in found) and any("draw has 61 lines" in f for f in found)
