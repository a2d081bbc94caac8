// Everything the narration handlers need, behind ports. `awsDeps()` builds the real adapters lazily (a route only
// creates the clients it uses); tests and the local runtime use the same adapters against emulators.
//
// Cold start: the AWS SDK clients and adapters are required on first use, not at import, so a function evaluates only
// the SDK code it may use. `awsDeps()` preloads, during the init phase, the adapters whose resource variables are set:
// the stack sets a table/bucket/queue variable exactly where the manifest grants access (ServiceFunctionBase.bind*),
// so e.g. GET /ab/assign, GET /api and GET /pay/checkout (no AWS resources) load no SDK client at all
// (scripts/bundle-report.ts measures it). Locally every variable is set, so everything loads as before.
import { tmpdir } from 'node:os';
import { config, required, type Config } from './config';
import type { AccountStore, PaymentGateway } from '../shared/billing/ports';
import type { GrowthStore } from '../shared/growth/ports';
import type { KeyStore } from '../shared/auth/keys';
import type { QuotaStore } from '../shared/quota/windows';
import type {
  AudioRepository,
  AudioStore,
  JobQueue,
  LexiconStore,
  QueueDepth,
  ReuseIndex,
  Synthesizer,
  UploadRepository,
  UploadStore,
} from './ports';
import type { IdempotencyStore } from '../shared/idempotency/idempotency';
import type { MessageQueue } from '../shared/webhooks/delivery';
import type { MessageVisibility } from '../shared/jobs/retry';
import type { WebhookPolicy, WebhookStore } from '../shared/webhooks/endpoints';
import { webhookPolicyFrom } from '../shared/webhooks/config';
import type { AudioEventType } from './core/audio-events';

/* eslint-disable @typescript-eslint/no-require-imports -- synchronous lazy loading: esbuild bundles these modules
   but evaluates each only when its require() runs (the getters below are synchronous, so import() cannot serve) */
const modules = {
  clients: () => require('../shared/aws/clients') as typeof import('../shared/aws/clients'),
  audioRepository: () =>
    require('./adapters/audio-repository') as typeof import('./adapters/audio-repository'),
  audioStore: () => require('./adapters/audio-store') as typeof import('./adapters/audio-store'),
  jobQueue: () => require('./adapters/job-queue') as typeof import('./adapters/job-queue'),
  uploadStore: () => require('./adapters/upload-store') as typeof import('./adapters/upload-store'),
  uploadRepository: () =>
    require('./adapters/upload-repository') as typeof import('./adapters/upload-repository'),
  quotaStore: () => require('../shared/aws/quota-store') as typeof import('../shared/aws/quota-store'),
  keyStore: () => require('../shared/aws/key-store') as typeof import('../shared/aws/key-store'),
  accountStore: () => require('../shared/aws/account-store') as typeof import('../shared/aws/account-store'),
  growthStore: () => require('../shared/aws/growth-store') as typeof import('../shared/aws/growth-store'),
  idempotencyStore: () =>
    require('../shared/aws/idempotency-store') as typeof import('../shared/aws/idempotency-store'),
  webhookStore: () => require('../shared/aws/webhook-store') as typeof import('../shared/aws/webhook-store'),
  messageQueue: () => require('../shared/aws/message-queue') as typeof import('../shared/aws/message-queue'),
  messageVisibility: () =>
    require('../shared/aws/message-visibility') as typeof import('../shared/aws/message-visibility'),
  lexiconStore: () => require('./adapters/lexicon-store') as typeof import('./adapters/lexicon-store'),
  queueDepth: () => require('./adapters/queue-depth') as typeof import('./adapters/queue-depth'),
  reuseIndex: () => require('./adapters/reuse-index') as typeof import('./adapters/reuse-index'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Which adapter modules each resource variable (set by the stack only where access is granted) calls for. */
const PRELOAD: [string, (keyof typeof modules)[]][] = [
  ['AUDIO_TABLE', ['clients', 'audioRepository', 'reuseIndex']],
  ['QUOTAS_TABLE', ['clients', 'quotaStore', 'idempotencyStore']],
  ['KEYS_TABLE', ['clients', 'keyStore']],
  ['ACCOUNTS_TABLE', ['clients', 'accountStore', 'lexiconStore']],
  ['GROWTH_TABLE', ['clients', 'growthStore']],
  ['AUDIO_BUCKET', ['clients', 'audioStore']],
  ['PRIORITY_QUEUE_URL', ['clients', 'jobQueue']],
  ['STANDARD_QUEUE_URL', ['clients', 'jobQueue']],
  ['DELIVERY_QUEUE_URL', ['clients', 'messageQueue']],
  ['PRIORITY_DLQ_URL', ['clients', 'queueDepth']],
];

/** Evaluates, now (the init phase), the adapters this function's resources call for; the rest stay unloaded. */
function preloadGranted(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, mods] of PRELOAD) if (env[name]) for (const m of mods) modules[m]();
}

