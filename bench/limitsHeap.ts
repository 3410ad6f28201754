/**
 * `SendLimiter` alone, memory store: what 20,000 sends to distinct addresses from one IP leave
 * behind, after full GCs: the heap (`heapUsed`) and the typed arrays' buffers (`arrayBuffers`,
 * where the memory store keeps its table), against the same process before the sends.
 *
 * Run: node --expose-gc --import tsx bench/limitsHeap.ts [sends]
 */
import { SendLimiter } from '../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MB = 1024 * 1024;
const settle = () => {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage();
};

const sends = Number(process.argv[2] ?? 20_000);
// The IP's budget roomy, so every send is counted; the destinations' as by default.
const limiter = new SendLimiter({ perIp: { limit: 1_000_000, windowSeconds: 900 } });
await limiter.take('203.0.113.9', ['warm@bench.example']);
const before = settle();
for (let i = 0; i < sends; i++) {
  const decision = await limiter.take('203.0.113.9', [`heap-${i}@bench.example`]);
  if (!decision.allowed) throw new Error('a roomy budget refused a send');
}
const after = settle();
console.log(
  JSON.stringify({
    sends,
    heapUsedMB: Number(((after.heapUsed - before.heapUsed) / MB).toFixed(2)),
    arrayBuffersMB: Number(((after.arrayBuffers - before.arrayBuffers) / MB).toFixed(2)),
  }),
);
