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
graph per group length). Everything is counted, so a notebook can assert it; nothing here is timed but
:func:`strategy_costs`. The padding arithmetic and its pictures are :mod:`course_lib.lessons.padding`'s (re-exported
here).

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

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import dynamic as dy
from .. import static as st
from ..graph import Graph
from ..i18n import N_, Plural, Said, number, say
from ..i18n import gettext as _
from .padding import (
    PaddingCount,
    bucketed_count,
    buckets,
    grid_svg,
    lengths_with_spread,
    pad,
    padding_count,
    plot_waste,
    sentences_with_spread,
    waste_rows,
)

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
    "ran_op_types",
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


NO_STEP = N_("a static unroll needs at least one step")
BAD_SHAPE = N_("x must have shape (batch, steps, {dim}), got {shape}")
WRONG_LENGTH = Plural("this graph was built for exactly {steps} step, the batch has {got}: a static graph's length is "
                      "fixed. Pad the batch to {steps} with pad(sentences, length={steps}), or build (and compile) "
                      "another graph for that length",
                      "this graph was built for exactly {steps} steps, the batch has {got}: a static graph's length is "
                      "fixed. Pad the batch to {steps} with pad(sentences, length={steps}), or build (and compile) "
                      "another graph for that length", count="steps")
#: The strategies :func:`strategy_costs` times, by their labels (keys of its ``times`` and ``steps``, in English).
PADDED, BUCKETED, ONE_BY_ONE = (N_("our static engine: padded, one graph"),
                                N_("our static engine: {n} buckets, {n} graphs"),
                                N_("our dynamic engine: one sentence at a time"))
TORCH_PADDED, TORCH_PACKED, TORCH_ONE_BY_ONE = (N_("torch nn.RNN: padded batch (wrong for short sentences)"),
                                                N_("torch nn.RNN: pack_padded_sequence"),
                                                N_("torch nn.RNN: one sentence at a time"))
RANKING = N_("On this run the fastest was {fastest}, the slowest {slowest}.")
#: The names of the boxes a drawing of an unrolled RNN shows (name scopes, in the language of the moment).
STEP, WEIGHTS = N_("step {t}"), N_("weights")