export interface NarrationDeps {
  readonly config: Config;
  readonly audio: AudioRepository;
  readonly store: AudioStore;
  readonly queue: JobQueue;
  /** PDFs sent with a presigned POST (bucket, uploads/) and their upload slots (audio table, upload#). */
  readonly uploads: UploadStore;
  readonly uploadRecords: UploadRepository;
  readonly quotas: QuotaStore;
  readonly keys: KeyStore;
  /** Billing accounts, Stripe event ids, key pick-ups (table `accounts`). */
  readonly accounts: AccountStore;
  /** Stripe, or undefined while STRIPE_SECRET_KEY is not configured (the /pay routes then answer 503). */
  payments(): Promise<PaymentGateway | undefined>;
  /** Waitlist, A/B counters, public stats (table `growth`). */
  readonly growth: GrowthStore;
  /** Accounts' pronunciation lexicons (table `accounts`, `lexicons#` items). */
  readonly lexicons: LexiconStore;
  synthesizer(): Promise<Synthesizer>;
  now(): Date;
  readonly tmpDir: string;
  /** Idempotency-Key records (quotas table, `idem#` items): lambdas/shared/idempotency. */
  readonly idempotency: IdempotencyStore;
  // ── Completion webhooks (paid plans): use-cases/webhooks.ts, the platform's lambdas/shared/webhooks. ──
  /** Account webhook endpoints (accounts table, `webhook#` items). */
  readonly webhooks: WebhookStore<AudioEventType>;
  /** Where callbacks may go (the SSRF policy of lambdas/shared/net/safe-fetch.ts). */
  readonly webhookPolicy: WebhookPolicy;
  /** audio.completed / audio.failed events to deliver (the delivery worker's queue). */
  readonly deliveryQueue: MessageQueue;
  /** The worker's retries: a failed job message reappears after a backoff (lambdas/shared/jobs/retry.ts). */
  readonly redelivery: MessageVisibility;
  /**
   * Which audio answered a request fingerprint (core/reuse.ts): identical requests of one caller reuse it. Absent
   * (some test deps), every request is narrated.
   */
  readonly reuse?: ReuseIndex;
}

// Adapters are thin (a client and a name); the clients and the config they use are created once per process.
export function awsDeps(): NarrationDeps {
  preloadGranted();
  const dynamo = () => modules.clients().dynamo();
  const audio = () =>
    new (modules.audioRepository().DynamoAudioRepository)(
      dynamo(),
      required('AUDIO_TABLE'),
      () => new Date(),
      config().JOB_LEASE_S,
    );
  const store = () =>
    new (modules.audioStore().S3AudioStore)(modules.clients().s3Client(), required('AUDIO_BUCKET'));
  const queue = () =>
    new (modules.jobQueue().SqsJobQueue)(modules.clients().sqsClient(), {
      priority: required('PRIORITY_QUEUE_URL'),
      standard: required('STANDARD_QUEUE_URL'),
    });
  const uploads = () =>
    new (modules.uploadStore().S3UploadStore)(modules.clients().s3Client(), required('AUDIO_BUCKET'));
  const uploadRecords = () =>
    new (modules.uploadRepository().DynamoUploadRepository)(dynamo(), required('AUDIO_TABLE'));
  const quotas = () => new (modules.quotaStore().DynamoQuotaStore)(dynamo(), required('QUOTAS_TABLE'));
  const keys = () => new (modules.keyStore().DynamoKeyStore)(dynamo(), required('KEYS_TABLE'));
  const accounts = () =>
    new (modules.accountStore().DynamoAccountStore)(dynamo(), required('ACCOUNTS_TABLE'));
  const growth = () => new (modules.growthStore().DynamoGrowthStore)(dynamo(), required('GROWTH_TABLE'));
  const idempotency = () =>
    new (modules.idempotencyStore().DynamoIdempotencyStore)(dynamo(), required('QUOTAS_TABLE'));
  const webhooks = () =>
    new (modules.webhookStore().DynamoWebhookStore<AudioEventType>)(dynamo(), required('ACCOUNTS_TABLE'));
  const deliveryQueue = () =>
    new (modules.messageQueue().SqsMessageQueue)(
      modules.clients().sqsClient(),
      required('DELIVERY_QUEUE_URL'),
    );
  const redelivery = () =>
    new (modules.messageVisibility().SqsMessageVisibility)(modules.clients().sqsClient(), [
      config().PRIORITY_QUEUE_URL,
      config().STANDARD_QUEUE_URL,
    ]);
  const lexicons = () =>
    new (modules.lexiconStore().DynamoLexiconStore)(dynamo(), required('ACCOUNTS_TABLE'));
  const reuse = () => new (modules.reuseIndex().DynamoReuseIndex)(dynamo(), required('AUDIO_TABLE'));
  let synth: Promise<Synthesizer> | undefined;
  return {
    get reuse() {
      return reuse();
    },
    get idempotency() {
      return idempotency();
    },
    get webhooks() {
      return webhooks();
    },
    get webhookPolicy() {
      return webhookPolicyFrom(config());
    },
    get deliveryQueue() {
      return deliveryQueue();
    },
    get redelivery() {
      return redelivery();
    },
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
    get uploads() {
      return uploads();
    },
    get uploadRecords() {
      return uploadRecords();
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
    get lexicons() {
      return lexicons();
    },
    synthesizer() {
      synth ??= import('./speech/index').then((m) =>
        m.createSynthesizer(config().SPEECH_ENGINE, { espeakBin: config().ESPEAK_BIN }),
      );
      synth.catch(() => (synth = undefined));
      return synth;
    },
    now: () => new Date(),
    tmpDir: tmpdir(),
  };
}

/** The DLQs' depth for the dashboard (GET /dashboard/summary), the only caller: kept out of NarrationDeps. */
export function awsQueueDepth(): QueueDepth {
  return {
    depth: (url) => new (modules.queueDepth().SqsQueueDepth)(modules.clients().sqsClient()).depth(url),
  };
}
