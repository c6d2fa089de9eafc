"""What the static site shows of what it did not write: the HTML of markdown cells, of saved outputs, of instructor
guides and inside saved widgets, cleaned the way JupyterLab shows untrusted HTML, so no script a notebook carries
runs on the site.

Who wrote what. The site's own templates and its pinned scripts (require.js, the widget manager, MathJax, reveal.js)
are the only code a page runs. Everything read from ``notebooks/`` and ``instructor/`` is data, even the course's own
outputs: whoever can edit a notebook can write an output that looks like course_lib's, and the build never runs a
notebook, so nothing in the file can prove who wrote it. (JupyterLab runs the scripts of a *trusted* notebook's HTML
outputs, so tools/trust_notebooks.py signs no notebook whose outputs :func:`runs_something` finds in.) The course's
own outputs need no script: their SVG graphs, tables and inline styles are all in the allow-list below, and
tests/test_site_sanitize.py checks that cleaning the course's notebooks removes nothing from them.

The allow-list is JupyterLab 4's (``Sanitizer`` in @jupyterlab/apputils, site_tools/node_modules/@jupyterlab/apputils/
lib/sanitizer.js: its tags, attributes, CSS properties of ``style`` and link schemes), plus the SVG elements and
presentation attributes the course's graphs are drawn with (course_lib/render/svg.py, layout.py), plus ``data:``
images (JupyterLab does not check ``src``). The cleaning is nh3's (Ammonia, html5ever: it parses as a browser does,
so obfuscated markup parses the same for it and for the page). Like JupyterLab's default, ``id`` stays (headings'
anchors need it).

>>> clean('<b onclick="go()">bold</b><script>go()</script><img src=x onerror=go()>')
'<b>bold</b><img src="x">'
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import nh3

# JupyterLab 4's allowedTags ('iframe' is commented out there).
JUPYTERLAB_TAGS = set("""a abbr acronym address area article aside audio b bdi bdo big blockquote br button canvas
caption center cite code col colgroup colspan command data datalist dd del details dfn dir div dl dt em fieldset
figcaption figure font footer form h1 h2 h3 h4 h5 h6 header hgroup hr i img input ins kbd label legend li map mark
menu meter nav nobr ol optgroup option output p pre progress q rowspan s samp section select small source span strike
strong sub summary sup table tbody td textarea tfoot th thead time tr track tt u ul var video wbr""".split())

_ALIGN = {"align"}
_CELL = {"align", "char", "charoff", "valign"}
# JupyterLab 4's allowedAttributes, with allowNamedProperties off (its default: no 'name'); 'rel' is set by nh3.
JUPYTERLAB_ATTRIBUTES: dict[str, set[str]] = {
    "*": {"class", "dir", "draggable", "hidden", "id", "inert", "itemprop", "itemref", "itemscope", "lang", "role",
          "spellcheck", "style", "title", "translate"},
    "a": {"accesskey", "coords", "href", "hreflang", "shape", "tabindex", "target", "type"},
    "area": {"accesskey", "alt", "coords", "href", "nohref", "shape", "tabindex"},
    "audio": {"autoplay", "controls", "loop", "mediagroup", "muted", "preload", "src"},
    "bdo": {"dir"}, "blockquote": {"cite"}, "br": {"clear"},
    "button": {"accesskey", "disabled", "tabindex", "type", "value"},
    "canvas": {"height", "width"}, "caption": _ALIGN,
    "col": _CELL | {"span", "width"}, "colgroup": _CELL | {"span", "width"},
    "command": {"checked", "command", "disabled", "icon", "label", "radiogroup", "type"},
    "data": {"value"}, "del": {"cite", "datetime"}, "details": {"open"}, "dir": {"compact"}, "div": _ALIGN,
    "dl": {"compact"}, "fieldset": {"disabled"}, "font": {"color", "face", "size"},
    "form": {"accept", "autocomplete", "enctype", "method", "novalidate"},
    **{f"h{k}": _ALIGN for k in range(1, 7)},
    "hr": {"align", "noshade", "size", "width"},
    "img": {"align", "alt", "border", "height", "hspace", "ismap", "src", "usemap", "vspace", "width"},
    "input": {"accept", "accesskey", "align", "alt", "autocomplete", "checked", "disabled", "inputmode", "ismap",
              "list", "max", "maxlength", "min", "multiple", "placeholder", "readonly", "required", "size", "src",
              "step", "tabindex", "type", "usemap", "value"},
    "ins": {"cite", "datetime"}, "label": {"accesskey", "for"}, "legend": {"accesskey", "align"},
    "li": {"type", "value"}, "menu": {"compact", "label", "type"}, "meter": {"high", "low", "max", "min", "value"},
    "ol": {"compact", "reversed", "start", "type"}, "optgroup": {"disabled", "label"},
    "option": {"disabled", "label", "selected", "value"}, "output": {"for"}, "p": _ALIGN, "pre": {"width"},
    "progress": {"max", "min", "value"}, "q": {"cite"},
    "select": {"autocomplete", "disabled", "multiple", "required", "size", "tabindex"}, "source": {"type"},
    "table": {"align", "bgcolor", "border", "cellpadding", "cellspacing", "frame", "rules", "summary", "width"},
    "tbody": _CELL, "tfoot": _CELL, "thead": _CELL, "tr": _CELL | {"bgcolor"},
    "td": _CELL | {"abbr", "axis", "bgcolor", "colspan", "headers", "height", "nowrap", "rowspan", "scope", "width"},
    "th": _CELL | {"abbr", "axis", "bgcolor", "colspan", "headers", "height", "nowrap", "rowspan", "scope", "width"},
    "textarea": {"accesskey", "autocomplete", "cols", "disabled", "inputmode", "placeholder", "readonly", "required",
                 "rows", "tabindex", "wrap"},
    "track": {"default", "kind", "label", "srclang"}, "ul": {"compact", "type"},
    "video": {"autoplay", "controls", "height", "loop", "mediagroup", "muted", "poster", "preload", "src", "width"},
}

# JupyterLab 4's allowedStyles: the CSS properties a style attribute keeps.
STYLE_PROPERTIES = set("""backface-visibility background background-attachment background-clip background-color
background-image background-origin background-position background-repeat background-size border border-bottom
border-bottom-color border-bottom-left-radius border-bottom-right-radius border-bottom-style border-bottom-width
border-collapse border-color border-left border-left-color border-left-style border-left-width border-radius
border-right border-right-color border-right-style border-right-width border-spacing border-style border-top
border-top-color border-top-left-radius border-top-right-radius border-top-style border-top-width border-width bottom
box box-shadow box-sizing caption-side clear clip color cursor direction display display-inside display-outside
elevation empty-cells float font font-family font-size font-stretch font-style font-variant font-weight height left
letter-spacing line-height list-style list-style-image list-style-position list-style-type margin margin-bottom
margin-left margin-right margin-top max-height max-width min-height min-width opacity outline outline-color
outline-style outline-width overflow overflow-wrap overflow-x overflow-y padding padding-bottom padding-left
padding-right padding-top page-break-after page-break-before page-break-inside pause-after perspective pitch
pitch-range position quotes resize richness right speak speak-header speak-numeral speak-punctuation speech-rate
stress table-layout text-align text-decoration text-indent text-overflow text-shadow text-transform text-wrap top
unicode-bidi vertical-align visibility volume white-space width word-break word-spacing word-wrap z-index zoom
align-content align-items align-self flex flex-basis flex-direction flex-grow flex-shrink flex-wrap grid grid-area
grid-auto-columns grid-auto-flow grid-auto-rows grid-column grid-column-end grid-column-gap grid-column-start grid-gap
grid-row grid-row-end grid-row-gap grid-row-start grid-template grid-template-areas grid-template-columns
grid-template-rows gap row-gap column-gap justify-content justify-items justify-self order place-content place-items
place-self""".split())

# JupyterLab 4's allowedSchemes (sanitize-html's defaults) for links; data: only for images (see _url).
LINK_SCHEMES = {"http", "https", "ftp", "mailto", "tel"}

# The course's graphs: shapes and text, no links, no <use>, <image>, <animate> or <foreignObject> (each can load or
# run something), with their presentation attributes.
SVG_TAGS = {"svg", "g", "path", "polygon", "polyline", "line", "rect", "circle", "ellipse", "text", "tspan", "title",
            "desc"}
_PAINT = {"fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity", "stroke-linecap",
          "stroke-linejoin", "opacity", "transform", "font-family", "font-size", "font-style", "font-weight",
          "text-anchor", "dominant-baseline"}
SVG_ATTRIBUTES: dict[str, set[str]] = {
    "svg": _PAINT | {"xmlns", "viewBox", "width", "height", "role", "preserveAspectRatio"},
    "g": _PAINT | {"data-id"},
    "path": _PAINT | {"d"}, "polygon": _PAINT | {"points"}, "polyline": _PAINT | {"points"},
    "line": _PAINT | {"x1", "y1", "x2", "y2"}, "rect": _PAINT | {"x", "y", "width", "height", "rx", "ry"},
    "circle": _PAINT | {"cx", "cy", "r"}, "ellipse": _PAINT | {"cx", "cy", "rx", "ry"},
    "text": _PAINT | {"x", "y", "dx", "dy"}, "tspan": _PAINT | {"x", "y", "dx", "dy"},
}
# Dropped with everything inside them (nh3 would keep their text).
DROPPED_WITH_CONTENT = {"script", "style", "iframe", "noscript", "object", "embed", "frameset", "noembed", "xmp"}

# The style sheet of a course widget (course_lib/widgets/sizing.py, widget_css: text sizes, and the focus ring of
# issue 27): only this form is kept, moved to the page's head; its selectors are the course's own, written out here,
# and its only free parts are digits and hex colours, so it can carry no rule of anyone else's.
_SELECTORS = "|".join(re.escape(f" {s}") for s in (
    "code", "input[type=checkbox]", "input[type=checkbox]:focus-visible",
    ":is(button,input:not([type=checkbox]),select,textarea,.noUi-handle,.widget-readout):focus-visible"))
_DECLARATION = (r"(?:--jp-widgets-font-size:\d{1,3}px|font-size:inherit|margin-left:\d{1,2}px"
                r"|outline:\d{1,2}px solid #[0-9a-fA-F]{6}!important|outline-offset:-?\d{1,2}px!important"
                r"|box-shadow:(?:inset )?0 0 0 \d{1,2}px #[0-9a-fA-F]{6}!important)")
COURSE_STYLE = re.compile(rf"<style>((?:(?:\[data-jp-theme-light=false\] )?\.course-ui-\d{{1,3}}(?:{_SELECTORS})?"
                          rf"\{{{_DECLARATION}(?:;{_DECLARATION})*\}})+)</style>")
IMAGE_DATA = re.compile(r"^data:image/(?:png|jpeg|gif|webp|svg\+xml)[;,]", re.IGNORECASE)


def _url(tag: str, attribute: str, value: str) -> str | None:
    """``data:`` only as an image's source (a ``data:text/html`` link opens a page of the attacker's script)."""
    if attribute in {"href", "src", "cite", "poster"} and value.strip().lower().startswith("data:"):
        return value if tag in {"img", "source", "video"} and IMAGE_DATA.match(value.strip()) else None
    return value


_CLEANER = nh3.Cleaner(
    tags=JUPYTERLAB_TAGS | SVG_TAGS,
    clean_content_tags=DROPPED_WITH_CONTENT,
    attributes={**JUPYTERLAB_ATTRIBUTES, **SVG_ATTRIBUTES},
    attribute_filter=_url,
    url_schemes=LINK_SCHEMES | {"data"},
    filter_style_properties=STYLE_PROPERTIES,
    set_tag_attribute_values={"input": {"disabled": "disabled"}},  # as JupyterLab: a form field does nothing here
    link_rel="noopener noreferrer nofollow",
    strip_comments=True,
)


def clean(html: str | bytes) -> str:
    """``html`` with nothing that can run: no script, no event handler, no ``javascript:`` or ``data:`` link, no
    frame; what JupyterLab shows of untrusted HTML stays, and the course's SVG graphs.

    >>> clean('<a href="javascript:go()">x</a> <svg viewBox="0 0 2 2"><rect width="2" height="2"/></svg>')
    '<a rel="noopener noreferrer nofollow">x</a> <svg viewBox="0 0 2 2"><rect width="2" height="2"></rect></svg>'
    """
    text = html.decode() if isinstance(html, bytes) else str(html)
    return _CLEANER.clean(text) if "<" in text else text


def course_styles(html: str) -> list[str]:
    """The course widget style sheets in ``html`` (their text, without ``<style>``), in order."""
    return COURSE_STYLE.findall(html) if "<style>" in html else []


SAFE_MIMES = {"text/plain", "image/png", "image/jpeg", "image/gif", "application/vnd.jupyter.widget-view+json"}
CLEANED_MIMES = {"text/html", "image/svg+xml"}


def clean_outputs(outputs: list[dict]) -> int:
    """Clean saved outputs in place (a cell's, or an Output widget's): HTML and SVG cleaned, images and text kept,
    every other kind dropped (``application/javascript`` and the like run as code). Returns how many were dropped.

    >>> outs = [{"output_type": "display_data", "data": {"application/javascript": "go()", "text/plain": "x"}}]
    >>> clean_outputs(outs), outs[0]["data"]
    (1, {'text/plain': 'x'})
    """
    dropped = 0
    for out in outputs:
        data = out.get("data") if isinstance(out, dict) else None
        if not isinstance(data, dict):
            continue
        for mime in list(data):
            value = data[mime]
            if mime in CLEANED_MIMES:
                data[mime] = clean("".join(value) if isinstance(value, list) else value)
            elif mime not in SAFE_MIMES:
                del data[mime]
                dropped += 1
    return dropped


HTML_VALUES = {"HTMLModel", "HTMLMathModel"}  # widgets whose value the widget manager puts in the page as HTML


def clean_models(models: dict[str, dict]) -> list[str]:
    """Clean the saved widget models in place (state already checked by ``widget_state.state_problems``): the HTML
    of HTML widgets and of descriptions that allow HTML, the outputs of Output widgets (the widget manager renders
    those as trusted). Returns the course style sheets found in them (``<style>`` is cleaned away: the page's head
    gets them back, see :data:`COURSE_STYLE`).

    >>> models = {"a": {"model_name": "HTMLModel", "state": {"value": "<style>.course-ui-9 code{font-size:inherit}"
    ...                 "</style><i onclick=go()>hi</i>"}}}
    >>> clean_models(models), models["a"]["state"]["value"]
    (['.course-ui-9 code{font-size:inherit}'], '<i>hi</i>')
    """
    sheets = []
    for rec in models.values():
        state = rec["state"]
        if rec["model_name"] in HTML_VALUES and isinstance(state.get("value"), str):
            sheets.extend(course_styles(state["value"]))
            state["value"] = clean(state["value"])
        if state.get("description_allow_html") and isinstance(state.get("description"), str):
            state["description"] = clean(state["description"])
        if isinstance(state.get("outputs"), list):
            clean_outputs(state["outputs"])
    return sheets


class _Tokens(HTMLParser):
    """HTML as (tag, attributes) and text, the way a browser would hold it: the <tbody> a browser adds, the rel of
    links and the spacing inside style attributes do not count."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            return
        a = {k: v for k, v in attrs if not (tag == "a" and k == "rel")}
        if a.get("style"):
            a["style"] = ";".join(sorted(d.replace(" ", "") for d in a["style"].split(";") if d.strip()))
        self.out.append(f"<{tag} {sorted(a.items())}>")

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        if data.strip():
            self.out.append(data.strip())


def tokens(html: str) -> list[str]:
    """``html`` as the list of what a browser holds of it (:class:`_Tokens`), to compare two versions of it."""
    parser = _Tokens()
    parser.feed(html)
    parser.close()
    return parser.out


def runs_something(html: str) -> bool:
    """Whether cleaning takes anything from ``html``: what it takes is what could run (a script, a handler, a
    ``javascript:`` link, a frame) or what JupyterLab would not show untrusted. The course's own outputs lose
    nothing (tests/test_site_sanitize.py), so for them this is False.

    >>> runs_something('<svg viewBox="0 0 2 2"><rect width="2" height="2"/></svg>')
    False
    >>> runs_something('<b onclick=go()>x</b>')
    True
    """
    return "<" in html and tokens(html) != tokens(clean(html))
