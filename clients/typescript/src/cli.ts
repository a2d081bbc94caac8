#!/usr/bin/env node
// `voz`: the command line of the Narration and Documents APIs (Spanish, like the products). Its commands are in
// USAGE (clients/cli-usage.txt, the one usage text `python -m voz` prints too): narrar, factura, lote (a batch of
// CFDI), render, voces, feed (publisher feeds). API key from VOZ_API_KEY (or --clave); base URLs from
// VOZ_NARRATION_URL / VOZ_DOCUMENTS_URL (or --narracion-url / --documentos-url). Progress goes to stderr; results a
// script reads (ids, addresses) to stdout; exit codes below (EXIT).
import { readFileSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import {
  AuthenticationError,
  ConnectionError,
  JobFailedError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  VozError,
  WaitTimeoutError,
} from './errors';
import { NarrationClient, audioIdOf } from './narration';
import { DocumentsClient } from './documents';
import { USAGE } from './generated/usage';

export const EXIT = {
  ok: 0,
  failure: 1, // unexpected
  usage: 2, // wrong arguments, unreadable input file
  rejected: 3, // the API refused the request (invalid input, not found, conflict…)
  auth: 4, // 401/402/403: key missing, wrong or plan without the feature
  rateLimited: 5, // 429
  unavailable: 6, // 5xx or no connection: retry later
  jobFailed: 7, // the narration or render job failed, or waiting timed out
} as const;

class UsageError extends Error {}

interface Parsed {
  args: string[];
  flags: Record<string, string[]>;
}

const WITH_VALUE = new Set([
  'o',
  'voz',
  'formato',
  'f',
  'clave',
  'narracion-url',
  'documentos-url',
  'idioma',
]);
/** Flags without a value. */
const SWITCHES = new Set(['borrar-audio']);
const ALIASES: Record<string, string> = {
  output: 'o',
  voice: 'voz',
  format: 'formato',
  f: 'formato',
  key: 'clave',
};

export function parseArgs(argv: string[]): Parsed {
  const out: Parsed = { args: [], flags: {} };
  let listFlag: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--?([a-z-]+)(?:=(.*))?$/.exec(a);
    if (m && a !== '-') {
      const name = ALIASES[m[1]!] ?? m[1]!;
      if (name === 'xml') {
        listFlag = 'xml';
        out.flags.xml ??= [];
        if (m[2] !== undefined) out.flags.xml.push(m[2]);
        continue;
      }
      listFlag = undefined;
      if (name === 'h' || name === 'help' || name === 'ayuda') {
        out.flags.help = ['1'];
        continue;
      }
      if (SWITCHES.has(name)) {
        out.flags[name] = ['1'];
        continue;
      }
      if (!WITH_VALUE.has(name) && !WITH_VALUE.has(m[1]!)) throw new UsageError(`opción desconocida: ${a}`);
      const value = m[2] ?? argv[++i];
      if (value === undefined) throw new UsageError(`falta el valor de ${a}`);
      (out.flags[name] ??= []).push(value);
    } else if (listFlag) out.flags[listFlag]!.push(a);
    else out.args.push(a);
  }
  return out;
}

