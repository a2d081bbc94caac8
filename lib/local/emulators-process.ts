// The embedded AWS emulators (./emulators.ts) in a child process of their own: their CPU (s3rver, dynalite, fauxqs)
// off the handlers' event loop, as the cloud's services are. bench/batch-run.bench.ts measures the batch both ways.
// The child reads its options on stdin, answers the emulators' endpoints as one JSON line on stdout, and ends when
// told to (stop()) or when this process goes (its IPC channel closes, also on SIGKILL).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { startEmulators, type EmulatorOptions, type Emulators } from './emulators';

type Started = Omit<Emulators, 'stop' | 'stopService'>;

export async function startEmulatorsProcess(options: EmulatorOptions): Promise<Emulators & { pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename], {
    stdio: ['pipe', 'pipe', 'inherit', 'ipc'],
  });
  child.stdin!.end(JSON.stringify(options));
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the emulators' process ended (${code}) before it started them`);
    }),
  ])) as [string];
  lines.close();
  const started = JSON.parse(line) as Started;
  return {
    ...started,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.send('stop');
      await exited;
    },
    stopService: () => Promise.reject(new Error('stopService: the emulators run in their own process here')),
  };
}

/** The child's side: starts the emulators, answers their endpoints, stops them when asked or orphaned. */
async function child(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const emulators = await startEmulators(JSON.parse(input) as EmulatorOptions);
  const { stop, stopService: _stopService, ...started } = emulators;
  process.stdout.write(`${JSON.stringify(started satisfies Started)}\n`);
  const end = async () => {
    await stop();
    process.exit(0);
  };
  process.on('message', (m) => m === 'stop' && void end());
  process.on('disconnect', () => void end());
}

if (require.main === module)
  child().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
