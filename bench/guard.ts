/**
 * Benchmark of requireLowRisk():
 * (a) decisions/s: the guard called directly in a tight loop with a real Express request
 *     captured from a real login (its cookie-session session carries the real login record
 *     with risk signals), against a no-op middleware called the same way;
 * (b) its added cost on a route: autocannon on GET /guarded vs GET /plain (same handler) of
 *     the real app, logged in; reported as app CPU per request and latency.
 *
 * Run alone: npx tsx bench/guard.ts (npm run bench runs it with the others).
 */
import type { Request, Response } from 'express';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { assessRisk, DEFAULT_RISK_POLICY, readLoginRecord, requireLowRisk } from '../src/index.js';
import { validateRiskPolicy } from '../src/risk/policy.js';
import { startEmulator } from '../src/emulator/index.js';
import { CLIENT, loginVia, startHarness } from '../test/helpers/harness.js';
import { startEmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { cannon, type CannonResult } from './support/cannon.js';
import { collectGarbage } from './support/gc.js';
import { appCpuMicros, CookieJar, prepareLogins, startApp } from './support/flows.js';
import { printTable, row, type BenchRow } from './support/report.js';
import { median } from './support/stats.js';

export interface GuardBenchOptions {
  decisions: number;
  rounds: number;
  seconds: number;
  connections: number;
}

export const GUARD_BENCH_DEFAULTS: GuardBenchOptions = { decisions: 200_000, rounds: 3, seconds: 3, connections: 1 };

type Middleware = (req: Request, res: Response, next: (err?: unknown) => void) => void;

/** A real request of a logged-in user, captured after cookie-session and passport.session() ran. */
async function captureLoggedInRequest(): Promise<{ req: Request; res: Response; close: () => Promise<void> }> {
  const emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  let captured: { req: Request; res: Response } | undefined;
  const h = await startHarness({
    emulator,
    strategy: { enrich: ['secureInfo'] },
    routes: (app) => {
      app.get('/capture', (req, res) => {
        captured = { req, res };
        res.json({ ok: true });
      });
    },
  });
  const browser = h.browser();
  const login = await loginVia(h, browser, { email: 'guard-bench@example.com' });
  if (login.status !== 302) throw new Error(`login answered ${login.status}`);
  await browser.get('/capture').set('accept', 'application/json');
  if (!captured) throw new Error('no request captured');
  return {
    ...captured,
    close: async () => {
      await h.close();
      await emulator.close();
    },
  };
}

/** ns per call of a synchronous function. */
function nsPerSyncCall(f: () => unknown, count: number): number {
  collectGarbage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) f();
  return Number(process.hrtime.bigint() - t0) / count;
}

/** ns per call of `mw(req, res, next)`, awaiting each `next` (the guard decides asynchronously). */
async function nsPerCall(mw: Middleware, req: Request, res: Response, count: number): Promise<number> {
  collectGarbage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve, reject) => mw(req, res, (err) => (err ? reject(err) : resolve())));
  }
  return Number(process.hrtime.bigint() - t0) / count;
}

