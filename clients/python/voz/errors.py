"""Typed errors: every non-2xx answer becomes a VozError subclass carrying the HTTP status, the contract's
``detail`` (a message, or FastAPI-style items {loc, msg, type}: narration 422, documents 400), a stable
machine-readable ``code`` (the API's X-Error-Code: the same whatever the language) and the request id to quote to
support. With ``language="es"`` the APIs answer the message (and each item's ``msg``) in Spanish."""
from __future__ import annotations

import json
import time
from email.utils import parsedate_to_datetime
from typing import Any, Dict, List, Mapping, Optional, Type, Union

ErrorItem = Dict[str, Any]

_CODE_BY_STATUS = {
    400: "invalid_request",
    401: "unauthenticated",
    402: "payment_required",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    410: "gone",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
}


class VozError(Exception):
    """Base of every error the clients raise. ``code``: the API's X-Error-Code (e.g. ``lexicon_not_found``), else the
    body's ``code``, else the first item's ``type`` (invalid input), else one per status."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        code: Optional[str] = None,
        detail: Union[str, List[ErrorItem], None] = None,
        request_id: Optional[str] = None,
        retry_after_s: Optional[float] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.detail = detail
        self.items: List[ErrorItem] = detail if isinstance(detail, list) else []
        first_type = self.items[0].get("type") if self.items else None
        by_status = _CODE_BY_STATUS.get(status, f"http_{status}")
        self.code: str = code or (first_type if isinstance(first_type, str) else None) or by_status
        self.request_id = request_id
        self.retry_after_s = retry_after_s
        self.body = body


class InvalidRequestError(VozError): ...
class AuthenticationError(VozError): ...
class PaymentRequiredError(VozError): ...
class PermissionDeniedError(VozError): ...
class NotFoundError(VozError): ...
class ConflictError(VozError): ...
class GoneError(VozError): ...
class PayloadTooLargeError(VozError): ...
class RateLimitError(VozError): ...
class ServerError(VozError): ...
class ServiceUnavailableError(VozError): ...
class ConnectionFailedError(VozError):
    """No answer: the connection failed or timed out."""
class JobFailedError(VozError):
    """A narration or render job ended failed."""
class WaitTimeoutError(VozError):
    """A wait for a job gave up (the job may still finish)."""


_CLASS_BY_STATUS: Dict[int, Type[VozError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    410: GoneError,
    413: PayloadTooLargeError,
    422: InvalidRequestError,
    429: RateLimitError,
    500: ServerError,
    503: ServiceUnavailableError,
}


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """Retry-After in seconds (delta-seconds or an HTTP date)."""
    if not value:
        return None
    v = value.strip()
    try:
        return float(v)
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(v).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def error_from_response(status: int, raw: bytes, headers: Mapping[str, str]) -> VozError:
    body: Any
    try:
        body = json.loads(raw.decode("utf-8")) if raw else None
    except (ValueError, UnicodeDecodeError):
        body = raw.decode("utf-8", "replace")
    b: Dict[str, Any] = body if isinstance(body, dict) else {}
    raw_detail = b.get("detail")
    detail: Union[str, List[ErrorItem], None] = raw_detail if isinstance(raw_detail, (str, list)) else None
    if isinstance(detail, str):
        message = detail
    elif detail:
        message = "; ".join(
            f"{'.'.join(str(p) for p in i.get('loc', []))}: {i.get('msg', '')}" for i in detail if isinstance(i, dict)
        )
    else:
        message = f"HTTP {status}"
    cls = _CLASS_BY_STATUS.get(status) or (ServerError if status >= 500 else VozError)
    code = headers.get("x-error-code") or (
        b.get("code") if isinstance(b.get("code"), str) else b.get("type") if isinstance(b.get("type"), str) else None
    )
    return cls(
        message,
        status=status,
        code=code,
        detail=detail,
        request_id=headers.get("x-request-id"),
        retry_after_s=parse_retry_after(headers.get("retry-after")),
        body=body,
    )
