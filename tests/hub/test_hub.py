"""The course under a real JupyterHub (issue 28): a class of students, each with a server and a kernel of their own,
running notebook 04's cells (widgets included) at once through the hub's proxy, all getting the same outputs; and
what one student costs, measured in that run.

The hub is JupyterHub 5.5 from the course's .venv on 127.0.0.1 (free ports), its pinned configurable-http-proxy
(deploy/hub/, npm ci), SimpleLocalProcessSpawner and the shared-password authenticator (test only:
deploy/hub/jupyterhub_config.py). The driver is benchmarks/hub_students.py's Classroom: students created and their
servers started through the hub's REST API (all at once), each student's notebook copy put in its home and opened
(a session: a kernel) through its own server with its own token, the code cells run over the kernel's websocket
under /user/<name>/, measured with psutil. Run alone with ``./course test --hub`` (./course test runs it last). The
figures record the load average: times measured on a busy machine are upper figures.

The figures are printed and written to test-artifacts/hub-figures.json; no figure is a threshold here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import hub_students as hs  # noqa: E402 - the driver lives with its benchmark (benchmarks/hub_students.py)

STUDENTS = 8
FIGURES = ROOT / "test-artifacts" / "hub-figures.json"


def committed_widget_views(notebook: str) -> int:
    """How many widget views the committed notebook's outputs hold: what a run must make again."""
    nb = json.loads((hs.NOTEBOOKS / notebook).read_text())
    return sum(hs.WIDGET_VIEW in o.get("data", {}) for c in nb["cells"] if c["cell_type"] == "code"
               for o in c.get("outputs", []))


@pytest.fixture
def room() -> Iterator[hs.Classroom]:
    """A Classroom in a temporary folder; afterwards (passed or failed) nothing it started may still run: no
    process the hub started (room.leftovers, checked by pid and start time), no child of this process, no folder."""
    work = Path(tempfile.mkdtemp(prefix="course-hub-test-"))
    room = hs.Classroom(work)
    yield room
    shutil.rmtree(work, ignore_errors=True)
    ours = [" ".join(p.cmdline()[:3]) for p in psutil.Process().children(recursive=True)]
    assert not room.leftovers, f"processes the hub started were still running after it stopped: {room.leftovers}"
    assert not ours, f"processes started by this test are still running: {ours}"
    assert not work.exists(), f"{work} was not removed"


def figures(room: hs.Classroom, runs: list[hs.Run], heavy: hs.Run) -> dict:
    """What one student costs, as measured: every student of the class run, and the heaviest notebook's run."""
    def spread(values: list[float]) -> dict[str, float]:
        return {"min": round(min(values), 1), "max": round(max(values), 1),
                "mean": round(sum(values) / len(values), 1)}

    return {
        "machine": hs.machine(),
        "students": len(runs),
        "hub_start_s": round(room.hub_start_s, 1),
        "class_notebook": runs[0].notebook,
        "server_start_s": spread([room.server_start_s[r.student] for r in runs]),
        "server_start_cpu_s": spread([room.server_start_cpu_s[r.student] for r in runs]),
        "kernel_start_s": spread([r.kernel_start_s for r in runs]),
        "kernel_start_cpu_s": spread([r.kernel_start_cpu_s for r in runs]),
        "notebook_cpu_s": spread([r.cpu_s for r in runs]),
        "notebook_run_s": spread([r.run_s for r in runs]),
        "kernel_uss_mb": spread([r.kernel["uss_mb"] for r in runs]),
        "kernel_rss_mb": spread([r.kernel["rss_mb"] for r in runs]),
        "kernel_peak_rss_mb": spread([r.kernel_peak_rss_mb for r in runs]),
        "server_uss_mb": spread([r.server["uss_mb"] for r in runs]),
        "server_rss_mb": spread([r.server["rss_mb"] for r in runs]),
        # kernels that died as they started (a port taken, jupyter_client issue #276) and were started again, and
        # kernels restarted by their server on the same ports before their first cell (reconnected)
        "kernel_start_failures": sum(r.kernel_start_failures for r in [*runs, heavy]),
        "kernel_restarts": sum(r.kernel_restarts for r in [*runs, heavy]),
        "heaviest": {k: v for k, v in vars(heavy).items() if k not in ("cells", "widgets")},
        "runs": [{k: v for k, v in vars(r).items() if k not in ("cells", "widgets")} for r in runs],
    }


