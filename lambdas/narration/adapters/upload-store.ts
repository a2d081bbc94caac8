// S3 implementation of UploadStore: PDFs sent straight to the bucket with a presigned POST (POST /convert/pdf/upload),
// under uploads/<uploadId>.pdf (lambdas/narration/bucket.ts; a lifecycle rule expires the prefix after a day).
// The POST policy (signed with the function's role, which may only PutObject under uploads/) binds the key, the
// content type and a content-length-range, and expires; S3 refuses any other upload. The local S3 emulator checks no
// policy, so the size is enforced again when the file is read (getPdfUpload), as the conversion must anyway.
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { S3Bucket } from '../../shared/aws/s3-bucket';
import type { Readable } from 'node:stream';
import { uploadKey } from '../bucket';
import type { PresignedPost, UploadStore, UploadedPdf } from '../ports';

export const PDF_CONTENT_TYPE = 'application/pdf';

export class S3UploadStore extends S3Bucket implements UploadStore {
  async presignPdfUpload(
    uploadId: string,
    limits: { maxBytes: number; expiresInS: number },
  ): Promise<PresignedPost> {
    const { url, fields } = await createPresignedPost(this.s3, {
      Bucket: this.bucket,
      Key: uploadKey(uploadId),
      // Fields become exact-match conditions of the policy (the key is added by createPresignedPost).
      Fields: { 'Content-Type': PDF_CONTENT_TYPE },
      Conditions: [['content-length-range', 1, limits.maxBytes]],
      Expires: limits.expiresInS,
    });
    return { url, fields };
  }

  async getPdfUpload(uploadId: string, maxBytes: number): Promise<UploadedPdf> {
    const out = await this.getObject(uploadKey(uploadId));
    if (!out) return { kind: 'missing' };
    const body = out.Body as Readable;
    const declared = out.ContentLength ?? 0;
    if (declared > maxBytes) {
      body.destroy();
      return { kind: 'too-large', bytes: declared };
    }
    // Counted while reading too: the object could be replaced between the answer's headers and its body.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        body.destroy();
        return { kind: 'too-large', bytes: size };
      }
      chunks.push(chunk as Buffer);
    }
    return { kind: 'ok', data: Buffer.concat(chunks) };
  }

  deletePdfUpload(uploadId: string): Promise<void> {
    return this.deleteObject(uploadKey(uploadId));
  }
}
