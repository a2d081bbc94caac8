// ImageServiceFunction: a Lambda run from a container image, with the same defaults and bind* helpers as every other
// function (ServiceFunctionBase). For code that needs more than a zip can carry: the documents renderer ships
// Chromium, the isolated-vm native addon and fonts (lambdas/documents/Dockerfile).
//
// Several functions share ONE image asset (one build and one push per deploy); each runs its own handler through the
// image's CMD override (`lambdas/documents/handlers/render.handler`: the bundle keeps the repository layout).
import { Duration, Size } from 'aws-cdk-lib';
import type { CfnResource } from 'aws-cdk-lib';
import type { DockerImageAsset } from 'aws-cdk-lib/aws-ecr-assets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { ServiceFunctionBase, type CommonFunctionProps } from './service-function-base';

/**
 * /tmp of an image function, at least: @sparticuz/chromium unpacks the browser, its fonts and (on Amazon Linux 2023)
 * its shared libraries there on a cold start, ~200 MB, next to the fontconfig cache and puppeteer's profile folders.
 */
export const IMAGE_MIN_TMP_MB = 1024;

export interface ImageServiceFunctionProps extends CommonFunctionProps {
  /** The image holding this function's handler (built from lambdas/documents/Dockerfile, for instance). */
  image: DockerImageAsset;
  /** Ephemeral /tmp storage. @default IMAGE_MIN_TMP_MB, also the minimum */
  tmpMb?: number;
}

/** The image CMD that runs `handler` ('lambdas/x/handlers/render.ts' → 'lambdas/x/handlers/render.handler'). */
export function imageCommand(handler: string): string {
  if (!/\.(ts|js)$/.test(handler)) throw new Error(`Handler ${handler}: expected a .ts or .js file.`);
  return `${handler.replace(/\.(ts|js)$/, '')}.handler`;
}

export class ImageServiceFunction extends ServiceFunctionBase<lambda.DockerImageFunction> {
  readonly fn: lambda.DockerImageFunction;

  constructor(scope: Construct, id: string, props: ImageServiceFunctionProps) {
    super(scope, id, props);
    const tmpMb = props.tmpMb ?? IMAGE_MIN_TMP_MB;
    if (tmpMb < IMAGE_MIN_TMP_MB)
      throw new Error(
        `${id}: tmpMb ${tmpMb} is below ${IMAGE_MIN_TMP_MB} MB, the room Chromium needs in /tmp.`,
      );

    this.fn = new lambda.DockerImageFunction(this, 'Function', {
      // The shared asset by tag (what DockerImageCode.fromImageAsset would produce, minus a second asset per function).
      code: lambda.DockerImageCode.fromEcr(props.image.repository, {
        tagOrDigest: props.image.imageTag,
        cmd: [imageCommand(props.handler)],
      }),
      description: props.description,
      // x86_64: @sparticuz/chromium ships an x64 Chromium only.
      architecture: lambda.Architecture.X86_64,
      memorySize: props.memoryMb,
      timeout: Duration.seconds(props.timeoutS),
      ephemeralStorageSize: Size.mebibytes(tmpMb),
      role: this.role,
      logGroup: this.logGroup,
      tracing: lambda.Tracing.ACTIVE,
      // --no-node-snapshot: isolated-vm on Node >= 20 (laverdet/isolated-vm#420; lambdas/documents/templating/
      // sandbox.ts). This value replaces the image's own NODE_OPTIONS, so it repeats --enable-source-maps.
      environment: ServiceFunctionBase.defaultEnvironment(props, '--enable-source-maps --no-node-snapshot'),
    });
    // Lets tools that read the cloud assembly (SAM CLI `sam local invoke`) find the image's build context.
    props.image.addResourceMetadata(this.fn.node.defaultChild as CfnResource, 'Code.ImageUri');
  }
}
