"""Client of the Narration API: narrate text, an article URL or a PDF (the presigned upload path for PDFs too large
for one request), wait for long narrations (202 → GET /audio/{id} polled at its Retry-After), download, timings
(JSON or WebVTT), pronunciation lexicons, the completion webhook endpoint and publisher feeds (RSS, Atom or a
sitemap narrated as it publishes, with the podcast feed of its audio)."""
from __future__ import annotations

import re
import urllib.parse
from typing import Any, Callable, Dict, List, Optional, cast

from . import types_narration as T
from ._http import Response, ServiceClient, Transport, multipart
from .errors import ConflictError, JobFailedError, PayloadTooLargeError

DEFAULT_NARRATION_URL = "http://127.0.0.1:3000"
# Above this, PDFs go through the upload path: a synchronous Lambda invoke carries 6 MB with the body base64-encoded
# (~4.5 MB of file, the API's 413 limit), less a margin for the multipart envelope.
DIRECT_PDF_MAX_BYTES = 4_600_000

ProgressFn = Callable[[str, float], None]


def audio_id_of(id_or_url: str) -> str:
    """The audio id in an id, ``/audio/<id>.mp3`` or a full audio URL."""
    m = re.search(r"/audio/([^/?#]+)", id_or_url)
    return re.sub(r"\.(mp3|wav|ogg)$", "", m.group(1) if m else id_or_url)


def _q(s: str) -> str:
    return urllib.parse.quote(s, safe="")


class Lexicons:
    def __init__(self, http: Transport) -> None:
        self._http = http

    def list(self) -> T.LexiconList_200:
        return cast(T.LexiconList_200, self._http.json("GET", "/v1/lexicons"))

    def get(self, name: str) -> T.LexiconGet_200:
        return cast(T.LexiconGet_200, self._http.json("GET", f"/v1/lexicons/{_q(name)}"))

    def put(self, name: str, lexicon: T.LexiconPut_Request) -> T.LexiconPut_200:
        return cast(T.LexiconPut_200, self._http.json("PUT", f"/v1/lexicons/{_q(name)}", json_body=lexicon))

    def delete(self, name: str) -> None:
        self._http.request("DELETE", f"/v1/lexicons/{_q(name)}")


class Feeds:
    """Publisher feeds (paid keys): an RSS, Atom or sitemap address polled every 15 minutes; each new or changed
    article is narrated, and the feed's narrations are a podcast (the feed's ``podcast_url``: absolute, public)."""

    def __init__(self, http: Transport) -> None:
        self._http = http

    def create(self, url: str, **extra: Any) -> T.FeedCreate_201:
        """POST /v1/feeds: registers the feed and polls it at once. ``extra``: voice, fmt, lexicons, mode, podcast."""
        return cast(T.FeedCreate_201, self._http.json("POST", "/v1/feeds", json_body={"url": url, **extra}))

    def list(self) -> T.FeedList_200:
        return cast(T.FeedList_200, self._http.json("GET", "/v1/feeds"))

    def get(self, feed_id: str) -> T.FeedGet_200:
        """The feed, its last poll and the articles it lists now (status, audio_id, narrations)."""
        return cast(T.FeedGet_200, self._http.json("GET", f"/v1/feeds/{_q(feed_id)}"))

    def set_status(self, feed_id: str, status: str) -> T.FeedUpdate_200:
        """``paused`` stops polling (audio and podcast stay); ``active`` resumes."""
        return cast(T.FeedUpdate_200, self._http.json("PATCH", f"/v1/feeds/{_q(feed_id)}", json_body={"status": status}))

    def poll(self, feed_id: str) -> T.FeedPoll_202:
        """POST /v1/feeds/{id}/poll: a poll now (e.g. right after publishing); answered before it runs."""
        return cast(T.FeedPoll_202, self._http.json("POST", f"/v1/feeds/{_q(feed_id)}/poll"))

    def delete(self, feed_id: str, *, audio: str = "keep") -> T.FeedDelete_200:
        """Deletes the feed; ``audio="delete"`` also deletes the narrations it made (default: kept to retention)."""
        return cast(T.FeedDelete_200, self._http.json("DELETE", f"/v1/feeds/{_q(feed_id)}", query={"audio": audio}))

    def podcast(self, feed_id: str) -> str:
        """The podcast RSS itself (RSS 2.0, iTunes and Podcasting 2.0)."""
        return self._http.request(
            "GET", f"/feeds/{_q(feed_id)}/podcast.xml", headers={"accept": "application/rss+xml"}
        ).text()


