// Test helpers: emulators in a temp dir, with the process env pointed at them (as the local runtime does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetClients } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import type { QueueSpec } from '../../lambdas/shared/manifest';
import { startEmulators, type Emulators } from '../../lib/local/emulators';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export async function withEmulators(
  /** `queues`: which manifest queues to create (default every service's). */
  opts: { queueVisibilityS?: number; queues?: QueueSpec[] } = {},
): Promise<Emulators & { dataDir: string; cleanup(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'emu-'));
  const emulators = await startEmulators({ dataDir, persistDynamo: false, prefix: 'test-', ...opts });
  Object.assign(process.env, emulators.env);
  // As startLocal: a test that shortens the visibility timeout gets its failed attempts retried after it too.
  if (opts.queueVisibilityS !== undefined) process.env.JOB_RETRY_SCHEDULE_S = String(opts.queueVisibilityS);
  resetConfig();
  resetClients();
  return {
    ...emulators,
    dataDir,
    async cleanup() {
      resetClients();
      await emulators.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function tempDir(prefix = 'test-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
