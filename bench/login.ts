/**
 * Full-login benchmarks, autocannon against an app in its own process, the emulator in another:
 *
 * 1. callbacks/s of the callback route of the real app (Express 5 + Passport + cookie-session +
 *    MagicLinkStrategy) vs a bare Express handler making the same upstream call (verify code
 *    with undici) and writing the same session; with p50/p99 latency.
 * 2. callback latency with 50 ms added to every upstream call and all three enrichments: one
 *    delay for verify, then one for the three enrichments in parallel.
 *
 * Each timed request is a distinct login: its own pending-session cookie (made by the app's
 * send route, so the browser binding is checked as in production, not switched off with
 * crossDevice) and its own code (from a real click), all prepared before the clock starts.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import type { Enrichment } from '../src/index.js';
import { CLIENT } from '../test/helpers/harness.js';
import { startEmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { cannon, type CannonResult } from './support/cannon.js';
import { appCpuMicros, prepareLogins, startApp, type PreparedLogin } from './support/flows.js';
import { printTable, row, type BenchRow } from './support/report.js';
import { median } from './support/stats.js';

export interface LoginBenchOptions {
  logins: number;
  rounds: number;
  warmup: number;
  connections: number;
  enrichLogins: number;
  /** Callbacks in flight in the enrichment row (10 by default). */
  enrichConnections?: number;
  delayMs: number;
  /** Run one part alone (`npx tsx bench/login.ts --only callbacks`); both by default. */
  only?: 'callbacks' | 'enrichment';
}

export const LOGIN_BENCH_DEFAULTS: LoginBenchOptions = {
  logins: 3_000,
  rounds: 3,
  warmup: 1_000,
  connections: 32,
  enrichLogins: 300,
  delayMs: 50,
};

const ALL_ENRICHMENTS: Enrichment[] = ['validateToken', 'secureInfo', 'userInfo'];

/** Fires one callback per prepared login and checks every one logged in (302 to /me). */
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

export async function runLoginBench(
  options: LoginBenchOptions = LOGIN_BENCH_DEFAULTS,
  log: (line: string) => void = console.log,
): Promise<BenchRow[]> {
  const agent = new Agent({ connections: 64 });
  const rows: BenchRow[] = [];
  if (options.only !== 'enrichment') rows.push(...(await runCallbacks(options, agent, log)));
  if (options.only !== 'callbacks') rows.push(await runEnrichment(options, agent, log));
  await agent.close();
  return rows;
}

