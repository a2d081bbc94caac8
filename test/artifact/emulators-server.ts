// The artifact tests' backends, in their own process (run by tsx: fauxqs is ESM-only, which jest's global setup
// cannot load): the embedded emulators (DynamoDB, S3, SQS with both services' queues) and a stand-in Amazon Polly
// (HTTP/2 on loopback, answering SynthesizeSpeech with 16 kHz PCM, the way the integration test's stand-in does).
// Prints one JSON line {env, pollyEndpoint, pollyRequests?}; stops when its stdin closes, or after MAX_LIFE_MS.
import { createServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { startEmulators } from '../../lib/local/emulators';

const MAX_LIFE_MS = 30 * 60_000;

/** Half a second of a 440 Hz tone per 20 characters: real, decodable speech-shaped PCM. */
function pcmFor(text: string): Buffer {
  const samples = Math.max(1, Math.ceil(text.length / 20)) * 8000;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), i * 2);
  return pcm;
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: emulators-server.ts <dataDir>');
  const emulators = await startEmulators({
    dataDir,
    persistDynamo: false,
    prefix: 'art-',
  });
  let pollyRequests = 0;
  const polly = createServer((req: Http2ServerRequest, res: Http2ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      pollyRequests++;
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as { Text?: string };
      if (req.method !== 'POST' || req.url !== '/v1/speech' || typeof body.Text !== 'string') {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `unexpected ${req.method} ${req.url}` }));
        return;
      }
      const pcm = pcmFor(body.Text);
      res.writeHead(200, {
        'content-type': 'audio/pcm',
        'content-length': String(pcm.length),
        'x-amzn-requestcharacters': String(body.Text.length),
      });
      res.end(pcm);
    });
  });
  await new Promise<void>((resolve) => polly.listen(0, '127.0.0.1', resolve));
  const pollyEndpoint = `http://127.0.0.1:${(polly.address() as AddressInfo).port}`;
  process.stdout.write(`${JSON.stringify({ env: emulators.env, pollyEndpoint })}\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`emulators-server: stopping (${pollyRequests} Polly requests served)\n`);
    polly.close();
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
