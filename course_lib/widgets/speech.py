"""What a stepping widget says to a screen reader: each step in one sentence, and the words of its Play buttons.

Python cannot give an ipywidgets control ARIA attributes, and a live region must stay in the page while its text
changes (an HTML widget's content is replaced whole). So the widget writes the words, hidden, and the course's
enhancer script (``labextension/course-a11y/static/remoteEntry.js``: a JupyterLab extension installed by
``./course setup``, and a script of the static site) puts them where assistive technology reads them:

* every step frame carries its step as one sentence in a hidden ``.course-said`` span (:func:`said_html`); the
  enhancer copies the visible frames' sentences into the widget's live region once a step has stayed shown for a
  moment, never while Play runs, and says where Play stopped;
* :func:`announcer` is the live region (``role="status"``: polite and atomic, visually hidden but in the page) and
  the names of ipywidgets' Play buttons, which are icons only (``.course-word-play``, ``-stop``, ``-repeat``).

Without the enhancer (an editor that does not load JupyterLab extensions) the widget works and reads as before;
only the announcements and the Play buttons' names are missing.

>>> said_html("BUILD", "step 3 of 22", "define op mul")
'<span class="course-said" hidden="">BUILD, step 3 of 22: define op mul</span>'
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_
from ..i18n import gettext as _
from ..render.speech import COLON, joined
from .base import ipywidgets as W
from .html import esc

__all__ = ["PLAY_WORDS", "SR_ONLY", "announcer", "said_html"]

#: the names of ipywidgets' Play buttons, in their order (play/pause, stop, repeat)
PLAY_WORDS = {"play": N_("Play / pause the steps"), "stop": N_("Stop: back to step 0"),
              "repeat": N_("Repeat the steps")}
#: in the page and read by screen readers, not drawn (the usual visually-hidden rule, inline: no style sheet)
SR_ONLY = ("position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);"
           "white-space:nowrap;border:0")


def said_html(*parts: str) -> str:
    """One step as a sentence for the live region: ``phase, counter: event`` (and a style first, side by side),
    hidden in the frame; the enhancer reads the frames shown."""
    *head, last = [p for p in parts if p]
    text = joined(COLON, [", ".join(head), last]) if head else last
    text = " ".join(text.replace("▶", "").replace("◀", "").split())  # "press ▶ Play": no symbol to spell out
    return f'<span class="course-said" hidden="">{esc(text)}</span>'


def announcer() -> Any:
    """The live region of a stepping widget and its Play buttons' names (an HTML widget whose text never
    changes: the enhancer writes into the region, which stays in the page)."""
    words = "".join(f'<span class="course-word-{k}" hidden="">{esc(_(v))}</span>' for k, v in PLAY_WORDS.items())
    return W.HTML(f'<div class="course-live" role="status" style="{SR_ONLY}"></div>{words}',
                  layout=W.Layout(height="0px", overflow="hidden", margin="0"))
