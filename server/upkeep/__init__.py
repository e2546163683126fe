"""The operator's upkeep of the records: ``python -m server backup|restore|doctor``.

backup.py copies the SQLite records while the server plays (the online backup API, from one
read snapshot) and restores a copy into a data dir no server holds; doctor.py reads every
record, replays every game and recomputes every rating. docs/operating.md says when to run
which.
"""
