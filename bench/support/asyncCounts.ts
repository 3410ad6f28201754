/**
 * Counts what a measured app creates per login that the event loop then has to run: promises,
 * timers, immediates, ticks, by async-hook type. Loaded into the apps of bench/ab.ts with
 * `BENCH_CHILD_FLAGS="--import ./bench/support/asyncCounts.ts"`; each app prints its counts per
 * service call when it exits (both sides make one service call per login, so the two lines
 * compare per login). Unlike CPU time, these counts do not move with the machine's load: a
 * change that removes a promise hop shows here whatever the neighbours do. (The hook itself
 * makes V8 create a promise per `await` as well: compare the two sides, not against a run
 * without it.)
 */
import { createHook } from 'node:async_hooks';
import { writeSync } from 'node:fs';

const counts = new Map<string, number>();
createHook({
  init(_id, type) {
    counts.set(type, (counts.get(type) ?? 0) + 1);
  },
}).enable();

/** The async-hook types worth a line: what each login makes the loop run. */
const SHOWN = ['PROMISE', 'Timeout', 'Immediate', 'TickObject', 'Microtask'];

// bench/support/child.ts ends an app that has not exited 5 s after 'close' with SIGTERM: count it too.
process.once('SIGTERM', () => process.exit(0));
process.on('exit', () => {
  const calls = counts.get('UNDICI_REQUEST') ?? 0;
  if (calls === 0) return;
  const app = `${process.argv[1]?.split('/').pop() ?? 'app'} ${(process.argv[2] ?? '').match(/"mode":"([^"]+)"/)?.[1] ?? ''}`;
  const per = SHOWN.map((type) => `${type} ${((counts.get(type) ?? 0) / calls).toFixed(1)}`).join(', ');
  writeSync(2, `async counts per service call (${calls} calls), ${app}: ${per}\n`);
});
