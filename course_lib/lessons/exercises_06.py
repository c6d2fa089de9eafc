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

from .. import i18n
from ..i18n import N_, say
from . import sequences as sq
from .exercises import NOT_IT, Exercise, choice, number

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

# The verdicts (course messages, said when the answer is checked; a test reads which one: ``.msgid``).
WHOLE_NUMBER_OF_STEPS = N_("answer with a whole number of cell steps")
PADDED_WHY = N_("{batch} × {longest} = {total} steps, {real} on words")
EVERY_STEP = N_("that is every step of the padded batch; how many of them are on padding?")
REAL_WORDS = N_("that is the number of real words; the question asks for the padding")
AT_MOST_TWO_NUMBERS = N_("answer with a list of at most two whole numbers, e.g. {example}")
TOO_MANY_BOUNDARIES = N_("{n} boundaries make {buckets} buckets (graphs); use at most two")
BUCKETS_WHY = N_("{padded} padded steps in {buckets} buckets (padded to {longest}), down from {before} with one "
                 "bucket")
OVER_TARGET = N_("{padded} padded steps with {limits}; the target is at most {target}")
A_LIST_OF_RAGGED_SPECS = N_("input_signature is a list with one spec per argument: {example}")
TF_REFUSED_IT = N_("TensorFlow refused it: {line}")
RAN_OTHER_NUMBERS = N_("it ran but gave other numbers: keep float64 and 3 numbers per word")
TRACED_TIMES = N_("it traced {n} times")
ONE_GRAPH = N_("one graph for every batch: the number of sentences and of words is left open")
ONE_NUMBER_PER_STEP = N_("answer with a list of whole numbers, one per time step")
PACKED_WHY = N_("{n} cell steps in all, the number of words: time step t runs only the sentences that still have a "
                "word t")
STEPS_OF_LONGEST = N_("there is one number per time step, and the longest sentence has {n} steps")


@functools.cache
def padded_steps() -> Exercise:
    """06.1: cell steps spent on padding when :data:`PADDED_LENGTHS` are padded to the longest."""

    def check(answer: Any) -> tuple[bool, str]:
        count = sq.padding_count(PADDED_LENGTHS)
        got = number(answer)
        if got is None:
            return False, say(WHOLE_NUMBER_OF_STEPS)
        if got == count.padded:
            return True, say(PADDED_WHY, batch=len(PADDED_LENGTHS), longest=max(PADDED_LENGTHS), total=count.total,
                             real=count.real)
        if got == count.total:
            return False, say(EVERY_STEP)
        if got == count.real:
            return False, say(REAL_WORDS)
        return False, say(NOT_IT, answer=i18n.number(got, spec="g"))

    return Exercise("06.1", N_("How many cell steps run on padding?"), check,
                    hints=[N_("every sentence runs as many steps as the longest one"),
                           N_("padded steps = batch size × longest length − total words")])


@functools.cache
def bucket_boundaries() -> Exercise:
    """06.2: at most two boundaries for :data:`BUCKET_LENGTHS` leaving at most :data:`BUCKET_TARGET` padded steps."""

    def check(answer: Any) -> tuple[bool, str]:
        try:
            limits = [int(b) for b in answer]
        except (TypeError, ValueError):
            return False, say(AT_MOST_TWO_NUMBERS, example="[6, 15]")
        if len(limits) > 2:
            return False, say(TOO_MANY_BOUNDARIES, n=len(limits), buckets=len(limits) + 1)
        groups = sq.buckets(BUCKET_LENGTHS, boundaries=limits)
        count = sq.bucketed_count(BUCKET_LENGTHS, groups)
        if count.padded <= BUCKET_TARGET:
            return True, say(BUCKETS_WHY, padded=count.padded, buckets=len(groups),
                             longest=", ".join(str(max(BUCKET_LENGTHS[i] for i in g)) for g in groups),
                             before=sq.padding_count(BUCKET_LENGTHS).padded)
        return False, say(OVER_TARGET, padded=count.padded, limits=limits, target=BUCKET_TARGET)

    return Exercise("06.2", say(N_("Two boundaries that leave at most {target} padded steps."), target=BUCKET_TARGET),
                    check,
                    hints=[N_("look at the sorted lengths: where are the big jumps?"),
                           N_("a boundary b puts every length ≤ b in the lower bucket; cut at the jumps 5→9 and "
                              "12→20")])


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
            return False, say(A_LIST_OF_RAGGED_SPECS, example="[tf.RaggedTensorSpec(...)]")
        try:
            f = tf.function(lambda batch: tf.reduce_sum(batch, axis=1), input_signature=list(answer))
            got = [f(tf.ragged.constant(b, dtype=tf.float64, ragged_rank=1)).numpy() for b in ragged_batches()]
        except (TypeError, ValueError) as err:
            return False, say(TF_REFUSED_IT, line=str(err).splitlines()[0][:160])
        want = [np.array([np.sum(s, axis=0) for s in b]) for b in ragged_batches()]
        if not all(np.allclose(g, w) for g, w in zip(got, want)):
            return False, say(RAN_OTHER_NUMBERS)
        traces = f.experimental_get_tracing_count()
        if traces != 1:
            return False, say(TRACED_TIMES, n=traces)
        return True, say(ONE_GRAPH)

    return Exercise("06.3", N_("A signature that takes every ragged batch in one trace."), check,
                    hints=[N_("a RaggedTensor needs a tf.RaggedTensorSpec, not a TensorSpec"),
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
            return False, say(ONE_NUMBER_PER_STEP)
        if got == truth:
            return True, say(PACKED_WHY, n=sum(truth))
        if len(got) != len(truth):
            return False, say(STEPS_OF_LONGEST, n=len(truth))
        return False, say(NOT_IT, answer=got)

    return Exercise("06.4", N_("What are the packed sequence's batch_sizes?"), check,
                    hints=[N_("batch_sizes[t] = how many sentences have at least t + 1 words"),
                           N_("lengths 5, 2, 3: at step 1 all three are running; at step 3, only two")])


#: 06.5's options: how to serve a sentiment RNN as one ``tf.function`` when sentences come in every length.
SERVING_CHOICES = {
    "a": N_("pad every batch to the longest sentence ever seen with zeros: one trace, and the scores do not change"),
    "b": N_("a tf.function over a Python loop on each sentence's length: one trace, since the code is the same"),
    "c": N_("a ragged input_signature and a loop over tf.range: one trace, and each sentence runs its own length"),
    "d": N_("no tf.function can do it: a static graph has one length, so only define-by-run serves every length"),
}


@functools.cache
def serving_choice() -> Exercise:
    """06.5: a decision with its reason (sections 3 and 5 counted the evidence: scores changed by unmasked zeros,
    one trace per padded length, one trace for the ragged function)."""
    why = {
        "a": N_("one trace, yes, but zeros without a mask change the scores (section 3): padding needs a mask or "
                "lengths"),
        "b": N_("a Python loop runs while tracing, so the graph is unrolled to one length: one trace per new length"),
        "c": N_("the loop on a tensor becomes a tf.while_loop inside the graph, and the ragged signature admits "
                "every length: section 5 counted one trace"),
        "d": N_("a loop inside the graph (tf.while_loop) is static and runs any number of steps"),
    }
    return Exercise("06.5", N_("Which way serves sentences of every length with one trace and unchanged scores?"),
                    choice(SERVING_CHOICES, "c", why),
                    hints=[N_("which of section 5's functions traced only once?"),
                           N_("what did the zeros do in section 3?")])
