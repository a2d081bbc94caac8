// Cost model: what 1M narrated characters and 1,000 PDFs cost on AWS (us-east-1, list prices, no free tier), from a
// price table that names its source and the date it was read, and assumptions that name where each number comes
// from (the manifests, the code, or a measurement on this machine). Writes docs/operations/cost.md.
//
//   npm run cost                 regenerate docs/operations/cost.md
//   npm run cost -- --check      exit 1 if the committed cost.md differs from what the script produces
//   npm run cost -- --measure    re-measure the MP3 encoder speed on this machine (then update ASSUMPTIONS)
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { documentsManifest } from '../lambdas/documents/routes';
import { CHARS_PER_SECOND } from '../lambdas/narration/core/preview';
import { normalizeForSpeech } from '../lambdas/narration/core/normalize';
import { narrationManifest } from '../lambdas/narration/routes';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'docs', 'operations', 'cost.md');

export interface Price {
  usd: number;
  unit: string;
  source: string;
}

/** Date the prices below were read. */
export const PRICES_CHECKED = '2026-11-21';
const LAMBDA_SRC =
  'https://aws.amazon.com/lambda/pricing/ (first tier; as transcribed by cloudchipr.com/blog/aws-lambda-pricing)';

/** us-east-1 list prices, beyond any free tier. Re-read them from the sources before relying on the totals. */
export const PRICES = {
  pollyNeural: {
    usd: 16 / 1e6,
    unit: 'character',
    source:
      'https://aws.amazon.com/polly/pricing/ ($16.00 per 1M characters; transcription read 2026-10-07, api-evangelist/amazon-polly)',
  },
  pollyStandard: {
    usd: 4 / 1e6,
    unit: 'character',
    source: 'https://aws.amazon.com/polly/pricing/ ($4.00 per 1M characters; same transcription)',
  },
  pollyGenerative: {
    usd: 30 / 1e6,
    unit: 'character',
    source:
      'https://aws.amazon.com/polly/pricing/ ($30.00 per 1M characters; list price as published since the generative engine launched, not re-read here)',
  },
  pollyLongForm: {
    usd: 100 / 1e6,
    unit: 'character',
    source:
      'https://aws.amazon.com/polly/pricing/ ($100.00 per 1M characters; list price as published since the long-form engine launched, not re-read here)',
  },
  lambdaArmGbS: { usd: 0.0000133334, unit: 'GB-second (arm64)', source: LAMBDA_SRC },
  lambdaX86GbS: { usd: 0.0000166667, unit: 'GB-second (x86_64)', source: LAMBDA_SRC },
  lambdaRequest: { usd: 0.2 / 1e6, unit: 'invocation', source: LAMBDA_SRC },
  lambdaTmpGbS: {
    usd: 0.0000000309,
    unit: 'GB-second of /tmp above 512 MB',
    source:
      'https://aws.amazon.com/lambda/pricing/ (ephemeral storage; figure not re-confirmed in this lookup)',
  },
  sqsRequest: {
    usd: 0.4 / 1e6,
    unit: 'request (64 KB chunk), standard queue',
    source:
      'https://aws.amazon.com/sqs/pricing/ (as summarised by cloudburn.io/blog/amazon-sqs-pricing, 2026)',
  },
  s3Put: {
    usd: 0.005 / 1000,
    unit: 'PUT/COPY/POST/LIST request (S3 Standard)',
    source: 'https://aws.amazon.com/s3/pricing/ (as quoted by awsi.click, S3 request pricing)',
  },
  s3Get: { usd: 0.0004 / 1000, unit: 'GET request (S3 Standard)', source: 'same as S3 PUT' },
  s3StorageGbMonth: {
    usd: 0.023,
    unit: 'GB-month (S3 Standard, first 50 TB)',
    source: 'https://aws.amazon.com/s3/pricing/ (first 50 TB tier)',
  },
  ddbWrite: {
    usd: 0.625 / 1e6,
    unit: 'write request unit (on-demand)',
    source:
      'https://aws.amazon.com/dynamodb/pricing/on-demand/ (after the Nov 2024 cut; airbyte.com DynamoDB pricing, 2025)',
  },
  ddbRead: {
    usd: 0.125 / 1e6,
    unit: 'read request unit (on-demand)',
    source: 'same as DynamoDB writes',
  },
  schedulerInvocation: {
    usd: 1 / 1e6,
    unit: 'EventBridge Scheduler invocation',
    source:
      'https://aws.amazon.com/eventbridge/pricing/ (Scheduler: $1.00 per million invocations after 14M free)',
  },
  apiHttpRequest: {
    usd: 1 / 1e6,
    unit: 'HTTP API request (first 300M/month, metered per 512 KB)',
    source: 'https://aws.amazon.com/api-gateway/pricing/ (apigatewaycost.com, awsforengineers.com)',
  },
  logsIngestGb: {
    usd: 0.5,
    unit: 'GB ingested (CloudWatch Logs, standard class)',
    source: 'https://aws.amazon.com/cloudwatch/pricing/ (c3x.dev CloudWatch Logs pricing, 2026)',
  },
  transferOutGb: {
    usd: 0.09,
    unit: 'GB out to the internet (first 10 TB, after 100 GB free)',
    source:
      'https://aws.amazon.com/ec2/pricing/on-demand/ data transfer (wring.co data transfer guide, 2026)',
  },
} satisfies Record<string, Price>;
export type Prices = { [K in keyof typeof PRICES]: Price };

