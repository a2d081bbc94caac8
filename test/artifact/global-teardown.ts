// Stops the emulators' process and removes the temporary folder made by global-setup.ts.
import { stopBackends } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  await stopBackends();
}
