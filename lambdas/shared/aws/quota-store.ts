// DynamoDB QuotaStore: one counter item per (subject, window). Each charge is a single conditional ADD, so 100
// parallel requests against a limit of 5 let exactly 5 through (no transactions needed; the emulator lacks them).
// A held charge (ChargeOptions.hold) writes its hold as an attribute `hold:<id>` of the same item in the same
// conditional write, so a charge and its hold are made, committed and given back together, each exactly once. A
// held charge given back keeps its attribute with 0 units (the mark commit() reads), until a commit or its expiry.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoTable } from './dynamo-table';
import { logger } from '../logger';
import {
  slotsFor,
  type ChargeOptions,
  type CommitOptions,
  type QuotaDecision,
  type QuotaStore,
  type WindowRule,
  type WindowSlot,
} from '../quota/windows';

/** Counters outlive their window by a day, then DynamoDB TTL removes them. */
const KEEP_AFTER_RESET_S = 86400;

/** A hold's attribute: `hold:<id>` on the window's counter item. */
const HOLD = 'hold:';

/**
 * What a hold remembers: when it may be given back, how many units (0: given back by refund(), a mark), and the
 * charge id it added to `ids`.
 */
interface HeldCharge {
  until: number;
  units: number;
  id?: string;
}

type Item = Record<string, unknown>;

const isCheckFailed = (err: unknown) => err instanceof ConditionalCheckFailedException;

export class DynamoQuotaStore extends DynamoTable implements QuotaStore {
  /**
   * One conditional ADD. With an id, the window's `ids` set records it: a charge for an id already there changes
   * nothing and answers the current count; a refund for an id not there changes nothing. With a hold, the hold is
   * written beside the charge; a refund of a held charge gives back only while the hold is there, and leaves it as
   * a mark of 0 units. A charge refused while the window holds expired holds gives those back and tries once more.
   */
  private async add(
    slot: WindowSlot,
    sign: 1 | -1,
    opts: ChargeOptions = {},
    retried = false,
  ): Promise<number | undefined> {
    const { id, force, hold } = opts;
    const units = opts.units ?? 1;
    const delta = sign * units;
    // Room for every unit: the count after the charge is at most the limit.
    if (delta > 0 && !force && units > slot.limit) return undefined;
    const conditions: string[] = [];
    if (delta > 0 && !force) conditions.push('(attribute_not_exists(#c) OR #c <= :limit)');
    if (delta < 0) conditions.push('#c >= :units');
    // A held charge's refund: while the hold is there and not given back already (then its id is in `ids` too, if
    // it has one); its units become 0, the mark commit() reads.
    const byId = !!id && !(hold && delta < 0);
    const unhold = !!hold && delta < 0;
    if (unhold) conditions.push('#h.#units > :zero');
    if (byId) conditions.push(delta > 0 ? 'NOT contains(#ids, :id)' : 'contains(#ids, :id)');
    const held: HeldCharge | undefined =
      hold && delta > 0 ? { until: hold.untilS, units, ...(id ? { id } : {}) } : undefined;
    const sets = [
      'expiresAt = if_not_exists(expiresAt, :exp)',
      ...(held ? ['#h = :held'] : []),
      ...(unhold ? ['#h.#units = :zero'] : []),
    ];
    try {
      const out = await this.updateItem({
        Key: { pk: slot.key },
        UpdateExpression:
          (id ? (delta > 0 ? 'ADD #c :d, #ids :set' : 'ADD #c :d DELETE #ids :set') : 'ADD #c :d') +
          ` SET ${sets.join(', ')}`,
        ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
        ExpressionAttributeNames: {
          '#c': 'count',
          ...(id ? { '#ids': 'ids' } : {}),
          ...(hold ? { '#h': HOLD + hold.id } : {}),
          ...(unhold ? { '#units': 'units' } : {}),
        },
        ExpressionAttributeValues: {
          ':d': delta,
          ':exp': slot.resetAt + KEEP_AFTER_RESET_S,
          ...(delta > 0 && !force ? { ':limit': slot.limit - units } : {}),
          ...(delta < 0 ? { ':units': units } : {}),
          ...(id ? { ':set': new Set([id]) } : {}),
          ...(byId ? { ':id': id } : {}),
          ...(held ? { ':held': held } : {}),
          ...(unhold ? { ':zero': 0 } : {}),
        },
        // A held charge reads the whole item back: holds left by dead processes are given back now.
        ReturnValues: held ? 'ALL_NEW' : 'UPDATED_NEW',
      });
      const count = Number(out.Attributes?.count ?? 0);
      return held ? count - (await this.releaseHolds(slot.key, out.Attributes ?? {}, hold!.id)) : count;
    } catch (err) {
      if (!isCheckFailed(err)) throw err;
      if (delta < 0 || (!id && !held)) return undefined;
      // Refused: full, or already charged for this id (then it counts as charged).
      const item = await this.readItem({ Key: { pk: slot.key }, ConsistentRead: true });
      const ids = item.Item?.ids as Set<string> | undefined;
      if (id && ids?.has(id)) return Number(item.Item?.count ?? 0);
      // Full, perhaps with holds of processes that died: give those back and try once more.
      if (held && !retried && (await this.releaseHolds(slot.key, item.Item ?? {})) > 0)
        return this.add(slot, sign, opts, true);
      return undefined;
    }
  }

