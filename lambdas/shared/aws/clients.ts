// AWS SDK clients, created once per process. Endpoints come from the SDK's own variables
// (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL_SQS): the local runtime points them at the
// emulators, so this adapter code is exactly what runs in Lambda. In Lambda each client is traced with X-Ray
// (lambdas/shared/observability/aws-clients.ts); locally and in tests it is left as is.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { platformConfig } from '../config';
import { observeAwsClient } from '../observability/aws-clients';

// Socket-level limits (NodeHttpHandler: connectionTimeout = TCP connect, requestTimeout = socket idle), so a
// dependency that stops answering fails the attempt (retried by the SDK, then a 503) instead of holding a worker
// for its whole 15 minutes. Idle, not total: a long S3 upload that keeps sending is never cut.
// DynamoDB's sockets are not capped (the SDK's default is 50): the connection time-out runs from the moment a
// request is made, also while it waits for a free socket, so a burst of more than 50 calls on a slow day timed
// out "unconnected" without trying to connect, then was retried, adding load (faults-sdk-errors.test.ts).
const DYNAMO_HTTP = { connectionTimeout: 2_000, requestTimeout: 5_000, httpAgent: { maxSockets: Infinity } };
const S3_HTTP = { connectionTimeout: 3_000, requestTimeout: 30_000 };
/** Above SQS's 20 s long poll (sqs-consumer's ReceiveMessage waits that long locally). */
const SQS_HTTP = { connectionTimeout: 3_000, requestTimeout: 25_000 };

let ddb: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

export function dynamo(): DynamoDBDocumentClient {
  // The base client is instrumented: the document client shares its middleware stack.
  return (ddb ??= DynamoDBDocumentClient.from(
    observeAwsClient(new DynamoDBClient({ maxAttempts: 4, requestHandler: DYNAMO_HTTP })),
    {
      marshallOptions: { removeUndefinedValues: true },
    },
  ));
}

export function s3Client(): S3Client {
  return (s3 ??= observeAwsClient(
    new S3Client({
      forcePathStyle: platformConfig().S3_FORCE_PATH_STYLE,
      requestHandler: S3_HTTP,
      // Checksums only where S3 requires them: streamed uploads with the default (WHEN_SUPPORTED) are stored
      // corrupted by the local S3 emulator, and S3 itself does not need them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  ));
}

export function sqsClient(): SQSClient {
  return (sqs ??= observeAwsClient(new SQSClient({ requestHandler: SQS_HTTP })));
}

/** Drops cached clients (the local runtime and tests change endpoints between runs). */
export function resetClients(): void {
  ddb?.destroy();
  s3?.destroy();
  sqs?.destroy();
  ddb = s3 = sqs = undefined;
}