const route = (id: string) => narrationManifest.routes.find((r) => r.id === id)!;
const MB = 1024 * 1024;

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
  /** ms per CFDI in a warm part: the factura PDF/A from XML (~110 ms, issue #26) + HEAD and PUT of its PDF. */
  batchCfdiMs: 150,
  /** Every part may start a cold container at concurrency 50: the worst case, counted in full. */
  batchColdMs: 4500,
  /** Split and assembly, ms per CFDI: reading the zip, and streaming PDF + XML into the result zip. */
  batchSplitMsPerCfdi: 5,
  batchAssembleMsPerCfdi: 30,
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

export interface Line {
  item: string;
  quantity: number;
  unit: string;
  usd: number;
}
export interface Breakdown {
  title: string;
  lines: Line[];
  /** The speech engine's line (narration) or 0. */
  speechUsd: number;
  infraUsd: number;
  totalUsd: number;
}

function breakdown(title: string, lines: Line[], speechItem?: string): Breakdown {
  const totalUsd = lines.reduce((s, l) => s + l.usd, 0);
  const speechUsd = lines.filter((l) => l.item === speechItem).reduce((s, l) => s + l.usd, 0);
  return { title, lines, speechUsd, infraUsd: totalUsd - speechUsd, totalUsd };
}

/** Seconds one invocation spends synthesizing + encoding `chars` characters at `memMb` (no overlap: conservative). */
export function narrationSeconds(chars: number, memMb: number, a: Assumptions = ASSUMPTIONS): number {
  const audioS = chars / a.charsPerSecond;
  const cpuShare = Math.min(1, memMb / a.fullVcpuMb);
  return audioS / a.pollyXRealtime + audioS / (a.encoderXRealtime * cpuShare) + a.overheadS;
}

/** S3 PUT-class requests to upload `bytes` with lib-storage (one PUT, or create + parts + complete). */
export function uploadRequests(bytes: number, a: Assumptions = ASSUMPTIONS): number {
  return bytes <= a.multipartPartBytes ? 1 : Math.ceil(bytes / a.multipartPartBytes) + 2;
}

export interface NarrationScenario {
  /** Characters per conversion: ≤ chunkChars is narrated inside the request (sync), longer goes to the worker. */
  charsPerConversion: number;
  engine: 'neural' | 'standard' | 'generative' | 'long-form';
  /** Polly-billed characters per input character (reading rules expand numbers, dates, symbols). */
  expansion: number;
}

