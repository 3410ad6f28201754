/**
 * The memory send-limit table under a flood: 1,000,000 sends from 100,000 addresses, each to a
 * destination of its own (three new counts a send: the worst case for the table), through
 * `SendLimiter` with its defaults (250,000 counts, 20 per IP and 5 per destination in 15
 * minutes). Within the flood, every 1,000th send:
 *   - a real visitor never seen before (an address and a destination of their own) asks once;
 *   - one flooding address sends too: refused after its 20, it must stay refused;
 *   - a flooding address sends to one bombed inbox: capped at 15 (3 x 5), it must stay capped.
 * All on one still clock (nothing expires: the hardest case for a bounded table). Prints the
 * counts, the memory the process holds after full GCs (heap and typed arrays) against before,
 * and the time.
 *
 * Run: npm run bench:flood [-- --sends N --addresses N]
 */
import { parseArgs } from 'node:util';
import { SendLimiter } from '../src/limits/SendLimiter.js';
import type { SendDecision } from '../src/limits/SendLimiter.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:flood does)');
const MB = 1024 * 1024;
const settle = () => {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage();
};

const { values } = parseArgs({
  options: { sends: { type: 'string', default: '1000000' }, addresses: { type: 'string', default: '100000' } },
});
const sends = Number(values.sends);
const addresses = Number(values.addresses);

const clock = { now: 1_800_000_000_000 };
const limiter = new SendLimiter({}, undefined, () => clock.now);
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const refusedBy: Record<string, number> = {};
const count = (d: SendDecision) => {
  const key = d.allowed ? 'allowed' : d.by;
  refusedBy[key] = (refusedBy[key] ?? 0) + 1;
  return d;
};

await limiter.take('203.0.113.1', ['warm@bench.example']);
const before = settle();
const started = performance.now();
let visitorsServed = 0;
let visitors = 0;
let flooderAllowed = 0;
let flooderTries = 0;
let inboxSent = 0;
let peakMB = 0;
for (let i = 0; i < sends; i++) {
  count(await limiter.take(address(i % addresses), [`flood-${i}@bench.example`]));
  if (i % 1_000 === 999) {
    visitors += 1;
    const visitor = await limiter.take(
      `2001:db8:${(visitors >> 16).toString(16)}:${(visitors & 0xffff).toString(16)}::1`,
      [`person-${visitors}@example.com`],
    );
    if (visitor.allowed) visitorsServed += 1;
    flooderTries += 1;
    if ((await limiter.take('198.51.100.66', [`flooder-${i}@bench.example`])).allowed) flooderAllowed += 1;
    if ((await limiter.take(address(i % addresses), ['bombed@example.com'])).allowed) inboxSent += 1;
  }
  if (i % 100_000 === 99_999) peakMB = Math.max(peakMB, process.memoryUsage().arrayBuffers / MB);
}
const ms = performance.now() - started;
const after = settle();
console.log(
  JSON.stringify(
    {
      sends,
      addresses,
      floodAnswers: refusedBy,
      realVisitors: `${visitorsServed} of ${visitors} served`,
      flooder: `${flooderAllowed} of ${flooderTries} tries allowed (its budget is 20)`,
      bombedInbox: `${inboxSent} messages (cap 15)`,
      arrayBuffersMB: Number(((after.arrayBuffers - before.arrayBuffers) / MB).toFixed(2)),
      arrayBuffersPeakMB: Number(peakMB.toFixed(2)),
      heapUsedMB: Number(((after.heapUsed - before.heapUsed) / MB).toFixed(2)),
      seconds: Number((ms / 1000).toFixed(1)),
      sendsPerSecond: Math.round((sends * 1.003) / (ms / 1000)),
    },
    null,
    2,
  ),
);
