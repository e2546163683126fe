"""``python -m server [--host H] [--port P] [--data-dir D]``: the server with embedded defaults.

Settings out of range stop it before it listens: the message names them, the exit code is 2.
"""

from __future__ import annotations

import logging
import resource
import sys

from server.settings import SettingsError, from_args

#: frames above this close the socket at the protocol level; smaller ones over
#: ``max_frame`` get an error message (docs/protocol.md)
WS_MAX_SIZE = 65536


def raise_file_limit() -> None:
    """Use every file descriptor the hard limit allows: connections are file descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main() -> None:
    try:
        settings = from_args()
        settings.validate()
    except SettingsError as exc:
        print(f"python -m server: {exc}", file=sys.stderr)
        sys.exit(2)
    # imported after the check: a typo is reported at once, not after the engine loads
    import uvicorn

    from server.app import create_app
    from server.security import uvicorn_options

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    raise_file_limit()
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level="info",
        **uvicorn_options(settings),
    )


if __name__ == "__main__":
    main()
