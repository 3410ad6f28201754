/**
 * Cross-device handoff: how fast a phone's approval signs the laptop in, and what waiting flows
 * cost. Runs in one process against the emulator over real sockets, with the memory store and,
 * where redis-server is installed, a real Redis (`RedisFlowStore`).
 *
 * - latency: the laptop polls `strategy.status()` every POLL_MS (the demo's script does the same)
 *   and goes to the callback once approved; measured from the phone's approving POST to the
 *   laptop's signed-in answer. Target: p95 <= POLL_MS + 100 ms.
 * - throughput: prepared flows, approved on the phone and finished on the laptop, 16 at a time;
 *   baseline: the same logins finished in the asking browser itself (no handoff).
 * - heap: 10,000 waiting flows in a `MemoryFlowStore`.
 */
import { createClient } from 'redis';
import { Handoff } from '../src/flow/handoff.js';
import { StoreSecrets } from '../src/flow/seal.js';
import { MemoryFlowStore, RedisFlowStore, type FlowStore } from '../src/index.js';
import { startEmulator } from '../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness } from '../test/helpers/harness.js';
import { hasRedisServer, startRedisServer } from '../test/helpers/redisServer.js';
import { collectGarbage } from './support/gc.js';
import { row, type BenchRow } from './support/report.js';
import { percentile } from './support/stats.js';

export const HANDOFF_BENCH_DEFAULTS = { flows: 60, concurrency: 12, throughputFlows: 300, waitingFlows: 10_000 };
export type HandoffBenchOptions = typeof HANDOFF_BENCH_DEFAULTS;
const POLL_MS = 1000;

let counter = 0;
async function prepare(h: Harness) {
  const email = `handoff-${counter++}@bench.test`;
  const laptop = h.browser();
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  if (sent.status !== 200) throw new Error(`send answered ${sent.status}`);
  const callback = await clickLink(lastLinkTo(h.emulator, email));
  return { laptop, match: sent.body.match as string, callback, phone: h.browser() };
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function latency(h: Harness, flows: number, concurrency: number): Promise<number[]> {
  const samples: number[] = [];
  await pool([...Array(flows).keys()], concurrency, async () => {
    const f = await prepare(h);

    const signedIn = new Promise<number>((resolve, reject) => {
      const poll = async () => {
        const { body } = await f.laptop.get('/auth/status');
        if (body.status === 'approved') {
          const done = await f.laptop.get('/auth/callback');
          if (done.status !== 302) return reject(new Error(`callback answered ${done.status}`));
          return resolve(performance.now());
        }
        setTimeout(() => poll().catch(reject), POLL_MS);
      };
      setTimeout(() => poll().catch(reject), POLL_MS);
    });
    // The person approves at a random moment between two polls.
    await new Promise((r) => setTimeout(r, Math.random() * POLL_MS));
    const approvedAt = performance.now();
    const res = await f.phone.post(f.callback).type('form').send({ match: f.match });
    if (res.status !== 200) throw new Error(`approval answered ${res.status}`);
    samples.push((await signedIn) - approvedAt);
  });
  return samples;
}

async function throughput(h: Harness, flows: number, handoff: boolean): Promise<number> {
  const prepared = [];
  for (let i = 0; i < flows; i++) prepared.push(await prepare(h));
  const started = performance.now();
  await pool(prepared, 16, async (f) => {
    if (handoff) {
      await f.phone.post(f.callback).type('form').send({ match: f.match });
      const done = await f.laptop.get('/auth/callback');
      if (done.status !== 302) throw new Error(`callback answered ${done.status}`);
    } else {
      const done = await f.laptop.get(f.callback);
      if (done.status !== 302) throw new Error(`callback answered ${done.status}`);
    }
  });
  return flows / ((performance.now() - started) / 1000);
}

async function waitingHeap(count: number): Promise<number> {
  const store = new MemoryFlowStore();
  const handoff = new Handoff(store, new StoreSecrets('bench-store-secret-of-at-least-32-chars'));
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const id = `flow-${i}`.padEnd(22, 'x');
    await handoff.start(id, { expiresAt: now + 300_000, askedBy: { browser: 'Chrome', os: 'Windows', at: now } }, now);
  }
  collectGarbage();
  const bytes = process.memoryUsage().heapUsed - before;
  if (store.size !== count) throw new Error('flows missing');
  return bytes;
}

