"""The server's log lines: plain text by default, or one JSON object a line
(``RIICHI_LOG_FORMAT=json``) for a log collector to index without parsing text."""

from __future__ import annotations

import json
import logging

FORMATS = ("text", "json")


class JsonLines(logging.Formatter):
    """time, level, logger, message and, for an exception, its traceback: one object a line."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(kind: str) -> None:
    """Send the root logger's lines to stderr in ``kind`` ("text" or "json")."""
    handler = logging.StreamHandler()
    if kind == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
