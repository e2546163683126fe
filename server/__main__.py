"""``python -m server [--host H] [--port P] [--data-dir D]``: the server with embedded defaults."""

from __future__ import annotations

import logging

import uvicorn

from server.app import create_app
from server.settings import from_args

#: frames above this close the socket at the protocol level; smaller ones over
#: ``max_frame`` get an error message (docs/protocol.md)
WS_MAX_SIZE = 65536


def main() -> None:
    settings = from_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_SIZE,
        # frames are a few hundred bytes: compressing them costs more CPU than it saves
        ws_per_message_deflate=False,
        log_level="info",
        access_log=False,  # request lines would carry seat tokens (?token=...)
    )


if __name__ == "__main__":
    main()
