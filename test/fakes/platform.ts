// In-memory fakes of the platform's ports (lambdas/shared): quota counters with the DynamoDB adapter's rules
// (a window is charged only below its limit, a refused request charges nothing, a refund never goes below zero)
// the growth table's two primitives, and API keys (created once, revoked once with onlyIfActive, billing copies
// never older than the stored one).
import type { ApiKeyRecord, KeyBillingState, KeyStore } from '../../lambdas/shared/auth/keys';
import type { GrowthItem, GrowthStore } from '../../lambdas/shared/growth/ports';
import {
  slotsFor,
  type ChargeOptions,
  type CommitOptions,
  type QuotaDecision,
  type QuotaStore,
  type WindowRule,
  type WindowSlot,
} from '../../lambdas/shared/quota/windows';
import { Faults } from './faults';

export class FakeQuotaStore implements QuotaStore {
  /** Counter per window key. */
  readonly counts = new Map<string, number>();
  /** Charge ids per window key (ChargeOptions.id). */
  readonly ids = new Map<string, Set<string>>();
  /**
   * Held charges per window key (ChargeOptions.hold): hold id → until (epoch s), units, charge id. Units 0: given
   * back by refund(), a mark for commit() (ChargeHold).
   */
  readonly holds = new Map<string, Map<string, { until: number; units: number; id?: string }>>();
  readonly faults = new Faults();

  /**
   * Gives back the expired holds of these windows (every hold with `all`); answers how many were. A mark (given
   * back already) is only removed.
   */
  releaseHolds(slots: WindowSlot[], all = false): number {
    let released = 0;
    for (const s of slots)
      for (const [hold, h] of this.holds.get(s.key) ?? []) {
        if (!all && h.until > Date.now() / 1000) continue;
        this.holds.get(s.key)!.delete(hold);
        if (h.units === 0) continue;
        if (h.id) this.ids.get(s.key)?.delete(h.id);
        this.counts.set(s.key, Math.max(0, this.used(s) - h.units));
        released++;
      }
    return released;
  }

  async consume(
    subject: string,
    rules: WindowRule[],
    now = new Date(),
    opts: ChargeOptions = {},
  ): Promise<QuotaDecision> {
    this.faults.check('consume');
    const slots = slotsFor(subject, rules, now);
    const all: QuotaDecision['all'] = [];
    const has = (s: WindowSlot) => !!opts.id && !!this.ids.get(s.key)?.has(opts.id);
    const units = opts.units ?? 1;
    const full = opts.force
      ? undefined
      : slots.find((s) => !has(s) && (this.counts.get(s.key) ?? 0) + units > s.limit);
    if (full && opts.hold && this.releaseHolds(slots) > 0) return this.consume(subject, rules, now, opts);
    if (full) {
      const denied = { ...full, remaining: 0 };
      const before = slots
        .slice(0, slots.indexOf(full))
        .map((s) => ({ ...s, remaining: s.limit - this.used(s) - units }));
      return { allowed: false, charged: [], binding: denied, all: [...before, denied], slots };
    }
    if (opts.hold) this.releaseHolds(slots);
    for (const s of slots) {
      if (!has(s)) {
        this.counts.set(s.key, this.used(s) + units);
        if (opts.id) this.ids.set(s.key, (this.ids.get(s.key) ?? new Set()).add(opts.id));
        if (opts.hold)
          this.holds.set(
            s.key,
            (this.holds.get(s.key) ?? new Map()).set(opts.hold.id, {
              until: opts.hold.untilS,
              units,
              ...(opts.id ? { id: opts.id } : {}),
            }),
          );
      }
      all.push({ ...s, remaining: s.limit - this.used(s) });
    }
    const binding = all.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    return {
      allowed: true,
      charged: slots,
      binding,
      all,
      slots,
      ...(opts.id ? { chargeId: opts.id } : {}),
      ...(units !== 1 ? { units } : {}),
      ...(opts.hold ? { hold: opts.hold.id } : {}),
    };
  }

  async hasCharge(subject: string, rules: WindowRule[], at: Date, id: string): Promise<boolean> {
    return slotsFor(subject, rules, at).every((s) => !!this.ids.get(s.key)?.has(id));
  }

