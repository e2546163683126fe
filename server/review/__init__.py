"""Game reviews on the server: a finished game's seat reviewed by a reviewer of engine.review
in a pool of worker processes, its progress and its report kept with the record.

``jobs.Reviews`` is the service the routes call (claims, the pool, progress);
``worker`` is what runs in the worker processes. The rows are server/storage/reviews.py's.
"""
