"""Server logs: JSON lines (one object per line, with job id and node when known) when
asked or when stderr is not a terminal; plain lines in a terminal."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """Formats a record as JSON; ``extra={...}`` fields (job_id, node...) become keys."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class PlainFormatter(logging.Formatter):
    """'12:03:04 info  job started  job_id=ab12 kind=reading': for a person at a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        extra = " ".join(f"{k}={v}" for k, v in vars(record).items()
                         if k not in _STANDARD and not k.startswith("_"))
        line = (f"{time.strftime('%H:%M:%S', time.localtime(record.created))} "
                f"{record.levelname.lower():7s} {record.getMessage()}"
                + (f"  {extra}" if extra else ""))
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def wants_json_logs(asked: bool, stream: object = None) -> bool:
    """JSON lines when asked (--json) or when the log stream is not a terminal."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return asked or not (callable(isatty) and isatty())


def configure_logging(*, as_json: bool, level: int = logging.INFO) -> None:
    """Send papermind's and uvicorn's logs to stderr: JSON lines or plain lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if as_json else PlainFormatter())
    for name in ("papermind", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False
