"""The game server. Its hot modules may run compiled; ``server.native`` decides before any of
them is imported."""

from server import native

native.SERVER.install()
