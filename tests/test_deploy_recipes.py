"""The deployment recipes (docs/deployment.md) checked, not only written.

- Zero to JupyterHub: deploy/z2jh/config.yaml merged with the chart 4.4.0's defaults as helm merges them and
  validated against the chart's values schema (tools/check_z2jh.py); a misspelt key, a wrong type and a removed
  required section each fail, named with their key and line.
- The Littlest JupyterHub: every `tljh-config set` of docs/deployment.md applied as tljh-config applies it and
  validated against TLJH's own config schema after each, its keys among the ones TLJH reads; the config snippet
  loaded as JupyterHub loads it, its Spawner settings traits of JupyterHub 5.5.
- Binder / repo2docker: the documented image build, run with --no-build by the pinned repo2docker (no container
  engine needed): conda buildpack, the repository copied before environment.yml, postBuild as the user.
- nbgitpuller: links read back to their fields; a real pull through nbgitpuller's own handlers in a jupyter server
  (clone, then the student's edits and the course's new commit merged with no conflict, as nbgitpuller documents).
- The README's Binder badge filled by `./course badge` on a copy, malformed ORG/REPO refused.

The chart's and TLJH's schemas are data from their repositories, kept outside this one (shared/ beside the
checkout, or COURSE_Z2JH_CHART / COURSE_TLJH_DATA; no package index carries them, and this repository does not copy
them): where they are missing, the tests that need them are skipped, saying where to put them (./course test lists
the reasons); where they are there but differ from the pinned files, they fail.
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

import jsonschema
import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "deployment.md"
CONFIG = ROOT / "deploy" / "z2jh" / "config.yaml"
TLJH_SNIPPET = ROOT / "deploy" / "tljh" / "course_jupyterhub_config.py"
TARGET = "static-vs-dynamic-graphs"
TLJH_ENV = "COURSE_TLJH_DATA"
TLJH_DATA = ROOT.parent / "shared" / "tljh-84ed38f"
#: sha256 of TLJH's schema and defaults written as JSON (commit 84ed38fd1f7c, shared/tljh-84ed38f/SOURCE.txt)
TLJH_FILES = {
    "config_schema.json": "ed01296165c16994499655701ef9587907ede8dd14107d0bbb6860d09376fbeb",
    "defaults.json": "20af354144987337692bf4c279466de3ab6c3b424da19a025fda267d9775e055",
}


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


check_z2jh = _tool("check_z2jh")
links = _tool("nbgitpuller_link")
badge = _tool("binder_badge")
check_binder = _tool("check_binder")


def test_tools_examples() -> None:
    """The docstring examples of the four tools are true (they are the tools' shortest documentation)."""
    import doctest

    for module in (check_z2jh, links, badge, check_binder):
        result = doctest.testmod(module)
        assert result.attempted and not result.failed, module.__name__


# ================================================================================== Zero to JupyterHub


@pytest.fixture(scope="module")
def chart() -> tuple[dict, dict]:
    try:
        return check_z2jh.load_chart()
    except check_z2jh.ChartDiffers as differs:
        pytest.fail(str(differs))
    except check_z2jh.ChartMissing as missing:
        pytest.skip(str(missing))


@pytest.fixture(scope="module")
def config_text() -> str:
    return CONFIG.read_text(encoding="utf-8")


def test_config_validates_as_helm_would(chart, config_text) -> None:
    schema, defaults = chart
    assert check_z2jh.check(config_text) == []
    user = yaml.safe_load(config_text)
    # the user's file alone would fail (the schema requires hub, proxy, ...): what validates is the merge
    assert not jsonschema.Draft7Validator(schema).is_valid(user)
    merged = check_z2jh.coalesce(defaults, user)
    assert merged["singleuser"]["memory"] == user["singleuser"]["memory"]  # the user's values
    assert merged["singleuser"]["storage"]["homeMountPath"] == "/home/jovyan"  # the chart's, kept beside it
    assert merged["singleuser"]["uid"] == 1000  # the uid the image is built for (check_binder.IMAGE_OPTIONS)
    assert check_binder.IMAGE_OPTIONS[check_binder.IMAGE_OPTIONS.index("--user-id") + 1] == "1000"


def test_misspelt_key_fails_naming_it(chart, config_text) -> None:
    bad = config_text.replace("\n  memory:\n", "\n  memmory:\n", 1)
    assert bad != config_text
    line = bad.splitlines().index("  memmory:") + 1
    problems = check_z2jh.check(bad, source="config.yaml")
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"config.yaml:{line}: singleuser.memmory: unknown key 'memmory'")
    assert "memory" in problems[0]  # the keys it could have meant


