// S3 BatchFiles of the CFDI batches, in the documents bucket (lambdas/documents/bucket.ts): uploaded zips under
// batches/uploads/ (a presigned POST bound to its key, application/zip and a size range), each batch's parts, part
// outcomes, refusals, brand, PDFs (one object each, as rendered) and each part's PDFs again in one object (what the
// assembly reads) under batches/<job id>/, and the result zip under results/jobs/<job id>/, streamed
// there by a multipart upload (@aws-sdk/lib-storage) so it is never whole in memory. Keys are per job, part and
// UUID: a retried step overwrites, never duplicates.
import {
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { Readable } from 'node:stream';
import { BATCHES_PREFIX, JOB_RESULT_PREFIX } from '../bucket';
import type { Marca } from '../../../templates/kit/marca';
import type { Refused } from '../core/cfdi-resumen';
import type { BatchEntry, BatchFiles, JobResult, PartOutcome } from '../ports';

export const ZIP_CONTENT_TYPE = 'application/zip';
const missing = (err: unknown) =>
  err instanceof NoSuchKey ||
  err instanceof NotFound ||
  ['NoSuchKey', 'NotFound'].includes((err as { name?: string }).name ?? '');

const batchKey = (jobId: string, rest: string) => `${BATCHES_PREFIX.prefix}${jobId}/${rest}`;

export class S3BatchFiles implements BatchFiles {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async presignUpload(key: string, limits: { maxBytes: number; expiresInS: number }) {
    const { url, fields } = await createPresignedPost(this.s3, {
      Bucket: this.bucket,
      Key: key,
      Fields: { 'Content-Type': ZIP_CONTENT_TYPE },
      Conditions: [['content-length-range', 1, limits.maxBytes]],
      Expires: limits.expiresInS,
    });
    return { url, fields };
  }

  async openSource(key: string): Promise<{ body: Readable; bytes: number } | undefined> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { body: out.Body as Readable, bytes: out.ContentLength ?? 0 };
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  }

  private async put(key: string, body: string | Buffer, contentType: string): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  private async getJson<T>(key: string): Promise<T | undefined> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return JSON.parse(await out.Body!.transformToString('utf8')) as T;
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  }

  putSource(key: string, body: string): Promise<void> {
    return this.put(key, body, 'application/json');
  }

  putPart(jobId: string, part: number, entries: BatchEntry[]): Promise<void> {
    return this.put(batchKey(jobId, `parts/${part}.json`), JSON.stringify(entries), 'application/json');
  }

  async getPart(jobId: string, part: number): Promise<BatchEntry[]> {
    const entries = await this.getJson<BatchEntry[]>(batchKey(jobId, `parts/${part}.json`));
    if (!entries) throw new Error(`batch ${jobId}: part ${part} is missing`);
    return entries;
  }

  putOutcome(jobId: string, part: number, outcomes: PartOutcome[]): Promise<void> {
    return this.put(batchKey(jobId, `parts/${part}.out.json`), JSON.stringify(outcomes), 'application/json');
  }

  getOutcome(jobId: string, part: number): Promise<PartOutcome[] | undefined> {
    return this.getJson<PartOutcome[]>(batchKey(jobId, `parts/${part}.out.json`));
  }

  putRefused(jobId: string, refused: Refused[]): Promise<void> {
    return this.put(batchKey(jobId, 'refused.json'), JSON.stringify(refused), 'application/json');
  }

  async getRefused(jobId: string): Promise<Refused[]> {
    return (await this.getJson<Refused[]>(batchKey(jobId, 'refused.json'))) ?? [];
  }

  putBrand(jobId: string, marca: Marca): Promise<void> {
    return this.put(batchKey(jobId, 'marca.json'), JSON.stringify(marca), 'application/json');
  }

  getBrand(jobId: string): Promise<Marca | undefined> {
    return this.getJson<Marca>(batchKey(jobId, 'marca.json'));
  }

  async hasPdf(jobId: string, uuid: string): Promise<boolean> {
    try {
      await this.s3.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: batchKey(jobId, `pdf/${uuid}.pdf`) }),
      );
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }

  putPdf(jobId: string, uuid: string, bytes: Buffer): Promise<void> {
    return this.put(batchKey(jobId, `pdf/${uuid}.pdf`), bytes, 'application/pdf');
  }

  async getPdf(jobId: string, uuid: string): Promise<Buffer> {
    const out = await this.s3.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: batchKey(jobId, `pdf/${uuid}.pdf`) }),
    );
    return Buffer.from(await out.Body!.transformToByteArray());
  }

  putPartPdfs(jobId: string, part: number, pdfs: Buffer[]): Promise<void> {
    return this.put(batchKey(jobId, `parts/${part}.pdfs`), Buffer.concat(pdfs), 'application/octet-stream');
  }

  async openPartPdfs(jobId: string, part: number): Promise<Readable> {
    const out = await this.s3.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: batchKey(jobId, `parts/${part}.pdfs`) }),
    );
    return out.Body as Readable;
  }

  async uploadResult(jobId: string, filename: string, body: Readable): Promise<JobResult> {
    const key = `${JOB_RESULT_PREFIX}${jobId}/${filename}`;
    await new Upload({
      client: this.s3,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: ZIP_CONTENT_TYPE,
        ContentDisposition: `attachment; filename="${filename}"`,
      },
      // 5 MiB parts, two in flight: the assembler's memory stays ~10 MiB whatever the batch's size.
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
    }).done();
    const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    return { key, filename, contentType: ZIP_CONTENT_TYPE, bytes: head.ContentLength ?? 0 };
  }
}
