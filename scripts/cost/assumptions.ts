// Cost model (scripts/cost-model.ts): every number it uses besides prices, with where each comes from (the
// manifests, the code, or a measurement on this machine).
import { documentsManifest } from '../../lambdas/documents/routes';
import { CHARS_PER_SECOND } from '../../lambdas/narration/core/preview';
import { narrationManifest } from '../../lambdas/narration/routes';

const route = (id: string) => narrationManifest.routes.find((r) => r.id === id)!;
export const MB = 1024 * 1024;

/** Every number the model uses besides prices, with where it comes from. */
export const ASSUMPTIONS = {
  /** Characters per Polly call (SynthesizeSpeech bills ≤ 3,000): the narrate() chunk size. */
  chunkChars: 3000,
  /** Speech rate, from lambdas/narration/core/preview.ts (used for estimates). */
  charsPerSecond: CHARS_PER_SECOND,
  /** MP3 48 kbps CBR mono (lambdas/narration/audio/encode.ts, 16 kHz Polly PCM). */
  mp3BytesPerSecond: 48_000 / 8,
  /**
   * MP3 encoder speed, × realtime on one core (16 kHz mono): `npm run cost -- --measure` gave 286× (best of 3) on
   * 2026-11-21 on the machine of docs/performance.md; 200 leaves room for a Graviton core being slower.
   */
  encoderXRealtime: 200,
  /** Polly returns audio this many times faster than real time (ASSUMPTION: Polly is not reachable from tests). */
  pollyXRealtime: 10,
  /** Fixed work per invocation besides synthesis and encoding (config, DynamoDB, S3 upload), seconds. */
  overheadS: 0.3,
  /** 1,769 MB = one full vCPU (Lambda docs); less memory gets a share of it. */
  fullVcpuMb: 1769,
  syncMemMb: route('ConvertText').memoryMb,
  workerMemMb: narrationManifest.workers[0]!.memoryMb,
  workerTmpMb: narrationManifest.workers[0]!.tmpMb,
  getAudioMemMb: route('GetAudio').memoryMb,
  getAudioS: 0.05,
  /** Long jobs: GET /audio polls while pending (each a Lambda + API call + GetItem), then the final redirect. */
  pollsPerLongJob: 6,
  /** Every audio is downloaded this many times (presigned S3 GET + data transfer out). */
  downloadsPerAudio: 2,
  /** Days audio is kept (AUDIO_PREFIX.days of lambdas/narration/bucket.ts): storage is a GB-month share of that. */
  audioDaysKept: 30,
  /** Log bytes per invocation (Powertools JSON line + START/END/REPORT; no texts are logged). */
  logBytesPerInvocation: 2048,
  /** lib-storage Upload part size: audio above it is a multipart upload (create + parts + complete). */
  multipartPartBytes: 5 * MB,
  // Documents
  renderMemMb: documentsManifest.routes.find((r) => r.id === 'Render')!.memoryMb,
  /** Warm factura PDF, ms: bench/render-pdf.bench.ts "warm invoice" median here (docs/performance.md) + handling. */
  renderWarmMs: 65,
  /** Share of renders that hit a cold container (Chromium unpack + launch), and what one costs, ms. */
  coldShare: 0.02,
  coldRenderMs: 4500,
  pdfBytes: 60 * 1024,
  // CFDI batches (POST /v1/batches, lambdas/documents/use-cases/batch-run.ts)
  batchWorkerMemMb: documentsManifest.workers.find((w) => w.id === 'BatchWorker')!.memoryMb,
  /** CFDI per part (PART_SIZE of use-cases/batches.ts): one SQS message and one worker invocation each. */
  batchPartSize: 20,
  /** PDFs per chunk object a part writes (CHUNK_PDFS of use-cases/batch-part.ts): each PDF is written once. */
  batchChunkPdfs: 20,
  /** ms per CFDI in a warm part: the factura PDF/A from XML (~110 ms, issue #26) + PUT of its PDF. */
  batchCfdiMs: 150,
  /** Every part may start a cold container at concurrency 50: the worst case, counted in full. */
  batchColdMs: 4500,
  /** Split and assembly, ms per CFDI: reading the zip, and streaming PDF + XML into the result zip. */
  batchSplitMsPerCfdi: 5,
  batchAssembleMsPerCfdi: 30,
  /** The batch assembler (a zip bundle on arm64): its memory, from the manifest. */
  batchAssemblerMemMb: documentsManifest.workers.find((w) => w.id === 'BatchAssembler')!.memoryMb,
  /**
   * From the split to the last part counted, s: the assembler runs (and is billed) that long, following the parts.
   * bench/batch-run.bench.ts simulated 1,000 CFDI at concurrency 50 in 18 s with the declared cold starts.
   */
  batchRenderWallS: 20,
  /** How often the waiting assembler reads the job's counted parts (POLL_MS of use-cases/batch-assemble.ts). */
  batchAssemblerPollMs: 300,
  cfdiXmlBytes: 8 * 1024,
  // Publisher feeds (docs/feeds.md)
  /** A news article's narrated text, characters (≈ 800 words): over SYNC_MAX_CHARS, so it goes to the worker. */
  feedArticleChars: 5000,
  /** Feeds one publisher registers (they share the 1,000 articles). */
  feeds: 5,
  /** Polls per feed and month at FEED_POLL_INTERVAL_S (900 s). */
  pollsPerFeed: (30 * 86400) / 900,
  /** Share of articles edited after publishing (each edit is one more narration of the article). */
  editedShare: 0.1,
  /** Scheduler ticks per month (FeedScheduler, rate(5 minutes)). */
  schedulerTicks: (30 * 86400) / 300,
  /** One feed fetch + parse (poll worker) and one page fetch + extraction (article worker), seconds. */
  feedPollS: 0.5,
  articleFetchS: 1,
  /** Podcast apps re-read each podcast feed about hourly (Cache-Control max-age=300 lets them). */
  podcastReadsPerFeed: 30 * 24,
  /** Items in a podcast feed (one audio record read each). */
  podcastItems: 100,
  /** Plays in the embed player per article and month (each: one page lookup and its beacons). */
  playsPerArticle: 100,
  /** Beacons per play (play, then 25/50/75/100 % reached, seek: each once per page view; 6 at most). */
  beaconsPerPlay: 4,
  /** Read units of one read of a feed record (strongly consistent, 4 KB each: ~25 KB with 100 entries). */
  feedRecordRru: 7,
  /**
   * Read units of a beacon's check: the article's own item (< 4 KB), eventually consistent, projected to its key.
   * DynamoDB bills the item read, not what a projection returns, so the saving is the smaller item and the
   * eventually consistent read (half a unit), not the projection.
   */
  beaconRru: 0.5,
  /** Write units of one beacon: the feed's day item of counters, 1 per KB (~4 KB with 20 articles heard a day). */
  listenItemWcu: 4,
};
export type Assumptions = typeof ASSUMPTIONS;
