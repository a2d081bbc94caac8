"""``python -m voz``: the command line of the Narration and Documents APIs, the same commands as ``npx voz``; both
print one usage text (USAGE, generated from clients/cli-usage.txt): narrar, factura, lote (a batch of CFDI), render,
voces, feed (publisher feeds). API key from VOZ_API_KEY (or --clave); base URLs from VOZ_NARRATION_URL /
VOZ_DOCUMENTS_URL (or --narracion-url / --documentos-url). Progress on stderr; results a script reads (ids,
addresses) on stdout; exit codes in EXIT."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from ._usage import USAGE
from .documents import DocumentsClient
from .errors import (
    AuthenticationError,
    ConnectionFailedError,
    JobFailedError,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ServiceUnavailableError,
    VozError,
    WaitTimeoutError,
)
from .narration import NarrationClient, audio_id_of

EXIT: Dict[str, int] = {
    "ok": 0,
    "failure": 1,  # unexpected
    "usage": 2,  # wrong arguments, unreadable input file
    "rejected": 3,  # the API refused the request (invalid input, not found, conflict…)
    "auth": 4,  # 401/402/403
    "rate_limited": 5,  # 429
    "unavailable": 6,  # 5xx or no connection: retry later
    "job_failed": 7,  # the job failed, or waiting timed out
}


class UsageError(Exception):
    pass


class Progress:
    """A bar on a terminal, a line per 10 % otherwise (stderr)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.tty = sys.stderr.isatty()
        self.last_step = -1

    def update(self, fraction: float, note: str = "") -> None:
        pct = max(0, min(100, round(fraction * 100)))
        if self.tty:
            filled = pct // 5
            sys.stderr.write(f"\r{self.label} [{'#' * filled}{'-' * (20 - filled)}] {pct} % {note}")
        elif pct // 10 != self.last_step:
            self.last_step = pct // 10
            sys.stderr.write(f"{self.label}: {pct} % {note}\n")
        sys.stderr.flush()

    def done(self, note: str) -> None:
        sys.stderr.write(f"{chr(13) if self.tty else ''}{self.label}: {note}\n")


def _read(path: str) -> bytes:
    try:
        return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as err:
        raise UsageError(f"no se puede leer {path}: {err.strerror or err}") from err


def _clients(a: argparse.Namespace) -> Tuple[NarrationClient, DocumentsClient]:
    key = a.clave or os.environ.get("VOZ_API_KEY") or None
    narration = NarrationClient(key, a.narracion_url or os.environ.get("VOZ_NARRATION_URL"), language=a.idioma)
    documents = DocumentsClient(key, a.documentos_url or os.environ.get("VOZ_DOCUMENTS_URL"), language=a.idioma)
    return narration, documents


def narrar(a: argparse.Namespace) -> None:
    src: str = a.entrada
    is_url = src.startswith(("http://", "https://"))
    out = a.o or f"{'narracion' if is_url or src == '-' else Path(src).stem}.mp3"
    ext = Path(out).suffix.lstrip(".").lower()
    fmt = a.formato or (ext if ext in ("mp3", "wav", "ogg") else "mp3")
    narration, _ = _clients(a)
    bar = Progress("Narrando")
    bar.update(0, "enviando")

    def progress(status: str, fraction: float) -> None:
        bar.update(fraction, status)

    def upload(stage: str, size: int) -> None:
        bar.update(0, f"{stage} ({size / 1048576:.1f} MB)")

    if is_url:
        result = narration.narrate_url(src, voice=a.voz, fmt=fmt, on_progress=progress)
    elif src.lower().endswith(".pdf"):
        result = narration.narrate_pdf(_read(src), voice=a.voz, fmt=fmt, filename=Path(src).name, on_progress=progress, on_upload=upload)
    else:
        result = narration.narrate_text(_read(src).decode("utf-8"), voice=a.voz, fmt=fmt, on_progress=progress)
    data = narration.download(audio_id_of(str(result["audio_id"])), on_progress=progress)
    Path(out).write_bytes(data)
    bar.done(f"{out} ({result.get('duration_s')} s, voz {result.get('voice')}, {len(data)} bytes)")


