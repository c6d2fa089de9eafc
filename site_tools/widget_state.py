"""What the saved widget state of a notebook can do without a kernel, and the notes that say what cannot.

A notebook committed with its widget state (``metadata.widgets``) carries every model of every widget and the
``jslink`` links between them. In an exported page the html-manager rebuilds those models in the browser and runs
the links, so a Play -> step slider -> Stack chain steps with no kernel. A control that is in no link (a text box
that parses a new expression, a button with a Python callback, a slider observed by Python) would silently do
nothing there: :func:`add_kernel_notes` disables each such control and puts a sentence next to it that says so.

Pure functions over the notebook's JSON (nbformat nodes are dicts); nothing here imports ipywidgets.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from . import words

STATE_KEY = "application/vnd.jupyter.widget-state+json"
VIEW_KEY = "application/vnd.jupyter.widget-view+json"
PREFIX = "IPY_MODEL_"
NOTE_CLASS = "course-needs-kernel"
COMMAND = words.WORDS["en"]["command"]

# Controls a reader acts on, with the words a note names them by.
CONTROL_KINDS = {
    "ButtonModel": "button", "ToggleButtonModel": "button", "ToggleButtonsModel": "choice",
    "TextModel": "box", "TextareaModel": "box", "ComboboxModel": "box", "PasswordModel": "box",
    "IntTextModel": "box", "FloatTextModel": "box", "BoundedIntTextModel": "box", "BoundedFloatTextModel": "box",
    "DropdownModel": "menu", "SelectModel": "menu", "SelectMultipleModel": "menu", "RadioButtonsModel": "choice",
    "CheckboxModel": "checkbox", "TagsInputModel": "box", "ColorPickerModel": "picker", "DatePickerModel": "picker",
    "IntSliderModel": "slider", "FloatSliderModel": "slider", "FloatLogSliderModel": "slider",
    "IntRangeSliderModel": "slider", "FloatRangeSliderModel": "slider", "SelectionSliderModel": "slider",
    "SelectionRangeSliderModel": "slider", "PlayModel": "button",
}
STEP_CONTROLS = {"IntSliderModel", "PlayModel", "SelectionSliderModel"}
# Boxes a note may be inserted into; a Stack, Tab or Accordion is keyed by child index, so never.
PLAIN_BOXES = {"VBoxModel", "BoxModel", "GridBoxModel"}
LINKS = {"LinkModel", "DirectionalLinkModel"}


def ref(model_id: str) -> str:
    return PREFIX + model_id


def unref(value: Any) -> str | None:
    return value[len(PREFIX):] if isinstance(value, str) and value.startswith(PREFIX) else None


def models_of(nb: dict) -> dict[str, dict]:
    """model id -> model record ({model_name, model_module, model_module_version, state}); {} if none saved."""
    return nb.get("metadata", {}).get("widgets", {}).get(STATE_KEY, {}).get("state", {})


def view_outputs(nb: dict) -> list[tuple[int, int, str]]:
    """(cell index, output index, model id) of every widget view the notebook shows, in page order; only views
    whose model was saved (another view renders as the output's text, not as a widget)."""
    models = models_of(nb)
    found = []
    for c, cell in enumerate(nb.get("cells", [])):
        for o, out in enumerate(cell.get("outputs", [])):
            view = out.get("data", {}).get(VIEW_KEY)
            if view and view.get("model_id") in models:
                found.append((c, o, view["model_id"]))
    return found


def children(models: dict[str, dict], model_id: str) -> list[str]:
    kids = models.get(model_id, {}).get("state", {}).get("children", [])
    return [k for k in (unref(v) for v in kids) if k in models]


def tree(models: dict[str, dict], root: str) -> list[str]:
    """The root and every model under it through ``children``, depth first (the order the page draws them)."""
    out, stack, seen = [], [root], set()
    while stack:
        mid = stack.pop()
        if mid in seen or mid not in models:
            continue
        seen.add(mid)
        out.append(mid)
        stack.extend(reversed(children(models, mid)))
    return out


def links(models: dict[str, dict]) -> list[tuple[str, str, str, str, bool]]:
    """(source id, source attribute, target id, target attribute, both ways) of every saved jslink/jsdlink."""
    found = []
    for rec in models.values():
        if rec.get("model_name") not in LINKS:
            continue
        st = rec.get("state", {})
        try:
            (src, sattr), (tgt, tattr) = st["source"], st["target"]
        except (KeyError, TypeError, ValueError):
            continue
        s, t = unref(src), unref(tgt)
        if s in models and t in models:
            found.append((s, sattr, t, tattr, rec["model_name"] == "LinkModel"))
    return found


def live_ids(models: dict[str, dict]) -> set[str]:
    """Models a reader can move in the page and something follows: either end of a link, a directional link's
    source."""
    live = set()
    for s, _sa, t, _ta, both in links(models):
        live.add(s)
        if both:
            live.add(t)
    return live


def kernel_only(models: dict[str, dict], root: str) -> list[str]:
    """Controls under ``root`` that only Python can act on: enabled controls in no link."""
    live = live_ids(models)
    return [m for m in tree(models, root)
            if models[m].get("model_name") in CONTROL_KINDS and m not in live
            and not models[m].get("state", {}).get("disabled", False)]


def _text(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def name_of(models: dict[str, dict], model_id: str, parent: str | None) -> str:
    """How a note names a control: its description, else a short label just before it in its box, else ''."""
    st = models[model_id].get("state", {})
    for key in ("description", "tooltip"):
        said = _text(str(st.get(key) or ""))
        if said and len(said) <= 30:
            return said.rstrip(" :=\u00a0\u202f")
    if parent is not None:
        sibs = children(models, parent)
        k = sibs.index(model_id)
        if k > 0 and models[sibs[k - 1]].get("model_name") in {"HTMLModel", "LabelModel", "HTMLMathModel"}:
            said = _text(str(models[sibs[k - 1]].get("state", {}).get("value", "")))
            if said and len(said) <= 20:
                return said.rstrip(" :=\u00a0\u202f")
    return ""


def describe(named: list[tuple[str, str]], lang: str = "en") -> str:
    """'<b>◀ Previous</b> and <b>Next ▶</b>', 'the <b>x</b> and <b>w</b> sliders', 'the box' from (name, kind)
    pairs, grouped by kind in order of first appearance (buttons go by their own words); in French '<b>◀
    Précédent</b> et <b>Suivant ▶</b>', 'les curseurs <b>x</b> et <b>w</b>', 'le champ'. The names are the
    controls' own (their saved descriptions), so they are in whatever language the notebook saved them in."""
    parts, by_kind = [], {}
    for name, kind in named:
        by_kind.setdefault(kind, []).append(name)
    for kind, names in by_kind.items():
        shown = [f"<b>{html.escape(n)}</b>" if n else "" for n in names]
        if kind == "button" and all(shown):
            parts.append(words.join(shown, lang))
        else:
            parts.append(words.kind_phrase(kind, shown, lang))
    return words.join(parts, lang)


@dataclass
class Note:
    """One sentence placed next to controls that need the kernel."""
    view: int                # index of the widget view (page order) it belongs to
    controls: list[str]      # model ids it speaks for (disabled in the page)
    html: str                # what it says
    model_id: str | None = None  # the note's own HTML widget, or None when it is an output after the view


def _parents(models: dict[str, dict], root: str) -> dict[str, str]:
    return {kid: mid for mid in tree(models, root) for kid in children(models, mid)}


def note_html(named: list[tuple[str, str]], live_named: list[tuple[str, str]], lang: str = "en") -> str:
    """The note's HTML in ``lang``: what needs a running course (and the command), then what works here."""
    w = words.words(lang)
    what = describe(named, lang)
    text = w["needs" if len(named) == 1 else "need"].format(what=what[:1].upper() + what[1:], command=w["command"])
    if live_named:
        text += w["works" if len(live_named) == 1 else "work"].format(what=describe(live_named, lang))
    return (f'<div class="{NOTE_CLASS}" lang="{lang}" style="font-size:0.92em;color:#5a4300;background:#FFF4D6;'
            f'border-left:4px solid #C98A00;padding:2px 8px;margin:2px 0">{words.typography(lang, text)}</div>')


def plan_notes(models: dict[str, dict], root: str, view: int, lang: str = "en") -> list[Note]:
    """Where the notes of one widget view go: one per top-level block of the view that holds kernel-only controls
    (inserted after that block), or one output after the view when its root is not a plain vertical box."""
    needing = kernel_only(models, root)
    if not needing:
        return []
    parents = _parents(models, root)
    live_named = [(name_of(models, m, parents.get(m)), CONTROL_KINDS[models[m]["model_name"]])
                  for m in step_controls(models, root)[1]]
    if models[root].get("model_name") not in PLAIN_BOXES:
        named = [(name_of(models, m, parents.get(m)), CONTROL_KINDS[models[m]["model_name"]]) for m in needing]
        return [Note(view, needing, note_html(named, live_named, lang))]
    blocks: dict[str, list[str]] = {}
    for m in needing:
        top = m
        while parents.get(top) != root:
            top = parents[top]
        blocks.setdefault(top, []).append(m)
    notes = []
    for ms in blocks.values():
        named = [(name_of(models, m, parents.get(m)), CONTROL_KINDS[models[m]["model_name"]]) for m in ms]
        notes.append(Note(view, ms, note_html(named, live_named, lang)))
    return notes


def _note_models(models: dict[str, dict], key: str, value: str) -> tuple[str, dict[str, dict]]:
    """A new HTML widget (with its layout and style) that shows ``value``; ids derived from ``key``."""
    controls_version = next((r["model_module_version"] for r in models.values()
                             if r.get("model_module") == "@jupyter-widgets/controls"), "2.0.0")
    base_version = next((r["model_module_version"] for r in models.values()
                         if r.get("model_module") == "@jupyter-widgets/base"), "2.0.0")
    mid, lid, sid = f"coursenote{key}", f"coursenote{key}layout", f"coursenote{key}style"
    return mid, {
        lid: {"model_name": "LayoutModel", "model_module": "@jupyter-widgets/base",
              "model_module_version": base_version, "state": {"width": "100%"}},
        sid: {"model_name": "HTMLStyleModel", "model_module": "@jupyter-widgets/controls",
              "model_module_version": controls_version, "state": {}},
        mid: {"model_name": "HTMLModel", "model_module": "@jupyter-widgets/controls",
              "model_module_version": controls_version,
              "state": {"value": value, "layout": ref(lid), "style": ref(sid)}},
    }


def add_kernel_notes(nb: dict, lang: str = "en") -> list[Note]:
    """Disable every kernel-only control of every saved widget view and put its note (in ``lang``) next to it.
    Changes ``nb`` (a copy the build owns) in place and returns the notes, in page order."""
    models = models_of(nb)
    notes: list[Note] = []
    extra_outputs: list[tuple[int, int, str]] = []
    for view, (c, o, root) in enumerate(view_outputs(nb)):
        planned = plan_notes(models, root, view, lang)
        parents = _parents(models, root)
        for n, note in enumerate(planned):
            for m in note.controls:
                models[m]["state"]["disabled"] = True
            top = note.controls[0]
            while top in parents and parents[top] != root:
                top = parents[top]
            if models[root].get("model_name") in PLAIN_BOXES and parents.get(top) == root:
                mid, new = _note_models(models, f"{view}x{n}", note.html)
                models.update(new)
                kids = models[root]["state"]["children"]
                kids.insert(kids.index(ref(top)) + 1, ref(mid))
                note.model_id = mid
            else:
                extra_outputs.append((c, o, note.html))
        notes.extend(planned)
    for c, o, text in sorted(extra_outputs, reverse=True):
        nb["cells"][c]["outputs"].insert(o + 1, {"output_type": "display_data", "metadata": {},
                                                  "data": {"text/html": text}})
    return notes


@dataclass(frozen=True)
class Stepped:
    """A widget view whose graph steps in the page: the Stacks that follow a step control through links."""
    view: int
    stacks: tuple[str, ...]
    controls: tuple[str, ...]


def step_controls(models: dict[str, dict], root: str) -> tuple[list[str], list[str]]:
    """(stacks, controls) under ``root``: each Stack whose ``selected_index`` follows, through links, the
    ``value`` of a step slider or Play of the same view, and those controls. Links are followed attribute by
    attribute, so a speed slider joined to Play's ``interval`` is not a step control."""
    graph: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for s, sa, t, ta, _both in links(models):
        graph.setdefault((s, sa), set()).add((t, ta))
        graph.setdefault((t, ta), set()).add((s, sa))
    inside = tree(models, root)
    stacks, controls = [], set()
    for st in (m for m in inside if models[m].get("model_name") == "StackModel"):
        seen, todo = {(st, "selected_index")}, [(st, "selected_index")]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        reach = {m for m, attr in seen if attr == "value" and m in inside
                 and models[m].get("model_name") in STEP_CONTROLS}
        if reach:
            stacks.append(st)
            controls |= reach
    return stacks, [m for m in inside if m in controls]


def stepped_views(nb: dict) -> list[Stepped]:
    """Every widget view holding a Stack that steps with a slider or Play of its own: the ones that must step in
    a page with no kernel."""
    models = models_of(nb)
    found = []
    for view, (_c, _o, root) in enumerate(view_outputs(nb)):
        stacks, controls = step_controls(models, root)
        if stacks:
            found.append(Stepped(view, tuple(stacks), tuple(controls)))
    return found


# --- a saved state the site can use -----------------------------------------------------------------------------

#: The widget libraries the site ships (assets/html-manager): a model of any other would be fetched from a CDN.
WIDGET_MODULES = {"@jupyter-widgets/base", "@jupyter-widgets/controls", "@jupyter-widgets/output"}
RECORD_TEXT = ("model_name", "model_module", "model_module_version")


def _refs(value: Any) -> list[str]:
    """Every model id ``value`` references (``IPY_MODEL_…`` strings, nested in lists and dicts)."""
    if isinstance(value, str):
        return [value[len(PREFIX):]] if value.startswith(PREFIX) else []
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [r for item in items for r in _refs(item)]


def _record_problems(mid: str, rec: Any, state: dict) -> list[str]:
    if not isinstance(rec, dict) or not isinstance(rec.get("state"), dict) or \
            not all(isinstance(rec.get(k), str) for k in RECORD_TEXT):
        return [f"model {mid} lacks a text model_name, model_module or model_module_version, or its state"]
    found = []
    modules = {rec["model_module"], rec["state"].get("_model_module"), rec["state"].get("_view_module")} - {None}
    foreign = ", ".join(sorted(map(str, modules - WIDGET_MODULES)))
    if foreign:
        found.append(f"model {mid} ({rec['model_name']}) is from {foreign}, a widget library the site does not ship "
                     "(a page would fetch it from another host)")
    missing = sorted({r for r in _refs(rec["state"]) if r not in state})
    if missing:
        found.append(f"model {mid} ({rec['model_name']}) refers to model {missing[0]}, which was not saved")
    return found


def state_problems(nb: dict) -> list[str]:
    """Why the saved widget state of ``nb`` cannot be shown, in words ([] when it can, or when there is none): the
    checks the page's widget manager makes (the format of @jupyter-widgets/schema v2: version 2.0, a ``state`` object
    of records with text ``model_name``, ``model_module``, ``model_module_version`` and an object ``state``), and
    what the site needs besides: every referenced model saved, every model from a library the site ships.

    >>> state_problems({"metadata": {"widgets": {STATE_KEY: {"version_major": 3, "version_minor": 0, "state": {}}}}})
    ['its format is version 3.0; the widget manager reads 2.0 (what ipywidgets 8 saves)']
    """
    meta = nb.get("metadata", {})
    if not isinstance(meta, dict) or "widgets" not in meta:
        return []
    saved = meta["widgets"].get(STATE_KEY) if isinstance(meta["widgets"], dict) else None
    if not isinstance(saved, dict):
        return [f"metadata.widgets holds no {STATE_KEY} object"]
    found = []
    if (saved.get("version_major"), saved.get("version_minor")) != (2, 0):
        found.append(f"its format is version {saved.get('version_major')!r}.{saved.get('version_minor')!r}; the widget "
                     "manager reads 2.0 (what ipywidgets 8 saves)")
    state = saved.get("state")
    if not isinstance(state, dict):
        return [*found, "it has no 'state' object of widget models"]
    for mid, rec in state.items():
        found.extend(_record_problems(mid, rec, state))
    for c, cell in enumerate(nb.get("cells", [])):
        for out in cell.get("outputs", []) if isinstance(cell, dict) else []:
            view = out.get("data", {}).get(VIEW_KEY) if isinstance(out, dict) else None
            if view is not None and (not isinstance(view, dict) or not isinstance(view.get("model_id"), str)
                                     or view.get("version_major") != 2):
                found.append(f"cell {c} shows a widget view without a text model_id or of a version other than 2")
    return found


def lost_views(nb: dict) -> list[int]:
    """Cells showing a widget whose model was not saved (the page would show nothing there)."""
    models = models_of(nb)
    return [c for c, cell in enumerate(nb.get("cells", [])) for out in cell.get("outputs", [])
            if isinstance(out.get("data", {}).get(VIEW_KEY), dict)
            and out["data"][VIEW_KEY].get("model_id") not in models]


def drop_views(nb: dict, cells: set[int] | None = None) -> None:
    """Show the text of widget views instead (``cells``: only theirs; None: every view, and the saved state goes)."""
    for c, cell in enumerate(nb.get("cells", [])):
        if cells is None or c in cells:
            for out in cell.get("outputs", []):
                data = out.get("data") if isinstance(out, dict) else None
                if isinstance(data, dict):
                    data.pop(VIEW_KEY, None)
    if cells is None:
        nb.get("metadata", {}).pop("widgets", None)
