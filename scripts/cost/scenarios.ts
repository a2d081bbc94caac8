// Cost model (scripts/cost-model.ts): the arithmetic. What 1M narrated characters, 1,000 PDFs, a 1,000-CFDI batch
// and a publisher's month of feeds cost, line by line, from the prices and the assumptions.
import { normalizeForSpeech } from '../../lambdas/narration/core/normalize';
import { narrationManifest } from '../../lambdas/narration/routes';
import { partSizes } from '../../lambdas/documents/use-cases/batch-split';
import { ASSUMPTIONS, type Assumptions } from './assumptions';
import { PRICES, type Price, type Prices } from './prices';

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

/** The lines of a breakdown, each a quantity at one price. */
function ledger(): { lines: Line[]; add: (item: string, quantity: number, price: Price) => void } {
  const lines: Line[] = [];
  const add = (item: string, quantity: number, price: Price) => {
    lines.push({ item, quantity, unit: price.unit, usd: quantity * price.usd });
  };
  return { lines, add };
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
  const { lines, add } = ledger();

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
  // Inline: its backstop, a message delayed past the request's deadline that the worker reads and finds ended
  // (it ends a request that died between its done write and its end: use-cases/conversion.ts).
  if (sync)
    add(
      `Lambda Worker reading the backstop (${a.workerMemMb} MB × ${a.getAudioS} s)`,
      conversions * a.getAudioS * (a.workerMemMb / 1024),
      p.lambdaArmGbS,
    );
  // The API's (POST, then each poll) and the worker's: the job's run, or for a sync conversion the backstop's read.
  const workerRun = 1;
  const invocations = conversions * (1 + polls + workerRun);
  add('Lambda invocations', invocations, p.lambdaRequest);
  add('API Gateway HTTP API requests', conversions * (1 + polls), p.apiHttpRequest);
  add('SQS send + receive + delete', conversions * 3, p.sqsRequest);
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
  // Writes: record + stats (+ claim, one progress update per chunk, done for long jobs; inline: the backstop's
  // refused claim). Reads: key lookup + one GetItem per GET /audio (inline: + the backstop's read of the record).
  const chunks = Math.ceil((s.charsPerConversion * s.expansion) / a.chunkChars);
  add('DynamoDB writes', conversions * (2 + (sync ? 1 : 2 + chunks)), p.ddbWrite);
  add('DynamoDB reads', conversions * (1 + polls + (sync ? 1 : 0)), p.ddbRead);
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
  const { lines, add } = ledger();
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
  // The split's parts: full ones, then the tail's smaller ones (52 for 1,000 CFDI).
  const sizes = partSizes(n);
  const parts = sizes.length;
  const { lines, add } = ledger();
  const gb = a.batchWorkerMemMb / 1024;
  const workerS = (n * a.batchCfdiMs + parts * a.batchColdMs) / 1000;
  add(
    `Lambda BatchWorker (${a.batchWorkerMemMb} MB: ${a.batchCfdiMs} ms per CFDI rendered, ${parts} parts each cold at ${a.batchColdMs} ms)`,
    workerS * gb,
    p.lambdaX86GbS,
  );
  // The assembler splits the batch, then follows the parts: billed from its split to the later of the last part and
  // its own work.
  const assemblerS = Math.max(a.batchRenderWallS, (n * a.batchAssembleMsPerCfdi) / 1000);
  const splitS = (n * a.batchSplitMsPerCfdi) / 1000;
  add(
    `Lambda BatchAssembler (${a.batchAssemblerMemMb} MB arm64: the split, ${a.batchSplitMsPerCfdi} ms per CFDI; the assembly while the parts render, ${a.batchRenderWallS} s, or its ${a.batchAssembleMsPerCfdi} ms per CFDI if longer)`,
    ((splitS + assemblerS) * a.batchAssemblerMemMb) / 1024,
    p.lambdaArmGbS,
  );
  // Split + parts + assembly; the API: upload slot, start, ~20 status polls.
  add('Lambda invocations', parts + 2 + 22, p.lambdaRequest);
  add('API Gateway HTTP API requests', 22, p.apiHttpRequest);
  add('SQS send + receive + delete (one message per step)', (parts + 2) * 3, p.sqsRequest);
  const zipBytes = n * (a.pdfBytes + a.cfdiXmlBytes);
  // Chunks of up to batchChunkPdfs, the part's last PDF alone (batch-part.ts): 20 → 19 + 1, 5 → 4 + 1.
  const chunks = sizes.reduce((sum, size) => sum + Math.ceil((size - 1) / a.batchChunkPdfs) + 1, 0);
  add(
    `S3 PUT-class (the upload, parts, the PDFs in chunks of ${a.batchChunkPdfs}, each part's last alone, outcomes, the zip in 5 MiB parts)`,
    1 + 1 + parts + chunks + parts + Math.ceil(zipBytes / a.multipartPartBytes) + 2,
    p.s3Put,
  );
  add(
    "S3 GET/HEAD (the zip read, parts, the assembly: each part's entries, outcomes and chunks; the download)",
    1 + parts + 2 * parts + chunks + 1 + 1 + 1,
    p.s3Get,
  );
  add(
    'DynamoDB writes (job record: create, split, one per part, done; the quota charge)',
    4 + parts,
    p.ddbWrite,
  );
  add(
    "DynamoDB reads (the assembler's polls of the counted parts, strongly consistent)",
    Math.ceil((assemblerS * 1000) / a.batchAssemblerPollMs),
    p.ddbRead,
  );
  add(
    'CloudWatch Logs ingestion (a line per chunk of PDFs stored, naming their UUIDs)',
    (chunks * (400 + a.batchChunkPdfs * 40) + parts * a.logBytesPerInvocation) / 1024 ** 3,
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
  const { lines, add } = ledger();
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
