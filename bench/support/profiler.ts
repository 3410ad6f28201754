/**
 * CPU profiling of an app child on command (`profileStart`, then `profileStop(file)`), so a
 * profile covers the timed callbacks only, not start-up or warm-up. Used by bench/profile.ts.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

let session: Session | undefined;

export const profilerCommands = {
  async profileStart(): Promise<void> {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    // 100 µs between samples: a callback costs a few hundred µs.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
  },
  async profileStop(file: string): Promise<void> {
    if (!session) throw new Error('profileStart was not called');
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    session = undefined;
  },
};
