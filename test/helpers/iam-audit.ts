// Least privilege, read from a synthesized template: walks every IAM policy attached to a function's role and every
// function's environment, and reports each grant wider than what the function is expected to do — any
// dynamodb:Scan, a Query on the table or on an index it does not query, an S3 write or delete across the whole
// bucket or under a prefix it does not write, a secret it does not read — and each expected grant that is missing.
// The expectations are written out by the test (from reading the code), never derived from the manifest.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

export interface Needs {
  /** Function id → key prefixes of the service bucket it writes or deletes under (absent: none). */
  bucketWrites: Record<string, string[]>;
  /** Function id → `<table>.<index>` it queries (absent: none). */
  queries: Record<string, string[]>;
  /** Secret variable → the function ids that read it. */
  secrets: Record<string, string[]>;
}

export interface AuditTarget {
  resources: Record<string, Json>;
  /** Function id → its role's and its function's logical ids. */
  functions: Record<string, { role: string; fn: string }>;
  bucket: string;
  /** Table id → its logical id. */
  tables: Record<string, string>;
}

const S3_WRITES = ['s3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject', 's3:AbortMultipartUpload'];

/** Whether an IAM action pattern (`*` wildcards, case-insensitive as IAM) covers `action`. */
export function covers(pattern: string, action: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
  return re.test(action);
}

/** A resource as text: `<Table:id>/index/byOwner`, `<Bucket>/audio/*`, `*`. */
function resourceText(r: unknown, target: AuditTarget): string {
  const names = new Map<string, string>([
    [target.bucket, '<Bucket>'],
    ...Object.entries(target.tables).map(([id, logical]) => [logical, `<Table:${id}>`] as [string, string]),
  ]);
  const part = (p: unknown): string => {
    if (typeof p === 'string') return p;
    const j = p as Json;
    if (j['Fn::GetAtt']) return names.get(j['Fn::GetAtt'][0]) ?? `<${j['Fn::GetAtt'][0]}>`;
    if (j['Ref']) return names.get(j['Ref']) ?? `<${j['Ref']}>`;
    if (j['Fn::Join']) return (j['Fn::Join'][1] as unknown[]).map(part).join(j['Fn::Join'][0]);
    return JSON.stringify(p);
  };
  return part(r);
}

/** Every finding, one line each; [] when each function holds exactly what it needs. */
export function auditLeastPrivilege(target: AuditTarget, needs: Needs): string[] {
  const findings: string[] = [];
  const byRole = new Map(Object.entries(target.functions).map(([id, f]) => [f.role, id]));
  const granted = new Map<string, { writes: Set<string>; queries: Set<string> }>();
  for (const id of Object.keys(target.functions)) granted.set(id, { writes: new Set(), queries: new Set() });

  const policies = Object.values(target.resources).flatMap((r): { roles: string[]; statements: Json[] }[] => {
    if (r.Type === 'AWS::IAM::Policy')
      return [
        {
          roles: (r.Properties.Roles as Json[]).map((x) => x.Ref as string),
          statements: r.Properties.PolicyDocument.Statement,
        },
      ];
    if (r.Type === 'AWS::IAM::ManagedPolicy')
      return [
        {
          roles: ((r.Properties.Roles ?? []) as Json[]).map((x) => x.Ref as string),
          statements: r.Properties.PolicyDocument.Statement,
        },
      ];
    return [];
  });
  // Inline policies of the roles themselves.
  for (const [logical, r] of Object.entries(target.resources))
    if (r.Type === 'AWS::IAM::Role')
      for (const p of (r.Properties.Policies ?? []) as Json[])
        policies.push({ roles: [logical], statements: p.PolicyDocument.Statement });

  for (const { roles, statements } of policies)
    for (const role of roles) {
      const id = byRole.get(role);
      if (!id) continue;
      const mine = granted.get(id)!;
      for (const st of statements) {
        if (st.Effect !== 'Allow') continue;
        const actions = [st.Action].flat() as string[];
        const resources = [st.Resource].flat().map((r) => resourceText(r, target));
        if (actions.some((a) => covers(a, 'dynamodb:Scan')))
          findings.push(`${id}: dynamodb:Scan on ${resources.join(', ')}`);
        if (actions.some((a) => covers(a, 'dynamodb:Query')))
          for (const res of resources) {
            const m = /^<Table:(\w+)>\/index\/(\w+)$/.exec(res);
            if (!m) findings.push(`${id}: dynamodb:Query on ${res} (only named indexes may be queried)`);
            else mine.queries.add(`${m[1]}.${m[2]}`);
          }
        if (actions.some((a) => S3_WRITES.some((w) => covers(a, w))))
          for (const res of resources) {
            const m = /^<Bucket>\/(.*)\*$/.exec(res);
            if (res === '*' || m?.[1] === '')
              findings.push(`${id}: S3 writes across the whole bucket (${res})`);
            else if (m) mine.writes.add(m[1]!);
            else findings.push(`${id}: S3 writes on ${res}`);
          }
      }
    }

  for (const [id, { writes, queries }] of granted) {
    const wantWrites = new Set(needs.bucketWrites[id] ?? []);
    for (const w of writes)
      if (!wantWrites.has(w)) findings.push(`${id}: writes under ${w}, which it does not need`);
    for (const w of wantWrites)
      if (!writes.has(w)) findings.push(`${id}: may not write under ${w}, which it needs`);
    const wantQueries = new Set(needs.queries[id] ?? []);
    for (const q of queries)
      if (!wantQueries.has(q)) findings.push(`${id}: may query ${q}, which it does not`);
    for (const q of wantQueries)
      if (!queries.has(q)) findings.push(`${id}: may not query ${q}, which it does`);
  }

  // Secrets: any variable whose value resolves from Secrets Manager (or SSM SecureString).
  const readers = new Map(Object.entries(needs.secrets).map(([name, ids]) => [name, new Set(ids)]));
  const held = new Set<string>();
  for (const [id, { fn }] of Object.entries(target.functions)) {
    const vars = (target.resources[fn]?.Properties?.Environment?.Variables ?? {}) as Json;
    for (const [name, value] of Object.entries(vars)) {
      if (!/resolve:(secretsmanager|ssm-secure):/.test(JSON.stringify(value))) continue;
      held.add(`${name}@${id}`);
      if (!readers.get(name)?.has(id))
        findings.push(`${id}: holds the secret ${name}, which it does not read`);
    }
  }
  for (const [name, ids] of readers)
    for (const id of ids)
      if (!held.has(`${name}@${id}`)) findings.push(`${id}: lacks the secret ${name}, which it reads`);
  return findings.sort();
}
