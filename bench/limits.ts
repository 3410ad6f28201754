/**
 * What the send limits cost a send: autocannon POSTs distinct addresses to the send route of
 * the real app (Express 5, cookie-session, Passport, MagicLinkStrategy) in its own process,
 * the emulator in another, with
 *   - limits off (`limits: false`): the baseline;
 *   - limits on, memory store (the default), budgets no run reaches, so every send is counted;
 *   - limits on, Redis store (a real redis-server on a loopback port), when one is installed.
 * Rounds alternate the runners; the ratio is the median of the per-round ratios. Beside it, the
 * app's CPU per send, and `SendLimiter#take` timed alone in this process on both stores.
 *
 * Run alone: npm run bench:limits (npm run bench runs it with the others).
 */
import { pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { SendLimiter } from '../src/index.js';
import { CLIENT } from '../test/helpers/harness.js';
import { hasRedisServer, startRedisServer } from '../test/helpers/redisServer.js';
import { startEmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { cannon, type CannonResult } from './support/cannon.js';
import { collectGarbage } from './support/gc.js';
import { appCpuMicros, startApp, type App } from './support/flows.js';
import { printTable, row, type BenchRow } from './support/report.js';
import { median } from './support/stats.js';

export interface LimitsBenchOptions {
  sends: number;
  rounds: number;
  warmup: number;
  connections: number;
  /** `take()` calls per timed sample of the in-process figure. */
  takes: number;
}

export const LIMITS_BENCH_DEFAULTS: LimitsBenchOptions = {
  sends: 2_500,
  rounds: 7,
  warmup: 1_500,
  connections: 32,
  takes: 20_000,
};

const ROOMY = { limit: 1_000_000, windowSeconds: 3600 };
/** Counts in Redis are keyed digests under a secret every instance shares (required with `redis`). */
const LIMITS_SECRET = 'bench-send-limits-secret-0123456789abcdef';
let sequence = 0;

/** Fires `amount` sends, each to an address of its own, and checks every one was sent. */
async function fire(url: string, amount: number, connections: number): Promise<CannonResult> {
  const result = await cannon({
    url,
    connections,
    amount,
    next: () => ({ path: '/auth/magic-link', json: { email: `send-${process.pid}-${++sequence}@bench.example` } }),
  });
  if (result.statuses['2xx'] !== amount || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`not every send went out: ${JSON.stringify(result.statuses)}, ${result.errors} errors`);
  }
  return result;
}

/** µs per `take()` of one IP and one new destination, awaited one after another. */
async function microsPerTake(limiter: SendLimiter, count: number): Promise<number> {
  collectGarbage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const decision = await limiter.take('203.0.113.9', [`take-${++sequence}@bench.example`]);
    if (!decision.allowed) throw new Error('a roomy budget refused a send');
  }
  return Number(process.hrtime.bigint() - t0) / count / 1000;
}

