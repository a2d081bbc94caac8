"""voz: typed clients of the Narration and Documents APIs (standard library only, Python ≥ 3.9) and ``python -m voz``."""
from ._http import ClientOptions, Response, Transport, new_idempotency_key
from .documents import FORMATS, DocumentsClient, RenderedDocument
from .errors import (
    AuthenticationError,
    ConflictError,
    ConnectionFailedError,
    GoneError,
    InvalidRequestError,
    JobFailedError,
    NotFoundError,
    PayloadTooLargeError,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ServiceUnavailableError,
    VozError,
    WaitTimeoutError,
)
from .narration import DIRECT_PDF_MAX_BYTES, NarrationClient, audio_id_of
from .webhooks import (
    DOCUMENTS_SIGNATURE_HEADER,
    NARRATION_SIGNATURE_HEADER,
    WebhookSignatureError,
    construct_event,
    verify_signature,
)

__all__ = [
    "AuthenticationError", "ClientOptions", "ConflictError", "ConnectionFailedError", "DIRECT_PDF_MAX_BYTES",
    "DOCUMENTS_SIGNATURE_HEADER", "DocumentsClient", "FORMATS", "GoneError", "InvalidRequestError", "JobFailedError",
    "NARRATION_SIGNATURE_HEADER", "NarrationClient", "NotFoundError", "PayloadTooLargeError", "PaymentRequiredError",
    "PermissionDeniedError", "RateLimitError", "RenderedDocument", "Response", "ServerError",
    "ServiceUnavailableError", "Transport", "VozError", "WaitTimeoutError", "WebhookSignatureError", "audio_id_of",
    "construct_event", "new_idempotency_key", "verify_signature",
]
