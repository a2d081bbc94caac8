// Business metrics: a conversion (POST /convert/text) and a render (POST /v1/render), run through their real
// handlers with in-memory ports, print EMF blobs with the right namespace, dimensions and values on stdout (what
// CloudWatch turns into metrics). Also: quota rejections, render failures, worker jobs, when EMF is on, and the
// throttled-attempt counter of an AWS client (a Polly client answered by a stub request handler: no network).
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import type { Context, SQSEvent } from 'aws-lambda';
import { apiEvent as routeEvent } from '../helpers/api-event';
import { makeHandler as makeRenderHandler } from '../../lambdas/documents/handlers/render';
import type { DocumentsDeps } from '../../lambdas/documents/deps';
import { parseRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { TEMPLATES } from '../../lambdas/documents/domain/template-registry';
import { makeHandler as makeConvertText } from '../../lambdas/narration/handlers/convert-text';
import { makeHandler as makeWorker } from '../../lambdas/narration/handlers/worker';
import type { NarrationDeps } from '../../lambdas/narration/deps';
import type { Synthesizer } from '../../lambdas/narration/ports';
import { pollyClient } from '../../lambdas/narration/adapters/polly';
import { config as documentsConfig } from '../../lambdas/documents/config';
import { config } from '../../lambdas/narration/config';
import { resetConfig } from '../../lambdas/shared/config';
import {
  EmfMetrics,
  InMemoryMetrics,
  emfEnabled,
  flushMetrics,
  metricsFor,
  useMetrics,
} from '../../lambdas/shared/observability/metrics';
import { METRICS_NAMESPACE } from '../../lambdas/shared/observability/names';
import {
  slotsFor,
  type QuotaDecision,
  type QuotaStore,
  type WindowRule,
} from '../../lambdas/shared/quota/windows';
import { SynthesizeSpeechCommand } from '@aws-sdk/client-polly';
import { FakeAudioRepository } from '../fakes/narration';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/** EMF blobs printed on stdout while `fn` runs (log lines, on stdout or stderr, are swallowed). */
async function emfLines(fn: () => unknown | Promise<unknown>): Promise<Json[]> {
  let raw = '';
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => {
    raw += String(chunk);
    return true;
  }) as never);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((() => true) as never);
  try {
    await fn();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return raw
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Json)
    .filter((j) => j._aws !== undefined);
}

/** The blob whose metric list includes `name`. */
function blobWith(lines: Json[], name: string): Json | undefined {
  return lines.find((l) =>
    (l._aws.CloudWatchMetrics[0].Metrics as { Name: string }[]).some((m) => m.Name === name),
  );
}

function decision(subject: string, rules: WindowRule[], now: Date, allowed: boolean): QuotaDecision {
  const slots = slotsFor(subject, rules, now);
  const all = slots.map((s) => ({ ...s, remaining: allowed ? s.limit - 1 : 0 }));
  return { allowed, charged: allowed ? slots : [], binding: all[0]!, all, slots };
}

function quotas(allowed: boolean): QuotaStore {
  return {
    consume: async (subject, rules, now = new Date()) => decision(subject, rules, now, allowed),
    refund: async () => undefined,
    commit: async () => undefined,
    peek: async () => [],
  };
}

const growth = { putIfAbsent: async () => true, add: async () => ({}), getMany: async () => new Map() };

/** One second of silence per chunk at 16 kHz: enough for the WAV pipeline, no speech engine needed. */
const silence: Synthesizer = {
  engine: 'test',
  maxChars: 3000,
  concurrency: 2,
  synthesize: async () => ({ samples: new Int16Array(16_000), sampleRate: 16_000 }),
};

