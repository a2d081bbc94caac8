// One Powertools logger per process. Logs carry request ids and sizes, never callers' texts, keys or secrets:
// every line goes through redactReplacer (lambdas/shared/observability/redact.ts), which drops credentials and
// content by key and by shape. Request handlers add `request_id` (API Gateway's) and `route`
// (lambdas/shared/http/api-handler.ts); injectLambdaContext adds `cold_start` and the Lambda request id.
import { Logger } from '@aws-lambda-powertools/logger';
import { redactReplacer } from './observability/redact';

export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'narration',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | undefined) ?? 'INFO',
  jsonReplacerFn: redactReplacer,
});