/** Cost of narrating 1,000,000 input characters as conversions of `charsPerConversion` each. */
export function narrationCost(
  s: NarrationScenario,
  p: Prices = PRICES,
  a: Assumptions = ASSUMPTIONS,
): Breakdown {
  const total = 1_000_000;
  const conversions = total / s.charsPerConversion;
  const sync = s.charsPerConversion <= a.chunkChars;
  const billedChars = total * s.expansion;
  const audioS = billedChars / a.charsPerSecond;
  const audioBytesEach = (s.charsPerConversion * s.expansion * a.mp3BytesPerSecond) / a.charsPerSecond;
  const audioGb = (audioS * a.mp3BytesPerSecond) / 1024 ** 3;
  const polly = {
    neural: p.pollyNeural,
    standard: p.pollyStandard,
    generative: p.pollyGenerative,
    'long-form': p.pollyLongForm,
  }[s.engine];
  const lines: Line[] = [];
  const add = (item: string, quantity: number, price: Price) =>
    lines.push({ item, quantity, unit: price.unit, usd: quantity * price.usd });

  add(`Polly ${s.engine}`, billedChars, polly);
  const memMb = sync ? a.syncMemMb : a.workerMemMb;
  const seconds = narrationSeconds(s.charsPerConversion * s.expansion, memMb, a);
  add(
    `Lambda ${sync ? 'ConvertText' : 'Worker'} (${memMb} MB × ${seconds.toFixed(1)} s each)`,
    conversions * seconds * (memMb / 1024),
    p.lambdaArmGbS,
  );
  // Long jobs: the accepting request is short (store text, record, enqueue).
  if (!sync)
    add(
      `Lambda ConvertText accepting the job (${a.syncMemMb} MB × ${a.overheadS} s)`,
      conversions * a.overheadS * (a.syncMemMb / 1024),
      p.lambdaArmGbS,
    );
  if (!sync)
    add(
      `Lambda Worker /tmp (${a.workerTmpMb - 512} MB above 512 MB)`,
      conversions * seconds * ((a.workerTmpMb - 512) / 1024),
      p.lambdaTmpGbS,
    );
  const polls = sync ? 1 : a.pollsPerLongJob;
  add(
    `Lambda GetAudio (${a.getAudioMemMb} MB × ${a.getAudioS} s, ${polls} per conversion)`,
    conversions * polls * a.getAudioS * (a.getAudioMemMb / 1024),
    p.lambdaArmGbS,
  );
  const invocations = conversions * (1 + polls + (sync ? 0 : 1));
  add('Lambda invocations', invocations, p.lambdaRequest);
  add('API Gateway HTTP API requests', conversions * (1 + polls), p.apiHttpRequest);
  if (!sync) add('SQS send + receive + delete', conversions * 3, p.sqsRequest);
  add(
    'S3 PUT-class (audio upload' + (sync ? ')' : ', job text)'),
    conversions * (uploadRequests(audioBytesEach, a) + (sync ? 0 : 1)),
    p.s3Put,
  );
  add(
    'S3 GET (downloads' + (sync ? ')' : ', worker reads the job text)'),
    conversions * (a.downloadsPerAudio + (sync ? 0 : 1)),
    p.s3Get,
  );
  add(`S3 storage (${a.audioDaysKept} days)`, audioGb * (a.audioDaysKept / 30), p.s3StorageGbMonth);
  // Writes: record + stats (+ claim, one progress update per chunk, done for long jobs). Reads: key lookup +
  // one GetItem per GET /audio.
  const chunks = Math.ceil((s.charsPerConversion * s.expansion) / a.chunkChars);
  add('DynamoDB writes', conversions * (2 + (sync ? 0 : 2 + chunks)), p.ddbWrite);
  add('DynamoDB reads', conversions * (1 + polls), p.ddbRead);
  add('CloudWatch Logs ingestion', (invocations * a.logBytesPerInvocation) / 1024 ** 3, p.logsIngestGb);
  add('Data transfer out (audio downloads)', audioGb * a.downloadsPerAudio, p.transferOutGb);
  return breakdown(
    `1M characters, ${s.engine}, ${s.charsPerConversion.toLocaleString('en-US')} characters per conversion (${sync ? 'inline' : 'queued'})`,
    lines,
    `Polly ${s.engine}`,
  );
}

/** Cost of 1,000 factura PDFs through POST /v1/render (container-image Lambda, x86_64). */
export function documentsCost(p: Prices = PRICES, a: Assumptions = ASSUMPTIONS): Breakdown {
  const n = 1000;
  const lines: Line[] = [];
  const add = (item: string, quantity: number, price: Price) =>
    lines.push({ item, quantity, unit: price.unit, usd: quantity * price.usd });
  const avgMs = (1 - a.coldShare) * a.renderWarmMs + a.coldShare * a.coldRenderMs;
  add(
    `Lambda Render (${a.renderMemMb} MB × ${avgMs.toFixed(0)} ms average: ${a.renderWarmMs} ms warm, ${a.coldShare * 100} % cold at ${a.coldRenderMs} ms)`,
    n * (avgMs / 1000) * (a.renderMemMb / 1024),
    p.lambdaX86GbS,
  );
  add('Lambda invocations', n, p.lambdaRequest);
  add('API Gateway HTTP API requests', n, p.apiHttpRequest);
  add('DynamoDB writes (quota charge, its commit, stats)', n * 3, p.ddbWrite);
  // The key, and the account's brand (PUT /v1/brand: its small item, consistent; the logo is cached per container).
  add('DynamoDB reads (API key, account brand)', n * 2, p.ddbRead);
  add('CloudWatch Logs ingestion', (n * a.logBytesPerInvocation) / 1024 ** 3, p.logsIngestGb);
  add('Data transfer out (the PDFs)', (n * a.pdfBytes) / 1024 ** 3, p.transferOutGb);
  return breakdown('1,000 PDFs (factura, Pro key, answered inline)', lines);
}