def test_wrong_type_fails_naming_the_key(chart, config_text) -> None:
    bad = re.sub(r"(\n    limit: )2( )", r'\1"two"\2', config_text, count=1)
    assert bad != config_text
    problems = check_z2jh.check(bad, source="config.yaml")
    assert len(problems) == 1, problems
    assert re.match(r"config\.yaml:\d+: singleuser\.cpu\.limit: 'two' is not of type 'number', 'null'", problems[0])
    # a culling period in words is refused too: cull.timeout must be an integer
    problems = check_z2jh.check(config_text.replace("timeout: 3600", "timeout: 1h"), source="c")
    assert len(problems) == 1 and ": cull.timeout: '1h' is not of type 'integer', 'null'" in problems[0]


def test_helm_merge_rules(chart) -> None:
    """A user null removes the chart's default (so a required section removed fails), lists replace, tables merge."""
    problems = check_z2jh.check("singleuser: null\n", source="c")
    assert problems == ["c (chart default): (top level): 'singleuser' is a required property "
                        "(the chart's default was removed by a null?)"]
    merged = check_z2jh.coalesce({"a": {"b": [1, 2], "c": {"d": 1}}, "e": 1}, {"a": {"b": [3], "c": {"x": 2}}})
    assert merged == {"a": {"b": [3], "c": {"d": 1, "x": 2}}, "e": 1}


def test_missing_chart_says_where_to_put_it(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(check_z2jh.CHART_ENV, str(tmp_path))
    with pytest.raises(check_z2jh.ChartMissing, match=r"values\.schema\.yaml is not in .*To do: copy"):
        check_z2jh.load_chart()
    (tmp_path / "values.schema.yaml").write_text("type: object\n")
    with pytest.raises(check_z2jh.ChartMissing, match=r"is not the chart 4\.4\.0's values\.schema\.yaml"):
        check_z2jh.load_chart()
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "check_z2jh.py"), str(CONFIG)],
                          capture_output=True, text=True, env=dict(os.environ, **{check_z2jh.CHART_ENV: str(tmp_path)}))
    assert done.returncode == 2 and "ERROR" in done.stderr and "To do" in done.stderr


def test_config_opens_the_course_through_nbgitpuller(config_text) -> None:
    """The image carries what the config relies on; every start pulls the course and opens its start page."""
    values = yaml.safe_load(config_text)["singleuser"]
    pull = links.parse(values["defaultUrl"])
    assert pull.hub is None and pull.path == links.START_PAGE and pull.targetpath == TARGET and pull.branch == "main"
    assert (ROOT / pull.path).is_file()
    assert values["defaultUrl"] == links.server_path(pull.repo, pull.branch, pull.path, pull.targetpath)
    assert values["cmd"] == "jupyterhub-singleuser"
    for pinfile, pattern in (("requirements.txt", r"^{}==(\S+)"), ("environment.yml", r"^  - {}=(\S+)")):
        text = (ROOT / pinfile).read_text()
        for package in ("jupyterhub", "nbgitpuller"):  # jupyterhub-singleuser; the /git-pull handler
            assert re.search(pattern.format(package), text, re.MULTILINE), f"{pinfile} does not pin {package}"
    build = " ".join(check_binder.IMAGE_OPTIONS)
    assert build in config_text and build in DOCS.read_text()
    assert yaml.safe_load(config_text)["cull"]["enabled"] is True


