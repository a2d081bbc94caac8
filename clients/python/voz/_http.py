"""The transport both service clients share (urllib only): base URL, API key, Accept-Language, JSON/bytes,
retries and the automatic Idempotency-Key.

Retries: a connection failure, 502/503/504, a 429 whose Retry-After is short enough and a 409
``idempotency_key_in_use`` are retried (up to max_retries, waiting Retry-After or an exponential backoff). The
creating POSTs (convert, upload slot, render) carry one Idempotency-Key generated per call and repeated on every
retry, so a retried request whose first answer was lost is answered once, never run (or charged) twice."""
from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union, cast

from .errors import ConnectionFailedError, VozError, WaitTimeoutError, error_from_response

T = TypeVar("T")

QueryValue = Union[str, int, float, bool, None]


@dataclass
class Response:
    status: int
    headers: Dict[str, str]
    body: bytes
    url: str = ""

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None

    def text(self) -> str:
        return self.body.decode("utf-8")


@dataclass
class ClientOptions:
    api_key: Optional[str] = None
    base_url: Optional[str] = None
    language: Optional[str] = None
    max_retries: int = 2
    max_retry_wait_s: float = 30.0
    timeout_s: float = 120.0
    headers: Dict[str, str] = field(default_factory=dict)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def new_idempotency_key() -> str:
    return str(uuid.uuid4())


def multipart(fields: Sequence[Tuple[str, str]], files: Sequence[Tuple[str, str, bytes, str]]) -> Tuple[bytes, str]:
    """multipart/form-data: text fields first, then (name, filename, bytes, content type) files."""
    boundary = f"----voz{uuid.uuid4().hex}"
    parts: List[bytes] = []
    for name, value in fields:
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode("utf-8")
        )
    for name, filename, data, ctype in files:
        parts.append(
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                f"Content-Type: {ctype}\r\n\r\n"
            ).encode("utf-8")
            + data
            + b"\r\n"
        )
    parts.append(f"--{boundary}--\r\n".encode("utf-8"))
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