def factura(a: argparse.Namespace) -> None:
    files: List[str] = a.xml or []
    if not files:
        raise UsageError("factura: --xml <archivo.xml>… (uno o más CFDI)")
    out = Path(a.o or ".")
    out.mkdir(parents=True, exist_ok=True)
    _, documents = _clients(a)
    bar = Progress("Facturas")
    for i, f in enumerate(files, 1):
        xml = _read(f).decode("utf-8")
        doc = documents.render({"template": "factura", "format": "pdf", "cfdi_xml": xml})
        target = out / f"{Path(f).stem}.pdf"
        target.write_bytes(doc.content)
        for w in doc.warnings:
            sys.stderr.write(f"aviso ({Path(f).name}): {w}\n")
        bar.update(i / len(files), str(target))
    bar.done(f"{len(files)} PDF en {out}")


def render(a: argparse.Namespace) -> None:
    try:
        data: Any = json.loads(_read(a.datos).decode("utf-8"))
    except ValueError as err:
        raise UsageError(f"{a.datos} no es JSON: {err}") from err
    _, documents = _clients(a)
    bar = Progress("Generando")
    doc = documents.render(
        {"template": a.plantilla, "format": a.formato or "pdf", "data": data},
        on_progress=lambda job: bar.update(float(job.get("progress", 0)), str(job.get("status"))),
    )
    target = Path(a.o or doc.filename)
    if a.o and (a.o.endswith("/") or target.is_dir()):
        target.mkdir(parents=True, exist_ok=True)
        target = target / doc.filename
    target.write_bytes(doc.content)
    bar.done(f"{target} ({doc.content_type}, {len(doc.content)} bytes)")


def lote(a: argparse.Namespace) -> None:
    if (a.zip is None) == (not a.xml):
        raise UsageError("lote: <cfdi.zip> o --xml <archivo.xml>… (uno de los dos)")
    _, documents = _clients(a)
    bar = Progress("Lote")

    def uploading(stage: str) -> None:
        bar.update(0, "pidiendo la subida" if stage == "slot" else "subiendo el zip")

    def progress(b: Dict[str, Any]) -> None:
        bar.update(float(b.get("progress", 0)), f"{b.get('done')} de {b.get('total') or '?'} PDF")

    if a.zip is not None:
        batch, result = documents.print_batch(zip_bytes=_read(a.zip), on_upload=uploading, on_progress=progress)
    else:
        xml = [_read(f).decode("utf-8") for f in a.xml]
        batch, result = documents.print_batch(xml=xml, on_upload=uploading, on_progress=progress)
    target = Path(a.o or result.filename)
    target.write_bytes(result.content)
    bar.done(f"{target}: {batch['done']} PDF, {batch.get('refused') or 0} rechazados, {batch['failed']} fallidos")


def feed(a: argparse.Namespace) -> None:
    narration, _ = _clients(a)
    action: str = a.accion

    def need_id() -> str:
        if not a.objetivo:
            raise UsageError(f"feed {action}: falta el id del feed (fd_…)")
        return str(a.objetivo)

    def show(value: Any) -> None:
        print(json.dumps(value, indent=2, ensure_ascii=False))

    if action == "agregar":
        if not a.objetivo:
            raise UsageError("feed agregar: falta la dirección del feed (https://…)")
        extra = {k: v for k, v in (("voice", a.voz), ("fmt", a.formato)) if v}
        created = narration.feeds.create(a.objetivo, **extra)
        print(f"{created['feed_id']}\t{created['podcast_url']}")
    elif action == "lista":
        for f in narration.feeds.list()["feeds"]:
            print(f"{f['feed_id']}\t{f['status']}\t{f['url']}\t{f['podcast_url']}")
    elif action == "ver":
        show(narration.feeds.get(need_id()))
    elif action in ("pausar", "reanudar"):
        show(narration.feeds.set_status(need_id(), "paused" if action == "pausar" else "active"))
    elif action == "consultar":
        show(narration.feeds.poll(need_id()))
    else:  # borrar
        show(narration.feeds.delete(need_id(), audio="delete" if a.borrar_audio else "keep"))


