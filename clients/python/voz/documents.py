"""Client of the Documents API: render any template or your own HTML to any of the ten formats (also when the API
answers 303 to a download link), async jobs (Scale: 202 → GET /v1/jobs/{id} polled at its Retry-After →
download), merges into one PDF, batches of CFDI (a zip through the presigned upload, or a list of XML → one zip of
PDFs and summaries), templates, pricing and the webhook endpoint."""
from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, cast

from . import types_documents as T
from ._http import Response, ServiceClient
from .errors import JobFailedError

DEFAULT_DOCUMENTS_URL = "http://127.0.0.1:3001"
FORMATS = ("pdf", "xlsx", "csv", "html", "json", "md", "txt", "png", "docx", "zip")


@dataclass
class RenderedDocument:
    content: bytes
    content_type: str
    filename: str
    warnings: List[str] = field(default_factory=list)


def _filename(cd: str, fallback: str) -> str:
    star = re.search(r"filename\*=UTF-8''([^;]+)", cd, re.I)
    if star:
        return urllib.parse.unquote(star.group(1))
    plain = re.search(r'filename="?([^";]+)"?', cd, re.I)
    return plain.group(1) if plain else fallback


def _q(s: str) -> str:
    return urllib.parse.quote(s, safe="")


class DocumentsClient(ServiceClient):
    """``DocumentsClient(api_key, base_url, *, language, max_retries, timeout_s, transport)``."""

    DEFAULT_URL = DEFAULT_DOCUMENTS_URL

    def render(
        self,
        request: T.Render_Request,
        *,
        idempotency_key: Optional[str] = None,
        on_progress: Optional[Callable[[Dict[str, Any]], None]] = None,
        timeout_s: float = 600.0,
    ) -> RenderedDocument:
        """POST /v1/render: the document. With options.async (Scale) the job is awaited and its document
        downloaded; render_async() gives the job instead."""
        res = self.http.request(
            "POST", "/v1/render", json_body=request, idempotent=True, idempotency_key=idempotency_key, headers={"accept": "*/*"}
        )
        if res.status == 202:
            job = self.wait_for_job(str(res.json()["id"]), on_progress=on_progress, timeout_s=timeout_s)
            return self.download_job(job)
        fallback = "documentos.pdf" if request.get("documents") else f"{request.get('template') or 'documento'}.{request['format']}"
        avisos = res.headers.get("x-cfdi-avisos", "")
        return RenderedDocument(
            content=res.body,
            content_type=res.headers.get("content-type", "application/octet-stream"),
            filename=_filename(res.headers.get("content-disposition", ""), fallback),
            warnings=[w.strip() for w in avisos.split(";") if w.strip()],
        )

    def merge(self, documents: List[Dict[str, Any]], options: Optional[Dict[str, Any]] = None) -> RenderedDocument:
        """Several documents (1–20 parts) in one PDF, one bookmark per part."""
        req: Dict[str, Any] = {"format": "pdf", "documents": documents}
        if options:
            req["options"] = options
        return self.render(cast(T.Render_Request, req))

    def render_async(self, request: T.Render_Request, *, idempotency_key: Optional[str] = None) -> T.Render_202:
        """POST /v1/render with options.async: the accepted job (202), not waited for."""
        req = dict(request)
        req["options"] = {**cast(Dict[str, Any], request.get("options", {})), "async": True}
        return cast(
            T.Render_202,
            self.http.json("POST", "/v1/render", json_body=req, idempotent=True, idempotency_key=idempotency_key),
        )

    def job(self, job_id: str) -> T.GetJob_200:
        return cast(T.GetJob_200, self.http.json("GET", f"/v1/jobs/{_q(job_id)}"))

    def wait_for_job(
        self, job_id: str, *, timeout_s: float = 600.0, on_progress: Optional[Callable[[Dict[str, Any]], None]] = None
    ) -> T.GetJob_200:
        """Polls the job at its Retry-After until done, or raises JobFailedError (with its problems)."""

        def failure(job: Dict[str, Any]) -> Tuple[str, Any]:
            problems = job.get("problems")
            return (str(problems[0]["type"]) if problems else "job_failed", problems or job.get("reason"))

        return cast(T.GetJob_200, self._until_done(f"/v1/jobs/{_q(job_id)}", failure, on_progress, timeout_s))

    def download_job(self, job: T.GetJob_200) -> RenderedDocument:
        """The document of a finished job (its presigned download_url; no API key goes there)."""
        job_d = cast(Dict[str, Any], job)
        return self._download(job_d, job.get("content_type"), job.get("filename") or f"documento.{job['format']}")

    def create_batch_upload(self) -> T.BatchUpload_201:
        """POST /v1/batches/upload: a presigned upload slot for one zip of CFDI (≤ 100 MiB, ≤ 5,000 files)."""
        return cast(T.BatchUpload_201, self.http.json("POST", "/v1/batches/upload"))

    def send_batch_zip(self, slot: T.BatchUpload_201, zip_bytes: bytes) -> None:
        """The zip to the slot's presigned POST (straight to S3; no API key goes there)."""
        self.http.send_presigned(slot["upload"], "cfdi.zip", zip_bytes, "application/zip")

    def start_batch(self, request: T.StartBatch_Request, *, idempotency_key: Optional[str] = None) -> T.StartBatch_202:
        """POST /v1/batches ({"upload_id"} or {"xml": [...]}): the batch, queued (202). A retry answers the same batch."""
        return cast(
            T.StartBatch_202,
            self.http.json("POST", "/v1/batches", json_body=request, idempotent=True, idempotency_key=idempotency_key),
        )

    def batch(self, batch_id: str) -> T.GetBatch_200:
        """GET /v1/batches/{id}: progress (done, failed, refused of total, eta_s) and, when done, the zip's link."""
        return cast(T.GetBatch_200, self.http.json("GET", f"/v1/batches/{_q(batch_id)}"))

    def wait_for_batch(
        self, batch_id: str, *, timeout_s: float = 600.0, on_progress: Optional[Callable[[Dict[str, Any]], None]] = None
    ) -> T.GetBatch_200:
        """Polls the batch at its Retry-After until done, or raises JobFailedError (with the reason)."""

        def failure(batch: Dict[str, Any]) -> Tuple[str, Any]:
            return ("batch_failed", batch.get("reason"))

        return cast(T.GetBatch_200, self._until_done(f"/v1/batches/{_q(batch_id)}", failure, on_progress, timeout_s))

    def download_batch(self, batch: T.GetBatch_200) -> RenderedDocument:
        """The zip of a finished batch: a PDF and the XML per CFDI, resumen.xlsx and resumen.csv."""
        return self._download(cast(Dict[str, Any], batch), "application/zip", batch.get("filename") or f"{batch['id']}.zip")

    def print_batch(
        self,
        *,
        zip_bytes: Optional[bytes] = None,
        xml: Optional[Sequence[str]] = None,
        idempotency_key: Optional[str] = None,
        on_progress: Optional[Callable[[Dict[str, Any]], None]] = None,
        on_upload: Optional[Callable[[str], None]] = None,
        timeout_s: float = 600.0,
    ) -> Tuple[T.GetBatch_200, RenderedDocument]:
        """A whole batch: ``zip_bytes`` through the upload path, or ``xml`` in the request → start → wait → the result
        zip. ``on_upload`` tells the stage on the upload path (slot, sending)."""
        if (zip_bytes is None) == (xml is None):
            raise ValueError("print_batch: zip_bytes or xml, one of them")
        request: T.StartBatch_Request
        if zip_bytes is not None:
            if on_upload:
                on_upload("slot")
            slot = self.create_batch_upload()
            if on_upload:
                on_upload("sending")
            self.send_batch_zip(slot, zip_bytes)
            request = {"upload_id": slot["upload_id"]}
        else:
            request = {"xml": list(xml or [])}
        started = self.start_batch(request, idempotency_key=idempotency_key)
        batch = self.wait_for_batch(started["id"], on_progress=on_progress, timeout_s=timeout_s)
        return batch, self.download_batch(batch)

    def templates(self) -> T.Templates_200:
        return cast(T.Templates_200, self.http.json("GET", "/templates"))

    def template_source(self, slug: str) -> str:
        return self.http.request("GET", f"/templates/{_q(slug)}/source", headers={"accept": "text/plain"}).text()

    def template_sample(self, slug: str) -> bytes:
        return self.http.request(
            "GET", f"/templates/{_q(slug)}/sample.pdf", headers={"accept": "application/pdf"}
        ).body

    def pricing(self) -> T.Pricing_200:
        return cast(T.Pricing_200, self.http.json("GET", "/pricing"))

    def stats(self) -> T.DocumentStats_200:
        return cast(T.DocumentStats_200, self.http.json("GET", "/stats"))

    def _until_done(
        self,
        path: str,
        failure: Callable[[Dict[str, Any]], Tuple[str, Any]],
        on_progress: Optional[Callable[[Dict[str, Any]], None]],
        timeout_s: float,
    ) -> Dict[str, Any]:
        """Polls a job or batch at ``path`` until done; failed → JobFailedError with ``failure``'s code and detail."""

        def step(_res: Response, body: Any) -> Optional[Dict[str, Any]]:
            x = cast(Dict[str, Any], body)
            if x["status"] == "done":
                return x
            if x["status"] == "failed":
                code, detail = failure(x)
                raise JobFailedError(x.get("reason") or f"{x['id']} failed", status=200, code=code, detail=detail, body=x)
            if on_progress:
                on_progress(x)
            return None

        return self.http.poll(path, step, timeout_s=timeout_s)

    def _download(self, x: Dict[str, Any], content_type: Optional[str], filename: str) -> RenderedDocument:
        """A finished job's file from its presigned download_url (no API key goes there)."""
        url = x.get("download_url")
        if not url:
            raise JobFailedError(f"{x['id']} has no file to download", code="no_document", body=x)
        res = self.http.request("GET", url, auth=False, headers={"accept": "*/*"})
        ctype = content_type or res.headers.get("content-type") or "application/octet-stream"
        return RenderedDocument(content=res.body, content_type=ctype, filename=filename)