  async refund(decision: QuotaDecision): Promise<void> {
    this.faults.check('refund');
    for (const s of decision.charged) {
      if (decision.hold) {
        // While held; the hold stays as a mark of 0 units.
        const held = this.holds.get(s.key)?.get(decision.hold);
        if (!held?.units) continue;
        held.units = 0;
        if (decision.chargeId) this.ids.get(s.key)?.delete(decision.chargeId);
      } else if (decision.chargeId && !this.ids.get(s.key)?.delete(decision.chargeId)) continue;
      const units = decision.units ?? 1;
      if (this.used(s) >= units) this.counts.set(s.key, this.used(s) - units);
    }
  }

  async commit(decision: QuotaDecision, opts: CommitOptions = {}): Promise<void> {
    this.faults.check('commit');
    for (const s of decision.charged) {
      if (!decision.hold) continue;
      const held = this.holds.get(s.key)?.get(decision.hold);
      this.holds.get(s.key)?.delete(decision.hold);
      // Held until now: the charge stays. A mark: given back by refund() (the work failed first).
      if (held && (held.units > 0 || opts.unlessRefunded)) continue;
      // Given back while the work ran: charged again, once per charge id.
      if (decision.chargeId && this.ids.get(s.key)?.has(decision.chargeId)) continue;
      this.counts.set(s.key, this.used(s) + (decision.units ?? 1));
      if (decision.chargeId) this.ids.set(s.key, (this.ids.get(s.key) ?? new Set()).add(decision.chargeId));
    }
  }

  async peek(
    subject: string,
    rules: WindowRule[],
    now = new Date(),
  ): Promise<(WindowSlot & { used: number })[]> {
    // A hold past its time is not usage (the window's next charge gives it back).
    const expired = (s: WindowSlot) =>
      [...(this.holds.get(s.key)?.values() ?? [])]
        .filter((h) => h.until <= Date.now() / 1000)
        .reduce((n, h) => n + h.units, 0);
    return slotsFor(subject, rules, now).map((s) => ({ ...s, used: this.used(s) - expired(s) }));
  }

  private used(slot: WindowSlot): number {
    return this.counts.get(slot.key) ?? 0;
  }
}

export class FakeGrowthStore implements GrowthStore {
  readonly items = new Map<string, GrowthItem>();
  readonly faults = new Faults();

  async putIfAbsent(pk: string, item: GrowthItem): Promise<boolean> {
    this.faults.check('putIfAbsent');
    if (this.items.has(pk)) return false;
    this.items.set(pk, structuredClone(item));
    return true;
  }

  async add(
    pk: string,
    deltas: Record<string, number>,
    setOnce: GrowthItem = {},
  ): Promise<Record<string, number>> {
    this.faults.check('add');
    const item = this.items.get(pk) ?? {};
    for (const [k, v] of Object.entries(setOnce)) if (!(k in item)) item[k] = structuredClone(v);
    const out: Record<string, number> = {};
    for (const [k, d] of Object.entries(deltas)) out[k] = item[k] = Number(item[k] ?? 0) + d;
    this.items.set(pk, item);
    return out;
  }

  async getMany(pks: string[]): Promise<Map<string, GrowthItem>> {
    return new Map(pks.filter((p) => this.items.has(p)).map((p) => [p, structuredClone(this.items.get(p)!)]));
  }
}

export class FakeKeyStore implements KeyStore {
  readonly keys = new Map<string, ApiKeyRecord>();

  async put(record: ApiKeyRecord): Promise<void> {
    if (!(await this.putIfAbsent(record)))
      throw new Error(`conditional check failed: key ${record.keyHash} exists`);
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const k = this.keys.get(keyHash);
    return k && structuredClone(k);
  }

  async listByEmail(email: string): Promise<ApiKeyRecord[]> {
    // The byEmail index holds what was written: emails are stored lower-case by the callers.
    return [...this.keys.values()]
      .filter((k) => k.email === email.toLowerCase())
      .map((k) => structuredClone(k));
  }

  async revoke(keyHash: string, at: Date, opts: { onlyIfActive?: boolean } = {}): Promise<boolean> {
    const k = this.keys.get(keyHash);
    if (!k || (opts.onlyIfActive && k.status !== 'active')) return false;
    Object.assign(k, { status: 'revoked', revokedAt: at.toISOString() });
    return true;
  }

  async putIfAbsent(record: ApiKeyRecord): Promise<boolean> {
    if (this.keys.has(record.keyHash)) return false;
    this.keys.set(record.keyHash, structuredClone(record));
    return true;
  }

  async syncBilling(keyHash: string, state: KeyBillingState): Promise<boolean> {
    const k = this.keys.get(keyHash);
    if (!k || (k.accountVersion !== undefined && k.accountVersion >= state.accountVersion)) return false;
    Object.assign(k, state);
    return true;
  }
}
