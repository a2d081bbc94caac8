// ServiceFunction: the one place zip-packaged Lambda defaults are fixed (docs/design-notes.md "One construct fixes function
// defaults"): nodejs22.x on arm64, the esbuild bundle of its handler (./zip-bundles.ts: minified, with source maps,
// built with the stack's other handlers in one esbuild build). What every function shares (log group
// with retention, X-Ray tracing, a role that starts with nothing but "write my logs", the bind* helpers that grant
// IAM and set the matching environment variable in one call) lives in ServiceFunctionBase; container-image functions
// are ImageServiceFunction (image-function.ts).
import { Duration, Size, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { ServiceFunctionBase, type CommonFunctionProps } from './service-function-base';
import type { ZipBundles } from './zip-bundles';

export type { AccessMode } from './service-function-base';

export interface ServiceFunctionProps extends CommonFunctionProps {
  /** The bundles of the stack's zip functions, `handler` among them. */
  bundles: ZipBundles;
  /** Ephemeral /tmp storage; Lambda's default (512 MiB) when omitted. */
  tmpMb?: number;
}

export class ServiceFunction extends ServiceFunctionBase<lambda.Function> {
  readonly fn: lambda.Function;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id, props);

    this.fn = new lambda.Function(this, 'Function', {
      code: props.bundles.code(props.handler),
      handler: 'index.handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      // Graviton: ~20 % cheaper per GB-second. Nothing bundled is a native binary (espeak-ng stays local-only).
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutS),
      ephemeralStorageSize: props.tmpMb === undefined ? undefined : Size.mebibytes(props.tmpMb),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      // Stack traces point at the TypeScript sources (the bundle ships its .map file).
      environment: ServiceFunctionBase.defaultEnvironment(props, '--enable-source-maps'),
    });

    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Runtime pinned on purpose to nodejs22.x (docs/design-notes.md), a supported Lambda runtime: the code is built and tested for Node 22; moving to a newer runtime is a one-line change here, made after the test suite passes on it.',
    });
  }
}