function narrationDeps(opts: { allowed?: boolean; audio?: FakeAudioRepository } = {}): NarrationDeps {
  const audio = opts.audio ?? new FakeAudioRepository();
  const deps: Partial<NarrationDeps> = {
    config: config(),
    audio,
    store: {
      putAudioFile: async () => undefined,
      presignAudio: async () => 'http://127.0.0.1/never',
      presignSegment: async () => 'http://127.0.0.1/never',
      deleteAudio: async () => undefined,
      putJobText: async () => undefined,
      getJobText: async () => 'Un texto largo que el trabajador narra en segundo plano.',
      deleteJobText: async () => undefined,
      putSegment: async () => undefined,
      putTimings: async () => undefined,
      getTimings: async () => undefined,
    },
    queue: { enqueue: async () => undefined },
    quotas: quotas(opts.allowed ?? true),
    keys: { findByHash: async () => undefined } as unknown as NarrationDeps['keys'],
    growth,
    synthesizer: async () => silence,
    now: () => new Date(),
    tmpDir: tmpdir(),
  };
  return deps as NarrationDeps;
}

const apiEvent = (method: string, path: string, body: unknown) =>
  routeEvent(method, path, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    requestId: randomUUID(),
  });

const context = {
  functionName: 'test-fn',
  awsRequestId: 'lambda-req',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

const restore: (() => void)[] = [];
beforeEach(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  resetConfig();
});
afterEach(() => {
  while (restore.length) restore.pop()!();
  delete process.env.POWERTOOLS_METRICS_DISABLED;
});

describe('EMF for a conversion (POST /convert/text)', () => {
  test('an inline conversion prints Conversions by format and CharactersNarrated under VozDocs/Narration', async () => {
    restore.push(useMetrics('narration', new EmfMetrics('narration')));
    const handler = makeConvertText(narrationDeps());
    const text = 'Hola, esto es una prueba corta de narración.';
    let status = 0;
    const lines = await emfLines(async () => {
      const res = (await handler(apiEvent('POST', '/convert/text', { text, fmt: 'wav' }), context)) as {
        statusCode: number;
      };
      status = res.statusCode;
    });
    expect(status).toBe(200);
    const blob = blobWith(lines, 'Conversions');
    expect(blob).toBeDefined();
    expect(blob!._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE.narration,
      Dimensions: expect.arrayContaining([['service'], ['service', 'format']]),
    });
    expect(blob).toMatchObject({ service: 'narration', format: 'wav', Conversions: 1 });
    const chars = blobWith(lines, 'CharactersNarrated');
    expect(chars).toMatchObject({ service: 'narration', CharactersNarrated: [...text].length });
    expect(chars!._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
  });

  test('a 429 prints QuotaRejections with the route, and no conversion', async () => {
    restore.push(useMetrics('narration', new EmfMetrics('narration')));
    const handler = makeConvertText(narrationDeps({ allowed: false }));
    const lines = await emfLines(() =>
      handler(apiEvent('POST', '/convert/text', { text: 'Hola mundo.', fmt: 'mp3' }), context),
    );
    expect(blobWith(lines, 'QuotaRejections')).toMatchObject({
      service: 'narration',
      route: 'POST /convert/text',
      QuotaRejections: 1,
    });
    expect(blobWith(lines, 'Conversions')).toBeUndefined();
  });
});

