"""Client of the Documents API: render any template or your own HTML to any of the ten formats (also when the API
answers 303 to a download link), async jobs (Scale: 202 → GET /v1/jobs/{id} polled at its Retry-After →
download), merges into one PDF, templates, pricing and the webhook endpoint."""
from __future__ import annotations

import re
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, cast

from . import types_documents as T
from ._http import ClientOptions, Transport
from .errors import JobFailedError, WaitTimeoutError
from .narration import Webhooks

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


class DocumentsClient:
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
        opts = ClientOptions(
            api_key=api_key, base_url=base_url, language=language, max_retries=max_retries, timeout_s=timeout_s
        )
        self.http = transport or Transport(DEFAULT_DOCUMENTS_URL, opts)
        self.webhooks = Webhooks(self.http)

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
        return cast(T.GetJob_200, self.http.json("GET", f"/v1/jobs/{urllib.parse.quote(job_id, safe='')}"))

    def wait_for_job(
        self, job_id: str, *, timeout_s: float = 600.0, on_progress: Optional[Callable[[Dict[str, Any]], None]] = None
    ) -> T.GetJob_200:
        """Polls the job at its Retry-After until done, or raises JobFailedError (with its problems)."""
        deadline = time.monotonic() + timeout_s
        while True:
            res = self.http.request("GET", f"/v1/jobs/{urllib.parse.quote(job_id, safe='')}")
            job = cast(T.GetJob_200, res.json())
            if job["status"] == "done":
                return job
            if job["status"] == "failed":
                problems = job.get("problems")
                raise JobFailedError(
                    job.get("reason") or f"job {job_id} failed",
                    status=200,
                    code=str(problems[0]["type"]) if problems else "job_failed",
                    detail=cast(Any, problems) or job.get("reason"),
                    body=job,
                )
            if on_progress:
                on_progress(cast(Dict[str, Any], job))
            left = deadline - time.monotonic()
            if left <= 0:
                raise WaitTimeoutError(f"job {job_id} still {job['status']}", code="wait_timeout", body=job)
            try:
                retry_after = float(res.headers.get("retry-after", "1"))
            except ValueError:
                retry_after = 1.0
            time.sleep(min(max(retry_after, 0.1), left))

    def download_job(self, job: T.GetJob_200) -> RenderedDocument:
        url = job.get("download_url")
        if not url:
            raise JobFailedError(f"job {job['id']} has no document", code="no_document", body=job)
        res = self.http.request("GET", url, auth=False, headers={"accept": "*/*"})
        return RenderedDocument(
            content=res.body,
            content_type=job.get("content_type") or res.headers.get("content-type") or "application/octet-stream",
            filename=job.get("filename") or f"documento.{job['format']}",
        )

    def templates(self) -> T.Templates_200:
        return cast(T.Templates_200, self.http.json("GET", "/templates"))

    def template_source(self, slug: str) -> str:
        return self.http.request("GET", f"/templates/{urllib.parse.quote(slug, safe='')}/source", headers={"accept": "text/plain"}).text()

    def template_sample(self, slug: str) -> bytes:
        return self.http.request(
            "GET", f"/templates/{urllib.parse.quote(slug, safe='')}/sample.pdf", headers={"accept": "application/pdf"}
        ).body

    def pricing(self) -> T.Pricing_200:
        return cast(T.Pricing_200, self.http.json("GET", "/pricing"))

    def stats(self) -> T.DocumentStats_200:
        return cast(T.DocumentStats_200, self.http.json("GET", "/stats"))
