"""Sentences of different lengths through one tiny RNN, the static way (pad + mask) and the dynamic way.

The cell (an Elman RNN, as ``torch.nn.RNN`` with ``tanh``), over a sentence of ``L`` word vectors ``x_1 … x_L``:

    h_0 = 0
    h_t = tanh(x_t · Wx + h_{t-1} · Wh + b)          t = 1 … L
    score = sigmoid(h_L · v)                          (a "sentiment" between 0 and 1)

Two ways to run it over a *batch* of sentences of lengths ``L_1 … L_B``:

* **Define-then-run, padded** (:class:`StaticUnroll`, like TensorFlow 1's ``tf.nn.static_rnn``): build ONE graph
  unrolled for ``T`` steps, ``T`` fixed before any data is seen. Every sentence is padded with zero vectors to
  ``T``; a 0/1 mask ``m_t`` keeps a finished sentence's state unchanged:
  ``h_t = m_t · cell(x_t, h_{t-1}) + (1 - m_t) · h_{t-1}``. The cell runs ``B × T`` times, of which
  ``B × T - ΣL`` on padding: computed, then thrown away (:func:`padding_count`).
* **Define-by-run, per sentence** (:func:`dynamic_unroll`): a Python ``for`` over the sentence's own length; each
  sentence records its own graph of ``L`` steps and the cell runs exactly ``ΣL`` times.

Bucketing (:func:`buckets`) is the 2017 compromise: sort by length, cut into groups, pad only within a group (one
graph per group length). Everything is counted, so a notebook can assert it; nothing here is timed.

>>> rnn = TinyRNN.make()
>>> xs = [rnn.embed("a good film"), rnn.embed("bad")]
>>> static = StaticUnroll(rnn, steps=3)
>>> x, mask = pad(xs, length=3)
>>> dyn = [float(dynamic_unroll(rnn, s).score.data) for s in xs]
>>> bool(np.allclose(static.run(x, mask), dyn))
True
>>> padding_count([3, 1]).padded
2
"""

from __future__ import annotations

import html
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import dynamic as dy
from .. import render
from .. import static as st
from ..graph import Graph

__all__ = [
    "SENTENCES",
    "DynamicRun",
    "PaddingCount",
    "StaticUnroll",
    "StrategyCosts",
    "TinyRNN",
    "buckets",
    "by_step",
    "dynamic_unroll",
    "grid_svg",
    "lengths",
    "lengths_with_spread",
    "pad",
    "padding_count",
    "plot_waste",
    "reference_scores",
    "sentences_with_spread",
    "strategy_costs",
    "to_torch",
    "tokens",
    "waste_rows",
]

#: A small corpus of review-like sentences, 1 to 10 words long (the notebooks' running example).
SENTENCES: tuple[str, ...] = (
    "great film",
    "not good at all",
    "the actors were wonderful",
    "a slow and rather boring story",
    "i loved every minute of this movie",
    "the plot was thin but the music was lovely",
    "bad",
    "one of the best films i have seen in years",
)


def tokens(sentence: str | Sequence[str]) -> list[str]:
    """Lower-case words of a sentence (letters, digits and apostrophes); a list of words is returned as is.

    >>> tokens("Not good, at ALL!")
    ['not', 'good', 'at', 'all']
    """
    if isinstance(sentence, str):
        return re.findall(r"[a-z0-9']+", sentence.lower())
    return [str(w) for w in sentence]


_TEXT = tokens("the film opens on a quiet street and never lets go the actors carry every scene with warmth and "
               "the music lifts the slow middle part into something quite lovely even if the ending feels rushed")


def lengths(sentences: Sequence[str | Sequence[str]]) -> list[int]:
    """Number of words of each sentence.

    >>> lengths(["great film", "bad"])
    [2, 1]
    """
    return [len(tokens(s)) for s in sentences]


