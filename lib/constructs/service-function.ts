// ServiceFunction: the one place zip-packaged Lambda defaults are fixed (docs/design-notes.md "One construct fixes function
// defaults"): nodejs22.x on arm64, esbuild-minified bundle with source maps. What every function shares (log group
// with retention, X-Ray tracing, a role that starts with nothing but "write my logs", the bind* helpers that grant
// IAM and set the matching environment variable in one call) lives in ServiceFunctionBase; container-image functions
// are ImageServiceFunction (image-function.ts).
import * as path from 'node:path';
import { Duration, Size, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { ServiceFunctionBase, type CommonFunctionProps } from './service-function-base';

export type { AccessMode } from './service-function-base';

export interface ServiceFunctionProps extends CommonFunctionProps {
  /** Repository root: esbuild's working directory and the home of package-lock.json. */
  projectRoot: string;
  /** Ephemeral /tmp storage; Lambda's default (512 MiB) when omitted. */
  tmpMb?: number;
  /**
   * Packages left out of the bundle besides espeak-ng. Only for modules the function provably never loads (e.g. a
   * lazily imported renderer that only image functions call): an external the code does load fails at run time.
   */
  externalModules?: string[];
}

export class ServiceFunction extends ServiceFunctionBase<NodejsFunction> {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id, props);

    this.fn = new NodejsFunction(this, 'Function', {
      entry: path.join(props.projectRoot, props.handler),
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: path.join(props.projectRoot, 'package-lock.json'),
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
      bundling: {
        format: OutputFormat.CJS,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // Mappings are enough for stack traces; embedding the sources would double the bundle.
        sourcesContent: false,
        // The AWS SDK is bundled (a pinned, tested version; the runtime's copy changes under us). Only the
        // local speech engine is left out: it is imported lazily when SPEECH_ENGINE is espeak*, never in the cloud.
        bundleAwsSDK: true,
        externalModules: ['espeak-ng', ...(props.externalModules ?? [])],
      },
    });

    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Runtime pinned on purpose to nodejs22.x (docs/design-notes.md), a supported Lambda runtime: the code is built and tested for Node 22; moving to a newer runtime is a one-line change here, made after the test suite passes on it.',
    });
  }
}
