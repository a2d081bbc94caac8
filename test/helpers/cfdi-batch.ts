// A month of stamped CFDI for the batch tests, from the corpus in test/fixtures/cfdi (files written by others and
// by us; licences in test/fixtures/cfdi/terceros/README.md): the stamped CFDI 4.0 files copied round-robin with
// their TimbreFiscalDigital UUID rewritten, so every copy is a distinct CFDI (the seal no longer matches, which
// printing does not check), plus broken files that must be refused, each for its own reason. Also the batch API's
// calls as a client makes them (upload slot, presigned POST, start, poll).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';

const CORPUS = join(__dirname, '..', 'fixtures', 'cfdi');

function xmlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? xmlFiles(p) : n.endsWith('.xml') ? [p] : [];
  });
}

const TFD_UUID = /(<(?:\w+:)?TimbreFiscalDigital\b[^>]*?\bUUID=")([^"]+)(")/;

/** The corpus' stamped CFDI 4.0 (those with a TimbreFiscalDigital UUID, Comprobante root). */
export function stampedCorpus(): { name: string; xml: string }[] {
  return xmlFiles(CORPUS)
    .sort()
    .map((p) => ({ name: p.slice(CORPUS.length + 1).replace(/\//g, '--'), xml: readFileSync(p, 'utf8') }))
    .filter((f) => TFD_UUID.test(f.xml) && /<(?:\w+:)?Comprobante\b/.test(f.xml));
}

/** A deterministic upper-case UUID for copy `i` of run `seed`. */
export function uuidFor(seed: string, i: number): string {
  const h = createHash('sha256').update(`${seed}:${i}`).digest('hex').toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-A${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface BatchCorpus {
  /** name → content, in zip order. */
  files: { name: string; xml: string; uuid?: string }[];
  /** The broken files and what their refusal must mention. */
  broken: { name: string; mentions: RegExp }[];
}

/** `count` distinct stamped CFDI plus the broken files (each refused for its own reason). */
export function batchCorpus(seed: string, count: number, withBroken = true): BatchCorpus {
  const corpus = stampedCorpus();
  const files: BatchCorpus['files'] = [];
  for (let i = 0; i < count; i++) {
    const src = corpus[i % corpus.length]!;
    const uuid = uuidFor(seed, i);
    files.push({ name: `cfdi/${i}-${src.name}`, xml: src.xml.replace(TFD_UUID, `$1${uuid}$3`), uuid });
  }
  if (!withBroken) return { files, broken: [] };
  const base = corpus.find((f) => f.name === 'ingreso-basico.xml')!.xml;
  const broken = [
    { name: 'rotos/no-es-xml.xml', xml: 'Esto no es XML, es una nota.', mentions: /well-formed/i },
    {
      name: 'rotos/cfdi33.xml',
      xml: base
        .replace(/http:\/\/www\.sat\.gob\.mx\/cfd\/4/g, 'http://www.sat.gob.mx/cfd/3')
        .replace('Version="4.0"', 'Version="3.3"'),
      mentions: /3\.3/,
    },
    {
      name: 'rotos/sin-timbre.xml',
      xml: base.replace(/<(\w+:)?Complemento>[\s\S]*<\/(\w+:)?Complemento>/, ''),
      mentions: /sin timbrar/i,
    },
    {
      name: 'rotos/sin-rfc-emisor.xml',
      xml: base
        .replace(/(<(?:\w+:)?Emisor\b[^>]*?)\sRfc="[^"]*"/, '$1')
        .replace(TFD_UUID, `$1${uuidFor(seed, -1)}$3`),
      mentions: /Emisor@Rfc is required/,
    },
    { name: 'rotos/vacio.xml', xml: '', mentions: /vac[ií]o/i },
  ];
  for (const b of broken) if (b.xml === base) throw new Error(`${b.name}: the corpus edit did not apply`);
  files.push(...broken.map(({ name, xml }) => ({ name, xml })));
  return { files, broken: broken.map(({ name, mentions }) => ({ name, mentions })) };
}

export function zipOf(files: { name: string; xml: string }[]): Buffer {
  return Buffer.from(zipSync(Object.fromEntries(files.map((f) => [f.name, Buffer.from(f.xml, 'utf8')]))));
}

/** The key's Authorization header; none for '' (the free plan). */
const auth = (key: string): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});

/** POST /v1/batches/upload, the presigned POST of the zip, POST /v1/batches: the batch's 202 body. */
export async function uploadAndStart(
  base: string,
  key: string,
  zip: Buffer,
): Promise<{ id: string; uploadId: string }> {
  const slot = await fetch(`${base}/v1/batches/upload`, { method: 'POST', headers: auth(key) });
  if (slot.status !== 201) throw new Error(`upload slot: ${slot.status} ${await slot.text()}`);
  const s = (await slot.json()) as {
    upload_id: string;
    upload: { url: string; fields: Record<string, string> };
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(s.upload.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'cfdi.zip');
  const put = await fetch(s.upload.url, { method: 'POST', body: form });
  if (put.status >= 300) throw new Error(`upload: ${put.status} ${await put.text()}`);
  const started = await startBatch(base, key, { upload_id: s.upload_id });
  if (started.status !== 202) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
  return { id: started.body.id as string, uploadId: s.upload_id };
}

export async function startBatch(base: string, key: string, body: unknown) {
  const res = await fetch(`${base}/v1/batches`, {
    method: 'POST',
    headers: { ...auth(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export async function getBatch(base: string, key: string, id: string) {
  const res = await fetch(`${base}/v1/batches/${id}`, { headers: auth(key) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Polls until the batch is done or failed (bounded), answering every view seen; every `everyMs` (tests: 250, to see
 * the end soon; the API asks for 2 s with Retry-After, as our SDKs wait).
 */
export async function waitForBatch(base: string, key: string, id: string, timeoutMs: number, everyMs = 250) {
  const seen: Record<string, unknown>[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await getBatch(base, key, id);
    if (status !== 200) throw new Error(`GET batch: ${status} ${JSON.stringify(body)}`);
    seen.push(body);
    if (body.status === 'done' || body.status === 'failed') return seen;
    if (Date.now() > deadline)
      throw new Error(`batch not finished in ${timeoutMs} ms: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
