// Deployment settings a function reads (its manifest entry's `access.settings`), bound the same way by both stacks:
//   secrets  from one Secrets Manager secret (JSON with these fields) named by `-c <service>:secretName=…`, as
//            deploy-time dynamic references: the value never appears in the template or cdk.out.
//            `-c <service>:secretVersionId=…` pins the reference to a version: CloudFormation re-reads a secret only
//            when the reference text changes, so passing the new version id after a rotation is what makes one
//            `cdk deploy` hand the new value to the functions (docs/operations/runbook.md).
//   others   plain values from `-c <service>:NAME=…`.
//   local    settings for local tests only: refused here, whatever the manifest or context says.
// Without a value the function answers 503 naming the missing variable (lambdas/shared/config.ts).
import { SecretValue } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';

/** Settings read from Secrets Manager rather than the CDK context (both services). */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set([
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'DASHBOARD_TOKEN',
  'DOCS_STRIPE_WEBHOOK_SECRET',
]);

/** Settings for local tests only: no function in the cloud may get them. */
export const LOCAL_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  'WEBHOOK_URL_ALLOWLIST',
  'WEBHOOK_DNS_STUB',
]);

export function settingsBinder(scope: Construct, service: string) {
  const ctx = (name: string) => scope.node.tryGetContext(`${service}:${name}`) as string | undefined;
  const secretName = ctx('secretName');
  const versionId = ctx('secretVersionId');
  return (fn: lambda.Function, names: readonly string[] = []): void => {
    for (const name of names) {
      if (LOCAL_ONLY_SETTINGS.has(name))
        throw new Error(`${name} is a local-test setting: the stack never passes it to a function.`);
      if (SECRET_SETTINGS.has(name)) {
        if (secretName)
          fn.addEnvironment(
            name,
            SecretValue.secretsManager(secretName, {
              jsonField: name,
              ...(versionId ? { versionId } : {}),
            }).unsafeUnwrap(),
          );
      } else {
        const value = ctx(name);
        if (value !== undefined) fn.addEnvironment(name, String(value));
      }
    }
  };
}