def test_docs_give_the_config_figures(config_text) -> None:
    """docs/deployment.md's table says the memory and CPU figures config.yaml sets (one changed, both changed)."""
    values = yaml.safe_load(config_text)["singleuser"]
    docs = DOCS.read_text(encoding="utf-8")
    for key in ("memory", "cpu"):
        row = re.search(rf"^\| `singleuser\.{key}\.guarantee` / `\.limit` \| (\S+) / (\S+) ", docs, re.MULTILINE)
        assert row, f"docs/deployment.md has no row for singleuser.{key}"
        assert [yaml.safe_load(v) for v in row.groups()] == [values[key]["guarantee"], values[key]["limit"]], key


# ================================================================================== The Littlest JupyterHub


@pytest.fixture(scope="module")
def tljh() -> tuple[dict, dict]:
    import hashlib

    folder = Path(os.environ.get(TLJH_ENV) or TLJH_DATA)
    loaded = []
    for name, digest in TLJH_FILES.items():
        path = folder / name
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            stop = pytest.fail if path.is_file() else pytest.skip  # a wrong copy fails; none is skipped
            stop(f"TLJH's {name} (commit 84ed38f) is missing or different in {folder}. To do: write "
                 "tljh/config_schema.py's config_schema and tljh/configurer.py's default of "
                 "github.com/jupyterhub/the-littlest-jupyterhub at that commit as JSON there (see its "
                 f"SOURCE.txt), or name the folder with {TLJH_ENV}")
        loaded.append(json.loads(path.read_text()))
    return loaded[0], loaded[1]


