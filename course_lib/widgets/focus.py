"""A focus control for a widget that shows two graphs (or more): show them all side by side, or one enlarged with
the others kept beside it as small thumbnails.

It works with no kernel, in the static edition too: the control is a ``ToggleButtons`` whose ``index`` (which
ipywidgets 8 syncs for every selection widget) is jslinked to the ``selected_index`` of a ``Stack`` holding one
arrangement per choice. The arrangements hold the *same* widgets (a pane's title, graph, words): a widget may be a
child of several boxes, each box gets a view of its own, and all of them follow the widget's step slider, so
stepping is unchanged by a change of focus. A Stack draws only its selected child, so the page draws each graph
once or twice (enlarged and as a thumbnail), never more.

The enlarged graph sits in a box of class ``course-focused``, the thumbnails in one of class ``course-thumbnail``
(what a browser test measures).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..i18n import N_
from ..i18n import gettext as _
from .base import Sizes
from .base import ipywidgets as W
from .html import esc
from .sizing import share_width

__all__ = ["BOTH", "FOCUS_TIP", "SHOW", "THUMBNAIL_SHARE", "Focus", "Shown", "named"]

SHOW = N_("Show")
BOTH = N_("both")
BOTH_TIP = N_("both graphs side by side")
FOCUS_TIP = N_("{name} enlarged, the other graph as a small picture beside it")
#: the thumbnails' column takes this share of the width, the enlarged graph the rest
THUMBNAIL_SHARE = 0.22


@dataclass
class Shown:
    """One graph a :class:`Focus` arranges: its ``name`` (the control's button), the ``column`` of widgets shown
    for it (title, graph, words...), its ``picture`` (the graph alone, for a thumbnail) and its natural ``width``
    (pt; None when unknown), so that side by side both graphs are drawn at one scale."""

    name: str
    column: list[Any]
    picture: Any
    width: float | None = None


class Focus:
    """``control`` (Show: both | one name per graph) and ``view`` (what it shows), jslinked (``link``).

    ``view.children[0]`` is every column side by side, in widths proportional to their graphs; ``view.children[k]``
    (k >= 1) the k-th column enlarged with the other pictures as thumbnails in a narrow column beside it.
    """

    def __init__(self, shown: list[Shown], sizes: Sizes) -> None:
        both = [W.VBox(list(s.column), layout=W.Layout(min_width="0")) for s in shown]
        share_width([(box, s.width) for box, s in zip(both, shown, strict=True)])
        views = [W.HBox(both, layout=W.Layout(width="100%"))]
        grow = round(100 * (1 - THUMBNAIL_SHARE)), round(100 * THUMBNAIL_SHARE)
        for s in shown:
            big = W.VBox(list(s.column), layout=W.Layout(flex=f"{grow[0]} 1 0%", min_width="0", margin="0 6px 0 0"))
            big.add_class("course-focused")
            thumbs = []
            for other in shown:
                if other is not s:  # its name over it: a small picture says which graph it is
                    thumbs += [W.HTML(f'<div style="font-size:{sizes.small}px;font-weight:bold">{esc(other.name)}'
                                      "</div>"), other.picture]
            small = W.VBox(thumbs, layout=W.Layout(flex=f"{grow[1]} 1 0%", min_width="0"))
            small.add_class("course-thumbnail")
            views.append(W.HBox([big, small], layout=W.Layout(width="100%", align_items="flex-start")))
        self.view = W.Stack(views, selected_index=0, layout=W.Layout(min_width="0"))
        self.control = W.ToggleButtons(
            options=[_(BOTH), *(s.name for s in shown)], index=0,
            tooltips=[_(BOTH_TIP), *(_(FOCUS_TIP).format(name=s.name) for s in shown)],
            style={"button_width": "auto"})
        self.link = W.jslink((self.control, "index"), (self.view, "selected_index"))  # no kernel needed
        self.row = [named(_(SHOW), sizes), self.control]  # what goes on the widget's row of view controls


def named(word: str, sizes: Sizes) -> Any:
    """A control's name before it on its row ("Show:"): a ToggleButtons' own description is drawn over its
    buttons, a line higher, in JupyterLab 4 with ipywidgets 8."""
    return W.HTML(f'<div style="font-size:{sizes.ui}px">{esc(_("{word}:").format(word=word))}</div>',
                  layout=W.Layout(margin="0 4px 0 12px"))
