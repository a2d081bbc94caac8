// One Powertools logger per process. Logs carry request ids and sizes, never callers' texts, keys or secrets:
// every line goes through redactReplacer (lambdas/shared/observability/redact.ts), which drops credentials and
// content by key and by shape. Request handlers add `request_id` (API Gateway's) and `route`
// (lambdas/shared/http/api-handler.ts); injectLambdaContext adds `cold_start` and the Lambda request id.
// `service`: in Lambda the function's POWERTOOLS_SERVICE_NAME (set by the stack). The local runtime serves both
// services in one process, so it runs each invocation inside `asService(name, …)` and lines carry that name.
import { AsyncLocalStorage } from 'node:async_hooks';
import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';
import { redactReplacer } from './observability/redact';

const localService = new AsyncLocalStorage<string>();

/** Runs `fn` with every log line it writes naming `service` (the local runtime: both services in one process). */
export function asService<T>(service: string, fn: () => T): T {
  return localService.run(service, fn);
}

/** Powertools' own line (same keys, same order), with the service of the current invocation when one is set. */
class ServiceFormatter extends LogFormatter {
  formatAttributes(
    attributes: Parameters<LogFormatter['formatAttributes']>[0],
    additional: LogAttributes,
  ): LogItem {
    const ctx = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: localService.getStore() ?? attributes.serviceName,
        cold_start: ctx?.coldStart,
        function_arn: ctx?.invokedFunctionArn,
        function_memory_size: ctx?.memoryLimitInMB,
        function_name: ctx?.functionName,
        function_request_id: ctx?.awsRequestId,
        sampling_rate: attributes.sampleRateValue,
        xray_trace_id: attributes.xRayTraceId,
        tenant_id: ctx?.tenantId,
      },
    }).addAttributes(additional);
  }
}

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'vozdocs',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
  logFormatter: new ServiceFormatter(),
  jsonReplacerFn: redactReplacer,
});