def tljh_value(text: str) -> object:
    """How tljh-config reads a value on its command line (tljh/config.py, parse_value)."""
    if text.lower() == "none":
        return None
    if re.fullmatch(r"\d+", text):
        return int(text)
    if re.fullmatch(r"\d+\.\d*", text):
        return float(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def tljh_sets() -> list[tuple[str, str]]:
    """The (key, value) of every `sudo tljh-config set KEY VALUE` in docs/deployment.md."""
    return re.findall(r"^sudo tljh-config set (\S+) (\S+)$", DOCS.read_text(encoding="utf-8"), re.MULTILINE)


def _has_path(tree: dict, dotted: str) -> bool:
    for part in dotted.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return False
        tree = tree[part]
    return True


def test_tljh_config_steps(tljh, config_text) -> None:
    schema, defaults = tljh
    sets = tljh_sets()
    assert {key for key, _ in sets} >= {"limits.memory", "limits.cpu", "services.cull.timeout", "services.cull.every"}
    config: dict = {}
    for key, raw in sets:
        assert _has_path(defaults, key), f"tljh-config set {key}: TLJH reads no such key (tljh/configurer.py)"
        *parents, last = key.split(".")
        node = config
        for part in parents:  # tljh-config creates the missing levels (set_item_in_config)
            node = node.setdefault(part, {})
        node[last] = tljh_value(raw)
        jsonschema.validate(config, schema)  # tljh-config validates the whole file after each set
    values = yaml.safe_load(config_text)
    assert config["limits"]["memory"] == values["singleuser"]["memory"]["limit"], "TLJH and z2jh: one memory limit"
    assert config["limits"]["cpu"] == values["singleuser"]["cpu"]["limit"], "TLJH and z2jh: one CPU limit"
    assert config["services"]["cull"]["timeout"] == values["cull"]["timeout"]


def test_tljh_schema_catches_what_the_docs_could_get_wrong(tljh) -> None:
    """The check above can fail: TLJH's schema refuses a misspelt limit and a CPU limit in words."""
    schema, defaults = tljh
    with pytest.raises(jsonschema.ValidationError, match="'memmory' was unexpected"):
        jsonschema.validate({"limits": {"memmory": "3G"}}, schema)
    with pytest.raises(jsonschema.ValidationError, match="'two'"):
        jsonschema.validate({"limits": {"cpu": tljh_value("two")}}, schema)
    # TLJH's schema lets unknown top-level keys through (its additionalProperties sits inside properties):
    # the defaults' keys catch those
    jsonschema.validate({"limitz": {"cpu": 2}}, schema)
    assert not _has_path(defaults, "limitz.cpu")


def test_tljh_snippet_loads_as_jupyterhub_config(config_text) -> None:
    from jupyterhub.spawner import Spawner
    from traitlets.config import Config

    c = Config()
    exec(compile(TLJH_SNIPPET.read_text(), str(TLJH_SNIPPET), "exec"), {"get_config": lambda: c})
    traits = Spawner.class_traits(config=True)
    for name in c.Spawner:
        assert name in traits, f"Spawner.{name} is not a setting of JupyterHub's Spawner"
    assert c.Spawner.cmd == ["/opt/tljh/course/bin/jupyterhub-singleuser"]
    # the same pull as Zero to JupyterHub's (one recipe, two hubs)
    assert c.Spawner.default_url == yaml.safe_load(config_text)["singleuser"]["defaultUrl"]
    # SystemdSpawner (jupyterhub-systemdspawner, not installed here) is TLJH's spawner; extra_paths is the setting
    # TLJH's own jupyterhub_config.py sets: only written, not checked against its class
    assert c.SystemdSpawner.extra_paths[0] == "/opt/tljh/course/bin"


# ================================================================================== Binder / repo2docker


def test_repo2docker_accepts_the_documented_build() -> None:
    """The docs' build command, with the repository URL replaced by this checkout, run with --no-build."""
    text = re.sub(r"\\\n\s*", " ", DOCS.read_text(encoding="utf-8"))  # continuation lines joined
    command = re.search(r"^(?:\S*/)?jupyter-repo2docker (.+?)$", text, re.MULTILINE)
    assert command, "docs/deployment.md shows no jupyter-repo2docker command"
    words = command.group(1).split()
    assert "--push" in words and words[-1].startswith("https://"), words
    options = [w for w in words[:-1] if w != "--push"]
    if "--ref" in options:  # a local folder is built as it is
        del options[options.index("--ref"): options.index("--ref") + 2]
    try:
        buildpack, problems = check_binder.check(ROOT, options)
    except check_binder.ToolMissing as missing:
        pytest.fail(str(missing))
    assert buildpack == "CondaBuildPack"
    assert problems == []


def test_repo2docker_check_catches_a_missing_postbuild(tmp_path) -> None:
    """The same check on a copy without postBuild (and one with a Dockerfile) names what is wrong."""
    shutil.copy(ROOT / "environment.yml", tmp_path / "environment.yml")
    buildpack, problems = check_binder.check(tmp_path)
    assert buildpack == "CondaBuildPack" and problems == ["postBuild is not run (RUN ./postBuild)"]
    (tmp_path / "Dockerfile").write_text("FROM scratch\n")
    buildpack, problems = check_binder.check(tmp_path)
    assert buildpack == "DockerBuildPack" and "not the conda buildpack" in problems[0]


# ================================================================================== nbgitpuller links


def test_link_fields_read_back() -> None:
    cases = [
        ("https://hub.example.org", "https://github.com/ORG/REPO", "main", links.START_PAGE, None),
        ("https://example.org/jupyter/", "https://gitlab.example.org/a%20b/c.git?x=1&y=2", "release/2026",
         "notebooks/fr/00_start_here.ipynb", "cours & exercices"),
        ("http://127.0.0.1:8000", "file:///srv/course.git", None, "notebooks/04 x.ipynb", "c"),
    ]
    for hub, repo, branch, path, target in cases:
        url = links.link(hub, repo, branch, path, target)
        assert url.startswith(hub.rstrip("/") + "/hub/user-redirect/git-pull?")
        fields = links.parse(url)
        assert fields == links.Link(hub.rstrip("/"), repo, branch, path, target or links.default_targetpath(repo))
        # what nbgitpuller's handler reads (tornado's get_argument: parse_qs of the query)
        query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
        assert query["repo"] == repo and query["targetpath"] == fields.targetpath
        assert query["urlpath"] == f"lab/tree/{fields.targetpath}/{path}" and query.get("branch") == branch
        assert links.parse(links.server_path(repo, branch, path, target)) == fields.__class__(
            None, repo, branch, path, fields.targetpath)


def test_bad_link_fields_are_refused() -> None:
    for kwargs, word in [
        ({"hub": "hub.example.org"}, "hub"),
        ({"repo": "--upload-pack=evil"}, "repo"),
        ({"branch": "a..b"}, "branch"),
        ({"targetpath": "../escape"}, "targetpath"),
        ({"targetpath": "/etc"}, "targetpath"),
        ({"path": "../x.ipynb"}, "path"),
    ]:
        args = {"hub": "https://hub.example.org", "repo": "https://github.com/ORG/REPO", **kwargs}
        with pytest.raises(links.LinkError, match=word):
            links.link(**args)
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "nbgitpuller_link.py"), "--hub", "x",
                           "--repo", "https://github.com/O/R"], capture_output=True, text=True)
    assert done.returncode == 2 and "ERROR: hub 'x'" in done.stderr


