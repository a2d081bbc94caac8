// Infra layer: the alarms, SNS topic and dashboard of each service (lib/constructs/service-alarms.ts), asserted on
// the synthesized stacks, plus cdk-nag. Bundling is skipped: these assertions read the template, not the bundles.
// The same checks run for every stack; each must wire ServiceAlarms (construct id 'Observability'), or the suite
// fails.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Stack, Validations, type CfnElement, type PolicyValidationPluginReport } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { narrationManifest } from '../../lambdas/narration/routes';
import { METRICS_NAMESPACE, type ServiceName } from '../../lambdas/shared/observability/names';
import { MAX_METRICS_PER_ALARM, SERVICE_METRICS, ServiceAlarms } from '../../lib/constructs/service-alarms';
import { DocumentsStack } from '../../lib/documents-stack';
import { NarrationStack } from '../../lib/narration-stack';
import type { ManifestStack } from '../../lib/constructs/manifest-service';
import { flatTemplate } from '../helpers/nested-templates';

const ROOT = path.resolve(__dirname, '..', '..');
const cdkJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};
const baseContext = { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Case {
  service: ServiceName;
  make(app: App): ManifestStack;
  /** The business alarm's metric. */
  businessMetric: string;
}

const CASES: Case[] = [
  {
    service: 'narration',
    make: (app) => new NarrationStack(app, 'Narration'),
    businessMetric: 'PollyThrottles',
  },
  {
    service: 'documents',
    make: (app) => new DocumentsStack(app, 'Documents'),
    businessMetric: 'RenderFailures',
  },
];

interface Built {
  stack: ManifestStack;
  template: Template;
  resources: Record<string, Json>;
  observability?: ServiceAlarms;
  nag: PolicyValidationPluginReport;
  nagSynthError: unknown;
}

const built = new Map<ServiceName, Built>();

function build(c: Case, extraContext: Record<string, unknown> = {}): Built {
  const app = new App({ context: { ...baseContext, ...extraContext } });
  const stack = c.make(app);
  const nag = new AwsSolutionsChecks(app, { verbose: true });
  const report = nag.validateScope(app);
  Validations.of(app).addPlugins(nag);
  let nagSynthError: unknown;
  try {
    app.synth();
  } catch (err) {
    nagSynthError = err;
  }
  const template = flatTemplate(stack, Object.values(stack.service.nestedStacks));
  return {
    stack,
    template,
    resources: template.toJSON().Resources as Record<string, Json>,
    observability: stack.observability,
    nag: report,
    nagSynthError,
  };
}

beforeAll(() => {
  for (const c of CASES) built.set(c.service, build(c, { [`${c.service}:alarmEmail`]: 'ops@example.com' }));
}, 120_000);

const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string =>
  stack.resolve(stack.getLogicalId(construct.node.defaultChild as CfnElement)) as string;

const ofType = (b: Built, type: string): [string, Json][] =>
  Object.entries(b.resources).filter(([, r]) => r.Type === type);

/** The dashboard's widgets: its body is a Fn::Join of JSON text and references, which become @@Ref:Id@@ strings. */
function dashboardWidgets(dashboard: Json): Json[] {
  const body = dashboard.Properties.DashboardBody as string | { 'Fn::Join': [string, (string | Json)[]] };
  const text =
    typeof body === 'string'
      ? body
      : body['Fn::Join'][1]
          .map((part) =>
            typeof part === 'string'
              ? part
              : part.Ref
                ? `@@Ref:${part.Ref}@@`
                : `@@GetAtt:${(part['Fn::GetAtt'] as string[]).join('.')}@@`,
          )
          .join('');
  return (JSON.parse(text) as { widgets: Json[] }).widgets;
}

/** Metric stats of an alarm, whether it watches one metric or a math expression. */
function metricsOf(alarm: Json): { namespace: string; name: string; dims: Json[] }[] {
  const p = alarm.Properties;
  if (p.MetricName) return [{ namespace: p.Namespace, name: p.MetricName, dims: p.Dimensions ?? [] }];
  return (p.Metrics as Json[])
    .filter((m) => m.MetricStat)
    .map((m) => ({
      namespace: m.MetricStat.Metric.Namespace,
      name: m.MetricStat.Metric.MetricName,
      dims: m.MetricStat.Metric.Dimensions ?? [],
    }));
}

for (const c of CASES) {
  describe(`${c.service}: alarms, topic, dashboard`, () => {
    const b = () => built.get(c.service)!;

    test('the construct is wired under the id Observability', () => {
      expect(b().observability).toBeInstanceOf(ServiceAlarms);
      expect(b().observability!.node.id).toBe('Observability');
    });

    test('one SNS topic, KMS-encrypted with a rotating key CloudWatch may use, TLS-only, e-mail from context', () => {
      const topics = ofType(b(), 'AWS::SNS::Topic');
      expect(topics).toHaveLength(1);
      const [topicId, topic] = topics[0]!;
      const keyId = topic.Properties.KmsMasterKeyId['Fn::GetAtt'][0] as string;
      const key = b().resources[keyId]!;
      expect(key.Type).toBe('AWS::KMS::Key');
      expect(key.Properties.EnableKeyRotation).toBe(true);
      expect(JSON.stringify(key.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
      b().template.hasResourceProperties('AWS::SNS::TopicPolicy', {
        Topics: [{ Ref: topicId }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      });
      b().template.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: 'ops@example.com',
        TopicArn: { Ref: topicId },
      });
    });

    test('every alarm notifies the topic on ALARM and OK', () => {
      const topicId = ofType(b(), 'AWS::SNS::Topic')[0]![0];
      const alarms = ofType(b(), 'AWS::CloudWatch::Alarm');
      expect(alarms.length).toBeGreaterThan(0);
      for (const [, a] of alarms) {
        expect(a.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
        expect(a.Properties.OKActions).toEqual([{ Ref: topicId }]);
        expect(a.Properties.AlarmDescription).toContain('docs/operations/alarms.md#');
      }
    });

    test('each DLQ: an alarm when it holds any message', () => {
      const queues = ofType(b(), 'AWS::SQS::Queue');
      const dlqIds = queues
        .map(
          ([, q]) =>
            q.Properties.RedrivePolicy?.deadLetterTargetArn?.['Fn::GetAtt']?.[0] as string | undefined,
        )
        .filter((x): x is string => x !== undefined);
      const alarms = ofType(b(), 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
      for (const dlqId of dlqIds) {
        const match = alarms.filter(
          (a) =>
            a.MetricName === 'ApproximateNumberOfMessagesVisible' &&
            JSON.stringify(a.Dimensions).includes(dlqId),
        );
        expect({ dlqId, alarms: match.length }).toEqual({ dlqId, alarms: 1 });
        expect(match[0]).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
      }
      // Narration: the standard and priority job queues, the completion-webhooks queue and the two feed queues.
      if (c.service === 'narration') expect(dlqIds).toHaveLength(5);
    });

    test('API: 5xx rate (metric math over 5xx and Count) and p99 latency', () => {
      const apiId = logicalId(
        b().stack,
        (b().stack as unknown as { api: { node: { defaultChild?: unknown } } }).api,
      );
      const alarms = ofType(b(), 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
      const rate = alarms.find((a) =>
        (a.Metrics as Json[] | undefined)?.some((m) => /IF\(/.test(m.Expression ?? '')),
      );
      expect(rate).toBeDefined();
      const used = metricsOf({ Properties: rate });
      expect(used.map((m) => m.name).sort()).toEqual(['5xx', 'Count']);
      for (const m of used) {
        expect(m.namespace).toBe('AWS/ApiGateway');
        expect(m.dims).toEqual([{ Name: 'ApiId', Value: { Ref: apiId } }]);
      }
      const latency = alarms.find((a) => a.MetricName === 'Latency');
      expect(latency).toMatchObject({
        Namespace: 'AWS/ApiGateway',
        ExtendedStatistic: 'p99',
        Threshold: 10_000,
        Dimensions: [{ Name: 'ApiId', Value: { Ref: apiId } }],
      });
    });

    test('Lambda errors and throttles: every function in exactly one alarm of each, at most 10 metrics per alarm', () => {
      const fnIds = ofType(b(), 'AWS::Lambda::Function').map(([id]) => id);
      expect(fnIds.length).toBeGreaterThan(0);
      const alarms = ofType(b(), 'AWS::CloudWatch::Alarm').map(([, a]) => a);
      for (const metricName of ['Errors', 'Throttles']) {
        const covering = new Map<string, number>();
        for (const a of alarms) {
          const ms = metricsOf(a).filter((m) => m.namespace === 'AWS/Lambda' && m.name === metricName);
          if (ms.length === 0) continue;
          expect(ms.length).toBeLessThanOrEqual(MAX_METRICS_PER_ALARM);
          for (const m of ms) {
            const fnId = m.dims[0]!.Value.Ref as string;
            covering.set(fnId, (covering.get(fnId) ?? 0) + 1);
          }
        }
        expect(Object.fromEntries(fnIds.map((id) => [id, covering.get(id) ?? 0]))).toEqual(
          Object.fromEntries(fnIds.map((id) => [id, 1])),
        );
      }
    });

    test(`business alarm on ${c.businessMetric} reads the EMF metric the code emits`, () => {
      b().template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: METRICS_NAMESPACE[c.service],
        MetricName: c.businessMetric,
        Dimensions: [{ Name: 'service', Value: c.service }],
        Statistic: 'Sum',
      });
    });

    test('JobsEndedLate alarm: the platform metric the job engine emits, per service, ≥ 3 in 5 min', () => {
      b().template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: METRICS_NAMESPACE[c.service],
        MetricName: 'JobsEndedLate',
        Dimensions: [{ Name: 'service', Value: c.service }],
        Statistic: 'Sum',
        Period: 300,
        Threshold: 3,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmDescription: Match.stringLikeRegexp('docs/operations/alarms.md#jobs-ended-late'),
      });
    });

    test('one dashboard: alarm states, API, Lambda, queues and business metrics', () => {
      const dashboards = ofType(b(), 'AWS::CloudWatch::Dashboard');
      expect(dashboards).toHaveLength(1);
      const widgets = dashboardWidgets(dashboards[0]![1]);
      const alarmWidget = widgets.find((w) => w.type === 'alarm');
      expect(alarmWidget?.properties.alarms).toHaveLength(ofType(b(), 'AWS::CloudWatch::Alarm').length);
      const graphs = widgets.filter((w) => w.type === 'metric');
      const titles = graphs.map((w) => w.properties.title as string);
      for (const t of ['API requests', 'API latency', 'Lambda errors', 'Lambda duration'])
        expect(titles.some((x) => x.startsWith(t))).toBe(true);
      // Every metric line: [namespace, name, dimension name, dimension value, ...].
      const lines = graphs.flatMap((w) => w.properties.metrics as unknown[][]);
      const names = (ns: string) => new Set(lines.filter((l) => l[0] === ns).map((l) => l[1] as string));
      expect([...names('AWS/ApiGateway')].sort()).toEqual([
        '4xx',
        '5xx',
        'Count',
        'IntegrationLatency',
        'Latency',
      ]);
      expect([...names('AWS/Lambda')].sort()).toEqual([
        'ConcurrentExecutions',
        'Duration',
        'Errors',
        'Throttles',
      ]);
      expect([...names(METRICS_NAMESPACE[c.service])].sort()).toEqual(
        SERVICE_METRICS[c.service].map((m) => m.name).sort(),
      );
      for (const [fnId] of ofType(b(), 'AWS::Lambda::Function'))
        expect(lines.some((l) => l[0] === 'AWS/Lambda' && l[3] === `@@Ref:${fnId}@@`)).toBe(true);
      const queueIds = ofType(b(), 'AWS::SQS::Queue').map(([id]) => `@@GetAtt:${id}.QueueName@@`);
      for (const metric of ['ApproximateNumberOfMessagesVisible', 'ApproximateAgeOfOldestMessage']) {
        const graphed = lines.filter((l) => l[0] === 'AWS/SQS' && l[1] === metric).map((l) => l[3]);
        expect(graphed.sort()).toEqual([...queueIds].sort());
      }
    });

    test('cdk-nag: synthesizes with no unacknowledged finding', () => {
      expect(b().nagSynthError).toBeUndefined();
      const findings = b().nag.violations.map(
        (v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
      );
      expect(findings).toEqual([]);
    });
  });
}

describe('settings', () => {
  test('thresholds come from context; no e-mail subscription without alarmEmail', () => {
    const app = new App({
      context: { ...baseContext, 'narration:p99LatencyMs': 4000, 'narration:pollyThrottleAlarm': 7 },
    });
    const tuned = new NarrationStack(app, 'Tuned');
    const t = flatTemplate(tuned, Object.values(tuned.service.nestedStacks));
    t.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'Latency', Threshold: 4000 });
    t.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'PollyThrottles', Threshold: 7 });
    t.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  test('a non-numeric threshold fails the synth with the setting’s name', () => {
    const app = new App({ context: { ...baseContext, 'narration:p99LatencyMs': 'fast' } });
    expect(() => new NarrationStack(app, 'Bad')).toThrow(/narration:p99LatencyMs/);
  });

  test('narration: the functions watched are the manifest’s entries', () => {
    expect(Object.keys(built.get('narration')!.stack.functions).sort()).toEqual(
      [...narrationManifest.routes, ...narrationManifest.workers, ...(narrationManifest.schedules ?? [])]
        .map((r) => r.id)
        .sort(),
    );
  });
});
