"""Build (and read back) the nbgitpuller link that gives each student the course, and its updates, in one click.

    .venv/bin/python tools/nbgitpuller_link.py --hub https://hub.example.org --repo https://github.com/ORG/REPO
        [--branch main] [--path notebooks/00_start_here.ipynb] [--targetpath static-vs-dynamic-graphs]
    .venv/bin/python tools/nbgitpuller_link.py --server-path --repo ... (the part after a server's base URL:
        what Zero to JupyterHub's singleuser.defaultUrl takes, so every server start pulls first)

A student who opens the link logs in to the hub, lands on ``/hub/user-redirect/git-pull?...`` (the hub sends them
to their own server, starting it), where nbgitpuller's server extension clones the repository into ``targetpath``
(the first time) or fetches and merges it into the student's copy (every time after), then redirects to ``urlpath``:
here JupyterLab on the course's start page inside that folder. nbgitpuller reads the query with tornado's
``get_argument`` (``repo``, ``branch``, ``urlpath``, ``targetpath``), so the values are URL-encoded the way its own
link generator does (``URLSearchParams``: ``/`` -> ``%2F``, space -> ``+``). Its merge never asks the student
anything: the student's changes win where both changed the same lines, a file the student deleted comes back
(docs/deployment.md, "nbgitpuller"). Example::

    >>> url = link("https://hub.example.org", "https://github.com/ORG/REPO", branch="main")
    >>> url.split("?")[0]
    'https://hub.example.org/hub/user-redirect/git-pull'
    >>> parse(url).urlpath
    'lab/tree/REPO/notebooks/00_start_here.ipynb'
    >>> parse(url) == Link("https://hub.example.org", "https://github.com/ORG/REPO", "main",
    ...                    "notebooks/00_start_here.ipynb", "REPO")
    True
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

START_PAGE = "notebooks/00_start_here.ipynb"
#: what a hub adds before the server-relative path: it starts the user's server and sends them there
USER_REDIRECT = "hub/user-redirect/"
# git's own refusals for a branch or tag name (git check-ref-format), the ones a link could carry; binder_badge too
BAD_REF = re.compile(r"(^[-/.])|(\.\.)|([\s~^:?*\[\\])|(@\{)|(/$)|(\.lock$)|(//)")


class LinkError(ValueError):
    """A field of the link is not usable; the message says which and what to give instead."""


@dataclass(frozen=True)
class Link:
    """The fields of an nbgitpuller link: where the hub is, what to pull, where to put it, what to open."""

    hub: str | None  # None for a server-relative path (singleuser.defaultUrl)
    repo: str
    branch: str | None  # None: nbgitpuller asks the repository for its default branch
    path: str  # the file to open, relative to the repository
    targetpath: str  # the folder of the student's home the repository is cloned into

    @property
    def urlpath(self) -> str:
        """Where nbgitpuller redirects after the pull, relative to the server: JupyterLab on the file."""
        return f"lab/tree/{self.targetpath}/{self.path}"


def default_targetpath(repo: str) -> str:
    """The folder name a clone of ``repo`` would get: its last part without ``.git``.

    >>> default_targetpath("https://github.com/ORG/static-vs-dynamic-graphs.git")
    'static-vs-dynamic-graphs'
    """
    name = repo.rstrip("/").split("/")[-1].split(":")[-1]
    return name[:-4] if name.endswith(".git") else name


def _check(fields: Link) -> None:
    if fields.hub is not None:
        parts = urlsplit(fields.hub)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise LinkError(f"hub {fields.hub!r} is not the address of a hub: give its base URL, like "
                            "https://hub.example.org (or https://example.org/jupyter/ under a prefix)")
    if not fields.repo or fields.repo.startswith("-") or any(c.isspace() for c in fields.repo):
        raise LinkError(f"repo {fields.repo!r} is not a git URL: give what git clone takes, like "
                        "https://github.com/ORG/REPO")
    if fields.branch is not None and (not fields.branch or BAD_REF.search(fields.branch)):
        raise LinkError(f"branch {fields.branch!r} is not a git branch name: give one like main, or leave it out "
                        "to pull the repository's default branch")
    for name, value in (("path", fields.path), ("targetpath", fields.targetpath)):
        # the server joins targetpath to the student's home: an absolute path or .. would leave it
        if not value or value.startswith("/") or ".." in value.split("/") or "\\" in value:
            raise LinkError(f"{name} {value!r} must be a relative path inside the student's home, without '..'")


def _query(fields: Link) -> str:
    params = {"repo": fields.repo, "urlpath": fields.urlpath}
    if fields.branch:
        params["branch"] = fields.branch
    params["targetpath"] = fields.targetpath
    return urlencode(params)


def link(hub: str, repo: str, branch: str | None = None, path: str = START_PAGE, targetpath: str | None = None) -> str:
    """The link a student clicks: the hub starts their server, nbgitpuller pulls ``repo`` and opens ``path``."""
    fields = Link(hub, repo, branch, path, targetpath or default_targetpath(repo))
    _check(fields)
    base = hub if hub.endswith("/") else hub + "/"
    return f"{base}{USER_REDIRECT}git-pull?{_query(fields)}"


def server_path(repo: str, branch: str | None = None, path: str = START_PAGE, targetpath: str | None = None) -> str:
    """The same pull, relative to a user's server (``/git-pull?...``): Zero to JupyterHub's ``defaultUrl``."""
    fields = Link(None, repo, branch, path, targetpath or default_targetpath(repo))
    _check(fields)
    return f"/git-pull?{_query(fields)}"


def parse(url: str) -> Link:
    """The fields of a link (or server path) made by :func:`link` / :func:`server_path`, decoded as tornado does."""
    parts = urlsplit(url)
    query = parse_qs(parts.query, keep_blank_values=True)

    def one(name: str) -> str | None:
        values = query.get(name)
        if values and len(values) > 1:
            raise LinkError(f"the link gives {name} {len(values)} times")
        return values[0] if values else None

    if parts.path.endswith("/" + USER_REDIRECT + "git-pull"):
        hub = f"{parts.scheme}://{parts.netloc}{parts.path[: -len(USER_REDIRECT + 'git-pull')]}".rstrip("/")
    elif parts.path == "/git-pull" and not parts.netloc:
        hub = None
    else:
        raise LinkError(f"{url!r} is not an nbgitpuller link (no /hub/user-redirect/git-pull or /git-pull)")
    repo, targetpath, urlpath = one("repo"), one("targetpath"), one("urlpath")
    if not repo or not targetpath or not urlpath:
        raise LinkError(f"{url!r} lacks repo, targetpath or urlpath")
    prefix = f"lab/tree/{targetpath}/"
    if not urlpath.startswith(prefix):
        raise LinkError(f"urlpath {urlpath!r} does not open a file inside targetpath {targetpath!r}")
    fields = Link(hub, repo, one("branch"), urlpath[len(prefix):], targetpath)
    _check(fields)
    return fields


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hub", help="the hub's base URL, e.g. https://hub.example.org")
    parser.add_argument("--repo", required=True, help="the course's git repository, as git clone takes it")
    parser.add_argument("--branch", help="the branch to pull (default: the repository's default branch)")
    parser.add_argument("--path", default=START_PAGE, help=f"the file to open (default: {START_PAGE})")
    parser.add_argument("--targetpath", help="the folder in each student's home (default: the repository's name)")
    parser.add_argument("--server-path", action="store_true",
                        help="print the path relative to a user's server (singleuser.defaultUrl) instead of a link")
    args = parser.parse_args(argv)
    try:
        if args.server_path:
            print(server_path(args.repo, args.branch, args.path, args.targetpath))
        else:
            if not args.hub:
                parser.error("--hub is needed for a link (or give --server-path)")
            print(link(args.hub, args.repo, args.branch, args.path, args.targetpath))
    except LinkError as bad:
        print(f"nbgitpuller_link: ERROR: {bad}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