describe('the worker', () => {
  test('a finished job records its duration and characters; a failed attempt records JobFailures', async () => {
    const mem = new InMemoryMetrics();
    restore.push(useMetrics('narration', mem));
    const audio = new FakeAudioRepository();
    const records = audio.items;
    const now = new Date().toISOString();
    const base = { voice: 'es-MX-female', fmt: 'wav' as const, chars: 4000, plan: 'free' as const };
    records.set('job1', {
      ...base,
      audioId: 'job1',
      status: 'queued',
      createdAt: now,
      updatedAt: now,
      expiresAt: 0,
    });
    const worker = makeWorker(narrationDeps({ audio }));
    const sqs = (audioId: string): SQSEvent => ({
      Records: [
        {
          messageId: randomUUID(),
          body: JSON.stringify({ audioId }),
          attributes: { ApproximateReceiveCount: '1' },
        } as unknown as SQSEvent['Records'][number],
      ],
    });
    const voice = (await import('../../lambdas/narration/core/voices')).VOICES[0]!.id;
    records.get('job1')!.voice = voice;
    const ok = await worker(sqs('job1'), context);
    expect(ok.batchItemFailures).toEqual([]);
    expect(records.get('job1')!.status).toBe('done');
    expect(mem.total('CharactersNarrated')).toBe(4000);
    expect(mem.points.filter((p) => p.name === 'JobDurationMs')).toHaveLength(1);
    expect(mem.total('JobFailures')).toBe(0);

    // A job whose synthesis fails: the attempt fails, the message is reported back to SQS.
    records.set('job2', {
      ...base,
      voice,
      audioId: 'job2',
      status: 'queued',
      createdAt: now,
      updatedAt: now,
      expiresAt: 0,
    });
    const failing = makeWorker({
      ...narrationDeps({ audio }),
      synthesizer: async () => ({
        ...silence,
        synthesize: async () => Promise.reject(new Error('engine down')),
      }),
    });
    let bad = { batchItemFailures: [] as unknown[] };
    await emfLines(async () => {
      bad = await failing(sqs('job2'), context);
    });
    expect(bad.batchItemFailures).toHaveLength(1);
    expect(mem.total('JobFailures')).toBe(1);
  });
});

describe('EMF for a render (POST /v1/render)', () => {
  // A built-in template and a format rendered without Chromium (and without the free plan's PDF watermark).
  const [plain, plainFormat] = TEMPLATES.flatMap((t) =>
    (['csv', 'html', 'xlsx'] as const).map((f) => [t, f] as const),
  ).find(([t, format]) => {
    try {
      parseRenderRequest({ template: t.meta.slug, format, data: t.sample });
      return true;
    } catch {
      return false;
    }
  })!;
  const pdfTemplate = TEMPLATES[0]!;
  const renderDeps = (renderPdf: () => Promise<Buffer>, allowed = true): DocumentsDeps =>
    ({
      config: documentsConfig(),
      quotas: quotas(allowed),
      keys: { findByHash: async () => undefined },
      growth,
      results: { publish: async () => 'http://127.0.0.1/never' },
      renderer: async () => ({ renderPdf, renderPng: async () => Buffer.from([0x89]) }),
      now: () => new Date(),
    }) as unknown as DocumentsDeps;

  test('a rendered document prints DocumentsRendered and RenderDurationMs by format under VozDocs/Documents', async () => {
    restore.push(useMetrics('documents', new EmfMetrics('documents')));
    const handler = makeRenderHandler(renderDeps(async () => Buffer.from('%PDF-1.7 fake')));
    let status = 0;
    const lines = await emfLines(async () => {
      const res = (await handler(
        apiEvent('POST', '/v1/render', {
          template: plain.meta.slug,
          format: plainFormat,
          data: plain.sample,
        }),
        context,
      )) as { statusCode: number };
      status = res.statusCode;
    });
    expect(status).toBe(200);
    const blob = blobWith(lines, 'DocumentsRendered');
    expect(blob!._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE.documents,
      Dimensions: expect.arrayContaining([['service'], ['service', 'format']]),
      Metrics: expect.arrayContaining([
        { Name: 'DocumentsRendered', Unit: 'Count' },
        { Name: 'RenderDurationMs', Unit: 'Milliseconds' },
      ]),
    });
    expect(blob).toMatchObject({ service: 'documents', format: plainFormat, DocumentsRendered: 1 });
    expect(blob!.RenderDurationMs).toBeGreaterThanOrEqual(0);
  });

  test('a renderer fault prints RenderFailures (500); a quota refusal prints QuotaRejections (429)', async () => {
    restore.push(useMetrics('documents', new EmfMetrics('documents')));
    const broken = makeRenderHandler(renderDeps(async () => Promise.reject(new Error('Chromium crashed'))));
    const full = makeRenderHandler(renderDeps(async () => Buffer.from('%PDF'), false));
    const statuses: number[] = [];
    const lines = await emfLines(async () => {
      for (const h of [broken, full]) {
        const res = (await h(
          apiEvent('POST', '/v1/render', {
            template: pdfTemplate.meta.slug,
            format: 'pdf',
            data: pdfTemplate.sample,
          }),
          context,
        )) as { statusCode: number };
        statuses.push(res.statusCode);
      }
    });
    expect(statuses).toEqual([500, 429]);
    expect(blobWith(lines, 'RenderFailures')).toMatchObject({ format: 'pdf', RenderFailures: 1 });
    expect(blobWith(lines, 'QuotaRejections')).toMatchObject({
      route: 'POST /v1/render',
      QuotaRejections: 1,
    });
    expect(blobWith(lines, 'DocumentsRendered')).toBeUndefined();
  });
});

