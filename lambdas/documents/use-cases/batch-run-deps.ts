// What the batch steps use (use-cases/batch-run.ts): the API side's BatchDeps, plus the parts' queue; the batch
// assembler's split and assembly (no renderer) and the batch worker's parts (the renderer).
import type { JobEventDeps } from './job-events';
import type { BatchDeps } from './batches';
import type { RenderDeps } from './render-request';
import type { MessageQueue } from './jobs';

/** The split (batch-split.ts), on the batch assembler: it queues the parts and the assembly, or fails the batch. */
export interface BatchSplitDeps extends BatchDeps {
  /** The parts, rendered by the batch worker (handlers/batch-worker.ts). */
  batchQueue: MessageQueue;
  /** The webhook side of a finished job (the async renders'): subscribed() and the delivery queue. */
  events: JobEventDeps;
}

/** What the assembly uses: no renderer, no batch queue. */
export type BatchAssembleDeps = Pick<BatchSplitDeps, 'jobs' | 'batchFiles' | 'quotas' | 'events' | 'now'>;

/**
 * A part (batch-part.ts), on the batch worker: the batch's job item and files, the renderer, and the parts' and the
 * assembly's queues. No quotas (the split charges, the assembly gives back) and no job files.
 */
export interface BatchRunDeps extends Pick<BatchDeps, 'jobs' | 'batchFiles' | 'assembleQueue'> {
  batchQueue: MessageQueue;
  renderer(): Promise<RenderDeps>;
  /** Counts rendered documents in the service's stats (as a single render does; one update per part). */
  recordRender(format: string, count: number): Promise<void>;
  maxAttempts: number;
}