def voces(a: argparse.Namespace) -> None:
    narration, _ = _clients(a)
    for v in narration.voices():
        print(f"{v['id']}\t{v['name']}\t{v['gender']}")


class _Parser(argparse.ArgumentParser):
    """Parses only: help is USAGE (main prints it), an error is a UsageError (exit 2 with USAGE)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(add_help=False, **kwargs)

    def error(self, message: str) -> Any:
        raise UsageError(message)


def _parser() -> argparse.ArgumentParser:
    common = _Parser()
    common.add_argument("--clave")
    common.add_argument("--narracion-url", dest="narracion_url")
    common.add_argument("--documentos-url", dest="documentos_url")
    common.add_argument("--idioma", default="es")
    p = _Parser(prog="voz")
    sub = p.add_subparsers(dest="orden", parser_class=_Parser)
    n = sub.add_parser("narrar", parents=[common])
    n.add_argument("entrada")
    n.add_argument("-o")
    n.add_argument("--voz")
    n.add_argument("--formato", choices=["mp3", "wav", "ogg"])
    n.set_defaults(run=narrar)
    f = sub.add_parser("factura", parents=[common])
    f.add_argument("--xml", nargs="+", required=True)
    f.add_argument("-o")
    f.set_defaults(run=factura)
    lt = sub.add_parser("lote", parents=[common])
    lt.add_argument("zip", nargs="?")
    lt.add_argument("--xml", nargs="+")
    lt.add_argument("-o")
    lt.set_defaults(run=lote)
    r = sub.add_parser("render", parents=[common])
    r.add_argument("plantilla")
    r.add_argument("datos")
    r.add_argument("-f", "--formato", dest="formato")
    r.add_argument("-o")
    r.set_defaults(run=render)
    v = sub.add_parser("voces", parents=[common])
    v.set_defaults(run=voces)
    fd = sub.add_parser("feed", parents=[common])
    fd.add_argument("accion", choices=["agregar", "lista", "ver", "pausar", "reanudar", "consultar", "borrar"])
    fd.add_argument("objetivo", nargs="?")
    fd.add_argument("--voz")
    fd.add_argument("--formato", choices=["mp3", "wav", "ogg"])
    fd.add_argument("--borrar-audio", dest="borrar_audio", action="store_true")
    fd.set_defaults(run=feed)
    return p


def exit_code_for(err: BaseException) -> int:
    if isinstance(err, UsageError):
        return EXIT["usage"]
    if isinstance(err, (JobFailedError, WaitTimeoutError)):
        return EXIT["job_failed"]
    if isinstance(err, (AuthenticationError, PaymentRequiredError, PermissionDeniedError)):
        return EXIT["auth"]
    if isinstance(err, RateLimitError):
        return EXIT["rate_limited"]
    if isinstance(err, (ConnectionFailedError, ServiceUnavailableError, ServerError)):
        return EXIT["unavailable"]
    if isinstance(err, VozError):
        return EXIT["rejected"]
    return EXIT["failure"]


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        if any(x in ("-h", "--help", "--ayuda") for x in args):
            print(USAGE)
            return EXIT["ok"]
        a = _parser().parse_args(args)
        run: Optional[Callable[[argparse.Namespace], None]] = getattr(a, "run", None)
        if run is None:
            print(USAGE)
            return EXIT["usage"]
        run(a)
        return EXIT["ok"]
    except (UsageError, VozError) as err:
        code = exit_code_for(err)
        extra = ""
        if isinstance(err, VozError):
            extra = f" [{err.status or 'sin respuesta'} {err.code}{', ' + err.request_id if err.request_id else ''}]"
        sys.stderr.write(f"\nvoz: {err}{extra}\n{USAGE + chr(10) if code == EXIT['usage'] else ''}")
        return code
