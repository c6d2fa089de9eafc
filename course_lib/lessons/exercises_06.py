"""The checked exercises of notebook 06, *Variable-length sequences*: defined here so the answers stay out of the
notebook. Expected answers are computed at check time (by :mod:`course_lib.lessons.sequences`, real TensorFlow or real
PyTorch), never typed in; the frameworks are imported only when an answer is checked. Each function returns the
same :class:`Exercise` on every call, so a re-run cell keeps counting attempts and the hints move on.
Worked solutions: ``instructor/06_variable_length_sequences_solutions.md``.

>>> padded_steps().check(21).ok
True
>>> bucket_boundaries().check([5, 12]).ok
True
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from . import sequences as sq
from .exercises import Exercise, choice, number

__all__ = [
    "BUCKET_LENGTHS",
    "BUCKET_TARGET",
    "PACKED_LENGTHS",
    "PADDED_LENGTHS",
    "SERVING_CHOICES",
    "bucket_boundaries",
    "packed_batch_sizes",
    "padded_steps",
    "ragged_batches",
    "ragged_signature",
    "serving_choice",
]

#: 06.1: a batch padded to its longest sentence.
PADDED_LENGTHS = [7, 3, 12, 5]
#: 06.2: sixteen sentence lengths, and the most padded steps allowed with at most two boundaries.
BUCKET_LENGTHS = [2, 3, 3, 4, 5, 9, 10, 11, 11, 12, 20, 21, 22, 25, 3, 10]
BUCKET_TARGET = 35
#: 06.4: the lengths given to pack_padded_sequence.
PACKED_LENGTHS = [5, 2, 3]


@functools.cache
def padded_steps() -> Exercise:
    """06.1: cell steps spent on padding when :data:`PADDED_LENGTHS` are padded to the longest."""

    def check(answer: Any) -> tuple[bool, str]:
        count = sq.padding_count(PADDED_LENGTHS)
        got = number(answer)
        if got is None:
            return False, "answer with a whole number of cell steps"
        if got == count.padded:
            return True, f"{len(PADDED_LENGTHS)} × {max(PADDED_LENGTHS)} = {count.total} steps, {count.real} on words"
        if got == count.total:
            return False, "that is every step of the padded batch; how many of them are on padding?"
        if got == count.real:
            return False, "that is the number of real words; the question asks for the padding"
        return False, f"{got:g} is not it"

    return Exercise("06.1", "How many cell steps run on padding?", check,
                    hints=["every sentence runs as many steps as the longest one",
                           "padded steps = batch size × longest length − total words"])


@functools.cache
def bucket_boundaries() -> Exercise:
    """06.2: at most two boundaries for :data:`BUCKET_LENGTHS` leaving at most :data:`BUCKET_TARGET` padded steps."""

    def check(answer: Any) -> tuple[bool, str]:
        try:
            limits = [int(b) for b in answer]
        except (TypeError, ValueError):
            return False, "answer with a list of at most two whole numbers, e.g. [6, 15]"
        if len(limits) > 2:
            return False, f"{len(limits)} boundaries make {len(limits) + 1} buckets (graphs); use at most two"
        groups = sq.buckets(BUCKET_LENGTHS, boundaries=limits)
        count = sq.bucketed_count(BUCKET_LENGTHS, groups)
        if count.padded <= BUCKET_TARGET:
            return True, (f"{count.padded} padded steps in {len(groups)} buckets (padded to "
                          f"{', '.join(str(max(BUCKET_LENGTHS[i] for i in g)) for g in groups)}), down from "
                          f"{sq.padding_count(BUCKET_LENGTHS).padded} with one bucket")
        return False, f"{count.padded} padded steps with {limits}; the target is at most {BUCKET_TARGET}"

    return Exercise("06.2", f"Two boundaries that leave at most {BUCKET_TARGET} padded steps.", check,
                    hints=["look at the sorted lengths: where are the big jumps?",
                           "a boundary b puts every length ≤ b in the lower bucket; cut at the jumps 5→9 and 12→20"])


def ragged_batches() -> list[list[list[float]]]:
    """06.3's three batches of sentences (lists of word vectors of size 3), each with another longest length."""
    rng = np.random.default_rng(6)
    return [[rng.normal(size=(n, 3)).round(3).tolist() for n in lens] for lens in ([2, 4], [5, 1, 3], [7, 2])]


