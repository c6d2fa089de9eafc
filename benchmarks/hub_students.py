"""What one student costs on a JupyterHub: a real hub on loopback, students created and served through its REST API,
each running a notebook's code cells through its own kernel, through the hub's proxy, measured with psutil.

Run: ``.venv/bin/python benchmarks/hub_students.py`` (about eight minutes on two cores): every notebook of the course
for one student, each on a fresh kernel while a classmate's kernel is open (the table that says which notebook is
heaviest), then ``--students 8`` students running notebook 04 at once. It prints figures and asserts nothing about
time or size. ``--smoke`` (what ``./course test`` runs): notebook 00 for one student, no classmate, no class.
``--notebooks 04 05`` / ``--students N`` / ``--class-notebook 05``: other choices. Needs the pinned proxy:
``./course test --hub`` (or ``npm ci`` in ``deploy/hub/``) installs it.

The same driver (:class:`Classroom`) serves the hub test, ``tests/hub/test_hub.py``.

* **memory**: USS (memory only this process holds: what one more student adds) and RSS (what it maps, shared
  libraries counted again in every process: TensorFlow's and PyTorch's libraries are shared between kernels, so
  RSS overstates a student's cost), of the student's singleuser server and of its kernel with the kernel's
  children (torch.compile may start compile workers), after the notebook ran; **peak**: the kernel's highest RSS
  seen while it ran (sampled about once a second).
* **CPU**: the kernel's user+system seconds for the notebook (children included, the ones still running and the
  ones that ended), from kernel ready to the last cell's reply; the kernel's start-up CPU is apart.
* **start-up**: a server, from the POST that asks the hub for it to the server answering through the proxy; a
  kernel, from the POST of its session to its ``kernel_info_reply``.

Example of the table (one row per notebook)::

    notebook               kernel start  run   CPU   kernel USS/RSS  peak RSS  server USS/RSS
    00_start_here.ipynb    2.1 s         1.3 s 1.9 s 120/150 MB      150 MB    60/75 MB
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import inspect
import json
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psutil
from jupyter_server.services.kernels.connection.base import deserialize_binary_message
from nbval.plugin import find_comment_markers, find_metadata_tags, get_sanitize_patterns
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[1]
HUB_FILES = ROOT / "deploy" / "hub"
PROXY = HUB_FILES / "node_modules" / ".bin" / "configurable-http-proxy"
CONFIG = HUB_FILES / "jupyterhub_config.py"
NOTEBOOKS = ROOT / "notebooks"
#: nbval's patterns for what differs between two correct runs (the notebooks' own stage uses the same file).
SANITIZE = get_sanitize_patterns((ROOT / "tests" / "nbval_sanitize.cfg").read_text())
#: The notebook whose kernel holds the most memory after it ran, measured by this script's full run (the table in
#: docs/teaching.md, its date and machine); the hub test runs it for one student.
HEAVIEST = "08_where_we_are_today.ipynb"
CLASS_NOTEBOOK = "04_side_by_side.ipynb"  # the widgets' notebook every student of the hub test runs
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MB = 2**20
KERNEL = "python3"  # the kernel spec each notebook opens with, as a student's JupyterLab does
START_ATTEMPTS = 3  # a student whose kernel died as it started (a port taken) starts it again, at most this often
DEADLINE = 900.0  # seconds; a busy machine is slow, only the condition ends a wait


class HubError(RuntimeError):
    """Something the hub run needs is missing or went wrong: the message says what, and what to do."""


class KernelDied(HubError):
    """A kernel's websocket closed before its reply: the kernel died (its server's log says why)."""


class KernelRestarted(HubError):
    """The server said "restarting": the kernel died and its KernelRestarter starts it again (a fresh state)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (the system picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_port_free(port: int) -> int:
    """``port`` if nothing on 127.0.0.1 holds it, else a :class:`HubError` naming it and what to do."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError as e:
            raise HubError(f"port {port} on 127.0.0.1 is taken ({e.strerror}), so the hub cannot listen there. "
                           "What to do: stop what uses it (ss -ltnp | grep :PORT says what), or unset "
                           "COURSE_HUB_PORT to let the hub pick a free port.") from e
    return port


def sanitize(text: str) -> str:
    """Apply ``tests/nbval_sanitize.cfg``'s patterns as nbval does (re.sub, in file order).

    >>> sanitize("<function f at 0x7f3a12345678>")
    '<function f at 0xADDRESS>'
    """
    for regex, replace in SANITIZE:
        text = re.sub(regex, replace, text)
    return text


def markers(cell: dict) -> dict[str, bool]:
    """nbval's own reading of a cell's markers (``# NBVAL_IGNORE_OUTPUT``, ``# NBVAL_SKIP``, their tags)."""
    found = dict(find_comment_markers("".join(cell["source"])))
    found.update(find_metadata_tags(cell.get("metadata", {})) or ())
    return found


def tree_memory(proc: psutil.Process) -> dict[str, float]:
    """USS and RSS in MB of a process and its living descendants (USS adds up; RSS counts shared pages again)."""
    uss = rss = 0.0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            m = p.memory_full_info()
        except psutil.NoSuchProcess:
            continue
        uss, rss = uss + m.uss / MB, rss + m.rss / MB
    return {"uss_mb": round(uss, 1), "rss_mb": round(rss, 1)}


def tree_cpu(proc: psutil.Process) -> float:
    """User+system CPU seconds of a process, its ended (waited-for) children and its living descendants."""
    t = proc.cpu_times()
    total = t.user + t.system + t.children_user + t.children_system
    for p in proc.children(recursive=True):
        try:
            c = p.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += c.user + c.system
    return total


async def wait_for(condition: Callable[[], Any], what: str, timeout: float = DEADLINE, interval: float = 0.2) -> Any:
    """Call ``condition()`` (awaiting it if it is a coroutine) until it gives something true and return that; after
    ``timeout`` seconds raise ``TimeoutError`` saying what did not happen (the async twin of
    tests/browser/labdriver.py's wait_until)."""
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return found
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what} did not happen within {timeout:g} s")
        await asyncio.sleep(interval)


def kernel_process(server: psutil.Process, kernel_id: str) -> psutil.Process | None:
    """The live child of ``server`` running kernel ``kernel_id`` (its connection file's name holds the id)."""
    for p in server.children():
        try:
            if p.status() != psutil.STATUS_ZOMBIE and any(kernel_id in a for a in p.cmdline()):
                return p
        except psutil.Error:  # it ended meanwhile
            continue
    return None


@dataclass
class Run:
    """One notebook run by one student in a fresh kernel: what it printed (normalised) and what it cost."""

    student: str
    notebook: str
    cells: list[list[Any]] = field(default_factory=list)  # per code cell: its normalised outputs
    widgets: list[list[list]] = field(default_factory=list)  # per code cell: widget models opened and updated
    widget_views: int = 0
    errors: list[str] = field(default_factory=list)
    kernel_start_s: float = 0.0
    kernel_start_cpu_s: float = 0.0
    run_s: float = 0.0
    cpu_s: float = 0.0
    kernel: dict[str, float] = field(default_factory=dict)
    kernel_peak_rss_mb: float = 0.0
    server: dict[str, float] = field(default_factory=dict)
    kernel_processes: int = 0
    kernel_processes_peak: int = 0
    kernel_pid: int = 0
    server_pid: int = 0
    kernel_start_failures: int = 0  # kernels that died as they started, a port taken (Classroom.open_kernel)
    kernel_restarts: int = 0  # the server's automatic restarts of the kernel that ran, before its first cell (its log)


class Outputs:
    """The outputs of one cell as nbformat keeps them, normalised so two correct runs compare equal: consecutive
    stream texts joined (how they are cut depends on flush timing), execution counts dropped, texts through nbval's
    sanitize patterns, a widget view's model id replaced by the order in which the kernel opened that model."""

    def __init__(self, model_order: dict[str, int]) -> None:
        self.items: list[list[Any]] = []
        self.order = model_order

    def model(self, model_id: str) -> str:
        return f"model-{self.order.setdefault(model_id, len(self.order))}"

    def widget(self, msg_type: str, content: dict, states: bool = True) -> list | None:
        """A widget model the kernel opened (``["open", its model name, its state]``) or updated (``["update",
        model, the new state]``), the state as sorted JSON with model ids by order and nbval's patterns applied
        (``states=False``, for a cell nbval does not compare: the model names only); None for any other message."""
        if msg_type == "comm_open" and content.get("target_name") == "jupyter.widget":
            model = self.model(content["comm_id"])
            state = content["data"]["state"]
            return ["open", state.get("_model_name", "?"), self.state(state) if states else model]
        if msg_type == "comm_msg" and content["data"].get("method") == "update" and states:
            return ["update", self.model(content["comm_id"]), self.state(content["data"]["state"])]
        return None

    def state(self, state: dict) -> str:
        text = json.dumps(state, sort_keys=True)
        return sanitize(re.sub(r"IPY_MODEL_([0-9a-f]{32})", lambda m: "IPY_MODEL_" + self.model(m.group(1)), text))

    def add(self, msg_type: str, content: dict) -> None:
        if msg_type == "stream":
            if self.items and self.items[-1][:2] == ["stream", content["name"]]:
                self.items[-1][2] += sanitize(content["text"])
            else:
                self.items.append(["stream", content["name"], sanitize(content["text"])])
        elif msg_type in ("display_data", "execute_result", "update_display_data"):
            data = {}
            for mime, value in sorted(content["data"].items()):
                if mime == WIDGET_VIEW:
                    value = {**value, "model_id": self.model(value["model_id"])}
                data[mime] = sanitize(value) if isinstance(value, str) else value
            self.items.append([msg_type, data])
        elif msg_type == "error":
            self.items.append(["error", sanitize(content["ename"]), sanitize(content["evalue"])])
        elif msg_type == "clear_output":
            self.items.append(["clear_output"])


class Kernel:
    """A student's kernel reached through the hub's proxy: its websocket (``/user/<name>/api/kernels/<id>/
    channels``, the student's token), one request at a time, the way JupyterLab's notebook runs cells."""

    def __init__(self, ws: Any, session: str) -> None:
        self.ws, self.session = ws, session

    async def request(self, msg_type: str, content: dict, on_iopub: Callable[[str, dict], None] | None = None,
                      reply_type: str | None = None) -> dict:
        """Send one shell request; feed each iopub message it causes to ``on_iopub``; return its reply's content
        once the reply came and the kernel said idle for it."""
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": msg_type, "session": self.session, "username": "student",
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "version": "5.3"}
        await self.ws.write_message(json.dumps({"header": header, "parent_header": {}, "metadata": {},
                                                "content": content, "channel": "shell", "buffers": []}))
        reply, idle = None, False
        while reply is None or not idle:
            raw = await self.ws.read_message()
            if raw is None:
                raise KernelDied("the kernel's websocket closed before it answered (the kernel died)")
            msg = deserialize_binary_message(raw) if isinstance(raw, bytes) else json.loads(raw)
            # the server's own status message after an automatic restart (jupyter_server's on_kernel_restarted):
            # it answers no request, so it carries no parent
            if msg["channel"] == "iopub" and msg["header"]["msg_type"] == "status":
                if msg["content"]["execution_state"] == "restarting":
                    raise KernelRestarted("the server restarted the kernel")
                if msg["content"]["execution_state"] == "dead":  # jupyter_server's on_restart_failed
                    raise KernelDied("the server said the kernel is dead (its restarts failed)")
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["header"]["msg_type"]
            if msg["channel"] == "shell" and kind == (reply_type or msg_type.replace("_request", "_reply")):
                reply = msg["content"]
            elif msg["channel"] == "iopub":
                if kind == "status":
                    idle = idle or msg["content"]["execution_state"] == "idle"
                elif on_iopub is not None:
                    on_iopub(kind, msg["content"])
        return reply


