"""The engine's version: bump it when any rule, event or inquiry order changes.

A server stores it with every game; a game stored under another version is resumed only if
the current engine reproduces it exactly (its replay hash, server/session/resume.py), else it
is marked aborted. Pure constant: engine/ stays free of I/O.
"""

ENGINE_VERSION = "2"
