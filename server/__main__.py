"""``python -m server [--host H] [--port P] [--data-dir D]``: the server with embedded defaults."""

from __future__ import annotations

import logging

import uvicorn

from server.app import create_app
from server.session.engine_port import RealEngine
from server.session.hub import Hub
from server.settings import from_args
from server.shutdown import GRACEFUL_S, StoppingServer
from server.storage import Storage

#: frames above this close the socket at the protocol level; smaller ones over
#: ``max_frame`` get an error message (docs/protocol.md)
WS_MAX_SIZE = 65536


def main() -> None:
    settings = from_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    hub = Hub(settings, Storage(settings.db_path, settings.synchronous), RealEngine())
    config = uvicorn.Config(
        create_app(settings, hub),
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        # frames are a few hundred bytes: compressing them costs more CPU than it saves
        ws_per_message_deflate=False,
        log_level="info",
        access_log=False,  # request lines would carry seat tokens (?token=...)
        timeout_graceful_shutdown=GRACEFUL_S,
    )
    try:
        StoppingServer(config, hub).run()
    finally:
        hub.storage.close()


if __name__ == "__main__":
    main()
