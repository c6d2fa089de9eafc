"""Every widget kind driven with the keyboard alone in a real JupyterLab (issue 27; WCAG 2.1.1, 2.1.2, 2.4.3, 2.4.7).

One notebook holds one widget of each kind, as the lessons build them (``test_layout.SETUP`` and ``WIDGETS``), on a
laptop screen with the classroom theme. Once it has run, nothing is clicked: every move is a key press
(``page.keyboard``); the page is only read.

How a keyboard user reaches a widget in JupyterLab 4 (what ``to_cell`` does): ``Esc`` leaves a cell's editor for
command mode, ``↑``/``↓`` select the widget's cell, ``Tab`` goes from the cell into its output's controls (through
the cell toolbar's one tabbable button when the toolbar shows). Tab past a widget's last control goes on to the
next cell's widget; ``Shift+Tab`` from a widget's first control goes back to its cell, where ``↑``/``↓`` work again
(``Esc`` does nothing inside an output). A dropdown is opened with ``Alt+↓`` (then ``↓``/``↑`` and ``Enter``):
on a focused dropdown, JupyterLab's command mode takes plain ``↑``/``↓`` to select another cell, because it treats
as editable only what matches ``:read-write``, which a ``<select>`` does not.

* ``test_no_tooltip_says_null``: no element of any widget has ``title="null"`` (what ipywidgets' front end writes
  for a control whose tooltip is None: ``widgets.base.with_tooltips``).
* ``test_tab_walk``: Tab from the cell through the widget: every visible, enabled control (buttons, Play's, toggle
  buttons, check boxes, text boxes, dropdowns, slider handles and their editable read-outs) is reached, once, in
  the visual order (top to bottom, left to right), each with a visible focus ring (``:focus-visible``, a solid
  outline of ``Sizes.ring`` px, 3:1 against the page and the control, clipped by no box: ``widgets.sizing``);
  Tab past the last control leaves the widget and Shift+Tab comes back to it (no trap). The sequence (role and
  accessible name, from Chromium's accessibility tree) is saved as keyboard-<kind>.json.
* ``test_controls_work_from_the_keyboard``: each control operated by the keyboard changes what it should: a slider
  with the arrow keys, a read-out typed into, a check box with Space, a toggle button with Space, a dropdown with
  Alt+↓ ↓ Enter, a text box typed into and Enter, a button with Enter (the widget shows something else).
* ``test_stepping_from_the_keyboard``: Next and Previous with Enter and Space move the step; the step slider with
  the arrow keys, Home and End; Play started with Space runs, Space pauses it (its model's ``playing`` is false:
  the button shows play again, and no step comes for three pauses of the page's clock), Stop with Enter sends it
  back to step 0.
* ``test_every_control_has_a_name``: every control a Tab reaches has an accessible name, except the kinds in
  ``NAMELESS`` (strict: the day one gets its name, it comes off the list).
* ``test_dropdown_takes_the_arrow_keys``: ↑/↓ on a focused dropdown change its option (JupyterLab's command mode
  took them for moving between cells until the course's enhancer marked course dropdowns
  ``data-lm-suppress-shortcuts``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from course_lib import render
from course_lib.i18n import gettext as _
from course_lib.widgets.base import Sizes

from .labdriver import KERNEL_IDLE, wait_settled
from .test_layout import WIDGETS

ROOT = Path(__file__).resolve().parents[2]
KINDS = list(WIDGETS)
STEPPING = ["stepper", "stepper_static", "side_by_side"]
RING = Sizes.of(render.get_theme("classroom")).ring  # the notebook runs with the classroom theme
#: what a text box of a kind is given (a new expression, a new tree)
TYPED = {"expression": "exp(x) * w", "tree": "((a b) c)"}
#: controls without an accessible name today, by what they are (strict: see test_every_control_has_a_name).
#: ipywidgets gives a slider's handle role="slider" but no name (its label is a <label> of nothing) and its read-out
#: no name, and Play's buttons only an icon: the course's enhancer (labextension/course-a11y) names them all.
NAMELESS: set[str] = set()
CDP: dict[int, Any] = {}  # page -> its Chromium session (the accessibility tree)
TABS = 60  # more Tabs than any widget has controls: a walk that does not leave the widget by then is trapped

# What a control is, for one without an accessible name: its kind and the words beside it (a slider's label, which
# names nothing: ipywidgets' <label> points at no element of the slider).
DESCRIBE = """(a) => {
  const play = a.closest('.widget-play');
  const row = a.closest('.widget-inline-hbox, .widget-checkbox');
  const label = row && row.querySelector('.widget-label');
  const hint = play ? 'Play button' : a.classList.contains('noUi-handle') ? 'slider handle'
    : a.classList.contains('widget-readout') ? 'slider read-out' : a.tagName.toLowerCase();
  // its label's words, else its tooltip (kept on the hidden label of a slider without a description)
  const words = label ? label.textContent.trim() || label.title : row && row.title;
  const what = play ? (play.querySelectorAll('button')[0] === a ? 'play/pause' : 'stop')
    : words || (a.textContent || a.value || '').trim();
  return [hint, what];
}"""
# The controls of widget output k: every visible, enabled one a keyboard should reach (kept in the page, so a focused
# element is known by its place in this list); returns what each is.
CONTROLS = """(k) => {
  const out = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[k].querySelector('.jp-OutputArea');
  const all = [...out.querySelectorAll('button, input, select, textarea, .noUi-handle, .widget-readout')];
  window.__kbControls = all.filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
    && !e.disabled && e.type !== 'hidden' && (!e.classList.contains('widget-readout') || e.isContentEditable));
  return window.__kbControls.map(e => (""" + DESCRIBE + """)(e).join(' '));
}"""
# What has the focus: where (cell, output), which control of CONTROLS, a hint of what it is for a control without a
# name, its box relative to the output, and its focus ring (computed style, and whether a box of the widget clips it).
FOCUSED = """(k) => {
  const a = document.activeElement;
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')];
  const cell = cells.indexOf(a.closest('.jp-CodeCell'));
  const nb = document.querySelector('.jp-Notebook');
  const out = cells[k].querySelector('.jp-OutputArea');
  const res = {cell, onCell: a.classList.contains('jp-Cell'), inOut: out.contains(a),
    command: nb.classList.contains('jp-mod-commandMode'), index: (window.__kbControls || []).indexOf(a),
    tag: a.tagName.toLowerCase(), cls: String(a.className || '').slice(0, 60)};
  if (!res.inOut) return res;
  [res.hint, res.what] = (""" + DESCRIBE + """)(a);
  const r = a.getBoundingClientRect(), o = out.getBoundingClientRect();
  res.box = [r.left - o.left, r.top - o.top, r.right - o.left, r.bottom - o.top];
  const cs = getComputedStyle(a);
  const w = parseFloat(cs.outlineWidth) || 0, reach = Math.max(0, w + parseFloat(cs.outlineOffset || '0'));
  let page = 'rgb(255, 255, 255)';
  for (let p = a.parentElement; p; p = p.parentElement) {
    const bg = getComputedStyle(p).backgroundColor;
    if (bg && !bg.startsWith('rgba(0, 0, 0, 0)') && bg !== 'transparent') { page = bg; break; }
  }
  res.ring = {visible: a.matches(':focus-visible'), style: cs.outlineStyle, width: w, colour: cs.outlineColor,
    page, control: cs.backgroundColor, clippedBy: null};
  for (let p = a.parentElement; p && p !== out; p = p.parentElement) {
    const ps = getComputedStyle(p);
    if (ps.overflowX === 'visible' && ps.overflowY === 'visible') continue;
    const q = p.getBoundingClientRect();
    if (r.left - reach < q.left - 0.5 || r.right + reach > q.right + 0.5 || r.top - reach < q.top - 0.5
        || r.bottom + reach > q.bottom + 0.5) { res.ring.clippedBy = String(p.className).slice(0, 60); break; }
  }
  return res;
}"""
# A fingerprint of what widget output k shows (its words, each visible graph's boxes): what a button changes.
SHOWN = """(k) => {
  const out = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[k].querySelector('.jp-OutputArea');
  const svgs = [...out.querySelectorAll('svg')].filter(s => s.getClientRects().length);
  return out.innerText + '|' + svgs.map(s => s.querySelectorAll('g').length + ':' + s.textContent.length).join(',');
}"""


# ------------------------------------------------------------------------------------------------ the page
@pytest.fixture(scope="module")
def lab_page(laptop):
    """JupyterLab on a laptop screen with one widget of each kind, run: the session fixture test_layout.py measures
    first (conftest.WITH runs this file after it, on its worker); the Chromium session that reads names."""
    CDP[id(laptop)] = laptop.context.new_cdp_session(laptop)
    yield laptop
    del CDP[id(laptop)]


def cell_of(kind: str) -> int:
    return 1 + KINDS.index(kind)  # cell 0 is the setup


def state(page: Any, k: int) -> dict[str, Any]:
    return page.evaluate(FOCUSED, k)


def accessible(page: Any) -> tuple[str, str]:
    """(role, accessible name) of the focused element, as Chromium's accessibility tree computes them."""
    found = CDP[id(page)].send("Runtime.evaluate", {"expression": "document.activeElement"})
    node = CDP[id(page)].send("Accessibility.getPartialAXTree", {"objectId": found["result"]["objectId"],
                                                            "fetchRelatives": False})["nodes"][0]
    return node.get("role", {}).get("value", ""), str(node.get("name", {}).get("value", "")).strip()


