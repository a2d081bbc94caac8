// The artifact tests' backends, in their own process (run by tsx: fauxqs is ESM-only, which jest's global setup
// cannot load): the embedded emulators (DynamoDB, S3, SQS with both services' queues) and the stand-in Amazon Polly
// (test/helpers/polly-stand-in.ts: HTTP/2 on loopback, 24 kHz MP3 or Ogg Vorbis, speech marks) in its canned mode:
// these tests check what is deployed (bundles, environment, wiring), not speech, so each request gets speech cut from
// what espeak said once at start instead of speaking it again (test/integration/polly.test.ts covers the stand-in's
// real speech and the adapter).
// Prints one JSON line {env, pollyEndpoint, pollyRequests?}; stops when its stdin closes, or after MAX_LIFE_MS.
import { startPollyStandIn } from '../helpers/polly-stand-in';
import { startEmulators } from '../../lib/local/emulators';

const MAX_LIFE_MS = 30 * 60_000;

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: emulators-server.ts <dataDir>');
  const emulators = await startEmulators({
    dataDir,
    persistDynamo: false,
    prefix: 'art-',
  });
  // Our Polly adapter sends at most 3,000 characters a request (lambdas/narration/adapters/polly.ts maxChars): half
  // the stand-in's default canned speech, made (espeak, then MP3 encoding) before the tests can start. The bundles
  // here narrate MP3 (Polly's own frames): the Vorbis copy would be made at a first OGG/WAV request.
  const polly = await startPollyStandIn({ speech: 'canned', cannedChars: 3000, cannedFormats: ['mp3'] });
  const pollyEndpoint = polly.endpoint;
  process.stdout.write(`${JSON.stringify({ env: emulators.env, pollyEndpoint })}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`emulators-server: stopping (${polly.seen.length} Polly requests served)\n`);
    await polly.stop();
    await emulators.stop();
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.stdin.on('error', () => void stop());
  process.stdin.resume();
  setTimeout(() => void stop(), MAX_LIFE_MS).unref();
}

main().catch((err: unknown) => {
  process.stderr.write(`emulators-server: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