  /**
   * Gives back the item's holds that expired (`all`: every hold, when no process can hold any: the local runtime's
   * start), except `keep`; each in one conditional write on the hold as read, so it is given back once (a mark of
   * 0 units, already given back, is only removed). Answers the units given back; never throws (a hold not given
   * back now is given back by a later charge).
   */
  private async releaseHolds(key: string, item: Item, keep?: string, all = false): Promise<number> {
    const nowS = Date.now() / 1000;
    let released = 0;
    for (const [name, value] of Object.entries(item)) {
      if (!name.startsWith(HOLD) || name === HOLD + keep) continue;
      const held = value as HeldCharge;
      if (!all && held.until > nowS) continue;
      // A mark (given back by refund(): its id left `ids` then, and a later charge may have put it back).
      const mark = held.units === 0;
      try {
        await this.updateItem({
          Key: { pk: key },
          UpdateExpression: mark ? 'REMOVE #h' : `ADD #c :d${held.id ? ' DELETE #ids :set' : ''} REMOVE #h`,
          // On the hold as read: a refund that made it a mark meanwhile has given it back already.
          ConditionExpression:
            '#h.#until = :until AND #h.#units = :units' + (mark ? '' : ' AND #c >= :units'),
          ExpressionAttributeNames: {
            '#h': name,
            '#until': 'until',
            '#units': 'units',
            ...(mark ? {} : { '#c': 'count' }),
            ...(held.id && !mark ? { '#ids': 'ids' } : {}),
          },
          ExpressionAttributeValues: {
            ':units': held.units,
            ':until': held.until,
            ...(mark ? {} : { ':d': -held.units }),
            ...(held.id && !mark ? { ':set': new Set([held.id]) } : {}),
          },
        });
        if (mark) continue;
        released += held.units;
        // The evidence of each hold given back (the crash test reads it): its work was never delivered.
        logger.warn('held charge given back: its work was never delivered', {
          quota: key,
          hold: name.slice(HOLD.length),
          units: held.units,
        });
      } catch (err) {
        if (!isCheckFailed(err))
          logger.error('held charge not given back (a later charge retries)', {
            error: err as Error,
            quota: key,
          });
      }
    }
    return released;
  }

  /**
   * Gives back every hold in the table: only for the local runtime's start, when the process that held them is
   * gone (one runtime per data directory). Scans the table (the cloud gives holds back as they expire, per item).
   */
  async releaseAllHolds(): Promise<number> {
    let released = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.scanItems({ ...(start ? { ExclusiveStartKey: start } : {}) });
      for (const item of page.Items ?? [])
        if (Object.keys(item).some((k) => k.startsWith(HOLD)))
          released += await this.releaseHolds(item.pk as string, item, undefined, true);
      start = page.LastEvaluatedKey;
    } while (start);
    return released;
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
        const hold = opts.hold ? { hold: opts.hold } : {};
        await Promise.all(charged.map((s) => this.add(s, -1, { id: opts.id, ...units, ...hold })));
        const denied = { ...slot, remaining: 0 };
        return { allowed: false, charged: [], binding: denied, all: [...all, denied], slots };
      }
      charged.push(slot);
      all.push({ ...slot, remaining: slot.limit - count });
    }
    const binding = all.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    const hold = opts.hold ? { hold: opts.hold.id } : {};
    return { allowed: true, charged, binding, all, slots, ...chargeId, ...units, ...hold };
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
    const hold = decision.hold ? { hold: { id: decision.hold, untilS: 0 } } : {};
    await Promise.all(
      decision.charged.map((s) => this.add(s, -1, { id: decision.chargeId, units: decision.units, ...hold })),
    );
  }

  async commit(decision: QuotaDecision, opts: CommitOptions = {}): Promise<void> {
    if (!decision.hold) return;
    const name = HOLD + decision.hold;
    await Promise.all(
      decision.charged.map(async (slot) => {
        let held: HeldCharge | undefined;
        try {
          const out = await this.updateItem({
            Key: { pk: slot.key },
            UpdateExpression: 'REMOVE #h',
            ConditionExpression: 'attribute_exists(#h)',
            ExpressionAttributeNames: { '#h': name },
            ReturnValues: 'UPDATED_OLD',
          });
          held = out.Attributes?.[name] as HeldCharge | undefined;
        } catch (err) {
          if (!isCheckFailed(err)) throw err;
        }
        // Held until now: the charge stays. A mark: given back by refund() (the work failed first).
        if (held && (held.units > 0 || opts.unlessRefunded)) return;
        // Given back while the work ran (it outlived its hold, or someone refunded it): delivered, so charged again
        // (once per charge id).
        await this.add(slot, 1, { id: decision.chargeId, units: decision.units, force: true });
      }),
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
    // A hold past its time is not usage (its process died: the window's next charge gives it back).
    const nowS = Date.now() / 1000;
    const expired = (i: Item) =>
      Object.entries(i)
        .filter(([k, v]) => k.startsWith(HOLD) && (v as HeldCharge).until <= nowS)
        .reduce((n, [, v]) => n + (v as HeldCharge).units, 0);
    const counts = new Map(
      (out.Responses?.[this.table] ?? []).map((i) => [i.pk as string, Number(i.count ?? 0) - expired(i)]),
    );
    return slots.map((s) => ({ ...s, used: counts.get(s.key) ?? 0 }));
  }
}