@functools.cache
def ragged_signature() -> Exercise:
    """06.3: an ``input_signature`` under which a tf.function takes every batch of :func:`ragged_batches` in ONE
    trace: ``[batch, (words), 3]`` float64, ragged in the number of words."""

    def check(answer: Any) -> tuple[bool, str]:
        from ..adapters.loader import load_tensorflow

        tf = load_tensorflow()
        if not isinstance(answer, (list, tuple)):
            return False, "input_signature is a list with one spec per argument: [tf.RaggedTensorSpec(...)]"
        try:
            f = tf.function(lambda batch: tf.reduce_sum(batch, axis=1), input_signature=list(answer))
            got = [f(tf.ragged.constant(b, dtype=tf.float64, ragged_rank=1)).numpy() for b in ragged_batches()]
        except (TypeError, ValueError) as err:
            return False, f"TensorFlow refused it: {str(err).splitlines()[0][:160]}"
        want = [np.array([np.sum(s, axis=0) for s in b]) for b in ragged_batches()]
        if not all(np.allclose(g, w) for g, w in zip(got, want)):
            return False, "it ran but gave other numbers: keep float64 and 3 numbers per word"
        traces = f.experimental_get_tracing_count()
        if traces != 1:
            return False, f"it traced {traces} times"
        return True, "one graph for every batch: the number of sentences and of words is left open"

    return Exercise("06.3", "A signature that takes every ragged batch in one trace.", check,
                    hints=["a RaggedTensor needs a tf.RaggedTensorSpec, not a TensorSpec",
                           "tf.RaggedTensorSpec(shape=[None, None, 3], dtype=tf.float64, ragged_rank=1)"])


@functools.cache
def packed_batch_sizes() -> Exercise:
    """06.4: ``PackedSequence.batch_sizes`` for :data:`PACKED_LENGTHS`."""

    def check(answer: Any) -> tuple[bool, str]:
        from ..adapters.loader import load_torch

        torch = load_torch()
        from torch.nn.utils.rnn import pack_padded_sequence

        x = torch.zeros(len(PACKED_LENGTHS), max(PACKED_LENGTHS), 3)
        packed = pack_padded_sequence(x, torch.tensor(PACKED_LENGTHS), batch_first=True, enforce_sorted=False)
        truth = [int(v) for v in packed.batch_sizes]
        try:
            got = [int(v) for v in answer]
        except (TypeError, ValueError):
            return False, "answer with a list of whole numbers, one per time step"
        if got == truth:
            return True, (f"{sum(truth)} cell steps in all, the number of words: time step t runs only the "
                          "sentences that still have a word t")
        if len(got) != len(truth):
            return False, f"there is one number per time step, and the longest sentence has {len(truth)} steps"
        return False, f"{got} is not it"

    return Exercise("06.4", "What are the packed sequence's batch_sizes?", check,
                    hints=["batch_sizes[t] = how many sentences have at least t + 1 words",
                           "lengths 5, 2, 3: at step 1 all three are running; at step 3, only two"])


#: 06.5's options: how to serve a sentiment RNN as one ``tf.function`` when sentences come in every length.
SERVING_CHOICES = {
    "a": "pad every batch to the longest sentence ever seen with zeros: one trace, and the scores do not change",
    "b": "a tf.function over a Python loop on each sentence's length: one trace, since the code is the same",
    "c": "a ragged input_signature and a loop over tf.range: one trace, and each sentence runs its own length",
    "d": "no tf.function can do it: a static graph has one length, so only define-by-run serves every length",
}


@functools.cache
def serving_choice() -> Exercise:
    """06.5: a decision with its reason (sections 3 and 5 counted the evidence: scores changed by unmasked zeros,
    one trace per padded length, one trace for the ragged function)."""
    why = {
        "a": "one trace, yes, but zeros without a mask change the scores (section 3): padding needs a mask or lengths",
        "b": "a Python loop runs while tracing, so the graph is unrolled to one length: one trace per new length",
        "c": "the loop on a tensor becomes a tf.while_loop inside the graph, and the ragged signature admits every "
             "length: section 5 counted one trace",
        "d": "a loop inside the graph (tf.while_loop) is static and runs any number of steps",
    }
    return Exercise("06.5", "Which way serves sentences of every length with one trace and unchanged scores?",
                    choice(SERVING_CHOICES, "c", why),
                    hints=["which of section 5's functions traced only once?", "what did the zeros do in section 3?"])
