// DocumentsStack: the Documents API (spec/documents-api.md) on AWS, assembled FROM the route manifest
// (lambdas/documents/routes.ts) by ManifestService (lib/constructs/manifest-service.ts): one Lambda per route behind
// its own HTTP API. `packaging: 'image'` entries run from ONE container image (lambdas/documents/Dockerfile:
// Chromium, isolated-vm, fonts, templates), each with its own handler as the image CMD; the others are zip bundles.
// DynamoDB tables (only those the manifest names) and an S3 bucket for samples and large results
// (lambdas/documents/bucket.ts). Async renders (Scale): the manifest's queues (render, deliveries; each with a DLQ)
// feed its workers; see docs/documents-rendering.md, "Async renders and webhooks".
//
// The image is an asset: `cdk synth` only fingerprints and stages its build context (the repository root, narrowed by
// /.dockerignore), so synth needs neither Docker nor a network; `cdk deploy` builds it (linux/amd64) and pushes it.
//
// Configuration (all optional; `cdk deploy -c documents:key=value` or cdk.json "context"): docs/deploy.md.
import { documentsManifest } from '../lambdas/documents/routes';
import { serviceStack } from './constructs/manifest-service';

export const DocumentsStack = serviceStack({
  description:
    'Documents API: JSON + templates to PDF, XLSX, CSV, HTML, DOCX and more (HTTP API, Lambda container images with Chromium, DynamoDB, S3).',
  manifest: documentsManifest,
  apiDescription: 'Documents API (spec/documents-api.md)',
  publicApiReason:
    'Public API by contract (spec/documents-api.md): the free tier is anonymous with per-IP monthly quotas, paid plans send "Authorization: Bearer <key>", which the handler verifies against the keys table (hashed) because an absent key must still be served as free tier.',
  // The names the alarms were first deployed with (their logical ids).
  queueLabel: (queueId) => `${queueId}Queue`,
});