/** Progress on stderr: a bar on a terminal, a line per 10 % otherwise. */
function progress(label: string) {
  const tty = process.stderr.isTTY;
  let lastStep = -1;
  return {
    update(fraction: number, note = '') {
      const pct = Math.max(0, Math.min(100, Math.round(fraction * 100)));
      if (tty) {
        const filled = Math.round(pct / 5);
        process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(20 - filled)}] ${pct} % ${note}`);
      } else if (Math.floor(pct / 10) !== lastStep) {
        lastStep = Math.floor(pct / 10);
        process.stderr.write(`${label}: ${pct} % ${note}\n`);
      }
    },
    done(note: string) {
      process.stderr.write(`${tty ? '\r' : ''}${label}: ${note}\n`);
    },
  };
}

const one = (p: Parsed, name: string, env?: string): string | undefined =>
  p.flags[name]?.at(-1) ?? (env ? process.env[env] : undefined) ?? undefined;

function clients(p: Parsed) {
  const common = { apiKey: one(p, 'clave', 'VOZ_API_KEY') || undefined, language: one(p, 'idioma') ?? 'es' };
  return {
    narration: new NarrationClient({ ...common, baseUrl: one(p, 'narracion-url', 'VOZ_NARRATION_URL') }),
    documents: new DocumentsClient({ ...common, baseUrl: one(p, 'documentos-url', 'VOZ_DOCUMENTS_URL') }),
  };
}

function readInput(path: string): Buffer {
  try {
    return path === '-' ? readFileSync(0) : readFileSync(path);
  } catch (err) {
    throw new UsageError(`no se puede leer ${path}: ${(err as Error).message}`);
  }
}

async function narrar(p: Parsed): Promise<void> {
  const input = p.args[1];
  if (!input) throw new UsageError('narrar: falta el archivo, la URL o - (entrada estándar)');
  const out =
    one(p, 'o') ??
    `${input === '-' || /^https?:/.test(input) ? 'narracion' : basename(input, extname(input))}.mp3`;
  const fromExt = extname(out).slice(1).toLowerCase();
  const fmt = (one(p, 'formato') ?? (['mp3', 'wav', 'ogg'].includes(fromExt) ? fromExt : 'mp3')) as
    'mp3' | 'wav' | 'ogg';
  const voice = one(p, 'voz');
  const { narration } = clients(p);
  const bar = progress('Narrando');
  const wait = { onProgress: (s: { progress: number; status: string }) => bar.update(s.progress, s.status) };
  bar.update(0, 'enviando');
  let result;
  if (/^https?:\/\//.test(input))
    result = await narration.narrateUrl({ url: input, fmt, ...(voice ? { voice } : {}) }, wait);
  else if (input.toLowerCase().endsWith('.pdf'))
    result = await narration.narratePdf(readInput(input), {
      ...wait,
      fmt,
      voice,
      filename: basename(input),
      onUpload: (stage, bytes) => bar.update(0, `${stage} (${(bytes / 1048576).toFixed(1)} MB)`),
    });
  else
    result = await narration.narrateText(
      { text: readInput(input).toString('utf8'), fmt, ...(voice ? { voice } : {}) },
      wait,
    );
  const bytes = await narration.download(audioIdOf(result.audio_id), wait);
  writeFileSync(out, bytes);
  bar.done(`${out} (${result.duration_s ?? '?'} s, voz ${result.voice}, ${bytes.length} bytes)`);
}

async function factura(p: Parsed): Promise<void> {
  const files = p.flags.xml ?? [];
  if (!files.length) throw new UsageError('factura: --xml <archivo.xml>… (uno o más CFDI)');
  const dir = one(p, 'o') ?? '.';
  mkdirSync(dir, { recursive: true });
  const { documents } = clients(p);
  const bar = progress('Facturas');
  let i = 0;
  for (const file of files) {
    const xml = readInput(file).toString('utf8');
    const doc = await documents.render({ template: 'factura', format: 'pdf', cfdi_xml: xml });
    const target = join(dir, `${basename(file, extname(file))}.pdf`);
    writeFileSync(target, doc.bytes);
    for (const w of doc.warnings) process.stderr.write(`aviso (${basename(file)}): ${w}\n`);
    bar.update(++i / files.length, target);
  }
  bar.done(`${files.length} PDF en ${dir}`);
}

async function lote(p: Parsed): Promise<void> {
  const zipFile = p.args[1];
  const xmls = p.flags.xml ?? [];
  if (!zipFile === !xmls.length)
    throw new UsageError('lote: <cfdi.zip> o --xml <archivo.xml>… (uno de los dos)');
  const { documents } = clients(p);
  const bar = progress('Lote');
  const input = zipFile
    ? { zip: readInput(zipFile) }
    : { xml: xmls.map((f) => readInput(f).toString('utf8')) };
  const { batch, zip } = await documents.printBatch(input, {
    onUpload: (stage) => bar.update(0, stage === 'slot' ? 'pidiendo la subida' : 'subiendo el zip'),
    onProgress: (b) => bar.update(b.progress, `${b.done} de ${b.total ?? '?'} PDF`),
  });
  const target = one(p, 'o') ?? zip.filename;
  writeFileSync(target, zip.bytes);
  bar.done(`${target}: ${batch.done} PDF, ${batch.refused ?? 0} rechazados, ${batch.failed} fallidos`);
}

async function feed(p: Parsed): Promise<void> {
  const [, action, target] = p.args;
  const { narration } = clients(p);
  const needId = () => {
    if (!target) throw new UsageError(`feed ${action}: falta el id del feed (fd_…)`);
    return target;
  };
  const print = (v: unknown): void => {
    process.stdout.write(JSON.stringify(v, null, 2) + '\n');
  };
  switch (action) {
    case 'agregar': {
      if (!target) throw new UsageError('feed agregar: falta la dirección del feed (https://…)');
      const voice = one(p, 'voz');
      const fmt = one(p, 'formato') as 'mp3' | 'wav' | 'ogg' | undefined;
      const created = await narration.feeds.create({
        url: target,
        ...(voice ? { voice } : {}),
        ...(fmt ? { fmt } : {}),
      });
      process.stdout.write(`${created.feed_id}\t${created.podcast_url}\n`);
      return;
    }
    case 'lista':
      for (const f of (await narration.feeds.list()).feeds)
        process.stdout.write(`${f.feed_id}\t${f.status}\t${f.url}\t${f.podcast_url}\n`);
      return;
    case 'ver':
      return print(await narration.feeds.get(needId()));
    case 'pausar':
    case 'reanudar':
      return print(await narration.feeds.setStatus(needId(), action === 'pausar' ? 'paused' : 'active'));
    case 'consultar':
      return print(await narration.feeds.poll(needId()));
    case 'borrar':
      return print(
        await narration.feeds.delete(needId(), { audio: p.flags['borrar-audio'] ? 'delete' : 'keep' }),
      );
    default:
      throw new UsageError(`feed: acción desconocida: ${action ?? '(ninguna)'}`);
  }
}

async function render(p: Parsed): Promise<void> {
  const [, template, dataFile] = p.args;
  if (!template || !dataFile) throw new UsageError('render: <plantilla> <datos.json> [-f formato]');
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(readInput(dataFile).toString('utf8'));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${dataFile} no es JSON: ${(err as Error).message}`);
  }
  const format = one(p, 'formato') ?? 'pdf';
  const { documents } = clients(p);
  const bar = progress('Generando');
  const doc = await documents.render(
    { template, format, data },
    { onProgress: (j) => bar.update(j.progress, j.status) },
  );
  const target = one(p, 'o') ?? doc.filename;
  if (target.endsWith('/') || safeIsDir(target)) {
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, doc.filename), doc.bytes);
  } else writeFileSync(target, doc.bytes);
  bar.done(`${target} (${doc.contentType}, ${doc.bytes.length} bytes)`);
}

function safeIsDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function voces(p: Parsed): Promise<void> {
  for (const v of await clients(p).narration.voices())
    process.stdout.write(`${v.id}\t${v.name}\t${v.gender}\n`);
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof JobFailedError || err instanceof WaitTimeoutError) return EXIT.jobFailed;
  if (
    err instanceof AuthenticationError ||
    err instanceof PaymentRequiredError ||
    err instanceof PermissionDeniedError
  )
    return EXIT.auth;
  if (err instanceof RateLimitError) return EXIT.rateLimited;
  if (err instanceof ConnectionError || err instanceof ServiceUnavailableError || err instanceof ServerError)
    return EXIT.unavailable;
  if (err instanceof VozError) return EXIT.rejected;
  return EXIT.failure;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const p = parseArgs(argv);
    const cmd = p.args[0];
    if (p.flags.help || !cmd) {
      process.stdout.write(USAGE + '\n');
      return p.flags.help ? EXIT.ok : EXIT.usage;
    }
    const run = { narrar, factura, lote, render, voces, feed }[cmd];
    if (!run) throw new UsageError(`orden desconocida: ${cmd}`);
    await run(p);
    return EXIT.ok;
  } catch (err) {
    const code = exitCodeFor(err);
    const e = err as VozError;
    const extra =
      err instanceof VozError
        ? ` [${e.status || 'sin respuesta'} ${e.code}${e.requestId ? `, ${e.requestId}` : ''}]`
        : '';
    process.stderr.write(
      `\nvoz: ${(err as Error).message}${extra}\n${code === EXIT.usage ? USAGE + '\n' : ''}`,
    );
    return code;
  }
}

// Run when executed (the bin), not when imported by tests.
const invoked = process.argv[1] ?? '';
if (/(^|[\\/])(voz|cli)(\.[cm]?js)?$/.test(invoked))
  void main(process.argv.slice(2)).then((code) => process.exit(code));
