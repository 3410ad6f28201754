/**
 * autocannon as the load generator, with latencies recorded from its 'response' event in
 * microseconds (its own histogram keeps whole milliseconds, too coarse for a guard's cost).
 */
import autocannon from 'autocannon';
import { collectGarbage } from './gc.js';
import { percentile } from './stats.js';

export interface CannonResult {
  requestsPerSecond: number;
  /** Every response, by status class. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p99: number; mean: number };
  seconds: number;
}

export interface CannonOptions {
  url: string;
  connections: number;
  /** Stop after this many requests; otherwise after `seconds`. */
  amount?: number;
  seconds?: number;
  /** Called for every request: returns the path and cookie to send (and a JSON body, to POST it). */
  next?: () => { path: string; cookie?: string; json?: unknown };
  headers?: Record<string, string>;
  /**
   * Requests per second over all connections (autocannon's `overallRate`), instead of each
   * connection asking again as soon as it is answered: both apps of a pair then get the same
   * arrivals, whatever their speed.
   */
  rate?: number;
}

export async function cannon(options: CannonOptions): Promise<CannonResult> {
  const latencies: number[] = [];
  const next = options.next;
  const opts = {
    url: options.url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 5 }),
    headers: options.headers ?? {},
    ...(options.rate !== undefined ? { overallRate: options.rate } : {}),
    // Time-boxed whatever happens: a stuck request gives up after 60 s. (10 s was too short for
    // the first, cold requests on a 2-core machine at load 16: a few of them timed out.)
    timeout: 60,
    requests: next
      ? [
          {
            setupRequest: (req: autocannon.Request) => {
              const { path, cookie, json } = next();
              const headers = { ...(req.headers ?? {}), ...(cookie ? { cookie } : {}) };
              if (json === undefined) return { ...req, path, headers };
              const body = JSON.stringify(json);
              return {
                ...req,
                path,
                method: 'POST',
                body,
                headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
              };
            },
          },
        ]
      : undefined,
  } as autocannon.Options;
  collectGarbage();
  // Timed here: with `amount`, autocannon's own duration ends on its 1 s sampling tick.
  const t0 = performance.now();
  let last = t0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(opts, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
      last = performance.now();
    });
  });
  const statuses: Record<string, number> = {};
  for (const cls of ['1xx', '2xx', '3xx', '4xx', '5xx'] as const) {
    const count = (result as unknown as Record<string, number>)[cls] ?? 0;
    if (count > 0) statuses[cls] = count;
  }
  const completed = latencies.length;
  const seconds = (last - t0) / 1000;
  return {
    requestsPerSecond: completed / seconds,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      mean: latencies.reduce((a, b) => a + b, 0) / Math.max(1, completed),
    },
    seconds,
  };
}
