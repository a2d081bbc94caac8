// CDK app entry (cdk.json "app"): wiring only. The stacks are environment-agnostic (no account/region lookups), so
// `cdk synth` works offline; `cdk deploy` takes the account and region from the caller's AWS profile.
// Documents' container image is an asset: synth only fingerprints its build context (no Docker needed), deploy builds it.
// cdk-nag's AwsSolutions pack (v3: a CDK policy-validation plugin) runs on every synth: a finding that is not
// acknowledged with a reason (Validations.of(construct).acknowledge) fails the synth.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { DocumentsStack } from '../lib/documents-stack';
import { NarrationStack } from '../lib/narration-stack';

const app = new App();
new NarrationStack(app, 'Narration');
new DocumentsStack(app, 'Documents');
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
