"""Presenting in class: ``cl.set_theme`` and ``cl.present()`` as the notebooks reach them (``import course_lib as
cl``), quiet return values, and menu labels that are those of the installed JupyterLab."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import course_lib as cl
from course_lib import render
from course_lib.i18n import message_of
from course_lib.render import theme


@pytest.fixture(autouse=True)
def _classroom_after():
    yield
    render.set_theme("classroom")


def test_set_theme_is_reachable_from_cl_and_returns_nothing() -> None:
    assert cl.set_theme("presenter") is None and render.set_theme("presenter") is None
    big = render.get_theme().fontsize
    cl.set_theme("classroom")
    assert render.get_theme().fontsize < big
    with pytest.raises(ValueError) as info:
        cl.set_theme("disco")
    assert message_of(info.value).msgid is theme.UNKNOWN_THEME and message_of(info.value).values["theme"] == "disco"


def test_present_sets_the_presenter_theme_and_says_what_to_click(capsys) -> None:
    assert cl.present() is None
    assert render.get_theme() is render.get_theme("presenter")
    out = capsys.readouterr().out
    for step in cl.PRESENT_STEPS:
        assert step in out
    assert "cl.set_theme('classroom')" in out


def test_the_menu_items_named_exist_in_the_installed_jupyterlab() -> None:
    static = Path(sys.prefix) / "share" / "jupyter" / "lab" / "static"
    bundles = sorted(static.glob("jlab_core*.js"))
    if not bundles:
        pytest.skip("JupyterLab's static files are not installed in this environment")
    text = "".join(b.read_text(encoding="utf-8", errors="replace") for b in bundles)
    named = {m for step in cl.PRESENT_STEPS for m in re.findall(r"Appearance → ([A-Z][A-Za-z ]+?)(?: \(|:)", step)}
    assert named == {"Presentation Mode", "Simple Interface", "Show Left Sidebar"}
    for label in named:
        assert f'"{label}"' in text, \
            f"JupyterLab has no menu item labelled {label!r}: update PRESENT_STEPS and the README"