export async function runGuardBench(
  options: GuardBenchOptions = GUARD_BENCH_DEFAULTS,
  log: (line: string) => void = console.log,
): Promise<BenchRow[]> {
  // ---------------------------------------------------------------- (a) decisions
  const guard = requireLowRisk() as unknown as Middleware;
  const noop: Middleware = (_req, _res, next) => next();
  const captured = await captureLoggedInRequest();
  const { req, res } = captured;
  const samples = { guard: [] as number[], noop: [] as number[] };
  // Where a decision's time goes: the verdict on the stored signals, and the policy check that
  // assessRisk repeats on every call when given the guard's already resolved policy.
  const parts = {
    assessRiskDefaultPolicyNs: [] as number[],
    assessRiskResolvedPolicyNs: [] as number[],
    validateResolvedPolicyNs: [] as number[],
  };
  try {
    // Sanity: the captured login is allowed, with the signals stored at login.
    await nsPerCall(guard, req, res, 1);
    const risk = (req as Request & { risk?: { action: string; signalsAt: number | null } }).risk;
    if (risk?.action !== 'allow' || risk.signalsAt === null)
      throw new Error(`unexpected verdict ${JSON.stringify(risk)}`);
    log(`guard: ${options.decisions} decisions x ${options.rounds} rounds`);
    await nsPerCall(guard, req, res, options.decisions / 4);
    await nsPerCall(noop, req, res, options.decisions / 4);
    for (let round = 0; round < options.rounds; round++) {
      samples.guard.push(await nsPerCall(guard, req, res, options.decisions));
      samples.noop.push(await nsPerCall(noop, req, res, options.decisions));
    }
    const signals = readLoginRecord(req as never)?.risk?.signals;
    const now = Date.now();
    for (let round = 0; round < options.rounds; round++) {
      parts.assessRiskDefaultPolicyNs.push(
        nsPerSyncCall(() => assessRisk(signals, undefined, { now }), options.decisions / 4),
      );
      parts.assessRiskResolvedPolicyNs.push(
        nsPerSyncCall(() => assessRisk(signals, DEFAULT_RISK_POLICY, { now }), options.decisions / 4),
      );
      parts.validateResolvedPolicyNs.push(
        nsPerSyncCall(() => validateRiskPolicy(DEFAULT_RISK_POLICY), options.decisions / 4),
      );
    }
  } finally {
    await captured.close();
  }
  const decision = row({
    id: 'guard.decision',
    title: 'requireLowRisk() decision',
    unit: 'ns/decision',
    ours: median(samples.guard),
    baselineName: 'no-op middleware, same loop',
    baseline: median(samples.noop),
    target: { on: 'ours', op: '<=', value: 1_000 },
    details: {
      decisionsPerSecond: 1e9 / median(samples.guard),
      netNsPerDecision: median(samples.guard) - median(samples.noop),
      rounds: samples,
      assessRiskDefaultPolicyNs: median(parts.assessRiskDefaultPolicyNs),
      assessRiskResolvedPolicyNs: median(parts.assessRiskResolvedPolicyNs),
      validateResolvedPolicyNs: median(parts.validateResolvedPolicyNs),
      request:
        'a real Express request captured after cookie-session, sessionCompat and passport.session(), with the login record written by a real login (enrich: secureInfo)',
    },
  });

  // ---------------------------------------------------------------- (b) on a route
  const emulator = await startEmulatorProcess({ emulator: { clients: [CLIENT], quiet: true } });
  const app = await startApp({
    mode: 'strategy',
    authUrl: emulator.authUrl,
    userAuthUrl: emulator.userAuthUrl,
    enrich: ['secureInfo'],
    guardRoutes: true,
  });
  const agent = new Agent();
  const runs = {
    plain: [] as Array<CannonResult & { cpu: number }>,
    guarded: [] as Array<CannonResult & { cpu: number }>,
  };
  try {
    const [login] = await prepareLogins(app.ready.url, emulator, 1, agent);
    if (!login) throw new Error('no login prepared');
    const jar = new CookieJar();
    jar.take(login.cookie.split('; '));
    const callback = await request(`${app.ready.url}${login.path}`, {
      dispatcher: agent,
      headers: { cookie: jar.header() },
    });
    jar.take(callback.headers['set-cookie']);
    await callback.body.dump();
    const cookie = jar.header();
    const headers = { cookie, accept: 'application/json' };
    for (const path of ['/plain', '/guarded']) {
      const check = await request(`${app.ready.url}${path}`, { dispatcher: agent, headers });
      await check.body.dump();
      if (check.statusCode !== 200) throw new Error(`${path} answered ${check.statusCode}`);
    }
    log(
      `guard: GET /guarded vs GET /plain, ${options.seconds} s each x ${options.rounds} rounds, ${options.connections} connections`,
    );
    const one = async (path: 'plain' | 'guarded') => {
      const cpu = await appCpuMicros(app);
      const result = await cannon({
        url: `${app.ready.url}/${path}`,
        connections: options.connections,
        seconds: options.seconds,
        headers,
      });
      const total = Object.values(result.statuses).reduce((a, b) => a + b, 0);
      if (result.statuses['2xx'] !== total || result.errors > 0)
        throw new Error(`/${path}: ${JSON.stringify(result.statuses)}`);
      return { ...result, cpu: ((await appCpuMicros(app)) - cpu) / total };
    };
    await one('plain');
    await one('guarded');
    for (let round = 1; round <= options.rounds; round++) {
      for (const path of round % 2 === 1 ? (['plain', 'guarded'] as const) : (['guarded', 'plain'] as const))
        runs[path].push(await one(path));
    }
  } finally {
    await agent.close();
    await app.close();
    await emulator.close();
  }
  const cpu = (path: 'plain' | 'guarded') => median(runs[path].map((r) => r.cpu));
  const lat = (path: 'plain' | 'guarded') => ({
    p50Ms: median(runs[path].map((r) => r.latencyMs.p50)),
    p99Ms: median(runs[path].map((r) => r.latencyMs.p99)),
    meanMs: median(runs[path].map((r) => r.latencyMs.mean)),
    requestsPerSecond: median(runs[path].map((r) => r.requestsPerSecond)),
  });
  const route = row({
    id: 'guard.route',
    title: 'route with requireLowRisk()',
    unit: 'µs app CPU/request',
    ours: cpu('guarded'),
    baselineName: 'same route without the guard',
    baseline: cpu('plain'),
    target: null,
    details: {
      addedCpuMicrosPerRequest: cpu('guarded') - cpu('plain'),
      addedLatencyP50Micros: (lat('guarded').p50Ms - lat('plain').p50Ms) * 1000,
      guarded: lat('guarded'),
      plain: lat('plain'),
      connections: options.connections,
      secondsPerRun: options.seconds,
    },
  });
  const previous = await runAgainstPrevious(options, log);
  return previous ? [decision, previous, route] : [decision, route];
}

/**
 * The tree the guard is paired against: the previous release (0.1.0's predecessor), whose
 * guard the issue compares with, or the commit `BENCH_GUARD_BASE` names (with
 * `BENCH_PREVIOUS_DIR`, a checkout of it elsewhere).
 */