class Classroom:
    """A JupyterHub on 127.0.0.1 from the course's .venv, its students, and every process it started.

    ``async with Classroom(workdir) as room:`` starts the hub (and through it the pinned proxy); leaving the block
    stops every kernel, server and the hub, and then checks with psutil that none of the processes seen is left
    (``room.leftovers``: what was still running and had to be killed; the test asserts it is empty)."""

    def __init__(self, workdir: Path, log: Callable[[str], None] = print) -> None:
        self.work, self.log = workdir, log
        self.token = secrets.token_hex(32)
        self.http: AsyncHTTPClient | None = None  # made in start(), on the running event loop
        self.proc: subprocess.Popen | None = None
        self.seen: dict[int, tuple[float, str]] = {}  # pid -> (create time, what) of every process the hub started
        self.leftovers: list[str] = []
        self.student_tokens: dict[str, str] = {}
        self.server_pids: dict[str, int] = {}
        self.server_start_s: dict[str, float] = {}
        self.server_start_cpu_s: dict[str, float] = {}  # the server's CPU seconds when it first answered
        self.sessions: dict[str, set[str]] = {}

    # --- the hub --------------------------------------------------------------------------------------------------
    async def __aenter__(self) -> Classroom:
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        if not PROXY.exists():
            raise HubError(f"the pinned configurable-http-proxy is not installed ({PROXY.relative_to(ROOT)} is "
                           "missing). What to do: run ./course test --hub (it runs npm ci in deploy/hub/), or "
                           "cd deploy/hub && npm ci.")
        if shutil.which("node") is None:
            raise HubError("configurable-http-proxy needs Node.js and `node` is not on PATH. What to do: install "
                           "Node.js 18 or later (./course test --hub installs it with apt-get), then run again.")
        self.http = AsyncHTTPClient(force_instance=True, max_clients=64)
        fixed = os.environ.get("COURSE_HUB_PORT")
        self.port = check_port_free(int(fixed)) if fixed else free_port()
        api_port, hub_port = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "COURSE_HUB_DIR": str(self.work), "COURSE_HUB_PORT": str(self.port),
               "COURSE_HUB_API_PORT": str(api_port), "COURSE_HUB_HUB_PORT": str(hub_port),
               "COURSE_HUB_PROXY": str(PROXY), "COURSE_HUB_SINGLEUSER": str(Path(sys.executable).parent /
                                                                            "jupyterhub-singleuser"),
               "COURSE_HUB_SERVICE_TOKEN": self.token, "COURSE_HUB_PASSWORD": secrets.token_hex(16),
               # the students' servers and kernels run the course's .venv, as ./course start does
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        self.hub_log = self.work / "jupyterhub.log"
        with open(self.hub_log, "wb") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)], cwd=self.work,
                                         env=env, stdout=out, stderr=subprocess.STDOUT)
        self.remember(psutil.Process(self.proc.pid), "the hub")

        async def answering() -> bool:
            if self.proc.poll() is not None:
                raise self.hub_died()
            try:
                await self.http.fetch(f"{self.url}/hub/api/", request_timeout=10)
            except (HTTPClientError, OSError):
                return False
            return True

        t0 = time.monotonic()
        await wait_for(answering, f"the hub answering at {self.url}/hub/api/ (through the proxy)")
        self.hub_start_s = time.monotonic() - t0
        self.snapshot()

    def hub_died(self) -> HubError:
        tail = self.hub_log.read_text(errors="replace")[-3000:]
        if "EADDRINUSE" in tail or "Address already in use" in tail:
            return HubError(f"the hub or its proxy could not listen: a port it was given was taken meanwhile "
                            f"(public {self.port}). What to do: run again (free ports are picked anew), or stop "
                            f"what holds the port. The hub's log ends:\n{tail}")
        return HubError(f"the hub stopped before answering (exit {self.proc.returncode}). What to do: read its log "
                        f"below (a missing package: ./course setup). The hub's log ends:\n{tail}")

    def remember(self, proc: psutil.Process, what: str) -> None:
        try:
            self.seen.setdefault(proc.pid, (proc.create_time(), what))
        except psutil.NoSuchProcess:
            pass

    def hub_memory(self) -> dict[str, dict[str, float]]:
        """USS and RSS in MB of the hub process and of its proxy (paid once per hub, not per student)."""
        hub = psutil.Process(self.proc.pid)
        proxy = next(p for p in hub.children() if "configurable-http-proxy" in " ".join(p.cmdline()))
        return {name: {"uss_mb": round(m.uss / MB, 1), "rss_mb": round(m.rss / MB, 1)}
                for name, m in (("hub", hub.memory_full_info()), ("proxy", proxy.memory_full_info()))}

    def snapshot(self) -> None:
        """Remember every process the hub started (proxy, servers, kernels, their children) while they run."""
        if self.proc is None or self.proc.poll() is not None:
            return
        for p in psutil.Process(self.proc.pid).children(recursive=True):
            try:
                self.remember(p, " ".join(p.cmdline()[:3]))
            except psutil.NoSuchProcess:
                continue

    async def api(self, method: str, path: str, body: Any = None, ok: tuple[int, ...] = (200, 201, 202, 204)) -> Any:
        """The hub's REST API with the driver's token; the decoded JSON answer (None when empty)."""
        return await self.fetch(f"{self.url}/hub/api{path}", self.token, method, body, ok)

    async def fetch(self, url: str, token: str, method: str = "GET", body: Any = None,
                    ok: tuple[int, ...] = (200, 201, 202, 204)) -> Any:
        req = HTTPRequest(url, method=method, headers={"Authorization": f"token {token}"}, request_timeout=DEADLINE,
                          body=None if body is None and method in ("GET", "DELETE") else json.dumps(body or {}))
        resp = await self.http.fetch(req, raise_error=False)
        if resp.code not in ok:
            raise HubError(f"{method} {url} answered {resp.code}: {resp.body[:500]!r}")
        return json.loads(resp.body) if resp.body else None

    # --- students -------------------------------------------------------------------------------------------------
    async def add_students(self, names: list[str]) -> None:
        """Create the students (one POST), each with a token of their own that reaches their own server only."""
        await self.api("POST", "/users", {"usernames": names})
        for name in names:
            model = await self.api("POST", f"/users/{name}/tokens",
                                   {"scopes": [f"access:servers!user={name}"], "note": "course hub test"})
            self.student_tokens[name] = model["token"]

    async def start_server(self, name: str) -> float:
        """Ask the hub for ``name``'s server and wait until it answers through the proxy; the seconds that took."""
        t0 = time.monotonic()
        await self.api("POST", f"/users/{name}/server")

        async def ready() -> dict | None:
            if self.proc.poll() is not None:
                raise self.hub_died()
            server = (await self.api("GET", f"/users/{name}"))["servers"].get("")
            return server if server and server["ready"] else None

        server = await wait_for(ready, f"{name}'s server ready")
        await wait_for(lambda: self.user_get(name, "api/status"), f"{name}'s server answering through the proxy")
        self.server_start_s[name] = time.monotonic() - t0
        self.server_pids[name] = server["state"]["pid"]
        self.server_start_cpu_s[name] = tree_cpu(psutil.Process(server["state"]["pid"]))
        self.snapshot()
        return self.server_start_s[name]

    async def user_get(self, name: str, path: str) -> Any:
        try:
            return await self.fetch(f"{self.url}/user/{name}/{path}", self.student_tokens[name])
        except (HubError, OSError):
            return None

    async def run_notebook(self, name: str, notebook: str, close: bool = True) -> Run:
        """``name`` puts its copy of ``notebook`` in its home (contents API), opens it (a session: a fresh kernel),
        runs its code cells in order as nbval does (``NBVAL_SKIP`` skipped, a cell's error stops the run), measures,
        and closes the session (the kernel stops); with ``close=False`` the kernel stays, idle, as a student's does,
        until :meth:`close_sessions` (or the end)."""
        token, base = self.student_tokens[name], f"{self.url}/user/{name}/api"
        nb = json.loads((NOTEBOOKS / notebook).read_text())
        path = f"notebooks/{notebook}"
        await self.fetch(f"{base}/contents/notebooks", token, "PUT", {"type": "directory"})
        await self.fetch(f"{base}/contents/{quote(path)}", token, "PUT", {"type": "notebook", "content": nb})
        nb = (await self.fetch(f"{base}/contents/{quote(path)}?content=1", token))["content"]  # the student's copy
        run = Run(name, notebook)
        server = psutil.Process(self.server_pids[name])
        session_id, kernel_id, kernel, kernel_proc = await self.open_kernel(name, path, server, run)
        run.kernel_pid, run.server_pid = kernel_proc.pid, server.pid
        try:
            run.kernel_start_cpu_s = cpu0 = tree_cpu(kernel_proc)
            sampler = asyncio.ensure_future(self.sample_peak(kernel_proc, run))
            t1 = time.monotonic()
            try:
                await self.run_cells(kernel, nb, run)
            except KernelDied as e:
                raise self.kernel_died(name, kernel_id, f"while cell {len(run.cells) + 1} of {notebook} ran") from e
            except KernelRestarted as e:  # its state is gone: the run cannot go on as the notebook says
                raise self.kernel_died(name, kernel_id, f"and was restarted while cell {len(run.cells) + 1} of "
                                       f"{notebook} ran") from e
            finally:
                sampler.cancel()
            run.run_s = time.monotonic() - t1
            run.cpu_s = tree_cpu(kernel_proc) - cpu0
            self.snapshot()
            for p in kernel_proc.children(recursive=True):
                self.remember(p, f"{name}'s kernel's child")
            run.kernel = tree_memory(kernel_proc)
            run.kernel_processes = 1 + len(kernel_proc.children(recursive=True))
            run.kernel_peak_rss_mb = round(max(run.kernel_peak_rss_mb, run.kernel["rss_mb"]), 1)
            mem = server.memory_full_info()
            run.server = {"uss_mb": round(mem.uss / MB, 1), "rss_mb": round(mem.rss / MB, 1)}
        finally:
            kernel.ws.close()
            if close:
                await self.close_sessions(name, session_id)
        return run

    async def open_kernel(self, name: str, path: str, server: psutil.Process,
                          run: Run) -> tuple[str, str, Kernel, psutil.Process]:
        """``name`` opens the notebook at ``path``: a session (a new kernel), and a websocket to it once the kernel
        answered kernel_info. Returns the session's id, the kernel's id, the websocket and the kernel's process.

        A kernel can die as it starts: another process may take one of its ports between the server choosing them
        and the kernel binding them (jupyter_client issue #276). jupyter_client 8.10 then restarts it on the same
        ports until it gives up, since its LocalPortCache fills the ports before the connection file is written
        and "new random ports" finds none to renew (connect.py, provisioning/local_provisioner.py), and the server
        removes it. A student sees the kernel die and starts it again; the driver does the same, for that cause only
        (the student's server log shows the port taken), at most START_ATTEMPTS times, and counts it in
        ``run.kernel_start_failures``, which the figures report."""
        token, base = self.student_tokens[name], f"{self.url}/user/{name}/api"
        for attempt in range(1, START_ATTEMPTS + 1):
            t0 = time.monotonic()
            session = await self.fetch(f"{base}/sessions", token, "POST", {
                "path": path, "name": Path(path).name, "type": "notebook", "kernel": {"name": KERNEL}})
            self.sessions.setdefault(name, set()).add(session["id"])
            kernel_id = session["kernel"]["id"]
            try:
                kernel, kernel_proc = await self.connect_kernel(name, kernel_id, server)
            except KernelDied as e:
                if attempt == START_ATTEMPTS or not self.port_was_taken(name, kernel_id):
                    raise self.kernel_died(name, kernel_id, f"before it answered kernel_info_request ({e})") from e
                run.kernel_start_failures += 1
                self.log(f"{name}'s kernel {kernel_id} died as it started: a port it was given was taken "
                         f"(jupyter_client issue #276); {name} starts a new one, as a student would")
                # the server has dropped the dead kernel's session already, as a rule (404)
                await self.fetch(f"{base}/sessions/{session['id']}", token, "DELETE", ok=(204, 404))
                self.sessions[name].discard(session["id"])
                continue
            run.kernel_start_s = time.monotonic() - t0
            # what the runtime did, from its log: a restart on the same ports may be over before the websocket opens
            run.kernel_restarts = self.logged_since_start(name, kernel_id).count("KernelRestarter: restarting kernel")
            return session["id"], kernel_id, kernel, kernel_proc
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def connect_kernel(self, name: str, kernel_id: str, server: psutil.Process) -> tuple[Kernel, psutil.Process]:
        """A websocket to kernel ``kernel_id`` once it answered kernel_info, and its process; ``KernelDied`` as soon
        as the server removed the kernel (polled: the websocket itself may wait a minute for a reply first).

        A kernel restarted by its server on the same ports says "restarting"; JupyterLab then reconnects
        (@jupyterlab/services' KernelConnection: "restarting" -> reconnect()), and so does the driver (the restarts are
        counted from the server's log in ``open_kernel``)."""
        token = self.student_tokens[name]
        url = f"ws://127.0.0.1:{self.port}/user/{name}/api/kernels/{kernel_id}/channels"

        async def answered() -> Kernel:
            ws = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {token}"},
                                                     request_timeout=DEADLINE), max_message_size=2**30)
            try:
                kernel = Kernel(ws, uuid.uuid4().hex)
                await kernel.request("kernel_info_request", {})
                return kernel
            except BaseException:  # a restart, a death, or cancelled because the kernel is gone
                ws.close()
                raise

        async def removed() -> bool:
            resp = await self.http.fetch(HTTPRequest(f"{self.url}/user/{name}/api/kernels/{kernel_id}",
                                                     headers={"Authorization": f"token {token}"},
                                                     request_timeout=DEADLINE), raise_error=False)
            return resp.code == 404

        for _restart in range(6):  # jupyter_client's KernelRestarter gives up after 5 restarts
            found = kernel_process(server, kernel_id)
            if found is not None:
                self.remember(found, f"{name}'s kernel")
            reply = asyncio.ensure_future(answered())
            gone = asyncio.ensure_future(wait_for(removed, f"{name}'s kernel {kernel_id} removed", interval=1.0))
            done, _ = await asyncio.wait({reply, gone}, return_when=asyncio.FIRST_COMPLETED)
            if reply not in done:
                reply.cancel()
                await asyncio.gather(reply, return_exceptions=True)
                raise KernelDied("its server removed it")
            gone.cancel()
            await asyncio.gather(gone, return_exceptions=True)
            try:
                kernel = reply.result()
            except KernelRestarted:
                self.log(f"{name}'s kernel {kernel_id} was restarted by its server before it answered; "
                         "reconnecting, as JupyterLab does")
                continue
            kernel_proc = kernel_process(server, kernel_id)
            if kernel_proc is None:
                raise HubError(f"{name}'s kernel {kernel_id} answered but is not a child process of its server "
                               f"{server.pid}")
            self.remember(kernel_proc, f"{name}'s kernel")
            return kernel, kernel_proc
        raise KernelDied("it was restarted 6 times before it answered")

    def logged_since_start(self, name: str, kernel_id: str) -> str:
        """What ``name``'s server log holds since kernel ``kernel_id`` started (its kernels write there too)."""
        log = self.work / "logs" / f"{name}.log"
        text = log.read_text(errors="replace") if log.exists() else ""
        start = text.rfind(f"Kernel started: {kernel_id}")
        return text[start:] if start >= 0 else ""

    def port_was_taken(self, name: str, kernel_id: str) -> bool:
        """True when, since kernel ``kernel_id`` started, a kernel of ``name`` failed to bind a port another process
        held (ipykernel's ``ZMQError: Address already in use``)."""
        return "Address already in use" in self.logged_since_start(name, kernel_id)

    def kernel_died(self, name: str, kernel_id: str, when: str) -> HubError:
        """What to say when ``name``'s kernel died: when, what its server logged about kernels (its kernels' output
        goes to the same log: a traceback, the KernelRestarter's restarts), and the log's end. Every student's log is
        kept in test-artifacts/hub-logs/ (the run's folder is removed)."""
        logs = self.work / "logs"
        kept = ROOT / "test-artifacts" / "hub-logs"
        shutil.rmtree(kept, ignore_errors=True)
        if logs.exists():
            shutil.copytree(logs, kept)
        log = logs / f"{name}.log"
        lines = log.read_text(errors="replace").splitlines() if log.exists() else ["(no log was written)"]
        said = [line for line in lines if re.search(r"KernelRestarter|Error|died|Kernel started|restart", line)]
        mem = psutil.virtual_memory()
        return HubError(
            f"{name}'s kernel {kernel_id} died {when}; the machine had {mem.available / 2**30:.1f} of "
            f"{mem.total / 2**30:.1f} GiB available afterwards. What to do: read what {name}'s server said about "
            f"its kernels, below (a traceback: the kernel failed; a kill with no traceback: the system's "
            f"out-of-memory killer, see dmesg); every student's whole log is in {kept.relative_to(ROOT)}/.\n"
            f"Its server said:\n" + "\n".join(said[-30:]) + "\nIts log ends:\n" + "\n".join(lines[-15:]))

    async def close_sessions(self, name: str, only: str | None = None) -> None:
        """Close ``name``'s open notebooks, or only session ``only`` (their kernels stop)."""
        token, base = self.student_tokens[name], f"{self.url}/user/{name}/api"
        for sid in [only] if only else list(self.sessions.get(name, ())):
            await self.fetch(f"{base}/sessions/{sid}", token, "DELETE")
            self.sessions[name].discard(sid)

    async def run_cells(self, kernel: Kernel, nb: dict, run: Run) -> None:
        order: dict[str, int] = {}
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            found = markers(cell)
            outputs, opened = Outputs(order), []
            if found.get("skip"):
                run.cells.append(["skipped"])
                run.widgets.append([])
                continue

            def on_iopub(kind: str, content: dict, outputs: Outputs = outputs, opened: list = opened,
                         states: bool = found.get("check", True)) -> None:
                widget = outputs.widget(kind, content, states)
                if widget:
                    opened.append(widget)
                outputs.add(kind, content)

            reply = await kernel.request("execute_request", {
                "code": "".join(cell["source"]), "silent": False, "store_history": True, "user_expressions": {},
                "allow_stdin": False, "stop_on_error": True}, on_iopub)
            run.widget_views += sum(1 for o in outputs.items if len(o) == 2 and WIDGET_VIEW in o[1])
            run.cells.append(outputs.items if found.get("check", True) else ["output not compared (nbval marker)"])
            run.widgets.append(opened)
            if reply["status"] != "ok":
                run.errors.append(f"cell {len(run.cells)}: {reply.get('ename')}: {reply.get('evalue')}")
                return

    async def sample_peak(self, proc: psutil.Process, run: Run) -> None:
        """The kernel's highest RSS (children included) and most processes while cells run: sampled, the USS is read
        once at the end (reading it walks every page map: too slow to sample)."""
        while True:
            try:
                tree = [proc, *proc.children(recursive=True)]
                rss = sum(p.memory_info().rss for p in tree) / MB
            except psutil.NoSuchProcess:
                tree, rss = [], 0.0
            for p in tree[1:]:
                self.remember(p, f"{run.student}'s kernel's child")
            run.kernel_peak_rss_mb = max(run.kernel_peak_rss_mb, round(rss, 1))
            run.kernel_processes_peak = max(run.kernel_processes_peak, len(tree))
            await asyncio.sleep(1.0)

    # --- stopping -------------------------------------------------------------------------------------------------
    async def stop(self) -> None:
        """Stop what was started, gently (kernels, servers, students through the REST API, then the hub, which
        stops its proxy), then kill whatever of it still runs and list it in ``leftovers``."""
        if self.http is not None and self.proc is None:  # the hub never started (a taken port, say)
            self.http.close()
        if self.proc is None:
            return
        self.snapshot()
        if self.proc.poll() is None:
            for name in self.student_tokens:
                await self.quietly(self.stop_student(name))
            self.snapshot()
            self.proc.send_signal(signal.SIGTERM)
        try:
            await wait_for(lambda: self.proc.poll() is not None, "the hub stopping", timeout=120)
        except TimeoutError:
            self.proc.kill()
            self.proc.wait()
        try:  # the hub waits for its servers and proxy; a kernel's own children may need a moment more
            await wait_for(lambda: not self.alive(), "every process the hub started ending", timeout=30)
        except TimeoutError:
            pass
        for pid, (_created, what) in self.alive().items():
            self.leftovers.append(f"{what} (pid {pid})")
            try:
                psutil.Process(pid).kill()
            except psutil.NoSuchProcess:
                pass
        if self.http is not None:
            self.http.close()
        self.proc = None

    async def quietly(self, step: Awaitable[Any]) -> None:
        try:
            await step
        except (HubError, OSError, TimeoutError) as e:
            self.log(f"while stopping: {e}")

    async def stop_student(self, name: str) -> None:
        await self.quietly(self.close_sessions(name))
        # also a server asked for that never got ready (400: it was not running, nothing to stop)
        await self.api("DELETE", f"/users/{name}/server", ok=(202, 204, 400))

        async def stopped() -> bool:
            return not (await self.api("GET", f"/users/{name}"))["servers"]

        await wait_for(stopped, f"{name}'s server stopping", timeout=120)
        await self.api("DELETE", f"/users/{name}")

    def alive(self) -> dict[int, tuple[float, str]]:
        """The processes seen that still run (same pid and same start time: not a reused pid)."""
        found = {}
        for pid, (created, what) in self.seen.items():
            try:
                p = psutil.Process(pid)
                if p.create_time() == created and p.status() != psutil.STATUS_ZOMBIE:
                    found[pid] = (created, what)
            except psutil.NoSuchProcess:
                continue
        return found


