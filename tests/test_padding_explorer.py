"""course_lib.lessons.padding_explorer: what the sliders show is what sequences counts; graphs rebuilt as lengths
change."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("ipywidgets")

from course_lib import render
from course_lib.lessons import sequences as sq
from course_lib.lessons.padding_explorer import PaddingExplorer


def test_no_spread_no_padding() -> None:
    e = PaddingExplorer(spread=0)
    c = e.counts()
    assert c["lengths"] == [6] * 8
    assert c["padded"].padded == 0 and c["static graph steps"] == 6
    assert repr(e) == "PaddingExplorer(spread=0, buckets=1, sentence=1)"


def test_counts_match_the_sequences_module() -> None:
    e = PaddingExplorer(spread=4, buckets=3, sentence=2)
    lens = sq.lengths_with_spread(4)
    c = e.counts()
    assert c["padded"] == sq.padding_count(lens)
    assert c["bucketed"] == sq.bucketed_count(lens, sq.buckets(lens, k=3))
    assert c["dynamic"] == sq.PaddingCount(sum(lens), 0)
    assert c["dynamic graph steps"] == lens[1]
    assert f"{c['padded'].padded} on padding" in e.summary.value


def test_static_graph_is_rebuilt_and_compiled_once_per_new_longest_length() -> None:
    e = PaddingExplorer(spread=1)
    assert e.counts()["static graphs compiled"] == 1
    e.set(spread=3)
    e.set(spread=1)  # back to a length already seen: graph and plan reused
    assert e.counts()["static graphs compiled"] == 2
    assert e.counts()["static graph steps"] == 7
    assert "ONE graph of 7 steps" in e.static_title.value


def test_the_dynamic_graph_follows_the_sentence_picked() -> None:
    e = PaddingExplorer(spread=5, sentence=1)
    assert "has 1 step<" in e.dynamic_title.value  # one step, not "1 step(s)"
    e.set(sentence=4)
    assert "has 11 steps<" in e.dynamic_title.value
    assert "step 11" in e.dynamic_view.value


def test_set_clips_and_buckets_draw_blocks() -> None:
    e = PaddingExplorer()
    e.set(spread=99, buckets=0, sentence=-3)
    assert repr(e) == "PaddingExplorer(spread=5, buckets=1, sentence=1)"
    e.set(buckets=2)
    assert "bucket 2: padded to" in e.grid.value


def test_a_failing_slider_callback_shows_its_error_and_the_widget_goes_on(monkeypatch) -> None:
    e = PaddingExplorer()

    def broken(*_args: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(sq, "dynamic_unroll", broken)
    e.set(sentence=2)  # the slider's callback raises: shown in the widget, not swallowed by JupyterLab
    assert "<b>Problem:</b> ZeroDivisionError: division by zero" in e.message.value
    monkeypatch.undo()
    e.set(sentence=3)
    assert e.message.value == "" and "sentence 3" in e.dynamic_title.value


def font_sizes(markup: str) -> list[int]:
    return [int(px) for px in re.findall(r"font-size:(\d+)px", re.sub(r"<svg.*?</svg>", "", markup, flags=re.DOTALL))]


def test_the_presenter_theme_enlarges_every_word() -> None:
    small = PaddingExplorer()
    render.set_theme("presenter")
    try:
        big = PaddingExplorer()
    finally:
        render.set_theme("classroom")
    for part in ("summary", "static_title", "dynamic_title"):
        before, after = font_sizes(getattr(small, part).value), font_sizes(getattr(big, part).value)
        assert len(after) == len(before) > 0 and all(b > a for a, b in zip(before, after, strict=True)), part


def test_a_wrong_rnn_is_refused_with_a_course_message() -> None:
    from course_lib.i18n import message_of
    from course_lib.lessons import padding_explorer

    with pytest.raises(TypeError) as info:
        PaddingExplorer(rnn=3)
    assert message_of(info.value).msgid is padding_explorer.RNN_NOT_TINY
    assert message_of(info.value).values == {"type": "int", "rnn": "3"}
