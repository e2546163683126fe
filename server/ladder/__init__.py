"""The ranked ladder's arithmetic: Tenhou's dan and points, Tenhou's R, stable dan, Mahjong
Soul's rank points, and per-game stats from a game's record.

Pure and deterministic (stdlib and the engine's record types only): the server decides when a
finished ranked game is applied, stores the states and serves them. Sources: docs/ranking.md.
"""
