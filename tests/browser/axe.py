"""axe-core, the standard accessibility engine, run inside a Playwright page (issue 27).

The pinned ``axe.min.js`` (site_tools/package.json, installed by ``npm ci`` in site_tools/, which ``./course test``
and ``./course site`` run) is injected into the page as a script tag from the file, so it works the same in
JupyterLab and in the static site, which never serves it. :func:`run` asks for the WCAG 2.0/2.1 A and AA rules and
the best-practice ones, and returns the violations as plain data; only WCAG A/AA violations of impact serious or
critical fail a test (:func:`failing`), the rest are reported.

>>> counts([{"rule": "button-name", "impact": "critical", "wcag": True, "nodes": [{}, {}]},
...         {"rule": "region", "impact": "moderate", "wcag": False, "nodes": [{}]}])
{'critical': 2, 'serious': 0, 'moderate': 0, 'minor': 0, 'rules': {'button-name': 2}, 'best_practice': {'region': 1}}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "site_tools" / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.0 and 2.1, levels A and AA: what the course must meet (issue 27)
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
IMPACTS = ("critical", "serious", "moderate", "minor")
#: what fails a test: a WCAG A/AA violation of these impacts
FAILING = ("critical", "serious")
HTML_CHARS = 240  # an element's html is trimmed to this: enough to recognise it in a message
NODES_KEPT = 12  # nodes kept per rule (the count keeps them all)

# In the page: axe.run on the context (null: the whole document), violations only, each node's element asked for
# whether it lies inside ``course`` (a selector: the course's outputs) so a caller can tell whose it is.
RUN = """async ([context, tags, course, htmlChars, kept]) => {
  const r = await axe.run(context || document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
                                                elementRef: true});
  return {version: axe.version, violations: r.violations.map(v => ({
    rule: v.id, impact: v.impact, help: v.help, url: v.helpUrl,
    wcag: v.tags.some(t => /^wcag2(1)?aa?$/.test(t)),
    count: v.nodes.length,
    nodes: v.nodes.slice(0, kept).map(n => ({
      target: n.target.map(t => Array.isArray(t) ? t.join(' >>> ') : t),
      html: n.html.slice(0, htmlChars),
      summary: (n.failureSummary || '').slice(0, 400),
      course: !!(course && n.element && n.element.closest && n.element.closest(course)),
    })),
    // every node, for the caller's split by whose it is (the kept ones above carry the details)
    inCourse: course ? v.nodes.filter(n => n.element && n.element.closest && n.element.closest(course)).length : 0,
  }))};
}"""


class AxeMissing(RuntimeError):
    """axe-core is not installed in site_tools/node_modules."""


def require_axe() -> Path:
    """The path of ``axe.min.js``; :class:`AxeMissing`, saying the command, when it is not installed."""
    if not AXE_JS.is_file():
        raise AxeMissing(f"{AXE_JS.relative_to(ROOT)} is missing: axe-core (pinned in site_tools/package.json) is "
                         "not installed. Run: cd site_tools && npm ci (./course test and ./course site run it when "
                         "the lock file changed)")
    return AXE_JS


def require_axe_or_fail() -> Path:
    """:func:`require_axe` in a test: a missing axe-core fails it with the command that installs it."""
    import pytest

    try:
        return require_axe()
    except AxeMissing as e:
        pytest.fail(str(e))


def inject(page: Any) -> str:
    """Load axe-core into ``page`` (once; a page loaded anew needs it again) and return its version."""
    if not page.evaluate("() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.add_script_tag(path=str(require_axe()))
    return page.evaluate("() => axe.version")


def run(page: Any, context: Any = None, course: str | None = None, best_practice: bool = True) -> dict[str, Any]:
    """axe-core's violations in ``page`` within ``context`` (an element handle or a selector; None: the document).

    Returns ``{"version": "4.14.1", "violations": [{"rule", "impact", "help", "url", "wcag", "count", "nodes":
    [{"target", "html", "summary", "course"}], "inCourse"}]}``; ``wcag`` is True for a WCAG 2.0/2.1 A/AA rule, False
    for a best-practice one; ``course`` (a selector) marks the nodes inside it.
    """
    inject(page)
    tags = WCAG_TAGS + (["best-practice"] if best_practice else [])
    if isinstance(context, str):
        context = page.query_selector(context)
        if context is None:
            raise AssertionError(f"axe: no element matches the context {context!r}")
    return page.evaluate(RUN, [context, tags, course, HTML_CHARS, NODES_KEPT])


def failing(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations that fail a test: WCAG A/AA rules of impact serious or critical."""
    return [v for v in violations if v["wcag"] and v["impact"] in FAILING]


