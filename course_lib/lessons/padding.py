"""Padding a batch of sentences of different lengths: what it costs, counted (never timed), and drawn.

A define-then-run graph unrolled for ``T`` steps runs its cell ``B × T`` times on a batch of ``B`` sentences
padded with zero vectors to ``T`` (:func:`pad`); the ``B × T - ΣL`` steps on padding are computed, then thrown
away (:func:`padding_count`). Bucketing (:func:`buckets`) pads only within groups of similar lengths, one graph per
group (:func:`bucketed_count`). :func:`waste_rows` and :func:`plot_waste` follow the waste as the lengths spread;
:func:`grid_svg` draws a padded batch. :mod:`course_lib.lessons.sequences` (notebook 06) runs the cell itself and
re-exports these names.

>>> str(padding_count([5, 2, 3]))
'15 cell steps: 10 on words, 5 on padding (33% wasted)'
>>> buckets([5, 2, 9, 3], k=2)
[[1, 3], [0, 2]]
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import render
from ..i18n import N_, Plural, number, say
from ..i18n import gettext as _
from ..render import speech

__all__ = ["PaddingCount", "bucketed_count", "buckets", "grid_svg", "lengths_with_spread", "pad", "padding_count",
           "plot_waste", "sentences_with_spread", "waste_rows"]

#: The text the sentences of :func:`sentences_with_spread` are cut from, word by word.
_TEXT = ("the film opens on a quiet street and never lets go the actors carry every scene with warmth and the music "
         "lifts the slow middle part into something quite lovely even if the ending feels rushed")

NO_SENTENCE = N_("pad() needs at least one sentence")
TOO_SHORT = Plural("cannot pad to {steps} step: the longest sentence has {longest} words; pad to at least {longest}, "
                   "or cut the sentence short",
                   "cannot pad to {steps} steps: the longest sentence has {longest} words; pad to at least {longest}, "
                   "or cut the sentence short", count="steps")  # longest > steps: plural when steps is 1
PAD_TO_SHORT = Plural("pad_to={steps} is shorter than the longest sentence ({longest} word)",
                      "pad_to={steps} is shorter than the longest sentence ({longest} words)", count="longest")
K_OR_BOUNDARIES = N_("give either k (number of buckets) or boundaries (upper length limits), not both")
K_TOO_SMALL = N_("k must be at least 1")
STEPS = N_("{total} cell steps: {real} on words, {padded} on padding ({wasted} wasted)")


# ---------------------------------------------------------------------------------------------- padding
def pad(sentences: Sequence[np.ndarray], length: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Pad ``(L_i, dim)`` arrays with zero vectors to ``length`` (default: the longest): ``x`` of shape
    ``(B, T, dim)`` and the 0/1 ``mask`` of shape ``(B, T)`` (1 = a real word, 0 = padding).

    >>> x, mask = pad([np.ones((2, 3)), np.ones((1, 3))])
    >>> x.shape, mask.tolist()
    ((2, 2, 3), [[1.0, 1.0], [1.0, 0.0]])
    """
    if not len(sentences):
        raise ValueError(say(NO_SENTENCE))
    dim = int(np.shape(sentences[0])[1])
    longest = max(len(s) for s in sentences)
    T = longest if length is None else int(length)
    if T < longest:
        raise ValueError(say(TOO_SHORT, steps=T, longest=longest))
    x = np.zeros((len(sentences), T, dim))
    mask = np.zeros((len(sentences), T))
    for i, s in enumerate(sentences):
        x[i, : len(s)] = s
        mask[i, : len(s)] = 1.0
    return x, mask


@dataclass(frozen=True)
class PaddingCount:
    """How many cell steps a padded batch runs: ``real`` (on words) + ``padded`` (on zeros) = ``total``."""

    real: int
    padded: int

    @property
    def total(self) -> int:
        return self.real + self.padded

    @property
    def wasted(self) -> float:
        """The fraction of the cell's work spent on padding (0 when nothing is padded)."""
        return self.padded / self.total if self.total else 0.0

    def __add__(self, other: PaddingCount) -> PaddingCount:
        return PaddingCount(self.real + other.real, self.padded + other.padded)

    def __str__(self) -> str:
        return _(STEPS).format(total=self.total, real=self.real, padded=self.padded,
                               wasted=number(self.wasted, spec=".0%"))


def padding_count(lens: Sequence[int], pad_to: int | None = None) -> PaddingCount:
    """Cell steps of one padded batch: ``B × T`` in all, ``ΣL`` of them on real words (``T`` = ``pad_to`` or the
    longest length).

    >>> str(padding_count([5, 2, 3]))
    '15 cell steps: 10 on words, 5 on padding (33% wasted)'
    """
    lens = [int(n) for n in lens]
    if not lens:
        return PaddingCount(0, 0)
    T = max(lens) if pad_to is None else int(pad_to)
    if T < max(lens):
        raise ValueError(say(PAD_TO_SHORT, steps=T, longest=max(lens)))
    return PaddingCount(sum(lens), len(lens) * T - sum(lens))


