#!/bin/sh
# scripts/make-fixture-db.sh COMMIT [--postgres]: a database written by the server of COMMIT,
# kept in tests/fixtures/COMMIT/sqlite (or .../postgres: a pg_dump of a throwaway PostgreSQL).
#
# COMMIT's tree is exported (git archive) into a temporary directory and its server runs from
# there, interpreted (RIICHI_COMPILE=0) with this checkout's Python environment: nothing of it
# is installed. scripts/make_fixture_db.py plays finished casual, ranked and reviewed games
# through the public API, records what that server serves beside the database
# (expected.json), and kills it with kill -9 while one more game is in play. What a later
# server added (0.2.0: tournaments, fair play, advice) is found through its API and played
# too (docs/migrations.md, "The fixtures kept").
# tests/server/storage/test_upgrade.py opens every fixture with today's server.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 COMMIT [--postgres]" >&2
    exit 2
fi
commit=$1
shift
flavour=sqlite
for arg in "$@"; do
    case $arg in
        --postgres) flavour=postgres ;;
        *) echo "$0: unknown option $arg" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
short=$(git -C "$here" rev-parse --short=7 "$commit^{commit}")
tree=$(mktemp -d "${TMPDIR:-/tmp}/riichi-fixture-$short.XXXXXX")
trap 'rm -rf "$tree"' EXIT
git -C "$here" archive "$short" | tar -x -C "$tree"
out="$here/tests/fixtures/$short/$flavour"
set -- --tree "$tree" --out "$out" --commit "$short"
if [ "$flavour" = postgres ]; then
    set -- "$@" --postgres
fi
python3 "$here/scripts/make_fixture_db.py" "$@"
ls -l "$out"
