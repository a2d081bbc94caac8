// S3 JobFiles of the documents service's async renders, in the documents bucket: the render request of a queued job
// under jobs/ (too large for an SQS message: a body may be 2 MiB) and the finished document under results/jobs/
// (the results/ lifecycle rule expires it after a day, with its job record). Keys are per job id, so a retried
// render overwrites rather than duplicates.
import { S3Bucket } from '../../shared/aws/s3-bucket';
import type { JobFiles, JobResult, RenderedDocument } from '../ports';
import { JOB_REQUESTS_PREFIX, JOB_RESULT_PREFIX } from '../bucket';

const requestKey = (jobId: string) => `${JOB_REQUESTS_PREFIX.prefix}${jobId}.json`;

export class S3JobFiles extends S3Bucket implements JobFiles {
  async putRequest(jobId: string, body: string): Promise<void> {
    await this.putObject(requestKey(jobId), { Body: body, ContentType: 'application/json' });
  }

  getRequest(jobId: string): Promise<string | undefined> {
    return this.getText(requestKey(jobId));
  }

  deleteRequest(jobId: string): Promise<void> {
    return this.deleteObject(requestKey(jobId));
  }

  async putResult(jobId: string, doc: RenderedDocument): Promise<JobResult> {
    const key = `${JOB_RESULT_PREFIX}${jobId}/${doc.filename}`;
    await this.putDownload(key, doc.bytes, doc.contentType, doc.filename);
    return { key, filename: doc.filename, contentType: doc.contentType, bytes: doc.bytes.length };
  }

  deleteResult(result: JobResult): Promise<void> {
    return this.deleteObject(result.key);
  }

  presignResult(result: JobResult, expiresInS: number): Promise<string> {
    return this.presignGet(result.key, expiresInS);
  }
}