def key_of(page: Any, s: dict[str, Any]) -> str:
    """How a control is named in a sequence and a failure: its role and accessible name, or, without a name, what
    it is (its hint) and the words beside it."""
    role, name = accessible(page)
    return f'{role} "{name}"' if name else f'(no name) {s["hint"]} "{s["what"]}"'


def press(page: Any, key: str, k: int) -> dict[str, Any]:
    page.keyboard.press(key)
    return state(page, k)


def to_cell(page: Any, k: int) -> None:
    """Keyboard only, from anywhere in the notebook: Shift+Tab out of a widget to its cell (Esc first, for an editor),
    then ↑/↓ in command mode to cell ``k``, whose node then has the focus."""
    s = press(page, "Escape", k)
    for _press in range(3 * TABS):
        if s["onCell"] and s["command"] and s["cell"] == k:
            return
        if s["onCell"] and s["command"]:
            s = press(page, "ArrowDown" if s["cell"] < k else "ArrowUp", k)
        else:
            s = press(page, "Shift+Tab", k)
    raise AssertionError(f"the keyboard did not reach cell {k}: the focus is on {s['tag']}.{s['cls']}")


def enter_widget(page: Any, k: int) -> tuple[dict[str, Any], list[str]]:
    """From cell ``k``, Tab until the focus is inside its output; returns the state and what was passed on the way."""
    to_cell(page, k)
    passed = []
    for _press in range(5):
        s = press(page, "Tab", k)
        if s["inOut"]:
            return s, passed
        passed.append(f"{s['tag']}.{s['cls']}")
    raise AssertionError(f"Tab from cell {k} did not enter its widget; it went through {passed}")


