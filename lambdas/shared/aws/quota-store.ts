// DynamoDB QuotaStore: one counter item per (subject, window). Each charge is a single conditional ADD, so 100
// parallel requests against a limit of 5 let exactly 5 through (no transactions needed; the emulator lacks them).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  slotsFor,
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

  private async add(slot: WindowSlot, delta: 1 | -1): Promise<number | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: slot.key },
          UpdateExpression: 'ADD #c :d SET expiresAt = if_not_exists(expiresAt, :exp)',
          ConditionExpression: delta > 0 ? 'attribute_not_exists(#c) OR #c < :limit' : '#c > :zero',
          ExpressionAttributeNames: { '#c': 'count' },
          ExpressionAttributeValues:
            delta > 0
              ? { ':d': 1, ':limit': slot.limit, ':exp': slot.resetAt + KEEP_AFTER_RESET_S }
              : { ':d': -1, ':zero': 0, ':exp': slot.resetAt + KEEP_AFTER_RESET_S },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(out.Attributes?.count ?? 0);
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  async consume(subject: string, rules: WindowRule[], now = new Date()): Promise<QuotaDecision> {
    const slots = slotsFor(subject, rules, now);
    const charged: WindowSlot[] = [];
    const all: QuotaDecision['all'] = [];
    for (const slot of slots) {
      const count = await this.add(slot, 1);
      if (count === undefined) {
        // This window is full: give back what was charged in the earlier windows of this request.
        await Promise.all(charged.map((s) => this.add(s, -1)));
        const denied = { ...slot, remaining: 0 };
        return { allowed: false, charged: [], binding: denied, all: [...all, denied], slots };
      }
      charged.push(slot);
      all.push({ ...slot, remaining: slot.limit - count });
    }
    const binding = all.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    return { allowed: true, charged, binding, all, slots };
  }

  async refund(decision: QuotaDecision): Promise<void> {
    await Promise.all(decision.charged.map((s) => this.add(s, -1)));
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