async function runCallbacks(
  options: LoginBenchOptions,
  agent: Agent,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const { logins, rounds, warmup, connections } = options;
  const rows: BenchRow[] = [];
  const emulator = await startEmulatorProcess({ emulator: { clients: [CLIENT], quiet: true, maxLogins: 100_000 } });
  const apps = {
    ours: await startApp({ mode: 'strategy', authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl }),
    bare: await startApp({ mode: 'bare', authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl }),
    bound: await startApp({ mode: 'bare-bound', authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl }),
    passport: await startApp({ mode: 'bare-passport', authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl }),
  };
  type Runner = keyof typeof apps;
  const samples: Array<{ runner: Runner; round: number; result: CannonResult; cpuMicrosPerCallback: number }> = [];
  try {
    log(`login: ${logins} callbacks x ${rounds} rounds, ${connections} connections`);
    const sample = async (runner: Runner, count: number) => {
      // Sent through the real app's send route: the pending cookie is valid for both apps (same keys).
      const prepared = await prepareLogins(apps.ours.ready.url, emulator, count + connections, agent);
      const cpu = await appCpuMicros(apps[runner]);
      const result = await fire(`${apps[runner].ready.url}/auth/callback`, prepared, count, connections);
      // The app's own CPU per callback: what a busy neighbour on a shared machine cannot skew.
      return { result, cpuMicrosPerCallback: ((await appCpuMicros(apps[runner])) - cpu) / count };
    };
    await sample('ours', warmup);
    await sample('bare', warmup);
    await sample('bound', warmup);
    await sample('passport', warmup);
    for (let round = 1; round <= rounds; round++) {
      for (const runner of round % 2 === 1
        ? (['ours', 'bare', 'bound', 'passport'] as const)
        : (['passport', 'bound', 'bare', 'ours'] as const)) {
        samples.push({ runner, round, ...(await sample(runner, logins)) });
      }
    }
  } finally {
    await apps.ours.close();
    await apps.bare.close();
    await apps.bound.close();
    await apps.passport.close();
    await emulator.close();
  }
  const of = (runner: Runner) => samples.filter((s) => s.runner === runner).map((s) => s.result);
  const cpuOf = (runner: Runner) =>
    median(samples.filter((s) => s.runner === runner).map((s) => s.cpuMicrosPerCallback));
  const pick = (runner: Runner, round: number) =>
    samples.find((s) => s.runner === runner && s.round === round)?.result.requestsPerSecond ?? Number.NaN;
  const ratiosAgainst = (baseline: Runner) =>
    Array.from({ length: rounds }, (_, i) => pick('ours', i + 1) / pick(baseline, i + 1));
  const throughput = (runner: Runner) => median(of(runner).map((r) => r.requestsPerSecond));
  const summary = (runner: Runner) => ({
    p50Ms: median(of(runner).map((r) => r.latencyMs.p50)),
    p99Ms: median(of(runner).map((r) => r.latencyMs.p99)),
    appCpuMicrosPerCallback: cpuOf(runner),
    perRound: of(runner).map((r) => r.requestsPerSecond),
  });
  const perRound = ratiosAgainst('bare');
  const perRoundBound = ratiosAgainst('bound');
  const perRoundPassport = ratiosAgainst('passport');
  const loginRow = row({
    id: 'login.callback',
    title: 'full login callback',
    unit: 'callbacks/s',
    ours: throughput('ours'),
    baselineName: 'bare Express + cookie-session + undici',
    baseline: throughput('bare'),
    target: { on: 'ratio', op: '>=', value: 0.95 },
    details: {
      connections,
      callbacksPerSample: logins,
      rounds,
      perRoundRatios: perRound,
      ours: summary('ours'),
      bare: summary('bare'),
      // App CPU per callback, bare / ours: the cost of our stack, which a busy neighbour cannot skew.
      cpuCostRatio: cpuOf('bare') / cpuOf('ours'),
      choice:
        'binding kept (crossDevice false): each request carries its own pending-session cookie and code, prepared through the send route and a real click',
    },
  });
  loginRow.ratio = median(perRound);
  loginRow.met = loginRow.ratio >= 0.95;
  rows.push(loginRow);

  // The same comparison against a bare handler that also makes the browser binding check: the
  // bare handler above never reads the signed session cookie, which binding needs.
  const boundRow = row({
    id: 'login.callback.bound',
    title: 'full login callback, same binding',
    unit: 'callbacks/s',
    ours: throughput('ours'),
    baselineName: 'bare handler + the same binding check',
    baseline: throughput('bound'),
    // The issue sets no target for this comparison: reported beside the one it does set.
    target: null,
    details: { perRoundRatios: perRoundBound, bound: summary('bound'), cpuCostRatio: cpuOf('bound') / cpuOf('ours') },
  });
  boundRow.ratio = median(perRoundBound);
  rows.push(boundRow);

  // And against that same work run as a minimal Passport strategy (sessionCompat(),
  // passport.session(), Passport's login and redirect): what is left is the strategy's own.
  const passportRow = row({
    id: 'login.callback.passport',
    title: 'full login callback, same binding in Passport',
    unit: 'callbacks/s',
    ours: throughput('ours'),
    baselineName: 'the same-binding handler as a minimal Passport strategy',
    baseline: throughput('passport'),
    target: null,
    details: {
      perRoundRatios: perRoundPassport,
      passport: summary('passport'),
      cpuCostRatio: cpuOf('passport') / cpuOf('ours'),
    },
  });
  passportRow.ratio = median(perRoundPassport);
  rows.push(passportRow);

  log(
    `login: per-round ratios vs bare ${perRound.map((r) => r.toFixed(3)).join(' ')}, vs same binding ` +
      `${perRoundBound.map((r) => r.toFixed(3)).join(' ')}; app CPU per callback ${cpuOf('ours').toFixed(0)} µs (ours), ` +
      `${cpuOf('bare').toFixed(0)} (bare), ${cpuOf('bound').toFixed(0)} (same binding), ` +
      `${cpuOf('passport').toFixed(0)} (same binding in Passport)`,
  );
  return rows;
}