class NarrationClient(ServiceClient):
    """``NarrationClient(api_key, base_url, *, language, max_retries, timeout_s, transport)``."""

    DEFAULT_URL = DEFAULT_NARRATION_URL
    lexicons: Lexicons
    feeds: Feeds

    def _attach(self) -> None:
        self.lexicons = Lexicons(self.http)
        self.feeds = Feeds(self.http)

    def voices(self) -> T.Voices_200:
        return cast(T.Voices_200, self.http.json("GET", "/voices"))

    def narrate_text(
        self,
        text: str,
        *,
        voice: Optional[str] = None,
        fmt: Optional[str] = None,
        wait: bool = True,
        on_progress: Optional[ProgressFn] = None,
        timeout_s: float = 600.0,
        idempotency_key: Optional[str] = None,
        **extra: Any,
    ) -> Dict[str, Any]:
        """POST /convert/text; a long text (202) is waited for unless ``wait=False``. ``extra``: text_type,
        lexicons, retention_days."""
        body = {"text": text, **_opt(voice=voice, fmt=fmt), **extra}
        return self._convert("/convert/text", body, wait, on_progress, timeout_s, idempotency_key)

    def narrate_url(
        self,
        url: str,
        *,
        voice: Optional[str] = None,
        fmt: Optional[str] = None,
        wait: bool = True,
        on_progress: Optional[ProgressFn] = None,
        timeout_s: float = 600.0,
        **extra: Any,
    ) -> Dict[str, Any]:
        """POST /convert/url: the article at ``url`` (its ``title`` in the result)."""
        body = {"url": url, **_opt(voice=voice, fmt=fmt), **extra}
        return self._convert("/convert/url", body, wait, on_progress, timeout_s, None)

    def preview(self, text: str, **extra: Any) -> Dict[str, Any]:
        """?dry_run=true: what would be read, chapters and estimates; nothing is charged."""
        return cast(
            Dict[str, Any], self.http.json("POST", "/convert/text", json_body={"text": text, **extra}, query={"dry_run": True})
        )

    def narrate_pdf(
        self,
        pdf: bytes,
        *,
        voice: Optional[str] = None,
        fmt: Optional[str] = None,
        filename: str = "documento.pdf",
        via: str = "auto",
        wait: bool = True,
        on_progress: Optional[ProgressFn] = None,
        on_upload: Optional[Callable[[str, int], None]] = None,
        timeout_s: float = 600.0,
    ) -> Dict[str, Any]:
        """POST /convert/pdf (≤ 20 MB): directly, or through the upload path above DIRECT_PDF_MAX_BYTES (``via``:
        auto, direct, upload; auto also falls back to it on a 413)."""
        if via == "upload" or (via == "auto" and len(pdf) > DIRECT_PDF_MAX_BYTES):
            return self.narrate_pdf_upload(
                pdf, voice=voice, fmt=fmt, wait=wait, on_progress=on_progress, on_upload=on_upload, timeout_s=timeout_s
            )
        fields = [(k, v) for k, v in _opt(voice=voice, fmt=fmt).items()]
        data, ctype = multipart(fields, [("file", filename, pdf, "application/pdf")])
        try:
            res = self.http.request("POST", "/convert/pdf", body=data, content_type=ctype, idempotent=True)
        except PayloadTooLargeError:
            if via != "auto":
                raise
            return self.narrate_pdf_upload(
                pdf, voice=voice, fmt=fmt, wait=wait, on_progress=on_progress, on_upload=on_upload, timeout_s=timeout_s
            )
        return self._settle(cast(Dict[str, Any], res.json()), res.status, wait, on_progress, timeout_s)

    def create_pdf_upload(self, idempotency_key: Optional[str] = None) -> T.ConvertPdfUpload_201:
        """POST /convert/pdf/upload: an upload slot (a presigned S3 POST) for one PDF."""
        return cast(
            T.ConvertPdfUpload_201,
            self.http.json("POST", "/convert/pdf/upload", idempotent=True, idempotency_key=idempotency_key),
        )

    def send_to_slot(self, slot: T.ConvertPdfUpload_201, pdf: bytes) -> None:
        """The file to the slot's presigned POST (straight to S3; no API key goes there)."""
        self.http.send_presigned(slot["upload"], "documento.pdf", pdf, "application/pdf")

    def narrate_pdf_upload(
        self,
        pdf: bytes,
        *,
        voice: Optional[str] = None,
        fmt: Optional[str] = None,
        wait: bool = True,
        on_progress: Optional[ProgressFn] = None,
        on_upload: Optional[Callable[[str, int], None]] = None,
        timeout_s: float = 600.0,
    ) -> Dict[str, Any]:
        """The upload path: slot → file to S3 → POST /convert/pdf {upload_id}."""
        if on_upload:
            on_upload("slot", len(pdf))
        slot = self.create_pdf_upload()
        if on_upload:
            on_upload("sending", len(pdf))
        self.send_to_slot(slot, pdf)
        if on_upload:
            on_upload("converting", len(pdf))
        body = {"upload_id": slot["upload_id"], **_opt(voice=voice, fmt=fmt)}
        return self._convert("/convert/pdf", body, wait, on_progress, timeout_s, None)

    def wait_for_audio(
        self, id_or_url: str, *, timeout_s: float = 600.0, on_progress: Optional[ProgressFn] = None
    ) -> T.GetAudio_200:
        """GET /audio/{id} as JSON until the audio exists (202 → wait Retry-After); 409 → JobFailedError."""
        audio_id = audio_id_of(id_or_url)

        def step(res: Response, body: Any) -> Optional[T.GetAudio_200]:
            if res.status == 200:
                return cast(T.GetAudio_200, body)
            if on_progress:
                on_progress(str(body.get("status")), float(body.get("progress", 0)))
            return None

        try:
            return self.http.poll(f"/audio/{_q(audio_id)}", step, timeout_s=timeout_s, allow=(202,))
        except ConflictError as err:
            raise JobFailedError(
                err.message, status=409, code=err.code, detail=err.detail, request_id=err.request_id, body=err.body
            ) from err

    def download(self, id_or_url: str, *, timeout_s: float = 600.0, on_progress: Optional[ProgressFn] = None) -> bytes:
        """The audio file's bytes (waits for it first)."""
        done = self.wait_for_audio(id_or_url, timeout_s=timeout_s, on_progress=on_progress)
        return self.http.request("GET", done["url"], auth=False, headers={"accept": "*/*"}).body

    def timings(self, id_or_url: str, *, format: str = "json") -> Any:
        """GET /audio/{id}/timings: JSON (dict) or WebVTT (str); waits for the audio first."""
        audio_id = audio_id_of(id_or_url)
        self.wait_for_audio(audio_id)
        res = self.http.request(
            "GET",
            f"/audio/{_q(audio_id)}/timings",
            query={"format": format},
            headers={"accept": "text/vtt" if format == "vtt" else "application/json"},
        )
        return res.text() if format == "vtt" else res.json()

    def delete_audio(self, id_or_url: str) -> None:
        self.http.request("DELETE", f"/audio/{_q(audio_id_of(id_or_url))}")

    def _convert(
        self,
        path: str,
        body: Dict[str, Any],
        wait: bool,
        on_progress: Optional[ProgressFn],
        timeout_s: float,
        idempotency_key: Optional[str],
    ) -> Dict[str, Any]:
        res = self.http.request("POST", path, json_body=body, idempotent=True, idempotency_key=idempotency_key)
        return self._settle(cast(Dict[str, Any], res.json()), res.status, wait, on_progress, timeout_s)

    def _settle(
        self, body: Dict[str, Any], status: int, wait: bool, on_progress: Optional[ProgressFn], timeout_s: float
    ) -> Dict[str, Any]:
        if status != 202 or not wait:
            return body
        done = self.wait_for_audio(str(body["audio_id"]), timeout_s=timeout_s, on_progress=on_progress)
        return {**body, **done}


def _opt(**kwargs: Optional[str]) -> Dict[str, str]:
    return {k: v for k, v in kwargs.items() if v is not None}


__all__: List[str] = ["NarrationClient", "Feeds", "Lexicons", "audio_id_of", "DIRECT_PDF_MAX_BYTES", "DEFAULT_NARRATION_URL"]
