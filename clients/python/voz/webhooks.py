"""Webhook signatures of both services (Stripe's scheme; the services' lambdas/shared/webhooks/signature.ts):
``Voz-Signature`` (narration) / ``Docs-Signature`` (documents): ``t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>``
keyed with the endpoint's whole secret (``whsec_…``); during a rotation a second v1 (previous secret) is appended."""
from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any, Dict, Optional, Union

NARRATION_SIGNATURE_HEADER = "Voz-Signature"
DOCUMENTS_SIGNATURE_HEADER = "Docs-Signature"
DEFAULT_TOLERANCE_S = 300


class WebhookSignatureError(Exception):
    pass


def verify_signature(
    secret: str,
    header: Optional[str],
    raw_body: Union[bytes, str],
    tolerance_s: int = DEFAULT_TOLERANCE_S,
    now_s: Optional[int] = None,
) -> bool:
    """True when ``header`` signs ``raw_body`` (the exact bytes received) under ``secret`` within the tolerance."""
    if not secret or not header:
        return False
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    timestamp: Optional[int] = None
    candidates = []
    for part in header.split(","):
        key, sep, value = part.partition("=")
        if not sep:
            continue
        key, value = key.strip(), value.strip()
        if key == "t" and value.isdigit() and len(value) <= 12:
            timestamp = int(value)
        elif key == "v1" and len(value) == 64 and all(c in "0123456789abcdefABCDEF" for c in value):
            candidates.append(value.lower())
    if timestamp is None or not candidates:
        return False
    now = int(time.time()) if now_s is None else now_s
    if abs(now - timestamp) > tolerance_s:
        return False
    expected = hmac.new(secret.encode("utf-8"), f"{timestamp}.".encode("utf-8") + body, hashlib.sha256).hexdigest()
    ok = False
    for c in candidates:
        if hmac.compare_digest(expected, c):
            ok = True
    return ok


def construct_event(
    secret: str, header: Optional[str], raw_body: Union[bytes, str], tolerance_s: int = DEFAULT_TOLERANCE_S
) -> Dict[str, Any]:
    """Verifies and parses an event; raises WebhookSignatureError when it does not verify."""
    if not verify_signature(secret, header, raw_body, tolerance_s):
        raise WebhookSignatureError("webhook signature does not verify")
    event: Dict[str, Any] = json.loads(raw_body)
    return event
