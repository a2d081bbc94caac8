// API keys put straight in the local runtime's keys table, for tests that need a paid caller without going through
// billing (webhooks, the playground).
import { hashKey, type ApiKeyRecord } from '../../lambdas/shared/auth/keys';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import type { TestRuntime } from './runtime';

/**
 * Puts an active API key in the runtime's keys table. With `accountId`, a key issued by billing (its account active
 * unless `extra` says otherwise); without, an admin key (paid until revoked).
 */
export function putApiKey(
  rt: TestRuntime,
  key: string,
  plan: ApiKeyRecord['plan'],
  accountId?: string,
  extra: Partial<ApiKeyRecord> = {},
): Promise<void> {
  return new DynamoKeyStore(dynamo(), rt.emulators.tableNames.keys).put({
    keyHash: hashKey(key),
    keyPrefix: key.slice(0, 10),
    plan,
    status: 'active',
    email: `${accountId ?? plan}@example.com`,
    createdAt: new Date().toISOString(),
    ...(accountId ? { accountId, billingStatus: 'active', accountVersion: 1 } : {}),
    ...extra,
  });
}
