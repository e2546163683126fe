"""Accounts' core: name rules, password hashing, the login budget and session tokens.

Pure but for the hashing (argon2id, CPU-bound: the server runs it off the event loop) and the
token source (``secrets``); the clock is always passed in. Storage and routes live elsewhere.
"""
