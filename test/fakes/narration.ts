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
  Synthesizer,
} from '../../lambdas/narration/ports';
import type { Voice } from '../../lambdas/narration/core/voices';
import type { Lexicon } from '../../lambdas/narration/core/lexicon';
import { Faults } from './faults';
import { FakeLeasedJobStore } from './leased-job-store';
import { FakeGrowthStore, FakeQuotaStore } from './platform';

export class FakeAudioRepository extends FakeLeasedJobStore<AudioRecord> implements AudioRepository {
  constructor(now: () => Date = () => new Date(), leaseS = 120) {
    super('audioId', 'processing', now, leaseS);
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

  async putJobText(audioId: string, text: string): Promise<void> {
    this.faults.check('putJobText');
    this.objects.set(`jobs/${audioId}.txt`, Buffer.from(text));
  }

  async getJobText(audioId: string): Promise<string | undefined> {
    this.faults.check('getJobText');
    return this.objects.get(`jobs/${audioId}.txt`)?.toString();
  }

  async deleteJobText(audioId: string): Promise<void> {
    this.objects.delete(`jobs/${audioId}.txt`);
  }
}

export class FakeJobQueue implements JobQueue {
  readonly sent: { message: JobMessage; priority: boolean }[] = [];
  readonly faults = new Faults();

  async enqueue(message: JobMessage, priority: boolean): Promise<void> {
    this.faults.check('enqueue');
    this.sent.push({ message: { ...message }, priority });
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
    this.faults.check('synthesize');
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

/** Every port of NarrationDeps as a fake (keys, accounts and payments are not used by the conversion use cases). */
export function fakeNarrationDeps(
  over: { config?: Partial<Config>; now?: () => Date; tmpDir?: string } = {},
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
  };
  const deps: NarrationDeps = {
    config: { ...config(), ...over.config },
    audio: fakes.audio,
    store: fakes.store,
    queue: fakes.queue,
    quotas: fakes.quotas,
    growth: fakes.growth,
    keys: {} as KeyStore,
    accounts: {} as AccountStore,
    lexicons: fakes.lexicons,
    payments: async () => undefined,
    synthesizer: async () => fakes.synth,
    now,
    tmpDir: over.tmpDir ?? tmpdir(),
  };
  return { deps, ...fakes };
}
