// What the batch worker's steps use (use-cases/batch-run.ts): the API side's BatchDeps and the renderer's; and the
// part of them the batch assembler uses (use-cases/batch-assemble.ts).
import type { JobEventDeps } from './job-events';
import type { BatchDeps } from './batches';
import type { RenderDeps } from './render-request';
import type { MessageQueue } from './jobs';

export interface BatchRunDeps extends BatchDeps {
  /** The batch's assembly, queued by its split (handlers/batch-assembler.ts). */
  assembleQueue: MessageQueue;
  renderer(): Promise<RenderDeps>;
  /** Counts rendered documents in the service's stats (as a single render does; one update per part). */
  recordRender(format: string, count: number): Promise<void>;
  /** The webhook side of a finished job (the async renders'): subscribed() and the delivery queue. */
  events: JobEventDeps;
  maxAttempts: number;
}

/** What the assembly uses: no renderer, no batch queue. */
export type BatchAssembleDeps = Pick<BatchRunDeps, 'jobs' | 'batchFiles' | 'quotas' | 'events' | 'now'>;