export const PREVIOUS_RELEASE = process.env.BENCH_GUARD_BASE ?? '5a56f38';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/**
 * A checkout of the previous release beside this one (a detached git worktree in the temp
 * directory, sharing this checkout's node_modules), with the decision script copied in; or
 * `undefined` with the reason when there is no git history to take it from.
 */
function previousCheckout(log: (line: string) => void): string | undefined {
  const dir = process.env.BENCH_PREVIOUS_DIR ?? join(tmpdir(), `passport-otpless-${PREVIOUS_RELEASE}`);
  try {
    if (!existsSync(join(dir, 'src'))) {
      execFileSync('git', ['-C', REPO, 'worktree', 'add', '--detach', dir, PREVIOUS_RELEASE], { stdio: 'ignore' });
    }
    if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
    mkdirSync(join(dir, 'bench', 'support'), { recursive: true });
    copyFileSync(
      join(REPO, 'bench', 'support', 'guardDecisions.ts'),
      join(dir, 'bench', 'support', 'guardDecisions.ts'),
    );
    return dir;
  } catch (err) {
    log(
      `guard: no checkout of ${PREVIOUS_RELEASE} (${(err as Error).message.split('\n')[0]}): the row against it is left out`,
    );
    return undefined;
  }
}

/** CPU ns per decision of the tree at `dir`: the median of the rounds of one child process. */
function childDecisions(dir: string, decisions: number, rounds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/support/guardDecisions.ts', String(decisions), String(rounds)],
      { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const cpu = out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { cpuNs: number }).cpuNs);
      if (code !== 0 || cpu.length === 0) reject(new Error(`guard decisions in ${dir} exited ${String(code)}`));
      else resolve(median(cpu));
    });
  });
}

/**
 * The guard against the previous release's: the same script (a real login's request, the
 * guard awaited per decision) in a child process of each tree, alternated A B B A, CPU time
 * per decision (what a busy neighbour skews least); the ratio is the median of per-pair ratios.
 */
async function runAgainstPrevious(
  options: GuardBenchOptions,
  log: (line: string) => void,
): Promise<BenchRow | undefined> {
  const previous = previousCheckout(log);
  if (!previous) return undefined;
  const pairs = Math.max(2, options.rounds);
  log(
    `guard: against ${PREVIOUS_RELEASE}, ${pairs} alternated pairs of child processes, ${options.decisions} decisions x 3`,
  );
  const ours: number[] = [];
  const prev: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? [REPO, previous] : [previous, REPO];
    for (const dir of order) (dir === REPO ? ours : prev).push(await childDecisions(dir, options.decisions, 3));
  }
  const ratios = ours.map((o, i) => o / (prev[i] as number));
  const decisionRow = row({
    id: 'guard.vsPrevious',
    title: `requireLowRisk() decision vs ${PREVIOUS_RELEASE}`,
    unit: 'CPU ns/decision',
    ours: median(ours),
    baselineName: `previous release ${PREVIOUS_RELEASE}, same script, alternated`,
    baseline: median(prev),
    target: { on: 'ratio', op: '<=', value: 1 },
    details: { perPairRatios: ratios, ours, previous: prev, decisionsPerRound: options.decisions },
  });
  decisionRow.ratio = median(ratios);
  decisionRow.met = decisionRow.ratio <= 1;
  return decisionRow;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await runGuardBench();
  printTable(rows);
  const decision = rows.find((r) => r.id === 'guard.decision') as BenchRow;
  const route = rows.find((r) => r.id === 'guard.route') as BenchRow;
  const previous = rows.find((r) => r.id === 'guard.vsPrevious');
  if (previous) {
    console.log(
      `against ${PREVIOUS_RELEASE}: ${Math.round(previous.ours)} vs ${Math.round(previous.baseline)} CPU ns per decision, ratio ${previous.ratio.toFixed(2)} (median of per-pair ratios); target <= 1: ${previous.met ? 'met' : 'NOT met'}`,
    );
  }
  console.log(
    `requireLowRisk(): ${Math.round(decision.ours)} ns per decision (${Math.round(decision.details.decisionsPerSecond as number).toLocaleString('en')} decisions/s), no-op ${Math.round(decision.baseline)} ns; target <= 1000 ns: ${decision.met ? 'met' : 'NOT met'}`,
  );
  const d = decision.details as Record<string, number>;
  console.log(
    `  of which: assessRisk on the stored signals ${Math.round(d.assessRiskDefaultPolicyNs ?? 0)} ns with policy undefined, ${Math.round(d.assessRiskResolvedPolicyNs ?? 0)} ns with the resolved default policy (validateRiskPolicy(resolved) alone: ${Math.round(d.validateResolvedPolicyNs ?? 0)} ns)`,
  );
  console.log(
    `on a route: +${(route.details.addedCpuMicrosPerRequest as number).toFixed(1)} µs app CPU per request, p50 latency +${(route.details.addedLatencyP50Micros as number).toFixed(0)} µs`,
  );
}
