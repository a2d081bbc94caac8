// A service's S3 bucket, from its manifest's BucketSpec (lambdas/<service>/bucket.ts: key prefixes and their
// lifecycle, CORS), and the bucket its server access logs go to. Construct ids are the spec's, under the given scope.
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { ServiceManifest } from '../../lambdas/shared/manifest';

/** The service's bucket (private, SSE-S3, TLS only, retained) and the bucket its server access logs go to. */
export function serviceBucket(
  scope: Construct,
  manifest: Pick<ServiceManifest, 'service' | 'bucket'>,
): s3.Bucket {
  const spec = manifest.bucket;
  const secure = {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    // Server access log delivery supports SSE-S3 only.
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: RemovalPolicy.RETAIN,
  };
  const accessLogBucket = new s3.Bucket(scope, 'AccessLogBucket', {
    ...secure,
    lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(90) }],
  });
  Validations.of(accessLogBucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason: `This bucket is the destination of the ${manifest.service} bucket's server access logs; logging it into itself would loop, and a second log bucket would only move the finding.`,
  });
  return new s3.Bucket(scope, spec.id, {
    ...secure,
    // Versioning off on purpose: every object is written once under a fresh id and expires by lifecycle, and can
    // be produced again (audio from its text, documents from templates). Versions would keep expired or
    // overwritten bytes (and bill for them) and need noncurrent-version rules, for no recovery value.
    versioned: false,
    serverAccessLogsBucket: accessLogBucket,
    serverAccessLogsPrefix: spec.accessLogPrefix,
    lifecycleRules: [
      ...spec.expire.map((e) => ({
        id: e.id,
        prefix: e.prefix,
        expiration: Duration.days(e.days),
        ...(e.tag ? { tagFilters: { [e.tag.key]: e.tag.value } } : {}),
      })),
      { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
    ],
    // Objects stay private: CORS only lets pages read what a presigned URL already grants.
    cors: [
      {
        allowedOrigins: ['*'],
        allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.HEAD],
        ...(spec.cors.allowedHeaders ? { allowedHeaders: spec.cors.allowedHeaders } : {}),
        exposedHeaders: spec.cors.exposedHeaders,
        maxAge: 3600,
      },
      // Browsers POST a file straight to S3 with a presigned POST: the signed policy (key, size range, content
      // type, expiry), not CORS, decides what may be stored; CORS only lets the page send the form and read ETag.
      ...(spec.cors.uploads
        ? [
            {
              allowedOrigins: ['*'],
              allowedMethods: [s3.HttpMethods.POST],
              allowedHeaders: ['*'],
              exposedHeaders: ['ETag', 'Location'],
              maxAge: 3600,
            },
          ]
        : []),
    ],
  });
}
