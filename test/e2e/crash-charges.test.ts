// Crash test (bounded, loopback only): `npm start` in a child process leading its own process group, a burst of free
// narrations from a few addresses (short texts narrated in the request, longer ones queued, some with an
// Idempotency-Key), the whole group killed with SIGKILL at three moments (early, mid-burst, late), and a restart on
// the same data after each. Afterwards, for every address: the free-tier usage equals the conversions delivered
// (records done with their audio), every 200 answered before a kill still serves its audio, every job finished, and
// an idempotent request whose answer was lost to a kill gets its result on retry within 10 s, charged once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { tempDir } from '../helpers/env';
import { startLocalProcess, type LocalProcess } from '../helpers/local-process';

jest.setTimeout(300_000);

const IPS = ['198.51.100.11', '198.51.100.12', '198.51.100.13'];
const ENV = {
  TRUST_PROXY: '1',
  FREE_PER_HOUR: '1000',
  FREE_PER_DAY: '1000',
  SYNC_MAX_CHARS: '300',
  WAIT_WINDOW_S: '0',
};
const SHORT = 'Una frase corta para narrar ahora mismo, número ';
const LONG = 'Un texto más largo que va a la cola de trabajos y se narra aparte. '.repeat(6);

const data = tempDir('crash-');
let rt: LocalProcess | undefined;
afterAll(async () => {
  await rt?.killGroup();
  data.cleanup();
});

interface Sent {
  ip: string;
  key?: string;
  body: string;
  status?: number;
  audioId?: string;
}

function post(base: string, s: Sent): Promise<void> {
  return fetch(`${base}/convert/text`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': s.ip,
      ...(s.key ? { 'idempotency-key': s.key } : {}),
    },
    body: s.body,
  }).then(
    async (res) => {
      s.status = res.status;
      if (res.status === 200 || res.status === 202)
        s.audioId = ((await res.json()) as { audio_id: string }).audio_id;
    },
    () => undefined, // the connection died with the runtime
  );
}

/** One burst against a fresh start on the same data; the group is killed once `killAfter` answers came back. */
async function burst(round: number, n: number, killAfter: number): Promise<Sent[]> {
  rt = await startLocalProcess(data.path, ENV);
  const sent: Sent[] = Array.from({ length: n }, (_, i) => ({
    ip: IPS[i % IPS.length]!,
    ...(i % 3 === 0 ? { key: `crash-${round}-${i}` } : {}),
    body: JSON.stringify({ text: i % 4 === 3 ? LONG + i : `${SHORT}${round}-${i}.` }),
  }));
  let answered = 0;
  let killed!: () => void;
  const kill = new Promise<void>((r) => (killed = r));
  const runtime = rt;
  const all = sent.map((s) =>
    post(runtime.narrationUrl, s).then(() => {
      if (s.status !== undefined && ++answered >= killAfter) killed();
    }),
  );
  await Promise.race([kill, Promise.all(all)]);
  await runtime.killGroup();
  await Promise.all(all);
  return sent;
}

test('kills at three moments: usage equals deliveries per address, 200s keep their audio, lost idempotent answers come back', async () => {
  const sent: Sent[] = [];
  sent.push(...(await burst(1, 18, 1))); // early
  sent.push(...(await burst(2, 18, 8))); // mid-burst
  sent.push(...(await burst(3, 18, 16))); // late
  expect(sent.filter((s) => s.status === undefined).length).toBeGreaterThan(0); // some answers were lost

  // The last start: it re-queues what the kills left unfinished.
  rt = await startLocalProcess(data.path, ENV);
  const env = JSON.parse(readFileSync(join(data.path, 'endpoints.json'), 'utf8')) as Record<string, string>;
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
      region: env.AWS_REGION,
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
    }),
  );
  const records = async () =>
    ((await db.send(new ScanCommand({ TableName: env.AUDIO_TABLE! }))).Items ?? []) as {
      audioId: string;
      status: string;
      owner?: string;
    }[];

  // Idempotent requests whose answer was lost: the retry gets the result within 10 s (a 202 counts: it names the
  // same job), and is the same conversion (no second charge: checked with the totals below).
  // A client that follows the 409's Retry-After while the dead request's lease (6 s) runs out.
  for (const s of sent.filter((x) => x.key && x.status === undefined)) {
    const t = Date.now();
    await post(rt.narrationUrl, s);
    while (s.status === 409 && Date.now() - t < 10_000) {
      await new Promise((r) => setTimeout(r, 1000));
      await post(rt.narrationUrl, s);
    }
    expect(Date.now() - t).toBeLessThan(10_000);
    expect([200, 202]).toContain(s.status);
  }

  // Every job finishes (bounded wait on the records, not a sleep).
  const deadline = Date.now() + 120_000;
  let pending = (await records()).filter((r) => r.status === 'queued' || r.status === 'processing');
  while (pending.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    pending = (await records()).filter((r) => r.status === 'queued' || r.status === 'processing');
  }
  expect(pending).toEqual([]);

  const all = await records();
  const quotas = new DynamoQuotaStore(db, env.QUOTAS_TABLE!);
  for (const ip of IPS) {
    const subject = ipSubject(ip);
    const delivered = all.filter((r) => r.owner === subject && r.status === 'done').length;
    const [, day] = await quotas.peek(subject, [
      { period: 'hour', limit: 1000 },
      { period: 'day', limit: 1000 },
    ]);
    expect({ ip, charged: day!.used }).toEqual({ ip, charged: delivered });
  }
  // Every 200 (and 202) answered before a kill still serves its audio.
  for (const s of sent.filter((x) => x.audioId)) {
    const res = await fetch(`${rt.narrationUrl}/audio/${s.audioId}`, { redirect: 'manual' });
    const why = res.status === 302 ? '' : await res.text();
    expect({ id: s.audioId, answered: s.status, status: res.status, why }).toEqual({
      id: s.audioId,
      answered: s.status,
      status: 302,
      why: '',
    });
  }
  db.destroy();
});
