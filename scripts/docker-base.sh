#!/usr/bin/env bash
# A Python base image made from Debian packages, for machines that reach no container registry.
#
#   scripts/docker-base.sh [TAG]          (default riichi-base:bookworm; needs root, debootstrap)
#
# debootstraps bookworm from the apt mirror this machine is configured with (so it works
# wherever `apt-get install` works), adds python3 + venv + pip and ca-certificates, strips apt
# caches and docs, and `docker import`s the tree. The result is what the Dockerfile's
# `--build-arg BASE=...` expects of python:3.11-slim-bookworm: a `python3` (3.11) with venv.
# Does nothing when TAG already exists (set REBUILD=1 to make it again). EXTRA adds packages
# (comma-separated): the build stage's base takes a C compiler and Python's headers
# (EXTRA=gcc,libc6-dev,python3-dev), what python:3.11-bookworm has beside the slim image.
set -euo pipefail
TAG=${1:-riichi-base:bookworm}
SUITE=bookworm
DOCKER=${DOCKER:-$(command -v /usr/bin/docker || command -v docker)}

if [ -z "${REBUILD:-}" ] && "$DOCKER" image inspect "$TAG" >/dev/null 2>&1; then
    echo "docker-base: $TAG already exists"
    exit 0
fi

# The first configured mirror that serves $SUITE itself (not -security, not -updates):
# deb822 files (URIs:/Suites:) and one-line sources.list entries alike.
mirror() {
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk -v suite="$SUITE" '
            /^deb[ \t]/ { u = $2; if ($2 ~ /^\[/) { for (i = 2; i <= NF && $i !~ /\]$/; i++); u = $(i+1); s = $(i+2) } else s = $3
                          if (s == suite) { print u; exit } }
            /^URIs:/   { split($0, a, /[ \t]+/); uris = a[2] }
            /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite && uris != "") { print uris; exit } }
            /^$/       { uris = "" }
        ' "$f"
    done | head -n1
}
MIRROR=${MIRROR:-$(mirror)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
echo "docker-base: debootstrap $SUITE from $MIRROR"

ROOT=$(mktemp -d /tmp/riichi-base.XXXXXX)
trap 'rm -rf "$ROOT"' EXIT
# shellcheck source=scripts/progress.sh
. "$(dirname "$0")/progress.sh"
with_progress "docker-base $TAG" "$ROOT.log" debootstrap --variant=minbase \
    --include=python3,python3-venv,python3-pip,ca-certificates${EXTRA:+,$EXTRA} \
    "$SUITE" "$ROOT" "$MIRROR" || { tail -n 30 "$ROOT.log"; exit 1; }
rm -f "$ROOT.log"

# What an image does not need: package caches and lists, docs, man pages, locales.
rm -rf "$ROOT"/var/cache/apt/* "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/log/* \
    "$ROOT"/usr/share/doc/* "$ROOT"/usr/share/man/* "$ROOT"/usr/share/info/* \
    "$ROOT"/usr/share/locale/* "$ROOT"/tmp/* "$ROOT"/var/tmp/*
"$ROOT/usr/bin/python3" -V >/dev/null 2>&1 || chroot "$ROOT" python3 -V >/dev/null

tar --numeric-owner -C "$ROOT" -c . | "$DOCKER" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV LANG=C.UTF-8' \
    --change 'CMD ["python3"]' \
    - "$TAG" >/dev/null
echo "docker-base: $TAG ($("$DOCKER" image inspect -f '{{.Size}}' "$TAG" | awk '{printf "%.0f MB", $1/1e6}'))"
