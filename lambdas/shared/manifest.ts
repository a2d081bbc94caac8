// Types of the route manifests. A manifest is plain data read by both the CDK stacks (lib/) and the local
// runtime (bin/local.ts), so routes, limits and permissions cannot drift between the cloud and a laptop.

export type TableId = 'audio' | 'quotas' | 'keys' | 'accounts' | 'growth';

export interface Access {
  /** DynamoDB tables this function may touch, read-only or read-write. */
  tables?: Partial<Record<TableId, 'r' | 'rw'>>;
  /** The service's bucket. */
  bucket?: 'r' | 'rw';
  /** May send conversion jobs to the queues (narration: its priority and standard queues). */
  sendJobs?: boolean;
  /** Queues of the service's manifest (`ServiceManifest.queues` ids) this function may send messages to. */
  sendTo?: string[];
  /**
   * Narrows a table grant to items whose partition key starts with one of these prefixes (IAM
   * `dynamodb:LeadingKeys`; item reads and writes only, no Scan/Query). For tables that hold several kinds of item,
   * e.g. documents jobs (`docjob#`) and webhook endpoints (`webhook#`) next to billing accounts.
   */
  itemPrefixes?: Partial<Record<TableId, string[]>>;
  /** May call the speech engine (Polly). */
  speech?: boolean;
  /**
   * Deployment settings (lambdas/shared/config.ts names) this function reads. The stack passes each from the
   * CDK context (`-c narration:NAME=value`), secrets from Secrets Manager (see lib/narration-stack.ts).
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
  access: Access;
}

export interface WorkerSpec {
  id: string;
  handler: string;
  memoryMb: number;
  timeoutS: number;
  /** Ephemeral storage for audio being assembled. */
  tmpMb: number;
  access: Access;
  /**
   * The queue (a `ServiceManifest.queues` id) whose messages this worker handles, one per invocation. Narration's
   * worker has none: it reads the service's priority and standard queues.
   */
  queue?: string;
  /** 'image': runs in the service's container image (Chromium); default a zip bundle. */
  packaging?: 'zip' | 'image';
  /** Most concurrent executions the queue's event source may start. @default 5 */
  maxConcurrency?: number;
  description?: string;
}

/** An SQS queue of the service (with its DLQ), fed by `sendTo` functions and read by the worker naming it. */
export interface QueueSpec {
  id: string;
  /** Environment variable holding the queue URL (lambdas/shared/config.ts). */
  envVar: string;
  /** Receives of a message before SQS moves it to the queue's DLQ. */
  maxReceiveCount: number;
  description: string;
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
  /** Queues beyond narration's built-in job queues. */
  queues?: QueueSpec[];
}
