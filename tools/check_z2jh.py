"""Validate a Zero to JupyterHub ``config.yaml`` as helm would: the chart's defaults merged with it, then the schema.

    .venv/bin/python tools/check_z2jh.py [CONFIG]            (default: deploy/z2jh/config.yaml)
    .venv/bin/python tools/check_z2jh.py --chart DIR CONFIG  (DIR holds the chart's values.schema.yaml and values.yaml)

``helm install/upgrade -f config.yaml`` does not validate the user's file alone: it first *coalesces* the chart's
``values.yaml`` with it (the user's values win; tables are merged key by key; a user ``null`` deletes the chart's
key; a list or a scalar replaces what was there), then validates the result against the chart's JSON schema
(``values.schema.json``, made from ``values.schema.yaml``). Zero to JupyterHub's schema ``require``s its top-level
sections and says ``additionalProperties: false`` almost everywhere, so a misspelt key (``singleuser.memmory``) or a
wrong type (``cpu.limit: "two"``) makes helm refuse the install. This tool does the same two steps here, where no
helm and no cluster exist, and prints every error with the dotted key, the line of CONFIG it comes from, and what the
schema allows. Example::

    >>> merged = coalesce({"a": {"b": 1, "c": 2}, "d": [1]}, {"a": {"b": 5, "c": None}, "d": [2, 3]})
    >>> merged
    {'a': {'b': 5}, 'd': [2, 3]}

The chart's two files are data from its public repository (tag 4.4.0, the chart whose hub pins JupyterHub 5.5.0;
the course pins the same minor). No package on PyPI or npm ships them, so they are kept outside the repository:
``--chart DIR``, else ``$COURSE_Z2JH_CHART``, else ``shared/z2jh-4.4.0`` beside the checkout. Their sha256 are
pinned below: another version of the chart is refused, saying so.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import yaml

# jsonschema imports rfc3987_syntax only to check the "iri" format, and that import builds a grammar (1.6 s of CPU
# here): no format is checked (helm checks none of the chart's either), so it is kept out while jsonschema loads.
_BLOCKED = "rfc3987_syntax" not in sys.modules
if _BLOCKED:
    sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]
import jsonschema  # noqa: E402

if _BLOCKED:
    del sys.modules["rfc3987_syntax"]

# libyaml's loader when PyYAML has it: the schema is 3,000 lines
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "z2jh" / "config.yaml"
CHART_VERSION = "4.4.0"
CHART_ENV = "COURSE_Z2JH_CHART"
DEFAULT_CHART_DIR = ROOT.parent / "shared" / f"z2jh-{CHART_VERSION}"
#: sha256 of the chart's files at tag 4.4.0 (commit 5c5f5df751588a68a7781ead01d0f62e88e2e72f).
CHART_FILES = {
    "values.schema.yaml": "1d9d48ee343efda1140edfc3de4d8ec4113ae9173bf9e44b83f19c2ca335a0dc",
    "values.yaml": "d61742ce43e33262bb8fa0d68b6b9e7a7b229a3c7ce6d5a08cf97788c0ba796b",
}
WHERE_TO_GET = (
    "copy jupyterhub/values.schema.yaml and jupyterhub/values.yaml of the chart's repository "
    f"(github.com/jupyterhub/zero-to-jupyterhub-k8s) at tag {CHART_VERSION} into {DEFAULT_CHART_DIR}, or into a "
    f"folder named by --chart DIR or ${CHART_ENV} (e.g. git -C z2jh-clone show "
    f"{CHART_VERSION}:jupyterhub/values.schema.yaml > DIR/values.schema.yaml, the same for values.yaml)"
)


class ChartMissing(Exception):
    """The chart's schema or defaults are not where they were looked for (the message says where to put them)."""


class ChartDiffers(ChartMissing):
    """A file is there but is not the pinned chart's (its sha256 differs): a wrong or damaged copy."""


def chart_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The folder holding the chart's files: ``explicit``, else ``$COURSE_Z2JH_CHART``, else the default."""
    if explicit:
        return Path(explicit)
    if os.environ.get(CHART_ENV):
        return Path(os.environ[CHART_ENV])
    return DEFAULT_CHART_DIR


def load_chart(directory: str | os.PathLike | None = None) -> tuple[dict, dict]:
    """(schema, default values) of the chart 4.4.0, each file checked against its pinned sha256."""
    folder = chart_dir(directory)
    loaded = []
    for name, digest in CHART_FILES.items():
        path = folder / name
        if not path.is_file():
            raise ChartMissing(f"the Zero to JupyterHub chart's {name} is not in {folder}. To do: {WHERE_TO_GET}.")
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != digest:
            raise ChartDiffers(
                f"{path} is not the chart {CHART_VERSION}'s {name} (its sha256 differs). To do: {WHERE_TO_GET}."
            )
        loaded.append(yaml.load(data, Loader=_LOADER))
    return loaded[0], loaded[1]


