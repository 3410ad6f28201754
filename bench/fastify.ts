/**
 * Login callbacks/s on native Fastify: Fastify 5 + @fastify/secure-session + @fastify/passport +
 * otplessFastify() + MagicLinkStrategy, against a bare Fastify handler (same session plugin and
 * key) making the same upstream call (verify code, with undici) and writing the same session
 * values. autocannon against each app in its own process, the emulator in another; rounds
 * alternate the order, and the row's ratio is the median of the per-round ratios.
 *
 * Each timed request is a distinct login: its own pending-session cookie (made by the strategy
 * app's send route, so the browser binding is checked as in production) and its own code (from
 * a real click), all prepared before the clock starts.
 *
 * `npx tsx bench/fastify.ts [--quick]` runs it alone; bench/run.ts runs it with the others.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { CLIENT } from '../test/helpers/harness.js';
import { startEmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { cannon, type CannonResult } from './support/cannon.js';
import { forkChild, type Child } from './support/child.js';
import type { FastifyAppChildArgs } from './support/fastifyAppChild.js';
import { appCpuMicros, prepareLogins, type PreparedLogin } from './support/flows.js';
import { printTable, row, type BenchRow } from './support/report.js';
import { median } from './support/stats.js';

export interface FastifyLoginBenchOptions {
  logins: number;
  rounds: number;
  warmup: number;
  connections: number;
}

export const FASTIFY_LOGIN_BENCH_DEFAULTS: FastifyLoginBenchOptions = {
  logins: 1_500,
  rounds: 5,
  warmup: 500,
  connections: 32,
};

const APP_CHILD = fileURLToPath(new URL('./support/fastifyAppChild.ts', import.meta.url));

function startApp(args: FastifyAppChildArgs): Promise<Child<{ url: string }>> {
  return forkChild<{ url: string }>(APP_CHILD, args);
}

/** Fires one callback per prepared login and checks every one logged in (a redirect to /me). */
async function fire(url: string, logins: PreparedLogin[], amount: number, connections: number): Promise<CannonResult> {
  let next = 0;
  const result = await cannon({
    url,
    connections,
    amount,
    next: () => {
      // autocannon may build a request or two beyond `amount`: spare logins cover them.
      const login = logins[next++ % logins.length] as PreparedLogin;
      return { path: login.path, cookie: login.cookie };
    },
  });
  if (result.statuses['3xx'] !== amount || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `not every callback logged in: ${JSON.stringify(result.statuses)}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result;
}

export async function runFastifyLoginBench(
  options: FastifyLoginBenchOptions = FASTIFY_LOGIN_BENCH_DEFAULTS,
  log: (line: string) => void = console.log,
): Promise<BenchRow[]> {
  const { logins, rounds, warmup, connections } = options;
  const agent = new Agent({ connections: 64 });
  const emulator = await startEmulatorProcess({ emulator: { clients: [CLIENT], quiet: true, maxLogins: 100_000 } });
  const apps = {
    ours: await startApp({ mode: 'strategy', authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl }),
    bare: await startApp({ mode: 'bare', authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl }),
  };
  type Runner = keyof typeof apps;
  const samples: Array<{ runner: Runner; round: number; result: CannonResult; cpuMicrosPerCallback: number }> = [];
  try {
    log(`fastify login: ${logins} callbacks x ${rounds} rounds, ${connections} connections`);
    const sample = async (runner: Runner, count: number) => {
      // Sent through the strategy app's send route: the pending cookie fits both apps (same key).
      const prepared = await prepareLogins(apps.ours.ready.url, emulator, count + connections, agent);
      const cpu = await appCpuMicros(apps[runner]);
      const result = await fire(`${apps[runner].ready.url}/auth/callback`, prepared, count, connections);
      return { result, cpuMicrosPerCallback: ((await appCpuMicros(apps[runner])) - cpu) / count };
    };
    await sample('ours', warmup);
    await sample('bare', warmup);
    for (let round = 1; round <= rounds; round++) {
      for (const runner of round % 2 === 1 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const)) {
        samples.push({ runner, round, ...(await sample(runner, logins)) });
      }
    }
  } finally {
    await apps.ours.close();
    await apps.bare.close();
    await emulator.close();
    await agent.close();
  }
  const of = (runner: Runner) => samples.filter((s) => s.runner === runner);
  const pick = (runner: Runner, round: number) =>
    samples.find((s) => s.runner === runner && s.round === round)?.result.requestsPerSecond ?? Number.NaN;
  const perRound = Array.from({ length: rounds }, (_, i) => pick('ours', i + 1) / pick('bare', i + 1));
  const summary = (runner: Runner) => ({
    p50Ms: median(of(runner).map((s) => s.result.latencyMs.p50)),
    p99Ms: median(of(runner).map((s) => s.result.latencyMs.p99)),
    appCpuMicrosPerCallback: median(of(runner).map((s) => s.cpuMicrosPerCallback)),
    perRound: of(runner).map((s) => s.result.requestsPerSecond),
  });
  const ours = summary('ours');
  const bare = summary('bare');
  log(
    `fastify login: per-round ratios ${perRound.map((r) => r.toFixed(3)).join(' ')}; app CPU per callback ` +
      `${ours.appCpuMicrosPerCallback.toFixed(0)} µs (ours) vs ${bare.appCpuMicrosPerCallback.toFixed(0)} µs (bare)`,
  );
  const loginRow = row({
    id: 'login.callback.fastify',
    title: 'full login callback, native Fastify',
    unit: 'callbacks/s',
    ours: median(ours.perRound),
    baselineName: 'bare Fastify + @fastify/secure-session + undici',
    baseline: median(bare.perRound),
    target: { on: 'ratio', op: '>=', value: 0.95 },
    details: {
      connections,
      callbacksPerSample: logins,
      rounds,
      perRoundRatios: perRound,
      ours,
      bare,
      // App CPU per callback, bare / ours: the cost of our stack, which a busy neighbour cannot skew.
      cpuCostRatio: bare.appCpuMicrosPerCallback / ours.appCpuMicrosPerCallback,
      choice:
        '@fastify/passport 4 with @fastify/secure-session and otplessFastify(); binding kept: each request carries its own pending-session cookie and code',
    },
  });
  loginRow.ratio = median(perRound);
  loginRow.met = loginRow.ratio >= 0.95;
  return [loginRow];
}

// Run alone: `npx tsx bench/fastify.ts [--quick]` prints the row (results.json is bench/run.ts's).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  const rows = await runFastifyLoginBench(
    values.quick ? { logins: 300, rounds: 2, warmup: 100, connections: 16 } : FASTIFY_LOGIN_BENCH_DEFAULTS,
  );
  printTable(rows);
}
