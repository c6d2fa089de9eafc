"""Checks on the built site that need no browser: what a page would fetch from another host, and sizes.

A link a reader may follow (``<a href="https://stackoverflow.com/...">``) is not a request; what a page loads by
itself is: ``src`` of scripts, images, frames and media, ``href`` of style sheets and preloads, ``url(...)`` and
``@import`` in CSS, module ``import`` and absolute URLs written in inline scripts, and all of these in the HTML the
widget manager will put in the page from the saved widget state (an HTML widget's ``<img src>``).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

ABSOLUTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""", re.IGNORECASE)
JS_URL = re.compile(r"""['"`]((?:https?:)?//[^'"`\s]+)""")
LOADING_LINKS = {"stylesheet", "preload", "modulepreload", "prefetch", "icon", "manifest", "preconnect",
                 "dns-prefetch"}
# Scripts whose text is data, never run (widget state, views, MathJax config as JSON): not scanned for URLs.
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
DATA_SCRIPTS = {WIDGET_STATE, "application/vnd.jupyter.widget-view+json",
                "application/json", "application/ld+json"}


def is_external(url: str) -> bool:
    """A URL that names a host (``https://``, ``//cdn``): anything but a relative path or a data: URI."""
    return bool(ABSOLUTE.match(url.strip()))


class _Loads(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script: str | None = None  # type of the script being read, when it is code
        self._style = False
        self.widget_states: list[str] = []  # the saved widget state's JSON
        self._state = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for key in ("src", "data", "poster"):
            if key in a and tag in {"script", "img", "iframe", "embed", "object", "video", "audio", "source",
                                    "track", "input", "frame"}:
                self.found.append(a[key])
        if tag in {"img", "source"} and a.get("srcset"):
            self.found.extend(part.split()[0] for part in a["srcset"].split(",") if part.strip())
        if tag == "link" and LOADING_LINKS & set(a.get("rel", "").lower().split()):
            self.found.append(a.get("href", ""))
        if tag in {"image", "use", "feimage"}:  # inside inline SVG
            self.found.extend(v for k, v in a.items() if k in {"href", "xlink:href"})
        if "style" in a:
            self.found.extend(m.group(1) or m.group(2) for m in CSS_URL.finditer(a["style"]))
        if tag == "script":
            kind = a.get("type", "").lower()
            self._script = None if kind in DATA_SCRIPTS or kind.startswith("text/x-") else kind or "js"
            self._state = kind == WIDGET_STATE
        self._style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script, self._state = None, False
        if tag == "style":
            self._style = False

    def handle_data(self, data: str) -> None:
        if self._state:
            self.widget_states.append(data)
        if self._style:
            self.found.extend(m.group(1) or m.group(2) for m in CSS_URL.finditer(data))
        elif self._script is not None:
            self.found.extend(m.group(1) for m in JS_URL.finditer(data))


def widget_html(state_json: str) -> list[str]:
    """The HTML a saved widget state puts in the page: HTML widgets' values and HTML descriptions ([] if unreadable:
    the build checks the state itself, site_tools.widget_state.state_problems)."""
    try:
        models = json.loads(state_json).get("state", {})
    except (ValueError, AttributeError):
        return []
    found = []
    for rec in models.values() if isinstance(models, dict) else []:
        state = rec.get("state") if isinstance(rec, dict) else None
        if isinstance(state, dict):
            found += [state[k] for k in ("value", "description") if isinstance(state.get(k), str) and "<" in state[k]]
    return found


def loaded_urls(html: str) -> list[str]:
    """Every URL the page would load by itself (see the module's docstring), in order."""
    parser = _Loads()
    parser.feed(html)
    parser.close()
    inside = [u for state in parser.widget_states for value in widget_html(state) for u in loaded_urls(value)]
    return [u for u in parser.found if u] + inside


def external_loads(html: str) -> list[str]:
    """The loaded URLs that name another host: a page of the site must have none."""
    return [u for u in loaded_urls(html) if is_external(u)]


def missing_local(html: str, page: Path, site: Path) -> list[str]:
    """Relative URLs the page loads that point at no file of the site (data: URIs and fragments aside)."""
    missing = []
    for u in loaded_urls(html):
        if is_external(u) or u.startswith(("data:", "#", "blob:", "about:")):
            continue
        target = (page.parent / u.split("#")[0].split("?")[0]).resolve()
        if not target.is_file() or site.resolve() not in target.parents:
            missing.append(u)
    return missing


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())



class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.found.extend(v for k, v in attrs if k == "href" and v)


def broken_links(html: str, page: Path, site: Path) -> list[str]:
    """Relative ``<a href>`` to a page of the site (``….html``, anchors aside) that points at no file of it: a link
    between pages, or between a page and its twin in another language, that a reader would find dead."""
    parser = _Links()
    parser.feed(html)
    parser.close()
    broken = []
    for u in parser.found:
        path = u.split("#")[0].split("?")[0]
        if is_external(u) or u.startswith(("data:", "mailto:", "javascript:")) or not path.endswith(".html"):
            continue
        target = (page.parent / path).resolve()
        if not target.is_file() or site.resolve() not in target.parents:
            broken.append(u)
    return broken
