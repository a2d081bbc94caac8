// Every manifest service (test/infra/stacks.test.ts): IAM least privilege, strictly from each entry’s access.
import { App } from 'aws-cdk-lib';
import type { TableId } from '../../../lambdas/shared/manifest';
import { auditLeastPrivilege, type AuditTarget } from '../../helpers/iam-audit';
import { noBundling, type Json, type Service, TABLE_ENV, type Synth, entriesOf, isWorker } from './synth';

export function iamCases(svc: Service, s: () => Synth): void {
  const m = svc.manifest;
  const entries = entriesOf(m);

  describe('IAM least privilege, strictly from each entry’s access', () => {
    test.each(entries.map((e) => [e.id, e] as const))('%s', (id, spec) => {
      const { stack, logicalId, fnOf, envOf, statementsOf, actionsOf } = s();
      const fn = fnOf(id);
      const actions = actionsOf(fn);
      const env = envOf(id);
      const { tables = {}, bucket, sendTo = [], speech, readDlqs = [] } = spec.access;

      // DynamoDB: only the tables listed, writes only where 'rw'.
      const ddbStatements = statementsOf(fn).filter((st) =>
        [st.Action].flat().some((a) => a.startsWith('dynamodb:')),
      );
      for (const tableId of Object.keys(stack.tables) as TableId[]) {
        const tableLogicalId = logicalId(stack.tables[tableId]!);
        const onTable = ddbStatements.filter((st) => JSON.stringify(st.Resource).includes(tableLogicalId));
        const mode = tables[tableId];
        expect({ tableId, touched: onTable.length > 0 }).toEqual({ tableId, touched: mode !== undefined });
        expect({ tableId, env: TABLE_ENV[tableId] in env }).toEqual({ tableId, env: mode !== undefined });
        const writes = onTable
          .flatMap((st) => [st.Action].flat())
          .filter((a) => /Put|Update|Delete|BatchWrite/.test(a));
        expect({ tableId, writes: writes.length > 0 }).toEqual({ tableId, writes: mode === 'rw' });
      }
      if (Object.keys(tables).length === 0)
        expect(actions.filter((a) => a.startsWith('dynamodb:'))).toEqual([]);

      // S3: only with access.bucket; writes only where 'rw' ('put': PutObject and nothing else; 'r+delete': reads
      // and DeleteObject); the bucket variable set exactly then.
      const s3Actions = actions.filter((a) => a.startsWith('s3:'));
      if (!bucket) expect(s3Actions).toEqual([]);
      else if (bucket === 'put') expect(s3Actions).toEqual(['s3:PutObject']);
      else expect(s3Actions).toContain('s3:GetObject');
      expect(s3Actions.includes('s3:PutObject')).toBe(bucket === 'rw' || bucket === 'put');
      expect(s3Actions.includes('s3:DeleteObject')).toBe(bucket === 'rw' || bucket === 'r+delete');
      expect(s3Actions.every((a) => !a.includes('*'))).toBe(true);
      expect(svc.bucketEnv in env).toBe(bucket !== undefined);

      // SQS: sending only to the queues in sendTo; consuming only for workers (event sources).
      const sends = statementsOf(fn).filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
      const sentTo = sends.flatMap((st) => [st.Resource].flat()).map((r) => JSON.stringify(r));
      const arn = (q: string) => JSON.stringify({ 'Fn::GetAtt': [logicalId(stack.queues[q]!.queue), 'Arn'] });
      expect(sentTo.sort()).toEqual(sendTo.map(arn).sort());
      expect(actions.includes('sqs:ReceiveMessage')).toBe(isWorker(spec));
      if (!isWorker(spec))
        expect(actions.filter((a) => a.startsWith('sqs:'))).toEqual([
          ...(sendTo.length ? ['sqs:SendMessage'] : []),
          ...(readDlqs.length ? ['sqs:GetQueueAttributes'] : []),
        ]);
      const reads = isWorker(spec) ? spec.queues : [];
      for (const q of m.queues)
        expect({ q: q.envVar, set: q.envVar in env }).toEqual({
          q: q.envVar,
          set: sendTo.includes(q.id) || reads.includes(q.id),
        });
      // DLQ depth (the dashboard): GetQueueAttributes on exactly the DLQs of readDlqs, their URLs in the env.
      const inspected = statementsOf(fn)
        .filter((st) => [st.Action].flat().includes('sqs:GetQueueAttributes'))
        .flatMap((st) => [st.Resource].flat())
        .map((r) => JSON.stringify(r));
      const dlqArn = (q: string) =>
        JSON.stringify({ 'Fn::GetAtt': [logicalId(stack.queues[q]!.dlq), 'Arn'] });
      if (!isWorker(spec)) expect(inspected.sort()).toEqual(readDlqs.map(dlqArn).sort());
      for (const q of m.queues)
        expect({ q: q.id, dlqUrl: `${q.id.toUpperCase()}_DLQ_URL` in env }).toEqual({
          q: q.id,
          dlqUrl: readDlqs.includes(q.id),
        });

      // Polly
      expect(actions.includes('polly:SynthesizeSpeech')).toBe(speech === true);
      expect(actions.filter((a) => a.startsWith('polly:') && a !== 'polly:SynthesizeSpeech')).toEqual([]);
      if (speech) expect(env.SPEECH_ENGINE).toBe('polly');

      // Nothing else but logs and X-Ray; no wildcard actions.
      expect(actions.filter((a) => !/^(dynamodb|s3|sqs|polly|logs|xray):/.test(a))).toEqual([]);
      expect(actions.some((a) => a.endsWith(':*') || a === '*')).toBe(false);
    });

    describe('every synthesized policy and environment (secrets wired)', () => {
      let target: AuditTarget;
      beforeAll(() => {
        const { stack, template, logicalId } = s();
        target = {
          resources: template.toJSON().Resources as Record<string, Json>,
          functions: Object.fromEntries(
            Object.entries(stack.functions).map(([fid, f]) => [
              fid,
              { role: logicalId(f.role), fn: logicalId(f.fn) },
            ]),
          ),
          bucket: logicalId(stack.bucket),
          tables: Object.fromEntries(
            Object.entries(stack.tables).map(([t, table]) => [t, logicalId(table!)]),
          ),
        };
      });

      test('no Scan, no Query but on the indexes a function queries, no S3 write outside the prefixes it writes, no secret it does not read', () => {
        expect(auditLeastPrivilege(target, svc.needs)).toEqual([]);
      });

      test('negative control: planted grants and secrets are reported', () => {
        const planted: AuditTarget = JSON.parse(JSON.stringify(target));
        const [first, second] = Object.keys(planted.functions);
        const tableId = Object.keys(planted.tables)[0]!;
        const tableArn = { 'Fn::GetAtt': [planted.tables[tableId], 'Arn'] };
        const bucketArn = { 'Fn::GetAtt': [planted.bucket, 'Arn'] };
        planted.resources['PlantedPolicy'] = {
          Type: 'AWS::IAM::Policy',
          Properties: {
            Roles: [{ Ref: planted.functions[first!]!.role }],
            PolicyDocument: {
              Statement: [
                { Effect: 'Allow', Action: 'dynamodb:*', Resource: tableArn },
                { Effect: 'Allow', Action: 'dynamodb:Query', Resource: tableArn },
                { Effect: 'Allow', Action: 's3:Put*', Resource: { 'Fn::Join': ['', [bucketArn, '/*']] } },
                {
                  Effect: 'Allow',
                  Action: 's3:DeleteObject',
                  Resource: { 'Fn::Join': ['', [bucketArn, '/x/*']] },
                },
              ],
            },
          },
        };
        const [secret, [reader]] = Object.entries(svc.needs.secrets)[0]! as [string, string[]];
        const env = planted.resources[planted.functions[second!]!.fn]!.Properties.Environment.Variables;
        env[secret] = `{{resolve:secretsmanager:${svc.name}/secrets:SecretString:${secret}::}}`;
        delete planted.resources[planted.functions[reader!]!.fn]!.Properties.Environment.Variables[secret];
        const findings = auditLeastPrivilege(planted, svc.needs);
        expect(findings).toEqual(
          expect.arrayContaining([
            expect.stringMatching(new RegExp(`^${first}: dynamodb:Scan on <Table:${tableId}>$`)),
            expect.stringMatching(new RegExp(`^${first}: dynamodb:Query on <Table:${tableId}> `)),
            `${first}: S3 writes across the whole bucket (<Bucket>/*)`,
            `${first}: writes under x/, which it does not need`,
            `${second}: holds the secret ${secret}, which it does not read`,
            `${reader}: lacks the secret ${secret}, which it reads`,
          ]),
        );
        // A missing write is reported too.
        const missing = { ...svc.needs, bucketWrites: { ...svc.needs.bucketWrites, [first!]: ['y/'] } };
        expect(auditLeastPrivilege(target, missing)).toContain(
          `${first}: may not write under y/, which it needs`,
        );
      });

      test('a manifest write or delete across the whole bucket refuses to synthesize', () => {
        const writer = entries.find((e) => e.access.bucket === 'rw')!;
        const bad = {
          ...m,
          routes: m.routes.map((r) =>
            r.id === writer.id ? { ...r, access: { ...r.access, bucketPrefixes: undefined } } : r,
          ),
          workers: m.workers.map((w) =>
            w.id === writer.id ? { ...w, access: { ...w.access, bucketPrefixes: undefined } } : w,
          ),
        };
        expect(() => new svc.Stack(new App({ context: noBundling }), 'WideWrite', { manifest: bad })).toThrow(
          /needs bucketPrefixes/,
        );
      });
    });

    test('the local-test settings (callback allowlist, DNS stub) reach no function, and cannot be listed', () => {
      const { stack, envOf } = s();
      for (const id of Object.keys(stack.functions)) {
        const env = envOf(id);
        expect({ id, allowlist: 'WEBHOOK_URL_ALLOWLIST' in env, stub: 'WEBHOOK_DNS_STUB' in env }).toEqual({
          id,
          allowlist: false,
          stub: false,
        });
      }
      const target = m.routes.find((r) => r.path !== '$default')!.id;
      const bad = {
        ...m,
        routes: m.routes.map((r) =>
          r.id === target ? { ...r, access: { ...r.access, settings: ['WEBHOOK_URL_ALLOWLIST'] } } : r,
        ),
      };
      expect(() => new svc.Stack(new App({ context: noBundling }), 'Bad', { manifest: bad })).toThrow(
        /local-test setting/,
      );
    });
  });
}
