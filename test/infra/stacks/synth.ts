// The setup of test/infra/stacks.test.ts: what each service's stack must have, and each app synthesized once per file
// (synthOf). The case groups beside this file (*.cases.ts) read it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, type PolicyValidationPluginReport, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { documentsManifest } from '../../../lambdas/documents/routes';
import { narrationManifest } from '../../../lambdas/narration/routes';
import type {
  RouteSpec,
  ScheduleSpec,
  ServiceManifest,
  TableId,
  WorkerSpec,
} from '../../../lambdas/shared/manifest';
import { type ManifestStack } from '../../../lib/constructs/manifest-service';
import type { ServiceFunctionBase } from '../../../lib/constructs/service-function-base';
import { DocumentsStack } from '../../../lib/documents-stack';
import { type Needs } from '../../helpers/iam-audit';
import { flatTemplate, logicalIdOf } from '../../helpers/nested-templates';
import { NarrationStack } from '../../../lib/narration-stack';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
const cdkJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};
export const noBundling = { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] };

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Statement {
  Action: string | string[];
  Resource: unknown;
  Effect: string;
  Condition?: Json;
}
type Entry = RouteSpec | WorkerSpec | ScheduleSpec;

/** What each service's stack must have, written out here (not read from the code under test). */
export interface Service {
  name: 'narration' | 'documents';
  Stack: new (app: App, id: string, props?: { manifest?: ServiceManifest }) => ManifestStack;
  manifest: ServiceManifest;
  id: string;
  bucketEnv: string;
  outputs: string[];
  /** Lifecycle rules of the service bucket: prefix → days. */
  expires: [string, number][];
  /** Tables (id, partition key) the stack must create. */
  tables: [TableId, string][];
  /** What each function writes, queries and reads of the secrets, from reading its code (test/helpers/iam-audit.ts). */
  needs: Needs;
}

/** A conversion writes its audio (segments, timings) and a queued job's text; deleting an audio removes both. */
const CONVERSION = ['audio/', 'jobs/'];
const STRIPE_API = ['PayCheckout', 'PaySuccess', 'PayPortal'];

export const SERVICES: Service[] = [
  {
    name: 'narration',
    Stack: NarrationStack,
    manifest: narrationManifest,
    id: 'Narration',
    bucketEnv: 'AUDIO_BUCKET',
    outputs: ['ApiUrl', 'AudioBucketName', 'AudioTableName', 'QuotasTableName', 'KeysTableName'],
    expires: [
      ['audio/', 30],
      ['jobs/', 2],
      ['uploads/', 1],
    ],
    tables: [
      ['audio', 'audioId'],
      ['quotas', 'pk'],
      ['keys', 'keyHash'],
    ],
    needs: {
      bucketWrites: {
        ...Object.fromEntries(
          [
            'ConvertText',
            'ConvertUrl',
            'DemoTry',
            'Worker',
            'FeedArticleWorker',
            'FeedFirstPlay',
            'DeleteAudio',
            'FeedDelete',
          ]
            .concat(['GetAudio', 'GetTimings', 'AudioSegment', 'AudioChapters']) // delete an expired audio's files
            .map((id) => [id, CONVERSION]),
        ),
        ConvertPdf: [...CONVERSION, 'uploads/'], // reads, then deletes, the uploaded PDF
        ConvertPdfUpload: ['uploads/'], // signs the browser's POST
      },
      queries: {
        FeedCreate: ['feeds.byOwner'],
        FeedList: ['feeds.byOwner'],
        FeedDelete: ['feeds.byFeed'],
        FeedScheduler: ['feeds.byPoll'],
      },
      secrets: {
        STRIPE_SECRET_KEY: STRIPE_API,
        STRIPE_WEBHOOK_SECRET: ['PayWebhook'],
        DASHBOARD_TOKEN: ['AbResults', 'DashboardSummary'],
      },
    },
  },
  {
    name: 'documents',
    Stack: DocumentsStack,
    manifest: documentsManifest,
    id: 'Documents',
    bucketEnv: 'DOCUMENTS_BUCKET',
    outputs: [
      'ApiUrl',
      'DocumentsBucketName',
      'QuotasTableName',
      'KeysTableName',
      'GrowthTableName',
      'RenderQueueUrl',
      'RenderDlqUrl',
      'DeliveriesQueueUrl',
      'DeliveriesDlqUrl',
      'BatchQueueUrl',
      'BatchDlqUrl',
      'AssembleQueueUrl',
      'AssembleDlqUrl',
    ],
    expires: [
      ['results/', 1],
      ['samples/', 30],
      ['jobs/', 2],
      ['batches/', 2],
    ],
    tables: [
      ['quotas', 'pk'],
      ['keys', 'keyHash'],
      ['growth', 'pk'],
    ],
    needs: {
      bucketWrites: {
        Render: ['results/', 'jobs/'], // large results; an async job's request
        RenderWorker: ['jobs/', 'results/jobs/'], // deletes the request, writes the result
        GetJob: ['results/jobs/'], // deletes an expired result
        BatchUpload: ['batches/uploads/'],
        StartBatch: ['batches/'],
        BatchWorker: ['batches/'],
        BatchAssembler: ['batches/', 'results/jobs/'], // reads the parts, writes the result zip
      },
      queries: {},
      secrets: { STRIPE_SECRET_KEY: STRIPE_API, DOCS_STRIPE_WEBHOOK_SECRET: ['PayWebhook'] },
    },
  },
];
export const NARRATION = SERVICES[0]!;
export const DOCUMENTS = SERVICES[1]!;