# ---------------------------------------------------------------------------------- a real pull


def _git(*args: str, cwd: Path) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="Instructor", GIT_AUTHOR_EMAIL="i@example.org",
               GIT_COMMITTER_NAME="Instructor", GIT_COMMITTER_EMAIL="i@example.org")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Server:
    """A plain jupyter server from .venv (nbgitpuller's extension enabled by its install) on loopback."""

    def __init__(self, home: Path, default_url: str) -> None:
        self.home, self.token, self.port = home, "deploy-recipes-test", _free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        env = dict(os.environ, HOME=str(home), JUPYTER_CONFIG_DIR=str(home / ".jupyter"),
                   JUPYTER_RUNTIME_DIR=str(home / ".runtime"), GIT_CONFIG_NOSYSTEM="1")
        self.log = open(home.parent / "server.log", "w")  # closed in stop()
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "jupyter"), "server", "--no-browser", "--allow-root",
             "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={home}",
             f"--ServerApp.default_url={default_url}"],
            cwd=home, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.opener = urllib.request.build_opener(_NoRedirect)
        try:
            self._wait_answering(deadline=time.monotonic() + 180)
        except BaseException:
            self.stop()  # the fixture never gets this server: stop it here
            raise

    def _wait_answering(self, deadline: float) -> None:
        while True:  # a condition, not a sleep: the server answers its status API
            if self.process.poll() is not None:
                raise AssertionError(f"jupyter server exited ({self.process.returncode}; port {self.port} taken?): "
                                     f"{self.log_text()[-2000:]}")
            try:
                if self.request("api/status", timeout=5)[0] == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"jupyter server did not answer in 180 s: {self.log_text()[-2000:]}")
            time.sleep(0.2)  # between polls of the condition above

    def log_text(self) -> str:
        self.log.flush()
        return (self.home.parent / "server.log").read_text(errors="replace")

    def request(self, path: str, method: str = "GET", body: dict | None = None,
                timeout: float = 300) -> tuple[int, dict, str]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path.lstrip("/"), data=data, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        try:
            with self.opener.open(req, timeout=timeout) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, dict(answer.headers), answer.read().decode(errors="replace")

    def get(self, path: str) -> tuple[int, dict, str]:
        return self.request(path)

    def stop(self) -> None:
        if self.log.closed:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        self.log.close()


def open_pull_link(server: Server, path: str) -> list[dict]:
    """Do what a browser does with an nbgitpuller link: the page, then its script's event stream, then the redirect.

    nbgitpuller's page (UIHandler) carries the pull's fields in data-* attributes of its body; its script
    (gitsync.js) opens ``git-pull/api?`` with them (SyncHandler runs the pull in the request and streams
    ``data: {...}`` events) and, on ``phase: finished``, goes to base URL + data-path.
    """
    status, _, page = server.get(path)
    assert status == 200, page[-2000:]
    data = {k: unquote(html.unescape(v)) for k, v in re.findall(r'data-([a-z-]+)="([^"]*)"', page)}
    params = {"_xsrf": data["xsrf"], "repo": data["repo"], "targetpath": data["targetpath"]}
    for optional in ("depth", "branch", "backup"):
        if optional in data:
            params[optional] = data[optional]
    status, headers, stream = server.get("git-pull/api?" + urlencode(params))
    assert status == 200 and headers.get("Content-Type", "").startswith("text/event-stream"), stream[-2000:]
    events = [json.loads(line[len("data: "):]) for line in stream.splitlines() if line.startswith("data: ")]
    assert events and events[-1]["phase"] == "finished", json.dumps(events[-3:], indent=1)
    assert not [e for e in events if e.get("phase") == "error"]
    status, _, lab = server.get(unquote(data["base-url"]).lstrip("/") + data["path"])
    assert status == 200 and "JupyterLab" in lab, f"the redirect to {data['path']} answered {status}"
    return events


