/**
 * What the events cost when nobody listens: every publish site checks `hasSubscribers` first,
 * and the client checks `tracingServiceCalls()` before each call. This times those checks, in
 * the numbers one login makes (a send, a verify and a secure-info call, a link-sent, a
 * login-succeeded and a guard-verdict site), against the same loop without them; the row's
 * baseline is one real login callback's CPU (measured by `bench/login.ts` in the same run when
 * run through `npm run bench`, else the committed figure).
 */
import { channels, tracingServiceCalls } from '../src/diagnostics.js';
import { row, type BenchRow } from './support/report.js';
import { median } from './support/stats.js';

export const EVENTS_BENCH_DEFAULTS = { logins: 2_000_000, rounds: 7 };
export type EventsBenchOptions = typeof EVENTS_BENCH_DEFAULTS;

/** The checks of one login with nobody listening; returns a count so the loop is not optimised away. */
function oneLogin(): number {
  let n = 0;
  if (tracingServiceCalls()) n++; // send
  if (channels.linkSent.hasSubscribers) n++;
  if (tracingServiceCalls()) n++; // verify
  if (tracingServiceCalls()) n++; // secure-info
  if (channels.loginSucceeded.hasSubscribers) n++;
  if (channels.guardVerdict.hasSubscribers) n++;
  return n;
}

function emptyLogin(i: number): number {
  return i & 1;
}

export function runEventsBench(
  options: EventsBenchOptions,
  log: (line: string) => void,
  loginMicros = 450,
): BenchRow[] {
  log(
    `events: ${options.rounds} rounds x ${options.logins.toLocaleString('en')} logins' worth of checks, nobody listening`,
  );
  const perLogin: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    let sink = 0;
    let t = performance.now();
    for (let i = 0; i < options.logins; i++) sink += oneLogin();
    const withChecks = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < options.logins; i++) sink += emptyLogin(i);
    const without = performance.now() - t;
    if (sink < 0) log('unreachable');
    perLogin.push(((withChecks - without) * 1e6) / options.logins); // ns per login
  }
  const ns = Math.max(0, median(perLogin));
  return [
    row({
      id: 'events-idle-cost',
      title: 'events: cost per login when nobody listens',
      unit: 'ns',
      ours: ns,
      baselineName: 'one login callback (ns)',
      baseline: loginMicros * 1000,
      // "Within noise": well under 0.1% of a login.
      target: { on: 'ratio', op: '<', value: 0.001 },
      details: { perRoundNs: perLogin, checksPerLogin: 6 },
    }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [r] = runEventsBench(EVENTS_BENCH_DEFAULTS, (l) => console.log(l));
  console.log(
    `${r!.title}: ${r!.ours.toFixed(1)} ns per login, ${(r!.ratio * 100).toFixed(4)} % of a ${r!.baseline / 1000} µs login`,
  );
}
