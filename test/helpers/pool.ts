import { afterAll, afterEach } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, startHarness, type Harness, type HarnessOptions } from './harness.js';

/**
 * One emulator for a test file and a fresh app per test, closed after each: the setup most
 * strategy tests share. Call at the top level of a test file.
 */
export function harnessPool(): { app(options?: HarnessOptions): Promise<Harness>; emulator(): Promise<Emulator> } {
  let emulator: Emulator | undefined;
  const open: Harness[] = [];
  const shared = async () => (emulator ??= await startEmulator({ clients: [CLIENT], quiet: true }));
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return {
    emulator: shared,
    async app(options = {}) {
      const h = await startHarness({ emulator: await shared(), ...options });
      open.push(h);
      return h;
    },
  };
}