def _edit_cell(nb: nbformat.NotebookNode, index: int, line: str) -> None:
    cell = nb.cells[index]
    cell.source = cell.source + "\n\n" + line


@pytest.fixture
def pull_setup(tmp_path):
    """A bare repository standing for the course (two of its notebooks and README.md), its instructor's working
    copy, a student's home; a jupyter server whose default URL is the course's pull. Everything removed after."""
    work, origin, home = tmp_path / "instructor", tmp_path / "course.git", tmp_path / "home"
    (work / "notebooks").mkdir(parents=True)
    home.mkdir()
    for name in ("00_start_here.ipynb", "01_graphs_are_dags.ipynb"):
        shutil.copy(ROOT / "notebooks" / name, work / "notebooks" / name)
    shutil.copy(ROOT / "README.md", work / "README.md")
    _git("init", "-q", "-b", "main", cwd=work)
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "the course", cwd=work)
    _git("clone", "-q", "--bare", str(work), str(origin), cwd=tmp_path)
    _git("remote", "add", "origin", str(origin), cwd=work)
    repo = origin.as_uri()
    server = None
    try:
        server = Server(home, links.server_path(repo, "main", targetpath=TARGET))
        yield server, work, repo
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp_path, ignore_errors=True)


def test_real_pull_then_update_without_conflict(pull_setup) -> None:
    server, work, repo = pull_setup
    home = server.home
    # 1. the server's default URL (what singleuser.defaultUrl / c.Spawner.default_url set) is the pull
    status, headers, _ = server.get("")
    assert status == 302, status
    # (jupyter_server's redirect appends the request's own, empty, query: the fields are what must agree)
    assert links.parse(headers["Location"]) == links.parse(links.server_path(repo, "main", targetpath=TARGET))
    # 2. the first pull clones the course
    open_pull_link(server, headers["Location"])
    clone = home / TARGET
    for name in ("notebooks/00_start_here.ipynb", "notebooks/01_graphs_are_dags.ipynb", "README.md"):
        assert (clone / name).read_bytes() == (work / name).read_bytes(), name
    # 3. the student works, saving through the server as JupyterLab does: notebook 00's first cell and 01's first
    #    cell edited; README.md deleted
    for name, mark in (("00_start_here.ipynb", "Student's note in 00."), ("01_graphs_are_dags.ipynb", "Student 01.")):
        status, _, body = server.get(f"api/contents/{TARGET}/notebooks/{name}?content=1")
        assert status == 200
        nb = nbformat.from_dict(json.loads(body)["content"])
        _edit_cell(nb, 0, mark)
        status, _, body = server.request(f"api/contents/{TARGET}/notebooks/{name}", "PUT",
                                         {"type": "notebook", "format": "json", "content": nb})
        assert status == 200, body
    (clone / "README.md").unlink()
    # 4. the instructor commits an update: 00's last cell (the student changed the first), 01's first cell (the
    #    same lines as the student), a new notebook
    for name, index, mark in (("00_start_here.ipynb", -1, "Instructor's update of 00."),
                              ("01_graphs_are_dags.ipynb", 0, "Instructor's update of 01.")):
        nb = nbformat.read(work / "notebooks" / name, as_version=4)
        _edit_cell(nb, index, mark)
        nbformat.write(nb, work / "notebooks" / name)
    shutil.copy(ROOT / "notebooks" / "02_define_then_run_tensorflow.ipynb", work / "notebooks" / "02_new.ipynb")
    _git("add", ".", cwd=work)
    _git("commit", "-q", "-m", "an update", cwd=work)
    _git("push", "-q", "origin", "main", cwd=work)
    # 5. the student opens the link again: nbgitpuller fetches and merges, no conflict
    events = open_pull_link(server, links.server_path(repo, "main", targetpath=TARGET))
    said = "".join(e.get("output", "") for e in events)
    assert "CONFLICT" not in said and "Automatic merge failed" not in said, said[-3000:]
    nb00 = nbformat.read(clone / "notebooks" / "00_start_here.ipynb", as_version=4)
    assert nb00.cells[0].source.endswith("Student's note in 00.")  # the student's edit survives
    assert nb00.cells[-1].source.endswith("Instructor's update of 00.")  # and the course's update arrives
    nb01 = nbformat.read(clone / "notebooks" / "01_graphs_are_dags.ipynb", as_version=4)
    assert nb01.cells[0].source.endswith("Student 01.")  # same lines changed by both: the student's are kept
    assert "Instructor's update of 01." not in nb01.cells[0].source
    assert (clone / "notebooks" / "02_new.ipynb").read_bytes() == (work / "notebooks" / "02_new.ipynb").read_bytes()
    assert (clone / "README.md").read_bytes() == (work / "README.md").read_bytes()  # deleted, given back
    for path in clone.rglob("*.ipynb"):
        nbformat.validate(nbformat.read(path, as_version=4))  # valid notebooks, no conflict markers
        assert "<<<<<<<" not in path.read_text()
    # merged and committed, nothing half-done (JupyterLab's .ipynb_checkpoints/ stay untracked, as on a hub)
    assert _git("status", "--porcelain", "--untracked-files=no", cwd=clone) == ""
    assert _git("log", "-1", "--format=%s", "origin/main", cwd=clone).strip() == "an update"


