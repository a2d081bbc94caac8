// Every manifest service (test/infra/stacks.test.ts): the bucket, tables, queues and workers, and cdk-nag.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { IMAGE_MIN_TMP_MB } from '../../../lib/constructs/image-function';
import { queueVisibilityTimeoutS } from '../../../lib/constructs/manifest-service';
import { type Json, type Service, type Synth, entriesOf } from './synth';

export function resourceCases(svc: Service, s: () => Synth): void {
  const m = svc.manifest;
  const entries = entriesOf(m);

  describe('S3 bucket', () => {
    const bucketJson = (): Json => s().resources[s().logicalId(s().stack.bucket)]!;

    test('private, SSE, TLS only, access-logged, unversioned, retained', () => {
      const bucket = bucketJson();
      expect(bucket.DeletionPolicy).toBe('Retain');
      expect(bucket.Properties).toMatchObject({
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        LoggingConfiguration: { DestinationBucketName: { Ref: expect.any(String) } },
      });
      expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
      s().template.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: s().logicalId(s().stack.bucket) },
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    });

    test(`lifecycle: ${svc.expires.map(([p, d]) => `${p} ${d} d`).join(', ')}, incomplete uploads 1 d`, () => {
      expect(bucketJson().Properties.LifecycleConfiguration.Rules).toEqual(
        expect.arrayContaining([
          ...svc.expires.map(([prefix, days]) =>
            expect.objectContaining({ Prefix: prefix, ExpirationInDays: days, Status: 'Enabled' }),
          ),
          expect.objectContaining({
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
            Status: 'Enabled',
          }),
        ]),
      );
    });

    test('CORS lets pages GET/HEAD what a presigned URL grants (and POST presigned uploads where the manifest says), from any origin', () => {
      expect(bucketJson().Properties.CorsConfiguration.CorsRules).toEqual([
        expect.objectContaining({ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'HEAD'] }),
        ...(m.bucket.cors.uploads
          ? [expect.objectContaining({ AllowedOrigins: ['*'], AllowedMethods: ['POST'] })]
          : []),
      ]);
    });
  });

  describe('DynamoDB tables', () => {
    test('exactly the tables the manifest names', () => {
      const named = new Set(entries.flatMap((r) => Object.keys(r.access.tables ?? {})));
      expect(Object.keys(s().stack.tables).sort()).toEqual([...named].sort());
      expect(Object.keys(s().stack.tables)).toEqual(expect.arrayContaining(svc.tables.map(([id]) => id)));
      s().template.resourceCountIs('AWS::DynamoDB::Table', named.size);
    });

    test.each(svc.tables)('%s: on-demand, PITR, TTL expiresAt, encrypted, retained, pk %s', (id, pk) => {
      const table = s().resources[s().logicalId(s().stack.tables[id]!)]!;
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.UpdateReplacePolicy).toBe('Retain');
      expect(table.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [{ AttributeName: pk, KeyType: 'HASH' }],
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        SSESpecification: { SSEEnabled: true },
      });
    });

    test('keys table has the byEmail index', () => {
      expect(s().resources[s().logicalId(s().stack.tables.keys!)]!.Properties.GlobalSecondaryIndexes).toEqual(
        [
          expect.objectContaining({
            IndexName: 'byEmail',
            KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
          }),
        ],
      );
    });
  });

  describe('queues and workers', () => {
    test('every manifest queue is read by exactly one worker', () => {
      for (const q of m.queues) expect(m.workers.filter((w) => w.queues.includes(q.id))).toHaveLength(1);
      expect(Object.keys(s().stack.queues).sort()).toEqual(m.queues.map((q) => q.id).sort());
    });

    test.each(m.queues.map((q) => [q.id] as const))(
      'queue %s: own DLQ (14 days), SSE, TLS only, redrive after maxReceiveCount, visibility 6 × its worker timeout',
      (id) => {
        const { stack, resources, template, logicalId } = s();
        const { queue, dlq, spec } = stack.queues[id]!;
        const props = resources[logicalId(queue)]!.Properties;
        expect(props.SqsManagedSseEnabled).toBe(true);
        expect(props.RedrivePolicy).toEqual({
          deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(dlq), 'Arn'] },
          maxReceiveCount: spec.maxReceiveCount,
        });
        const reader = m.workers.find((w) => w.queues.includes(id))!;
        expect(props.VisibilityTimeout).toBe(queueVisibilityTimeoutS(reader.timeoutS));
        expect(props.VisibilityTimeout).toBeGreaterThanOrEqual(6 * reader.timeoutS);
        expect(resources[logicalId(dlq)]!.Properties).toMatchObject({
          SqsManagedSseEnabled: true,
          MessageRetentionPeriod: 14 * 24 * 3600,
        });
        for (const q of [queue, dlq])
          template.hasResourceProperties('AWS::SQS::QueuePolicy', {
            Queues: [{ Ref: logicalId(q) }],
            PolicyDocument: {
              Statement: Match.arrayWith([
                Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
              ]),
            },
          });
      },
    );

    test('no two queues share a DLQ', () => {
      const dlqs = Object.values(s().stack.queues).map((q) => s().logicalId(q.dlq));
      expect(new Set(dlqs).size).toBe(m.queues.length);
    });

    test.each(m.workers.map((w) => [w.id, w] as const))(
      'worker %s: fed by its queues (batch 1, partial failures, capped concurrency), MAX_RECEIVE_COUNT and queue URLs set',
      (id, spec) => {
        const { stack, template, logicalId, fnOf, envOf, actionsOf, propsOf } = s();
        const mappings = Object.values(
          template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Json>,
        ).filter((x) => x.Properties.FunctionName.Ref === logicalId(fnOf(id).fn));
        expect(mappings).toHaveLength(spec.queues.length);
        for (const queueId of spec.queues) {
          const { queue, spec: queueSpec } = stack.queues[queueId]!;
          template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
            EventSourceArn: { 'Fn::GetAtt': [logicalId(queue), 'Arn'] },
            FunctionName: { Ref: logicalId(fnOf(id).fn) },
            BatchSize: 1,
            FunctionResponseTypes: ['ReportBatchItemFailures'],
            ScalingConfig: { MaximumConcurrency: queueSpec.maxConcurrency },
          });
          expect(envOf(id).MAX_RECEIVE_COUNT).toBe(String(queueSpec.maxReceiveCount));
          expect(envOf(id)[queueSpec.envVar]).toEqual({ Ref: logicalId(queue) });
        }
        // It consumes its own queues (the event source's grant, ChangeMessageVisibility included for retries).
        expect(actionsOf(fnOf(id))).toEqual(
          expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']),
        );
        const tmp = spec.packaging === 'image' ? Math.max(spec.tmpMb, IMAGE_MIN_TMP_MB) : spec.tmpMb;
        expect(propsOf(id).EphemeralStorage).toEqual({ Size: tmp });
      },
    );

    test('event sources: one per queue a worker reads, nothing else', () => {
      s().template.resourceCountIs(
        'AWS::Lambda::EventSourceMapping',
        m.workers.reduce((n, w) => n + w.queues.length, 0),
      );
    });
  });

  describe('cdk-nag AwsSolutions', () => {
    test('synthesizes with the pack as a validation plugin', () => {
      expect(s().nagSynthError).toBeUndefined();
    });

    test('zero unacknowledged errors and warnings', () => {
      const findings = s().nagReport.violations.map(
        (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
      );
      expect(findings).toEqual([]);
    });

    test('no CDK error or warning annotations', () => {
      const annotations = Annotations.fromStack(s().stack);
      const messages = [
        ...annotations.findError('*', Match.anyValue()),
        ...annotations.findWarning('*', Match.anyValue()),
      ].map((a) => `${a.id}: ${String(a.entry.data)}`);
      expect(messages).toEqual([]);
    });
  });
}