def buckets(lens: Sequence[int], k: int | None = None, boundaries: Sequence[int] | None = None) -> list[list[int]]:
    """Group sentence indices for bucketing: pad only within a group, one graph per group.

    ``k``: sort by length and cut into ``k`` groups of (nearly) equal size. ``boundaries``: upper length limits,
    e.g. ``[4, 8]`` makes the groups ``L ≤ 4``, ``4 < L ≤ 8``, ``L > 8`` (as TensorFlow's
    ``bucket_by_sequence_length``). Empty groups are dropped; indices within a group keep their input order.

    >>> buckets([5, 2, 9, 3], k=2)
    [[1, 3], [0, 2]]
    >>> buckets([5, 2, 9, 3], boundaries=[4])
    [[1, 3], [0, 2]]
    """
    lens = [int(n) for n in lens]
    if (k is None) == (boundaries is None):
        raise ValueError(say(K_OR_BOUNDARIES))
    if boundaries is not None:
        limits = sorted(int(b) for b in boundaries)
        groups: list[list[int]] = [[] for _ in range(len(limits) + 1)]
        for i, n in enumerate(lens):
            groups[next((j for j, lim in enumerate(limits) if n <= lim), len(limits))].append(i)
        return [g for g in groups if g]
    if int(k) < 1:  # type: ignore[arg-type]
        raise ValueError(say(K_TOO_SMALL))
    order = sorted(range(len(lens)), key=lambda i: (lens[i], i))
    cuts = np.array_split(np.array(order, dtype=int), min(int(k), max(len(lens), 1)))  # type: ignore[arg-type]
    return [sorted(int(i) for i in c) for c in cuts if len(c)]


def bucketed_count(lens: Sequence[int], groups: Sequence[Sequence[int]]) -> PaddingCount:
    """Cell steps when each group is padded only to its own longest sentence.

    >>> str(bucketed_count([5, 2, 9, 3], [[1, 3], [0, 2]]))
    '24 cell steps: 19 on words, 5 on padding (21% wasted)'
    """
    total = PaddingCount(0, 0)
    for g in groups:
        total = total + padding_count([lens[i] for i in g])
    return total


def lengths_with_spread(spread: int, n: int = 8, mean: int = 6) -> list[int]:
    """``n`` sentence lengths around ``mean``, from ``mean - spread`` to ``mean + spread`` (at least 1 word).

    Spread 0: all equal, nothing to pad. The order is fixed (not sorted), as sentences arrive in a dataset.

    >>> lengths_with_spread(0, n=4)
    [6, 6, 6, 6]
    >>> lengths_with_spread(3, n=4)
    [3, 7, 5, 9]
    """
    spread = max(int(spread), 0)
    u = np.linspace(-1.0, 1.0, n)
    u = u[np.argsort(np.random.default_rng(7).permutation(n))] if n > 1 else u
    return [max(1, round(float(mean + spread * a))) for a in u]


def sentences_with_spread(spread: int, n: int = 8, mean: int = 6) -> list[str]:
    """Sentences (slices of a fixed text) with :func:`lengths_with_spread` words each."""
    out, text = [], _TEXT.split()
    for i, L in enumerate(lengths_with_spread(spread, n, mean)):
        start = (5 * i) % len(text)
        words = [text[(start + j) % len(text)] for j in range(L)]
        out.append(" ".join(words))
    return out


# ---------------------------------------------------------------------------------------------- waste
def waste_rows(max_spread: int = 5, ks: Sequence[int] = (1, 2, 4), n: int = 8, mean: int = 6) -> list[tuple[int, ...]]:
    """Padded cell steps for each length spread: ``(spread, longest, words, padded with k=1 bucket, k=2 …)``.

    >>> waste_rows(1, ks=(1,))
    [(0, 6, 48, 0), (1, 7, 48, 8)]
    """
    rows = []
    for spread in range(max_spread + 1):
        lens = lengths_with_spread(spread, n, mean)
        rows.append((spread, max(lens), sum(lens),
                     *(bucketed_count(lens, buckets(lens, k=k)).padded for k in ks)))
    return rows


def plot_waste(max_spread: int = 5, ks: Sequence[int] = (1, 2, 4), n: int = 8, mean: int = 6) -> Any:
    """The share of cell steps spent on padding as the lengths spread, for k buckets (k = 1: pad to the longest),
    with define-by-run's zero for reference."""
    import matplotlib.pyplot as plt

    rows = waste_rows(max_spread, ks, n, mean)
    with plt.rc_context(render.plot_style()):  # words and lines follow the theme (larger for a projector)
        return _waste_figure(plt, rows, ks, n, mean)


