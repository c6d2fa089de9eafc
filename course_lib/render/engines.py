"""Layout engines: positions for a DOT text, in process with pygraphviz (a few ms), else with the ``dot`` program.

Positions are cached per DOT text, so a step, a new value or a second drawing of the same structure never lays out
again and never moves a node. When neither engine works, :func:`layout` says why instead of raising.

>>> geo, reasons = layout('digraph g { a -> b }')
>>> sorted(geo.nodes) if geo else reasons[:0]
['a', 'b']
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, say
from ..i18n import gettext as _
from ..i18n.stderr import quiet_stderr

__all__ = [
    "ENGINES",
    "NO_LAYOUT",
    "NO_LAYOUT_OUTPUT",
    "Geometry",
    "LayoutUnavailable",
    "clear_cache",
    "layout",
    "missing",
    "quiet_stderr_once",
]

NO_LAYOUT = N_("Graphviz could not lay this graph out")
NO_LAYOUT_OUTPUT = N_("Graphviz could not write the layout (error {error})")


@dataclass
class Geometry:
    """Positions read back from Graphviz, in Graphviz points (y up)."""

    bb: tuple[float, float, float, float]
    nodes: dict[str, tuple[float, float, float, float]]  # key -> x, y, width, height
    edges: dict[tuple[str, str], tuple[list[tuple[float, float]], tuple[float, float] | None]]
    clusters: list[tuple[str, tuple[float, float, float, float], tuple[float, float] | None]]  # label, bb, lp
    engine: str


class LayoutUnavailable(RuntimeError):
    """Neither pygraphviz nor the ``dot`` program could lay the graph out."""


def _floats(s: str) -> list[float]:
    return [float(v) for v in s.replace(",", " ").split()]


def _spline(pos: str) -> tuple[list[tuple[float, float]], tuple[float, float] | None]:
    end = None
    pts: list[tuple[float, float]] = []
    for tok in pos.split(";")[0].split():
        if tok.startswith("e,"):
            x, y = tok[2:].split(",")
            end = (float(x), float(y))
        elif tok.startswith("s,"):
            continue
        else:
            x, y = tok.split(",")[:2]
            pts.append((float(x), float(y)))
    return pts, end


_fontconfig_quieted = False
#: What the Graphviz libraries bundled in pygraphviz wheels print on first use: an older fontconfig's harmless
#: "Fontconfig warning ... reset-dirs". ipykernel forwards C-level stderr into the notebook, where it would look like
#: an error (and break nbval); anything else written there is passed on.
FONTCONFIG_NOISE = (re.compile(r"Fontconfig"),)


@contextlib.contextmanager
def quiet_stderr_once() -> Iterator[None]:
    """Swallow the fontconfig notice of the first in-process layout (later layouts print nothing)."""
    global _fontconfig_quieted
    if _fontconfig_quieted:
        yield
        return
    _fontconfig_quieted = True
    with quiet_stderr(FONTCONFIG_NOISE):
        yield


def _geometry_from_json(data: dict[str, Any], engine: str) -> Geometry:
    """Positions from Graphviz's ``-Tjson`` output (the same for pygraphviz and the ``dot`` program)."""
    objects = data.get("objects", [])
    names = {o["_gvid"]: o["name"] for o in objects}
    nodes, clusters = {}, []
    for o in objects:
        if "nodes" in o or "subgraphs" in o or "edges" in o:  # a cluster
            if "bb" in o:
                lp = o.get("lp")
                clusters.append((o.get("label", ""), tuple(_floats(o["bb"])), tuple(_floats(lp)[:2]) if lp else None))
        elif "pos" in o:
            x, y = _floats(o["pos"])[:2]
            nodes[o["name"]] = (x, y, float(o["width"]) * 72, float(o["height"]) * 72)
    # a parent cluster is bigger than its children: drawing by decreasing area puts children on top
    clusters.sort(key=lambda c: -(c[1][2] - c[1][0]) * (c[1][3] - c[1][1]))
    edges = {}
    for e in data.get("edges", []):
        if "pos" in e:
            edges[(names[e["tail"]], names[e["head"]])] = _spline(e["pos"])
    return Geometry(tuple(_floats(data["bb"])), nodes, edges, clusters, engine)  # type: ignore[arg-type]


_GVC: Any = None  # one Graphviz context for the process: creating one loads every plugin (~1-2 ms per layout)


def _layout_pygraphviz(dot: str) -> Geometry:
    import pygraphviz  # imported here so a missing package (or a test's simulation of it) only skips this engine
    from pygraphviz import graphviz as gv

    global _GVC
    with quiet_stderr_once():
        graph = pygraphviz.AGraph(string=dot)
        if _GVC is None:
            _GVC = gv.gvContextWithBuiltins()
        if gv.gvLayout(_GVC, graph.handle, b"dot") != 0:
            raise RuntimeError(say(NO_LAYOUT))
        try:
            # positions as JSON in the same C call: reading them back through pygraphviz's attribute objects cost
            # more than the layout (2,300 attribute objects for a 100-node graph)
            err, out = gv.gvRenderData(_GVC, graph.handle, b"json0")
        finally:
            gv.gvFreeLayout(_GVC, graph.handle)
    if err:
        raise RuntimeError(say(NO_LAYOUT_OUTPUT, error=err))
    return _geometry_from_json(json.loads(out.decode("utf-8")), "pygraphviz")


def _layout_dot_program(dot: str) -> Geometry:
    import graphviz  # the Python package; it runs the `dot` program and raises ExecutableNotFound without it

    data = json.loads(graphviz.Source(dot).pipe(format="json0", engine="dot").decode("utf-8"))
    return _geometry_from_json(data, "dot program")


#: (name, engine) in the order tried; a name is shown in the reasons a layout failed (translated there)
ENGINES = (("pygraphviz", _layout_pygraphviz), (N_("dot program"), _layout_dot_program))
_LAYOUTS: OrderedDict[str, Geometry] = OrderedDict()
_CACHE_SIZE = 64


def clear_cache() -> None:
    """Forget every layout (tests use it; nothing else needs to)."""
    _LAYOUTS.clear()


def missing(reason: str) -> bool:
    """Does a reason of :func:`layout` say an engine is not installed (rather than that it refused the graph)?"""
    return any(w in reason for w in ("ImportError", "ModuleNotFoundError", "ExecutableNotFound", "FileNotFoundError"))


def layout(dot: str) -> tuple[Geometry | None, list[str]]:
    """Positions for a DOT text, from the cache or the first engine that works; (None, reasons) if none does."""
    geo = _LAYOUTS.get(dot)
    if geo is not None:
        _LAYOUTS.move_to_end(dot)
        return geo, []
    reasons = []
    for name, engine in ENGINES:
        try:
            geo = engine(dot)
        except Exception as exc:  # noqa: BLE001 - ImportError, ExecutableNotFound, a Graphviz error: next engine
            first = str(exc).strip().splitlines()[0] if str(exc) else ""
            reasons.append(f"{_(name)}: {type(exc).__name__}: {first}")
            continue
        _LAYOUTS[dot] = geo
        if len(_LAYOUTS) > _CACHE_SIZE:
            _LAYOUTS.popitem(last=False)
        return geo, reasons
    return None, reasons
