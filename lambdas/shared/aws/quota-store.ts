// DynamoDB QuotaStore: one counter item per (subject, window). Each charge is a single conditional ADD, so 100
// parallel requests against a limit of 5 let exactly 5 through (no transactions needed; the emulator lacks them).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import {
  slotsFor,
  type ChargeOptions,
  type QuotaDecision,
  type QuotaStore,
  type WindowRule,
  type WindowSlot,
} from '../quota/windows';

/** Counters outlive their window by a day, then DynamoDB TTL removes them. */
const KEEP_AFTER_RESET_S = 86400;

export class DynamoQuotaStore implements QuotaStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * One conditional ADD. With an id, the window's `ids` set records it: a charge for an id already there changes
   * nothing and answers the current count; a refund for an id not there changes nothing.
   */
  private async add(slot: WindowSlot, sign: 1 | -1, opts: ChargeOptions = {}): Promise<number | undefined> {
    const { id, force } = opts;
    const units = opts.units ?? 1;
    const delta = sign * units;
    // Room for every unit: the count after the charge is at most the limit.
    if (delta > 0 && !force && units > slot.limit) return undefined;
    const conditions: string[] = [];
    if (delta > 0 && !force) conditions.push('(attribute_not_exists(#c) OR #c <= :limit)');
    if (delta < 0) conditions.push('#c >= :units');
    if (id) conditions.push(delta > 0 ? 'NOT contains(#ids, :id)' : 'contains(#ids, :id)');
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: slot.key },
          UpdateExpression:
            (id ? (delta > 0 ? 'ADD #c :d, #ids :set' : 'ADD #c :d DELETE #ids :set') : 'ADD #c :d') +
            ' SET expiresAt = if_not_exists(expiresAt, :exp)',
          ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
          ExpressionAttributeNames: { '#c': 'count', ...(id ? { '#ids': 'ids' } : {}) },
          ExpressionAttributeValues: {
            ':d': delta,
            ':exp': slot.resetAt + KEEP_AFTER_RESET_S,
            ...(delta > 0 && !force ? { ':limit': slot.limit - units } : {}),
            ...(delta < 0 ? { ':units': units } : {}),
            ...(id ? { ':id': id, ':set': new Set([id]) } : {}),
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(out.Attributes?.count ?? 0);
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      if (!id || delta < 0) return undefined;
      // Refused: full, or already charged for this id (then it counts as charged).
      const item = await this.db.send(
        new GetCommand({ TableName: this.table, Key: { pk: slot.key }, ConsistentRead: true }),
      );
      const ids = item.Item?.ids as Set<string> | undefined;
      return ids?.has(id) ? Number(item.Item?.count ?? 0) : undefined;
    }
  }

  async consume(
    subject: string,
    rules: WindowRule[],
    now = new Date(),
    opts: ChargeOptions = {},
  ): Promise<QuotaDecision> {
    const slots = slotsFor(subject, rules, now);
    const charged: WindowSlot[] = [];
    const all: QuotaDecision['all'] = [];
    const chargeId = opts.id ? { chargeId: opts.id } : {};
    const units = opts.units && opts.units !== 1 ? { units: opts.units } : {};
    for (const slot of slots) {
      const count = await this.add(slot, 1, opts);
      if (count === undefined) {
        // This window is full: give back what was charged in the earlier windows of this request.
        await Promise.all(charged.map((s) => this.add(s, -1, { id: opts.id, ...units })));
        const denied = { ...slot, remaining: 0 };
        return { allowed: false, charged: [], binding: denied, all: [...all, denied], slots };
      }
      charged.push(slot);
      all.push({ ...slot, remaining: slot.limit - count });
    }
    const binding = all.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    return { allowed: true, charged, binding, all, slots, ...chargeId, ...units };
  }

  async hasCharge(subject: string, rules: WindowRule[], at: Date, id: string): Promise<boolean> {
    const slots = slotsFor(subject, rules, at);
    const out = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.table]: { Keys: slots.map((s) => ({ pk: s.key })), ConsistentRead: true } },
      }),
    );
    const items = out.Responses?.[this.table] ?? [];
    return (
      slots.length > 0 &&
      items.length === slots.length &&
      items.every((i) => (i.ids as Set<string> | undefined)?.has(id))
    );
  }

  async refund(decision: QuotaDecision): Promise<void> {
    await Promise.all(
      decision.charged.map((s) => this.add(s, -1, { id: decision.chargeId, units: decision.units })),
    );
  }

  async peek(
    subject: string,
    rules: WindowRule[],
    now = new Date(),
  ): Promise<(WindowSlot & { used: number })[]> {
    const slots = slotsFor(subject, rules, now);
    const out = await this.db.send(
      new BatchGetCommand({
        RequestItems: { [this.table]: { Keys: slots.map((s) => ({ pk: s.key })), ConsistentRead: true } },
      }),
    );
    const counts = new Map(
      (out.Responses?.[this.table] ?? []).map((i) => [i.pk as string, Number(i.count ?? 0)]),
    );
    return slots.map((s) => ({ ...s, used: counts.get(s.key) ?? 0 }));
  }
}