def tokens(sentence: str | Sequence[str]) -> list[str]:
    """Lower-case words of a sentence (letters, digits and apostrophes); a list of words is returned as is.

    >>> tokens("Not good, at ALL!")
    ['not', 'good', 'at', 'all']
    """
    if isinstance(sentence, str):
        return re.findall(r"[a-z0-9']+", sentence.lower())
    return [str(w) for w in sentence]


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

    Every op is named ``step t/...`` (French ``pas t/...``: the names are the drawing's boxes, in the language of
    the moment) so the recorded graph can be drawn one box per step.
    """
    weights = _(WEIGHTS)  # the boxes' names, in the language of the moment
    wx, wh = dy.Parameter(rnn.wx, name=f"{weights}/Wx"), dy.Parameter(rnn.wh, name=f"{weights}/Wh")
    b, v = dy.Parameter(rnn.b, name=f"{weights}/b"), dy.Parameter(rnn.v, name=f"{weights}/v")
    h: Any = None  # h_0 = 0, so step 1 is tanh(x_1·Wx + b): no h·Wh term to record
    cells = []
    for t in range(len(x)):
        scope = _(STEP).format(t=t + 1)
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
            raise ValueError(say(NO_STEP))
        self.rnn = rnn
        self.steps = int(steps)
        self.masked = masked
        self.graph = st.Graph(str(say(Plural("static RNN, {n} step", "static RNN, {n} steps"), n=self.steps)))
        self.xs: list[st.Tensor] = []
        self.masks: list[st.Tensor] = []
        with self.graph.as_default():
            with st.name_scope(_(WEIGHTS)):
                wx, wh = st.Variable(rnn.wx, name="Wx"), st.Variable(rnn.wh, name="Wh")
                b, v = st.Variable(rnn.b, name="b"), st.Variable(rnn.v, name="v")
            h: Any = None  # h_0 = 0: step 1 is tanh(x_1·Wx + b)
            for t in range(1, self.steps + 1):
                with st.name_scope(_(STEP).format(t=t)):
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
            raise ValueError(say(BAD_SHAPE, dim=self.rnn.dim, shape=x.shape))
        if x.shape[1] != self.steps:
            raise ValueError(say(WRONG_LENGTH, steps=self.steps, got=x.shape[1]))
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


# ---------------------------------------------------------------------------------------------- TensorFlow's runtime
def ran_op_types(graph: Any, fetch: Any = None) -> list[str]:
    """The op types TensorFlow's runtime really executed to fetch ``fetch`` (default: the first output of the last
    op) from ``graph``, a ``tf.Graph``: the partition graphs a ``tf.compat.v1.Session`` reports when run with
    ``RunOptions(output_partition_graphs=True)``.

    Why it matters: TensorFlow 2 stores a loop as one ``While`` op whose body is a separate function (an acyclic
    graph), but outside XLA the op carries ``_lower_using_switch_merge`` and the runtime's ``LowerFunctionalOpsPass``
    (``tensorflow/core/common_runtime/lower_functional_ops.cc``, ``lower_while_op.cc``) rewrites it, before running,
    into ``Enter``/``Merge``/``Switch``/``NextIteration``/``Exit`` with the body inlined: the cycle of TensorFlow 1's
    control flow, back in the graph that runs. Needs TensorFlow (no doctest here; ``tests/test_sequences.py``).
    """
    from ..adapters.loader import load_tensorflow

    tf = load_tensorflow()
    if fetch is None:
        fetch = graph.get_operations()[-1].outputs[0]
    options, metadata = tf.compat.v1.RunOptions(output_partition_graphs=True), tf.compat.v1.RunMetadata()
    with tf.compat.v1.Session(graph=graph) as session:
        session.run(fetch, options=options, run_metadata=metadata)
    return [node.op for partition in metadata.partition_graphs for node in partition.node]


# ---------------------------------------------------------------------------------------------- cost
@dataclass
class StrategyCosts:
    """Time per batch of each strategy (``times``: label -> Measurement) and the cell steps each one runs.

    The labels are keys (in English); ``said`` holds how the labels of :func:`strategy_costs` are said, so that
    they are shown in the language of the moment (another label, e.g. a notebook's, is shown as it is)."""

    times: dict[str, Any]
    steps: dict[str, int]
    said: dict[str, Said] = field(default_factory=dict)

    def label(self, key: str) -> str:
        """A strategy's label as it is shown."""
        found = self.said.get(key)
        return str(key) if found is None else _(found.msgid).format(**found.values)

    def table(self) -> Any:
        from ..measure import fmt_seconds
        from .compiling import Table

        return Table([_("one batch of sentences"), _("median"), _("spread (IQR)"), _("cell steps run")],
                     [(self.label(k), fmt_seconds(m.median), f"{fmt_seconds(m.low)}–{fmt_seconds(m.high)}",
                       number(self.steps[k], spec=",") if k in self.steps else "") for k, m in self.times.items()])

    def ranking(self) -> Said:
        """This run's fastest and slowest strategies by median, and the steps each ran: computed, not typed.

        >>> from course_lib.measure import Measurement
        >>> m = lambda s: Measurement(s, s, s, 1, 1)
        >>> StrategyCosts({"padded": m(1e-3), "one by one": m(5e-3)}, {"padded": 80, "one by one": 43}).ranking()
        'On this run the fastest was padded (80 cell steps), the slowest one by one (43 cell steps).'
        """
        order = sorted(self.times, key=lambda k: self.times[k].median)

        def steps(k: str) -> str:
            n = self.steps.get(k)
            if n is None:
                return self.label(k)
            return self.label(k) + say(Plural(" ({n} cell step)", " ({n} cell steps)", count="steps"),
                                       n=number(n, spec=","), steps=n)

        return say(RANKING, fastest=steps(order[0]), slowest=steps(order[-1]))


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
    bucketed = BUCKETED.format(n=len(groups))  # the key: English, whatever the language
    said = {key: say(key) for key in (PADDED, ONE_BY_ONE, TORCH_PADDED, TORCH_PACKED, TORCH_ONE_BY_ONE)}
    said[bucketed] = say(BUCKETED, n=len(groups))
    cases: dict[str, Any] = {
        PADDED: lambda: static.run(*padded_batch),
        bucketed: lambda: [u.run(*b) for u, b in bucket_runs],
        ONE_BY_ONE: lambda: [dynamic_unroll(rnn, x) for x in sentences],
        TORCH_PADDED: lambda: net(tx),
        TORCH_PACKED: lambda: net(pack_padded_sequence(tx, tlens, batch_first=True, enforce_sorted=False)),
        TORCH_ONE_BY_ONE: lambda: [net(x) for x in singles],
    }
    cases.update(extra or {})
    packed = pack_padded_sequence(tx, tlens, batch_first=True, enforce_sorted=False)
    steps = {
        PADDED: padding_count(lens).total,
        bucketed: bucketed_count(lens, groups).total,
        ONE_BY_ONE: sum(lens),
        TORCH_PADDED: padding_count(lens).total,
        TORCH_PACKED: int(packed.batch_sizes.sum()),
        TORCH_ONE_BY_ONE: sum(lens),
        **(extra_steps or {}),
    }
    costs = StrategyCosts({}, steps, said)
    with torch.no_grad():
        for label, fn in cases.items():
            tick(costs.label(label))
            costs.times[label] = measure(fn, repeat=repeat, budget=0.1)
    return costs
