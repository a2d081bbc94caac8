// S3 store for documents too large to return inside a Lambda response (6 MB, base64-encoded): the render handler
// uploads them under the service's results prefix (lambdas/documents/bucket.ts: results/, 1-day lifecycle) and redirects the caller to a short-lived presigned URL.
import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { S3Bucket } from './s3-bucket';

export interface ResultStore {
  /** Stores the bytes and returns a URL the caller can GET for `expiresInS` seconds. */
  publish(bytes: Buffer, contentType: string, filename: string, expiresInS: number): Promise<string>;
}

export class S3ResultStore extends S3Bucket implements ResultStore {
  constructor(
    s3: S3Client,
    bucket: string,
    /** Key prefix the bucket's lifecycle expires (the service's bucket.ts). */
    private readonly prefix: string,
  ) {
    super(s3, bucket);
  }

  async publish(bytes: Buffer, contentType: string, filename: string, expiresInS: number): Promise<string> {
    const key = `${this.prefix}${randomUUID()}/${filename}`;
    await this.putDownload(key, bytes, contentType, filename);
    return this.presignGet(key, expiresInS);
  }
}
