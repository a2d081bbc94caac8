// A service's CloudFormation templates read as one. The Narration stack defines some functions in nested stacks
// (lib/constructs/manifest-service.ts, `nestedTags`); tests that check a function's route, grants, environment or
// alarms read them through this view, so they do not depend on which template holds a function. Each nested
// template's resources join the parent's, and the references CDK passes between them are replaced by what they
// stand for: a nested stack's parameter by the parent's value for it, a parent's read of a nested output by that
// output's value. The AWS::CloudFormation::Stack resources themselves are left out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack, type NestedStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const NESTED_STACK = 'AWS::CloudFormation::Stack';

/** `value` with every node `replace` returns something for replaced by it (deeply). */
function substitute(value: Json, replace: (node: Json) => Json | undefined): Json {
  const replaced = replace(value);
  if (replaced !== undefined) return replaced;
  if (Array.isArray(value)) return value.map((v) => substitute(v, replace));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, replace)]));
  return value;
}

/**
 * The parent template with its nested stacks' templates joined in. `nestedOf` gives the template of the parent's
 * AWS::CloudFormation::Stack resource with that logical id.
 */
export function flattenNested(parent: Json, nestedOf: (logicalId: string, resource: Json) => Json): Json {
  const resources: Record<string, Json> = {};
  const outputs: Record<string, Record<string, Json>> = {};
  for (const [id, r] of Object.entries(parent.Resources ?? {}) as [string, Json][]) {
    if (r.Type !== NESTED_STACK) {
      resources[id] = r;
      continue;
    }
    const params: Record<string, Json> = r.Properties?.Parameters ?? {};
    const fromParent = (node: Json) =>
      node && typeof node === 'object' && typeof node.Ref === 'string' && node.Ref in params
        ? params[node.Ref]
        : undefined;
    const nested = substitute(nestedOf(id, r), fromParent);
    for (const [nid, nr] of Object.entries(nested.Resources ?? {})) {
      if (nid in resources || nid in (parent.Resources ?? {}))
        throw new Error(`logical id ${nid} is in both the parent and the nested stack ${id}`);
      resources[nid] = nr;
    }
    outputs[id] = Object.fromEntries(
      Object.entries(nested.Outputs ?? {}).map(([name, o]) => [name, (o as Json).Value]),
    );
  }
  const fromNested = (node: Json) => {
    const att = node && typeof node === 'object' ? node['Fn::GetAtt'] : undefined;
    if (!Array.isArray(att) || !(att[0] in outputs) || !String(att[1]).startsWith('Outputs.'))
      return undefined;
    const value = outputs[att[0]]![String(att[1]).slice('Outputs.'.length)];
    if (value === undefined) throw new Error(`nested stack ${att[0]} has no output ${att[1]}`);
    return value;
  };
  return substitute({ ...parent, Resources: resources }, fromNested);
}

/** The logical id of a construct's resource in its own stack's template. */
export function logicalIdOf(construct: { node: { defaultChild?: unknown } }): string {
  const el = construct.node.defaultChild as Parameters<Stack['getLogicalId']>[0];
  const stack = Stack.of(el);
  return stack.resolve(stack.getLogicalId(el)) as string;
}

/** A stack's template with its nested stacks (synthesized in memory) joined in, as a Template for assertions. */
export function flatTemplate(stack: Stack, nested: readonly NestedStack[]): Template {
  const byId = new Map(
    nested.map((n) => [logicalIdOf({ node: { defaultChild: n.nestedStackResource } }), n]),
  );
  const json = flattenNested(Template.fromStack(stack).toJSON(), (id) => {
    const n = byId.get(id);
    if (!n) throw new Error(`no nested stack for ${id}`);
    return Template.fromStack(n).toJSON();
  });
  return Template.fromJSON(json);
}

/** The same from a cloud assembly on disk: each nested template is the file its resource's asset path names. */
export function flatTemplateFile(dir: string, parent: Json): Json {
  return flattenNested(parent, (id, r) => {
    const file = r.Metadata?.['aws:asset:path'];
    if (typeof file !== 'string') throw new Error(`nested stack ${id} names no template file`);
    return JSON.parse(readFileSync(join(dir, file), 'utf8'));
  });
}