# ---------------------------------------------------------------------------------------------- the model
@dataclass(frozen=True)
class TinyRNN:
    """The weights of the cell above: ``wx`` (dim × hidden), ``wh`` (hidden × hidden), ``b`` and ``v`` (hidden).

    Word vectors come from a fixed pseudo-random embedding keyed by the word's CRC-32, so any word has a vector
    and the same word always gets the same one, on every machine.
    """

    wx: np.ndarray
    wh: np.ndarray
    b: np.ndarray
    v: np.ndarray
    seed: int = 0

    @classmethod
    def make(cls, dim: int = 3, hidden: int = 4, seed: int = 0) -> TinyRNN:
        """Small random weights (fixed ``seed``): ``Wh`` is scaled so the state neither explodes nor dies."""
        rng = np.random.default_rng(seed)
        return cls(wx=rng.normal(0, 0.8, (dim, hidden)), wh=rng.normal(0, 0.5, (hidden, hidden)),
                   b=rng.normal(0, 0.3, hidden), v=rng.normal(0, 1.0, hidden), seed=seed)

    @property
    def dim(self) -> int:
        return int(self.wx.shape[0])

    @property
    def hidden(self) -> int:
        return int(self.wx.shape[1])

    def word_vector(self, word: str) -> np.ndarray:
        rng = np.random.default_rng([self.seed, zlib.crc32(word.encode("utf-8"))])
        return rng.normal(0, 1.0, self.dim)

    def embed(self, sentence: str | Sequence[str]) -> np.ndarray:
        """The sentence as an ``(L, dim)`` array of word vectors (``L`` = its number of words)."""
        words = tokens(sentence)
        if not words:
            return np.zeros((0, self.dim))
        return np.stack([self.word_vector(w) for w in words])


def reference_scores(rnn: TinyRNN, sentences: Sequence[np.ndarray]) -> np.ndarray:
    """The scores computed with plain numpy, one sentence at a time: the ground truth the engines must match."""
    out = []
    for x in sentences:
        h = np.zeros(rnn.hidden)
        for t in range(len(x)):
            h = np.tanh(x[t] @ rnn.wx + h @ rnn.wh + rnn.b)
        out.append(1.0 / (1.0 + np.exp(-(h @ rnn.v))))
    return np.array(out)