export async function runLimitsBench(
  options: LimitsBenchOptions = LIMITS_BENCH_DEFAULTS,
  log: (line: string) => void = console.log,
): Promise<BenchRow[]> {
  const { sends, rounds, warmup, connections } = options;
  const redisServer = hasRedisServer() ? await startRedisServer() : undefined;
  if (!redisServer) log('limits: no redis-server installed, so the Redis row is skipped');
  const emulator = await startEmulatorProcess({ emulator: { clients: [CLIENT], quiet: true, maxLogins: 100_000 } });
  const urls = { authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl };
  const apps: Partial<Record<'off' | 'memory' | 'redis', App>> = {};
  const samples: Array<{ runner: keyof typeof apps; round: number; result: CannonResult; cpu: number }> = [];
  const takes: { memory: number[]; redis: number[] } = { memory: [], redis: [] };
  try {
    apps.off = await startApp({ mode: 'strategy', ...urls, limits: 'off' });
    apps.memory = await startApp({ mode: 'strategy', ...urls, limits: 'counting' });
    if (redisServer)
      apps.redis = await startApp({ mode: 'strategy', ...urls, limits: 'redis', redisUrl: redisServer.url });
    const runners = Object.keys(apps) as Array<keyof typeof apps>;
    log(`limits: ${sends} sends x ${rounds} rounds, ${connections} connections, runners ${runners.join(', ')}`);
    const sample = async (runner: keyof typeof apps, count: number) => {
      const app = apps[runner]!;
      const cpu = await appCpuMicros(app);
      const result = await fire(`${app.ready.url}`, count, connections);
      return { result, cpu: ((await appCpuMicros(app)) - cpu) / count };
    };
    for (const runner of runners) await sample(runner, warmup);
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? runners : [...runners].reverse();
      for (const runner of order) samples.push({ runner, round, ...(await sample(runner, sends)) });
    }

    // The limiter alone, in this process: what a send pays for it, without the HTTP around it.
    const memory = new SendLimiter({ perIp: ROOMY, perDestination: ROOMY });
    await microsPerTake(memory, options.takes / 4);
    for (let i = 0; i < rounds; i++) takes.memory.push(await microsPerTake(memory, options.takes));
    if (redisServer) {
      const client = createClient({ url: redisServer.url });
      client.on('error', () => undefined);
      await client.connect();
      try {
        const onRedis = new SendLimiter({
          perIp: ROOMY,
          perDestination: ROOMY,
          redis: client,
          prefix: 'bench:',
          secret: LIMITS_SECRET,
        });
        await microsPerTake(onRedis, options.takes / 20);
        for (let i = 0; i < rounds; i++) takes.redis.push(await microsPerTake(onRedis, options.takes / 5));
      } finally {
        client.destroy();
      }
    }
  } finally {
    for (const app of Object.values(apps)) await app?.close();
    await emulator.close();
    await redisServer?.stop();
  }

  const of = (runner: keyof typeof apps) => samples.filter((s) => s.runner === runner);
  const rps = (runner: keyof typeof apps) => median(of(runner).map((s) => s.result.requestsPerSecond));
  const cpu = (runner: keyof typeof apps) => median(of(runner).map((s) => s.cpu));
  const p50 = (runner: keyof typeof apps) => median(of(runner).map((s) => s.result.latencyMs.p50));
  const ratios = (runner: keyof typeof apps) =>
    Array.from({ length: rounds }, (_, i) => {
      const pick = (r: keyof typeof apps) => of(r).find((s) => s.round === i + 1)?.result.requestsPerSecond ?? NaN;
      return pick(runner) / pick('off');
    });
  const cpuRatios = (runner: keyof typeof apps) =>
    Array.from({ length: rounds }, (_, i) => {
      const pick = (r: keyof typeof apps) => of(r).find((s) => s.round === i + 1)?.cpu ?? NaN;
      return pick(runner) / pick('off');
    });
  const summary = (runner: keyof typeof apps) => ({
    sendsPerSecond: rps(runner),
    p50Ms: p50(runner),
    appCpuMicrosPerSend: cpu(runner),
    perRound: of(runner).map((s) => s.result.requestsPerSecond),
  });

  const rows: BenchRow[] = [];
  const memoryRow = row({
    id: 'limits.memory',
    title: 'send with limits, memory store',
    unit: 'µs app CPU/send',
    ours: cpu('memory'),
    baselineName: 'the same send route, limits: false',
    baseline: cpu('off'),
    // Within 5% of a send's CPU: the app's own CPU, which a busy neighbour skews least.
    target: { on: 'ratio', op: '<=', value: 1.05 },
    details: {
      sendsPerSecondRatio: median(ratios('memory')),
      perRoundCpuRatios: cpuRatios('memory'),
      connections,
      sendsPerSample: sends,
      rounds,
      perRoundRatios: ratios('memory'),
      memory: summary('memory'),
      off: summary('off'),
      cpuCostRatio: cpu('off') / cpu('memory'),
      addedAppCpuMicrosPerSend: cpu('memory') - cpu('off'),
      takeMicros: median(takes.memory),
      note: 'takeMicros: SendLimiter#take (one IP, one new destination) alone, in process, awaited one by one',
    },
  });
  memoryRow.ratio = median(cpuRatios('memory'));
  memoryRow.met = memoryRow.ratio <= 1.05;
  rows.push(memoryRow);

  if (apps.redis) {
    const redisRow = row({
      id: 'limits.redis',
      title: 'send with limits, Redis store',
      unit: 'µs app CPU/send',
      ours: cpu('redis'),
      baselineName: 'the same send route, limits: false',
      baseline: cpu('off'),
      target: { on: 'ratio', op: '<=', value: 1.05 },
      details: {
        sendsPerSecondRatio: median(ratios('redis')),
        perRoundCpuRatios: cpuRatios('redis'),
        perRoundRatios: ratios('redis'),
        redis: summary('redis'),
        addedP50Ms: p50('redis') - p50('off'),
        addedAppCpuMicrosPerSend: cpu('redis') - cpu('off'),
        takeMicros: median(takes.redis),
        note: 'a local redis-server on loopback: one script call per send (IP, destination and pair); takeMicros alone, in process',
      },
    });
    redisRow.ratio = median(cpuRatios('redis'));
    redisRow.met = redisRow.ratio <= 1.05;
    rows.push(redisRow);
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await runLimitsBench();
  printTable(rows);
  for (const r of rows) console.log(r.id, JSON.stringify(r.details));
}
