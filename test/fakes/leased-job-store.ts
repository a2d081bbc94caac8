// In-memory LeasedJobStore: the DynamoDB adapter's transitions and conditions on a Map (records are copied in and
// out, like items). test/integration/leased-job-store.test.ts runs one contract against both.
import type { LeasedJob, LeasedJobStore, Requeued } from '../../lambdas/shared/jobs/leased-job';

export class FakeLeasedJobStore<T extends LeasedJob> implements LeasedJobStore<T> {
  readonly items = new Map<string, T>();

  constructor(
    protected readonly idField: keyof T & string,
    protected readonly activeStatus: string,
    public now: () => Date = () => new Date(),
    readonly leaseS = 120,
  ) {}

  /** Applies `change` (a copy of the job, stamped updatedAt) when `when` holds; false otherwise. */
  protected transition(
    id: string,
    when: (job: T) => boolean,
    change: (job: T) => void,
    touch = true,
  ): T | undefined {
    const current = this.items.get(id);
    if (!current || !when(current)) return undefined;
    const next = structuredClone(current);
    change(next);
    if (touch) next.updatedAt = this.now().toISOString();
    this.items.set(id, next);
    return structuredClone(current);
  }

  async create(job: T): Promise<void> {
    const id = job[this.idField] as unknown as string;
    if (this.items.has(id)) throw new Error(`conditional check failed: job ${id} exists`);
    this.items.set(id, structuredClone(job));
  }

  async get(id: string): Promise<T | undefined> {
    const job = this.items.get(id);
    return job && structuredClone(job);
  }

  async claim(id: string, attempt: number): Promise<T | undefined> {
    const nowS = Math.floor(this.now().getTime() / 1000);
    const old = this.transition(
      id,
      (j) => j.status === 'queued' || (j.status === this.activeStatus && (j.leaseUntil ?? 0) < nowS),
      (j) =>
        Object.assign(j, { status: this.activeStatus, attempts: attempt, leaseUntil: nowS + this.leaseS }),
    );
    return old && this.get(id);
  }

  async renew(id: string, heldUntil: number): Promise<number | undefined> {
    const lease = Math.max(heldUntil, Math.floor(this.now().getTime() / 1000) + this.leaseS);
    const old = this.transition(
      id,
      (j) => j.status === this.activeStatus && j.leaseUntil === heldUntil,
      (j) => void (j.leaseUntil = lease),
      false,
    );
    return old ? lease : undefined;
  }

  async release(id: string): Promise<void> {
    this.transition(
      id,
      (j) => j.status === this.activeStatus,
      (j) => {
        j.status = 'queued';
        delete j.leaseUntil;
      },
    );
  }

  async setProgress(id: string, progress: number): Promise<void> {
    this.transition(
      id,
      (j) => j.status === this.activeStatus,
      (j) => void (j.progress = progress),
    );
  }

  async complete(id: string, fields: Partial<T>): Promise<boolean> {
    return !!this.transition(
      id,
      (j) => j.status === 'queued' || j.status === this.activeStatus,
      (j) => {
        Object.assign(j, defined(fields), { status: 'done', progress: 1 });
        delete j.leaseUntil;
        delete j.error;
      },
    );
  }

  async fail(id: string, reason: string, fields: Partial<T> = {}): Promise<boolean> {
    return !!this.transition(
      id,
      (j) => j.status !== 'done' && j.status !== 'failed',
      (j) => {
        Object.assign(j, defined(fields), { status: 'failed', error: reason });
        delete j.leaseUntil;
      },
    );
  }

  async requeueFailed(id: string): Promise<Requeued> {
    const old = this.transition(
      id,
      (j) => j.status === 'failed',
      (j) => {
        Object.assign(j, { status: 'queued', progress: 0 });
        delete j.error;
        delete j.leaseUntil;
      },
    );
    if (old) return { requeued: true, error: old.error ?? 'failed' };
    return { requeued: false, status: this.items.get(id)?.status ?? 'missing' };
  }

  async restoreFailed(id: string, error: string): Promise<boolean> {
    return !!this.transition(
      id,
      (j) => j.status === 'queued',
      (j) => Object.assign(j, { status: 'failed', error }),
    );
  }

  async markEnded(id: string): Promise<boolean> {
    return !!this.transition(
      id,
      (j) => !!j.ending,
      (j) => void delete j.ending,
      false,
    );
  }

  async listUnfinished(limit: number): Promise<T[]> {
    return [...this.items.values()]
      .filter((j) => j.status === 'queued' || j.status === this.activeStatus || j.ending)
      .slice(0, limit)
      .map((j) => structuredClone(j));
  }
}

/** Like the adapter's SET list: undefined fields are left out. */
function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
