// In-memory fakes of narration's ports (lambdas/narration/ports.ts), behaving like their adapters:
// the audio repository is the shared leased-job fake (claimed jobs are `processing`), the store keeps bytes by
// key, the queue records what was sent, the synthesizer returns silence.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { config, type Config } from '../../lambdas/narration/config';
import type { NarrationDeps } from '../../lambdas/narration/deps';
import type { KeyStore } from '../../lambdas/shared/auth/keys';
import type { AccountStore } from '../../lambdas/shared/billing/ports';
import type { AudioFormat } from '../../lambdas/narration/core/formats';
import type {
  AudioRecord,
  AudioRepository,
  AudioStore,
  JobMessage,
  JobQueue,
  LexiconStore,
  Pcm,
  Segment,
  PdfUpload,
  PresignedPost,
  ReuseIndex,
  Synthesizer,
  UploadRepository,
  UploadStore,
  UploadedPdf,
} from '../../lambdas/narration/ports';
import type { Voice } from '../../lambdas/narration/core/voices';
import type { Lexicon } from '../../lambdas/narration/core/lexicon';
import { Faults } from './faults';
import { FakeLeasedJobStore } from './leased-job-store';
import { FakeGrowthStore, FakeQuotaStore } from './platform';
import { FakeMessageQueue, FakeMessageVisibility, FakeWebhookStore } from './documents';
import type { AudioEventType } from '../../lambdas/narration/core/audio-events';
import type { IdempotencyStore } from '../../lambdas/shared/idempotency/idempotency';

export class FakeAudioRepository extends FakeLeasedJobStore<AudioRecord> implements AudioRepository {
  constructor(now: () => Date = () => new Date(), leaseS = 120) {
    super('audioId', 'processing', now, leaseS);
  }

  async setSegments(id: string, segments: Segment[], progress: number): Promise<boolean> {
    return !!this.transition(
      id,
      (j) => j.status === this.activeStatus,
      (j) => Object.assign(j, { segments: structuredClone(segments), progress }),
    );
  }

  async remove(id: string): Promise<boolean> {
    return this.items.delete(id);
  }

  async reference(id: string): Promise<boolean> {
    return !!this.transition(
      id,
      (j) => j.status === 'queued' || j.status === this.activeStatus,
      (j) => void (j.referenced = true),
      false,
    );
  }

  async retireUnreferenced(id: string, reason: string, fields: Partial<AudioRecord> = {}): Promise<boolean> {
    return !!this.transition(
      id,
      (j) => j.status !== 'done' && j.status !== 'failed' && !j.referenced,
      (j) => {
        Object.assign(j, fields, { status: 'failed', error: reason });
        delete j.leaseUntil;
      },
    );
  }
}

export class FakeAudioStore implements AudioStore {
  /** audio/<id>.<fmt> and jobs/<id>.txt, as the S3 adapter keys them. */
  readonly objects = new Map<string, Buffer>();
  readonly faults = new Faults();

  async putAudioFile(audioId: string, fmt: AudioFormat, path: string): Promise<void> {
    this.faults.check('putAudioFile');
    this.objects.set(`audio/${audioId}.${fmt}`, await readFile(path));
  }

  async presignAudio(audioId: string, fmt: AudioFormat, expiresInS: number): Promise<string> {
    return `http://127.0.0.1:9/audio/${audioId}.${fmt}?expires=${expiresInS}`;
  }

  async putSegment(audioId: string, n: number, mp3: Uint8Array): Promise<void> {
    this.faults.check('putSegment');
    this.objects.set(`audio/${audioId}/seg/${n}.mp3`, Buffer.from(mp3));
  }

  async putTimings(audioId: string, timings: object): Promise<void> {
    this.faults.check('putTimings');
    this.objects.set(`audio/${audioId}/timings.json`, Buffer.from(JSON.stringify(timings)));
  }

