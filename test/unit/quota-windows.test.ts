import {
  rateLimitHeaders,
  slotsFor,
  windowBounds,
  type QuotaDecision,
} from '../../lambdas/shared/quota/windows';

const at = (iso: string) => new Date(iso);

describe('fixed UTC windows', () => {
  test.each([
    ['hour', '2026-11-21T15:42:10Z', '2026-11-21T15:00:00.000Z', '2026-11-21T16:00:00.000Z'],
    ['hour', '2026-12-31T23:59:59Z', '2026-12-31T23:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['day', '2026-11-21T23:59:59Z', '2026-11-21T00:00:00.000Z', '2026-11-22T00:00:00.000Z'],
    ['month', '2026-12-15T08:00:00Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['month', '2028-02-29T12:00:00Z', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
  ] as const)('%s window of %s', (period, now, start, end) => {
    const b = windowBounds(period, at(now));
    expect(b.start.toISOString()).toBe(start);
    expect(b.end.toISOString()).toBe(end);
  });

  test('keys differ per window and per subject; same window, same key', () => {
    const rules = [
      { period: 'hour' as const, limit: 5 },
      { period: 'day' as const, limit: 20 },
    ];
    const a = slotsFor('ip#a', rules, at('2026-11-21T15:01:00Z'));
    const b = slotsFor('ip#a', rules, at('2026-11-21T15:59:00Z'));
    const c = slotsFor('ip#a', rules, at('2026-11-21T16:00:00Z'));
    const d = slotsFor('ip#b', rules, at('2026-11-21T15:01:00Z'));
    expect(a.map((s) => s.key)).toEqual(b.map((s) => s.key));
    expect(c[0]!.key).not.toBe(a[0]!.key);
    expect(c[1]!.key).toBe(a[1]!.key);
    expect(d[0]!.key).not.toBe(a[0]!.key);
    expect(a[0]!.resetAt).toBe(Date.parse('2026-11-21T16:00:00Z') / 1000);
  });
});

describe('RateLimit headers', () => {
  const now = at('2026-11-21T15:50:00Z');
  const [hour, day] = slotsFor(
    's',
    [
      { period: 'hour', limit: 5 },
      { period: 'day', limit: 20 },
    ],
    now,
  ) as [ReturnType<typeof slotsFor>[0], ReturnType<typeof slotsFor>[0]];

  test('allowed: the tighter window, no Retry-After', () => {
    const d: QuotaDecision = {
      allowed: true,
      charged: [hour, day],
      binding: { ...hour, remaining: 2 },
      all: [
        { ...hour, remaining: 2 },
        { ...day, remaining: 17 },
      ],
      slots: [hour, day],
    };
    expect(rateLimitHeaders(d, now)).toEqual({
      'ratelimit-limit': '5',
      'ratelimit-remaining': '2',
      'ratelimit-reset': '600',
      'ratelimit-policy': '5;w=3600, 20;w=86400',
    });
  });
  test('refused by the day window: Retry-After until midnight UTC', () => {
    const d: QuotaDecision = {
      allowed: false,
      charged: [],
      binding: { ...day, remaining: 0 },
      all: [
        { ...hour, remaining: 3 },
        { ...day, remaining: 0 },
      ],
      slots: [hour, day],
    };
    const h = rateLimitHeaders(d, now);
    expect(h['retry-after']).toBe(String(8 * 3600 + 10 * 60));
    expect(h['ratelimit-limit']).toBe('20');
    expect(h['ratelimit-remaining']).toBe('0');
  });
});
