# The riichi server in a slim image: locked dependencies, a non-editable byte-compiled install,
# a non-root user, a read-only root filesystem with only /data (the records) written.
#
#   DOCKER_BUILDKIT=1 docker build -t riichi .        (BuildKit: the pip steps mount secrets)
#   docker run --read-only -v riichi-data:/data -p 127.0.0.1:8000:8000 riichi
#
# BASE: an official Python slim image, pinned to Python's minor version and Debian's release.
# Where no registry is reachable, scripts/docker-base.sh makes an equivalent from Debian
# packages and scripts/docker-smoke.sh passes it as --build-arg BASE=riichi-base:bookworm.
# Optional build secrets for pip, never stored in a layer: pip_ca (a CA bundle, for a proxy
# that re-signs TLS) and pip_conf (a pip.conf with the index to use).
ARG BASE=python:3.11-slim-bookworm
# BUILD_BASE: the same Python with a C compiler and its headers, where the wheel is built (the
# engine's hot modules are compiled by mypyc: engine/native.py); only the venv leaves it.
ARG BUILD_BASE=python:3.11-bookworm

FROM ${BUILD_BASE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore
WORKDIR /src
# Dependencies first, from the locks alone: this layer survives every source edit.
COPY requirements.lock requirements-build.lock ./
RUN --mount=type=secret,id=pip_ca --mount=type=secret,id=pip_conf \
    if [ -s /run/secrets/pip_ca ]; then export PIP_CERT=/run/secrets/pip_ca; fi; \
    if [ -s /run/secrets/pip_conf ]; then export PIP_CONFIG_FILE=/run/secrets/pip_conf; fi; \
    python3 -m venv /opt/riichi && python3 -m venv /opt/build \
    && /opt/build/bin/pip install -q --require-hashes --no-deps -r requirements-build.lock \
    && /opt/riichi/bin/pip install -q --require-hashes --no-deps --only-binary=:all: \
        -r requirements.lock
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY server ./server
COPY static ./static
# A wheel built offline with the locked setuptools and mypyc (static/ goes in as server/static,
# the hot modules as C extensions), then installed without its dependencies (all locked above)
# and compiled to .pyc for a read-only filesystem; the build fails unless the installed engine
# and server run compiled. pip, setuptools and mypy are not needed at run time.
RUN /opt/build/bin/pip wheel -q --no-deps --no-build-isolation --no-index -w /wheels . \
    && /opt/riichi/bin/pip install -q --no-deps --no-index /wheels/*.whl \
    && /opt/riichi/bin/pip uninstall -q -y pip setuptools \
    && /opt/riichi/bin/python -m compileall -q /opt/riichi \
    && /opt/riichi/bin/python -c "import server.app; assert server.app._packaged_static()" \
    && cd / && /opt/riichi/bin/python -c "import engine.native as n; assert not n.REASON, n.REASON" \
    && /opt/riichi/bin/python -c "import server.native as s; assert not s.REASON, s.REASON"

FROM ${BASE}
# The release and the commit it was built from (scripts/docker-build.sh passes both: the
# version from server/version.py, the commit from git), as OCI labels on the image.
ARG VERSION=unknown
ARG REVISION=unknown
LABEL org.opencontainers.image.title="riichi-server" \
    org.opencontainers.image.description="A self-hosted riichi mahjong game server" \
    org.opencontainers.image.version="${VERSION}" \
    org.opencontainers.image.revision="${REVISION}" \
    org.opencontainers.image.licenses="MIT"
# uid/gid 10001, not in the base image's range; the records volume is theirs.
RUN echo 'riichi:x:10001:10001:riichi server:/data:/usr/sbin/nologin' >> /etc/passwd \
    && echo 'riichi:x:10001:' >> /etc/group \
    && mkdir -p /data && chown 10001:10001 /data && chmod 700 /data
COPY --from=build /opt/riichi /opt/riichi
ENV PATH=/opt/riichi/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TMPDIR=/data \
    SQLITE_TMPDIR=/data \
    RIICHI_HOST=0.0.0.0 \
    RIICHI_PORT=8000 \
    RIICHI_DATA_DIR=/data
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
# Asks /healthz on RIICHI_PORT, whatever it is set to at `docker run`.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python3", "-m", "server", "--healthcheck"]
CMD ["python3", "-m", "server"]