def coalesce(defaults: dict, user: dict) -> dict:
    """Helm's merge of a chart's values with the user's (``chartutil.CoalesceValues``), on copies.

    The user's value wins; where both are tables they are merged key by key; a user ``null`` removes the chart's key
    (a ``null`` under a key the chart has no default for stays ``null``). Where one side is a table and the other is
    not, helm warns and keeps the user's value, as here.
    """
    merged = copy.deepcopy(user)
    for key, default in defaults.items():
        if key not in merged:
            merged[key] = copy.deepcopy(default)
        elif merged[key] is None:
            del merged[key]
        elif isinstance(merged[key], dict) and isinstance(default, dict):
            merged[key] = coalesce(default, merged[key])
    return merged


def _lines(config_text: str) -> dict[tuple, int]:
    """{key path: line number (1-based)} of every mapping key in a YAML text, for naming where an error is."""
    lines: dict[tuple, int] = {}

    def walk(node: yaml.Node, path: tuple) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                here = (*path, key.value)
                lines[here] = key.start_mark.line + 1
                walk(value, here)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                lines[(*path, index)] = item.start_mark.line + 1
                walk(item, (*path, index))

    root = yaml.compose(config_text)
    if root is not None:
        walk(root, ())
    return lines


def _dotted(path: tuple) -> str:
    return ".".join(str(part) for part in path) or "(top level)"


def _describe(error: jsonschema.ValidationError) -> Iterator[tuple[tuple, str]]:
    """(key path, what is wrong) for one schema error; an unknown key is named with its own path."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        patterns = error.schema.get("patternProperties", {})
        for key in sorted(error.instance, key=str):
            if key in allowed or any(re.search(p, key) for p in patterns):
                continue
            yield (*path, key), f"unknown key {key!r} (the chart allows here: {', '.join(sorted(allowed))})"
    elif error.validator == "required":
        yield path, f"{error.message} (the chart's default was removed by a null?)"
    else:
        yield path, f"{error.message} (schema: {error.validator} {error.validator_value!r})"


def check(config_text: str, chart: str | os.PathLike | None = None, source: str = "config.yaml") -> list[str]:
    """Every problem helm's schema check would find in ``config_text``, one line each (empty: it validates).

    Each line is ``SOURCE:LINE: dotted.key: what is wrong``; an error in a value the chart's defaults brought in
    (not in the user's file) says ``(chart default)`` instead of a line.
    """
    schema, defaults = load_chart(chart)
    user = yaml.safe_load(config_text)
    if user is None:
        user = {}
    if not isinstance(user, dict):
        return [f"{source}: the top level must be a mapping of the chart's sections, not {type(user).__name__}"]
    lines = _lines(config_text)
    validator = jsonschema.Draft7Validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(coalesce(defaults, user)), key=lambda e: [str(p) for p in e.path]):
        for path, what in _describe(error):
            # the deepest part of the path the user's file has names the line
            where = next((lines[path[:n]] for n in range(len(path), 0, -1) if path[:n] in lines), None)
            place = f"{source}:{where}" if where else f"{source} (chart default)"
            problems.append(f"{place}: {_dotted(path)}: {what}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", nargs="?", default=str(CONFIG), help="the config.yaml to check")
    parser.add_argument("--chart", help=f"folder with the chart's values.schema.yaml and values.yaml (${CHART_ENV})")
    args = parser.parse_args(argv)
    path = Path(args.config)
    if not path.is_file():
        print(f"check_z2jh: ERROR: {path} does not exist. To do: name the config.yaml to check.", file=sys.stderr)
        return 2
    try:
        problems = check(path.read_text(encoding="utf-8"), args.chart, source=str(path))
    except ChartMissing as missing:
        print(f"check_z2jh: ERROR: {missing}", file=sys.stderr)
        return 2
    except yaml.YAMLError as bad:
        print(f"check_z2jh: ERROR: {path} is not valid YAML: {bad}", file=sys.stderr)
        return 1
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_z2jh: {path} does not validate against the chart {CHART_VERSION}'s schema "
              f"({len(problems)} problem(s)): helm would refuse it.", file=sys.stderr)
        return 1
    print(f"check_z2jh: {path} validates against the Zero to JupyterHub chart {CHART_VERSION}'s values schema "
          "(merged with the chart's defaults, as helm does)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
