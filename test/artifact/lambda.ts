// Runs functions as Lambda would: each in its own Node 22 process (lambda-runner.cjs), with the whole environment
// built here (Lambda's own variables + the template's, references resolved to the emulators + the SDK endpoint
// variables), cold start first, then invocations over IPC: a zip bundle from cdk.out, or an image handler's bundle
// from the rebuilt image folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { resolveEnvironment, type AssemblyFunction } from './assembly';

const ROOT = resolve(__dirname, '..', '..');
const RUNNER = join(__dirname, 'lambda-runner.cjs');

export interface LambdaBackends {
  /** Emulator variables (endpoints, names) as lib/local/emulators.ts gives them. */
  env: Record<string, string>;
  pollyEndpoint: string;
  /** host:port of a UDP sink standing in for the X-Ray daemon. */
  xrayDaemon: string;
  /** HOME of the functions (Lambda has no writable home; a scratch folder here). */
  home: string;
}

/** Lambda's environment for `fn`: what the runtime sets, then the template's variables, then the endpoints. */
export function lambdaEnvironment(
  fn: AssemblyFunction,
  backends: LambdaBackends,
  taskRoot: string,
): Record<string, string> {
  const region = backends.env.AWS_REGION ?? 'us-east-1';
  const name = `${fn.stack}-${fn.logicalId}`;
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: backends.home,
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    LAMBDA_TASK_ROOT: taskRoot,
    _HANDLER: fn.handler,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: '2026/01/01/[$LATEST]0123456789abcdef',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_ACCESS_KEY_ID: backends.env.AWS_ACCESS_KEY_ID!,
    AWS_SECRET_ACCESS_KEY: backends.env.AWS_SECRET_ACCESS_KEY!,
    AWS_SESSION_TOKEN: 'artifact-test-session',
    AWS_XRAY_DAEMON_ADDRESS: backends.xrayDaemon,
    AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
    ...resolveEnvironment(fn, backends.env),
    // The SDK's own endpoint variables: the only difference from the cloud.
    AWS_ENDPOINT_URL_DYNAMODB: backends.env.AWS_ENDPOINT_URL_DYNAMODB!,
    AWS_ENDPOINT_URL_S3: backends.env.AWS_ENDPOINT_URL_S3!,
    AWS_ENDPOINT_URL_SQS: backends.env.AWS_ENDPOINT_URL_SQS!,
    AWS_ENDPOINT_URL_POLLY: backends.pollyEndpoint,
  };
}

/** A UDP socket on loopback where the X-Ray SDK sends its segments (counted, not checked). */
export async function startXraySink(): Promise<{ address: string; segments: () => number; close(): void }> {
  const socket: Socket = createSocket('udp4');
  let segments = 0;
  socket.on('message', () => segments++);
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const { port } = socket.address() as AddressInfo;
  return { address: `127.0.0.1:${port}`, segments: () => segments, close: () => socket.close() };
}

export interface InvokeResult {
  /** What the handler returned (null for undefined). */
  value?: unknown;
  /** What it threw. */
  error?: { name?: string; message?: string; stack?: string };
}

export interface LambdaProcessOptions {
  node: string;
  /** The module holding the handler: a bundle's index.js (zip) or handler file (image). */
  modulePath: string;
  exportName?: string;
  /** Working directory (LAMBDA_TASK_ROOT). */
  cwd: string;
  env: Record<string, string>;
  /** Time allowed for the cold start. @default 60 s */
  initTimeoutMs?: number;
}

export class LambdaProcess {
  private output = '';
  private readonly pending = new Map<string, (r: InvokeResult) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly label: string,
  ) {
    const keep = (b: Buffer) => {
      this.output += b.toString('utf8');
      if (this.output.length > 200_000) this.output = this.output.slice(-100_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('message', (msg: { type: string; id?: string } & InvokeResult) => {
      if (msg.type === 'result' && msg.id) this.pending.get(msg.id)?.(msg);
    });
    child.on('exit', (code, signal) => {
      for (const done of this.pending.values())
        done({
          error: { name: 'ProcessExited', message: `exited (${code ?? signal}) during an invocation` },
        });
      this.pending.clear();
    });
  }

  /** Starts the process and waits for its cold start; throws with its output if the module fails to load. */
  static async start(opts: LambdaProcessOptions): Promise<LambdaProcess> {
    const child = spawn(opts.node, [RUNNER, opts.modulePath, opts.exportName ?? 'handler'], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const proc = new LambdaProcess(child, opts.modulePath);
    await new Promise<void>((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`cold start of ${opts.modulePath} took over ${opts.initTimeoutMs ?? 60_000} ms`));
      }, opts.initTimeoutMs ?? 60_000);
      child.on('message', (msg: { type: string; error?: InvokeResult['error'] }) => {
        if (msg.type === 'ready') {
          clearTimeout(timer);
          resolvePromise();
        } else if (msg.type === 'init-error') {
          clearTimeout(timer);
          reject(
            new Error(
              `init error in ${opts.modulePath}: ${msg.error?.stack ?? msg.error?.message}\n${proc.output}`,
            ),
          );
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${opts.modulePath} exited (${code}) during its cold start\n${proc.output}`));
      });
    });
    return proc;
  }

  /** Invokes the handler with `event`; a handler still running after `timeoutMs` kills the process (a timeout). */
  invoke(event: unknown, timeoutMs: number): Promise<InvokeResult> {
    const id = randomUUID();
    return new Promise((resolvePromise) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.child.kill('SIGKILL');
        resolvePromise({ error: { name: 'Timeout', message: `no answer within ${timeoutMs} ms` } });
      }, timeoutMs);
      this.pending.set(id, (r) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolvePromise(r);
      });
      this.child.send({
        type: 'invoke',
        id,
        event,
        requestId: randomUUID(),
        traceId: `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)};Parent=${randomUUID().replace(/-/g, '').slice(0, 16)};Sampled=1`,
        timeoutMs,
      });
    });
  }

  /** What the function printed (its logs). */
  logs(): string {
    return this.output;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

export { ROOT };