async function runEnrichment(options: LoginBenchOptions, agent: Agent, log: (line: string) => void): Promise<BenchRow> {
  const slow = await startEmulatorProcess({
    emulator: { clients: [CLIENT], quiet: true, baseDelayMs: options.delayMs },
  });
  const enriched = {
    ours: await startApp({
      mode: 'strategy',
      authUrl: slow.authUrl,
      userAuthUrl: slow.userAuthUrl,
      enrich: ALL_ENRICHMENTS,
    }),
    bare: await startApp({
      mode: 'bare',
      authUrl: slow.authUrl,
      userAuthUrl: slow.userAuthUrl,
      enrich: ALL_ENRICHMENTS,
    }),
  };
  let ours: CannonResult;
  let bare: CannonResult;
  try {
    log(
      `enrichment: ${options.enrichLogins} callbacks with ${options.delayMs} ms per upstream call, all three enrichments`,
    );
    const count = options.enrichLogins;
    const inFlight = options.enrichConnections ?? 10;
    const run = async (runner: 'ours' | 'bare') => {
      const prepared = await prepareLogins(enriched.ours.ready.url, slow, count + inFlight, agent);
      return fire(`${enriched[runner].ready.url}/auth/callback`, prepared, count, inFlight);
    };
    // Each app warmed up once (the bare one was measured cold before), then measured.
    await run('ours');
    await run('bare');
    ours = await run('ours');
    bare = await run('bare');
  } finally {
    await enriched.ours.close();
    await enriched.bare.close();
    await slow.close();
  }
  log(
    `enrichment: p50 ${ours.latencyMs.p50.toFixed(1)} ms (ours), ${bare.latencyMs.p50.toFixed(1)} ms (bare, same calls)`,
  );
  return row({
    id: 'login.enrichment',
    title: 'callback p50, 50 ms upstream, 3 enrichments',
    unit: 'ms',
    ours: ours.latencyMs.p50,
    baselineName: 'two upstream delays',
    baseline: 2 * options.delayMs,
    target: { on: 'ratio', op: '<=', value: 1.1 },
    details: {
      delayMs: options.delayMs,
      callbacks: options.enrichLogins,
      connections: options.enrichConnections ?? 10,
      ours: ours.latencyMs,
      bareSameCalls: bare.latencyMs,
      // What is ours in the figure: the rest (timer lateness, the emulator's and the load
      // generator's work, queueing on a shared machine) the bare handler pays as well.
      p50OverBareSameCalls: ours.latencyMs.p50 / bare.latencyMs.p50,
      note: 'bareSameCalls: a bare Express handler making the same four calls (verify, then three in parallel) with undici',
    },
  });
}

// Run alone: `npx tsx bench/login.ts [--quick] [--only callbacks|enrichment] [--rounds N] [--logins N]`
// prints the rows (results.json is bench/run.ts's).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      rounds: { type: 'string' },
      logins: { type: 'string' },
      'enrich-connections': { type: 'string' },
      'enrich-logins': { type: 'string' },
    },
  });
  const base = values.quick
    ? { ...LOGIN_BENCH_DEFAULTS, logins: 500, rounds: 1, warmup: 200, enrichLogins: 50 }
    : { ...LOGIN_BENCH_DEFAULTS, logins: 1_500, rounds: 5, warmup: 500 };
  const only = values.only === 'callbacks' || values.only === 'enrichment' ? values.only : undefined;
  printTable(
    await runLoginBench({
      ...base,
      ...(only ? { only } : {}),
      ...(values.rounds ? { rounds: Number(values.rounds) } : {}),
      ...(values.logins ? { logins: Number(values.logins) } : {}),
      ...(values['enrich-connections'] ? { enrichConnections: Number(values['enrich-connections']) } : {}),
      ...(values['enrich-logins'] ? { enrichLogins: Number(values['enrich-logins']) } : {}),
    }),
  );
}
