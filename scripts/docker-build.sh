#!/usr/bin/env bash
# Build the server's image on this machine, whatever it can reach:
#
#   scripts/docker-build.sh [TAG]      (default riichi:latest, the tag docker-compose.yml runs)
#
# The base is $BASE if set, else python:3.11-slim-bookworm, pulled; where no registry answers,
# one made from Debian packages (scripts/docker-base.sh). pip inside the build gets this
# machine's CA bundle (pip's `cert` setting or the system bundle, plus any CA added under
# /usr/local/share/ca-certificates) and its index settings (never its local file:// folders,
# which do not exist in the build), both as BuildKit secrets, so no layer keeps them.
# NO_CACHE=1 builds from scratch. Needs a running dockerd. The last line says how long the
# build took and how big the image is.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/progress.sh
. scripts/progress.sh
TAG=${1:-riichi:latest}
DOCKER=${DOCKER:-$(command -v /usr/bin/docker || command -v docker)}  # Debian's client: BuildKit built in
export DOCKER_BUILDKIT=1
WORK=$(mktemp -d /tmp/riichi-build.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

BASE=${BASE:-python:3.11-slim-bookworm}
# the build stage's base: the same Python as BASE's (the venv moves between them), with a C
# compiler for mypyc; a base made from Debian packages has its own build base beside it
case "$BASE" in riichi-base:*) BUILD_BASE=${BUILD_BASE:-riichi-base-build:${BASE#riichi-base:}} ;; esac
BUILD_BASE=${BUILD_BASE:-python:3.11-bookworm}
if ! "$DOCKER" image inspect "$BASE" >/dev/null 2>&1 \
    && ! timeout 120 "$DOCKER" pull -q "$BASE" >/dev/null 2>&1; then
    echo "docker-build: $BASE cannot be pulled: making base images from Debian packages"
    BASE=riichi-base:bookworm
    BUILD_BASE=riichi-base-build:bookworm
    DOCKER=$DOCKER scripts/docker-base.sh "$BASE"
    EXTRA=gcc,libc6-dev,python3-dev DOCKER=$DOCKER scripts/docker-base.sh "$BUILD_BASE"
elif ! "$DOCKER" image inspect "$BUILD_BASE" >/dev/null 2>&1 \
    && { [[ $BUILD_BASE == riichi-base-build:* ]] \
        || ! timeout 300 "$DOCKER" pull -q "$BUILD_BASE" >/dev/null 2>&1; }; then
    echo "docker-build: $BUILD_BASE is not here: making it from Debian packages"
    [[ $BUILD_BASE == riichi-base-build:* ]] || BUILD_BASE=riichi-base-build:bookworm
    EXTRA=gcc,libc6-dev,python3-dev DOCKER=$DOCKER scripts/docker-base.sh "$BUILD_BASE"
fi

cert=$(python3 -m pip config get global.cert 2>/dev/null || true)
cert=${PIP_CERT:-${cert:-/etc/ssl/certs/ca-certificates.crt}}
cat "$cert" /usr/local/share/ca-certificates/*.crt >"$WORK/pip_ca" 2>/dev/null || true
python3 - "$WORK/pip_conf" <<'PY'
import os, subprocess, sys
listed = subprocess.run(
    [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True
).stdout
found = {}
for line in listed.splitlines():  # e.g. global.index-url='https://...'
    key, _, value = line.partition("=")
    name = key.split(".", 1)[-1]
    if name in ("index-url", "extra-index-url", "trusted-host", "timeout", "retries"):
        found[name] = value.strip("'\"")
for name in ("index-url", "extra-index-url", "trusted-host"):
    if os.environ.get("PIP_" + name.upper().replace("-", "_")):
        found[name] = os.environ["PIP_" + name.upper().replace("-", "_")]
for name in ("index-url", "extra-index-url"):
    found[name] = " ".join(u for u in found.get(name, "").split() if not u.startswith("file:"))
with open(sys.argv[1], "w") as f:
    f.write("[global]\n" + "".join(f"{k} = {v}\n" for k, v in found.items() if v))
PY
# the image's OCI labels: the release (server/version.py, the one source) and the commit
VERSION=$(sed -n 's/^VERSION = "\(.*\)"$/\1/p' server/version.py)
REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)
args=(--build-arg "BASE=$BASE" --build-arg "BUILD_BASE=$BUILD_BASE" --build-arg "VERSION=$VERSION" --build-arg "REVISION=$REVISION" --secret "id=pip_ca,src=$WORK/pip_ca" --secret "id=pip_conf,src=$WORK/pip_conf")
[ -z "${NO_CACHE:-}" ] || args+=(--no-cache)
echo "docker-build: building $TAG $VERSION on $BASE (build stage on $BUILD_BASE)"
previous=$("$DOCKER" image inspect -f '{{.Id}}' "$TAG" 2>/dev/null || true)
t0=$(date +%s.%N)
if ! with_progress "docker-build" "$WORK/build.log" \
    "$DOCKER" build --progress=plain "${args[@]}" -t "$TAG" .; then
    tail -n 40 "$WORK/build.log"
    exit 1
fi
if [ -n "$previous" ] && [ "$previous" != "$("$DOCKER" image inspect -f '{{.Id}}' "$TAG")" ]; then
    "$DOCKER" rmi "$previous" >/dev/null 2>&1 || true  # the image this one replaces, untagged now
fi
seconds=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')")
size=$("$DOCKER" image inspect -f '{{.Size}}' "$TAG" | awk '{printf "%.0f MB", $1 / 1e6}')
echo "docker-build: built $TAG in $seconds s, image size $size"
