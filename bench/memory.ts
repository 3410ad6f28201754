/**
 * Memory: heap of the app process (after full GCs) after 1,000, 10,000 and 20,000 real logins,
 * and of the emulator process, whose store is capped (maxLogins 10,000, maxOutbox 1,000) and
 * swept of expired entries. Store sizes are probed from outside: a sample of the logins' session
 * tokens is asked for through get-session-details (held, expired, or forgotten), before and
 * after the emulator's clock is moved past every expiry. The pending requests of the strategy
 * live in the session cookie, capped per session: measured as the cookie after 1 and 10 sends.
 */
import { Agent, request } from 'undici';
import { isOtplessError } from '../src/index.js';
import { OtplessClient } from '../src/client/index.js';
import { CLIENT } from '../test/helpers/harness.js';
import { startEmulatorProcess, type EmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { completeLogins, CookieJar, prepareLogins, startApp, type App } from './support/flows.js';
import { row, type BenchRow } from './support/report.js';

export interface MemoryBenchOptions {
  checkpoints: number[];
  sampleEvery: number;
}

export const MEMORY_BENCH_DEFAULTS: MemoryBenchOptions = { checkpoints: [1_000, 10_000, 20_000], sampleEvery: 100 };

const MB = 1024 * 1024;

type Probe = { held: number; expired: number; forgotten: number };

/** Asks get-session-details about each sampled login: held (200), expired (7301) or forgotten (7114). */
async function probe(client: OtplessClient, sessionTokens: string[]): Promise<Probe> {
  const out: Probe = { held: 0, expired: 0, forgotten: 0 };
  for (const token of sessionTokens) {
    try {
      await client.getSessionDetails(token);
      out.held++;
    } catch (err) {
      if (isOtplessError(err, 'API_ERROR') && err.errorCode === '7301') out.expired++;
      else if (isOtplessError(err, 'API_ERROR') && err.errorCode === '7114') out.forgotten++;
      else throw err;
    }
  }
  return out;
}

/** The pending requests in a cookie-session cookie (base64 JSON), and the cookie's size. */
function pendingInCookie(jar: CookieJar): { pending: number; cookieBytes: number } {
  const value = jar.get('sess') ?? '';
  const session = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as { otplessPending?: unknown[] };
  return { pending: session.otplessPending?.length ?? 0, cookieBytes: Buffer.byteLength(jar.header()) };
}

async function pendingStore(app: App, agent: Agent): Promise<Record<string, { pending: number; cookieBytes: number }>> {
  const jar = new CookieJar();
  const out: Record<string, { pending: number; cookieBytes: number }> = {};
  for (let i = 1; i <= 10; i++) {
    const res = await request(`${app.ready.url}/auth/magic-link`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', cookie: jar.header() },
      body: JSON.stringify({ email: `pending-${i}@example.com` }),
    });
    jar.take(res.headers['set-cookie']);
    await res.body.dump();
    if (i === 1 || i === 5 || i === 10) out[`after${i}Sends`] = pendingInCookie(jar);
  }
  return out;
}

export async function runMemoryBench(
  options: MemoryBenchOptions = MEMORY_BENCH_DEFAULTS,
  log: (line: string) => void = console.log,
): Promise<BenchRow[]> {
  const emulator: EmulatorProcess = await startEmulatorProcess({
    emulator: { clients: [CLIENT], quiet: true },
    exposeGc: true,
  });
  const app = await startApp(
    { mode: 'strategy', authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
    { exposeGc: true },
  );
  const client = new OtplessClient({ ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl });
  const agent = new Agent({ connections: 64 });
  const heaps: Record<number, { app: number; appArrayBuffers: number; emulator: number; outbox: number }> = {};
  const sampled: string[] = [];
  let done = 0;
  let probes: { atEnd: Probe; afterSweep: Probe };
  let afterSweepHeap: number;
  let pending: Record<string, { pending: number; cookieBytes: number }>;
  const started = performance.now();
  try {
    log(`memory: ${options.checkpoints.at(-1)} logins, heap after GC at ${options.checkpoints.join(', ')}`);
    for (const checkpoint of options.checkpoints) {
      while (done < checkpoint) {
        // Prepared and completed in chunks: a prepared login must not age out of the capped store.
        const chunk = await prepareLogins(app.ready.url, emulator, Math.min(1_000, checkpoint - done), agent);
        await completeLogins(app.ready.url, chunk, agent);
        chunk.forEach((login, i) => {
          if ((done + i) % options.sampleEvery === 0) sampled.push(login.sessionToken);
        });
        done += chunk.length;
      }
      heaps[checkpoint] = {
        app: (await app.call<number>('heapUsed')) / MB,
        // After the GCs of heapUsed: what the app holds in typed arrays (the limits' table).
        appArrayBuffers: (await app.call<number>('arrayBuffers')) / MB,
        emulator: ((await emulator.heapUsed()) ?? 0) / MB,
        outbox: await emulator.outboxSize(),
      };
    }
    const atEnd = await probe(client, sampled);
    // Past every expiry and the sweep grace (1 h): the next write sweeps.
    await emulator.advanceTime(3 * 60 * 60 * 1000);
    await completeLogins(app.ready.url, await prepareLogins(app.ready.url, emulator, 1, agent), agent);
    probes = { atEnd, afterSweep: await probe(client, sampled) };
    afterSweepHeap = ((await emulator.heapUsed()) ?? 0) / MB;
    pending = await pendingStore(app, agent);
  } finally {
    await client.close();
    await agent.close();
    await app.close();
    await emulator.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const [first, middle, last] = options.checkpoints as [number, number, number];
  const h = (n: number) => heaps[n] as { app: number; appArrayBuffers: number; emulator: number; outbox: number };
  return [
    row({
      id: 'memory.app',
      title: `app heap after ${last / 1000}k vs ${first / 1000}k logins`,
      unit: 'MB',
      ours: h(last).app,
      baselineName: `after ${first.toLocaleString('en')} logins`,
      baseline: h(first).app,
      // Flat: within 1 MB of the heap after the first checkpoint.
      target: { on: 'difference', op: '<=', value: 1 },
      details: {
        heapsMB: heaps,
        growthMB: h(last).app - h(first).app,
        growthFromMiddleMB: h(last).app - h(middle).app,
        arrayBuffersGrowthMB: h(last).appArrayBuffers - h(first).appArrayBuffers,
        logins: last,
        seconds,
        loginsPerSecond: last / seconds,
      },
    }),
    row({
      id: 'memory.emulator',
      title: `emulator heap after ${last / 1000}k vs ${middle / 1000}k logins`,
      unit: 'MB',
      ours: h(last).emulator,
      baselineName: `after ${middle.toLocaleString('en')} (store cap reached)`,
      baseline: h(middle).emulator,
      target: { on: 'ratio', op: '<=', value: 1.1 },
      details: {
        heapsMB: heaps,
        afterSweepMB: afterSweepHeap,
        sampledLogins: sampled.length,
        probeAtEnd: probes.atEnd,
        probeAfterClockPlus3hAndOneWrite: probes.afterSweep,
        outboxEntries: Object.fromEntries(Object.entries(heaps).map(([n, v]) => [n, v.outbox])),
        limits: { maxLogins: 10_000, maxOutbox: 1_000 },
        pendingRequestsInSessionCookie: pending,
      },
    }),
  ];
}