def test_a_class_runs_the_widgets_notebook_on_jupyterhub(room: hs.Classroom) -> None:
    async def lesson() -> tuple[list[hs.Run], hs.Run, dict]:
        async with room:
            # the class's kernels stay open, as in a lesson: the heaviest notebook's kernel then shares TensorFlow's
            # and PyTorch's libraries with them, and its USS is what one more student adds
            runs = await hs.class_run(room, STUDENTS, hs.CLASS_NOTEBOOK, close=False)
            # the heaviest notebook (measured by benchmarks/hub_students.py), one student, a fresh kernel
            heavy = await room.run_notebook(runs[0].student, hs.HEAVIEST)
            hub = room.hub_memory()
        return runs, heavy, hub

    runs, heavy, hub = asyncio.run(lesson())
    found = {**figures(room, runs, heavy), "hub_and_proxy": hub}
    FIGURES.parent.mkdir(exist_ok=True)
    FIGURES.write_text(json.dumps(found, indent=1))
    print("\n" + hs.table(runs, f"{STUDENTS} students at once on JupyterHub, {hs.CLASS_NOTEBOOK}"))
    print(hs.table([heavy], "the heaviest notebook, one student"))
    print(f"server start-up (POST to answering through the proxy), {STUDENTS} at once: {found['server_start_s']}")
    print(f"the hub and its proxy (once per hub), USS/RSS MB: {hub}")
    print(f"kernels that died as they started (a port taken) and were started again: "
          f"{found['kernel_start_failures']}; restarted by their server (same ports) before their first cell: "
          f"{found['kernel_restarts']}")
    print(f"load average (1, 5, 15 min) at the end: {found['machine']['load_average']}; "
          f"figures written to {FIGURES.relative_to(ROOT)}")

    # what was started is what the label says: distinct servers and kernels, one per student
    assert len({r.server_pid for r in runs}) == len({r.kernel_pid for r in runs}) == STUDENTS
    for run in [*runs, heavy]:
        assert not run.errors, f"{run.student} running {run.notebook}: {run.errors}"
        assert run.widget_views == committed_widget_views(run.notebook) > 0, (
            f"{run.student}'s {run.notebook} showed {run.widget_views} widget views, the committed notebook has "
            f"{committed_widget_views(run.notebook)}")
    first = runs[0]
    assert sum(map(len, first.widgets)) > 0, "no widget model was opened by notebook 04's widget cells"
    for run in runs[1:]:
        assert len(run.cells) == len(run.widgets) == len(first.cells) == len(first.widgets)
        for k, (theirs, ours) in enumerate(zip(run.widgets, first.widgets, strict=True), 1):
            assert theirs == ours, f"code cell {k} of {run.notebook}: {run.student}'s widgets (models opened, " \
                                   f"their states, updates) differ from {first.student}'s:\n{theirs}\nvs\n{ours}"
        for k, (theirs, ours) in enumerate(zip(run.cells, first.cells, strict=True), 1):
            assert theirs == ours, f"code cell {k} of {run.notebook}: {run.student}'s outputs differ from " \
                                   f"{first.student}'s:\n{theirs}\nvs\n{ours}"