/** Cost of 1,000 stamped CFDI through a batch (zip upload → PDFs + resumen.xlsx in one zip), Scale key. */
export function batchCost(p: Prices = PRICES, a: Assumptions = ASSUMPTIONS): Breakdown {
  const n = 1000;
  const parts = Math.ceil(n / a.batchPartSize);
  const lines: Line[] = [];
  const add = (item: string, quantity: number, price: Price) =>
    lines.push({ item, quantity, unit: price.unit, usd: quantity * price.usd });
  const gb = a.batchWorkerMemMb / 1024;
  const workerS =
    (n * (a.batchCfdiMs + a.batchSplitMsPerCfdi + a.batchAssembleMsPerCfdi) + parts * a.batchColdMs) / 1000;
  add(
    `Lambda BatchWorker (${a.batchWorkerMemMb} MB: ${a.batchCfdiMs} ms per CFDI rendered, ${parts} parts each cold at ${a.batchColdMs} ms, split + assembly ${a.batchSplitMsPerCfdi + a.batchAssembleMsPerCfdi} ms per CFDI)`,
    workerS * gb,
    p.lambdaX86GbS,
  );
  // Split + parts + assembly; the API: upload slot, start, ~20 status polls.
  add('Lambda invocations', parts + 2 + 22, p.lambdaRequest);
  add('API Gateway HTTP API requests', 22, p.apiHttpRequest);
  add('SQS send + receive + delete (one message per step)', (parts + 2) * 3, p.sqsRequest);
  const zipBytes = n * (a.pdfBytes + a.cfdiXmlBytes);
  add(
    'S3 PUT-class (the upload, parts, outcomes, each PDF, the result zip in 5 MiB parts)',
    1 + 2 * parts + n + Math.ceil(zipBytes / a.multipartPartBytes) + 2,
    p.s3Put,
  );
  add(
    'S3 GET/HEAD (the zip read, HEAD per PDF, parts and PDFs read by the assembly, the download)',
    1 + n + 2 * parts + n + 1,
    p.s3Get,
  );
  add(
    'DynamoDB writes (job record: create, split, one per part, done; the quota charge)',
    4 + parts,
    p.ddbWrite,
  );
  add(
    'CloudWatch Logs ingestion (a line per PDF stored)',
    (n * 400 + parts * a.logBytesPerInvocation) / 1024 ** 3,
    p.logsIngestGb,
  );
  add('Data transfer out (the result zip)', zipBytes / 1024 ** 3, p.transferOutGb);
  return breakdown('1,000 CFDI in one batch (zip upload, Scale key)', lines);
}

