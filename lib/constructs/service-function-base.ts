// What every function of every stack shares, however it is packaged (zip: ServiceFunction, container image:
// ImageServiceFunction): its own log group with a retention, a role that starts with nothing but "write my logs",
// X-Ray tracing, the default environment, and the bind* helpers. Each helper grants IAM *and* sets the environment
// variable the runtime reads (lambdas/shared/config.ts) in one call, so a permission and its variable never drift.
import { CfnElement, Names, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export type AccessMode = 'r' | 'rw';

export interface CommonFunctionProps {
  /** Handler file, relative to the repository root (manifest `handler`); it exports `handler`. */
  handler: string;
  /** POWERTOOLS_SERVICE_NAME. */
  serviceName: string;
  memoryMb: number;
  timeoutS: number;
  description?: string;
  /** LOG_LEVEL read by the Powertools logger. @default INFO */
  logLevel?: string;
  /** @default one month */
  logRetention?: logs.RetentionDays;
  environment?: Record<string, string>;
}

// Exactly the item calls the adapters make (lambdas/shared/aws, lambdas/*/adapters): no Scan (only the local runtime
// and the operator CLIs list jobs), no DescribeTable, ConditionCheckItem or BatchWriteItem (no adapter calls them).
// Query is granted per index, to the functions that query it (bindTable's `queried`).
export const DYNAMODB_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem'];
export const DYNAMODB_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];
// ListBucket (on the bucket, not its objects) makes HeadObject/GetObject of a missing key answer 404 rather than 403,
// so "audio not found (yet)" is distinguishable from "permission problem".
const S3_READ_OBJECTS = ['s3:GetObject'];
const S3_READ_BUCKET = ['s3:ListBucket'];
// AbortMultipartUpload: @aws-sdk/lib-storage cleans up failed multipart uploads of long audio.
// PutObjectTagging: a PUT carrying x-amz-tagging (narration tags audio with its retention class) needs it.
const S3_WRITE_OBJECTS = [
  's3:PutObject',
  's3:PutObjectTagging',
  's3:AbortMultipartUpload',
  's3:DeleteObject',
];

export abstract class ServiceFunctionBase<F extends lambda.Function = lambda.Function> extends Construct {
  /** The Lambda function; created by the subclass right after this base constructor. */
  abstract readonly fn: F;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  private readonly extraPolicies = new Map<string, iam.Policy>();

