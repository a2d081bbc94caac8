"""The Python client and ``python -m voz`` against a running local runtime (npm start, or the jest test
test/e2e/clients-python.test.ts, which starts one and sets the VOZ_TEST_* variables): every wrapped operation."""
from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
import unittest
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, cast

from voz import (
    FORMATS,
    AuthenticationError,
    DocumentsClient,
    InvalidRequestError,
    NarrationClient,
    NotFoundError,
    VozError,
    PayloadTooLargeError,
    Response,
    Transport,
    construct_event,
    verify_signature,
)
from voz._http import ClientOptions
from voz.types_documents import Render_Request

ENV = os.environ
NARRATION = ENV["VOZ_TEST_NARRATION_URL"]
DOCUMENTS = ENV["VOZ_TEST_DOCUMENTS_URL"]
PRO = ENV["VOZ_TEST_PRO_KEY"]
SCALE = ENV["VOZ_TEST_SCALE_KEY"]
OUT = Path(ENV["VOZ_TEST_DIR"])
FFPROBE = ENV["VOZ_TEST_FFPROBE"]
HERE = Path(__file__).resolve().parent.parent


def probe(path: Path) -> Dict[str, Any]:
    out = subprocess.run(
        [FFPROBE, "-v", "error", "-show_entries", "format=duration:stream=codec_name", "-of", "json", str(path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    data: Dict[str, Any] = json.loads(out)
    return {"codec": data["streams"][0]["codec_name"], "duration": float(data["format"]["duration"])}


class Receiver:
    """A loopback webhook receiver: every POST's path, headers and raw body."""

    def __init__(self) -> None:
        self.received: List[Tuple[str, Dict[str, str], bytes]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                outer.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def wait(self, path: str, timeout_s: float = 30) -> Tuple[str, Dict[str, str], bytes]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            hits = [r for r in self.received if r[0] == path]
            if hits:
                return hits[0]
            time.sleep(0.05)
        raise AssertionError(f"no webhook at {path}")


def tampered(body: bytes) -> bytes:
    b = bytearray(body)
    b[len(b) // 2] ^= 1
    return bytes(b)


class NarrationTest(unittest.TestCase):
    client: NarrationClient
    receiver: Receiver

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = NarrationClient(PRO, NARRATION)
        cls.receiver = Receiver()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.receiver.server.shutdown()

    def test_voices_and_short_text_download(self) -> None:
        ids = [v["id"] for v in self.client.voices()]
        self.assertIn("es-MX-Mia", ids)
        done = self.client.narrate_text("Hola, ¿qué tal? Esto es una prueba.", voice="es-ES-Lucia")
        self.assertEqual((done["voice"], done["chars"]), ("es-ES-Lucia", 35))
        path = OUT / "py-corto.mp3"
        path.write_bytes(self.client.download(done["audio_url"]))
        info = probe(path)
        self.assertEqual(info["codec"], "mp3")
        self.assertAlmostEqual(info["duration"], float(done["duration_s"]), places=1)

    def test_long_text_202_polling_and_timings(self) -> None:
        text = "Esta es una oración de prueba para el cliente. " * 8
        pending = self.client.narrate_text(text, wait=False)
        self.assertIn(pending["status"], ("queued", "processing"))
        self.assertIsNone(pending["duration_s"])
        seen: List[float] = []
        done = self.client.narrate_text(text, on_progress=lambda s, p: seen.append(p))
        self.assertEqual((done["status"], done["chars"]), ("done", len(text)))
        self.assertGreater(len(seen), 0)
        timings = self.client.timings(done["audio_id"])
        self.assertEqual(len(timings["sentences"]), 8)
        self.assertTrue(self.client.timings(done["audio_id"], format="vtt").startswith("WEBVTT"))
        self.assertEqual(self.client.wait_for_audio(pending["audio_id"])["status"], "done")

    def test_idempotent_retry_after_a_lost_answer(self) -> None:
        attempts: List[Tuple[Optional[str], int, Optional[str], str]] = []

        class Lossy(Transport):
            def send(self, method: str, url: str, headers: Dict[str, str], body: Optional[bytes], follow: bool) -> Response:
                res = super().send(method, url, headers, body, follow)
                if url.endswith("/convert/text"):
                    attempts.append(
                        (headers.get("idempotency-key"), res.status, res.headers.get("idempotent-replayed"), res.json()["audio_id"])
                    )
                    if len(attempts) == 1:
                        raise ConnectionResetError("the connection dropped before the answer")
                return res

        client = NarrationClient(transport=Lossy("", ClientOptions(api_key=PRO, base_url=NARRATION)))
        done = client.narrate_text("Una sola vez, aunque se reintente.")
        self.assertEqual(len(attempts), 2)
        self.assertEqual(attempts[0][0], attempts[1][0])
        self.assertRegex(str(attempts[0][0]), r"^[0-9a-f-]{36}$")
        self.assertEqual([(a[1], a[2]) for a in attempts], [(200, None), (200, "true")])
        self.assertEqual(done["audio_id"], attempts[0][3])

    def test_url(self) -> None:
        done = self.client.narrate_url(ENV["VOZ_TEST_ARTICLE_URL"], voice="es-MX-Mia")
        self.assertEqual(done["voice"], "es-MX-Mia")
        self.assertIn("El tren llega a la sierra", done["title"])

    def test_pdfs_direct_and_through_the_upload_path(self) -> None:
        small = Path(ENV["VOZ_TEST_SMALL_PDF"]).read_bytes()
        self.assertGreater(self.client.narrate_pdf(small)["chars"], 0)
        big = Path(ENV["VOZ_TEST_BIG_PDF"]).read_bytes()
        self.assertGreater(len(big), 19_000_000)
        with self.assertRaises(PayloadTooLargeError) as ctx:
            self.client.narrate_pdf(big, via="direct")
        self.assertEqual(ctx.exception.status, 413)
        calls: List[Tuple[str, str, int]] = []

        class Recording(Transport):
            def send(self, method: str, url: str, headers: Dict[str, str], body: Optional[bytes], follow: bool) -> Response:
                res = super().send(method, url, headers, body, follow)
                calls.append((method, url, res.status))
                return res

        client = NarrationClient(transport=Recording("", ClientOptions(api_key=PRO, base_url=NARRATION)))
        stages: List[str] = []
        done = client.narrate_pdf(big, on_upload=lambda stage, n: stages.append(stage))
        self.assertEqual(stages, ["slot", "sending", "converting"])
        posts = [(u, s) for m, u, s in calls if m == "POST"]
        self.assertTrue(posts[0][0].endswith("/convert/pdf/upload") and posts[0][1] == 201)
        self.assertLess(posts[1][1], 300)  # the file, to the presigned S3 URL
        self.assertTrue(posts[2][0].endswith("/convert/pdf"))
        self.assertGreater(float(done["duration_s"]), 0)

    def test_lexicons(self) -> None:
        put = self.client.lexicons.put("marcas", {"language": "es-MX", "entries": [{"grapheme": "ACME", "alias": "acmé"}]})
        self.assertEqual(put["name"], "marcas")
        self.assertEqual(self.client.lexicons.get("marcas")["entries"][0]["grapheme"], "ACME")
        self.assertIn("marcas", json.dumps(self.client.lexicons.list()))
        done = self.client.narrate_text("Compré en ACME.", voice="es-MX-Mia", lexicons=["marcas"])
        self.assertEqual(done["lexicons"], ["marcas"])
        self.client.lexicons.delete("marcas")
        with self.assertRaises(NotFoundError) as ctx:
            self.client.lexicons.get("marcas")
        self.assertEqual((ctx.exception.status, ctx.exception.code), (404, "lexicon_unknown"))

    def test_webhook_delivery_verifies(self) -> None:
        created = self.client.webhooks.put(self.receiver.url("/voz"))
        secret = created["secret"]
        self.assertTrue(secret.startswith("whsec_"))
        done = self.client.narrate_text("Aviso por webhook.")
        _, headers, body = self.receiver.wait("/voz")
        header = headers["voz-signature"]
        self.assertTrue(verify_signature(secret, header, body))
        self.assertFalse(verify_signature(secret, header, tampered(body)))
        self.assertFalse(verify_signature("whsec_otro", header, body))
        event = construct_event(secret, header, body)
        self.assertEqual((event["type"], event["data"]["audio"]["audio_id"]), ("audio.completed", done["audio_id"]))
        self.client.webhooks.delete()

    def test_preview_delete_and_secret_rotation(self) -> None:
        self.assertIs(self.client.preview("El 3 de mayo llegó.")["dry_run"], True)
        done = self.client.narrate_text("Para borrar.")
        self.client.delete_audio(done["audio_url"])
        with self.assertRaises(NotFoundError):
            self.client.wait_for_audio(done["audio_id"])
        created = self.client.webhooks.put(self.receiver.url("/rotar"))
        rotated = self.client.webhooks.rotate_secret()
        self.assertTrue(rotated["secret"].startswith("whsec_"))
        self.assertNotEqual(rotated["secret"], created["secret"])
        self.client.webhooks.delete()

    def test_typed_errors(self) -> None:
        with self.assertRaises(InvalidRequestError) as ctx:
            self.client.narrate_text("")
        err = ctx.exception
        self.assertEqual((err.status, err.items[0]["loc"]), (422, ["body", "text"]))
        self.assertEqual(err.code, err.items[0]["type"])
        self.assertTrue(err.request_id)
        with self.assertRaises(AuthenticationError) as auth:
            NarrationClient("key_no_existe_0000000000000000", NARRATION).narrate_text("hola")
        self.assertEqual((auth.exception.status, auth.exception.code), (401, "api_key_unknown"))

    def test_error_codes_in_english_and_spanish(self) -> None:
        es = NarrationClient(PRO, NARRATION, language="es")
        errors: List[VozError] = []
        for client in (self.client, es):
            with self.assertRaises(NotFoundError) as ctx:
                client.lexicons.get("no-existe")
            errors.append(ctx.exception)
        en, spanish = errors
        self.assertEqual((en.code, spanish.code), ("lexicon_unknown", "lexicon_unknown"))  # X-Error-Code
        self.assertNotEqual(en.message, spanish.message)
        self.assertRegex(spanish.message, r"[áéíóúñ]|no (existe|se encontr)")
        items: List[InvalidRequestError] = []
        for client in (self.client, es):
            with self.assertRaises(InvalidRequestError) as bad:
                client.narrate_text("")
            items.append(bad.exception)
        self.assertEqual(items[0].code, items[1].code)
        self.assertNotEqual(items[0].items[0]["msg"], items[1].items[0]["msg"])

    def test_feed_narrated_podcast_pause_poll_delete(self) -> None:
        feed = self.client.feeds.create(ENV["VOZ_TEST_FEED_URL"], voice="es-MX-Mia")
        self.assertEqual((feed["status"], feed["voice"]), ("active", "es-MX-Mia"))
        self.assertEqual(feed["podcast_url"], f"{NARRATION}/feeds/{feed['feed_id']}/podcast.xml")  # absolute, from the API
        got = self.client.feeds.get(feed["feed_id"])
        for _ in range(300):
            if got["entries"] and got["entries"][0]["status"] == "narrated":
                break
            time.sleep(0.2)
            got = self.client.feeds.get(feed["feed_id"])
        self.assertEqual(
            [(e["url"], e["status"]) for e in got["entries"]], [(ENV["VOZ_TEST_FEED_ARTICLE_URL"], "narrated")]
        )
        audio_id = str(got["entries"][0]["audio_id"])
        self.assertEqual(self.client.wait_for_audio(audio_id)["status"], "done")
        self.assertIn(f"/audio/{audio_id}.mp3", self.client.feeds.podcast(feed["feed_id"]))
        self.assertIn(feed["feed_id"], [f["feed_id"] for f in self.client.feeds.list()["feeds"]])
        self.assertEqual(self.client.feeds.set_status(feed["feed_id"], "paused")["status"], "paused")
        with self.assertRaises(InvalidRequestError) as paused:
            self.client.feeds.poll(feed["feed_id"])
        self.assertEqual(paused.exception.code, "feed_paused")
        self.client.feeds.set_status(feed["feed_id"], "active")
        self.assertEqual(self.client.feeds.poll(feed["feed_id"])["feed_id"], feed["feed_id"])
        deleted = self.client.feeds.delete(feed["feed_id"], audio="delete")
        self.assertEqual(dict(deleted), {"deleted": True, "audio_deleted": 1, "audio_kept": 0})
        with self.assertRaises(NotFoundError) as gone:
            self.client.feeds.get(feed["feed_id"])
        self.assertEqual(gone.exception.code, "feed_not_found")


class DocumentsTest(unittest.TestCase):
    client: DocumentsClient
    receiver: Receiver

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = DocumentsClient(SCALE, DOCUMENTS)
        cls.receiver = Receiver()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.receiver.server.shutdown()

    def test_every_format(self) -> None:
        ventas = {"title": "Ventas", "rows": [{"product": "Café", "units": 3, "revenue": 150}]}
        listed = self.client.templates()
        templates: List[Dict[str, Any]] = listed if isinstance(listed, list) else listed["templates"]  # type: ignore[assignment]
        ventas_formats = next(t["formats"] for t in templates if t["slug"] == "ventas")
        magic: Dict[str, Callable[[bytes], bool]] = {
            "pdf": lambda b: b[:5] == b"%PDF-",
            "png": lambda b: b[:4] == b"\x89PNG",
            "xlsx": lambda b: b[:2] == b"PK",
            "docx": lambda b: b[:2] == b"PK",
            "zip": lambda b: b[:2] == b"PK",
            "json": lambda b: json.loads(b) is not None,
            "csv": lambda b: "Café" in b.decode("utf-8"),
            "html": lambda b: b"<html" in b.lower(),
            "md": lambda b: b"hola" in b.lower(),
            "txt": lambda b: b"hola" in b.lower(),
        }
        results = {}
        for fmt in FORMATS:
            req: Dict[str, Any] = (
                {"template": "ventas", "data": ventas}
                if fmt in ventas_formats
                else {"custom_html": "<h1>Hola {{ nombre }}</h1><p>Café</p>", "data": {"nombre": "Ana"}}
            )
            req["format"] = fmt
            doc = self.client.render(cast(Render_Request, req))
            results[fmt] = bool(magic[fmt](doc.content)) and doc.filename.endswith(f".{fmt}")
        self.assertEqual(results, {f: True for f in FORMATS})

    def test_async_job_and_its_webhook(self) -> None:
        created = self.client.webhooks.put(self.receiver.url("/docs"))
        data = {"title": "V", "rows": [{"product": "A", "units": 1, "revenue": 1}]}
        accepted = self.client.render_async({"template": "ventas", "format": "csv", "data": data})
        self.assertEqual(accepted["status"], "queued")
        job = self.client.wait_for_job(accepted["id"])
        self.assertEqual((job["status"], job["format"]), ("done", "csv"))
        self.assertEqual(len(self.client.download_job(job).content), job["bytes"])
        _, headers, body = self.receiver.wait("/docs")
        event = construct_event(created["secret"], headers["docs-signature"], body)
        self.assertEqual(event["type"], "document.rendered")
        self.assertFalse(verify_signature(created["secret"], headers["docs-signature"], tampered(body)))

    def test_templates_pricing_stats_and_a_job(self) -> None:
        self.assertIn("factura", json.dumps(self.client.templates()))
        self.assertIn("<", self.client.template_source("factura"))
        self.assertEqual(self.client.template_sample("factura")[:5], b"%PDF-")
        self.assertRegex(json.dumps(self.client.pricing()).lower(), "scale")
        self.assertIsInstance(self.client.stats(), dict)
        data = {"title": "J", "rows": [{"product": "A", "units": 1, "revenue": 1}]}
        accepted = self.client.render_async({"template": "ventas", "format": "csv", "data": data})
        self.assertEqual(self.client.job(accepted["id"])["id"], accepted["id"])

    def test_merge_and_a_400(self) -> None:
        merged = self.client.merge(
            [
                {"template": "ventas", "data": {"title": "Uno", "rows": [{"product": "A", "units": 1, "revenue": 1}]}},
                {"template": "ventas", "data": {"title": "Dos", "rows": [{"product": "B", "units": 2, "revenue": 2}]}},
            ]
        )
        path = OUT / "py-merged.pdf"
        path.write_bytes(merged.content)
        subprocess.run(["qpdf", "--check", str(path)], check=True, capture_output=True)
        pages = subprocess.run(["qpdf", "--show-npages", str(path)], check=True, capture_output=True, text=True).stdout
        self.assertGreaterEqual(int(pages), 2)
        with self.assertRaises(InvalidRequestError) as ctx:
            self.client.render({"template": "no-existe", "format": "pdf", "data": {}})
        self.assertEqual(ctx.exception.status, 400)
        self.assertIn("template", ctx.exception.items[0]["loc"])


    def test_batches_zip_upload_and_xml_list(self) -> None:
        xmls = [Path(x).read_text("utf-8") for x in ENV["VOZ_TEST_CFDI"].split(os.pathsep)]
        buf = BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for i, x in enumerate(xmls):
                z.writestr(f"mes/{i}.xml", x)
        stages: List[str] = []
        batch, result = self.client.print_batch(zip_bytes=buf.getvalue(), on_upload=stages.append)
        self.assertEqual(stages, ["slot", "sending"])
        self.assertEqual(
            (batch["status"], batch["total"], batch["done"], batch["refused"]), ("done", len(xmls), len(xmls), 0)
        )
        names = zipfile.ZipFile(BytesIO(result.content)).namelist()
        self.assertEqual(len([n for n in names if n.endswith(".pdf")]), len(xmls))
        self.assertTrue({"resumen.csv", "resumen.xlsx"} <= set(names))
        started = self.client.start_batch({"xml": [xmls[0], "<no-es-un-cfdi/>"]})
        self.assertEqual(started["status"], "queued")
        done = self.client.wait_for_batch(started["id"])
        self.assertEqual((done["done"], done["refused"]), (1, 1))
        self.assertEqual(self.client.batch(started["id"])["id"], started["id"])
        csv = zipfile.ZipFile(BytesIO(self.client.download_batch(done).content)).read("resumen.csv").decode("utf-8")
        uuid = xmls[0].split('UUID="', 1)[1].split('"', 1)[0]
        self.assertIn(uuid.upper(), csv.upper())
        with self.assertRaises(NotFoundError) as missing:
            self.client.batch("job_no_existe")
        self.assertEqual(missing.exception.code, "batch_not_found")


class CliTest(unittest.TestCase):
    def voz(self, *args: str, **env: str) -> "subprocess.CompletedProcess[str]":
        full = {
            **os.environ,
            "VOZ_API_KEY": PRO,
            "VOZ_NARRATION_URL": NARRATION,
            "VOZ_DOCUMENTS_URL": DOCUMENTS,
            "PYTHONPATH": str(HERE),
            **env,
        }
        return subprocess.run([sys.executable, "-m", "voz", *args], cwd=OUT, env=full, capture_output=True, text=True)

    def test_narrar_factura_render_and_exit_codes(self) -> None:
        pdf = OUT / "py-archivo.pdf"
        pdf.write_bytes(Path(ENV["VOZ_TEST_SMALL_PDF"]).read_bytes())
        r = self.voz("narrar", str(pdf), "-o", "py-audio.mp3")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Narrando", r.stderr)
        self.assertEqual(probe(OUT / "py-audio.mp3")["codec"], "mp3")
        r = self.voz("narrar", ENV["VOZ_TEST_ARTICLE_URL"], "--voz", "es-MX-Mia", "-o", "py-noticia.mp3")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("es-MX-Mia", r.stderr)
        xmls = ENV["VOZ_TEST_CFDI"].split(os.pathsep)
        r = self.voz("factura", "--xml", *xmls, "-o", "py-pdfs/")
        self.assertEqual(r.returncode, 0, r.stderr)
        pdfs = sorted(p.name for p in (OUT / "py-pdfs").iterdir())
        self.assertEqual(pdfs, sorted(f"{Path(x).stem}.pdf" for x in xmls))
        for name in pdfs:
            subprocess.run(["qpdf", "--check", str(OUT / "py-pdfs" / name)], check=True, capture_output=True)
        (OUT / "py-datos.json").write_text(json.dumps({"title": "Ventas", "rows": [{"product": "A", "units": 1, "revenue": 2}]}))
        r = self.voz("render", "ventas", "py-datos.json", "-f", "xlsx", "-o", "py-ventas.xlsx")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual((OUT / "py-ventas.xlsx").read_bytes()[:2], b"PK")
        self.assertEqual(self.voz("narrar").returncode, 2)
        self.assertEqual(self.voz("narrar", "no-existe.pdf").returncode, 2)
        self.assertEqual(self.voz("narrar", str(pdf), VOZ_API_KEY="key_no_existe_0000000000000000").returncode, 4)
        self.assertEqual(self.voz("render", "no-existe", "py-datos.json").returncode, 3)
        self.assertEqual(self.voz("voces", VOZ_NARRATION_URL="http://127.0.0.1:1").returncode, 6)

    def test_lote_feed_and_the_one_usage_text(self) -> None:
        archive = OUT / "py-mes.zip"
        with zipfile.ZipFile(archive, "w") as z:
            for x in ENV["VOZ_TEST_CFDI"].split(os.pathsep):
                z.write(x, Path(x).name)
        r = self.voz("lote", str(archive), "-o", "py-lote.zip", VOZ_API_KEY=SCALE)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("2 PDF, 0 rechazados", r.stderr)
        names = zipfile.ZipFile(OUT / "py-lote.zip").namelist()
        self.assertEqual(len([n for n in names if n.endswith(".pdf")]), 2)
        # unittest runs CliTest first: this feed's narration is kept (borrar without --borrar-audio) and the same feed
        # and voice in NarrationTest reuse it, nothing narrated twice.
        r = self.voz("feed", "agregar", ENV["VOZ_TEST_FEED_URL"], "--voz", "es-MX-Mia")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"^fd_\S+\thttp:\S+/podcast\.xml\n$")
        feed_id = r.stdout.split("\t")[0]
        self.assertIn(f"{feed_id}\tactive\t{ENV['VOZ_TEST_FEED_URL']}", self.voz("feed", "lista").stdout)
        r = self.voz("feed", "borrar", feed_id)
        self.assertEqual((r.returncode, json.loads(r.stdout)["deleted"]), (0, True))
        self.assertEqual(self.voz("feed", "ver", feed_id).returncode, 3)
        self.assertEqual(self.voz("feed", "ver").returncode, 2)
        usage = (HERE.parent / "cli-usage.txt").read_text("utf-8")
        self.assertEqual(self.voz("--ayuda").stdout, usage)


if __name__ == "__main__":
    unittest.main()