/** Cost of a publisher's month: 1,000 feed articles narrated (neural), polls, podcast reads (docs/feeds.md). */
export function feedsCost(expansion: number, p: Prices = PRICES, a: Assumptions = ASSUMPTIONS): Breakdown {
  const articles = 1000;
  const narrations = articles * (1 + a.editedShare);
  const polls = a.feeds * a.pollsPerFeed;
  const lines: Line[] = [];
  const add = (item: string, quantity: number, price: Price) =>
    lines.push({ item, quantity, unit: price.unit, usd: quantity * price.usd });
  const billed = narrations * a.feedArticleChars * expansion;
  add(
    `Polly neural (${narrations.toLocaleString('en-US')} narrations: ${a.editedShare * 100} % edited once)`,
    billed,
    p.pollyNeural,
  );
  const worker = narrationManifest.workers.find((w) => w.id === 'FeedArticleWorker')!;
  const poller = narrationManifest.workers.find((w) => w.id === 'FeedPollWorker')!;
  const sched = narrationManifest.schedules!.find((x) => x.id === 'FeedScheduler')!;
  const seconds = narrationSeconds(a.feedArticleChars * expansion, a.workerMemMb, a);
  add('EventBridge Scheduler ticks (every 5 min)', a.schedulerTicks, p.schedulerInvocation);
  add(
    `Lambda FeedScheduler (${sched.memoryMb} MB × 0.2 s)`,
    a.schedulerTicks * 0.2 * (sched.memoryMb / 1024),
    p.lambdaArmGbS,
  );
  add(
    `Lambda FeedPollWorker (${poller.memoryMb} MB × ${a.feedPollS} s, ${a.feeds} feeds every 15 min)`,
    polls * a.feedPollS * (poller.memoryMb / 1024),
    p.lambdaArmGbS,
  );
  add(
    `Lambda FeedArticleWorker (${worker.memoryMb} MB × ${a.articleFetchS + a.overheadS} s: fetch, extract, queue)`,
    narrations * (a.articleFetchS + a.overheadS) * (worker.memoryMb / 1024),
    p.lambdaArmGbS,
  );
  add(
    `Lambda Worker (${a.workerMemMb} MB × ${seconds.toFixed(1)} s each)`,
    narrations * seconds * (a.workerMemMb / 1024),
    p.lambdaArmGbS,
  );
  add(
    `Lambda FeedPodcast (256 MB × 0.2 s, ${a.podcastReadsPerFeed} reads per feed)`,
    a.feeds * a.podcastReadsPerFeed * 0.2 * 0.25,
    p.lambdaArmGbS,
  );
  const plays = articles * a.playsPerArticle;
  const beacons = plays * a.beaconsPerPlay;
  add(
    `Lambda FeedPageAudio + Listen (256 MB × 0.05 s: ${plays.toLocaleString('en-US')} plays, ${a.beaconsPerPlay} beacons each)`,
    (plays + beacons) * 0.05 * 0.25,
    p.lambdaArmGbS,
  );
  const invocations =
    a.schedulerTicks + polls + narrations * 2 + a.feeds * a.podcastReadsPerFeed + plays + beacons;
  add('Lambda invocations', invocations, p.lambdaRequest);
  add(
    'API Gateway HTTP API requests (podcast reads, audio redirects, player lookups and beacons)',
    a.feeds * a.podcastReadsPerFeed + narrations * a.downloadsPerAudio + plays + beacons,
    p.apiHttpRequest,
  );
  // Each message: send + receive + delete. Polls, articles, long jobs.
  add('SQS send + receive + delete', (polls + narrations * 2) * 3, p.sqsRequest);
  const audioBytes = (a.feedArticleChars * expansion * a.mp3BytesPerSecond) / a.charsPerSecond;
  const audioGb = (narrations * audioBytes) / 1024 ** 3;
  add(
    'S3 PUT-class (audio, segments, timings, job text)',
    narrations * (uploadRequests(audioBytes, a) + 3),
    p.s3Put,
  );
  add('S3 GET (downloads, job text)', narrations * (a.downloadsPerAudio + 1), p.s3Get);
  add(`S3 storage (${a.audioDaysKept} days)`, audioGb * (a.audioDaysKept / 30), p.s3StorageGbMonth);
  // Polls: feed read + update; scheduler: index query + claim; articles: article read/write + the job's writes.
  const chunks = Math.ceil((a.feedArticleChars * expansion) / a.chunkChars);
  // Beacons: the per-IP window (1) and the day's counters; lookups read the feed record and the article, beacons the
  // article's key.
  add(
    'DynamoDB writes (incl. beacons: rate window + day counters)',
    polls * 2 + narrations * (2 + 4 + chunks) + beacons * (1 + a.listenItemWcu),
    p.ddbWrite,
  );
  add(
    'DynamoDB reads (incl. podcast: one per item; player: the feed record; beacons: the article key)',
    polls * 2 +
      narrations * 4 +
      a.feeds * a.podcastReadsPerFeed * (a.podcastItems + 1) +
      plays * (a.feedRecordRru + 1) +
      beacons * a.beaconRru,
    p.ddbRead,
  );
  add('CloudWatch Logs ingestion', (invocations * a.logBytesPerInvocation) / 1024 ** 3, p.logsIngestGb);
  add('Data transfer out (audio downloads)', audioGb * a.downloadsPerAudio, p.transferOutGb);
  return breakdown(
    '1,000 feed articles a month (5,000 characters each, neural, 5 feeds)',
    lines,
    lines[0]!.item,
  );
}

/** What the player's page lookups and listen beacons cost in a publisher's month (part of feedsCost's lines). */
export function listensUsd(a: Assumptions = ASSUMPTIONS, p: Prices = PRICES): number {
  const plays = 1000 * a.playsPerArticle;
  const beacons = plays * a.beaconsPerPlay;
  return (
    (plays + beacons) * (0.05 * 0.25 * p.lambdaArmGbS.usd + p.lambdaRequest.usd + p.apiHttpRequest.usd) +
    beacons * (1 + a.listenItemWcu) * p.ddbWrite.usd +
    (plays * (a.feedRecordRru + 1) + beacons * a.beaconRru) * p.ddbRead.usd
  );
}

