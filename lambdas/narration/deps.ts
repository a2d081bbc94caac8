// Everything the narration handlers need, behind ports. `awsDeps()` builds the real adapters lazily (a route only
// creates the clients it uses); tests and the local runtime use the same adapters against emulators.
import { tmpdir } from 'node:os';
import { config, required, type Config } from '../shared/config';
import { dynamo, s3Client, sqsClient } from '../shared/aws/clients';
import { DynamoAudioRepository } from '../shared/aws/audio-repository';
import { S3AudioStore } from '../shared/aws/audio-store';
import { SqsJobQueue } from '../shared/aws/job-queue';
import { DynamoQuotaStore } from '../shared/aws/quota-store';
import { DynamoKeyStore } from '../shared/aws/key-store';
import { DynamoAccountStore } from '../shared/aws/account-store';
import type { AccountStore, PaymentGateway } from '../shared/billing/ports';
import { DynamoGrowthStore } from '../shared/aws/growth-store';
import type { GrowthStore } from '../shared/growth/ports';
import type { KeyStore } from '../shared/auth/keys';
import type { QuotaStore } from '../shared/quota/windows';
import type { AudioRepository, AudioStore, JobQueue, Synthesizer } from './domain/ports';

export interface NarrationDeps {
  readonly config: Config;
  readonly audio: AudioRepository;
  readonly store: AudioStore;
  readonly queue: JobQueue;
  readonly quotas: QuotaStore;
  readonly keys: KeyStore;
  /** Billing accounts, Stripe event ids, key pick-ups (table `accounts`). */
  readonly accounts: AccountStore;
  /** Stripe, or undefined while STRIPE_SECRET_KEY is not configured (the /pay routes then answer 503). */
  payments(): Promise<PaymentGateway | undefined>;
  /** Waitlist, A/B counters, public stats (table `growth`). */
  readonly growth: GrowthStore;
  synthesizer(): Promise<Synthesizer>;
  now(): Date;
  readonly tmpDir: string;
}

// Adapters are thin (a client and a name); the clients and the config they use are created once per process.
export function awsDeps(): NarrationDeps {
  const audio = () =>
    new DynamoAudioRepository(dynamo(), required('AUDIO_TABLE'), () => new Date(), config().JOB_LEASE_S);
  const store = () => new S3AudioStore(s3Client(), required('AUDIO_BUCKET'));
  const queue = () =>
    new SqsJobQueue(sqsClient(), {
      priority: required('PRIORITY_QUEUE_URL'),
      standard: required('STANDARD_QUEUE_URL'),
    });
  const quotas = () => new DynamoQuotaStore(dynamo(), required('QUOTAS_TABLE'));
  const keys = () => new DynamoKeyStore(dynamo(), required('KEYS_TABLE'));
  const accounts = () => new DynamoAccountStore(dynamo(), required('ACCOUNTS_TABLE'));
  const growth = () => new DynamoGrowthStore(dynamo(), required('GROWTH_TABLE'));
  let synth: Promise<Synthesizer> | undefined;
  return {
    get config() {
      return config();
    },
    get audio() {
      return audio();
    },
    get store() {
      return store();
    },
    get queue() {
      return queue();
    },
    get quotas() {
      return quotas();
    },
    get keys() {
      return keys();
    },
    get accounts() {
      return accounts();
    },
    // Loaded on first use: the SDK stays out of the cold start of routes that never call Stripe.
    payments: () => import('../shared/billing/stripe').then((m) => m.stripeGateway(config())),
    get growth() {
      return growth();
    },
    synthesizer() {
      synth ??= import('./speech/index').then((m) => m.createSynthesizer(config().SPEECH_ENGINE));
      synth.catch(() => (synth = undefined));
      return synth;
    },
    now: () => new Date(),
    tmpDir: tmpdir(),
  };
}
