import { afterAll, afterEach, beforeAll } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';
import { CLIENT } from './hosts.js';
import type { HostDefinition, RunningHost, ScenarioOptions } from './hosts.js';

/**
 * A host suite's file: one emulator for its tests (after the build the NestJS example imports),
 * and each test's running host, closed after the test.
 */
export function useHostSuite(): {
  emulator(): Emulator;
  start(host: HostDefinition, options: ScenarioOptions): Promise<RunningHost>;
} {
  let emulator: Emulator | undefined;
  let running: RunningHost | undefined;
  beforeAll(async () => {
    await ensureBuilt(); // the NestJS example imports 'passport-otpless' (dist/)
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  }, 180_000);
  afterAll(() => emulator?.close());
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  const current = (): Emulator => {
    if (!emulator) throw new Error('the host suite starts its emulator in beforeAll: use it inside a test');
    return emulator;
  };
  return {
    emulator: current,
    async start(host, options) {
      running = await host.start(current(), options);
      return running;
    },
  };
}