/** Polly-billed characters per input character for a text, from the reading rules themselves. */
export function expansionOf(text: string): number {
  return normalizeForSpeech(text, 'es-MX').length / text.length;
}

const SAMPLE_NUMBERS =
  'El 03/04/2024 a las 10:30 h el Sr. Pérez pagó $1,234.56 MXN (15 % menos) al tel. 55 1234 5678; visita ' +
  'www.ejemplo.com.mx/precios. Felipe II vivió en el siglo XVI. Del 1.er al 3.er piso hay 1,234 escalones, 21 ' +
  'páginas y 5 km. La Dra. Ruiz llegó el 1 de mayo de 2023 a las 9 a. m. con 1.234,56 € y un 3,5 % de interés.';

// ---- markdown ------------------------------------------------------------------------------------------------

const usd = (n: number) =>
  n >= 0.1 ? `$${n.toFixed(2)}` : n >= 0.001 ? `$${n.toFixed(4)}` : `$${n.toFixed(6)}`;
const qty = (n: number) =>
  n >= 100 ? Math.round(n).toLocaleString('en-US') : n >= 1 ? n.toFixed(2) : n.toPrecision(3);

function table(b: Breakdown): string {
  const rows = b.lines.map((l) => `| ${l.item} | ${qty(l.quantity)} ${l.unit} | ${usd(l.usd)} |`);
  return [
    `**${b.title}**`,
    '',
    '| Item | Quantity | Cost |',
    '| --- | --- | --- |',
    ...rows,
    `| **Total** | | **${usd(b.totalUsd)}** |`,
  ].join('\n');
}

