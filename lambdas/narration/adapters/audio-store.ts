// S3 implementation of AudioStore. Keys (lambdas/narration/bucket.ts, whose prefixes the lifecycle rules expire):
// audio/<id>.<fmt>, audio/<id>/seg/<n>.mp3, audio/<id>/timings.json (30 days, or the retention-days tag they are
// written with), jobs/<id>.txt (2 days).
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { DeleteObjectsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { S3Bucket } from '../../shared/aws/s3-bucket';
import { CONTENT_TYPE, type AudioFormat } from '../core/formats';
import type { AudioStore } from '../ports';
import { RETENTION_TAG, audioKey, jobTextKey, segmentKey, timingsKey } from '../bucket';

/** The object's retention class as S3's x-amz-tagging (URL-encoded query syntax). */
const tagging = (retentionDays: number | undefined) =>
  retentionDays === undefined ? {} : { Tagging: `${RETENTION_TAG}=${retentionDays}` };

export class S3AudioStore extends S3Bucket implements AudioStore {
  async putAudioFile(audioId: string, fmt: AudioFormat, path: string, retentionDays?: number): Promise<void> {
    const { size } = await stat(path);
    const params = {
      Bucket: this.bucket,
      Key: audioKey(audioId, fmt),
      ContentType: CONTENT_TYPE[fmt],
      ContentDisposition: `inline; filename="${audioId}.${fmt}"`,
      CacheControl: 'private, max-age=86400, immutable',
      // Multipart too: lib-storage passes it to CreateMultipartUpload.
      ...tagging(retentionDays),
    };
    if (size <= 8 * 1024 * 1024) {
      // One PUT for the common short audio, from memory: the SDK cannot retry a streamed body, so one throttled
      // or failed PUT (SlowDown, a 500) would fail the whole conversion (test/e2e/faults-api.test.ts).
      await this.s3.send(
        new PutObjectCommand({ ...params, Body: await readFile(path), ContentLength: size }),
      );
      return;
    }
    // Long narrations: multipart upload streamed from disk, memory stays flat.
    await new Upload({
      client: this.s3,
      params: { ...params, Body: createReadStream(path) },
      queueSize: 2,
    }).done();
  }

  presignAudio(audioId: string, fmt: AudioFormat, expiresInS: number): Promise<string> {
    return this.presignGet(audioKey(audioId, fmt), expiresInS);
  }

  putSegment(audioId: string, n: number, mp3: Uint8Array, retentionDays?: number): Promise<void> {
    return this.putObject(segmentKey(audioId, n), {
      Body: mp3,
      ContentLength: mp3.byteLength,
      ContentType: 'audio/mpeg',
      CacheControl: 'private, max-age=86400, immutable',
      ...tagging(retentionDays),
    });
  }

  putTimings(audioId: string, timings: object, retentionDays?: number): Promise<void> {
    return this.putObject(timingsKey(audioId), {
      Body: JSON.stringify(timings),
      ContentType: 'application/json',
      ...tagging(retentionDays),
    });
  }

  async getTimings(audioId: string): Promise<object | undefined> {
    const text = await this.getText(timingsKey(audioId));
    return text === undefined ? undefined : (JSON.parse(text) as object);
  }

  presignSegment(audioId: string, n: number, expiresInS: number): Promise<string> {
    return this.presignGet(segmentKey(audioId, n), expiresInS);
  }

  putJobText(audioId: string, text: string): Promise<void> {
    return this.putObject(jobTextKey(audioId), { Body: text, ContentType: 'text/plain; charset=utf-8' });
  }

  getJobText(audioId: string): Promise<string | undefined> {
    return this.getText(jobTextKey(audioId));
  }

  /** Every object of a conversion (DELETE /audio/{id}): one batch request per 1,000 keys; missing keys are fine. */
  async deleteAudio(audioId: string, fmt: AudioFormat, segments: number): Promise<void> {
    const keys = [
      audioKey(audioId, fmt),
      timingsKey(audioId),
      jobTextKey(audioId),
      ...Array.from({ length: segments }, (_, n) => segmentKey(audioId, n)),
    ];
    for (let i = 0; i < keys.length; i += 1000) {
      const out = await this.s3.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
      if (out.Errors?.length)
        throw new Error(`S3 refused to delete ${out.Errors.length} object(s) of ${audioId}`);
    }
  }

  deleteJobText(audioId: string): Promise<void> {
    return this.deleteObject(jobTextKey(audioId));
  }
}
