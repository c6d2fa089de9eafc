# JupyterHub configuration of the course's hub TEST (tests/hub/, benchmarks/hub_students.py): a real hub on
# loopback, for one run, in a temporary folder. NOT a deployment: its spawner gives no isolation between students
# and its authenticator lets anyone with the run's random password in (deploy/z2jh/ and docs/deployment.md are the
# deployments). Every value that changes per run comes from the environment, set by benchmarks/hub_students.py:
#
#   COURSE_HUB_DIR            the run's temporary folder (database, cookie secret, the students' homes and logs)
#   COURSE_HUB_PORT           the public port (configurable-http-proxy), COURSE_HUB_API_PORT its REST API,
#   COURSE_HUB_HUB_PORT       the hub's own port
#   COURSE_HUB_PROXY          the pinned configurable-http-proxy (deploy/hub/node_modules/.bin/, npm ci)
#   COURSE_HUB_SINGLEUSER     the jupyterhub-singleuser of the course's .venv (the students' servers)
#   COURSE_HUB_SERVICE_TOKEN  the driver's API token (a service with the admin scopes it needs, below)
#   COURSE_HUB_PASSWORD       the shared password (random per run; the test never logs in through a form)
#
# Names follow JupyterHub 5.5's own documentation and source (jupyterhub/app.py, spawner.py, proxy.py,
# authenticators/shared.py in .venv).
import os
import subprocess

env = os.environ
c = get_config()  # noqa: F821 - JupyterHub's config loader defines it

work = env["COURSE_HUB_DIR"]
c.JupyterHub.bind_url = f"http://127.0.0.1:{env['COURSE_HUB_PORT']}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{env['COURSE_HUB_HUB_PORT']}"
c.JupyterHub.db_url = f"sqlite:///{work}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = f"{work}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = f"{work}/jupyterhub.pid"

# The usual proxy, started and stopped by the hub (cleanup_proxy's default), pinned in deploy/hub/package.json.
c.ConfigurableHTTPProxy.command = [env["COURSE_HUB_PROXY"]]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{env['COURSE_HUB_API_PORT']}"
c.ConfigurableHTTPProxy.should_start = True

# Test only: one shared password (JupyterHub's own "shared-password" authenticator), anyone may log in with it.
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = env["COURSE_HUB_PASSWORD"]
c.Authenticator.allow_all = True

# Test only: SimpleLocalProcessSpawner runs every student's server as this same system user, each in a home of its
# own (created by the spawner, HOME set to it), with no isolation at all (its docstring: "Only use this for testing").
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = f"{work}/homes/{{username}}"
c.Spawner.cmd = [env["COURSE_HUB_SINGLEUSER"]]
c.Spawner.ip = "127.0.0.1"
# jupyter_server refuses to run as root without --allow-root (containers and CI machines run as root).
c.Spawner.args = ["--allow-root"] if os.geteuid() == 0 else []
# The machine may be busy (eight servers importing jupyter_server at once on two cores): generous deadlines, the
# driver waits on the servers' readiness, not on a time.
c.Spawner.start_timeout = 600
c.Spawner.http_timeout = 600
# Each student's server (and its kernels, which inherit its output) writes a log of its own, logs/<name>.log: when a
# kernel dies the driver shows that student's log (why the kernel died, how many restarts) rather than the hub's log,
# where eight servers interleave. LocalProcessSpawner passes popen_kwargs to Popen (jupyterhub/spawner.py).
def server_log(spawner):  # noqa: ANN001, ANN201 - JupyterHub's hook signature
    logs = os.path.join(work, "logs")
    os.makedirs(logs, exist_ok=True)
    out = open(os.path.join(logs, f"{spawner.user.name}.log"), "ab")  # noqa: SIM115 - closed when the server stops
    spawner.popen_kwargs = {"stdout": out, "stderr": subprocess.STDOUT}


def close_server_log(spawner):  # noqa: ANN001, ANN201
    out = spawner.popen_kwargs.get("stdout")
    if out is not None:
        out.close()


c.Spawner.pre_spawn_hook = server_log
c.Spawner.post_stop_hook = close_server_log
# Stop every server when the hub stops (the default, said here because the test relies on it).
c.JupyterHub.cleanup_servers = True

# The driver's token: a service with what it needs to create students and their tokens, start and stop their
# servers and read the servers' state (the server's pid, for psutil); no scope to reach the servers themselves:
# each student's requests carry that student's own token.
c.JupyterHub.services = [{"name": "course-hub-driver", "api_token": env["COURSE_HUB_SERVICE_TOKEN"]}]
c.JupyterHub.load_roles = [{
    "name": "course-hub-driver",
    "scopes": ["admin:users", "admin:servers", "admin:server_state", "tokens"],
    "services": ["course-hub-driver"],
}]