export function renderMarkdown(p: Prices = PRICES, a: Assumptions = ASSUMPTIONS): string {
  const fixture = readFileSync(join(ROOT, 'test/fixtures/texto-2000.txt'), 'utf8');
  const prose = expansionOf(fixture);
  const numbers = expansionOf(SAMPLE_NUMBERS);
  const scenarios: NarrationScenario[] = [
    { charsPerConversion: 1500, engine: 'neural', expansion: prose },
    { charsPerConversion: 20_000, engine: 'neural', expansion: prose },
    { charsPerConversion: 1500, engine: 'standard', expansion: prose },
    { charsPerConversion: 20_000, engine: 'standard', expansion: prose },
    // The engines a request may pick (`engine`): same pipeline, another price per character. Generative voices
    // are read a sentence per call (no speech marks): more calls, the same billed characters.
    { charsPerConversion: 20_000, engine: 'generative', expansion: prose },
    { charsPerConversion: 20_000, engine: 'long-form', expansion: prose },
  ];
  const results = scenarios.map((s) => narrationCost(s, p, a));
  const docs = documentsCost(p, a);
  const batch = batchCost(p, a);
  const feeds = feedsCost(prose, p, a);
  const pct = (b: Breakdown) => `${((b.infraUsd / b.speechUsd) * 100).toFixed(1)} %`;
  const summary = results.map(
    (b) => `| ${b.title} | ${usd(b.speechUsd)} | ${usd(b.infraUsd)} | ${pct(b)} | ${usd(b.totalUsd)} |`,
  );
  const slow = narrationCost({ ...scenarios[1]!, engine: 'standard' }, p, { ...a, pollyXRealtime: 2 });
  const dense = narrationCost({ ...scenarios[0]!, expansion: numbers }, p, a);
  const priceRows = (Object.entries(p) as [string, Price][]).map(
    ([k, v]) => `| ${k} | ${v.usd.toPrecision(6)} per ${v.unit} | ${v.source} |`,
  );
  return `<!-- Generated by scripts/cost-model.ts (npm run cost). Edit the script, not this file. -->
# Cost model

What the two services cost to run on AWS in us-east-1, at list prices read on ${PRICES_CHECKED}, **without free tiers**
(they make small volumes cheaper still). Fixed monthly costs that do not grow with use (Secrets Manager, CloudWatch
alarms and dashboards, the SQS pollers' empty receives, idle log storage) are left out: they are a few dollars a month
in total. Regenerate after changing prices, memory sizes or measurements: \`npm run cost\`.

## Narration: 1 million characters

| Scenario | Polly | Everything else | Infrastructure ÷ Polly | Total |
| --- | --- | --- | --- | --- |
${summary.join('\n')}

**The infrastructure's share is a small fraction of Polly's** with neural voices, and stays small with standard
voices. Polly bills the text *after* the reading rules: plain prose (test/fixtures/texto-2000.txt) is billed at
${prose.toFixed(2)}× its length, a number-dense paragraph (dates, money, phone numbers) at ${numbers.toFixed(2)}× (its
inline neural total: ${usd(dense.totalUsd)} per 1M input characters). The main tables use plain prose.

Sensitivity: if Polly returned audio only 2× faster than real time (the model assumes ${a.pollyXRealtime}×), 1M
characters of standard voice in long jobs would cost ${usd(slow.totalUsd)}, infrastructure ${pct(slow)} of Polly.

${results.map(table).join('\n\n')}

## Narration: a publisher's feeds, 1,000 articles a month

${table(feeds)}

Polly is ${((feeds.speechUsd / feeds.totalUsd) * 100).toFixed(1)} % of it: ${usd(feeds.totalUsd / 1000)} per article. Everything the feeds add
(the schedule, polls, queues, podcast reads) is ${usd(feeds.lines.filter((l) => /Scheduler|FeedPoll|FeedPodcast/.test(l.item)).reduce((s, l) => s + l.usd, 0))} a month; the player's lookups and listen beacons
(${(1000 * a.playsPerArticle).toLocaleString('en-US')} plays, ${(1000 * a.playsPerArticle * a.beaconsPerPlay).toLocaleString('en-US')} beacons) are about ${usd(listensUsd(a, p))} of the Lambda, API Gateway and DynamoDB lines (the audio those plays download is data transfer out, below). A beacon
checks its article by reading the article's own item, eventually consistent and projected to its key: ${a.beaconRru} read unit (it read the
whole feed record, strongly consistent, ~${a.feedRecordRru} units, until 2026-11-28: ${usd(listensUsd(a, p) + 1000 * a.playsPerArticle * a.beaconsPerPlay * (a.feedRecordRru - a.beaconRru) * p.ddbRead.usd)} then). DynamoDB bills the item
read, not what a projection returns, so the saving is the smaller item and the eventually consistent read. Polling is cheap
because an unchanged feed answers 304 and an unchanged article is never narrated again (docs/feeds.md). Audience
downloads beyond ${a.downloadsPerAudio} per episode add data transfer out (about ${usd(((a.feedArticleChars * prose * a.mp3BytesPerSecond) / a.charsPerSecond / 1024 ** 3) * p.transferOutGb.usd * 1000)} per 1,000 downloads of one episode each).

## Documents: 1,000 PDFs

${table(docs)}

The render Lambda is a container image on x86_64 (@sparticuz/chromium ships x64 only), hence the x86 price.
Per PDF: ${usd(docs.totalUsd / 1000)}; the Lambda line is ${((docs.lines[0]!.usd / docs.totalUsd) * 100).toFixed(0)} % of it.
Formats without Chromium (csv, json, md, txt, xlsx, docx) cost less.

## Documents: 1,000 CFDI in a batch

${table(batch)}

Per CFDI: ${usd(batch.totalUsd / 1000)}. The batch worker counts every part as a cold start (50 parallel containers
for 1,000 CFDI): a month processed in one go pays that once; warm containers cut the Lambda line by about half. Intermediate
files live two days (\`batches/\` lifecycle rule): their storage is a fraction of a cent.

## Assumptions

| Name | Value | Where it comes from |
| --- | --- | --- |
| chunkChars | ${a.chunkChars} | Polly SynthesizeSpeech bills ≤ 3,000 characters per call; narrate() chunks to it |
| charsPerSecond | ${a.charsPerSecond} | lambdas/narration/core/preview.ts (Spanish narration rate) |
| mp3BytesPerSecond | ${a.mp3BytesPerSecond} | 48 kbps CBR mono (lambdas/narration/audio/encode.ts) |
| encoderXRealtime | ${a.encoderXRealtime} | MP3 encoder at 16 kHz on one core: \`npm run cost -- --measure\` measured 286× here (2026-11-21); 200 leaves room for a slower Graviton core; covers loudness on Polly's MP3 too (decoded for peaks, ~1,200×) |
| pollyXRealtime | ${a.pollyXRealtime} | **assumption** (Polly is not reachable from the test machines); see the sensitivity line |
| overheadS | ${a.overheadS} | per invocation besides synthesis and encoding (config, DynamoDB, S3 upload) |
| syncMemMb / workerMemMb / workerTmpMb | ${a.syncMemMb} / ${a.workerMemMb} / ${a.workerTmpMb} | lambdas/narration/routes.ts |
| getAudioMemMb, getAudioS | ${a.getAudioMemMb} MB, ${a.getAudioS} s | manifest; one GetItem + presign |
| pollsPerLongJob | ${a.pollsPerLongJob} | GET /audio while a long job is pending, then the redirect |
| downloadsPerAudio | ${a.downloadsPerAudio} | each audio fetched twice through its presigned URL |
| audioDaysKept | ${a.audioDaysKept} | AUDIO_TTL_DAYS (lambdas/narration/bucket.ts lifecycle rule) |
| logBytesPerInvocation | ${a.logBytesPerInvocation} | Powertools JSON line + Lambda START/END/REPORT; texts are never logged |
| multipartPartBytes | ${a.multipartPartBytes} | @aws-sdk/lib-storage part size |
| renderMemMb | ${a.renderMemMb} | lambdas/documents/routes.ts |
| renderWarmMs | ${a.renderWarmMs} | warm factura PDF 26 ms (bench/render-pdf.bench.ts median, docs/performance.md) + ~35 ms for the key lookup, quota and stats writes (3 DynamoDB calls), validation and base64, + ~5 ms for the quota charge's commit (a 4th call, after the render: an estimate of one in-region write) |
| coldShare, coldRenderMs | ${a.coldShare}, ${a.coldRenderMs} ms | **assumption**: 1 render in 50 starts a container (Chromium unpack + launch ~3–4.5 s) |
| pdfBytes | ${a.pdfBytes} | a 1-page factura with embedded fonts |
| batchPartSize, batchCfdiMs | ${a.batchPartSize}, ${a.batchCfdiMs} ms | PART_SIZE of lambdas/documents/use-cases/batches.ts; a factura PDF/A from its XML (~110 ms, issue #26) + the PDF's HEAD and PUT |
| batchColdMs | ${a.batchColdMs} ms | **assumption**: every part of a 1,000-CFDI batch starts a container (concurrency 50) |
| batchSplitMsPerCfdi, batchAssembleMsPerCfdi | ${a.batchSplitMsPerCfdi} ms, ${a.batchAssembleMsPerCfdi} ms | **assumption**: reading one XML; streaming its PDF and XML into the result zip |
| cfdiXmlBytes | ${a.cfdiXmlBytes} | a stamped CFDI with a few conceptos |

Per conversion the model counts: DynamoDB writes = audio record + stats (+ claim, done and one progress update per
chunk for long jobs); reads = API-key lookup + one GetItem per GET /audio; S3 PUTs = the audio (multipart above
${a.multipartPartBytes / MB} MiB: create + parts + complete) and, for long jobs, the job text; Lambda time with no
overlap between synthesis and encoding (narrate() overlaps them, so real time is lower).

## Prices

| Key | Price | Source (read ${PRICES_CHECKED}) |
| --- | --- | --- |
${priceRows.join('\n')}
`;
}

