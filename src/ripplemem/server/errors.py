"""Errors as JSON: each library error becomes a status and ``{"error": {type, message}}``.

No response carries a traceback; an unexpected exception is logged here and answered with a
500 that points at the log.
"""

from __future__ import annotations

import logging

from ripplemem.errors import (
    EmbedderMismatchError,
    InvalidModelOutputError,
    OverBudgetError,
    ProviderUnavailableError,
    RippleMemError,
    ShuttingDownError,
    UnknownNamespaceError,
    UnknownUnitError,
    UsageError,
    said_on,
)
from ripplemem.server.access import (
    AuthenticationError,
    NamespaceRequiredError,
    PermissionDeniedError,
)
from ripplemem.server.jobs import TooManyJobsError
from ripplemem.server.schemas import ErrorBody, ErrorModel

__all__ = ["BodyTooLargeError", "NotFoundError", "ShuttingDownError", "error_body", "status_of"]

log = logging.getLogger("ripplemem.server")


class BodyTooLargeError(UsageError):
    """The request body is over the server's limit (HTTP 413)."""


class NotFoundError(UsageError):
    """No such job or route (HTTP 404)."""


#: most specific first
_STATUS: tuple[tuple[type[Exception], int], ...] = (
    (AuthenticationError, 401),
    (PermissionDeniedError, 403),
    (NotFoundError, 404),
    (UnknownUnitError, 404),
    (UnknownNamespaceError, 404),
    (BodyTooLargeError, 413),
    (NamespaceRequiredError, 422),
    (TooManyJobsError, 503),
    (ShuttingDownError, 503),
    (OverBudgetError, 503),
    (UsageError, 422),
    (EmbedderMismatchError, 500),
    (ProviderUnavailableError, 502),
    (InvalidModelOutputError, 502),
)


def status_of(error: Exception) -> int:
    for kind, status in _STATUS:
        if isinstance(error, kind):
            return status
    return 500


def error_body(error: Exception) -> ErrorModel:
    """The JSON body for ``error``; unexpected ones are logged with their traceback."""
    if isinstance(error, RippleMemError):
        message = said_on(str(error), "rest")  # a remedy in the API's words
        return ErrorModel(error=ErrorBody(type=type(error).__name__, message=message))
    log.error("unexpected error while serving a request", exc_info=error)
    return ErrorModel(
        error=ErrorBody(
            type="InternalError", message="the server failed on this request; its log has the details"
        )
    )
