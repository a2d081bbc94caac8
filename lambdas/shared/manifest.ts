// Types of the route manifests. A manifest is plain data read by both the CDK stacks (lib/) and the local
// runtime (bin/local.ts), so routes, limits and permissions cannot drift between the cloud and a laptop.
import type { RouteDoc } from './http/route-doc';

export type TableId = 'audio' | 'quotas' | 'keys' | 'accounts' | 'growth' | 'feeds';

export interface Access {
  /** DynamoDB tables this function may touch, read-only or read-write. */
  tables?: Partial<Record<TableId, 'r' | 'rw'>>;
  /**
   * The service's bucket: read, read-write, 'put' (s3:PutObject only: a function that only signs uploads, which
   * S3 then runs with its role's permissions), or 'r+delete' (read, and delete what it finds expired: a GET route
   * that removes the files of an expired audio or job result when asked for them).
   */
  bucket?: 'r' | 'rw' | 'put' | 'r+delete';
  /**
   * Narrows the bucket grant to object keys under these prefixes (e.g. `uploads/`); default every key. Required
   * with every mode but 'r': no function writes or deletes across the whole bucket.
   */
  bucketPrefixes?: readonly string[];
  /** Queues of the service's manifest (`ServiceManifest.queues` ids) this function may send messages to. */
  sendTo?: string[];
  /**
   * Narrows a table grant to items whose partition key starts with one of these prefixes (IAM
   * `dynamodb:LeadingKeys`; item reads and writes only, no Scan/Query). For tables that hold several kinds of item,
   * e.g. documents jobs (`docjob#`) and webhook endpoints (`webhook#`) next to billing accounts.
   */
  itemPrefixes?: Partial<Record<TableId, string[]>>;
  /**
   * Indexes (lib/tables.ts) this function queries, per table: dynamodb:Query on exactly those index ARNs. A table
   * listed in `tables` without it gets item calls only (no Query, and never Scan).
   */
  queries?: Partial<Record<TableId, string[]>>;
  /**
   * Queues of the service's manifest whose DLQ depth this function may read (sqs:GetQueueAttributes on the DLQ
   * only; its URL in `dlqEnvVar(queue)`): the read-only dashboard.
   */
  readDlqs?: string[];
  /** May call the speech engine (Polly). */
  speech?: boolean;
  /**
   * Deployment settings (lambdas/shared/config.ts names) this function reads. The stack passes each from the
   * CDK context (`-c <service>:NAME=value`), secrets from Secrets Manager (lib/constructs/settings.ts).
   */
  settings?: string[];
}

export interface RouteSpec {
  /** Logical id: used for the CDK construct id and in logs. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'ANY';
  /** API Gateway path syntax: `/audio/{audio_id}`; `$default` is the fallback route. */
  path: string;
  /** Handler file relative to the repository root; it exports `handler`. */
  handler: string;
  memoryMb: number;
  timeoutS: number;
  /** 'image': runs in the service's container image (Chromium); default a zip bundle built by esbuild. */
  packaging?: 'zip' | 'image';
  /** Bodies larger than this are refused before parsing (422 in the contract's shape). */
  maxBodyBytes?: number;
  /**
   * Honours `Idempotency-Key` (lambdas/shared/idempotency): POSTs that create something or charge. The route needs
   * `quotas: 'rw'` (keys are items of the quotas table, `idem#` prefix).
   */
  idempotent?: boolean;
  /**
   * How a body over maxBodyBytes is refused instead of the service's validation status: e.g. 413 whose detail names
   * the way to send more (`{"detail": "..."}`, the contract's error shape).
   */
  tooLarge?: { status: 413; detail: string };
  access: Access;
  /** What GET /api says about the route (lambdas/shared/http/openapi.ts builds the OpenAPI document from these). */
  docs?: RouteDoc;
}

export interface WorkerSpec {
  id: string;
  handler: string;
  memoryMb: number;
  timeoutS: number;
  /** Ephemeral storage (audio being assembled, Chromium). */
  tmpMb: number;
  access: Access;
  /** The queues (`ServiceManifest.queues` ids) whose messages this worker handles, one per invocation. */
  queues: string[];
  /** 'image': runs in the service's container image (Chromium); default a zip bundle. */
  packaging?: 'zip' | 'image';
  description: string;
}

