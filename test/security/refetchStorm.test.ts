import diagnostics from 'node:diagnostics_channel';
import { setTimeout as sleep } from 'node:timers/promises';
import type express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requireLowRisk } from '../../src/index.js';
import type { RiskAuditEvent } from '../../src/index.js';
import { loginVia } from '../helpers/harness.js';
import type { Harness } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// Finding 9 of issue #12: `requireLowRisk({ client, maxAgeMs })` made one secure-info call per
// request of a stale session, and kept doing so while the service failed. Now concurrent
// refetches of one session share one call, and after a failure that session makes no call
// for `refetchBackoffMs` (30 s by default), during which `staleAction` applies.
const { harness } = useSharedEmulator();
const SECURE_INFO = '/auth/v1/secure-info';

// Counted where every undici request is announced (as an APM agent would see it): the real
// client's real calls, not a stand-in.
const calls: string[] = [];
const onRequest = (message: unknown) => {
  const { request } = message as { request: { origin: string; path: string } };
  if (request.path.startsWith(SECURE_INFO)) calls.push(request.origin);
};
beforeAll(() => diagnostics.subscribe('undici:request:create', onRequest));
afterAll(() => diagnostics.unsubscribe('undici:request:create', onRequest));

interface RefetchApp extends Harness {
  events: RiskAuditEvent[];
  /** secure-info calls since this app started. */
  calls(): number;
}

/** express-session (the token is kept), routes whose signals are always stale. */
async function refetchApp(): Promise<RefetchApp> {
  const events: RiskAuditEvent[] = [];
  const ref: { client?: Harness['strategy']['client'] } = {};
  const guard = (options: Parameters<typeof requireLowRisk>[0]) => {
    let built: ReturnType<typeof requireLowRisk> | undefined;
    return (req: express.Request, res: express.Response, next: express.NextFunction) => {
      built ??= requireLowRisk({ audit: (e) => events.push(e), maxAgeMs: 1, client: ref.client, ...options });
      built(req, res, next);
    };
  };
  const h = await harness({
    session: 'express',
    strategy: { enrich: ['secureInfo'] },
    routes: (app) => {
      const ok = (_req: express.Request, res: express.Response) => res.json({ ok: true });
      app.get('/stale', guard({}), ok);
      app.get('/also-stale', guard({ policy: { vpn: 'block' } }), ok);
      app.get('/short-backoff', guard({ refetchBackoffMs: 300 }), ok);
      app.get('/minute', guard({ maxAgeMs: 60_000 }), ok);
    },
  });
  ref.client = h.strategy.client;
  const start = calls.length;
  return Object.assign(h, { events, calls: () => calls.length - start });
}

async function staleLogin(h: RefetchApp, email: string) {
  const browser = h.browser();
  expect((await loginVia(h, browser, { email }, 'clean')).status).toBe(302);
  await sleep(5); // older than maxAgeMs: 1
  return browser;
}

/** How long the refetch is held while a burst arrives: far longer than a burst takes. */
const HOLD_MS = 2_000;

const burst = (n: number, get: () => PromiseLike<{ status: number }>) =>
  Promise.all(Array.from({ length: n }, get)).then((all) => all.map((r) => r.status));

describe('refetches of stale signals', () => {
  it('20 concurrent requests of one session make one secure-info call', async () => {
    const h = await refetchApp();
    const browser = await staleLogin(h, 'burst@example.com');
    const before = h.calls();
    // The call is held 2 s, far longer than the burst takes to arrive, so all of it arrives
    // while the call is in flight, however busy the machine.
    h.emulator.fault({ path: SECURE_INFO, delayMs: HOLD_MS });
    const statuses = await burst(20, () => browser.get('/stale').set('accept', 'application/json'));
    expect(statuses).toEqual(Array(20).fill(200));
    expect(h.calls() - before).toBe(1);
    expect(h.events.filter((e) => e.refreshed)).toHaveLength(20);
  });

  it('signals read again are kept in the session: its next request makes no call', async () => {
    const h = await refetchApp();
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'kept@example.com' }, 'clean')).status).toBe(302);
    const loggedAt = (await browser.get('/me')).body.record.risk.at as number;
    const realNow = Date.now;
    Date.now = () => realNow() + 120_000; // the login's signals are now 2 minutes old
    try {
      const before = h.calls();
      expect((await browser.get('/minute').set('accept', 'application/json')).status).toBe(200);
      expect(h.calls() - before).toBe(1);
      expect((await browser.get('/minute').set('accept', 'application/json')).status).toBe(200);
      expect(h.calls() - before).toBe(1);
      expect((await browser.get('/me')).body.record.risk).toMatchObject({ action: 'allow' });
      expect((await browser.get('/me')).body.record.risk.at).toBeGreaterThanOrEqual(loggedAt + 120_000);
    } finally {
      Date.now = realNow;
    }
  });

  it('guards of different routes (and policies) share the call of one session', async () => {
    const h = await refetchApp();
    const browser = await staleLogin(h, 'share@example.com');
    const before = h.calls();
    h.emulator.fault({ path: SECURE_INFO, delayMs: HOLD_MS });
    let i = 0;
    await burst(10, () => browser.get(i++ % 2 ? '/stale' : '/also-stale').set('accept', 'application/json'));
    expect(h.calls() - before).toBe(1);
  });

  it('a failed refetch is shared too, and the session makes no call during the back-off', async () => {
    const h = await refetchApp();
    const browser = await staleLogin(h, 'outage@example.com');
    const before = h.calls();
    h.emulator.fault({ path: SECURE_INFO, status: 500, delayMs: HOLD_MS });
    const statuses = await burst(20, () => browser.get('/stale').set('accept', 'application/json'));
    expect(statuses).toEqual(Array(20).fill(403));
    expect(h.calls() - before).toBe(1);

    // The service is fine again, but this session waits out its back-off: no call, staleAction.
    for (let n = 0; n < 5; n++) {
      const res = await browser.get('/stale').set('accept', 'application/json');
      expect(res.body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
    }
    expect(h.calls() - before).toBe(1);
    expect(h.events.at(-1)).toMatchObject({ stale: true, refreshed: false, action: 'challenge' });

    // Another session is not held back by this one's failure.
    const other = await staleLogin(h, 'outage-other@example.com');
    expect((await other.get('/stale').set('accept', 'application/json')).status).toBe(200);
  });

  it('after the back-off the next request refetches again', async () => {
    const h = await refetchApp();
    const browser = await staleLogin(h, 'backoff@example.com');
    const before = h.calls();
    // The clock stands still from here (only Date: sockets and timers run), so the second
    // request is inside the 300 ms back-off however slowly it arrives; then it moves 350 ms.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      h.emulator.fault({ path: SECURE_INFO, status: 500 });
      expect((await browser.get('/short-backoff').set('accept', 'application/json')).status).toBe(403);
      expect((await browser.get('/short-backoff').set('accept', 'application/json')).status).toBe(403);
      expect(h.calls() - before).toBe(1);
      vi.setSystemTime(Date.now() + 350);
      expect((await browser.get('/short-backoff').set('accept', 'application/json')).status).toBe(200);
      expect(h.calls() - before).toBe(2);
      expect(h.events.at(-1)).toMatchObject({ refreshed: true, stale: false });
    } finally {
      vi.useRealTimers();
    }
  });

  it('checks refetchBackoffMs when the route is set up', () => {
    for (const bad of [-1, Number.NaN, 'soon']) {
      expect(() => requireLowRisk({ refetchBackoffMs: bad as never })).toThrow(/options\.refetchBackoffMs/);
    }
  });
});
