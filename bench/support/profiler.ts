/**
 * CPU profiling of an app child on command (`profileStart`, then `profileStop(file)`), so a
 * profile covers the timed callbacks only, not start-up or warm-up. Used by bench/ab.ts
 * `--profile DIR`. With `BENCH_HEAP_PROFILE=1` in the environment, the same commands also sample
 * allocations (V8's sampling heap profiler, every 4 KiB on average) and write them beside the
 * CPU profile as `<file>.heapprofile`: where the garbage a login leaves is made.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

let session: Session | undefined;
const sampleAllocations = process.env.BENCH_HEAP_PROFILE === '1';

export const profilerCommands = {
  async profileStart(): Promise<void> {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    // 100 µs between samples: a callback costs a few hundred µs.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    if (sampleAllocations) {
      await session.post('HeapProfiler.enable');
      // Objects a scavenge collects count too: they are the garbage being looked for.
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    }
    await session.post('Profiler.start');
  },
  async profileStop(file: string): Promise<void> {
    if (!session) throw new Error('profileStart was not called');
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    if (sampleAllocations) {
      const { profile: heap } = await session.post('HeapProfiler.stopSampling');
      writeFileSync(file.replace(/\.cpuprofile$/, '') + '.heapprofile', JSON.stringify(heap));
    }
    session.disconnect();
    session = undefined;
  },
};