  protected constructor(scope: Construct, id: string, props: CommonFunctionProps) {
    super(scope, id);

    // An explicit log group (not the legacy LogRetention custom resource): retention is a plain property and the
    // group is deleted with the stack. Logs hold request ids and sizes, never callers' texts (lambdas/shared/logger.ts).
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Own role instead of the managed AWSLambdaBasicExecutionRole: that policy lets a function write to *any* log
    // group; this one may write only to its own.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${Stack.of(this).stackName}/${id}`,
    });
    this.logGroup.grantWrite(this.role);

    // X-Ray tracing adds xray:PutTraceSegments/PutTelemetryRecords on '*' to the role's default policy.
    // (Acknowledged on the role, so it covers the role's default policy only, not the policies made by policy().)
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so AWS requires Resource "*".',
    });
  }

  /** The environment every function starts with; `nodeOptions` is NODE_OPTIONS. */
  protected static defaultEnvironment(
    props: CommonFunctionProps,
    nodeOptions: string,
  ): Record<string, string> {
    return {
      NODE_OPTIONS: nodeOptions,
      POWERTOOLS_SERVICE_NAME: props.serviceName,
      LOG_LEVEL: props.logLevel ?? 'INFO',
      ...props.environment,
    };
  }

  /**
   * Grants read (or read-write) item access to `table`, dynamodb:Query on the indexes named in `queried` (and on
   * nothing else), and sets `envVar` to its name.
   */
  bindTable(table: dynamodb.ITable, mode: AccessMode, envVar: string, queried: readonly string[] = []): this {
    const actions = mode === 'rw' ? [...DYNAMODB_READ, ...DYNAMODB_WRITE] : DYNAMODB_READ;
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources: [table.tableArn] }));
    if (queried.length > 0)
      this.role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['dynamodb:Query'],
          // Index ARNs are listed by name (no `index/*` wildcard).
          resources: queried.map((name) => `${table.tableArn}/index/${name}`),
        }),
      );
    this.fn.addEnvironment(envVar, table.tableName);
    return this;
  }

  /**
   * Grants object access to `bucket` and sets `envVar` to its name: read, read-write, or 'put' (s3:PutObject only,
   * for a function that signs uploads S3 then runs with its role). `prefixes` narrows the grant to those keys; a
   * grant that writes or deletes must name them (no function writes the whole bucket).
   */
  bindBucket(
    bucket: s3.IBucket,
    mode: AccessMode | 'put' | 'r+delete',
    envVar: string,
    prefixes?: readonly string[],
  ): this {
    if (mode !== 'r' && !prefixes?.length)
      throw new Error(
        `${this.node.path}: bucket access '${mode}' writes or deletes objects, so it needs bucketPrefixes (the key prefixes it writes; lambdas/<service>/bucket.ts).`,
      );
    const policy = this.policy('Bucket');
    const objectActions =
      mode === 'put'
        ? ['s3:PutObject']
        : mode === 'rw'
          ? [...S3_READ_OBJECTS, ...S3_WRITE_OBJECTS]
          : mode === 'r+delete'
            ? [...S3_READ_OBJECTS, 's3:DeleteObject']
            : S3_READ_OBJECTS;
    const patterns = prefixes?.length ? prefixes.map((p) => `${p}*`) : ['*'];
    policy.addStatements(
      ...(mode === 'put'
        ? []
        : [new iam.PolicyStatement({ actions: S3_READ_BUCKET, resources: [bucket.bucketArn] })]),
      new iam.PolicyStatement({
        actions: objectActions,
        resources: patterns.map((p) => bucket.arnForObjects(p)),
      }),
    );
    // cdk-nag names the finding after the bucket's ARN as the policy reads it, e.g.
    // Resource::<AudioBucket96BEECBA.Arn>/*.
    for (const bucketArn of arnNamesIn(bucket, policy))
      for (const p of patterns)
        Validations.of(policy).acknowledge({
          id: `AwsSolutions-IAM5[Resource::<${bucketArn}>/${p}]`,
          reason:
            p === '*'
              ? 'Object keys are generated per request (audio, job and document ids), so the grant covers the objects of this one bucket; the actions are listed one by one (no s3:* or GetObject*).'
              : `Object keys under ${p.slice(0, -1)} are generated per request (one per upload id), so the grant covers that prefix of this one bucket; the actions are listed one by one.`,
        });
    this.fn.addEnvironment(envVar, bucket.bucketName);
    return this;
  }

  /** Lets the function send messages (only) to `queue`, and sets `envVar` to its URL. */
  bindQueue(queue: sqs.IQueue, envVar: string): this {
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
    );
    this.fn.addEnvironment(envVar, queue.queueUrl);
    return this;
  }

  /** Lets the function call Amazon Polly, and selects it as the speech engine. */
  allowSpeech(): this {
    const policy = this.policy('Speech');
    policy.addStatements(new iam.PolicyStatement({ actions: ['polly:SynthesizeSpeech'], resources: ['*'] }));
    Validations.of(policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'The Amazon Polly permissions reference lists Resource "*" for polly:SynthesizeSpeech (no voice or engine ARNs exist). Only this one action is granted, and only to manifest entries with speech: true.',
    });
    this.fn.addEnvironment('SPEECH_ENGINE', 'polly');
    return this;
  }

  /**
   * A separate policy per kind of wildcard grant, so each cdk-nag suppression covers exactly one reason. The
   * function depends on it, so it is never invoked (or wired to a queue) before its permissions exist.
   */
  private policy(name: string): iam.Policy {
    let policy = this.extraPolicies.get(name);
    if (!policy) {
      policy = new iam.Policy(this, `${name}Policy`, { roles: [this.role] });
      this.fn.node.addDependency(policy);
      this.extraPolicies.set(name, policy);
    }
    return policy;
  }
}

/**
 * How cdk-nag names the ARN of a resource defined in this app in a policy of `reader` (none for imported ones):
 * `<logical id>.Arn`; from a nested stack also the parameter CDK passes it in once references are resolved at
 * synth (`reference-to-<unique id><attribute>`, aws-cdk-lib's nested-stack references, without its dashes), while
 * a check of the construct tree before synth still sees the logical id.
 */
function arnNamesIn(resource: s3.IBucket, reader: Construct): string[] {
  const child = resource.node.defaultChild;
  if (!(child instanceof CfnElement)) return [];
  const stack = Stack.of(child);
  const own = `${stack.resolve(stack.getLogicalId(child)) as string}.Arn`;
  return Stack.of(reader) === stack ? [own] : [own, `referenceto${Names.nodeUniqueId(child.node)}Arn`];
}
