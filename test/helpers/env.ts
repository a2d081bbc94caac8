// Test helpers: emulators in a temp dir, with the process env pointed at them (as the local runtime does).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetClients } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { startEmulators, type Emulators } from '../../lib/local/emulators';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export async function withEmulators(
  opts: { queueVisibilityS?: number } = {},
): Promise<Emulators & { dataDir: string; cleanup(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'emu-'));
  const emulators = await startEmulators({ dataDir, persistDynamo: false, prefix: 'test-', ...opts });
  Object.assign(process.env, emulators.env);
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
