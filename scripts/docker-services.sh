#!/usr/bin/env bash
# Redis and PostgreSQL images for docker-compose.yml's "scale" profile on machines that reach
# no container registry (where redis:7-bookworm and postgres:16-bookworm cannot be pulled):
# made from Debian's redis-server (7.0) and postgresql (15) packages on scripts/docker-base.sh's
# debootstrap, as riichi-redis:bookworm and riichi-postgres:bookworm. The compose file takes
# them through REDIS_IMAGE and POSTGRES_IMAGE:
#
#   scripts/docker-services.sh     (needs root, debootstrap and a running dockerd)
#   REDIS_IMAGE=riichi-redis:bookworm POSTGRES_IMAGE=riichi-postgres:bookworm \
#       docker-compose --profile scale up node-a node-b
#
# Redis runs as the compose file says
# (redis-server on PATH, redis-cli for its health check); PostgreSQL through
# scripts/docker/postgres-entrypoint.sh, which does what the official image's entrypoint does
# for this compose file (a cluster owned by POSTGRES_USER, database POSTGRES_DB, trust).
set -euo pipefail
cd "$(dirname "$0")/.."
DOCKER=${DOCKER:-$(command -v /usr/bin/docker || command -v docker)}
export DOCKER_BUILDKIT=1
REDIS_IMAGE=riichi-redis:bookworm
POSTGRES_IMAGE=riichi-postgres:bookworm

# docker-base.sh keeps an image it made before (REBUILD=1 makes it again); the entrypoint's
# layer is built every time, from cache while it is unchanged.
echo "docker-services: $REDIS_IMAGE from Debian's redis-server"
EXTRA=redis-server DOCKER=$DOCKER scripts/docker-base.sh "$REDIS_IMAGE"
echo "docker-services: $POSTGRES_IMAGE from Debian's postgresql"
EXTRA=postgresql DOCKER=$DOCKER scripts/docker-base.sh riichi-postgres-base:bookworm
work=$(mktemp -d /tmp/riichi-services.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp scripts/docker/postgres-entrypoint.sh "$work/"
cat >"$work/Dockerfile" <<'DOCKERFILE'
FROM riichi-postgres-base:bookworm
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
# the packaged cluster is not used: the entrypoint makes one in $PGDATA (the compose volume)
RUN rm -rf /var/lib/postgresql/* /etc/postgresql/*/main \
    && ln -s /usr/lib/postgresql/*/bin/pg_isready /usr/local/bin/pg_isready
ENV PGDATA=/var/lib/postgresql/data
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
CMD []
DOCKERFILE
"$DOCKER" build -q -t "$POSTGRES_IMAGE" "$work" >/dev/null
echo "docker-services: $REDIS_IMAGE and $POSTGRES_IMAGE ready"