# A kernel spec whose launcher, on its first launch only, has a helper process take the shell port the server chose
# (as another student's process can, between the server choosing the ports and the kernel binding them) and keep it,
# then becomes ipykernel, which binds the ports its connection file names.
TAKEN_PORT_LAUNCHER = """
import json, os, subprocess, sys, time
connection_file, home = sys.argv[1], sys.argv[2]
first = os.path.join(home, "first-launch")
if not os.path.exists(first):
    open(first, "w").close()
    port = json.load(open(connection_file))["shell_port"]
    taken = os.path.join(home, "port-taken")
    holder = subprocess.Popen([sys.executable, "-c",
        "import os, socket, sys, time\\n"
        "s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen()\\n"
        "open(sys.argv[2] + '.tmp', 'w').write(sys.argv[1]); os.rename(sys.argv[2] + '.tmp', sys.argv[2])\\n"
        "time.sleep(900)\\n", str(port), taken], start_new_session=True)  # survives the kernel's process group
    open(os.path.join(home, "holder.pid"), "w").write(str(holder.pid))
    while not os.path.exists(taken) and holder.poll() is None:  # held, or the helper could not take it
        time.sleep(0.05)
os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file])
"""


def test_a_kernel_that_died_as_a_port_was_taken_is_started_again(room: hs.Classroom,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The race behind a CI failure (one of eight kernels died before its first cell), made certain: the student's
    first kernel dies on the taken port (its server restarts it on the same port until it gives up, as
    jupyter_client 8.10 does), the driver starts a new one, as a student would, and notebook 00 runs."""
    async def lesson() -> tuple[hs.Run, str]:
        async with room:
            await room.add_students(["student01"])
            await room.start_server("student01")
            home = room.work / "homes" / "student01"
            spec = home / ".local" / "share" / "jupyter" / "kernels" / "taken-port"
            spec.mkdir(parents=True)
            (home / "launcher.py").write_text(TAKEN_PORT_LAUNCHER)
            (spec / "kernel.json").write_text(json.dumps({
                "argv": [sys.executable, str(home / "launcher.py"), "{connection_file}", str(home)],
                "display_name": "Python 3 (a port taken at its first launch)", "language": "python"}))
            monkeypatch.setattr(hs, "KERNEL", "taken-port")
            try:
                run = await room.run_notebook("student01", "00_start_here.ipynb")
            finally:
                holder = home / "holder.pid"
                if holder.exists():
                    with contextlib.suppress(psutil.NoSuchProcess):
                        psutil.Process(int(holder.read_text())).kill()
            return run, (room.work / "logs" / "student01.log").read_text(errors="replace")

    run, log = asyncio.run(lesson())
    held = room.work / "homes" / "student01" / "port-taken"
    assert held.exists(), "the helper could not take the kernel's shell port (another process had it): run again"
    taken = held.read_text()
    assert f"Address already in use (addr='tcp://127.0.0.1:{taken}')" in log, "the helper did not take the port"
    assert "restart failed" in log and "died, removing from map" in log, log[-3000:]
    assert run.kernel_start_failures == 1 and not run.errors, (run.kernel_start_failures, run.errors)
    assert run.widget_views == committed_widget_views(run.notebook)


def test_a_taken_port_is_named_before_anything_starts(room: hs.Classroom, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        monkeypatch.setenv("COURSE_HUB_PORT", str(port))
        with pytest.raises(hs.HubError, match=f"port {port} on 127.0.0.1 is taken.*What to do"):
            asyncio.run(room.__aenter__())
    assert room.proc is None and not room.seen


def test_a_missing_proxy_says_how_to_install_it(room: hs.Classroom, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hs, "PROXY", hs.ROOT / "deploy" / "hub" / "no-such-proxy")
    with pytest.raises(hs.HubError, match=r"configurable-http-proxy is not installed.*npm ci"):
        asyncio.run(room.__aenter__())
    assert room.proc is None


def test_no_node_says_what_to_install(room: hs.Classroom, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH with no node on it
    with pytest.raises(hs.HubError, match=r"needs Node.js and `node` is not on PATH.*install Node.js"):
        asyncio.run(room.__aenter__())
    assert room.proc is None
