// The local runtime as the billing e2e tests use it (the /pay routes are in the manifest; no worker needed).
import { startRuntime, type TestRuntime } from './runtime';

export interface BillingRuntime {
  rt: TestRuntime;
  url(path: string): string;
  /** The same path on the Documents API (served by the same runtime). */
  docsUrl(path: string): string;
  stop(): Promise<void>;
}

export async function startBillingRuntime(env: Record<string, string>): Promise<BillingRuntime> {
  const rt = await startRuntime(env, { startWorker: false });
  return {
    rt,
    url: (path) => rt.url(path),
    docsUrl: (path) => rt.documentsUrl! + path,
    stop: () => rt.stop(),
  };
}
