"""Text made safe for a widget's HTML: escaped, and Markdown's `code` shown as code.

Every widget builds its words as HTML strings (an ``ipywidgets.HTML`` value); any text that did not come from the
course itself (a typed expression, a program's name, an engine's error message) goes through :func:`esc` or
:func:`code_html` first, so ``x < 1`` reads as typed and never opens a tag.

>>> esc("x < 1 & y"), code_html("a Python `if`")
('x &lt; 1 &amp; y', 'a Python <code>if</code>')
"""

from __future__ import annotations

import html
import re
from typing import Any

__all__ = ["code_html", "esc"]


def esc(text: Any) -> str:
    """Text made safe to put inside HTML (quotes too, so it can sit in an attribute).

    >>> esc("<b>'a' & b</b>")
    '&lt;b&gt;&#x27;a&#x27; &amp; b&lt;/b&gt;'
    """
    return html.escape(str(text), quote=True)


_BACKTICKS = re.compile(r"`([^`\n]+)`")


def code_html(text: Any) -> str:
    """Text escaped for HTML, with Markdown's `code` (in backticks, as error messages of the engines write it)
    shown as <code>code</code>: HTML is not Markdown, the backticks would be shown as they are.

    >>> code_html("a Python `if` on x < 1")
    'a Python <code>if</code> on x &lt; 1'
    """
    return _BACKTICKS.sub(r"<code>\1</code>", esc(text))
