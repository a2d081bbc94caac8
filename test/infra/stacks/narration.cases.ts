// What only the narration stack has (test/infra/stacks.test.ts).
import { App, Stack } from 'aws-cdk-lib';
import { narrationManifest } from '../../../lambdas/narration/routes';
import { RETENTION_TAG, UPLOAD_PREFIX } from '../../../lambdas/narration/bucket';
import { UPLOAD_ITEM_PREFIX } from '../../../lambdas/narration/adapters/upload-repository';
import { queueVisibilityTimeoutS } from '../../../lib/constructs/manifest-service';
import { NarrationStack } from '../../../lib/narration-stack';
import { flat, noBundling, type Json, type Synth } from './synth';

export function narrationCases(s: () => Synth): void {
  test('the contract paths, and $default (fallback for unknown paths)', () => {
    for (const key of ['$default', 'GET /voices', 'GET /audio/{audio_id}'])
      s().template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
  });

  test('the functions of the site, growth and feeds routes are in nested stacks: in one template the service would be over 400 resources', () => {
    const { stack, resources } = s();
    expect(Object.keys(stack.service.nestedStacks).sort()).toEqual(['feeds', 'growth', 'meta']);
    for (const id of ['SitePage', 'Stats', 'FeedCreate']) expect(Stack.of(s().fnOf(id)).nested).toBe(true);
    for (const id of ['ConvertText', 'Worker', 'FeedScheduler']) expect(Stack.of(s().fnOf(id))).toBe(stack);
    // The control of the 400-resource check above: the same resources joined in one template.
    expect(Object.keys(resources).length).toBeGreaterThan(400);
  });

  test('feeds: EventBridge Scheduler invokes FeedScheduler every 5 min through a role that may do only that, with retries and an alarmed DLQ', () => {
    const { stack, template, logicalId } = s();
    const schedules = Object.values(
      template.findResources('AWS::Scheduler::Schedule') as Record<string, Json>,
    );
    expect(schedules).toHaveLength(1);
    const { schedule, role, dlq } = stack.service.schedules['FeedScheduler']!;
    const props = schedules[0]!.Properties;
    expect(props).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: { 'Fn::GetAtt': [logicalId(stack.functions['FeedScheduler']!.fn), 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [logicalId(role), 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalId(dlq), 'Arn'] } },
        RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 300 },
      },
    });
    expect(schedule.scheduleExpression).toBe('rate(5 minutes)');
    // The role: assumed by EventBridge Scheduler of this account only; invoke that one function, send to its DLQ.
    const roleProps = (template.findResources('AWS::IAM::Role') as Record<string, Json>)[logicalId(role)]!
      .Properties;
    expect(roleProps.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    ]);
    const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Json>).filter(
      (pol) => JSON.stringify(pol.Properties.Roles).includes(logicalId(role)),
    );
    const statements = policies.flatMap((pol) => pol.Properties.PolicyDocument.Statement as Json[]);
    const actions = statements.flatMap((st) => [st.Action].flat()).sort();
    expect(actions).toEqual([
      'lambda:InvokeFunction',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
    ]);
    const invoke = statements.find((st) => st.Action === 'lambda:InvokeFunction')!;
    expect(invoke.Resource).toEqual({
      'Fn::GetAtt': [logicalId(stack.functions['FeedScheduler']!.fn), 'Arn'],
    });
    // The DLQ is alarmed like every DLQ.
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm') as Record<string, Json>);
    expect(
      alarms.filter(
        (a) =>
          a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' &&
          JSON.stringify(a.Properties.Dimensions).includes(logicalId(dlq)),
      ),
    ).toHaveLength(1);
  });

  test('feeds: the poll and article queues feed their workers, each with a DLQ', () => {
    const { stack } = s();
    for (const [q, worker] of [
      ['feedpolls', 'FeedPollWorker'],
      ['feedarticles', 'FeedArticleWorker'],
    ] as const) {
      expect(stack.queues[q]!.spec.maxReceiveCount).toBe(3);
      expect(narrationManifest.workers.find((w) => w.id === worker)!.queues).toEqual([q]);
    }
  });

  test('visibility timeout: 6 × worker timeout, capped at 12 h', () => {
    expect(queueVisibilityTimeoutS(900)).toBe(5400);
    expect(queueVisibilityTimeoutS(10_000)).toBe(43_200);
    expect(queueVisibilityTimeoutS(60, 5)).toBe(365);
  });

  test('worker: fed by the priority and standard queues, 3 receives, standard capped below priority', () => {
    const { stack, template, logicalId } = s();
    const [worker] = narrationManifest.workers;
    expect(worker!.queues.sort()).toEqual(['priority', 'standard']);
    for (const q of ['priority', 'standard']) expect(stack.queues[q]!.spec.maxReceiveCount).toBe(3);
    const concurrency = (q: string): number =>
      Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Json>).find(
        (x) => x.Properties.EventSourceArn['Fn::GetAtt'][0] === logicalId(stack.queues[q]!.queue),
      )!.Properties.ScalingConfig.MaximumConcurrency as number;
    expect(concurrency('standard')).toBeGreaterThanOrEqual(2);
    expect(concurrency('standard')).toBeLessThan(concurrency('priority'));
  });

  test('Voices has no data-plane access at all', () => {
    const actions = s().actionsOf(s().fnOf('Voices'));
    expect(actions.filter((a) => /^(dynamodb|s3|sqs|polly):/.test(a))).toEqual([]);
  });

  test('GetAudio only reads (and deletes the files of an expired audio: see the retention test)', () => {
    const actions = s().actionsOf(s().fnOf('GetAudio'));
    for (const write of [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      's3:PutObject',
      'sqs:SendMessage',
    ]) {
      expect(actions).not.toContain(write);
    }
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 's3:GetObject']));
  });

  test('PDF uploads: ConvertPdfUpload may only PutObject under uploads/ and touch upload# items; browsers may POST; uploads/ expires in a day', () => {
    const { stack, logicalId, fnOf, statementsOf, envOf } = s();
    const bucketId = logicalId(stack.bucket);
    const s3 = statementsOf(fnOf('ConvertPdfUpload')).filter((st) =>
      [st.Action].flat().some((a) => a.startsWith('s3:')),
    );
    expect(s3).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 's3:PutObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/uploads/*']] },
      }),
    ]);
    const audioTable = logicalId(stack.tables.audio!);
    const onAudio = statementsOf(fnOf('ConvertPdfUpload')).filter((st) =>
      JSON.stringify(st.Resource).includes(audioTable),
    );
    expect(onAudio).toHaveLength(1);
    expect(onAudio[0]!.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${UPLOAD_ITEM_PREFIX}*`] },
    });
    expect([onAudio[0]!.Action].flat().filter((a) => /Scan|Query/.test(a))).toEqual([]);
    expect(Object.keys(envOf('ConvertPdfUpload'))).toEqual(
      expect.arrayContaining(['AUDIO_TABLE', 'AUDIO_BUCKET', 'QUOTAS_TABLE', 'KEYS_TABLE']),
    );
    // ConvertPdf reads, then deletes, the uploaded file.
    expect(s().actionsOf(fnOf('ConvertPdf'))).toEqual(
      expect.arrayContaining(['s3:GetObject', 's3:DeleteObject']),
    );
    const bucket = s().resources[bucketId]!.Properties;
    expect(bucket.CorsConfiguration.CorsRules).toContainEqual(
      expect.objectContaining({
        AllowedOrigins: ['*'],
        AllowedMethods: ['POST'],
        ExposedHeaders: expect.arrayContaining(['ETag']),
      }),
    );
    expect(bucket.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Prefix: UPLOAD_PREFIX.prefix, ExpirationInDays: 1, Status: 'Enabled' }),
    );
    expect(UPLOAD_PREFIX.prefix).toBe('uploads/');
  });

  test('retention: one tag-filtered lifecycle rule per retention_days below 30 (audio/ tagged retention-days=<n> goes after n days); writers may tag; the audio GET routes may delete, not write', () => {
    const { stack, logicalId, fnOf } = s();
    const rules = s().resources[logicalId(stack.bucket)]!.Properties.LifecycleConfiguration.Rules as {
      Prefix?: string;
      ExpirationInDays?: number;
      TagFilters?: { Key: string; Value: string }[];
      Status: string;
    }[];
    const tagged = rules.filter((r) => r.TagFilters);
    expect(tagged).toHaveLength(29);
    for (let d = 1; d < 30; d++)
      expect(tagged).toContainEqual(
        expect.objectContaining({
          Prefix: 'audio/',
          ExpirationInDays: d,
          TagFilters: [{ Key: RETENTION_TAG, Value: String(d) }],
          Status: 'Enabled',
        }),
      );
    expect(RETENTION_TAG).toBe('retention-days');
    expect(rules.length).toBeLessThanOrEqual(1000); // S3's limit per bucket
    for (const writer of ['ConvertText', 'ConvertPdf', 'ConvertUrl', 'Worker'])
      expect(s().actionsOf(fnOf(writer))).toContain('s3:PutObjectTagging');
    for (const reader of ['GetAudio', 'GetTimings', 'AudioSegment']) {
      const actions = s().actionsOf(fnOf(reader));
      expect(actions).toEqual(expect.arrayContaining(['s3:GetObject', 's3:DeleteObject']));
      expect(actions).not.toContain('s3:PutObject');
    }
  });

  test('ConvertText gets every variable the runtime reads, with the exact names', () => {
    const env = s().envOf('ConvertText');
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining([
        'AUDIO_TABLE',
        'QUOTAS_TABLE',
        'KEYS_TABLE',
        'AUDIO_BUCKET',
        'AUDIO_TTL_DAYS',
        'PRIORITY_QUEUE_URL',
        'STANDARD_QUEUE_URL',
        'SPEECH_ENGINE',
      ]),
    );
    expect(env.SPEECH_ENGINE).toBe('polly');
    expect(env.AUDIO_TTL_DAYS).toBe('30');
  });

  test('every function that narrates updates the public /stats counters: it gets GROWTH_TABLE and may write it', () => {
    // A narration finished inline (convert routes, demo) or by the worker adds to /stats; without the table the
    // counters silently stay at zero in the cloud (the conversion still succeeds).
    for (const id of ['ConvertText', 'ConvertPdf', 'ConvertUrl', 'DemoTry', 'Worker']) {
      expect([id, s().envOf(id).GROWTH_TABLE]).toEqual([id, expect.anything()]);
      expect([id, s().actionsOf(s().fnOf(id))]).toEqual([
        id,
        expect.arrayContaining(['dynamodb:UpdateItem']),
      ]);
    }
  });

  describe('deployment settings', () => {
    test('secrets come from Secrets Manager only to the functions that read them; plain settings from context', () => {
      const app = new App({
        context: {
          ...noBundling,
          'narration:secretName': 'narration/secrets',
          'narration:STRIPE_PRICE_PRO': 'price_pro_123',
        },
      });
      const t = flat(new NarrationStack(app, 'Settings')).toJSON() as {
        Resources: Record<
          string,
          { Type: string; Properties: { Environment?: { Variables?: Record<string, unknown> } } }
        >;
      };
      const fns = Object.values(t.Resources).filter((r) => r.Type === 'AWS::Lambda::Function');
      const withWebhookSecret = fns.filter(
        (f) => f.Properties.Environment?.Variables?.STRIPE_WEBHOOK_SECRET !== undefined,
      );
      expect(withWebhookSecret).toHaveLength(1);
      expect(
        JSON.stringify(withWebhookSecret[0]!.Properties.Environment!.Variables!.STRIPE_WEBHOOK_SECRET),
      ).toContain('resolve:secretsmanager:narration/secrets:SecretString:STRIPE_WEBHOOK_SECRET');
      const withPrice = fns.filter(
        (f) => f.Properties.Environment?.Variables?.STRIPE_PRICE_PRO === 'price_pro_123',
      );
      expect(withPrice).toHaveLength(2); // PayCheckout (the checkout) and PayWebhook (plan switches in the portal)
    });

    test('secretVersionId pins every secret reference to that version (one deploy after a rotation)', () => {
      const app = new App({
        context: {
          ...noBundling,
          'narration:secretName': 'narration/secrets',
          'narration:secretVersionId': 'v-2026-11-21',
        },
      });
      const refs = JSON.stringify(flat(new NarrationStack(app, 'Pinned')).toJSON()).match(
        /resolve:secretsmanager:[^}"]*/g,
      );
      expect(refs?.length).toBeGreaterThanOrEqual(3);
      for (const ref of refs!) expect(ref).toMatch(/:SecretString:[A-Z_]+::v-2026-11-21$/);
    });

    test('without settings, nothing secret is wired (the routes answer 503 naming the variable)', () => {
      const bare = flat(new NarrationStack(new App({ context: noBundling }), 'Bare')).toJSON();
      const vars = Object.values(bare.Resources as Record<string, Json>)
        .filter((r) => r.Type === 'AWS::Lambda::Function')
        .flatMap((f) => Object.keys((f.Properties.Environment?.Variables ?? {}) as Json));
      expect(vars).not.toContain('STRIPE_SECRET_KEY');
      expect(vars).not.toContain('DASHBOARD_TOKEN');
    });

    test('queue concurrency caps come from context', () => {
      const app = new App({ context: { ...noBundling, 'narration:standardConcurrency': 2 } });
      flat(new NarrationStack(app, 'Capped')).hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        ScalingConfig: { MaximumConcurrency: 2 },
      });
    });
  });
}
