/**
 * Benchmark: calls/s of `OtplessClient#getUserInfo` against a bare undici `request` with a
 * keep-alive Agent sending the same form body, both against the emulator (in a child process).
 *
 * Run: npx tsx bench/client.ts [--calls 20000] [--concurrency 50] [--rounds 5] [--warmup 3000]
 * Prints a table and the ratio ours/bare (target >= 0.9); writes bench/results-client.json.
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { OtplessClient } from '../src/client/index.js';

interface Target {
  authUrl: string;
  userAuthUrl: string;
  token: string;
  clientId: string;
  clientSecret: string;
}

interface Sample {
  runner: 'ours' | 'bare';
  round: number;
  callsPerSecond: number;
  /** CPU time of this (client) process per call: the client's own cost, whatever the server does. */
  cpuMicrosPerCall: number;
}

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3000' },
  },
});
const CALLS = Number(args.calls);
const CONCURRENCY = Number(args.concurrency);
const ROUNDS = Number(args.rounds);
const WARMUP = Number(args.warmup);

/** Runs `total` calls with `concurrency` in flight; returns calls/s and client CPU µs per call. */
async function measure(call: () => Promise<unknown>, total: number): Promise<{ callsPerSecond: number; cpuMicrosPerCall: number }> {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  return { callsPerSecond: total / seconds, cpuMicrosPerCall: (used.user + used.system) / total };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

async function startTarget(): Promise<{ target: Target; stop: () => Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./client-emulator-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const target = await new Promise<Target>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Target));
    child.once('exit', (code) => reject(new Error(`emulator process exited early (${code})`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.send('close');
    const timer = setTimeout(() => child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { target, stop };
}

async function main(): Promise<void> {
  const { target, stop } = await startTarget();
  const client = new OtplessClient({ clientId: target.clientId, clientSecret: target.clientSecret, authUrl: target.authUrl, userAuthUrl: target.userAuthUrl });
  const agent = new Agent();
  const url = `${target.authUrl}/auth/userInfo`;
  const form = new URLSearchParams({ token: target.token, client_id: target.clientId, client_secret: target.clientSecret }).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };

  const runners = {
    ours: () => client.getUserInfo(target.token),
    bare: async () => {
      const res = await request(url, { dispatcher: agent, method: 'POST', headers, body: form });
      const body: unknown = await res.body.json();
      if (res.statusCode !== 200) throw new Error(`bare call failed: HTTP ${res.statusCode}`);
      return body;
    },
  };

  const samples: Sample[] = [];
  try {
    // Sanity: both get the same user.
    const [a, b] = await Promise.all([runners.ours(), runners.bare()]);
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('ours and bare disagree on the answer');

    console.log(`getUserInfo against the emulator: ${CALLS} calls x ${ROUNDS} rounds, ${CONCURRENCY} in flight, ${WARMUP} warm-up calls each`);
    await measure(runners.ours, WARMUP);
    await measure(runners.bare, WARMUP);
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate who goes first, so drift (JIT, GC, thermal) does not favour one side.
      const order = round % 2 === 1 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
      for (const runner of order) {
        const result = await measure(runners[runner], CALLS);
        samples.push({ runner, round, ...result });
      }
    }
  } finally {
    await client.close();
    await agent.close();
    await stop();
  }

  const of = (runner: Sample['runner']) => samples.filter((s) => s.runner === runner);
  const summary = (['ours', 'bare'] as const).map((runner) => {
    const rows = of(runner);
    return {
      runner,
      best: Math.max(...rows.map((r) => r.callsPerSecond)),
      median: median(rows.map((r) => r.callsPerSecond)),
      cpuMicrosPerCall: median(rows.map((r) => r.cpuMicrosPerCall)),
    };
  });
  const [ours, bare] = summary as [(typeof summary)[0], (typeof summary)[0]];
  // Each round runs ours and bare back to back: the median of the per-round ratios cancels
  // most of the drift of a shared machine.
  const perRound = Array.from({ length: ROUNDS }, (_, i) => {
    const pick = (runner: Sample['runner']) => samples.find((s) => s.round === i + 1 && s.runner === runner)?.callsPerSecond ?? Number.NaN;
    return pick('ours') / pick('bare');
  });
  const ratioMedian = median(perRound);
  const ratioBest = ours.best / bare.best;

  console.table(samples.map((s) => ({ round: s.round, runner: s.runner, 'calls/s': Math.round(s.callsPerSecond), 'client CPU µs/call': s.cpuMicrosPerCall.toFixed(1) })));
  console.table(summary.map((s) => ({ runner: s.runner, 'best calls/s': Math.round(s.best), 'median calls/s': Math.round(s.median), 'client CPU µs/call': s.cpuMicrosPerCall.toFixed(1) })));
  console.log(`ratio ours/bare: ${ratioMedian.toFixed(3)} (median of per-round ratios ${perRound.map((r) => r.toFixed(2)).join(', ')}), ${ratioBest.toFixed(3)} (best vs best)`);
  console.log(`target >= 0.9: ${ratioMedian >= 0.9 ? 'met' : 'NOT met'}`);

  const results = {
    benchmark: 'client.getUserInfo vs bare undici.request (keep-alive Agent)',
    date: new Date().toISOString(),
    node: process.version,
    calls: CALLS,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    samples,
    summary,
    ratio: { median: ratioMedian, best: ratioBest, perRound },
  };
  writeFileSync(new URL('./results-client.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}

await main();
