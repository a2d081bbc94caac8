// Fabricates a long narration job as the pipeline leaves it while it runs (lambdas/narration: AudioRecord.segments,
// S3 keys audio/<id>/seg/<n>.mp3 and audio/<id>/timings.json, bucket.ts): real speech from espeak-ng, encoded by the
// project's MP3 encoder, one segment per group of sentences, written through the real adapters/clients to the
// emulators. Tests use it to drive the stream playlist and the embed player before, and independently of, the
// worker: `land(n)` makes segment n appear exactly when the test says so.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { encodeToFile } from '../../lambdas/narration/audio/encode';
import { audioKey, segmentKey, timingsKey } from '../../lambdas/narration/bucket';
import { findVoice } from '../../lambdas/narration/core/voices';
import { awsDeps } from '../../lambdas/narration/deps';
import type { AudioRecord } from '../../lambdas/narration/ports';
import { EspeakCliSynthesizer } from '../../lambdas/narration/speech/espeak-cli';
import { dynamo, s3Client } from '../../lambdas/shared/aws/clients';

export const SENTENCE_PAUSE_S = 0.25;

export interface FabricatedSegment {
  n: number;
  start_s: number;
  duration_s: number;
  path: string;
}

/** Offsets are UTF-16 into `text` (end exclusive), times on the whole audio's clock. */
export interface SentenceTiming {
  start_s: number;
  end_s: number;
  start: number;
  end: number;
}

export interface FabricatedJob {
  audioId: string;
  text: string;
  segments: FabricatedSegment[];
  sentences: SentenceTiming[];
  /** Interpolated inside each sentence (see fabricateJob). */
  words: SentenceTiming[];
  durationS: number;
  /** Writes the job's record (status processing, no segment yet). */
  create(): Promise<void>;
  /** Segment n lands: its object, then the record's `segments` grows by it (the order the pipeline keeps). */
  land(n: number): Promise<void>;
  /** The job ends: the whole file (segments joined) and the timings, then the record says done. */
  finish(): Promise<void>;
}

/** Sentences of `text` with their offsets (a sentence ends at . ! ? or the end; whitespace between is skipped). */
export function sentencesOf(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const m of text.matchAll(/[^\s][^.!?]*(?:[.!?]+|$)/g))
    out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * Speech for `text`, `perSegment` sentences per MP3 segment, files under `dir`. Sentence times inside a segment are
 * exact in samples (each sentence is one espeak call, separated by a 250 ms pause); the segment's start is the sum of
 * the durations of the segment files before it (frames × samples per frame, what players and ffprobe report).
 */
export async function fabricateJob(
  audioId: string,
  text: string,
  perSegment: number,
  dir: string,
  voiceId = 'es-MX-Mia',
): Promise<FabricatedJob> {
  const voice = findVoice(voiceId)!;
  const engine = new EspeakCliSynthesizer({ concurrency: 2 });
  const spans = sentencesOf(text);
  const sentences: SentenceTiming[] = [];
  const segments: FabricatedSegment[] = [];
  let start_s = 0;
  for (let n = 0; n * perSegment < spans.length; n++) {
    const group = spans.slice(n * perSegment, (n + 1) * perSegment);
    const speech = await Promise.all(group.map((s) => engine.synthesize(text.slice(s.start, s.end), voice)));
    const rate = speech[0]!.sampleRate;
    const pause = new Int16Array(Math.round(rate * SENTENCE_PAUSE_S));
    let at = 0;
    const parts: Int16Array[] = [];
    group.forEach((s, i) => {
      if (i > 0) {
        parts.push(pause);
        at += pause.length;
      }
      const samples = speech[i]!.samples;
      sentences.push({ start_s: start_s + at / rate, end_s: start_s + (at + samples.length) / rate, ...s });
      parts.push(samples);
      at += samples.length;
    });
    const path = join(dir, `${audioId}-${n}.mp3`);
    const out = await encodeToFile(
      'mp3',
      rate,
      (async function* () {
        yield* parts;
      })(),
      path,
    );
    segments.push({ n, start_s, duration_s: out.durationS, path });
    start_s += out.durationS;
  }
  const durationS = start_s;
  // Word timings as an engine with word marks would give them (espeak has none): interpolated by characters
  // inside each sentence, whose own times are exact. Enough to drive the player's word highlight.
  const words: SentenceTiming[] = sentences.flatMap((s) =>
    [...text.slice(s.start, s.end).matchAll(/[\p{L}\p{N}]+/gu)].map((w) => {
      const at = (i: number) => s.start_s + ((s.end_s - s.start_s) * i) / (s.end - s.start);
      return {
        start_s: at(w.index),
        end_s: at(w.index + w[0].length),
        start: s.start + w.index,
        end: s.start + w.index + w[0].length,
      };
    }),
  );
  const s3 = s3Client();
  const bucket = process.env.AUDIO_BUCKET!;
  const put = async (key: string, body: Buffer | string, type: string) =>
    s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: type }));
  const rec = (n: number) => ({ n, start_s: segments[n]!.start_s, duration_s: segments[n]!.duration_s });
  return {
    audioId,
    text,
    segments,
    sentences,
    words,
    durationS,
    async create() {
      const now = new Date().toISOString();
      const record: AudioRecord = {
        audioId,
        status: 'processing',
        voice: voiceId,
        fmt: 'mp3',
        chars: text.length,
        plan: 'free',
        createdAt: now,
        updatedAt: now,
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
        progress: 0,
        leaseUntil: Math.floor(Date.now() / 1000) + 3600,
      };
      await awsDeps().audio.create(record);
    },
    async land(n) {
      await put(segmentKey(audioId, n), await readFile(segments[n]!.path), 'audio/mpeg');
      await dynamo().send(
        new UpdateCommand({
          TableName: process.env.AUDIO_TABLE!,
          Key: { audioId },
          UpdateExpression: 'SET #sg = list_append(if_not_exists(#sg, :none), :seg), progress = :p',
          ExpressionAttributeNames: { '#sg': 'segments' },
          ExpressionAttributeValues: { ':none': [], ':seg': [rec(n)], ':p': (n + 1) / (segments.length + 1) },
        }),
      );
    },
    async finish() {
      const whole = Buffer.concat(await Promise.all(segments.map((s) => readFile(s.path))));
      await put(audioKey(audioId, 'mp3'), whole, 'audio/mpeg');
      await put(
        timingsKey(audioId),
        JSON.stringify({
          audio_id: audioId,
          status: 'done',
          duration_s: durationS,
          sentences,
          words,
          chapters: [],
          // What the pipeline stores beside them: each sentence's text (WebVTT cues).
          cues: sentences.map((s) => text.slice(s.start, s.end)),
        }),
        'application/json',
      );
      const ok = await awsDeps().audio.complete(audioId, {
        durationS,
        bytes: whole.length,
        segments: segments.map((s) => rec(s.n)),
        timings: true,
      });
      if (!ok) throw new Error(`job ${audioId} could not be completed`);
    },
  };
}