/**
 * A function run on a schedule: EventBridge Scheduler (rate, with a role, retries and a DLQ) in the cloud, a timer in
 * the local runtime. Same shape as a worker, without queues.
 */
export interface ScheduleSpec {
  id: string;
  handler: string;
  memoryMb: number;
  timeoutS: number;
  access: Access;
  description: string;
  /** The cloud schedule: `rate(<n> minutes)`. */
  everyMinutes: number;
  /** The config variable (seconds) of the local timer's period (`npm start`); default every `everyMinutes`. */
  localEveryVar?: string;
  /** Always a zip bundle (no schedule needs the container image). */
  packaging?: 'zip';
}

/** An SQS queue of the service (with its DLQ), fed by `sendTo` functions and read by the worker naming it. */
export interface QueueSpec {
  /** Also the local queue's name and, capitalized, the CDK construct id (`render` → RenderQueue, RenderQueueDlq). */
  id: string;
  /** Environment variable holding the queue URL (the service's config). */
  envVar: string;
  /** Receives of a message before SQS moves it to the queue's DLQ (the worker reads it as MAX_RECEIVE_COUNT). */
  maxReceiveCount: number;
  /** Most concurrent worker executions this queue's event source may start (`-c <service>:<id>Concurrency`). */
  maxConcurrency: number;
  /**
   * Webhook deliveries (lambdas/shared/webhooks): every attempt is a receive, so maxReceiveCount = the retry
   * schedule's delays + 1 (locally it follows WEBHOOK_RETRY_SCHEDULE_S, which tests shorten).
   */
  webhookDeliveries?: boolean;
  /** Pollers of the local runtime (lib/local/worker-poller.ts). @default 1 */
  localPollers?: number;
  description: string;
}

/** Environment variable holding the URL of a queue's DLQ, from the queue's id: `priority` → PRIORITY_DLQ_URL. */
export const dlqEnvVar = (queueId: string): string => `${queueId.toUpperCase()}_DLQ_URL`;

/** The service's S3 bucket: key prefixes come from lambdas/<service>/bucket.ts, which the adapters read too. */
export interface BucketSpec {
  /** CDK construct id (and output `<id>Name`). */
  id: string;
  /** Environment variable holding the bucket name. */
  envVar: string;
  /** Key prefix of this bucket's server access logs (in the service's access-log bucket). */
  accessLogPrefix: string;
  /**
   * Lifecycle rules: objects under `prefix` expire after `days`; with `tag`, only objects carrying that tag (e.g.
   * narration's per-retention rules: audio tagged `retention-days=7` goes after 7 days).
   */
  expire: { id: string; prefix: string; days: number; tag?: { key: string; value: string } }[];
  /**
   * GET/HEAD from any origin (presigned URLs); these headers. `uploads`: also POST from any origin, for browsers
   * sending a file straight to S3 with a presigned POST (the policy, not CORS, decides what may be stored).
   */
  cors: { allowedHeaders?: string[]; exposedHeaders: string[]; uploads?: boolean };
  /** Set on every function with bucket access. */
  environment?: Record<string, string>;
}

export interface ServiceManifest {
  service: string;
  /**
   * Status of a request refused before parsing (body over the route's limit), in the service's validation shape
   * `{"detail": [{loc, msg, type}]}`: narration 422 (FastAPI-style contract), documents 400 (its contract).
   * @default 422
   */
  invalidRequestStatus?: 400 | 422;
  routes: RouteSpec[];
  workers: WorkerSpec[];
  /** Functions run on a schedule (none by default). */
  schedules?: ScheduleSpec[];
  queues: QueueSpec[];
  bucket: BucketSpec;
  /** Stage-wide API throttle (plan quotas are the handlers'): `-c <service>:throttleRate|throttleBurst`. */
  throttle: { rate: number; burst: number };
  /** Dockerfile (relative to the repository root) of the image `packaging: 'image'` entries run from. */
  dockerfile?: string;
  /**
   * Modules zip bundles leave out. Only modules they provably never load (a lazily imported renderer only image
   * functions call): an external the code does load fails at run time.
   */
  externalModules?: string[];
}
