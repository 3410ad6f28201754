import { afterAll, afterEach, beforeAll } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator, EmulatorOptions } from '../../src/emulator/index.js';
import { CLIENT, startHarness } from './harness.js';
import type { Harness, HarnessOptions } from './harness.js';

/**
 * The one emulator helper of the tests: one emulator for a test file, or for the `describe`
 * block it is called in (starting one per test is slow), started with `options` (a manual
 * clock, say), and apps built on it that are closed after each test. Faults and quirks are
 * cleared after each test so none leaks into the next. Call it at the top level of a file or a
 * `describe` block; `emulator()` and `harness()` work inside tests and hooks.
 *
 * @example
 * const { harness, emulator } = useSharedEmulator();
 * it('logs in', async () => { const h = await harness({ strategy: { limits: false } }); ... });
 */
export function useSharedEmulator(options: Omit<EmulatorOptions, 'clients'> = {}): {
  harness(options?: HarnessOptions): Promise<Harness>;
  emulator(): Emulator;
} {
  let emulator: Emulator | undefined;
  const open: Harness[] = [];
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], quiet: true, ...options });
  });
  afterEach(async () => {
    emulator?.clearFaults();
    emulator?.setQuirks({});
    await Promise.all(open.splice(0).map((h) => h.close()));
  });
  afterAll(async () => {
    await emulator?.close();
  });
  const current = (): Emulator => {
    if (!emulator) throw new Error('the shared emulator starts in beforeAll: use it inside a test');
    return emulator;
  };
  return {
    emulator: current,
    async harness(options: HarnessOptions = {}) {
      const h = await startHarness({ emulator: current(), ...options });
      open.push(h);
      return h;
    },
  };
}