# --- the class and the table ---------------------------------------------------------------------------------------
async def class_run(room: Classroom, students: int, notebook: str, close: bool = True) -> list[Run]:
    """``students`` students created, their servers started at once, each running ``notebook`` at once (their
    kernels left open with ``close=False``)."""
    names = [f"student{k:02d}" for k in range(1, students + 1)]
    await room.add_students(names)
    await asyncio.gather(*(room.start_server(n) for n in names))
    return list(await asyncio.gather(*(room.run_notebook(n, notebook, close) for n in names)))


def machine() -> dict[str, Any]:
    """What the figures were measured on, and how busy it was then (the load average over 1, 5 and 15 minutes: times
    measured on a busy machine are upper figures; memory and CPU seconds do not depend on it)."""
    freq = psutil.cpu_freq()
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "cpu": model, "cores": psutil.cpu_count(), "cpu_mhz": round(freq.current) if freq else None,
            "ram_gb": round(psutil.virtual_memory().total / 2**30, 1), "system": platform.platform(),
            "python": platform.python_version(),
            "load_average": [round(x, 1) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None}


HEAD = (f"{'notebook':32} {'student':10} {'kernel start':>12} {'run':>7} {'CPU':>7} {'kernel USS/RSS MB':>18} "
        f"{'peak RSS':>9} {'procs':>5} {'server USS/RSS MB':>18}")
