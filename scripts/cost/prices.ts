// Cost model (scripts/cost-model.ts): the AWS list prices it applies, each with its source and the date it was read.

export interface Price {
  usd: number;
  unit: string;
  source: string;
}

/** Date the prices below were read. */
export const PRICES_CHECKED = '2026-11-21';
const LAMBDA_SRC =
  'https://aws.amazon.com/lambda/pricing/ (first tier; as transcribed by cloudchipr.com/blog/aws-lambda-pricing)';

/** us-east-1 list prices, beyond any free tier. Re-read them from the sources before relying on the totals. */
export const PRICES = {
  pollyNeural: {
    usd: 16 / 1e6,
    unit: 'character',
    source:
      'https://aws.amazon.com/polly/pricing/ ($16.00 per 1M characters; transcription read 2026-10-07, api-evangelist/amazon-polly)',
  },
  pollyStandard: {
    usd: 4 / 1e6,
    unit: 'character',
    source: 'https://aws.amazon.com/polly/pricing/ ($4.00 per 1M characters; same transcription)',
  },
  pollyGenerative: {
    usd: 30 / 1e6,
    unit: 'character',
    source:
      'https://aws.amazon.com/polly/pricing/ ($30.00 per 1M characters; list price as published since the generative engine launched, not re-read here)',
  },
  pollyLongForm: {
    usd: 100 / 1e6,
    unit: 'character',
    source:
      'https://aws.amazon.com/polly/pricing/ ($100.00 per 1M characters; list price as published since the long-form engine launched, not re-read here)',
  },
  lambdaArmGbS: { usd: 0.0000133334, unit: 'GB-second (arm64)', source: LAMBDA_SRC },
  lambdaX86GbS: { usd: 0.0000166667, unit: 'GB-second (x86_64)', source: LAMBDA_SRC },
  lambdaRequest: { usd: 0.2 / 1e6, unit: 'invocation', source: LAMBDA_SRC },
  lambdaTmpGbS: {
    usd: 0.0000000309,
    unit: 'GB-second of /tmp above 512 MB',
    source:
      'https://aws.amazon.com/lambda/pricing/ (ephemeral storage; figure not re-confirmed in this lookup)',
  },
  sqsRequest: {
    usd: 0.4 / 1e6,
    unit: 'request (64 KB chunk), standard queue',
    source:
      'https://aws.amazon.com/sqs/pricing/ (as summarised by cloudburn.io/blog/amazon-sqs-pricing, 2026)',
  },
  s3Put: {
    usd: 0.005 / 1000,
    unit: 'PUT/COPY/POST/LIST request (S3 Standard)',
    source: 'https://aws.amazon.com/s3/pricing/ (as quoted by awsi.click, S3 request pricing)',
  },
  s3Get: { usd: 0.0004 / 1000, unit: 'GET request (S3 Standard)', source: 'same as S3 PUT' },
  s3StorageGbMonth: {
    usd: 0.023,
    unit: 'GB-month (S3 Standard, first 50 TB)',
    source: 'https://aws.amazon.com/s3/pricing/ (first 50 TB tier)',
  },
  ddbWrite: {
    usd: 0.625 / 1e6,
    unit: 'write request unit (on-demand)',
    source:
      'https://aws.amazon.com/dynamodb/pricing/on-demand/ (after the Nov 2024 cut; airbyte.com DynamoDB pricing, 2025)',
  },
  ddbRead: {
    usd: 0.125 / 1e6,
    unit: 'read request unit (on-demand)',
    source: 'same as DynamoDB writes',
  },
  schedulerInvocation: {
    usd: 1 / 1e6,
    unit: 'EventBridge Scheduler invocation',
    source:
      'https://aws.amazon.com/eventbridge/pricing/ (Scheduler: $1.00 per million invocations after 14M free)',
  },
  apiHttpRequest: {
    usd: 1 / 1e6,
    unit: 'HTTP API request (first 300M/month, metered per 512 KB)',
    source: 'https://aws.amazon.com/api-gateway/pricing/ (apigatewaycost.com, awsforengineers.com)',
  },
  logsIngestGb: {
    usd: 0.5,
    unit: 'GB ingested (CloudWatch Logs, standard class)',
    source: 'https://aws.amazon.com/cloudwatch/pricing/ (c3x.dev CloudWatch Logs pricing, 2026)',
  },
  transferOutGb: {
    usd: 0.09,
    unit: 'GB out to the internet (first 10 TB, after 100 GB free)',
    source:
      'https://aws.amazon.com/ec2/pricing/on-demand/ data transfer (wring.co data transfer guide, 2026)',
  },
} satisfies Record<string, Price>;
export type Prices = { [K in keyof typeof PRICES]: Price };
