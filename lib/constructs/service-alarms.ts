// ServiceAlarms: what an operator of one service sees and is woken by. Used by both stacks.
//   - An SNS topic (KMS-encrypted with a key CloudWatch may use, TLS-only publishing) that every alarm notifies, with
//     e-mail subscriptions from `-c <service>:alarmEmail=a@example.com[,b@example.com]`.
//   - Alarms (runbook: docs/operations/alarms.md, linked from each alarm's description): every DLQ non-empty, API 5xx
//     rate, API p99 latency, Lambda errors and throttles (metric-math sums over at most 10 functions each, so 22
//     functions cost 6 alarms, not 44), and the service's business alarms (narration: Polly throttling; documents:
//     render failures; both: jobs ended late), on the EMF metrics named in lambdas/<service>/metric-names.ts.
//   - One dashboard: API requests/4xx/5xx/latency, Lambda errors/throttles/duration/concurrency, queue depth and age,
//     the business metrics, and the alarms' states.
//
// Thresholds (`cdk deploy -c <service>:<key>=<value>` or cdk.json "context"):
//   <service>:alarmEmail             comma-separated addresses subscribed to the topic (each must confirm by e-mail)
//   <service>:p99LatencyMs           API p99 latency alarm (default 10000)
//   <service>:serverErrorRatePercent API 5xx share of requests alarm (default 5, evaluated from 10 requests per 5 min)
//   narration:pollyThrottleAlarm     throttled Polly attempts per 5 min (default 20, 2 of 3 periods)
//   documents:renderFailureAlarm     failed renders per 5 min (default 3)
//   <service>:jobsEndedLateAlarm     jobs ended late (their worker died between settling and ending them) per 5 min
//                                    (default 3)
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DOCUMENTS_METRICS, DOCUMENTS_METRIC_SPECS } from '../../lambdas/documents/metric-names';
import { NARRATION_METRICS, NARRATION_METRIC_SPECS } from '../../lambdas/narration/metric-names';
import {
  METRICS_NAMESPACE,
  PLATFORM_METRICS,
  type MetricName,
  type MetricSpec,
  type ServiceName,
} from '../../lambdas/shared/observability/names';

/** Each service's metrics with their units (named in lambdas/<service>/metric-names.ts). */
export const SERVICE_METRICS: Record<ServiceName, MetricSpec[]> = {
  narration: NARRATION_METRIC_SPECS,
  documents: DOCUMENTS_METRIC_SPECS,
};

/** Where each alarm's meaning and first steps are written down. */
export const RUNBOOK = 'docs/operations/alarms.md';
/** CloudWatch evaluates a metric-math alarm over at most 10 metrics. */
export const MAX_METRICS_PER_ALARM = 10;

const FIVE_MINUTES = Duration.minutes(5);

/** A queue feeding a worker; its dead-letter queue (when it has one) gets the DLQ alarm. */
export type WatchedQueue = sqs.IQueue & { readonly deadLetterQueue?: sqs.DeadLetterQueue };

export interface ServiceAlarmsProps {
  service: ServiceName;
  api: IHttpApi;
  /** Every function of the service (ServiceFunction and ImageServiceFunction fit: they expose `fn`). */
  functions: Record<string, { readonly fn: lambda.IFunction }>;
  /** Work queues (graphed; their DLQs alarmed). */
  queues?: Record<string, WatchedQueue>;
  /** Dead-letter queues not attached to a queue above. */
  deadLetterQueues?: Record<string, sqs.IQueue>;
}

interface BusinessAlarm {
  id: string;
  metric: MetricName;
  contextKey: string;
  threshold: number;
  evaluationPeriods: number;
  datapointsToAlarm: number;
  anchor: string;
  summary: string;
}

/**
 * Workers dying between settling a job and ending it (the next delivery ends it: the quota given back, the webhook
 * event queued). One is a crash recovered from; several in five minutes mean workers are dying (timeouts, memory).
 */
const JOBS_ENDED_LATE: BusinessAlarm = {
  id: 'JobsEndedLate',
  metric: PLATFORM_METRICS.JobsEndedLate,
  contextKey: 'jobsEndedLateAlarm',
  threshold: 3,
  evaluationPeriods: 1,
  datapointsToAlarm: 1,
  anchor: 'jobs-ended-late',
  summary:
    'Workers are dying between settling a job and ending it: the next delivery ends each one, late (refunds, webhooks).',
};