# procs: the kernel's processes, the most seen while it ran (torch.compile's workers, the start page's checks)


def row(r: Run) -> str:
    """One run: the kernel's start-up, the notebook's run time and CPU, kernel and server memory."""
    return (f"{r.notebook:32} {r.student:10} {r.kernel_start_s:11.1f}s {r.run_s:6.1f}s {r.cpu_s:6.1f}s "
            f"{r.kernel['uss_mb']:8.0f}/{r.kernel['rss_mb']:<9.0f} {r.kernel_peak_rss_mb:8.0f} "
            f"{r.kernel_processes_peak:5d} {r.server['uss_mb']:8.0f}/{r.server['rss_mb']:<9.0f}"
            + (f"  ERROR {r.errors[0]}" if r.errors else ""))


def table(runs: list[Run], title: str) -> str:
    """A title, the header and one :func:`row` per run."""
    return "\n".join([title, HEAD, *map(row, runs)])


async def benchmark(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="course-hub-"))
    try:
        async with Classroom(work) as room:
            print(f"hub answering through the proxy after {room.hub_start_s:.1f} s")
            names = ["solo", "mate"] if args.companion else ["solo"]
            await room.add_students(names)
            started = await asyncio.gather(*map(room.start_server, names))
            print("servers ready after " + ", ".join(f"{s:.1f}" for s in started) + " s")
            # A classmate's kernel stays open meanwhile: alone, a kernel is the only one mapping TensorFlow's and
            # PyTorch's libraries and its USS counts them; beside another (a class) it does not. (--smoke: no
            # classmate, its USS then overstates: smoke figures only show that the driver works.)
            if args.companion:
                mate = await room.run_notebook("mate", args.companion, close=False)
            print(f"\none student, each notebook on a fresh kernel (a classmate's kernel open beside it, "
                  f"{mate.notebook})" if args.companion else "\none student, no classmate (--smoke)", flush=True)
            print(HEAD, flush=True)
            solo = []
            for nb in args.notebooks:
                solo.append(await room.run_notebook("solo", nb))
                print(row(solo[-1]), flush=True)
            if args.companion:
                await room.close_sessions("mate")
            heaviest = max(solo, key=lambda r: r.kernel["uss_mb"])
            print(f"heaviest (kernel USS after the notebook): {heaviest.notebook}; most CPU: "
                  f"{max(solo, key=lambda r: r.cpu_s).notebook}")
            if len(solo) > 1 and heaviest.notebook != HEAVIEST:
                print(f"HEAVIEST in benchmarks/hub_students.py says {HEAVIEST}: update it (the hub test runs it)")
            many = await class_run(room, args.students, args.class_notebook) if args.students else []
            if many:
                print(table(many, f"\n{args.students} students at once, {args.class_notebook}"))
                starts = sorted(room.server_start_s[r.student] for r in many)
                print(f"server start-up (POST to answering), {len(starts)} at once: {starts[0]:.1f}-{starts[-1]:.1f} s"
                      f", {max(room.server_start_cpu_s.values()):.1f} CPU s at most")
            hub = room.hub_memory()
            print("the hub and its proxy, USS/RSS MB: " + ", ".join(f"{k} {v['uss_mb']:.0f}/{v['rss_mb']:.0f}"
                                                                    for k, v in hub.items()))
        if room.leftovers:
            raise HubError(f"processes left running after the hub stopped (killed now): {room.leftovers}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"machine": machine(), "hub": hub, "solo": [asdict(r) for r in solo], "class": [asdict(r) for r in many]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true",
                        help="notebook 00 for one student, no classmate, no class run (./course test)")
    parser.add_argument("--notebooks", nargs="+", help="notebook numbers or names for the one-student table")
    parser.add_argument("--students", type=int, default=8, help="students running the class notebook at once")
    parser.add_argument("--class-notebook", default=CLASS_NOTEBOOK)
    parser.add_argument("--json", type=Path, help="also write the figures there")
    args = parser.parse_args()
    every = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    wanted = args.notebooks or (["00"] if args.smoke else every)
    args.notebooks = [next((n for n in every if n.startswith(w)), w) for w in wanted]
    unknown = [n for n in args.notebooks if n not in every]
    if unknown:
        parser.error(f"no notebook {unknown} in notebooks/; choose among {every}")
    args.companion = None if args.smoke else CLASS_NOTEBOOK
    if args.smoke:
        args.students = 0
    try:
        figures = asyncio.run(benchmark(args))
    except HubError as e:
        sys.exit(f"hub_students: {e}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