  async getTimings(audioId: string): Promise<object | undefined> {
    const b = this.objects.get(`audio/${audioId}/timings.json`);
    return b && (JSON.parse(b.toString()) as object);
  }

  async presignSegment(audioId: string, n: number, expiresInS: number): Promise<string> {
    return `http://127.0.0.1:9/audio/${audioId}/seg/${n}.mp3?expires=${expiresInS}`;
  }

  async putJobText(audioId: string, text: string): Promise<void> {
    this.faults.check('putJobText');
    this.objects.set(`jobs/${audioId}.txt`, Buffer.from(text));
  }

  async getJobText(audioId: string): Promise<string | undefined> {
    this.faults.check('getJobText');
    return this.objects.get(`jobs/${audioId}.txt`)?.toString();
  }

  async deleteAudio(audioId: string, fmt: AudioFormat, _segments: number): Promise<void> {
    for (const key of [...this.objects.keys()])
      if (
        key === `audio/${audioId}.${fmt}` ||
        key.startsWith(`audio/${audioId}/`) ||
        key === `jobs/${audioId}.txt`
      )
        this.objects.delete(key);
  }

  async deleteJobText(audioId: string): Promise<void> {
    this.objects.delete(`jobs/${audioId}.txt`);
  }
}

export class FakeJobQueue implements JobQueue {
  readonly sent: { message: JobMessage; priority: boolean; delayS?: number }[] = [];
  readonly faults = new Faults();

  async enqueue(message: JobMessage, priority: boolean, delayS?: number): Promise<void> {
    this.faults.check('enqueue');
    this.sent.push({ message: { ...message }, priority, ...(delayS ? { delayS } : {}) });
  }
}

/** Upload slots by id, with the adapter's conditions (claim: pending, owner, before convertBy). */
export class FakeUploadRepository implements UploadRepository {
  readonly items = new Map<string, PdfUpload>();

  async create(upload: PdfUpload): Promise<void> {
    if (this.items.has(upload.uploadId)) throw new Error('ConditionalCheckFailedException');
    this.items.set(upload.uploadId, { ...upload });
  }

  async get(uploadId: string): Promise<PdfUpload | undefined> {
    const u = this.items.get(uploadId);
    return u && { ...u };
  }

  async claim(uploadId: string, owner: string, nowS: number, audioId?: string): Promise<boolean> {
    const u = this.items.get(uploadId);
    if (!u || u.owner !== owner || u.convertBy <= nowS) return false;
    const takeover =
      audioId !== undefined && u.status === 'used' && u.claimedFor === audioId && u.convertedTo === undefined;
    if (u.status !== 'pending' && !takeover) return false;
    u.status = 'used';
    if (audioId === undefined) delete u.claimedFor;
    else u.claimedFor = audioId;
    return true;
  }

  async release(uploadId: string): Promise<void> {
    const u = this.items.get(uploadId);
    if (u && u.status === 'used' && u.convertedTo === undefined) {
      u.status = 'pending';
      delete u.claimedFor;
    }
  }

  async complete(uploadId: string, audioId: string): Promise<void> {
    const u = this.items.get(uploadId);
    if (u && u.status === 'used') u.convertedTo = audioId;
  }
}

/** Uploaded PDFs by upload id (what a caller POSTed to the presigned form). */
export class FakeUploadStore implements UploadStore {
  readonly files = new Map<string, Buffer>();
  readonly presigned: { uploadId: string; maxBytes: number; expiresInS: number }[] = [];

  async presignPdfUpload(
    uploadId: string,
    limits: { maxBytes: number; expiresInS: number },
  ): Promise<PresignedPost> {
    this.presigned.push({ uploadId, ...limits });
    return { url: 'http://127.0.0.1:9/bucket', fields: { key: `uploads/${uploadId}.pdf` } };
  }

  async getPdfUpload(uploadId: string, maxBytes: number): Promise<UploadedPdf> {
    const data = this.files.get(uploadId);
    if (!data) return { kind: 'missing' };
    if (data.length > maxBytes) return { kind: 'too-large', bytes: data.length };
    return { kind: 'ok', data };
  }

