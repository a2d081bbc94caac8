// Admin CLI for API keys (until billing issues them):
//   npm run keys -- create --plan pro|scale|lifetime --email ana@example.com
//   npm run keys -- list --email ana@example.com
//   npm run keys -- revoke --key key_…        (or --email to revoke all of an account's keys)
//   npm run keys -- replace --email ana@example.com
//       a customer lost the key of a purchase: revokes the keys of every billing account of that e-mail and
//       prints one new key per account (same plan and state). Check first that the requester controls the e-mail.
// Cloud: set KEYS_TABLE and ACCOUNTS_TABLE (stack outputs) and AWS credentials. Local: talks to the running `npm start` (endpoints
// in $DATA_DIR/endpoints.json) or, when it is not running, opens $DATA_DIR's database itself.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateKey, hashKey, type ApiKeyRecord, type PaidPlan } from '../lambdas/shared/auth/keys';
import { dynamo, resetClients } from '../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../lambdas/shared/aws/key-store';
import { DynamoAccountStore } from '../lambdas/shared/aws/account-store';
import { replaceKeysForEmail } from '../lambdas/shared/billing/service';
import { resetConfig } from '../lambdas/shared/config';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `usage: npm run keys -- <create|list|revoke|replace> [--plan pro|scale|lifetime] [--email EMAIL] [--key KEY]`;

async function localStore(): Promise<{ table: string; accountsTable?: string; stop(): Promise<void> }> {
  if (process.env.KEYS_TABLE)
    return {
      table: process.env.KEYS_TABLE,
      accountsTable: process.env.ACCOUNTS_TABLE,
      stop: async () => undefined,
    };
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const endpointsFile = join(dataDir, 'endpoints.json');
  if (existsSync(endpointsFile)) {
    const env = JSON.parse(readFileSync(endpointsFile, 'utf8')) as Record<string, string>;
    // A runtime killed without cleanup leaves the file behind: use it only if its DynamoDB answers.
    const alive = await fetch(env.AWS_ENDPOINT_URL_DYNAMODB!).then(
      () => true,
      () => false,
    );
    if (alive) {
      Object.assign(process.env, env);
      return { table: env.KEYS_TABLE!, accountsTable: env.ACCOUNTS_TABLE, stop: async () => undefined };
    }
  }
  const { startEmulators } = await import('../lib/local/emulators');
  const emulators = await startEmulators({ dataDir });
  Object.assign(process.env, emulators.env);
  return {
    table: emulators.tableNames.keys,
    accountsTable: emulators.tableNames.accounts,
    stop: () => emulators.stop(),
  };
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { plan: { type: 'string' }, email: { type: 'string' }, key: { type: 'string' } },
  });
  const command = positionals[0];
  if (!command || !['create', 'list', 'revoke', 'replace'].includes(command)) {
    console.error(USAGE);
    return 2;
  }
  const local = await localStore();
  resetConfig();
  resetClients();
  const keys = new DynamoKeyStore(dynamo(), local.table);
  try {
    const email = values.email?.trim().toLowerCase();
    if (command === 'create') {
      const plan = values.plan as PaidPlan | undefined;
      if (plan !== 'pro' && plan !== 'scale' && plan !== 'lifetime')
        throw new Error('--plan must be pro, scale (documents) or lifetime');
      if (!email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
        throw new Error('--email must be an email address');
      const key = generateKey();
      const record: ApiKeyRecord = {
        keyHash: hashKey(key),
        keyPrefix: key.slice(0, 10),
        plan,
        status: 'active',
        email,
        createdAt: new Date().toISOString(),
      };
      await keys.put(record);
      console.log(`Created a ${plan} key for ${email}. It is shown only now; store it safely:\n${key}`);
      return 0;
    }
    if (command === 'replace') {
      if (!email) throw new Error('--email is required');
      if (!local.accountsTable) throw new Error('ACCOUNTS_TABLE is not set (stack output)');
      const accounts = new DynamoAccountStore(dynamo(), local.accountsTable);
      const replaced = await replaceKeysForEmail({ accounts, keys, now: () => new Date() }, email);
      if (replaced.length === 0) throw new Error(`no billing account for ${email}`);
      for (const r of replaced)
        console.log(
          `Account ${r.accountId}: ${r.revoked} key(s) revoked. New key, shown only now:\n${r.apiKey}`,
        );
      return 0;
    }
    if (command === 'list') {
      if (!email) throw new Error('--email is required');
      for (const k of await keys.listByEmail(email))
        console.log(`${k.keyPrefix}…  ${k.plan}  ${k.status}  created ${k.createdAt}`);
      return 0;
    }
    const targets = values.key
      ? [hashKey(values.key)]
      : email
        ? (await keys.listByEmail(email)).map((k) => k.keyHash)
        : [];
    if (targets.length === 0) throw new Error('revoke needs --key KEY or --email EMAIL (with keys)');
    for (const h of targets)
      console.log(
        (await keys.revoke(h, new Date())) ? `revoked ${h.slice(0, 12)}…` : `no such key ${h.slice(0, 12)}…`,
      );
    return 0;
  } finally {
    resetClients();
    await local.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`keys: ${(err as Error).message}\n${USAGE}`);
    process.exit(1);
  },
);