# ---------------------------------------------------------------------------------------------- padding
def pad(sentences: Sequence[np.ndarray], length: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Pad ``(L_i, dim)`` arrays with zero vectors to ``length`` (default: the longest): ``x`` of shape
    ``(B, T, dim)`` and the 0/1 ``mask`` of shape ``(B, T)`` (1 = a real word, 0 = padding).

    >>> x, mask = pad([np.ones((2, 3)), np.ones((1, 3))])
    >>> x.shape, mask.tolist()
    ((2, 2, 3), [[1.0, 1.0], [1.0, 0.0]])
    """
    if not len(sentences):
        raise ValueError("pad() needs at least one sentence")
    dim = int(np.shape(sentences[0])[1])
    longest = max(len(s) for s in sentences)
    T = longest if length is None else int(length)
    if T < longest:
        raise ValueError(f"cannot pad to {T} steps: the longest sentence has {longest} words; pad to at least "
                         f"{longest}, or cut the sentence short")
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
        return f"{self.total} cell steps: {self.real} on words, {self.padded} on padding ({self.wasted:.0%} wasted)"


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
        raise ValueError(f"pad_to={T} is shorter than the longest sentence ({max(lens)} words)")
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
        raise ValueError("give either k (number of buckets) or boundaries (upper length limits), not both")
    if boundaries is not None:
        limits = sorted(int(b) for b in boundaries)
        groups: list[list[int]] = [[] for _ in range(len(limits) + 1)]
        for i, n in enumerate(lens):
            groups[next((j for j, lim in enumerate(limits) if n <= lim), len(limits))].append(i)
        return [g for g in groups if g]
    if int(k) < 1:  # type: ignore[arg-type]
        raise ValueError("k must be at least 1")
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
    out = []
    for i, L in enumerate(lengths_with_spread(spread, n, mean)):
        start = (5 * i) % len(_TEXT)
        words = [_TEXT[(start + j) % len(_TEXT)] for j in range(L)]
        out.append(" ".join(words))
    return out


# ---------------------------------------------------------------------------------------------- define-by-run
@dataclass
class DynamicRun:
    """One sentence through the define-by-run engine: its score (a recorded tensor) and how many steps ran."""

    score: dy.Tensor
    steps: int
    cells: list[dy.Tensor] = field(default_factory=list)

    def graph(self) -> Graph:
        """The recorded graph, with every node of step ``t`` in the name scope ``step t`` (for drawing)."""
        return by_step(self.score.graph())


def dynamic_unroll(rnn: TinyRNN, x: np.ndarray, ops: Any = dy) -> DynamicRun:
    """Run the cell over the sentence's own length with a Python ``for``: the graph has exactly ``L`` steps.

    Every op is named ``step t/...`` so the recorded graph can be drawn one box per step.
    """
    wx, wh = dy.Parameter(rnn.wx, name="weights/Wx"), dy.Parameter(rnn.wh, name="weights/Wh")
    b, v = dy.Parameter(rnn.b, name="weights/b"), dy.Parameter(rnn.v, name="weights/v")
    h: Any = None  # h_0 = 0, so step 1 is tanh(x_1·Wx + b): no h·Wh term to record
    cells = []
    for t in range(len(x)):
        scope = f"step {t + 1}"
        xt = dy.Tensor(x[t], name=f"{scope}/x{t + 1}", kind="input")
        pre = xt @ wx
        named = [(pre, "x·Wx")]
        if h is not None:
            hw = h @ wh
            pre = pre + hw
            named += [(hw, "h·Wh"), (pre, "add")]
        z = pre + b
        h = ops.tanh(z)
        for tensor, label in [*named, (z, "add b"), (h, "tanh")]:
            tensor.name = f"{scope}/{label}"
        cells.append(h)
    logit = h @ v
    logit.name = "logit"
    score = ops.sigmoid(logit)
    score.name = "score"
    return DynamicRun(score, len(x), cells)


def by_step(graph: Graph) -> Graph:
    """Put every node named ``scope/...`` into that name scope (the renderer then groups or collapses it)."""
    for node in graph.nodes:
        if "/" in node.name and not node.scope:
            node.scope = node.name.rsplit("/", 1)[0]
    return graph


# ---------------------------------------------------------------------------------------------- define-then-run
class StaticUnroll:
    """ONE define-then-run graph unrolled for ``steps`` time steps, run on padded batches.

    Placeholders ``x1 … xT`` (shape ``(None, dim)``: any batch size) and masks ``m2 … mT`` (``(None, 1)``; step 1
    needs none, every sentence has a first word).
    With ``masked=False`` the mask is left out: padding zeros then flow through the cell like words and change
    the answer of every shorter sentence -- padding alone is not neutral.
    """

    def __init__(self, rnn: TinyRNN, steps: int, masked: bool = True) -> None:
        if int(steps) < 1:
            raise ValueError("a static unroll needs at least one step")
        self.rnn = rnn
        self.steps = int(steps)
        self.masked = masked
        self.graph = st.Graph(f"static RNN, {self.steps} steps")
        self.xs: list[st.Tensor] = []
        self.masks: list[st.Tensor] = []
        with self.graph.as_default():
            with st.name_scope("weights"):
                wx, wh = st.Variable(rnn.wx, name="Wx"), st.Variable(rnn.wh, name="Wh")
                b, v = st.Variable(rnn.b, name="b"), st.Variable(rnn.v, name="v")
            h: Any = None  # h_0 = 0: step 1 is tanh(x_1·Wx + b)
            for t in range(1, self.steps + 1):
                with st.name_scope(f"step {t}"):
                    x = st.placeholder(f"x{t}", shape=(None, rnn.dim))
                    new = st.tanh(x @ wx + b) if h is None else st.tanh(x @ wx + h @ wh + b)
                    if masked and h is not None:  # step 1 needs no mask: every sentence has a first word
                        m = st.placeholder(f"m{t}", shape=(None, 1))
                        self.masks.append(m)
                        new = m * new + (1.0 - m) * h  # a finished sentence keeps its state
                    self.xs.append(x)
                    h = new
            self.score = st.sigmoid(st.matmul(h, v, name="logit"), name="score")
        self.session = st.Session(self.graph)

    def feeds(self, x: np.ndarray, mask: np.ndarray) -> dict[st.Tensor, np.ndarray]:
        """The feed_dict for a padded batch ``x`` (B, T, dim) and its ``mask`` (B, T)."""
        x, mask = np.asarray(x, dtype=np.float64), np.asarray(mask, dtype=np.float64)
        if x.ndim != 3 or x.shape[2] != self.rnn.dim:
            raise ValueError(f"x must have shape (batch, steps, {self.rnn.dim}), got {x.shape}")
        if x.shape[1] != self.steps:
            raise ValueError(
                f"this graph was built for exactly {self.steps} steps, the batch has {x.shape[1]}: a static graph's "
                f"length is fixed. Pad the batch to {self.steps} with pad(sentences, length={self.steps}), or "
                "build (and compile) another graph for that length")
        out: dict[st.Tensor, np.ndarray] = {p: x[:, t, :] for t, p in enumerate(self.xs)}
        for t, m in enumerate(self.masks, start=1):  # masks exist for steps 2 … T
            out[m] = mask[:, t : t + 1]
        return out

    def run(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Scores of a padded batch: one Session.run for the whole batch (compiled once, then cached)."""
        return np.atleast_1d(self.session.run(self.score, self.feeds(x, mask)))

    def drawn(self) -> Graph:
        """The graph, with the score marked as its output (each step is a name scope, for drawing)."""
        return st.to_graph(self.score)


# ---------------------------------------------------------------------------------------------- PyTorch
def to_torch(rnn: TinyRNN) -> Any:
    """The same cell as a ``torch.nn.RNN`` (tanh, float64, ``batch_first=True``) carrying our weights:
    ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` with ``W_ih = Wx^T``, ``W_hh = Wh^T``, ``b_ih = b``,
    ``b_hh = 0``. The score is then ``sigmoid(h_n · v)``."""
    from ..adapters.loader import load_torch

    torch = load_torch()

    net = torch.nn.RNN(rnn.dim, rnn.hidden, nonlinearity="tanh", batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        net.weight_ih_l0.copy_(torch.from_numpy(rnn.wx.T.copy()))
        net.weight_hh_l0.copy_(torch.from_numpy(rnn.wh.T.copy()))
        net.bias_ih_l0.copy_(torch.from_numpy(rnn.b.copy()))
        net.bias_hh_l0.zero_()
    return net


# ---------------------------------------------------------------------------------------------- waste and cost
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
        label = "define-then-run, pad to the longest" if k == 1 else f"bucketing: {k} graphs"
        ax.plot(spreads, share, styles[j % len(styles)], color=("#D55E00", "#E69F00", "#0072B2", "#CC79A7")[j % 4],
                label=label)
    ax.plot(spreads, [0] * len(spreads), "-", color="#009E73", label="define-by-run, one sentence at a time")
    ax.set_xlabel(f"length spread (sentences of {mean} ± spread words, {n} of them)")
    ax.set_ylabel("% of cell steps on padding")
    ax.set_xticks(spreads)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))  # beside the plot: no line hidden
    ax.set_title("Padding wasted: counted, not timed", loc="left")
    fig.tight_layout()
    plt.close(fig)
    return fig


