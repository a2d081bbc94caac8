// CDK app entry (cdk.json "app"): wiring only. The stack is environment-agnostic (no account/region lookups), so
// `cdk synth` works offline; `cdk deploy` takes the account and region from the caller's AWS profile.
// cdk-nag's AwsSolutions pack (v3: a CDK policy-validation plugin) runs on every synth: a finding that is not
// acknowledged with a reason (Validations.of(construct).acknowledge) fails the synth.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { NarrationStack } from '../lib/narration-stack';

const app = new App();
new NarrationStack(app, 'Narration');
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
app.synth();
