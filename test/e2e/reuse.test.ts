// "Nothing narrated twice" over HTTP against the local runtime (real espeak-ng, dynalite, s3rver): the same text
// sent twice by one caller is answered the second time with the first audio — no new conversion record, no new
// audio object — and GET /pay/status shows one charge. Another caller, or the same one after deleting it, gets a
// new narration (the negative controls), and so does another `engine` or `loudness` (issue #28). Speed is measured
// in bench/reuse.bench.ts, not asserted here.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { awsDeps } from '../../lambdas/narration/deps';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { putApiKey } from '../helpers/api-keys';
import { chargedSince, countersNow } from '../helpers/quota-window';
import { postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(120_000);

let rt: TestRuntime;
const KEY = 'key_reuse_' + 'a'.repeat(32);
/** ~950 characters of Spanish prose, narrated within the request (the 2,600-character case is in the bench). */
const TEXT = Array.from(
  { length: 6 },
  (_, i) =>
    `Párrafo ${i + 1}. La biblioteca municipal abrió sus puertas a las nueve de la mañana y recibió a cientos de lectores que buscaban refugio del calor del verano.`,
).join('\n\n');

beforeAll(async () => {
  rt = await startRuntime(
    { FREE_PER_HOUR: '5', FREE_PER_DAY: '20', SYNC_MAX_CHARS: '3000' },
    { documents: false },
  );
  await putApiKey(rt, KEY, 'pro');
});
afterAll(async () => rt?.stop());

interface Conversion {
  audio_id: string;
  audio_url: string;
  duration_s: number;
  chars: number;
  reused?: boolean;
}

/** Conversion records in the audio table (not fingerprint pointers or upload slots). */
async function conversions(): Promise<string[]> {
  const out = await dynamo().send(new ScanCommand({ TableName: rt.emulators.tableNames.audio }));
  return (out.Items ?? []).map((i) => i.audioId as string).filter((id) => !id.includes('#'));
}

/** This client's free-tier counters (every anonymous request comes from 127.0.0.1), for chargedSince. */
const usage = () => countersNow(awsDeps().quotas, ipSubject('127.0.0.1'), ['hour', 'day']);

async function audioBytes(id: string): Promise<{ status: number; etag: string | null; length: number }> {
  const res = await fetch(rt.url(`/audio/${id}.mp3`));
  const buf = Buffer.from(await res.arrayBuffer());
  return { status: res.status, etag: res.headers.get('etag'), length: buf.length };
}

test('free tier: the same text twice → the second answer is the first audio, one conversion, one charge', async () => {
  const before = await usage();
  const first = await postJson(rt.url('/convert/text'), { text: TEXT });
  expect(first.status).toBe(200);
  const a = (await first.json()) as Conversion;
  expect(a.reused).toBeUndefined();
  const records = await conversions();
  const fileBefore = await audioBytes(a.audio_id);
  expect(fileBefore.status).toBe(200);

  const second = await postJson(rt.url('/convert/text'), { text: TEXT });
  expect(second.status).toBe(200);
  const b = (await second.json()) as Conversion;
  expect(b).toEqual({ ...a, reused: true });
  expect(await conversions()).toEqual(records); // no new conversion, so no synthesis
  expect(await audioBytes(b.audio_id)).toEqual(fileBefore); // the same object, untouched
  expect(await chargedSince(awsDeps().quotas, before)).toEqual([1, 1]); // charged once
  // The answer carries no RateLimit headers: nothing was counted.
  expect(second.headers.get('ratelimit-remaining')).toBeNull();
});

test('negative controls: another caller (a key) is narrated anew; after DELETE the repeat is narrated anew', async () => {
  const auth = { authorization: `Bearer ${KEY}` };
  /** A conversion answered 200 (the text is under SYNC_MAX_CHARS: narrated within the request). */
  const convert = async (headers?: Record<string, string>): Promise<Conversion> => {
    const res = await postJson(rt.url('/convert/text'), { text: TEXT }, headers);
    const body = (await res.json()) as Conversion;
    expect({ status: res.status, body }).toMatchObject({ status: 200 });
    return body;
  };
  const free = await convert();
  const paid1 = await convert(auth);
  expect(paid1.audio_id).not.toBe(free.audio_id);
  expect(paid1.reused).toBeUndefined();
  const paid2 = await convert(auth);
  expect(paid2).toEqual({ ...paid1, reused: true });

  const del = await fetch(rt.url(`/audio/${paid1.audio_id}`), { method: 'DELETE', headers: auth });
  expect(del.status).toBe(204);
  // Deleting the key's audio never touches the free caller's.
  expect((await audioBytes(free.audio_id)).status).toBe(200);
  const paid3 = await convert(auth);
  expect(paid3.audio_id).not.toBe(paid1.audio_id);
  expect(paid3.reused).toBeUndefined();
  expect((await audioBytes(paid3.audio_id)).status).toBe(200);
});

test('the engine and the loudness are part of the request: another of either is narrated anew, -16 named is reused', async () => {
  const auth = { authorization: `Bearer ${KEY}` };
  const text = `${TEXT}\n\nNivel y motor.`;
  const post = async (extra: Record<string, unknown>) =>
    (await (await postJson(rt.url('/convert/text'), { text, ...extra }, auth)).json()) as Conversion;
  const base = await post({});
  expect(base.reused).toBeUndefined();
  // The default target asked for by name is the same audio.
  expect(await post({ loudness: -16 })).toEqual({ ...base, reused: true });
  const off = await post({ loudness: 'off' });
  const generative = await post({ engine: 'generative' });
  for (const other of [off, generative]) {
    expect(other.reused).toBeUndefined();
    expect(other.audio_id).not.toBe(base.audio_id);
  }
  expect(off.audio_id).not.toBe(generative.audio_id);
  // Each one is then reused for its own repeat.
  expect(await post({ engine: 'generative' })).toEqual({ ...generative, reused: true });
});
