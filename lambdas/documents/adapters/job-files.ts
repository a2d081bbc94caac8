// S3 JobFiles of the documents service's async renders, in the documents bucket: the render request of a queued job
// under jobs/ (too large for an SQS message: a body may be 2 MiB) and the finished document under results/jobs/
// (the results/ lifecycle rule expires it after a day, with its job record). Keys are per job id, so a retried
// render overwrites rather than duplicates.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { JobFiles, JobResult, RenderedDocument } from '../ports';
import { JOB_REQUESTS_PREFIX, JOB_RESULT_PREFIX } from '../bucket';

const JOB_REQUEST_PREFIX = JOB_REQUESTS_PREFIX.prefix;

export class S3JobFiles implements JobFiles {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async putRequest(jobId: string, body: string): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: `${JOB_REQUEST_PREFIX}${jobId}.json`,
        Body: body,
        ContentType: 'application/json',
      }),
    );
  }

  async getRequest(jobId: string): Promise<string | undefined> {
    try {
      const out = await this.s3.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: `${JOB_REQUEST_PREFIX}${jobId}.json` }),
      );
      return await out.Body!.transformToString('utf8');
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }

  async deleteRequest(jobId: string): Promise<void> {
    await this.s3.send(
      new DeleteObjectCommand({ Bucket: this.bucket, Key: `${JOB_REQUEST_PREFIX}${jobId}.json` }),
    );
  }

  async putResult(jobId: string, doc: RenderedDocument): Promise<JobResult> {
    const key = `${JOB_RESULT_PREFIX}${jobId}/${doc.filename}`;
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: doc.bytes,
        ContentType: doc.contentType,
        ContentDisposition: `attachment; filename="${doc.filename}"`,
      }),
    );
    return { key, filename: doc.filename, contentType: doc.contentType, bytes: doc.bytes.length };
  }

  async deleteResult(result: JobResult): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: result.key }));
  }

  presignResult(result: JobResult, expiresInS: number): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: result.key }), {
      expiresIn: expiresInS,
    });
  }
}