def _waste_figure(plt: Any, rows: list[tuple[int, ...]], ks: Sequence[int], n: int, mean: int) -> Any:
    spreads = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(10, 3.8))
    styles = ["-o", "--s", ":^", "-.v"]
    for j, k in enumerate(ks):
        share = [100 * r[3 + j] / (r[2] + r[3 + j]) for r in rows]
        label = _("define-then-run, pad to the longest") if k == 1 else _("bucketing: {k} graphs").format(k=k)
        # Okabe–Ito, the orange darkened (#E69F00 -> #B87700): a line needs 3:1 on white (tests/test_contrast.py)
        ax.plot(spreads, share, styles[j % len(styles)], color=("#D55E00", "#B87700", "#0072B2", "#CC79A7")[j % 4],
                label=label)
    ax.plot(spreads, [0] * len(spreads), "-", color="#009E73", label=_("define-by-run, one sentence at a time"))
    ax.set_xlabel(_("length spread (sentences of {mean} ± spread words, {n} of them)").format(mean=mean, n=n))
    ax.set_ylabel(_("% of cell steps on padding"))
    ax.set_xticks(spreads)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))  # beside the plot: no line hidden
    ax.set_title(_("Padding wasted: counted, not timed"), loc="left")
    fig.tight_layout()
    plt.close(fig)
    return fig


# ---------------------------------------------------------------------------------------------- picture
def grid_svg(lens: Sequence[int], groups: Sequence[Sequence[int]] | None = None, cell: int = 18,
             svg_id: str = "padding-grid", scale: float = 1.0) -> str:
    """The padded batch as a grid: a row per sentence, a square per time step.

    A word is a filled square, padding an empty dashed square with a ``0`` (readable without colour). With
    ``groups`` (buckets) each group is padded to its own longest sentence and drawn as its own block. ``scale``
    enlarges it all (12 px words become 12·scale px): a widget passes its theme's text size / 12."""
    lens = [int(n) for n in lens]
    groups = [list(g) for g in groups] if groups else [list(range(len(lens)))]
    label_w, gap = 92, 10
    widest = max((max(lens[i] for i in g) for g in groups if g), default=1)
    said = [_group_label(lens, g, k, len(groups)) for k, g in enumerate(groups)]
    # room on the right for each group's label (about 6.2 px a character at 12 px), at least 210 px
    right = max([widest * cell + 210] + [max(lens[i] for i in g) * cell + 8 + math.ceil(6.2 * len(text))
                                         for g, text in zip(groups, said, strict=True)])
    width = label_w + right
    height = sum(len(g) for g in groups) * cell + gap * (len(groups) - 1) + 8
    parts: list[str] = []
    y = 4.0
    for g, text in zip(groups, said, strict=True):
        T = max(lens[i] for i in g)
        for i in g:
            label = _("sentence {k}").format(k=i + 1)  # outside the f-string, where Babel's extractor finds it
            parts.append(f'<text x="{label_w - 6}" y="{y + cell * 0.72:.1f}" text-anchor="end" font-size="12">'
                         f"{html.escape(label)}</text>")
            for t in range(T):
                x = label_w + t * cell
                if t < lens[i]:
                    parts.append(f'<rect x="{x + 1}" y="{y + 1:.1f}" width="{cell - 2}" height="{cell - 2}" '
                                 'fill="#0072B2" stroke="#003F63"/>')
                else:
                    parts.append(f'<rect x="{x + 1}" y="{y + 1:.1f}" width="{cell - 2}" height="{cell - 2}" '
                                 'fill="#FFFFFF" stroke="#D55E00" stroke-dasharray="3,2"/>'
                                 f'<text x="{x + cell / 2}" y="{y + cell * 0.72:.1f}" text-anchor="middle" '
                                 'font-size="11" fill="#A23B00">0</text>')
            y += cell
        parts.append(f'<text x="{label_w + T * cell + 8}" y="{y - cell * 0.3:.1f}" font-size="12">'
                     f"{html.escape(text)}</text>")
        y += gap
    # what a screen reader says of the grid (its <title> and <desc>, as every course picture: render/speech.py)
    name = say(Plural("Padded batch: {n} sentence, a row of squares per sentence, one per time step",
                      "Padded batch: {n} sentences, a row of squares per sentence, one per time step"), n=len(lens))
    desc = speech.joined(speech.SEMICOLON, [_("{said} (sentences {which}, of {lengths} words)").format(
        said=text, which=", ".join(str(i + 1) for i in g), lengths=", ".join(str(lens[i]) for i in g))
        for g, text in zip(groups, said, strict=True)]) + "."
    return (f'<svg xmlns="http://www.w3.org/2000/svg" id="{html.escape(svg_id)}" width="{width * scale:g}" '
            f'height="{height * scale:g}" viewBox="0 0 {width} {height}" style="max-width:100%;height:auto" role="img" '
            f'font-family="Helvetica,Arial,sans-serif"><title>{html.escape(name)}</title><desc>{html.escape(desc)}'
            "</desc>" + "".join(parts) + "</svg>")


def _group_label(lens: list[int], group: list[int], k: int, groups: int) -> str:
    """What the grid writes after a group: how far it is padded and how many zeros that takes (and which bucket)."""
    count = padding_count([lens[i] for i in group])
    said = say(Plural("padded to {steps}, {zeros} zero", "padded to {steps}, {zeros} zeros", count="zeros"),
               steps=max(lens[i] for i in group), zeros=count.padded)
    return _("bucket {k}: {padded}").format(k=k + 1, padded=said) if groups > 1 else said