@dataclass
class StrategyCosts:
    """Time per batch of each strategy (``times``: label -> Measurement) and the cell steps each one runs."""

    times: dict[str, Any]
    steps: dict[str, int]

    def table(self) -> Any:
        from ..measure import fmt_seconds
        from .compiling import Table

        return Table(["one batch of sentences", "median", "spread (IQR)", "cell steps run"],
                     [(k, fmt_seconds(m.median), f"{fmt_seconds(m.low)}–{fmt_seconds(m.high)}",
                       f"{self.steps[k]:,}" if k in self.steps else "") for k, m in self.times.items()])

    def ranking(self) -> str:
        """This run's fastest and slowest strategies by median, and the steps each ran: computed, not typed.

        >>> from course_lib.measure import Measurement
        >>> m = lambda s: Measurement(s, s, s, 1, 1)
        >>> StrategyCosts({"padded": m(1e-3), "one by one": m(5e-3)}, {"padded": 80, "one by one": 43}).ranking()
        'On this run the fastest was padded (80 cell steps), the slowest one by one (43 cell steps).'
        """
        order = sorted(self.times, key=lambda k: self.times[k].median)

        def steps(k: str) -> str:
            return f" ({self.steps[k]:,} cell steps)" if k in self.steps else ""

        return f"On this run the fastest was {order[0]}{steps(order[0])}, the slowest {order[-1]}{steps(order[-1])}."


