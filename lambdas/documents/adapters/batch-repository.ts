// DynamoDB BatchRepository: a CFDI batch is a documents job (`docjob#<id>` in the accounts table, the
// JobRepository's item) with its batch state and counters on the same item. Every step is one conditional update:
// the split is recorded once (queued → rendering; the counts of parts counted while it read stay), and each part
// (also one started while the split still read, the batch queued) is counted once (its number joins the
// `partsSeen` string set in the same update that adds its counts), so a redelivered part never counts twice. A
// part's start joins `partsStarted` in the update that reads the batch: a part seen there before may have PDFs
// stored already (the only case where the part looks for them). An assembly that stops following the rendering
// marks the item (assemblyDeferred) only while parts are missing, so the count that completes the batch sees it.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoJobRepository } from './job-repository';
import type { WindowSlot } from '../../shared/quota/windows';
import type { BatchRepository, JobRecord, SplitBatch } from '../ports';

export class DynamoBatchRepository extends DynamoJobRepository implements BatchRepository {
  async planBatch(jobId: string, plan: SplitBatch, charged: WindowSlot[]): Promise<Set<number> | undefined> {
    const out = await this.update(jobId, {
      set: [
        '#s = :active',
        '#b = :plan',
        'charged = :charged',
        // Parts started while the split read may be counted already: their counts stay.
        'batchDone = if_not_exists(batchDone, :zero)',
        'batchFailed = if_not_exists(batchFailed, :zero)',
        'partsDone = if_not_exists(partsDone, :zero)',
      ],
      condition: '#s = :queued',
      // `batch` is one of DynamoDB's reserved words.
      names: { '#b': 'batch' },
      values: { ':plan': plan, ':charged': charged, ':zero': 0 },
      returnValues: 'ALL_NEW',
    });
    return out ? counted(out.partsSeen as Set<string> | undefined) : undefined;
  }

  async recordPart(
    jobId: string,
    part: number,
    done: number,
    failed: number,
  ): Promise<{ job: JobRecord; parts: Set<number> } | undefined> {
    const out = await this.update(jobId, {
      set: [],
      condition:
        '#s IN (:queued, :active) AND (attribute_not_exists(partsSeen) OR NOT contains(partsSeen, :part))',
      values: { ':part': String(part) },
      returnValues: 'ALL_NEW',
      add: { batchDone: done, batchFailed: failed, partsDone: 1, partsSeen: new Set([String(part)]) },
    });
    if (!out) return undefined;
    const { partsSeen, ...job } = this.fromItem(out) as JobRecord & { partsSeen?: Set<string> };
    return { job, parts: counted(partsSeen) };
  }

  async startPart(jobId: string, part: number) {
    const old = await this.update(jobId, {
      set: [],
      condition: '#s IN (:queued, :active)',
      returnValues: 'ALL_OLD',
      add: { partsStarted: new Set([String(part)]) },
    });
    if (!old) return undefined;
    const started = (old as { partsStarted?: Set<string> }).partsStarted;
    const { partsStarted: _started, ...job } = this.fromItem(old) as JobRecord & {
      partsStarted?: Set<string>;
    };
    return { job, startedBefore: !!started?.has(String(part)) };
  }

  async deferAssembly(jobId: string, parts: number): Promise<boolean> {
    return !!(await this.update(jobId, {
      set: ['assemblyDeferred = :yes'],
      condition: '#s = :active AND partsDone < :parts',
      values: { ':yes': true, ':parts': parts },
      touch: false,
    }));
  }

  async recordBatchUnits(jobId: string, units: number): Promise<boolean> {
    return !!(await this.update(jobId, {
      set: ['units = :units'],
      condition: '#s = :queued',
      values: { ':units': units },
      touch: false,
    }));
  }

  async partsCounted(jobId: string): Promise<Set<number>> {
    // The set alone: the waiting assembly asks several times a second.
    const out = await this.db.send(
      new GetCommand({
        TableName: this.shape.table,
        Key: this.key(jobId),
        ConsistentRead: true,
        ProjectionExpression: 'partsSeen',
      }),
    );
    return counted(out.Item?.partsSeen as Set<string> | undefined);
  }
}

const counted = (partsSeen: Set<string> | undefined) => new Set([...(partsSeen ?? [])].map(Number));
