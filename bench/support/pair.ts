/**
 * Paired rounds of two apps under test: each round prepares fresh logins for both, then loads
 * them one after the other (order alternated) or at the same time (`together`), and records
 * each app's own CPU per login, logins/s and latency. The first rounds are warm-up rounds run
 * exactly like the measured ones and discarded (a round run cold, or after a warm-up done
 * differently, costs one side far more than the next ones), and every figure comes with its
 * per-round range, so a reader sees how far the rounds agree.
 */
import type { Child } from './child.js';
import { cannon } from './cannon.js';
import { appCpuMicros } from './flows.js';
import { median, percentile } from './stats.js';

/** One request of a timed login: its path (with query) and the browser's cookie. */
export interface LoginRequest {
  path: string;
  cookie?: string;
}

export interface PairSide {
  /** How the row names this app. */
  label: string;
  app: Child<{ url: string }>;
  /** `count` fresh logins (single use: each is spent by its callback), made before the clock starts. */
  prepare(count: number): Promise<LoginRequest[]>;
}

export interface SideSample {
  /** The app process's own CPU (user + system) per login, µs. */
  cpu: number;
  /** Logins per second as the load generator saw them. */
  rps: number;
  p50: number;
  p99: number;
}

export interface PairRound {
  a: SideSample;
  b: SideSample;
}

export interface PairOptions {
  logins: number;
  connections: number;
  rounds: number;
  /** Rounds run like the measured ones, then discarded. */
  warmupRounds: number;
  together: boolean;
  /**
   * Logins per second offered to each app (`cannon`'s `rate`); unset, each connection asks again
   * once answered. A process's CPU per request falls as requests arrive closer together (more
   * of them per turn of its event loop), so under a closed loop the slower app also gets the
   * sparser arrivals and looks slower still: at one rate both get the same arrivals.
   */
  rate?: number;
  log?: (line: string) => void;
}

/** Fires one request per prepared login and checks every one ended in a redirect (logged in). */
export async function sampleSide(
  side: PairSide,
  count: number,
  prepared: LoginRequest[],
  connections: number,
  rate?: number,
) {
  let next = 0;
  const before = await appCpuMicros(side.app);
  const result = await cannon({
    url: side.app.ready.url,
    connections,
    amount: count,
    // As a browser asks: the mount answers a client without Accept as a JSON client.
    headers: { accept: 'text/html' },
    // autocannon may build a request or two beyond `amount`: spare logins cover them.
    next: () => prepared[next++ % prepared.length] as LoginRequest,
    ...(rate !== undefined ? { rate } : {}),
  });
  if (result.statuses['3xx'] !== count || result.errors > 0 || result.timeouts > 0)
    throw new Error(
      `${side.label}: not every login logged in: ${JSON.stringify(result.statuses)}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  const cpu = ((await appCpuMicros(side.app)) - before) / count;
  return { cpu, rps: result.requestsPerSecond, p50: result.latencyMs.p50, p99: result.latencyMs.p99 } as SideSample;
}

export async function runPairs(a: PairSide, b: PairSide, options: PairOptions): Promise<PairRound[]> {
  const { logins, connections, rounds, warmupRounds, together, rate } = options;
  const log = options.log ?? console.log;
  const measured: PairRound[] = [];
  for (let round = 1 - warmupRounds; round <= rounds; round++) {
    // Spares: autocannon may start a request or two past `amount`.
    const [forA, forB] = [await a.prepare(logins + connections), await b.prepare(logins + connections)];
    let got: PairRound;
    if (together) {
      const [sa, sb] = await Promise.all([
        sampleSide(a, logins, forA, connections, rate),
        sampleSide(b, logins, forB, connections, rate),
      ]);
      got = { a: sa, b: sb };
    } else if (round % 2) {
      const sa = await sampleSide(a, logins, forA, connections, rate);
      got = { a: sa, b: await sampleSide(b, logins, forB, connections, rate) };
    } else {
      const sb = await sampleSide(b, logins, forB, connections, rate);
      got = { a: await sampleSide(a, logins, forA, connections, rate), b: sb };
    }
    log(
      `${round < 1 ? 'warm-up' : `round ${round}`}: app CPU µs per login ${got.a.cpu.toFixed(0)} (${a.label}), ` +
        `${got.b.cpu.toFixed(0)} (${b.label}): ${(got.b.cpu / got.a.cpu).toFixed(3)}; logins/s ${got.a.rps.toFixed(0)} / ${got.b.rps.toFixed(0)}`,
    );
    if (round >= 1) measured.push(got);
  }
  return measured;
}

/** A figure over the rounds: its median and per-round range. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** What a row reports of paired rounds: b against a, medians of per-round ratios and their ranges. */
export function summarize(rounds: readonly PairRound[]) {
  const side = (pick: (r: PairRound) => SideSample) => ({
    cpuMicrosPerLogin: spread(rounds.map((r) => pick(r).cpu)),
    loginsPerSecond: spread(rounds.map((r) => pick(r).rps)),
    p50Ms: median(rounds.map((r) => pick(r).p50)),
    p99Ms: percentile(
      rounds.map((r) => pick(r).p99),
      50,
    ),
  });
  return {
    rounds: rounds.length,
    a: side((r) => r.a),
    b: side((r) => r.b),
    /** b's CPU per login over a's, per round. */
    cpuRatio: spread(rounds.map((r) => r.b.cpu / r.a.cpu)),
    /** b's logins/s over a's, per round. */
    rpsRatio: spread(rounds.map((r) => r.b.rps / r.a.rps)),
  };
}

export const fmtSpread = (s: Spread, digits = 3) =>
  `${s.median.toFixed(digits)} (rounds ${s.min.toFixed(digits)} to ${s.max.toFixed(digits)})`;
