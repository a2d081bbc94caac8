// Pronunciation lexicons and SSML over HTTP against the local runtime (emulators + espeak-ng): CRUD for paid keys,
// limits as 422s, the lexicon in dry runs AND in what the engine really receives (a wrapper records espeak-ng's
// stdin and arguments), in both locales; SSML refusals name their position; a 2 s break lengthens the audio.
// /convert/pdf takes lexicons and retention_days too, as multipart fields and next to an upload_id.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { DynamoAudioRepository } from '../../lambdas/narration/adapters/audio-repository';
import { generateKey, hashKey } from '../../lambdas/shared/auth/keys';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { tempDir } from '../helpers/env';
import { ffprobe, postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(120_000);

function realEspeak(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v espeak-ng'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}
// The espeak-ng program is required (the calls it receives are what several tests check): `npm test` installs it
// on a root Debian machine (scripts/ensure-install.cjs); elsewhere this file fails, naming the fix, instead of skipping.
const ESPEAK = realEspeak();
if (!ESPEAK) throw new Error('espeak-ng is not installed: apt-get install espeak-ng');

// ESPEAK_BIN is a wrapper that keeps each call's arguments and input, then runs the real program.
const dir = tempDir('lexicon-e2e-');
const binDir = join(dir.path, 'bin');
const captureDir = join(dir.path, 'capture');
let rt: TestRuntime;
let key: string;

beforeAll(async () => {
  mkdirSync(binDir);
  mkdirSync(captureDir);
  writeFileSync(
    join(binDir, 'espeak-ng'),
    `#!/bin/sh\nf="${captureDir}/$$"\nprintf '%s\\n' "$@" > "$f.args"\ntee "$f.in" | "${ESPEAK}" "$@"\n`,
  );
  chmodSync(join(binDir, 'espeak-ng'), 0o755);
  rt = await startRuntime(
    {
      FREE_PER_HOUR: '1000',
      FREE_PER_DAY: '1000',
      SPEECH_ENGINE: 'espeak-cli',
      ESPEAK_BIN: join(binDir, 'espeak-ng'),
    },
    { startWorker: false },
  );
  key = generateKey();
  await new DynamoKeyStore(dynamo(), rt.emulators.tableNames.keys).put({
    keyHash: hashKey(key),
    keyPrefix: key.slice(0, 10),
    plan: 'pro',
    status: 'active',
    email: 'editorial@example.com',
    createdAt: new Date().toISOString(),
    accountId: 'cus_lexicon_e2e',
  });
});
afterAll(async () => {
  await rt.stop();
  dir.cleanup();
});

const auth = () => ({ authorization: `Bearer ${key}` });
const put = (name: string, body: unknown, headers: Record<string, string> = auth()) =>
  fetch(rt.url(`/v1/lexicons/${name}`), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
type Detail = { detail: { loc: (string | number)[]; msg: string; type: string }[] };

/** espeak-ng calls made while `fn` runs: their arguments and input. */
async function espeakCalls(fn: () => Promise<void>): Promise<{ args: string[]; input: string }[]> {
  const before = new Set(readdirSync(captureDir));
  await fn();
  return readdirSync(captureDir)
    .filter((f) => f.endsWith('.args') && !before.has(f))
    .map((f) => ({
      args: readFileSync(join(captureDir, f), 'utf8').trim().split('\n'),
      input: readFileSync(join(captureDir, f.replace(/\.args$/, '.in')), 'utf8'),
    }))
    .filter((c) => !c.args.includes('--version')); // the engine's availability check
}

const MARCAS = {
  language: '*',
  entries: [
    { grapheme: 'Wi-Fi', alias: 'guaifai' },
    { grapheme: 'SQL', alias: 'sicuel', phoneme: 'ˈsi.kwel' },
    { grapheme: 'vozdocs', alias: 'voz docs', match_case: false },
  ],
};

describe('paid keys only', () => {
  test.each([
    ['GET', '/v1/lexicons'],
    ['GET', '/v1/lexicons/marcas'],
    ['PUT', '/v1/lexicons/marcas'],
    ['DELETE', '/v1/lexicons/marcas'],
  ])('%s %s without a key → 401 naming the fix', async (method, path) => {
    const res = await fetch(rt.url(path), {
      method,
      headers: { 'content-type': 'application/json' },
      ...(method === 'PUT' ? { body: JSON.stringify(MARCAS) } : {}),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/Authorization: Bearer/);
  });

  test('a free-tier conversion naming a lexicon → 401', async () => {
    const res = await postJson(rt.url('/convert/text?dry_run=true'), { text: 'Hola', lexicons: ['marcas'] });
    expect(res.status).toBe(401);
  });
});

describe('CRUD and limits', () => {
  test('create (201), replace (200), read, list', async () => {
    const created = await put('marcas', { ...MARCAS, entries: MARCAS.entries.slice(0, 1) });
    expect(created.status).toBe(201);
    const replaced = await put('marcas', MARCAS);
    expect(replaced.status).toBe(200);
    const got = await fetch(rt.url('/v1/lexicons/marcas'), { headers: auth() });
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({
      name: 'marcas',
      language: '*',
      default: false,
      entries: MARCAS.entries,
    });
    const list = (await (await fetch(rt.url('/v1/lexicons'), { headers: auth() })).json()) as {
      lexicons: { name: string; entries: number }[];
      limits: Record<string, number>;
    };
    expect(list.lexicons).toEqual([expect.objectContaining({ name: 'marcas', entries: 3 })]);
    expect(list.limits).toMatchObject({ lexicons: 100, entries: 1000 });
  });

  test.each([
    [
      'too many entries',
      { entries: Array.from({ length: 1001 }, (_, i) => ({ grapheme: `p${i}`, alias: 'x' })) },
      ['body', 'entries'],
    ],
    [
      'grapheme too long',
      { entries: [{ grapheme: 'a'.repeat(101), alias: 'b' }] },
      ['body', 'entries', 0, 'grapheme'],
    ],
    ['neither alias nor phoneme', { entries: [{ grapheme: 'ONU' }] }, ['body', 'entries', 0]],
    [
      'phoneme not IPA',
      { entries: [{ grapheme: 'ONU', phoneme: '<x/>' }] },
      ['body', 'entries', 0, 'phoneme'],
    ],
    [
      'duplicate grapheme',
      {
        entries: [
          { grapheme: 'ONU', alias: 'a' },
          { grapheme: 'ONU', alias: 'b' },
        ],
      },
      ['body', 'entries', 1, 'grapheme'],
    ],
    [
      'unknown language',
      { language: 'en-US', entries: [{ grapheme: 'ONU', alias: 'o' }] },
      ['body', 'language'],
    ],
    [
      'over 40 KB',
      { entries: Array.from({ length: 900 }, (_, i) => ({ grapheme: `g${i}`, alias: 'alias '.repeat(10) })) },
      ['body', 'entries'],
    ],
  ])('%s → 422 naming the field', async (_name, body, loc) => {
    const res = await put('limites', body);
    expect(res.status).toBe(422);
    const detail = ((await res.json()) as Detail).detail;
    expect(detail.map((d) => d.loc)).toContainEqual(loc);
  });

  test('a bad name → 422 on the path', async () => {
    const res = await put('mal%20nombre', MARCAS);
    expect(res.status).toBe(422);
    expect(((await res.json()) as Detail).detail[0]!.loc).toEqual(['path', 'name']);
  });

  test('unknown lexicon: 404 to read or delete, 422 when a conversion names it', async () => {
    expect((await fetch(rt.url('/v1/lexicons/nada'), { headers: auth() })).status).toBe(404);
    expect((await fetch(rt.url('/v1/lexicons/nada'), { method: 'DELETE', headers: auth() })).status).toBe(
      404,
    );
    const res = await postJson(
      rt.url('/convert/text?dry_run=true'),
      { text: 'Hola', lexicons: ['marcas', 'nada'] },
      auth(),
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as Detail).detail[0]!.loc).toEqual(['body', 'lexicons', 1]);
  });
});

describe('the lexicon changes what is spoken, in both locales', () => {
  const TEXT = 'Conecta el Wi-Fi y abre SQL en VOZDOCS. Un wi-fi no.';
  test.each(['es-MX-Mia', 'es-ES-Lucia'])('dry run with %s', async (voice) => {
    const res = await postJson(
      rt.url('/convert/text?dry_run=true'),
      { text: TEXT, voice, lexicons: ['marcas'] },
      auth(),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { spoken_text: string; lexicons: string[]; chars: number };
    expect(body.spoken_text).toBe('Conecta el guaifai y abre sicuel en voz docs. Un wi-fi no.');
    expect(body.lexicons).toEqual(['marcas']);
    expect(body.chars).toBe([...TEXT].length);
  });

  test.each([
    ['es-MX-Mia', 'es-419+f3'],
    ['es-ES-Lucia', 'es+f4'],
  ])('espeak-ng receives the alias (%s)', async (voice, espeakVoice) => {
    let status = 0;
    const calls = await espeakCalls(async () => {
      const res = await postJson(
        rt.url('/convert/text'),
        { text: TEXT, voice, lexicons: ['marcas'] },
        auth(),
      );
      status = res.status;
    });
    expect(status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args).toContain(espeakVoice);
    expect(calls[0]!.input).toBe('Conecta el guaifai y abre sicuel en voz docs. Un wi-fi no.');
    // Without the lexicon the engine gets the words as written.
    const plain = await espeakCalls(async () => {
      await postJson(rt.url('/convert/text'), { text: TEXT, voice }, auth());
    });
    expect(plain[0]!.input).toContain('Wi-Fi');
  });

  test('per language: an es-ES lexicon is not applied to a Mexican voice (with a warning); the default applies when none is named', async () => {
    expect(
      (
        await put('espana', {
          language: 'es-ES',
          default: true,
          entries: [{ grapheme: 'coche', alias: 'carro' }],
        })
      ).status,
    ).toBe(201);
    const mx = (await (
      await postJson(rt.url('/convert/text?dry_run=true'), { text: 'El coche.', voice: 'es-MX-Mia' }, auth())
    ).json()) as Record<string, unknown>;
    expect(mx.spoken_text).toBe('El coche.');
    expect(mx.warnings).toEqual([expect.stringMatching(/'espana' is for es-ES/)]);
    const es = (await (
      await postJson(
        rt.url('/convert/text?dry_run=true'),
        { text: 'El coche.', voice: 'es-ES-Lucia' },
        auth(),
      )
    ).json()) as Record<string, unknown>;
    expect(es.spoken_text).toBe('El carro.');
    expect(es.lexicons).toEqual(['espana']);
    // A second default moves it.
    expect((await put('marcas', { ...MARCAS, default: true })).status).toBe(200);
    const list = (await (await fetch(rt.url('/v1/lexicons'), { headers: auth() })).json()) as {
      lexicons: { name: string; default: boolean }[];
    };
    expect(list.lexicons.filter((l) => l.default).map((l) => l.name)).toEqual(['marcas']);
  });

  test('deleted: gone from reads and from conversions', async () => {
    expect((await put('borrame', MARCAS)).status).toBe(201);
    const del = await fetch(rt.url('/v1/lexicons/borrame'), { method: 'DELETE', headers: auth() });
    expect(del.status).toBe(204);
    expect((await fetch(rt.url('/v1/lexicons/borrame'), { headers: auth() })).status).toBe(404);
    expect(
      (await postJson(rt.url('/convert/text?dry_run=true'), { text: 'Hola', lexicons: ['borrame'] }, auth()))
        .status,
    ).toBe(422);
  });
});

describe('SSML on /convert/text', () => {
  test('malformed markup → 422 naming line and column', async () => {
    const res = await postJson(rt.url('/convert/text'), {
      text: '<speak>\nHola <foo/></speak>',
      text_type: 'ssml',
    });
    expect(res.status).toBe(422);
    const d = ((await res.json()) as Detail).detail[0]!;
    expect(d.loc).toEqual(['body', 'text']);
    expect(d.msg).toMatch(/^Invalid SSML at line 2, column 6: <foo> is not supported/);
  });

  test('an XXE is refused before anything is read', async () => {
    const res = await postJson(rt.url('/convert/text'), {
      text: '<!DOCTYPE speak [<!ENTITY x SYSTEM "file:///etc/passwd">]><speak>&x;</speak>',
      text_type: 'ssml',
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Detail).detail[0]!.msg).toMatch(/DOCTYPE is not accepted/);
  });

  test('chars counts the spoken text; the dry run shows the words', async () => {
    const res = await postJson(rt.url('/convert/text?dry_run=true'), {
      text: '<speak>Son <say-as interpret-as="characters">ONU</say-as> y <sub alias="Organización Mundial de la Salud">OMS</sub>.</speak>',
      text_type: 'ssml',
    });
    const body = (await res.json()) as { chars: number; spoken_text: string };
    expect(body.chars).toBe('Son ONU y OMS.'.length);
    expect(body.spoken_text).toBe('Son o ene u y Organización Mundial de la Salud .');
  });

  test('<break time="2s"/> makes the audio about 2 s longer (ffprobe)', async () => {
    const durations: number[] = [];
    const argsOf: string[][] = [];
    const inputs: string[] = [];
    for (const text of ['<speak>Hola y adiós.</speak>', '<speak>Hola <break time="2s"/> y adiós.</speak>']) {
      const calls = await espeakCalls(async () => {
        const res = await postJson(rt.url('/convert/text'), { text, text_type: 'ssml', fmt: 'wav' });
        expect(res.status).toBe(200);
        const { audio_url } = (await res.json()) as { audio_url: string };
        const audio = await fetch(rt.url(audio_url));
        const file = join(dir.path, `break-${durations.length}.wav`);
        writeFileSync(file, Buffer.from(await audio.arrayBuffer()));
        durations.push(ffprobe(file).duration);
      });
      argsOf.push(calls[0]!.args);
      inputs.push(calls[0]!.input);
    }
    // Plain words go as plain text; with markup espeak-ng reads its own SSML (-m).
    expect(argsOf[0]).not.toContain('-m');
    expect(argsOf[1]).toContain('-m');
    expect(inputs[1]).toBe('<speak>Hola <break time="2000ms"/> y adiós.</speak>');
    expect(durations[1]! - durations[0]!).toBeGreaterThan(1.8);
    expect(durations[1]! - durations[0]!).toBeLessThan(2.4);
  });
});

describe('/convert/pdf: lexicons and retention_days, multipart and upload_id', () => {
  const PDF_TEXT = 'Conecta el Wi-Fi y abre SQL en la oficina.';
  const SPOKEN = 'Conecta el guaifai y abre sicuel en la oficina.';
  let pdf: Buffer;
  beforeAll(async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([612, 792]).drawText(PDF_TEXT, { x: 72, y: 700, size: 12, font });
    pdf = Buffer.from(await doc.save());
    expect((await put('pdfmarcas', { language: '*', entries: MARCAS.entries.slice(0, 2) })).status).toBe(201);
  });

  const multipart = (
    fields: Record<string, string>,
    query = '',
    headers: Record<string, string> = auth(),
  ) => {
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'doc.pdf');
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return fetch(rt.url(`/convert/pdf${query}`), { method: 'POST', headers, body: form });
  };
  /** An upload slot with the PDF sent to S3 (the presigned POST), as a client of POST /convert/pdf/upload does. */
  async function uploaded(): Promise<string> {
    const res = await fetch(rt.url('/convert/pdf/upload'), { method: 'POST', headers: auth() });
    expect(res.status).toBe(201);
    const slot = (await res.json()) as {
      upload_id: string;
      upload: { url: string; fields: Record<string, string> };
    };
    const form = new FormData();
    for (const [k, v] of Object.entries(slot.upload.fields)) form.append(k, v);
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'doc.pdf');
    expect((await fetch(slot.upload.url, { method: 'POST', body: form })).status).toBeLessThan(300);
    return slot.upload_id;
  }
  const expiresInDays = async (audioId: string) => {
    const rec = await new DynamoAudioRepository(dynamo(), rt.emulators.tableNames.audio).get(audioId);
    return (rec!.expiresAt - Date.parse(rec!.createdAt) / 1000) / 86400;
  };

  test('dry run (multipart): spoken_text has the alias; lexicons named in the answer', async () => {
    const res = await multipart({ lexicons: 'pdfmarcas' }, '?dry_run=true');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { spoken_text: string; lexicons: string[] };
    expect(body.spoken_text).toBe(SPOKEN);
    expect(body.lexicons).toEqual(['pdfmarcas']);
  });

  test('multipart: espeak-ng receives the alias; retention_days=2 is kept', async () => {
    let body: Record<string, unknown> = {};
    const calls = await espeakCalls(async () => {
      const res = await multipart({ lexicons: 'pdfmarcas', retention_days: '2', voice: 'es-ES-Lucia' });
      expect(res.status).toBe(200);
      body = (await res.json()) as Record<string, unknown>;
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args).toContain('es+f4');
    expect(calls[0]!.input).toBe(SPOKEN);
    expect(body.lexicons).toEqual(['pdfmarcas']);
    expect(await expiresInDays(body.audio_id as string)).toBeCloseTo(2, 3);
  });

  test('upload_id (JSON): espeak-ng receives the alias; retention_days=3 is kept', async () => {
    const uploadId = await uploaded();
    let body: Record<string, unknown> = {};
    const calls = await espeakCalls(async () => {
      const res = await postJson(
        rt.url('/convert/pdf'),
        { upload_id: uploadId, lexicons: ['pdfmarcas'], retention_days: 3 },
        auth(),
      );
      expect(res.status).toBe(200);
      body = (await res.json()) as Record<string, unknown>;
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args).toContain('es-419+f3');
    expect(calls[0]!.input).toBe(SPOKEN);
    expect(await expiresInDays(body.audio_id as string)).toBeCloseTo(3, 3);
  });

  test('refusals: unknown lexicon → 422 at body.lexicons; free tier retention_days → 422; over the plan → 422', async () => {
    const unknown = await multipart({ lexicons: 'pdfmarcas,nada' });
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as Detail).detail[0]!.loc).toEqual(['body', 'lexicons', 1]);
    const free = await multipart({ retention_days: '7' }, '', {});
    expect(free.status).toBe(422);
    expect(((await free.json()) as Detail).detail[0]).toMatchObject({
      loc: ['body', 'retention_days'],
      type: 'retention_not_allowed',
    });
    const uploadId = await uploaded();
    const over = await postJson(rt.url('/convert/pdf'), { upload_id: uploadId, retention_days: 31 }, auth());
    expect(over.status).toBe(422);
    expect(((await over.json()) as Detail).detail[0]!.msg).toMatch(/at most 30/);
    // The refused request did not use up the upload: it converts afterwards.
    expect((await postJson(rt.url('/convert/pdf'), { upload_id: uploadId }, auth())).status).toBe(200);
  });
});
