// Reads a synthesized cloud assembly (cdk.out) the way a deployment would use it, without knowing construct paths:
// every AWS::Lambda::Function of every stack (its nested stacks' included), with its code (zip asset folder or image command), handler, memory,
// timeout and environment as the template gives them, the HTTP API route that invokes it (ApiGatewayV2 Route →
// Integration → function) and the queues that feed it (EventSourceMapping).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { flatTemplateFile } from '../helpers/nested-templates';

type Json = Record<string, unknown>;

export interface AssemblyFunction {
  stack: string;
  logicalId: string;
  packaging: 'zip' | 'image';
  /** Asset folder under cdk.out (zip: the bundle; image: the Docker build context). */
  assetPath: string;
  /** Zip: `index.handler`; image: the CMD (`lambdas/documents/handlers/render.handler`). */
  handler: string;
  memoryMb: number;
  timeoutS: number;
  description: string | undefined;
  /** Environment.Variables: strings, or CloudFormation intrinsics ({Ref}, {Fn::GetAtt}, ...). */
  environment: Record<string, unknown>;
  /** RouteKey of the HTTP API route invoking it (`GET /voices`, `$default`), if any. */
  routeKey?: string;
  /** Logical ids of the SQS queues whose event source mappings invoke it. */
  queues: string[];
  /** Docker build args (image functions). */
  buildArgs?: Record<string, string>;
}

export interface Assembly {
  dir: string;
  stacks: { name: string; template: Json }[];
  functions: AssemblyFunction[];
}

const refOf = (value: unknown): string | undefined => {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { Ref?: unknown; 'Fn::GetAtt'?: unknown };
  if (typeof v.Ref === 'string') return v.Ref;
  if (Array.isArray(v['Fn::GetAtt'])) return String(v['Fn::GetAtt'][0]);
  return undefined;
};

/** Logical ids referenced anywhere inside `value` (Ref, GetAtt, also inside Fn::Join). */
function refsIn(value: unknown, out: string[] = []): string[] {
  const ref = refOf(value);
  if (ref) out.push(ref);
  else if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) refsIn(v, out);
  return out;
}

export function readAssembly(dir: string): Assembly {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
  };
  const stacks = Object.entries(manifest.artifacts)
    .filter(([, a]) => a.type === 'aws:cloudformation:stack')
    .map(([name, a]) => ({
      name,
      // Functions defined in a nested stack (lib/constructs/manifest-service.ts `nestedTags`) read as the stack's own.
      template: flatTemplateFile(
        dir,
        JSON.parse(readFileSync(join(dir, a.properties!.templateFile!), 'utf8')),
      ) as Json,
    }));
  const functions: AssemblyFunction[] = [];
  for (const { name, template } of stacks) {
    const resources = template.Resources as Record<
      string,
      { Type: string; Properties: Json; Metadata?: Json }
    >;
    const routeKeys = new Map<string, string>();
    const queues = new Map<string, string[]>();
    for (const r of Object.values(resources)) {
      if (r.Type === 'AWS::ApiGatewayV2::Route') {
        const integrationId = refsIn(r.Properties.Target)[0];
        const integration = integrationId ? resources[integrationId] : undefined;
        const fnId = integration && refOf(integration.Properties.IntegrationUri);
        if (fnId) routeKeys.set(fnId, String(r.Properties.RouteKey));
      }
      if (r.Type === 'AWS::Lambda::EventSourceMapping') {
        const fnId = refOf(r.Properties.FunctionName);
        const queueId = refOf(r.Properties.EventSourceArn);
        if (fnId && queueId) queues.set(fnId, [...(queues.get(fnId) ?? []), queueId]);
      }
    }
    for (const [logicalId, r] of Object.entries(resources)) {
      if (r.Type !== 'AWS::Lambda::Function') continue;
      const p = r.Properties;
      const assetPath = r.Metadata?.['aws:asset:path'];
      if (typeof assetPath !== 'string') continue; // inline code (custom resources): not ours
      const image = p.PackageType === 'Image';
      const imageCommand = (p.ImageConfig as { Command?: string[] } | undefined)?.Command?.[0];
      functions.push({
        stack: name,
        logicalId,
        packaging: image ? 'image' : 'zip',
        assetPath,
        handler: image ? String(imageCommand) : String(p.Handler),
        memoryMb: Number(p.MemorySize ?? 128),
        timeoutS: Number(p.Timeout ?? 3),
        description: p.Description as string | undefined,
        environment: ((p.Environment as Json | undefined)?.Variables ?? {}) as Record<string, unknown>,
        routeKey: routeKeys.get(logicalId),
        queues: queues.get(logicalId) ?? [],
        buildArgs: r.Metadata?.['aws:asset:docker-build-args'] as Record<string, string> | undefined,
      });
    }
  }
  return { dir, stacks, functions };
}

/** The repository-relative source files of a zip bundle, from its source map (`sources`, entry first). */
export function bundleSources(bundleDir: string): string[] {
  const mapFile = join(bundleDir, 'index.js.map');
  if (!existsSync(mapFile)) throw new Error(`${mapFile} is missing: bundles are built with source maps`);
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
  return map.sources;
}

/**
 * The environment a function starts with: the template's variables, each CloudFormation reference (table, bucket,
 * queue) replaced by the emulators' value for the same variable, which must exist.
 */
export function resolveEnvironment(
  fn: AssemblyFunction,
  emulatorEnv: Record<string, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      out[name] = String(value);
      continue;
    }
    const local = emulatorEnv[name];
    if (local === undefined)
      throw new Error(
        `${fn.stack}/${fn.logicalId}: ${name} is ${JSON.stringify(value)} in the template and the emulators have no value for it`,
      );
    out[name] = local;
  }
  return out;
}
