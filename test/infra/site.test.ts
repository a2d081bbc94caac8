// The web front in the stacks: for every service whose manifest has a `SitePage` route (narration's site and
// /panel; documents' playground once it lands), the synthesized stack has each site route (`GET /`,
// `GET /site/{file}`, every page path the handler serves) on its HTTP API, integrated with that route's own
// function built from the site handler; the API is served over HTTPS only (an HTTP API's execute-api endpoint,
// TLS 1.2+, no plain-HTTP listener); the site handler's answers carry the security headers; cdk-nag stays clean.
// Synthesized without bundling (CDK's `aws:cdk:bundling-stacks` switch): this file reads routes, integrations and
// outputs, not the bundles (test/infra/stacks.test.ts and test/artifact build those).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { documentsManifest } from '../../lambdas/documents/routes';
import { narrationManifest } from '../../lambdas/narration/routes';
import type { RouteSpec, ServiceManifest } from '../../lambdas/shared/manifest';
import type { ManifestStack } from '../../lib/constructs/manifest-service';
import { flatTemplate, logicalIdOf } from '../helpers/nested-templates';
import { DocumentsStack } from '../../lib/documents-stack';
import { NarrationStack } from '../../lib/narration-stack';
import { apiEvent, callHandler } from '../helpers/api-event';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..', '..');
const cdkJson = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};
const context = { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Service {
  name: string;
  id: string;
  Stack: new (app: App, id: string) => ManifestStack;
  manifest: ServiceManifest;
}

const SERVICES = (
  [
    { name: 'narration', id: 'Narration', Stack: NarrationStack, manifest: narrationManifest },
    { name: 'documents', id: 'Documents', Stack: DocumentsStack, manifest: documentsManifest },
  ] satisfies Service[]
).filter((svc) => svc.manifest.routes.some((r) => r.id === 'SitePage'));

test('narration has a site (SitePage) route; every service with one is checked below', () => {
  expect(SERVICES.map((s) => s.name)).toContain('narration');
});

describe.each(SERVICES.map((svc) => [svc.name, svc] as const))('%s site', (_name, svc) => {
  const sitePage = svc.manifest.routes.find((r) => r.id === 'SitePage')!;
  /** Every route served by the site handler: `/`, `/site/{file}`, the other page paths (its file also serves $default). */
  const siteRoutes: RouteSpec[] = svc.manifest.routes.filter(
    (r) => r.handler === sitePage.handler && r.path !== '$default',
  );
  let stack: ManifestStack;
  let template: Template;
  let nagFindings: string[];
  let nagError: unknown;

  beforeAll(() => {
    stack = new svc.Stack(new App({ context }), svc.id);
    template = flatTemplate(stack, Object.values(stack.service.nestedStacks));
    // cdk-nag as bin/app.ts runs it (policy-validation plugin: an unacknowledged finding makes synth throw).
    const nagApp = new App({ context });
    new svc.Stack(nagApp, svc.id);
    const nag = new AwsSolutionsChecks(nagApp, { verbose: true });
    nagFindings = nag
      .validateScope(nagApp)
      .violations.map(
        (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
      );
    Validations.of(nagApp).addPlugins(nag);
    try {
      nagApp.synth();
    } catch (err) {
      nagError = err;
    }
  });

  const logicalId = (c: { node: { defaultChild?: unknown } }) => logicalIdOf(c);

  test('the site routes: GET /, GET /site/{file}, and one route per page the handler serves', async () => {
    const paths = siteRoutes.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(expect.arrayContaining(['GET /', 'GET /site/{file}']));
    // Every page path the handler maps (its PAGES) has a route, so no page is only reachable locally.
    const mod = (await import(path.join(ROOT, sitePage.handler))) as { PAGES?: Record<string, string> };
    for (const page of Object.keys(mod.PAGES ?? { '/': '' })) expect(paths).toContain(`GET ${page}`);
  });

  test('each site route is on the HTTP API, integrated (payload 2.0) with its own function from the site handler', () => {
    const routes = template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Json>;
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Json>;
    const apiId = Object.keys(template.findResources('AWS::ApiGatewayV2::Api'))[0]!;
    for (const spec of siteRoutes) {
      const routeKey = `${spec.method} ${spec.path}`;
      const route = Object.values(routes).find((r) => r.Properties.RouteKey === routeKey);
      expect({ routeKey, found: route !== undefined }).toEqual({ routeKey, found: true });
      expect(route!.Properties.ApiId).toEqual({ Ref: apiId });
      const integration = integrations[route!.Properties.Target['Fn::Join'][1][1].Ref as string]!;
      expect(integration.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
      });
      const fn = stack.functions[spec.id]!;
      expect(integration.Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [logicalId(fn.fn), 'Arn'] });
      // A static page needs no table, bucket, queue or secret.
      expect(spec.access).toEqual({});
    }
  });

  test('served over HTTPS: an HTTP API whose only endpoint is https://…execute-api…', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    const url = JSON.stringify(template.findOutputs('*')['ApiUrl'] ?? template.findOutputs('*'));
    expect(url).toMatch(/"https:\/\/"/);
    expect(url).toContain('execute-api');
    expect(url).not.toMatch(/"http:\/\//);
  });

  test.each(['GET /', 'GET /site/{file}'])(
    'the handler of %s answers with CSP, HSTS, nosniff and frame DENY',
    async (key) => {
      const mod = (await import(path.join(ROOT, sitePage.handler))) as {
        handler: Parameters<typeof callHandler>[0];
        PAGES?: Record<string, string>;
      };
      const files = Object.values(mod.PAGES ?? {});
      const pages = Object.keys(mod.PAGES ?? { '/': '' });
      const requests =
        key === 'GET /'
          ? pages.map((p) => apiEvent('GET', p, { routeKey: `GET ${p}` }))
          : [
              apiEvent('GET', `/site/${files[0] ?? 'index.html'}`, {
                params: { file: files[0] ?? 'index.html' },
                routeKey: key,
              }),
              apiEvent('GET', '/site/no-such-file.js', {
                params: { file: 'no-such-file.js' },
                routeKey: key,
              }),
            ];
      for (const event of requests) {
        const res = await callHandler(mod.handler, event);
        const h = Object.fromEntries(
          Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
        );
        const csp = h['content-security-policy'] ?? '';
        expect({ path: event.rawPath, status: res.statusCode }).toEqual({
          path: event.rawPath,
          status: event.rawPath.includes('no-such-file') ? 404 : 200,
        });
        expect(csp).toMatch(/(^|; )default-src 'self'(;|$)/);
        expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
        expect(csp).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
        expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
        expect(
          Number(/max-age=(\d+)/.exec(h['strict-transport-security'] ?? '')?.[1]),
        ).toBeGreaterThanOrEqual(31_536_000);
        expect(h['x-content-type-options']).toBe('nosniff');
        expect(h['x-frame-options']).toBe('DENY');
      }
    },
  );

  test('cdk-nag (AwsSolutions) stays clean: no unacknowledged finding, synth passes', () => {
    expect(nagFindings).toEqual([]);
    expect(nagError).toBeUndefined();
  });
});
