#!/bin/sh
# The PostgreSQL service of docker-compose.yml's "scale" profile in an image made from Debian's
# postgresql package (scripts/docker-services.sh), started as the official postgres image is:
# on a first start, a cluster in $PGDATA owned by POSTGRES_USER with database POSTGRES_DB and
# trust authentication (POSTGRES_HOST_AUTH_METHOD=trust, as the compose file asks); then the
# server itself as the postgres user, listening on every address of the compose network.
set -eu
PGDATA=${PGDATA:-/var/lib/postgresql/data}
BIN=$(echo /usr/lib/postgresql/*/bin)
USER_NAME=${POSTGRES_USER:-postgres}
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    as_postgres "$BIN/initdb" -D "$PGDATA" -U "$USER_NAME" --auth=trust >/dev/null
    echo "host all all all trust" >>"$PGDATA/pg_hba.conf"
    if [ "${POSTGRES_DB:=$USER_NAME}" != postgres ]; then  # initdb made "postgres" only
        as_postgres "$BIN/postgres" --single -D "$PGDATA" postgres \
            <<SQL >/dev/null
CREATE DATABASE "$POSTGRES_DB" OWNER "$USER_NAME";
SQL
    fi
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups \
    "$BIN/postgres" -D "$PGDATA" -c listen_addresses='*' "$@"
