// Infra layer: CloudFormation assertions on both stacks (ManifestService, lib/constructs/manifest-service.ts), each
// built from the same route manifest the local runtime serves, plus cdk-nag's AwsSolutions pack. What every manifest
// service gets is asserted for both (describe.each); what only one service has stays in its own block below.
// Each app is synthesized once for the whole file, without bundling (CDK's own `aws:cdk:bundling-stacks` switch):
// these assertions read templates, and the esbuild bundles are built once per run by the artifact project's
// `cdk synth` (test/artifact/global-setup.ts), which then loads and invokes every one of them — an unresolvable import
// fails there. Documents' container image is only fingerprinted and staged, never built (no Docker here), so its
// build context and the Dockerfile's contract with the code are checked statically.
import { documentsCases } from './stacks/documents.cases';
import { iamCases } from './stacks/iam.cases';
import { limitsAndApiCases } from './stacks/limits-api.cases';
import { narrationCases } from './stacks/narration.cases';
import { resourceCases } from './stacks/resources.cases';
import { DOCUMENTS, NARRATION, SERVICES, synthOf } from './stacks/synth';

describe.each(SERVICES.map((svc) => [svc.name, svc] as const))('%s stack', (_name, svc) => {
  const s = synthOf(svc);
  limitsAndApiCases(svc, s);
  iamCases(svc, s);
  resourceCases(svc, s);
});

describe('narration only', () => {
  narrationCases(synthOf(NARRATION));
});

describe('documents only', () => {
  documentsCases(synthOf(DOCUMENTS));
});