describe('when EMF is on', () => {
  test.each([
    [{ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' }, true],
    [{ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_METRICS_DISABLED: 'true' }, false],
    [{}, false],
    [{ POWERTOOLS_METRICS_DISABLED: 'false' }, true],
  ])('%j → %s', (env, on) => {
    expect(emfEnabled(env)).toBe(on);
  });

  test('off (local runtime, tests): nothing is printed', async () => {
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    const lines = await emfLines(() => {
      metricsFor('documents').add('RenderFailures', 'Count', 1);
      flushMetrics();
    });
    expect(lines).toEqual([]);
  });
});

describe('throttled attempts of an AWS client', () => {
  /** A request handler answering each call from a script, without any network. */
  function scripted(replies: ('throttle' | 'ok')[]) {
    let calls = 0;
    return {
      get calls() {
        return calls;
      },
      handler: {
        handle: async () => {
          const reply = replies[Math.min(calls++, replies.length - 1)];
          return reply === 'throttle'
            ? {
                response: {
                  statusCode: 400,
                  headers: { 'x-amzn-errortype': 'ThrottlingException', 'content-type': 'application/json' },
                  body: Readable.from([Buffer.from('{"message":"Rate exceeded"}')]),
                },
              }
            : {
                response: {
                  statusCode: 200,
                  headers: { 'content-type': 'audio/pcm' },
                  body: Readable.from([Buffer.alloc(320)]),
                },
              };
        },
      },
    };
  }
  const command = () =>
    new SynthesizeSpeechCommand({ Text: 'hola', OutputFormat: 'pcm', VoiceId: 'Mia', Engine: 'neural' });
  // pollyClient() instruments itself (PollyThrottles): the client the worker really uses.
  const client = (handler: unknown, maxAttempts: number) =>
    pollyClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      requestHandler: handler as never,
      maxAttempts,
      retryMode: 'standard',
    });

  test('each throttled attempt counts, also when a retry then succeeds', async () => {
    const mem = new InMemoryMetrics();
    restore.push(useMetrics('narration', mem));
    const script = scripted(['throttle', 'ok']);
    const res = await client(script.handler, 3).send(command());
    expect(res.$metadata.attempts).toBe(2);
    expect(mem.total('PollyThrottles')).toBe(1);
  });

  test('every attempt throttled: the error reaches the caller and all attempts count', async () => {
    const mem = new InMemoryMetrics();
    restore.push(useMetrics('narration', mem));
    const script = scripted(['throttle']);
    await expect(client(script.handler, 2).send(command())).rejects.toMatchObject({
      name: 'ThrottlingException',
    });
    expect(script.calls).toBe(2);
    expect(mem.total('PollyThrottles')).toBe(2);
  });

  test('other errors do not count', async () => {
    const mem = new InMemoryMetrics();
    restore.push(useMetrics('narration', mem));
    const handler = {
      handle: async () => ({
        response: {
          statusCode: 400,
          headers: { 'x-amzn-errortype': 'TextLengthExceededException', 'content-type': 'application/json' },
          body: Readable.from([Buffer.from('{"message":"too long"}')]),
        },
      }),
    };
    await expect(client(handler, 3).send(command())).rejects.toMatchObject({
      name: 'TextLengthExceededException',
    });
    expect(mem.total('PollyThrottles')).toBe(0);
  });
});
