// S3 store for documents too large to return inside a Lambda response (6 MB, base64-encoded): the render handler
// uploads them under the service's results prefix (lambdas/documents/bucket.ts: results/, 1-day lifecycle) and redirects the caller to a short-lived presigned URL.
import { randomUUID } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export interface ResultStore {
  /** Stores the bytes and returns a URL the caller can GET for `expiresInS` seconds. */
  publish(bytes: Buffer, contentType: string, filename: string, expiresInS: number): Promise<string>;
}

export class S3ResultStore implements ResultStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    /** Key prefix the bucket's lifecycle expires (the service's bucket.ts). */
    private readonly prefix: string,
  ) {}

  async publish(bytes: Buffer, contentType: string, filename: string, expiresInS: number): Promise<string> {
    const key = `${this.prefix}${randomUUID()}/${filename}`;
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        ContentDisposition: `attachment; filename="${filename}"`,
      }),
    );
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInS,
    });
  }
}