async function measureEncoder(): Promise<void> {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { encodeToFile } = await import('../lambdas/narration/audio/encode');
  const rate = 16000;
  const seconds = 120;
  const pcm = new Int16Array(rate * seconds);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin(i / 7) * Math.sin(i / 3000));
  const dir = mkdtempSync(join(tmpdir(), 'cost-enc-'));
  const runs: number[] = [];
  try {
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      await encodeToFile(
        'mp3',
        rate,
        (async function* () {
          for (let o = 0; o < pcm.length; o += 32768) yield pcm.subarray(o, o + 32768);
        })(),
        join(dir, 'a.mp3'),
      );
      runs.push(performance.now() - t);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const best = Math.min(...runs);
  console.log(`MP3 encoder, 16 kHz mono: ${((seconds * 1000) / best).toFixed(0)}× realtime (best of 3)`);
}

/** The markdown as prettier writes it (the repository's lint runs prettier --check on docs/). */
async function formatted(md: string): Promise<string> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(OUT)) ?? {};
  return prettier.format(md, { ...options, parser: 'markdown' });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--measure')) {
    await measureEncoder();
    return 0;
  }
  const md = await formatted(renderMarkdown());
  if (args.includes('--check')) {
    const current = readFileSync(OUT, 'utf8');
    if (current !== md) {
      console.error('docs/operations/cost.md is out of date: run npm run cost');
      return 1;
    }
    return 0;
  }
  writeFileSync(OUT, md);
  console.log(`wrote ${OUT}`);
  return 0;
}

if (require.main === module)
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
