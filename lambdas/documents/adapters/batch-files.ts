// S3 BatchFiles of the CFDI batches, in the documents bucket (lambdas/documents/bucket.ts): uploaded zips under
// batches/uploads/ (a presigned POST bound to its key, application/zip and a size range), each batch's parts, part
// outcomes, refusals, brand and PDFs under batches/<job id>/, and the result zip under results/jobs/<job id>/,
// streamed there by a multipart upload (@aws-sdk/lib-storage) so it is never whole in memory. A part's PDFs are
// written once, in chunks (parts/<part>/pdfs-<chunk>: the PDFs one after another, their UUIDs and sizes in the
// object's metadata); parts counted by earlier code left a part PDF object (parts/<part>.pdfs) or one object per PDF
// (pdf/<uuid>.pdf), which the assembly still reads. Keys are per job, part, chunk and UUID: a retried step
// overwrites, never duplicates.
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { Readable } from 'node:stream';
import { S3Bucket } from '../../shared/aws/s3-bucket';
import { BATCHES_PREFIX, JOB_RESULT_PREFIX } from '../bucket';
import type { Marca } from '../../../templates/kit/marca';
import type { Refused } from '../core/cfdi-resumen';
import type { BatchEntry, BatchFiles, JobResult, PartOutcome, PdfSource, StoredPdf } from '../ports';

export const ZIP_CONTENT_TYPE = 'application/zip';

const batchKey = (jobId: string, rest: string) => `${BATCHES_PREFIX.prefix}${jobId}/${rest}`;
const chunkKey = (jobId: string, part: number, chunk: number) =>
  batchKey(jobId, `parts/${part}/pdfs-${chunk}`);
/** The chunk's PDFs in its metadata: `uuid:bytes,uuid:bytes` (20 PDFs are ~900 of S3's 2 KB of metadata). */
const PDFS_META = 'pdfs';

export class S3BatchFiles extends S3Bucket implements BatchFiles {
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
    const out = await this.getObject(key);
    return out && { body: out.Body as Readable, bytes: out.ContentLength ?? 0 };
  }

  private put(key: string, body: string | Buffer, contentType: string): Promise<void> {
    return this.putObject(key, { Body: body, ContentType: contentType });
  }

  private async getJson<T>(key: string): Promise<T | undefined> {
    const text = await this.getText(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
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

  putPdfs(jobId: string, part: number, chunk: number, pdfs: { uuid: string; pdf: Buffer }[]): Promise<void> {
    return this.putObject(chunkKey(jobId, part, chunk), {
      Body: Buffer.concat(pdfs.map((p) => p.pdf)),
      ContentType: 'application/octet-stream',
      Metadata: { [PDFS_META]: pdfs.map((p) => `${p.uuid}:${p.pdf.length}`).join(',') },
    });
  }

  async storedPdfs(jobId: string, part: number): Promise<StoredPdf[]> {
    const prefix = batchKey(jobId, `parts/${part}/pdfs-`);
    const chunks = (await this.listKeys(prefix)).map((key) => Number(key.slice(prefix.length)));
    const heads = await Promise.all(chunks.map((chunk) => this.headObject(chunkKey(jobId, part, chunk))));
    return heads.flatMap((head, i) => {
      const pdfs = (head?.Metadata?.[PDFS_META] ?? '')
        .split(',')
        .filter(Boolean)
        .map((pdf) => {
          const [uuid, bytes] = pdf.split(':');
          return { uuid: uuid!, chunk: chunks[i]!, bytes: Number(bytes) };
        });
      // A chunk whose size is not its PDFs' (never in S3, whose PUT is whole or nothing) counts as not written.
      return pdfs.reduce((sum, p) => sum + p.bytes, 0) === head?.ContentLength ? pdfs : [];
    });
  }

  async openPdfs(jobId: string, part: number, source: PdfSource): Promise<Readable> {
    const key =
      'chunk' in source
        ? chunkKey(jobId, part, source.chunk)
        : 'uuid' in source
          ? batchKey(jobId, `pdf/${source.uuid}.pdf`)
          : batchKey(jobId, `parts/${part}.pdfs`);
    const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
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
    const head = await this.headObject(key);
    return { key, filename, contentType: ZIP_CONTENT_TYPE, bytes: head?.ContentLength ?? 0 };
  }
}
