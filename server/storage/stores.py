"""Which store a server writes to: PostgreSQL by ``database_url``, else the node's SQLite file.

The choice is a module of its own because it imports both stores: server/storage/postgres.py builds
on server/storage/sqlite.py (its records and rows) and server/storage/persist.py (the rooms
schema), so the SQLite module may not import the PostgreSQL one back without an import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.storage.sqlite import Storage, Store

if TYPE_CHECKING:
    from server.settings import Settings


def open_store(settings: Settings) -> Store:
    """PostgreSQL when ``database_url`` is set (psycopg is then needed: the [cluster] extra),
    else the node's SQLite file."""
    if settings.database_url:
        from server.storage.postgres import PgStore  # psycopg loads only for a server that uses it

        return PgStore(settings.database_url, node=settings.node)
    return Storage(settings.db_path, settings.synchronous, settings.checkpoint_s)