class Transport:
    def __init__(self, default_base_url: str, options: ClientOptions) -> None:
        self.options = options
        self.base_url = (options.base_url or default_base_url).rstrip("/")
        self._opener = urllib.request.build_opener()
        self._opener_no_redirect = urllib.request.build_opener(_NoRedirect())

    def url(self, path: str, query: Optional[Mapping[str, QueryValue]] = None) -> str:
        url = path if path.startswith(("http://", "https://")) else self.base_url + path
        q = {k: ("true" if v is True else "false" if v is False else str(v)) for k, v in (query or {}).items() if v is not None}
        return url + ("?" + urllib.parse.urlencode(q) if q else "")

    def send(
        self, method: str, url: str, headers: Dict[str, str], body: Optional[bytes], follow: bool
    ) -> Response:
        """One HTTP exchange (overridable in tests). Raises OSError/URLError when no answer arrives."""
        req = urllib.request.Request(url, data=body, method=method, headers=headers)
        opener = self._opener if follow else self._opener_no_redirect
        try:
            with opener.open(req, timeout=self.options.timeout_s) as res:
                return Response(res.status, {k.lower(): v for k, v in res.headers.items()}, res.read(), res.geturl())
        except urllib.error.HTTPError as err:
            with err:
                return Response(err.code, {k.lower(): v for k, v in err.headers.items()}, err.read(), url)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, QueryValue]] = None,
        json_body: Any = None,
        body: Optional[bytes] = None,
        content_type: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
        idempotent: bool = False,
        idempotency_key: Optional[str] = None,
        allow: Sequence[int] = (),
        auth: bool = True,
        follow: bool = True,
    ) -> Response:
        h: Dict[str, str] = {"accept": "application/json", "user-agent": "voz-client-python/0.1", **self.options.headers}
        h.update(headers or {})
        if self.options.api_key and auth:
            h["authorization"] = f"Bearer {self.options.api_key}"
        if self.options.language:
            h["accept-language"] = self.options.language
        if json_body is not None:
            body = json.dumps(json_body).encode("utf-8")
            content_type = "application/json"
        if content_type:
            h["content-type"] = content_type
        if idempotent or idempotency_key:
            h["idempotency-key"] = idempotency_key or new_idempotency_key()
        safe_to_resend = method != "POST" or "idempotency-key" in h
        url = self.url(path, query)
        attempt = 0
        while True:
            last = attempt >= self.options.max_retries
            try:
                res = self.send(method, url, h, body, follow)
            except OSError as err:  # URLError, ConnectionError, timeouts
                if not last and safe_to_resend:
                    time.sleep(self._backoff_s(attempt))
                    attempt += 1
                    continue
                raise ConnectionFailedError(f"{method} {url}: no answer ({err})") from err
            if 200 <= res.status < 300 or res.status in allow:
                return res
            error = error_from_response(res.status, res.body, res.headers)
            wait = self._retry_wait_s(error, attempt)
            if not last and wait is not None:
                time.sleep(wait)
                attempt += 1
                continue
            raise error

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        res = self.request(method, path, **kwargs)
        return None if res.status == 204 else res.json()

    def send_presigned(self, upload: Mapping[str, Any], filename: str, data: bytes, content_type: str) -> None:
        """A file to a presigned S3 POST (its fields first, unchanged; no API key goes there)."""
        body, ctype = multipart(list(upload["fields"].items()), [(upload["file_field"], filename, data, content_type)])
        self.request("POST", upload["url"], body=body, content_type=ctype, auth=False, headers={"accept": "*/*"})

    def poll(
        self,
        path: str,
        step: Callable[[Response, Any], Optional[T]],
        *,
        timeout_s: float = 600.0,
        allow: Sequence[int] = (),
    ) -> T:
        """GETs ``path`` until ``step`` answers a result (None: still waiting). Between answers it waits the API's
        Retry-After (1 s when absent); WaitTimeoutError at the deadline."""
        deadline = time.monotonic() + timeout_s
        while True:
            res = self.request("GET", path, allow=allow)
            body = res.json()
            done = step(res, body)
            if done is not None:
                return done
            left = deadline - time.monotonic()
            if left <= 0:
                status = body.get("status") if isinstance(body, dict) else None
                raise WaitTimeoutError(f"{path}: still {status}", code="wait_timeout", body=body)
            try:
                retry_after = float(res.headers.get("retry-after", "1"))
            except ValueError:
                retry_after = 1.0
            time.sleep(min(max(retry_after, 0.1), left))

    def _backoff_s(self, attempt: int) -> float:
        return float(min(8.0, 0.25 * 2**attempt) * (0.5 + random.random() / 2))

    def _retry_wait_s(self, err: VozError, attempt: int) -> Optional[float]:
        retryable = err.status in (429, 502, 503, 504) or (err.status == 409 and err.code == "idempotency_key_in_use")
        if not retryable:
            return None
        wait = err.retry_after_s if err.retry_after_s is not None else self._backoff_s(attempt)
        return wait if wait <= self.options.max_retry_wait_s else None


class Webhooks:
    """The account's webhook endpoint (signed ``Voz-Signature`` / ``Docs-Signature``)."""

    def __init__(self, http: Transport) -> None:
        self._http = http

    def get(self) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._http.json("GET", "/v1/webhook"))

    def put(self, url: str, **extra: Any) -> Dict[str, Any]:
        """Registers (201, ``secret`` shown once) or changes (200) the endpoint."""
        return cast(Dict[str, Any], self._http.json("PUT", "/v1/webhook", json_body={"url": url, **extra}))

    def delete(self) -> None:
        self._http.request("DELETE", "/v1/webhook")

    def rotate_secret(self) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._http.json("POST", "/v1/webhook/rotate-secret"))


class ServiceClient:
    """What both service clients share: the options, the transport and the webhook endpoint."""

    DEFAULT_URL = ""

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        language: Optional[str] = None,
        max_retries: int = 2,
        timeout_s: float = 120.0,
        transport: Optional[Transport] = None,
    ) -> None:
        """``language``: of the APIs' error messages (Accept-Language, e.g. "es"); the codes stay the same."""
        opts = ClientOptions(
            api_key=api_key, base_url=base_url, language=language, max_retries=max_retries, timeout_s=timeout_s
        )
        self.http = transport or Transport(self.DEFAULT_URL, opts)
        self.webhooks = Webhooks(self.http)
        self._attach()

    def _attach(self) -> None:
        """A service's own resources (lexicons, feeds…), attached to ``self.http``."""
