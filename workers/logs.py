"""What a worker prints. By default one line per event worth reading: a worker listening, a job
(a round's slice of matches, a ladder match, an SPRT batch) started and finished, a failure, a
stop. RQ's own lines come with `-v`, and its registry maintenance, every 2 s by every worker,
only with `-vv` (debug), where it was most of the log."""

from __future__ import annotations

import logging

from rq.job import Job

events = logging.getLogger("arena.workers")

FORMAT = "%(asctime)s %(processName)s %(message)s"
# RQ's messages demoted, by their format string: its maintenance to debug, and its traceback of
# a failed job to info (by default the failure is our one line).
_RQ_MAINTENANCE = frozenset(
    {"Worker %s: cleaning registries for queue: %s", "Worker %s: cleaning group registries"}
)
_RQ_JOB_TRACEBACK = "Worker %s: job %s: exception raised while executing (%s)\n%s"


class _DemoteRqChatter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in _RQ_MAINTENANCE:
            _set_level(record, logging.DEBUG)
        elif record.msg == _RQ_JOB_TRACEBACK:
            _set_level(record, logging.INFO)
        return logging.getLogger(record.name).isEnabledFor(record.levelno)


def _set_level(record: logging.LogRecord, level: int) -> None:
    record.levelno, record.levelname = level, logging.getLevelName(level)


def configure(verbosity: int = 0) -> None:
    """The worker's logging: 0 our events only, 1 also RQ's info lines, 2 everything (debug)."""
    logging.basicConfig(level=logging.INFO, format=FORMAT)
    rq_level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(verbosity, 2)]
    rq_logger = logging.getLogger("rq.worker")
    rq_logger.setLevel(rq_level)
    if not any(isinstance(f, _DemoteRqChatter) for f in rq_logger.filters):
        rq_logger.addFilter(_DemoteRqChatter())
    if verbosity >= 2:
        logging.getLogger().setLevel(logging.DEBUG)
        events.setLevel(logging.DEBUG)


def job_label(job: Job) -> str:
    """How a log line names a job: its description (what it plays), else its id."""
    return str(job.description or job.id)


def failure_text(error: BaseException | None) -> str:
    """An exception in one line: its type and the first line of its message."""
    if error is None:
        return "unknown error"
    message = str(error).strip().splitlines()
    return f"{type(error).__name__}: {message[0]}" if message else type(error).__name__
