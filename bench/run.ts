/**
 * `npm run bench`: every benchmark, against the emulator (quiet) in child processes of this
 * one. Prints one table and writes bench/results.json and bench/results.svg: for each figure,
 * the baseline measured in the same run and their ratio. See bench/README.md.
 *
 * Options: --quick (smaller counts, for a smoke run; results are not written unless --write).
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { CLIENT_BENCH_DEFAULTS, runClientBench } from './client.js';
import { EVENTS_BENCH_DEFAULTS, runEventsBench } from './events.js';
import { FASTIFY_LOGIN_BENCH_DEFAULTS, runFastifyLoginBench } from './fastify.js';
import { GUARD_BENCH_DEFAULTS, runGuardBench } from './guard.js';
import { HANDOFF_BENCH_DEFAULTS, runHandoffBench } from './handoff.js';
import { LIMITS_BENCH_DEFAULTS, runLimitsBench } from './limits.js';
import { LOGIN_BENCH_DEFAULTS, runLoginBench } from './login.js';
import { MEMORY_BENCH_DEFAULTS, runMemoryBench } from './memory.js';
import { PEERS_BENCH_DEFAULTS, runPeersBench } from './peers.js';
import { printTable, writeResults, writeSvg, type BenchRow } from './support/report.js';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, write: { type: 'boolean', default: false } },
});
const quick = values.quick === true;
const write = !quick || values.write === true;

// Bounded in time whatever happens: children exit when this process goes (they watch 'disconnect').
const BUDGET_MS = 25 * 60_000;
const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${BUDGET_MS / 60_000} min, giving up`);
  // What was measured is kept, marked incomplete.
  if (write && rows.length > 0) save(true);
  process.exit(1);
}, BUDGET_MS);
watchdog.unref();

const startedAt = new Date();
const t0 = performance.now();
const loadBefore = loadavg();
const log = (line: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${line}`);
if ((loadBefore[0] ?? 0) > cpus().length * 0.5) {
  log(
    `note: load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} on ${cpus().length} cores: other work is running, figures will be noisy`,
  );
}

const rows: BenchRow[] = [];
rows.push(
  ...(
    await runClientBench(
      quick
        ? { calls: 2_000, concurrency: 50, rounds: 1, warmup: 500 }
        : { ...CLIENT_BENCH_DEFAULTS, calls: 4_000, rounds: 7, warmup: 1_000 },
      log,
    )
  ).rows,
);
rows.push(
  ...(await runLoginBench(
    quick
      ? { ...LOGIN_BENCH_DEFAULTS, logins: 500, rounds: 1, warmup: 200, enrichLogins: 50 }
      : { ...LOGIN_BENCH_DEFAULTS, logins: 1_500, rounds: 5, warmup: 500 },
    log,
  )),
);
rows.push(
  ...(await runFastifyLoginBench(
    quick ? { ...FASTIFY_LOGIN_BENCH_DEFAULTS, logins: 500, rounds: 1, warmup: 200 } : FASTIFY_LOGIN_BENCH_DEFAULTS,
    log,
  )),
);
rows.push(
  ...(await runPeersBench(
    {
      ...PEERS_BENCH_DEFAULTS,
      ...(quick ? { logins: 300, rounds: 1, warmupRounds: 1, warmup: 100 } : {}),
      peersDir: process.env.BENCH_PEERS_DIR,
    },
    log,
  )),
);
rows.push(
  ...(await runGuardBench(
    quick
      ? { ...GUARD_BENCH_DEFAULTS, decisions: 20_000, rounds: 1, seconds: 1 }
      : { ...GUARD_BENCH_DEFAULTS, decisions: 100_000, rounds: 5, seconds: 2 },
    log,
  )),
);
rows.push(
  ...runEventsBench(quick ? { logins: 200_000, rounds: 3 } : EVENTS_BENCH_DEFAULTS, log, loginCallbackMicros(rows)),
);
rows.push(
  ...(await runHandoffBench(
    quick ? { flows: 24, concurrency: 12, throughputFlows: 60, waitingFlows: 10_000 } : HANDOFF_BENCH_DEFAULTS,
    log,
  )),
);
rows.push(
  ...(await runLimitsBench(
    quick ? { ...LIMITS_BENCH_DEFAULTS, sends: 500, rounds: 1, warmup: 200, takes: 2_000 } : LIMITS_BENCH_DEFAULTS,
    log,
  )),
);
rows.push(
  ...(await runMemoryBench(quick ? { checkpoints: [200, 1_000, 2_000], sampleEvery: 20 } : MEMORY_BENCH_DEFAULTS, log)),
);

const seconds = (performance.now() - t0) / 1000;
log(`done in ${seconds.toFixed(0)} s`);
printTable(rows);
if (write) {
  save(false);
  log('wrote bench/results.json and bench/results.svg');
}

function save(incomplete: boolean): void {
  writeResults(
    new URL('./results.json', import.meta.url),
    rows,
    { startedAt: startedAt.toISOString(), seconds: (performance.now() - t0) / 1000, quick, incomplete },
    loadBefore,
  );
  writeSvg(
    new URL('./results.svg', import.meta.url),
    rows,
    `passport-otpless benchmarks, ${startedAt.toISOString().slice(0, 10)}, Node ${process.version}${quick ? ' (--quick counts)' : ''}`,
  );
}

/** The app CPU of one login callback measured earlier in this run (µs), for the events row's baseline. */
function loginCallbackMicros(measured: BenchRow[]): number {
  const login = measured.find((r) => r.id === 'login.callback');
  const cpu = (login?.details?.['ours'] as { appCpuMicrosPerCallback?: unknown } | undefined)?.appCpuMicrosPerCallback;
  return typeof cpu === 'number' && cpu > 0 ? cpu : 450;
}