export async function runHandoffBench(options: HandoffBenchOptions, log: (line: string) => void): Promise<BenchRow[]> {
  const emulator = await startEmulator({ clients: [CLIENT], quiet: true, maxLogins: 100_000, maxOutbox: 100_000 });
  const stores: Array<{ name: string; store: () => Promise<{ store: FlowStore; close(): Promise<void> }> }> = [
    { name: 'memory', store: async () => ({ store: new MemoryFlowStore(), close: async () => undefined }) },
  ];
  if (hasRedisServer()) {
    stores.push({
      name: 'redis',
      store: async () => {
        const server = await startRedisServer();
        const client = createClient({ url: server.url });
        await client.connect();
        return {
          store: new RedisFlowStore({ client }),
          async close() {
            await client.quit();
            await server.stop();
          },
        };
      },
    });
  }
  const rows: BenchRow[] = [];
  try {
    for (const { name, store: makeStore } of stores) {
      const { store, close } = await makeStore();
      // Send limits off: every flow comes from 127.0.0.1, and this measures the handoff, not them.
      const h = await startHarness({ emulator, strategy: { store: store, limits: false } });
      try {
        log(`handoff (${name}): latency, ${options.flows} flows polled every ${POLL_MS} ms`);
        const samples = await latency(h, options.flows, options.concurrency);
        const p95 = percentile(samples, 95);
        rows.push(
          row({
            id: `handoff-latency-${name}`,
            title: `handoff: phone approves -> laptop signed in, p95 (${name} store)`,
            unit: 'ms',
            ours: p95,
            baselineName: 'poll interval',
            baseline: POLL_MS,
            target: { on: 'ours', op: '<=', value: POLL_MS + 100 },
            details: { p50: percentile(samples, 50), p95, max: Math.max(...samples), flows: samples.length },
          }),
        );
        log(`handoff (${name}): throughput, ${options.throughputFlows} flows`);
        const viaHandoff = await throughput(h, options.throughputFlows, true);
        const sameBrowser = await throughput(h, options.throughputFlows, false);
        rows.push(
          row({
            id: `handoff-throughput-${name}`,
            title: `handoff: approvals completed per second (${name} store)`,
            unit: '/s',
            ours: viaHandoff,
            baselineName: 'same-browser logins/s',
            baseline: sameBrowser,
            target: null,
            details: { flows: options.throughputFlows, concurrency: 16 },
          }),
        );
      } finally {
        await h.close();
        await close();
      }
    }
    log(`handoff: heap of ${options.waitingFlows} waiting flows (memory store)`);
    const bytes = await waitingHeap(options.waitingFlows);
    rows.push(
      row({
        id: 'handoff-heap',
        title: `handoff: heap of ${options.waitingFlows.toLocaleString('en')} waiting flows (MemoryFlowStore)`,
        unit: 'MB',
        ours: bytes / 1e6,
        baselineName: 'bytes per flow / 1000',
        baseline: bytes / options.waitingFlows / 1000,
        target: null,
        details: { bytesPerFlow: Math.round(bytes / options.waitingFlows) },
      }),
    );
  } finally {
    await emulator.close();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runHandoffBench(HANDOFF_BENCH_DEFAULTS, (l) => console.log(l));
  for (const r of rows)
    console.log(`${r.title}: ${r.ours.toFixed(1)} ${r.unit} (${r.baselineName} ${r.baseline.toFixed(1)})`, r.details);
}
