// The port growth features (waitlist, A/B experiments, public stats) talk to: one key-value table of prefixed
// keys with the two primitives that keep counts exact without transactions — a create-if-absent (dedupe marker)
// and an atomic add (counter). The DynamoDB adapter is lambdas/shared/aws/growth-store.ts (table `growth`).

export type GrowthItem = Record<string, unknown>;

export interface GrowthStore {
  /** Writes `item` under `pk` only if nothing is stored there yet; true when this call created it. */
  putIfAbsent(pk: string, item: GrowthItem): Promise<boolean>;
  /**
   * Adds each delta to a numeric attribute of the item `pk` (created if missing; missing attributes start at 0)
   * in one atomic write, and sets `setOnce` attributes only where they are absent. Returns the new values of the
   * added attributes.
   */
  add(pk: string, deltas: Record<string, number>, setOnce?: GrowthItem): Promise<Record<string, number>>;
  /** Strongly consistent reads of several items; missing ones are absent from the map. */
  getMany(pks: string[]): Promise<Map<string, GrowthItem>>;
}