  async deletePdfUpload(uploadId: string): Promise<void> {
    this.files.delete(uploadId);
  }
}

/** Silence, 0.1 s per call at 16 kHz (enough for the encoders); records the texts it was given. */
export class FakeSynthesizer implements Synthesizer {
  readonly engine = 'fake';
  readonly texts: string[] = [];
  readonly faults = new Faults();

  constructor(
    readonly maxChars = 3000,
    readonly concurrency = 2,
  ) {}

  async synthesize(text: string, _voice: Voice): Promise<Pcm> {
    await this.faults.pass('synthesize');
    this.texts.push(text);
    return { samples: new Int16Array(1600), sampleRate: 16_000 };
  }
}

/** Lexicons in memory (the DynamoDB adapter is tested against dynalite). */
export class FakeLexiconStore implements LexiconStore {
  readonly byOwner = new Map<string, Lexicon[]>();
  async list(owner: string): Promise<Lexicon[]> {
    return structuredClone(this.byOwner.get(owner) ?? []);
  }
  async update<T>(owner: string, change: (current: Lexicon[]) => { next: Lexicon[]; result: T }): Promise<T> {
    const { next, result } = change(await this.list(owner));
    this.byOwner.set(owner, structuredClone(next));
    return result;
  }
}

/** Fingerprint → audio id, as the DynamoDB adapter keeps them (the TTL is not enforced here). */
export class FakeReuseIndex implements ReuseIndex {
  readonly items = new Map<string, { target: string; expiresAt: number }>();
  readonly faults = new Faults();
  async find(fingerprint: string): Promise<string | undefined> {
    this.faults.check('find');
    return this.items.get(fingerprint)?.target;
  }
  async remember(fingerprint: string, audioId: string, expiresAt: number): Promise<void> {
    this.faults.check('remember');
    this.items.set(fingerprint, { target: audioId, expiresAt });
  }
}

/** Every port of NarrationDeps as a fake (keys, accounts and payments are not used by the conversion use cases). */
export function fakeNarrationDeps(
  over: { config?: Partial<Config>; now?: () => Date; tmpDir?: string; reuse?: boolean } = {},
) {
  const now = over.now ?? (() => new Date());
  const fakes = {
    audio: new FakeAudioRepository(now),
    store: new FakeAudioStore(),
    queue: new FakeJobQueue(),
    quotas: new FakeQuotaStore(),
    growth: new FakeGrowthStore(),
    synth: new FakeSynthesizer(),
    lexicons: new FakeLexiconStore(),
    webhooks: new FakeWebhookStore<AudioEventType>(),
    deliveryQueue: new FakeMessageQueue(),
    redelivery: new FakeMessageVisibility(),
    uploads: new FakeUploadStore(),
    uploadRecords: new FakeUploadRepository(),
    reuse: new FakeReuseIndex(),
  };
  const deps: NarrationDeps = {
    config: { ...config(), ...over.config },
    audio: fakes.audio,
    store: fakes.store,
    queue: fakes.queue,
    uploads: fakes.uploads,
    uploadRecords: fakes.uploadRecords,
    quotas: fakes.quotas,
    growth: fakes.growth,
    keys: {} as KeyStore,
    accounts: {} as AccountStore,
    lexicons: fakes.lexicons,
    payments: async () => undefined,
    synthesizer: async () => fakes.synth,
    now,
    tmpDir: over.tmpDir ?? tmpdir(),
    idempotency: {} as IdempotencyStore,
    webhooks: fakes.webhooks,
    webhookPolicy: { allowlist: [], timeoutMs: 1000 },
    deliveryQueue: fakes.deliveryQueue,
    redelivery: fakes.redelivery,
    // Off unless asked for: most use-case tests send one text several times and expect several conversions.
    ...(over.reuse ? { reuse: fakes.reuse } : {}),
  };
  return { deps, ...fakes };
}