/** Alarms on each service's own metrics (names shared with the code that emits them). */
const BUSINESS_ALARMS: Record<ServiceName, BusinessAlarm[]> = {
  narration: [
    {
      id: 'PollyThrottling',
      metric: NARRATION_METRICS.PollyThrottles,
      contextKey: 'pollyThrottleAlarm',
      threshold: 20,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      anchor: 'polly-throttling',
      summary:
        'Polly is throttling SynthesizeSpeech calls (TPS quota): narration slows down and jobs may fail.',
    },

    JOBS_ENDED_LATE,
  ],
  documents: [
    {
      id: 'RenderFailures',
      metric: DOCUMENTS_METRICS.RenderFailures,
      contextKey: 'renderFailureAlarm',
      threshold: 3,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      anchor: 'render-failures',
      summary:
        'Renders are failing for reasons other than the request (Chromium, sandbox, storage): callers get 500.',
    },

    JOBS_ENDED_LATE,
  ],
};

export class ServiceAlarms extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const { service, api } = props;
    const stack = Stack.of(this);
    const ctxNumber = (key: string, fallback: number): number => {
      const raw: unknown = this.node.tryGetContext(`${service}:${key}`);
      if (raw === undefined) return fallback;
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0)
        throw new Error(`Context ${service}:${key} must be a non-negative number (got ${String(raw)}).`);
      return n;
    };
    const runbook = (anchor: string) => `Runbook: ${RUNBOOK}#${anchor}`;

    // ------------------------------------------------------------------ Topic
    // CloudWatch publishes to an encrypted topic only with a customer managed key whose policy lets it use the key
    // (the AWS managed alias/aws/sns key does not).
    const key = new kms.Key(this, 'TopicKey', {
      description: `Encrypts the ${service} alarm topic`,
      enableKeyRotation: true,
      // Notifications are not stored: nothing to keep once the stack is gone.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: `${service} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    const emails = String(this.node.tryGetContext(`${service}:alarmEmail`) ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    for (const email of emails) this.topic.addSubscription(new subscriptions.EmailSubscription(email));
    const notify = new actions.SnsAction(this.topic);

    const alarm = (
      alarmId: string,
      metric: cloudwatch.IMetric,
      opts: Omit<cloudwatch.CreateAlarmOptions, 'alarmName' | 'treatMissingData'> & {
        anchor: string;
        summary: string;
      },
    ): cloudwatch.Alarm => {
      const { anchor, summary, ...rest } = opts;
      const a = new cloudwatch.Alarm(this, alarmId, {
        metric,
        alarmName: `${stack.stackName}-${alarmId}`,
        alarmDescription: `${summary} ${runbook(anchor)}`,
        // No data means no traffic (or an empty queue), not trouble.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...rest,
      });
      a.addAlarmAction(notify);
      a.addOkAction(notify);
      this.alarms.push(a);
      return a;
    };

    // ------------------------------------------------------------------ Queues
    const queues = Object.entries(props.queues ?? {});
    const dlqs: [string, sqs.IQueue][] = [
      ...queues.flatMap(([name, q]) =>
        q.deadLetterQueue ? [[`${name}Dlq`, q.deadLetterQueue.queue] as [string, sqs.IQueue]] : [],
      ),
      ...Object.entries(props.deadLetterQueues ?? {}),
    ];
    for (const [name, dlq] of dlqs) {
      alarm(
        `${name}NotEmpty`,
        dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        {
          threshold: 0,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          anchor: 'dlq-not-empty',
          summary: `Messages are waiting in ${name}: jobs failed every attempt and need a look, then a redrive.`,
        },
      );
    }

    // ------------------------------------------------------------------ API
    const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const errors5xx = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const minRequests = 10;
    const errorRate = new cloudwatch.MathExpression({
      // Below minRequests a single failure would be a large share: the rate counts as 0 then.
      expression: `IF(requests >= ${minRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: errors5xx },
      period: FIVE_MINUTES,
      label: '5xx % of requests',
    });
    alarm('Api5xxRate', errorRate, {
      threshold: ctxNumber('serverErrorRatePercent', 5),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      anchor: 'api-5xx-rate',
      summary: `More than the allowed share of ${service} API requests answer 5xx.`,
    });
    alarm('ApiP99Latency', api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }), {
      threshold: ctxNumber('p99LatencyMs', 10_000),
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      anchor: 'api-p99-latency',
      summary: `The slowest 1% of ${service} API requests take longer than the threshold (ms).`,
    });

    // ------------------------------------------------------------------ Lambda
    const fns = Object.entries(props.functions).sort(([a], [b]) => a.localeCompare(b));
    const groups: [string, lambda.IFunction][][] = [];
    for (let i = 0; i < fns.length; i += MAX_METRICS_PER_ALARM)
      groups.push(fns.slice(i, i + MAX_METRICS_PER_ALARM).map(([n, f]) => [n, f.fn]));
    groups.forEach((group, g) => {
      const names = group.map(([n]) => n).join(', ');
      const sum = (what: 'Errors' | 'Throttles') =>
        new cloudwatch.MathExpression({
          expression: 'SUM(METRICS())',
          usingMetrics: Object.fromEntries(
            group.map(([, fn], i) => [
              `m${i}`,
              what === 'Errors'
                ? fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' })
                : fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
            ]),
          ),
          period: FIVE_MINUTES,
          label: `${what} (${names})`,
        });
      alarm(`LambdaErrors${g + 1}`, sum('Errors'), {
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        anchor: 'lambda-errors',
        summary: `Lambda invocations failed (crash, timeout, out of memory) in: ${names}.`,
      });
      alarm(`LambdaThrottles${g + 1}`, sum('Throttles'), {
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 2,
        datapointsToAlarm: 2,
        anchor: 'lambda-throttles',
        summary: `Lambda refused invocations for lack of concurrency in: ${names}.`,
      });
    });

    // ------------------------------------------------------------------ Business
    const business = (name: MetricName, statistic: string, detail?: Record<string, string>) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE[service],
        metricName: name,
        dimensionsMap: { service, ...detail },
        period: FIVE_MINUTES,
        statistic,
      });
    for (const b of BUSINESS_ALARMS[service]) {
      alarm(b.id, business(b.metric, 'Sum'), {
        threshold: ctxNumber(b.contextKey, b.threshold),
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: b.evaluationPeriods,
        datapointsToAlarm: b.datapointsToAlarm,
        anchor: b.anchor,
        summary: b.summary,
      });
    }

    // ------------------------------------------------------------------ Dashboard
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${stack.stackName}-${service}`,
      defaultInterval: Duration.hours(6),
    });
    const perFn = (metric: (fn: lambda.IFunction) => cloudwatch.IMetric) => fns.map(([, f]) => metric(f.fn));
    const graph = (title: string, left: cloudwatch.IMetric[], right: cloudwatch.IMetric[] = [], width = 12) =>
      new cloudwatch.GraphWidget({ title, left, right, width, height: 6 });
    const fnLabel = (fn: lambda.IFunction) => fns.find(([, f]) => f.fn === fn)?.[0] ?? fn.node.id;

    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({
        title: `${service}: alarms`,
        alarms: this.alarms,
        width: 24,
        height: 4,
      }),
    );
    this.dashboard.addWidgets(
      graph(
        'API requests, 4xx, 5xx (per 5 min)',
        [requests.with({ label: 'requests' })],
        [
          api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum', label: '4xx' }),
          errors5xx.with({ label: '5xx' }),
        ],
      ),
      graph(
        'API latency (ms)',
        ['p50', 'p90', 'p99'].map((p) => api.metricLatency({ period: FIVE_MINUTES, statistic: p, label: p })),
        [api.metricIntegrationLatency({ period: FIVE_MINUTES, statistic: 'p99', label: 'integration p99' })],
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Lambda errors and throttles',
        perFn((fn) =>
          fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: `${fnLabel(fn)} errors` }),
        ),
        perFn((fn) =>
          fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum', label: `${fnLabel(fn)} throttles` }),
        ),
      ),
      graph(
        'Lambda duration p99 (ms) and concurrency',
        perFn((fn) => fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99', label: fnLabel(fn) })),
        perFn((fn) =>
          fn.metric('ConcurrentExecutions', {
            period: FIVE_MINUTES,
            statistic: 'Maximum',
            label: `${fnLabel(fn)} conc.`,
          }),
        ),
      ),
    );
    const allQueues: [string, sqs.IQueue][] = [...queues, ...dlqs];
    if (allQueues.length > 0) {
      this.dashboard.addWidgets(
        graph(
          'Queue depth (visible messages)',
          allQueues.map(([name, q]) =>
            q.metricApproximateNumberOfMessagesVisible({
              period: Duration.minutes(1),
              statistic: 'Maximum',
              label: name,
            }),
          ),
        ),
        graph(
          'Age of the oldest message (s)',
          allQueues.map(([name, q]) =>
            q.metricApproximateAgeOfOldestMessage({
              period: Duration.minutes(1),
              statistic: 'Maximum',
              label: name,
            }),
          ),
        ),
      );
    }
    const counts = SERVICE_METRICS[service].filter((m) => m.unit === 'Count');
    const durations = SERVICE_METRICS[service].filter((m) => m.unit === 'Milliseconds');
    this.dashboard.addWidgets(
      graph(
        `${service}: business (per 5 min)`,
        counts.map((m) => business(m.name, 'Sum').with({ label: m.name })),
        [],
        durations.length > 0 ? 12 : 24,
      ),
      ...durations.map((m) =>
        graph(
          `${m.name} (ms)`,
          ['p50', 'p99'].map((p) => business(m.name, p).with({ label: `${m.name} ${p}` })),
        ),
      ),
    );
  }
}
