// The base of every S3 store: one bucket. Each store names its keys and what it writes with them; this names the
// bucket on every request, reads a missing object as undefined, lists keys and signs GET links.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  type PutObjectCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export abstract class S3Bucket {
  constructor(
    protected readonly s3: S3Client,
    protected readonly bucket: string,
  ) {}

  protected async putObject(
    key: string,
    input: Omit<PutObjectCommandInput, 'Bucket' | 'Key'>,
  ): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, ...input }));
  }

  /** A file to download: its bytes, type and name (`Content-Disposition: attachment`). */
  protected putDownload(
    key: string,
    bytes: Uint8Array,
    contentType: string,
    filename: string,
  ): Promise<void> {
    return this.putObject(key, {
      Body: bytes,
      ContentType: contentType,
      ContentDisposition: `attachment; filename="${filename}"`,
    });
  }

  /** The object (its body unread), or undefined when there is none. */
  protected getObject(key: string) {
    return unlessMissing(this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })), 'NoSuchKey');
  }

  /** The object's metadata (HEAD), or undefined when there is none. */
  protected headObject(key: string) {
    return unlessMissing(this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })), 'NotFound');
  }

  /** Every key under `prefix` (page by page). */
  protected async listKeys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const page of paginateListObjectsV2(
      { client: this.s3 },
      { Bucket: this.bucket, Prefix: prefix },
    ))
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    return keys;
  }

  protected async getText(key: string): Promise<string | undefined> {
    return (await this.getObject(key))?.Body!.transformToString('utf8');
  }

  protected async deleteObject(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** A link that GETs the object for `expiresInS` seconds. */
  protected presignGet(key: string, expiresInS: number): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: expiresInS,
    });
  }
}

/** S3's answer, or undefined when it says the object is not there (GET: NoSuchKey; HEAD, which has no body: NotFound). */
async function unlessMissing<T>(
  answer: Promise<T>,
  missing: 'NoSuchKey' | 'NotFound',
): Promise<T | undefined> {
  try {
    return await answer;
  } catch (err) {
    if ((err as { name?: string }).name === missing) return undefined;
    throw err;
  }
}
