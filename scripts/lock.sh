#!/usr/bin/env bash
# The Docker image's locked dependency sets, compiled from pyproject.toml with pip-tools
# (`pip install pip-tools`), every version and hash pinned, resolved against PyPI alone (the
# machine's local wheel folders and indexes are left out, so the result is the same anywhere):
#   requirements.lock        the server's runtime dependencies ([project] dependencies and the
#                            [cluster] extra: the image runs a single node or a scaled one)
#   requirements-build.lock  what builds its wheel ([build-system] requires)
#
#   scripts/lock.sh            re-resolve both to the newest versions the bounds allow
#   scripts/lock.sh --upgrade-package NAME[==VERSION] ...   move only those pins
#   scripts/lock.sh --check    fail when pyproject.toml and the locks disagree
# Then the [test] extra's exact pins of packages the lock holds too (redis, psycopg) are set to
# the lock's versions, so the suite type-checks against what the image runs
# (tests/test_pins.py fails when they differ).
set -euo pipefail
cd "$(dirname "$0")/.."
COMPILER=${COMPILER:-pip-compile}  # not PIP_*: pip reads those as its own options
export CUSTOM_COMPILE_COMMAND="scripts/lock.sh"
unset PIP_FIND_LINKS PIP_EXTRA_INDEX_URL PIP_INDEX_URL PIP_CONSTRAINT
compile() {  # OUTPUT [pip-compile options]: PIP_CONFIG_FILE=/dev/null drops the machine's pip.conf
    local out=$1
    shift
    PIP_CONFIG_FILE=/dev/null "$COMPILER" -q --generate-hashes --allow-unsafe --strip-extras \
        --no-emit-find-links -o "$out" "$@" pyproject.toml
}
if [ "${1:-}" = "--check" ]; then
    # Keep every pin that still satisfies pyproject.toml: a changed result means they disagree.
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cp requirements.lock requirements-build.lock "$tmp/"
    compile "$tmp/requirements.lock" --extra cluster
    compile "$tmp/requirements-build.lock" --build-deps-for wheel --only-build-deps
    diff -u requirements.lock "$tmp/requirements.lock"
    diff -u requirements-build.lock "$tmp/requirements-build.lock"
    python3 -m pytest -q -n 0 -p no:cacheprovider tests/test_pins.py
    exit
fi
upgrade=("$@")
[ "${#upgrade[@]}" -gt 0 ] || upgrade=(--upgrade)
compile requirements.lock "${upgrade[@]}" --extra cluster
compile requirements-build.lock "${upgrade[@]}" --build-deps-for wheel --only-build-deps
python3 - <<'PY'
import re
from pathlib import Path

pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", Path("requirements.lock").read_text(), re.M))
pins = {name.lower().replace("_", "-"): version for name, version in pins.items()}
project = Path("pyproject.toml")
text = project.read_text()
head, rest = text.split("test = [", 1)
extra, tail = rest.split("]\n", 1)


def pin(match: re.Match[str]) -> str:
    version = pins.get(match[1].lower().replace("_", "-"), match[3])
    return f"\"{match[1]}{match[2] or ''}=={version}\""


extra = re.sub(r'"([A-Za-z0-9_.-]+)(\[[a-z,]+\])?==([^"]+)"', pin, extra)
project.write_text(f"{head}test = [{extra}]\n{tail}")
PY
