"""The rules engine: pure and deterministic given a seed and the decisions.

Its hot modules may run compiled; ``engine.native`` decides before any of them is imported.
"""

from engine import native

native.install()
