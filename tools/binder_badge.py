"""Fill the README's Binder badge with the repository's place on GitHub: ``./course badge <org>/<repo> [branch]``.

    .venv/bin/python tools/binder_badge.py ORG/REPO [BRANCH] [--readme README.md]

The badge is a template until then: ``https://mybinder.org/v2/gh/YOUR-GITHUB-ORG/YOUR-REPO/HEAD?urlpath=...``.
Binder's URL names the GitHub repository and a branch, tag or commit (``HEAD``: the repository's default branch),
and ``urlpath`` opens JupyterLab on the course's start page. This rewrites only the badge line(s), the placeholder
or an earlier fill alike (so it can be run again after a move), and refuses an ORG/REPO GitHub would not accept,
saying why, before touching the file. Example::

    >>> binder_url("my-school", "static-vs-dynamic-graphs", "main")
    'https://mybinder.org/v2/gh/my-school/static-vs-dynamic-graphs/main?urlpath=lab/tree/notebooks/00_start_here.ipynb'
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the tools beside it, also when run by ./course
from nbgitpuller_link import BAD_REF  # noqa: E402 (one rule for git names)

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
START_PAGE = "notebooks/00_start_here.ipynb"
BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"
#: a badge line of the README: the image, then Binder's link to some org/repo/ref (placeholder or filled)
BADGE = re.compile(
    r"^\[!\[Binder\]\(" + re.escape(BADGE_IMAGE) + r"\)\]\(https://mybinder\.org/v2/gh/[^/\s)]+/[^/\s)]+/[^?\s)]+"
    r"\?urlpath=lab/tree/notebooks/00_start_here\.ipynb\)$",
    re.MULTILINE,
)
# GitHub's rules: an account is 1-39 letters, digits or single hyphens inside; a repository 1-100 of letters,
# digits, '.', '-', '_' ('.' and '..' are not names).
ORG = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}")
REPO = re.compile(r"[A-Za-z0-9._-]{1,100}")


class BadgeError(ValueError):
    """What was given cannot fill the badge; the message says what to give."""


def parse_slug(slug: str) -> tuple[str, str]:
    """(org, repo) of ``ORG/REPO``, or BadgeError saying what is wrong with it."""
    if slug.startswith(("http://", "https://", "git@")):
        raise BadgeError(f"give ORG/REPO, not a URL: {slug!r} (e.g. my-school/static-vs-dynamic-graphs)")
    parts = slug.split("/")
    if len(parts) != 2:
        raise BadgeError(f"{slug!r} is not ORG/REPO (one slash), e.g. my-school/static-vs-dynamic-graphs")
    org, repo = parts
    if not ORG.fullmatch(org):
        raise BadgeError(f"{org!r} is not a GitHub account name: 1 to 39 letters, digits or single hyphens, "
                         "not starting or ending with a hyphen")
    if not REPO.fullmatch(repo) or repo in (".", "..") or repo.endswith(".git"):
        raise BadgeError(f"{repo!r} is not a GitHub repository name: letters, digits, '.', '-', '_' "
                         "(without a .git ending)")
    if org.startswith("YOUR-") or repo == "YOUR-REPO":
        raise BadgeError(f"{slug!r} is the template's placeholder: give the repository's real place on GitHub")
    return org, repo


def binder_url(org: str, repo: str, ref: str = "HEAD") -> str:
    """Binder's link that builds ``org/repo`` at ``ref`` and opens the start page."""
    if not ref or BAD_REF.search(ref):
        raise BadgeError(f"{ref!r} is not a git branch, tag or commit name (e.g. main, or v1.0)")
    return f"https://mybinder.org/v2/gh/{org}/{repo}/{quote(ref, safe='')}?urlpath=lab/tree/{START_PAGE}"


def fill(text: str, slug: str, ref: str = "HEAD") -> tuple[str, int]:
    """(text with every badge line pointing at ``slug`` and ``ref``, how many lines were rewritten)."""
    org, repo = parse_slug(slug)
    line = f"[![Binder]({BADGE_IMAGE})]({binder_url(org, repo, ref)})"
    new, count = BADGE.subn(line.replace("\\", "\\\\"), text)
    if count == 0:
        raise BadgeError("no Binder badge line found (a line '[![Binder](https://mybinder.org/badge_logo.svg)]"
                         "(https://mybinder.org/v2/gh/ORG/REPO/REF?urlpath=lab/tree/notebooks/00_start_here.ipynb)')")
    return new, count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("slug", metavar="ORG/REPO", help="the repository on GitHub, e.g. my-school/static-vs-dynamic")
    parser.add_argument("ref", nargs="?", default="HEAD", help="branch, tag or commit (default HEAD: the default "
                        "branch)")
    parser.add_argument("--readme", default=str(README), help="the file to rewrite (default: README.md)")
    args = parser.parse_args(argv)
    path = Path(args.readme)
    try:
        text = path.read_text(encoding="utf-8")
        new, count = fill(text, args.slug, args.ref)
    except (BadgeError, OSError) as bad:
        print(f"binder_badge: ERROR: {bad}", file=sys.stderr)
        return 2
    if new != text:
        path.write_text(new, encoding="utf-8")
    print(f"binder_badge: {path}: {count} badge line(s) now open {binder_url(*parse_slug(args.slug), args.ref)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