def strategy_costs(rnn: TinyRNN, sentences: Sequence[np.ndarray], repeat: int = 5, k: int = 2,
                   extra: dict[str, Any] | None = None, extra_steps: dict[str, int] | None = None,
                   progress: Any = None) -> StrategyCosts:
    """Time one batch, strategy by strategy: our static engine padded (one compiled graph) and bucketed (``k``
    graphs), our dynamic engine sentence by sentence, and ``torch.nn.RNN`` padded, packed and sentence by
    sentence; ``extra``: more labelled callables (e.g. a ``tf.function``), ``extra_steps`` the cell steps they
    run. Graphs are built and compiled before
    timing: this measures running, not compiling."""
    from ..adapters.loader import load_torch

    torch = load_torch()
    from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence

    from ..measure import measure

    tick = progress.tick if progress is not None else (lambda *_: None)
    lens = [len(x) for x in sentences]
    T = max(lens)
    static = StaticUnroll(rnn, T)
    padded_batch = pad(sentences)
    groups = buckets(lens, k=k)
    bucket_runs = []
    for g in groups:
        part = [sentences[i] for i in g]
        unroll = StaticUnroll(rnn, max(len(x) for x in part))
        bucket_runs.append((unroll, pad(part)))
    net = to_torch(rnn)
    tx = pad_sequence([torch.from_numpy(np.asarray(x)) for x in sentences], batch_first=True)
    tlens = torch.tensor(lens)
    singles = [torch.from_numpy(np.asarray(x))[None] for x in sentences]
    cases: dict[str, Any] = {
        "our static engine: padded, one graph": lambda: static.run(*padded_batch),
        f"our static engine: {len(groups)} buckets, {len(groups)} graphs":
            lambda: [u.run(*b) for u, b in bucket_runs],
        "our dynamic engine: one sentence at a time": lambda: [dynamic_unroll(rnn, x) for x in sentences],
        "torch nn.RNN: padded batch (wrong for short sentences)": lambda: net(tx),
        "torch nn.RNN: pack_padded_sequence": lambda: net(pack_padded_sequence(tx, tlens, batch_first=True,
                                                                              enforce_sorted=False)),
        "torch nn.RNN: one sentence at a time": lambda: [net(x) for x in singles],
    }
    cases.update(extra or {})
    packed = pack_padded_sequence(tx, tlens, batch_first=True, enforce_sorted=False)
    steps = {
        "our static engine: padded, one graph": padding_count(lens).total,
        f"our static engine: {len(groups)} buckets, {len(groups)} graphs": bucketed_count(lens, groups).total,
        "our dynamic engine: one sentence at a time": sum(lens),
        "torch nn.RNN: padded batch (wrong for short sentences)": padding_count(lens).total,
        "torch nn.RNN: pack_padded_sequence": int(packed.batch_sizes.sum()),
        "torch nn.RNN: one sentence at a time": sum(lens),
        **(extra_steps or {}),
    }
    times = {}
    with torch.no_grad():
        for label, fn in cases.items():
            tick(label)
            times[label] = measure(fn, repeat=repeat, budget=0.1)
    return StrategyCosts(times, steps)


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
    rows = sum(len(g) for g in groups)
    width = label_w + widest * cell + 210
    height = rows * cell + gap * (len(groups) - 1) + 8
    parts: list[str] = []
    y = 4.0
    for gi, g in enumerate(groups):
        T = max(lens[i] for i in g)
        for i in g:
            parts.append(f'<text x="{label_w - 6}" y="{y + cell * 0.72:.1f}" text-anchor="end" font-size="12">'
                         f"sentence {i + 1}</text>")
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
        count = padding_count([lens[i] for i in g])
        label = f"bucket {gi + 1}: " if len(groups) > 1 else ""
        parts.append(f'<text x="{label_w + T * cell + 8}" y="{y - cell * 0.3:.1f}" font-size="12">'
                     f"{html.escape(label)}padded to {T}, {count.padded} zeros</text>")
        y += gap
    return (f'<svg xmlns="http://www.w3.org/2000/svg" id="{html.escape(svg_id)}" width="{width * scale:g}" '
            f'height="{height * scale:g}" viewBox="0 0 {width} {height}" style="max-width:100%;height:auto" role="img" '
            'font-family="Helvetica,Arial,sans-serif">' + "".join(parts) + "</svg>")