def walk(page: Any, k: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Tab through widget output k from its cell: each control reached (its state and key), and where the focus went
    after the last one."""
    page.evaluate(CONTROLS, k)
    s, _passed = enter_widget(page, k)
    seq = []
    for _press in range(TABS):
        if not s["inOut"]:
            return seq, s
        seq.append({**s, "key": key_of(page, s)})
        s = press(page, "Tab", k)
    raise AssertionError(f"keyboard trap: {TABS} Tabs did not leave widget {k}; last: {seq[-1]['key']}")


def tab_to(page: Any, k: int, key: str) -> dict[str, Any]:
    """Put the keyboard focus on the control named ``key`` of widget output k, with Tab from its cell."""
    s, _passed = enter_widget(page, k)
    for _press in range(TABS):
        if s["inOut"] and key_of(page, s) == key:
            return {**s, "key": key}
        if not s["inOut"]:
            break
        s = press(page, "Tab", k)
    raise AssertionError(f"Tab from cell {k} never reached {key}")


# ------------------------------------------------------------------------------------------------ colour
def luminance(css: str) -> float:
    """WCAG relative luminance of a CSS rgb()/rgba() colour (its alpha ignored: the colours read here are opaque)."""
    r, g, b = (int(v) / 255 for v in re.findall(r"[\d.]+", css)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio. >>> round(contrast('rgb(17, 17, 17)', 'rgb(255, 255, 255)'), 1) -> 18.9"""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def opaque(css: str) -> bool:
    alpha = re.findall(r"[\d.]+", css)[3:4]
    return not alpha or float(alpha[0]) > 0.5


def ring_problems(c: dict[str, Any]) -> list[str]:
    """What is wrong with the focus ring of a control reached by Tab (empty: a visible ring)."""
    ring, out = c["ring"], []
    if not ring["visible"] or ring["style"] in ("none", "hidden"):
        out.append("no focus ring" + ("" if ring["visible"] else " (not :focus-visible)"))
        return out
    if ring["width"] < max(2, RING):
        out.append(f"a ring of {ring['width']:g} px (at least {RING})")
    for what, colour in (("the page", ring["page"]), ("the control", ring["control"])):
        if opaque(colour) and contrast(ring["colour"], colour) < 3:
            out.append(f"ring {ring['colour']} on {what} {colour}: {contrast(ring['colour'], colour):.2f}:1 < 3:1")
    if ring["clippedBy"]:
        out.append(f"ring cut by the box {ring['clippedBy']!r}")
    return out


def out_of_order(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """``b`` comes before ``a`` in reading order: wholly above it, or on its line and wholly left of it."""
    (al, at, _ar, ab), (_bl, bt, br, bb) = a["box"], b["box"]
    same_line = bt < ab and at < bb
    return bb <= at + 1 or (same_line and br <= al + 1)


# ------------------------------------------------------------------------------------------------ tests
def test_no_tooltip_says_null(lab_page):
    found = lab_page.evaluate("""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].map(c =>
        c.querySelectorAll('.jp-OutputArea [title="null"]').length)""")
    nulls = {kind: n for kind, n in zip(["setup", *KINDS], found, strict=True) if n}
    assert not nulls, f'elements with title="null" in each widget kind: {nulls}'


@pytest.fixture(scope="module")
def walks(lab_page, artifacts):
    """The Tab walk of every kind, made once (read by the name test too)."""
    done: dict[str, Any] = {}
    for kind in KINDS:
        k = cell_of(kind)
        seq, after = walk(lab_page, k)
        expected = lab_page.evaluate(CONTROLS, k)
        back = press(lab_page, "Shift+Tab", k)
        for _press in range(2):  # the next cell, now active, is in the tab order before its widget
            if back["inOut"]:
                break
            back = press(lab_page, "Shift+Tab", k)
        done[kind] = {"seq": seq, "after": after, "back": back, "expected": expected}
        (artifacts / f"keyboard-{kind}.json").write_text(json.dumps(
            [{"key": c["key"], "box": [round(v) for v in c["box"]], "ring": c["ring"]} for c in seq], indent=1,
            ensure_ascii=False), encoding="utf-8")
    return done


@pytest.mark.parametrize("kind", KINDS)
def test_tab_walk(walks, kind):
    w = walks[kind]
    seq = w["seq"]
    reached = [c["index"] for c in seq]
    missing = [what for i, what in enumerate(w["expected"]) if i not in reached]
    assert not missing, f"{kind}: Tab never reaches {missing}; it reached {[c['key'] for c in seq]}"
    assert len(reached) == len(set(reached)), f"{kind}: a control reached twice: {[c['key'] for c in seq]}"
    backwards = [f"{a['key']} -> {b['key']}" for a, b in zip(seq, seq[1:], strict=False) if out_of_order(a, b)]
    assert not backwards, f"{kind}: Tab goes against the reading order: {backwards}"
    rings = {c["key"]: p for c in seq if (p := ring_problems(c))}
    assert not rings, f"{kind}: focus rings: {rings}"
    assert not w["after"]["inOut"], f"{kind}: Tab past {seq[-1]['key']} did not leave the widget"
    assert w["back"]["inOut"] and w["back"]["index"] == seq[-1]["index"], \
        f"{kind}: Shift+Tab after leaving did not come back to {seq[-1]['key']}"


def test_every_control_has_a_name(walks):
    nameless = {c["hint"] for w in walks.values() for c in w["seq"] if c["key"].startswith("(no name)")}
    assert nameless <= NAMELESS, f"controls without an accessible name: {sorted(nameless - NAMELESS)}"
    assert nameless == NAMELESS, (f"{sorted(NAMELESS - nameless)} have their accessible names now: take them off "
                                  "NAMELESS")


def wait(page: Any, js: str, arg: Any, what: str, timeout_ms: int = 60_000) -> None:
    try:
        page.wait_for_function(js, arg=arg, polling=100, timeout=timeout_ms)
    except PlaywrightTimeout:
        raise AssertionError(what) from None


def settle(page: Any, kind: str) -> None:
    """The kernel has answered what a key did, and the widget stopped moving."""
    page.wait_for_function(KERNEL_IDLE, polling=200, timeout=120_000)
    wait_settled(page, ".jp-Notebook .jp-OutputArea", f"{kind} after a key")


ACTIVE = "() => document.activeElement"
VALUE_NOW = "() => Number(document.activeElement.getAttribute('aria-valuenow'))"


def operate(page: Any, kind: str, k: int, c: dict[str, Any]) -> str:
    """Operate the focused control ``c`` with the keyboard; '' when it did what it should, else what went wrong."""
    hint, key = c["hint"], c["key"]
    if hint == "slider handle":
        before = page.evaluate(VALUE_NOW)
        for step, back in (("ArrowRight", "ArrowLeft"), ("ArrowLeft", "ArrowRight")):
            page.keyboard.press(step)
            if page.evaluate(VALUE_NOW) != before:
                page.keyboard.press(back)
                return "" if page.evaluate(VALUE_NOW) == before else f"{key}: {back} did not go back to {before}"
        return f"{key}: the arrow keys did not move it from {before}"
    if hint == "slider read-out":
        handle = "document.activeElement.closest('.widget-inline-hbox').querySelector('.noUi-handle')"
        low, now = page.evaluate(f"() => ['aria-valuemin', 'aria-valuenow'].map(a => {handle}.getAttribute(a))")
        new = low if float(low) != float(now) else page.evaluate(f"() => {handle}.getAttribute('aria-valuemax')")
        page.keyboard.press("Control+a")
        page.keyboard.type(f"{float(new):g}")
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(f"(v) => Number({handle}.getAttribute('aria-valuenow')) === v", arg=float(new),
                                   polling=100, timeout=10_000)
        except PlaywrightTimeout:
            return f"{key}: typing {float(new):g} and Enter did not set the slider"
        return ""
    if c["tag"] == "input" and page.evaluate("() => document.activeElement.type") == "checkbox":
        was = page.evaluate("() => document.activeElement.checked")
        page.keyboard.press("Space")
        wait(page, "(was) => document.activeElement.checked !== was", was, f"{key}: Space did not toggle it")
        settle(page, kind)
        return ""
    if c["tag"] == "select":
        was = page.evaluate("() => document.activeElement.value")
        for k_ in ("Alt+ArrowDown", "ArrowDown", "Enter"):
            page.keyboard.press(k_)
        wait(page, "(was) => document.activeElement.value !== was", was, f"{key}: Alt+↓ ↓ Enter chose nothing")
        settle(page, kind)
        return ""
    if "widget-toggle-button" in c["cls"] or "mod-active" in c["cls"]:
        page.keyboard.press("Space")
        wait(page, "() => document.activeElement.classList.contains('mod-active')", None,
             f"{key}: Space did not select it")
        settle(page, kind)
        return ""
    before = page.evaluate(SHOWN, k)
    if c["tag"] == "input":
        page.keyboard.press("Control+a")
        page.keyboard.type(TYPED[kind])
    page.keyboard.press("Enter")
    wait(page, f"([k, was]) => ({SHOWN})(k) !== was", [k, before], f"{key}: Enter changed nothing in the widget")
    settle(page, kind)
    return ""


@pytest.mark.parametrize("kind", KINDS)
def test_controls_work_from_the_keyboard(lab_page, walks, kind):
    k = cell_of(kind)
    skip = {_("◀ Previous"), _("Next ▶")}  # stepped in test_stepping_from_the_keyboard, with Play
    keys = [c["key"] for c in walks[kind]["seq"]
            if c["hint"] != "Play button" and not any(c["key"].endswith(f'"{s}"') for s in skip)]
    toggles = [c["key"] for c in walks[kind]["seq"] if "widget-toggle-button" in c["cls"]]
    if toggles:  # the first toggle (selected at the start) last: it gives the widget back its arrangement
        keys = [x for x in keys if x != toggles[0]] + [toggles[0]]
    problems = []
    for key in keys:
        c = tab_to(lab_page, k, key)
        problems.append(operate(lab_page, kind, k, c))
    assert not [p for p in problems if p], f"{kind}: {[p for p in problems if p]}"


def step_of(page: Any, k: int) -> int:
    return int(float(page.evaluate(f"""() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')[{k}]
        .querySelectorAll('.widget-slider')].find(s => s.querySelector('.widget-label').textContent.trim() === {
        json.dumps(_('Step'))}).querySelector('.noUi-handle').getAttribute('aria-valuenow')""")))


def wait_step(page: Any, k: int, cond: str, what: str) -> None:
    js = f"""() => {{ const s = Number([...document.querySelectorAll('.jp-Notebook .jp-CodeCell')[{k}]
        .querySelectorAll('.widget-slider')].find(s => s.querySelector('.widget-label').textContent.trim() === {
        json.dumps(_('Step'))}).querySelector('.noUi-handle').getAttribute('aria-valuenow')); return {cond}; }}"""
    wait(page, js, None, what)


PLAYING = "() => !!document.activeElement.closest('.widget-play').querySelector('.fa-pause')"


@pytest.mark.parametrize("kind", STEPPING)
def test_stepping_from_the_keyboard(lab_page, walks, kind):
    k = cell_of(kind)
    seq = {c["hint"] + " " + c["what"]: c["key"] for c in walks[kind]["seq"]}
    named = {c["key"] for c in walks[kind]["seq"]}
    nxt, prev = (next(x for x in named if x.endswith(f'"{w}"')) for w in (_("Next ▶"), _("◀ Previous")))
    step = seq[f"slider handle {_('Step')}"]
    tab_to(lab_page, k, step)
    lab_page.keyboard.press("Home")
    wait_step(lab_page, k, "s === 0", f"{kind}: Home did not send the step slider to 0")
    tab_to(lab_page, k, nxt)
    lab_page.keyboard.press("Enter")
    wait_step(lab_page, k, "s === 1", f"{kind}: Enter on Next did not show step 1")
    lab_page.keyboard.press("Space")
    wait_step(lab_page, k, "s === 2", f"{kind}: Space on Next did not show step 2")
    lab_page.keyboard.press("Shift+Tab")
    assert key_of(lab_page, state(lab_page, k)) == prev
    lab_page.keyboard.press("Enter")
    wait_step(lab_page, k, "s === 1", f"{kind}: Enter on Previous did not go back to step 1")
    tab_to(lab_page, k, step)
    for key_, cond in (("ArrowRight", "s === 2"), ("ArrowLeft", "s === 1"), ("End", "s > 2"), ("Home", "s === 0")):
        lab_page.keyboard.press(key_)
        wait_step(lab_page, k, cond, f"{kind}: {key_} on the step slider did not give {cond}")
    speed = seq[f"slider handle {_('ms per step')}"]
    tab_to(lab_page, k, speed)
    lab_page.keyboard.press("Home")  # the shortest pause: Play's steps come quickly
    pause = lab_page.evaluate(VALUE_NOW)
    tab_to(lab_page, k, seq["Play button play/pause"])
    lab_page.keyboard.press("Space")
    wait(lab_page, PLAYING, None, f"{kind}: Space on Play did not start it")
    wait_step(lab_page, k, "s > 0", f"{kind}: Play started with Space shows no step")
    lab_page.keyboard.press("Space")
    wait(lab_page, f"() => !({PLAYING})()", None, f"{kind}: Space on Play did not pause it")
    stopped, since = step_of(lab_page, k), lab_page.evaluate("() => performance.now()")
    # a pause can only be seen over time: three of Play's pauses on the page's own clock, then the same step
    lab_page.wait_for_function("([t, ms]) => performance.now() > t + 3 * ms", arg=[since, pause], polling="raf")
    assert step_of(lab_page, k) == stopped, f"{kind}: Play paused with Space went on stepping"
    lab_page.keyboard.press("Space")
    wait(lab_page, PLAYING, None, f"{kind}: Space on Play did not start it again")
    lab_page.keyboard.press("Tab")
    assert key_of(lab_page, state(lab_page, k)) == seq["Play button stop"]
    lab_page.keyboard.press("Enter")
    wait_step(lab_page, k, "s === 0", f"{kind}: Enter on Stop did not go back to step 0")
    assert not lab_page.evaluate(PLAYING), f"{kind}: Play still runs after Stop"


def test_dropdown_takes_the_arrow_keys(lab_page, walks):
    k = cell_of("session")
    dropdown = next(c["key"] for c in walks["session"]["seq"] if c["tag"] == "select")
    tab_to(lab_page, k, dropdown)
    was = lab_page.evaluate("() => document.activeElement.value")
    s = press(lab_page, "ArrowDown", k)
    assert s["inOut"] and lab_page.evaluate("() => document.activeElement.value") != was