# ================================================================================== the README's Binder badge


def _copy_checkout(tmp_path: Path) -> Path:
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / "course", tmp_path / "course")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    for tool in ("binder_badge.py", "nbgitpuller_link.py"):
        shutil.copy(ROOT / "tools" / tool, tmp_path / "tools" / tool)
    return tmp_path


def test_course_badge_fills_only_the_badge(tmp_path) -> None:
    copy_root = _copy_checkout(tmp_path)
    before = (copy_root / "README.md").read_text()
    assert len(badge.BADGE.findall(before)) == 1, "README.md has one badge line, the template"
    done = subprocess.run(["./course", "badge", "my-school/static-vs-dynamic-graphs", "v2.0"], cwd=copy_root,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    after = (copy_root / "README.md").read_text()
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]
    assert changed == [(badge.BADGE.search(before).group(0),
                        "[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/my-school/"
                        "static-vs-dynamic-graphs/v2.0?urlpath=lab/tree/notebooks/00_start_here.ipynb)")]
    # filled again (the repository moved, default branch): still one line changed
    subprocess.run(["./course", "badge", "other-org/course"], cwd=copy_root, check=True, capture_output=True)
    assert badge.BADGE.findall((copy_root / "README.md").read_text()) == [
        "[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/other-org/course/HEAD"
        "?urlpath=lab/tree/notebooks/00_start_here.ipynb)"]


@pytest.mark.parametrize("slug, why", [
    ("my-school", "not ORG/REPO"),
    ("a/b/c", "not ORG/REPO"),
    ("-school/repo", "not a GitHub account name"),
    ("my--school/repo", "not a GitHub account name"),
    ("my-school/re po", "not a GitHub repository name"),
    ("my-school/repo.git", "not a GitHub repository name"),
    ("https://github.com/my-school/repo", "not a URL"),
    ("YOUR-GITHUB-ORG/YOUR-REPO", "placeholder"),
])
def test_course_badge_refuses_malformed(tmp_path, slug, why) -> None:
    copy_root = _copy_checkout(tmp_path)
    before = (copy_root / "README.md").read_bytes()
    done = subprocess.run(["./course", "badge", slug], cwd=copy_root, capture_output=True, text=True)
    assert done.returncode == 1 and why in done.stderr and "what to do" in done.stderr, done.stderr
    assert (copy_root / "README.md").read_bytes() == before


def test_badge_without_a_badge_line() -> None:
    with pytest.raises(badge.BadgeError, match="no Binder badge line"):
        badge.fill("# a README\n", "my-school/repo")
    with pytest.raises(badge.BadgeError, match="not a git branch"):
        badge.binder_url("o", "r", "a..b")
    assert badge.binder_url("o", "r", "feature/x").endswith("/o/r/feature%2Fx?urlpath=lab/tree/notebooks/"
                                                           "00_start_here.ipynb")