def counts(violations: list[dict[str, Any]]) -> dict[str, Any]:
    """The WCAG violations' nodes counted by impact and by rule; best-practice ones apart (they fail nothing)."""
    out: dict[str, Any] = {i: 0 for i in IMPACTS}
    out["rules"], out["best_practice"] = {}, {}
    for v in violations:
        n = v.get("count", len(v["nodes"]))
        if v["wcag"]:
            out[v["impact"] or "minor"] += n
            out["rules"][v["rule"]] = out["rules"].get(v["rule"], 0) + n
        else:
            out["best_practice"][v["rule"]] = out["best_practice"].get(v["rule"], 0) + n
    return out


def describe(violations: list[dict[str, Any]], where: str) -> str:
    """The violations in words, one rule a paragraph: rule, impact, what it asks, each element (target and html)."""
    lines = []
    for v in violations:
        lines.append(f"{where}: {v['rule']} ({v['impact']}, {v.get('count', len(v['nodes']))} element(s)): "
                     f"{v['help']} [{v['url']}]")
        for n in v["nodes"][:4]:
            lines.append(f"    {' '.join(n['target'])}: {n['html']}")
    return "\n".join(lines)


class Results:
    """Counts per page (or widget kind) written to ``test-artifacts/browser/axe-<name>.json`` after each row."""

    def __init__(self, path: Path) -> None:
        self.path, self.version, self.rows = path, None, {}

    def add(self, where: str, result: dict[str, Any]) -> list[dict[str, Any]]:
        """Record ``result`` (axe.run's) as the row ``where``; return its failing violations."""
        self.version = result["version"]
        self.rows[where] = {**counts(result["violations"]), "violations": result["violations"]}
        self.path.write_text(json.dumps({"axe": self.version, "rows": self.rows}, indent=1, ensure_ascii=False))
        return failing(result["violations"])


#: JupyterLab 4.6.6's own violations, outside the course's outputs: rule -> what and why it is not ours (strict)
JUPYTERLAB_OWN: dict[str, str] = {
    "aria-allowed-attr": "the file browser's and the notebook toolbar's <jp-button> (Upload Files, Toggle File "
                         "Filter, Enable Debugger) carry aria-pressed, which their role does not allow: JupyterLab's "
                         "toolbar, built by @jupyter/web-components",
    "aria-input-field-name": "each code cell's CodeMirror editor (div.cm-content, role textbox) has no accessible "
                             "name: JupyterLab's notebook editor, around the cells we wrote",
    "aria-required-children": "the notebook's cell list (div.jp-WindowedPanel-viewport, role feed, 'Cells') holds "
                              "cells that are not role article: JupyterLab's notebook panel",
}
#: the course's outputs in a page (JupyterLab's and the static site's): what is not inside one is the frame's
OUTPUTS = ".jp-OutputArea-output"
WIDGET_OUTPUT = ".jp-OutputArea-output:has(> .jupyter-widgets)"  # JupyterLab's widget outputs
# In the page: resolves after two animation frames, by when the course's enhancer (which works once per frame on
# what changed) has named the controls just drawn
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
