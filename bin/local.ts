// `npm start`: both APIs on this machine, against embedded AWS emulators (see lib/local/runtime.ts).
import { resolve } from 'node:path';
import { startLocal } from '../lib/local/runtime';

const env = process.env;
// The Lambda runtime is Node 22; locally Node 20 works, so the SDK's upgrade notice is noise here.
env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const truthy = (v: string | undefined) => v === '1' || v === 'true' || v === 'yes';

async function main() {
  const runtime = await startLocal({
    dataDir: resolve(env.DATA_DIR ?? '.data'),
    host: env.HOST ?? '127.0.0.1',
    narrationPort: Number(env.NARRATION_PORT ?? 3000),
    renderPort: Number(env.RENDER_PORT ?? 3001),
    trustProxy: truthy(env.TRUST_PROXY),
    log: (line) => console.log(`[local] ${line}`),
  });
  console.log(`Narration API: ${runtime.narrationUrl}  (try: curl ${runtime.narrationUrl}/voices)`);
  if (runtime.documentsUrl)
    console.log(`Documents API: ${runtime.documentsUrl}  (try: curl ${runtime.documentsUrl}/templates)`);
  console.log(`Data: ${resolve(env.DATA_DIR ?? '.data')}  · Ctrl-C to stop`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping…');
    await runtime.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(`local runtime failed to start: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
