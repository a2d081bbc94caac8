// Every manifest service (test/infra/stacks.test.ts): CloudFormation limits, the HTTP API and the functions.
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type Json, type Service, type Synth, entriesOf } from './synth';

export function limitsAndApiCases(svc: Service, s: () => Synth): void {
  const m = svc.manifest;
  const entries = entriesOf(m);

  describe('templates within CloudFormation limits', () => {
    /** Resources per template: the service stack and each of its nested stacks. */
    const counts = () => {
      const { stack } = s();
      return [stack, ...Object.values(stack.service.nestedStacks)].map(
        (st) => [st.node.path, Object.keys(Template.fromStack(st).toJSON().Resources).length] as const,
      );
    };

    test('each template holds at most 400 resources: 100 of room under the limit of 500', () => {
      expect(counts().filter(([, n]) => n > 400)).toEqual([]);
    });

    test('nested stacks hold functions only: tables, the bucket and the queues keep their logical ids here', () => {
      const { stack } = s();
      const own = Template.fromStack(stack);
      for (const type of ['AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::SQS::Queue'])
        expect(Object.keys(own.findResources(type)).length).toBe(
          Object.keys(s().template.findResources(type)).length,
        );
      for (const nested of Object.values(stack.service.nestedStacks)) {
        const types = new Set(
          Object.values(Template.fromStack(nested).toJSON().Resources as Record<string, Json>).map(
            (r) => r.Type,
          ),
        );
        for (const type of types)
          expect([
            'AWS::IAM::Policy',
            'AWS::IAM::Role',
            'AWS::Lambda::Function',
            'AWS::Logs::LogGroup',
          ]).toContain(type);
      }
    });
  });

  describe('HTTP API from the manifest', () => {
    test('one route per manifest route, each integrated with its own Lambda', () => {
      const { template, logicalId, fnOf } = s();
      const apiRoutes = template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Json>;
      expect(Object.keys(apiRoutes)).toHaveLength(m.routes.length);
      const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Json>;
      const targets = new Set<string>();
      for (const spec of m.routes) {
        const routeKey = spec.path === '$default' ? '$default' : `${spec.method} ${spec.path}`;
        const route = Object.values(apiRoutes).find((r) => r.Properties.RouteKey === routeKey);
        expect({ routeKey, found: route !== undefined }).toEqual({ routeKey, found: true });
        const integrationId = route!.Properties.Target['Fn::Join'][1][1].Ref as string;
        expect(integrations[integrationId]!.Properties).toMatchObject({
          IntegrationType: 'AWS_PROXY',
          PayloadFormatVersion: '2.0',
        });
        const fnId = logicalId(fnOf(spec.id).fn);
        expect(integrations[integrationId]!.Properties.IntegrationUri).toEqual({
          'Fn::GetAtt': [fnId, 'Arn'],
        });
        targets.add(fnId);
      }
      expect(targets.size).toBe(m.routes.length);
    });

    test('default stage: auto-deploy, access logs, throttling', () => {
      const { template } = s();
      template.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
      template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
      template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
        StageName: '$default',
        AutoDeploy: true,
        AccessLogSettings: {
          DestinationArn: Match.anyValue(),
          Format: Match.stringLikeRegexp('\\$context\\.requestId'),
        },
        DefaultRouteSettings: {
          ThrottlingRateLimit: Match.anyValue(),
          ThrottlingBurstLimit: Match.anyValue(),
        },
      });
    });

    test('outputs: API URL, bucket, table and queue names', () => {
      expect(Object.keys(s().template.findOutputs('*'))).toEqual(expect.arrayContaining(svc.outputs));
    });
  });

  describe('functions', () => {
    test('one Lambda per manifest entry, all traced, logging to their own group, with the service name', () => {
      const { template, resources } = s();
      const fns = template.findResources('AWS::Lambda::Function') as Record<string, Json>;
      expect(Object.keys(fns)).toHaveLength(entries.length);
      for (const fn of Object.values(fns)) {
        expect(fn.Properties).toMatchObject({
          TracingConfig: { Mode: 'Active' },
          Environment: { Variables: { POWERTOOLS_SERVICE_NAME: svc.name, LOG_LEVEL: 'INFO' } },
          LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
        });
        expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toContain('--enable-source-maps');
        const logGroup = resources[fn.Properties.LoggingConfig.LogGroup.Ref]!;
        expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
        expect(logGroup.Properties.RetentionInDays).toBeGreaterThan(0);
      }
    });

    test('memory and timeout come from the manifest', () => {
      for (const spec of entries) {
        const props = s().propsOf(spec.id);
        expect({ id: spec.id, mem: props.MemorySize, t: props.Timeout }).toEqual({
          id: spec.id,
          mem: spec.memoryMb,
          t: spec.timeoutS,
        });
      }
    });

    const zip = entries.filter((e) => e.packaging !== 'image');
    test.each(zip.map((e) => [e.id] as const))('zip entry %s: nodejs22.x on arm64', (id) => {
      expect(s().propsOf(id)).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
      });
      expect(s().propsOf(id).PackageType).toBeUndefined();
    });

    test('roles carry no managed policies (no AWSLambdaBasicExecutionRole: logs only to their own group)', () => {
      for (const role of Object.values(
        s().template.findResources('AWS::IAM::Role') as Record<string, Json>,
      )) {
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      }
    });
  });
}
