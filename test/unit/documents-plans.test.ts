// Documents quota subjects: the free tier counts per client IP, paid plans per account (contract: "per account"),
// so two keys of one account share one monthly counter and rotating a key does not reset it.
import type { Caller } from '../../lambdas/shared/auth/resolve-caller';
import type { ApiKeyRecord } from '../../lambdas/shared/auth/keys';
import { monthlyRules, planOf, quotaSubject } from '../../lambdas/documents/core/plans';

function keyCaller(hash: string, extra: Partial<ApiKeyRecord> = {}): Caller {
  const key: ApiKeyRecord = {
    keyHash: hash,
    keyPrefix: 'key_abc',
    plan: 'scale',
    status: 'active',
    email: 'a@example.com',
    createdAt: '2026-11-01T00:00:00Z',
    ...extra,
  };
  return { kind: 'key', subject: 'key#' + hash.slice(0, 32), key };
}

describe('documents quota subjects', () => {
  it('two keys of one account share one counter', () => {
    const a = keyCaller('a'.repeat(64), { accountId: 'cus_123' });
    const b = keyCaller('b'.repeat(64), { accountId: 'cus_123' });
    expect(quotaSubject(a)).toBe(quotaSubject(b));
    expect(quotaSubject(a)).toBe('docs#acct#cus_123');
  });

  it('keys of different accounts, and account-less keys, count apart', () => {
    const a = keyCaller('a'.repeat(64), { accountId: 'cus_1' });
    const b = keyCaller('b'.repeat(64), { accountId: 'cus_2' });
    const c = keyCaller('c'.repeat(64));
    const d = keyCaller('d'.repeat(64));
    expect(new Set([a, b, c, d].map(quotaSubject)).size).toBe(4);
  });

  it('the free tier counts per client (IP subject), apart from narration counters', () => {
    const anon: Caller = { kind: 'anonymous', subject: 'ip#abc' };
    expect(quotaSubject(anon)).toBe('docs#ip#abc');
    expect(planOf(anon)).toBe('free');
  });

  it('monthly limits follow the plan', () => {
    expect(monthlyRules('free')[0]!.limit).toBe(50);
    expect(monthlyRules(planOf(keyCaller('e'.repeat(64))))[0]!.limit).toBe(10000);
  });
});
