// NarrationStack: the Narration API (spec/narration-api.md) on AWS, assembled FROM the route manifest
// (lambdas/narration/routes.ts) by ManifestService (lib/constructs/manifest-service.ts): one Lambda per route behind
// an HTTP API; one worker fed by a priority and a standard SQS queue; DynamoDB tables and an S3 bucket
// (lambdas/narration/bucket.ts) whose permissions are granted strictly from each manifest entry's `access`.
//
// Configuration (all optional; `cdk deploy -c narration:key=value` or cdk.json "context"): docs/deploy.md.
import { narrationManifest } from '../lambdas/narration/routes';
import { serviceStack } from './constructs/manifest-service';

export const NarrationStack = serviceStack({
  description:
    'Narration API: Spanish text, PDFs and articles to narrated audio (HTTP API, Lambda, SQS, Polly, S3).',
  manifest: narrationManifest,
  apiDescription: 'Narration API (spec/narration-api.md)',
  // Near CloudFormation's 500 resources per template: the functions of the site, growth and feeds routes are
  // defined in nested stacks (their routes and everything stateful stay here).
  nestedTags: ['meta', 'growth', 'feeds'],
  publicApiReason:
    'Public API by contract (spec/narration-api.md): the free tier is anonymous with per-IP quotas, paid plans send "Authorization: Bearer <key>", which the handler verifies against the keys table (hashed) because an absent key must still be served as free tier; webhook and dashboard routes verify their own signature/token.',
});
