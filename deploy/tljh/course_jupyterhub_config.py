# The Littlest JupyterHub: the course's configuration snippet (docs/deployment.md, "The Littlest JupyterHub").
# Copy it to /opt/tljh/config/jupyterhub_config.d/course.py and run `sudo tljh-config reload hub`. TLJH loads the
# files of that folder after its own settings (its "escape hatch"), so what is set here wins over tljh-config's.
#
# Why a snippet and not only tljh-config: TLJH runs every user's server from its own environment /opt/tljh/user,
# whose Python and packages are TLJH's (it reinstalls jupyterhub there at each upgrade); the course's pins need
# Python 3.11 and its own JupyterLab, so the course gets an environment of its own (/opt/tljh/course, made from
# environment.yml) and the users' servers start from it. tljh-config keeps the limits and the idle culler.
# tests/test_deploy_recipes.py loads this file as JupyterHub would and checks every Spawner setting is one
# JupyterHub 5.5 has, and that the default URL is an nbgitpuller pull of the course's start page.
c = get_config()  # noqa: F821 (JupyterHub's config loader provides get_config)

COURSE_ENV = "/opt/tljh/course"

# The users' servers: the course environment's jupyterhub-singleuser (same minor as the pinned jupyterhub).
c.Spawner.cmd = [f"{COURSE_ENV}/bin/jupyterhub-singleuser"]
# Terminals and kernels find the course's python first, TLJH's user environment (conda, pip) after it.
c.SystemdSpawner.extra_paths = [f"{COURSE_ENV}/bin", "/opt/tljh/user/bin"]
# Every login opens nbgitpuller: the course is cloned into ~/static-vs-dynamic-graphs the first time, the
# instructor's updates merged into the student's copy after (the student's changes win), then the start page
# opens. Made by: tools/nbgitpuller_link.py --server-path --repo <your repository> --branch main
c.Spawner.default_url = (
    "/git-pull?repo=https%3A%2F%2Fgithub.com%2FYOUR-GITHUB-ORG%2FYOUR-REPO"
    "&urlpath=lab%2Ftree%2Fstatic-vs-dynamic-graphs%2Fnotebooks%2F00_start_here.ipynb"
    "&branch=main&targetpath=static-vs-dynamic-graphs"
)
