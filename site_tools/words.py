"""Every word the static edition adds to the notebooks' own, in each language of the course.

The notebooks bring their own words (prose, outputs, the labels saved in their widget state); the site adds the
navigation, the course map's headings, the note on every page, the notes beside controls that need a kernel, the
instructor index and the link to the other language. English pages take ``WORDS["en"]``, French pages
``WORDS["fr"]``. French text follows French typography (:func:`french_spaces`): a no-break space before ``: ; ! ?``
and inside ``« »``.
"""

from __future__ import annotations

import re

NBSP = "\u00a0"
LANGS = ("en", "fr")  # English first: it is the site's root; every other language is a folder (site/fr/)

_SPACE_BEFORE = re.compile(r"[ \u202f](?=[:;!?»])")
_SPACE_AFTER = re.compile(r"(?<=«)[ \u202f]")
_TAG_OR_CODE = re.compile(r"(<code\b.*?</code>|<pre\b.*?</pre>|<[^>]*>)", re.DOTALL | re.IGNORECASE)


def french_spaces(text: str) -> str:
    """French typography in ``text`` (plain text or HTML): the space before ``: ; ! ? »`` and after ``«`` becomes a
    no-break space. Tags, ``<code>`` and ``<pre>`` are left as they are (a command or an attribute is not prose)."""
    parts = _TAG_OR_CODE.split(text)
    for k in range(0, len(parts), 2):  # even parts are text between tags
        parts[k] = _SPACE_AFTER.sub(NBSP, _SPACE_BEFORE.sub(NBSP, parts[k]))
    return "".join(parts)


def typography(lang: str, text: str) -> str:
    """``text`` with the typography of ``lang`` (French spaces in French, unchanged otherwise)."""
    return french_spaces(text) if lang == "fr" else text


_EN = {
    "name": "English",                     # how the switch on a page of the other language names this one
    "course_map": "Course map",            # the link to index.html in each page's bar
    "map_heading": "The course map",
    "previous_link": "← Previous: {title}",
    "next_link": "Next: {title} →",
    "slides_link": "slides",
    "slides_col": "Slides",
    "notebook_col": "Notebook",
    "sentence_col": "What you will see",
    "page_link": "Page",                   # from a slide deck back to its page
    "the_course": "The course",            # the index's title when the start page has no heading
    "instructor_title": "Instructor guides",
    "instructor_intro": "Solutions and notes for each notebook. No student page links here.",
    "command": "<code>./course start</code>",
    "static_note": ("The static edition: read the course and step its graphs here with <b>Play</b> and the step "
                    "sliders, with nothing installed. To run, change and check the code (text boxes, buttons, the "
                    "exercises) you need a running course: {command}."),
    # the notes beside controls that need a kernel (site_tools.widget_state.note_html)
    "needs": "{what} needs a running course: {command}.",
    "need": "{what} need a running course: {command}.",
    "works": " Here, without it, {what} works.",
    "work": " Here, without it, {what} work.",
    "and": " and ",
}

_FR = {
    "name": "Français",
    "course_map": "Sommaire",
    "map_heading": "Le plan du cours",
    "previous_link": "← Précédent : {title}",
    "next_link": "Suivant : {title} →",
    "slides_link": "diapositives",
    "slides_col": "Diapositives",
    "notebook_col": "Notebook",            # the French course's own word (its start page's table says so)
    "sentence_col": "Ce que vous y verrez",
    "page_link": "La page",
    "the_course": "Le cours",
    "instructor_title": "Guides de l'enseignant",
    "instructor_intro": ("Les solutions et des notes pour chaque notebook. Aucune page destinée aux élèves ne "
                         "renvoie ici."),
    "command": "<code>./course start --lang fr</code>",
    "static_note": ("L'édition statique : lisez le cours et faites avancer ses graphes ici, avec <b>Lecture</b> et "
                    "les curseurs d'étape, sans rien installer. Pour exécuter, modifier et vérifier le code (champs "
                    "de texte, boutons, exercices), il faut le cours en marche : {command}."),
    "needs": "{what} a besoin du cours en marche : {command}.",
    "need": "{what} ont besoin du cours en marche : {command}.",
    "works": " Ici, sans lui, {what} fonctionne.",
    "work": " Ici, sans lui, {what} fonctionnent.",
    "and": " et ",
}

WORDS: dict[str, dict[str, str]] = {
    "en": _EN,
    "fr": {key: french_spaces(text) for key, text in _FR.items()},
}

# How a note names a kind of control (site_tools.widget_state.CONTROL_KINDS): (one, several, gender) per language.
NOUNS: dict[str, dict[str, tuple[str, str, str]]] = {
    "en": {"button": ("button", "buttons", ""), "box": ("box", "boxes", ""), "menu": ("menu", "menus", ""),
           "choice": ("choice", "choices", ""), "checkbox": ("checkbox", "checkboxes", ""),
           "picker": ("picker", "pickers", ""), "slider": ("slider", "sliders", "")},
    "fr": {"button": ("bouton", "boutons", "m"), "box": ("champ", "champs", "m"), "menu": ("menu", "menus", "m"),
           "choice": ("choix", "choix", "m"), "checkbox": ("case à cocher", "cases à cocher", "f"),
           "picker": ("sélecteur", "sélecteurs", "m"), "slider": ("curseur", "curseurs", "m")},
}


def words(lang: str) -> dict[str, str]:
    if lang not in WORDS:
        raise ValueError(f"the static edition has no words for language {lang!r}: add them to site_tools/words.py")
    return WORDS[lang]


def join(items: list[str], lang: str) -> str:
    """'a', 'a and b', 'a, b and c' (French: 'a, b et c')."""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + words(lang)["and"] + items[-1]


def kind_phrase(kind: str, names: list[str], lang: str) -> str:
    """A group of controls of one kind: 'the <b>x</b> and <b>w</b> sliders' / 'les curseurs <b>x</b> et <b>w</b>',
    'the box' / 'le champ' (names already HTML; empty names are left out)."""
    one, several, gender = NOUNS[lang].get(kind, (kind, kind + "s", "m"))
    noun = several if len(names) > 1 else one
    shown = [n for n in names if n]
    if lang == "fr":
        article = "les" if len(names) > 1 else ("la" if gender == "f" else "le")
        return f"{article} {noun} {join(shown, lang)}" if shown else f"{article} {noun}"
    return f"the {join(shown, lang)} {noun}" if shown else f"the {noun}"
