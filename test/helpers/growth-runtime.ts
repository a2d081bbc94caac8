// The local runtime as the growth e2e tests use it (the waitlist, A/B and stats routes are in the manifest).
import { startRuntime, type TestRuntime } from './runtime';

export interface GrowthRuntime {
  rt: TestRuntime;
  url(path: string): string;
  stop(): Promise<void>;
}

export async function startGrowthRuntime(
  env: Record<string, string> = {},
  opts: { trustProxy?: boolean; startWorker?: boolean; deadlineS?: number } = {},
): Promise<GrowthRuntime> {
  const rt = await startRuntime(env, opts);
  return { rt, url: (path) => rt.url(path), stop: () => rt.stop() };
}
