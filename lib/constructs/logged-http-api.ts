// The HTTP API both stacks expose: an explicit `$default` stage (the implicit one cannot take access logs or
// throttling) with a stage-wide throttle and JSON access logs of context variables only (no bodies, no
// Authorization header). Built in the scope given (the stack's, or its 'Default' ManifestService) with the ids 'Api', 'ApiAccessLogs' and 'DefaultStage', so
// the logical ids of existing deployments do not change.
import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

export interface LoggedHttpApiProps {
  apiName: string;
  description: string;
  logRetention: logs.RetentionDays;
  /** Stage-wide ceiling against floods; plan quotas are enforced by the handlers. */
  throttle: { rateLimit: number; burstLimit: number };
}

export function loggedHttpApi(
  scope: Construct,
  props: LoggedHttpApiProps,
): { api: HttpApi; stage: HttpStage } {
  const api = new HttpApi(scope, 'Api', {
    apiName: props.apiName,
    description: props.description,
    createDefaultStage: false,
  });
  const accessLogs = new logs.LogGroup(scope, 'ApiAccessLogs', {
    retention: props.logRetention,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const stage = new HttpStage(scope, 'DefaultStage', {
    httpApi: api,
    stageName: '$default',
    autoDeploy: true,
    throttle: props.throttle,
    accessLogSettings: {
      destination: new LogGroupLogDestination(accessLogs),
      format: AccessLogFormat.custom(
        JSON.stringify({
          requestId: '$context.requestId',
          ip: '$context.identity.sourceIp',
          requestTime: '$context.requestTime',
          routeKey: '$context.routeKey',
          method: '$context.httpMethod',
          path: '$context.path',
          status: '$context.status',
          responseLength: '$context.responseLength',
          latencyMs: '$context.responseLatency',
          integrationLatencyMs: '$context.integration.latency',
          integrationStatus: '$context.integration.status',
          integrationError: '$context.integrationErrorMessage',
          userAgent: '$context.identity.userAgent',
        }),
      ),
    },
  });
  return { api, stage };
}
