"""The server's release: a semantic version (MAJOR.MINOR.PATCH), the one source of it.

pyproject.toml reads it (``[tool.setuptools.dynamic]``), so the wheel, ``python -m server
--version``, ``/healthz``, the page's footer and the Docker image's labels
(scripts/docker-build.sh) all say the same. Bump it with a CHANGELOG.md entry when a release
is cut. Not ``engine.version.ENGINE_VERSION``: that one says how games replay.
"""

VERSION = "0.2.0"