export const TABLE_ENV: Record<TableId, string> = {
  audio: 'AUDIO_TABLE',
  accounts: 'ACCOUNTS_TABLE',
  quotas: 'QUOTAS_TABLE',
  keys: 'KEYS_TABLE',
  growth: 'GROWTH_TABLE',
  feeds: 'FEEDS_TABLE',
};

/** One service's synthesized stack and the helpers that read it. */
export class Synth {
  readonly app: App;
  readonly stack: ManifestStack;
  readonly template: Template;
  readonly resources: Record<string, Json>;
  readonly nagReport: PolicyValidationPluginReport;
  nagSynthError: unknown;

  constructor(readonly svc: Service) {
    // Secrets wired (from Secrets Manager, by name), so the policy audit below sees every function's secrets.
    const context: Record<string, unknown> = {
      ...noBundling,
      [`${svc.name}:secretName`]: `${svc.name}/secrets`,
    };
    this.app = new App({ context });
    this.stack = new svc.Stack(this.app, svc.id);
    // Functions defined in nested stacks are read as if in the service's template (test/helpers/nested-templates.ts).
    this.template = flatTemplate(this.stack, Object.values(this.stack.service.nestedStacks));
    this.resources = this.template.toJSON().Resources as Record<string, Json>;
    // cdk-nag as in bin/app.ts: the pack runs as a policy-validation plugin during synth, and an unacknowledged
    // finding makes synth throw. A second app (bundling skipped: the pack reads the construct tree, not the
    // bundles) keeps such a failure to the cdk-nag tests; the pack's own report names the rule and resource.
    const nagApp = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
    new svc.Stack(nagApp, svc.id);
    const nag = new AwsSolutionsChecks(nagApp, { verbose: true });
    this.nagReport = nag.validateScope(nagApp);
    Validations.of(nagApp).addPlugins(nag);
    try {
      nagApp.synth();
    } catch (err) {
      this.nagSynthError = err;
    }
  }

  logicalId = (construct: { node: { defaultChild?: unknown } }): string => logicalIdOf(construct);

  fnOf = (id: string): ServiceFunctionBase => {
    const fn = this.stack.functions[id];
    if (!fn) throw new Error(`stack has no function ${id}`);
    return fn;
  };

  propsOf = (id: string): Json => this.resources[this.logicalId(this.fnOf(id).fn)]!.Properties;
  envOf = (id: string): Record<string, unknown> => this.propsOf(id).Environment.Variables;

  statementsOf = (fn: ServiceFunctionBase): Statement[] => {
    const roleId = this.logicalId(fn.role);
    return Object.values(this.template.findResources('AWS::IAM::Policy') as Record<string, Json>)
      .filter((p) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
  };

  actionsOf = (fn: ServiceFunctionBase): string[] =>
    this.statementsOf(fn).flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
}

const synths = new Map<string, Synth>();
/** The service's Synth, built by the first beforeAll that asks (once per file). */
export function synthOf(svc: Service): () => Synth {
  beforeAll(() => {
    if (!synths.has(svc.name)) synths.set(svc.name, new Synth(svc));
  }, 300_000);
  return () => synths.get(svc.name)!;
}

/** A stack's template with its nested stacks' joined in. */
export const flat = (stack: ManifestStack) => flatTemplate(stack, Object.values(stack.service.nestedStacks));

export const entriesOf = (m: ServiceManifest): Entry[] => [...m.routes, ...m.workers, ...(m.schedules ?? [])];
export const isWorker = (e: Entry): e is WorkerSpec => 'queues' in e;

export function listTs(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listTs(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}
