import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assessRisk, requireIdentity, requireLowRisk } from '../../src/index.js';
import type { GuardVerdict, RequireLowRiskOptions, RiskAuditEvent, SecureInfo } from '../../src/index.js';
import { buildLoginRecord, writeRecordOnLogin } from '../../src/session/loginRecord.js';
import { CLIENT, loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import type { Harness, HarnessOptions, SessionKind } from '../helpers/harness.js';
import diagnostics from 'node:diagnostics_channel';

const { harness } = useSharedEmulator();

interface GuardedApp extends Harness {
  events: RiskAuditEvent[];
}

/** An app with a guarded route `/guarded` (and `/strict`, `/observed` ...) behind a real login. */
async function guardedApp(
  guard: RequireLowRiskOptions = {},
  options: HarnessOptions & { session?: SessionKind } = {},
): Promise<GuardedApp> {
  const events: RiskAuditEvent[] = [];
  // The routes are set up before the strategy (and its client) exist: read it when called.
  const ref: { client?: Harness['strategy']['client'] } = {};
  const h = await harness({
    strategy: { enrich: ['validateToken', 'secureInfo'] },
    ...options,
    routes: (app) => {
      const audit = (e: RiskAuditEvent) => events.push(e);
      const ok = (req: express.Request, res: express.Response) => res.json({ ok: true, risk: req.risk?.action });
      app.get('/guarded', requireLowRisk({ audit, loginUrl: '/login', ...guard }), ok);
      app.get('/strict', requireLowRisk({ audit, policy: { vpn: 'block', incognito: 'challenge' } }), ok);
      app.get('/lenient', requireLowRisk({ audit, policy: { vpn: 'allow' } }), ok);
      app.get('/observed', requireLowRisk({ audit, observeOnly: true }), ok);
      app.get(
        '/refetching',
        (req, res, next) => requireLowRisk({ audit, maxAgeMs: 1, client: ref.client })(req, res, next),
        ok,
      );
      app.get('/needs-mobile', requireIdentity('MOBILE'), ok);
      app.get('/needs-email', requireIdentity('EMAIL'), ok);
      options.routes?.(app);
    },
  });
  ref.client = h.strategy.client;
  return Object.assign(h, { events });
}

const expected: Array<[string, 'allow' | 'challenge' | 'block', number]> = [
  ['clean', 'allow', 200],
  ['incognito', 'allow', 200],
  ['vpn', 'challenge', 403],
  ['bot', 'block', 403],
  ['emulator', 'block', 403],
  ['tampering', 'block', 403],
  ['missing', 'block', 403],
];

describe('requireLowRisk() through a real login, per risk scenario', () => {
  it.each(expected)('%s -> %s (JSON client)', async (risk, action, status) => {
    const h = await guardedApp();
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: `${risk}@example.com` }, risk)).status).toBe(302);
    const res = await browser.get('/guarded').set('accept', 'application/json');
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body).toEqual({ ok: true, risk: 'allow' });
    else expect(res.body).toEqual({ error: { code: action === 'block' ? 'RISK_BLOCKED' : 'RISK_CHALLENGE' } });
    const event = h.events.at(-1)!;
    expect(event).toMatchObject({ guard: 'requireLowRisk', userId: expect.any(String), route: 'GET /guarded', action });
    if (action !== 'allow') expect(event.reasons.length).toBeGreaterThan(0);
  });

  it.each(expected.filter(([, a]) => a !== 'allow'))(
    '%s -> a friendly page for a browser, without reasons',
    async (risk) => {
      const h = await guardedApp();
      const browser = h.browser();
      await loginVia(h, browser, { email: `${risk}-html@example.com` }, risk);
      const res = await browser.get('/guarded').set('accept', 'text/html');
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toMatch(/<h1>/);
      for (const word of ['vpn', 'bot', 'emulator', 'tampering', 'missing', 'publicVPN']) {
        expect(res.text.toLowerCase()).not.toContain(word.toLowerCase());
      }
    },
  );

  it('works the same with express-session', async () => {
    const h = await guardedApp({}, { session: 'express' });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'es@example.com' }, 'vpn');
    expect((await browser.get('/guarded').set('accept', 'application/json')).status).toBe(403);
    const clean = h.browser();
    await loginVia(h, clean, { email: 'es2@example.com' }, 'clean');
    expect((await clean.get('/guarded').set('accept', 'application/json')).status).toBe(200);
  });

  it('fails closed when the login fetched no signals at all (no enrichment)', async () => {
    const h = await guardedApp({}, { strategy: { enrich: [] } });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'none@example.com' }, 'clean');
    const res = await browser.get('/guarded').set('accept', 'application/json');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('RISK_BLOCKED');
    expect(h.events.at(-1)?.reasons).toContainEqual(expect.objectContaining({ signal: 'missing' }));
  });
});

describe('per-route policies', () => {
  it('judges the stored signals again under each route’s policy, without a new login', async () => {
    const h = await guardedApp();
    const vpn = h.browser();
    await loginVia(h, vpn, { email: 'route-vpn@example.com' }, 'vpn');
    expect((await vpn.get('/guarded').set('accept', 'application/json')).body.error.code).toBe('RISK_CHALLENGE');
    expect((await vpn.get('/strict').set('accept', 'application/json')).body.error.code).toBe('RISK_BLOCKED');
    expect((await vpn.get('/lenient').set('accept', 'application/json')).status).toBe(200);

    const incognito = h.browser();
    await loginVia(h, incognito, { email: 'route-inc@example.com' }, 'incognito');
    expect((await incognito.get('/guarded').set('accept', 'application/json')).status).toBe(200);
    expect((await incognito.get('/strict').set('accept', 'application/json')).status).toBe(403);
  });

  it('calls onChallenge and onBlock with the verdict', async () => {
    const h = await guardedApp({
      onChallenge: (_req: express.Request, res: express.Response, _next: express.NextFunction, verdict: GuardVerdict) =>
        res.status(401).json({ stepUp: true, action: verdict.action }),
      onBlock: (_req: express.Request, res: express.Response, _next: express.NextFunction, verdict: GuardVerdict) =>
        res.status(451).json({ blocked: verdict.reasons.length > 0 }),
    });
    const vpn = h.browser();
    await loginVia(h, vpn, { email: 'hook-vpn@example.com' }, 'vpn');
    const challenged = await vpn.get('/guarded');
    expect(challenged.status).toBe(401);
    expect(challenged.body).toEqual({ stepUp: true, action: 'challenge' });
    const bot = h.browser();
    await loginVia(h, bot, { email: 'hook-bot@example.com' }, 'bot');
    const blocked = await bot.get('/guarded');
    expect(blocked.status).toBe(451);
    expect(blocked.body).toEqual({ blocked: true });
  });

  it('observeOnly lets everything through but still decides and reports', async () => {
    const h = await guardedApp();
    const bot = h.browser();
    await loginVia(h, bot, { email: 'observe@example.com' }, 'bot');
    const res = await bot.get('/observed').set('accept', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body.risk).toBe('block');
    expect(h.events.at(-1)).toMatchObject({ action: 'block', observeOnly: true, route: 'GET /observed' });
  });
});

describe('stale signals', () => {
  it('refetches through secure-info with express-session, where the token is kept', async () => {
    const h = await guardedApp({}, { session: 'express' });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'fresh@example.com' }, 'clean');
    await sleep(10);
    const res = await browser.get('/refetching').set('accept', 'application/json');
    expect(res.status).toBe(200);
    expect(h.events.at(-1)).toMatchObject({ action: 'allow', refreshed: true, stale: false });
  });

  it('acts as staleAction says when the refetch fails (default challenge)', async () => {
    const h = await guardedApp({}, { session: 'express' });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'refetch-fail@example.com' }, 'clean');
    await sleep(10);
    h.emulator.fault({ path: '/auth/v1/secure-info', status: 500, times: 1 });
    const res = await browser.get('/refetching').set('accept', 'application/json');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('RISK_CHALLENGE');
    expect(h.events.at(-1)).toMatchObject({ action: 'challenge', stale: true, refreshed: false });
  });

  it('with cookie-session (no token kept) stale signals are challenged', async () => {
    const h = await guardedApp({ maxAgeMs: 1 });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'cookie-stale@example.com' }, 'clean');
    await sleep(10);
    const res = await browser.get('/guarded').set('accept', 'application/json');
    expect(res.status).toBe(403);
    expect(h.events.at(-1)?.reasons).toContainEqual({ signal: 'missing', action: 'challenge', detail: 'stale' });
  });

  it('a staleAction of block blocks', async () => {
    const h = await guardedApp({ maxAgeMs: 1, staleAction: 'block' });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'stale-block@example.com' }, 'clean');
    await sleep(10);
    expect((await browser.get('/guarded').set('accept', 'application/json')).body.error.code).toBe('RISK_BLOCKED');
  });

  it('fresh signals within maxAgeMs pass', async () => {
    const h = await guardedApp({ maxAgeMs: 60_000 });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'within@example.com' }, 'clean');
    expect((await browser.get('/guarded').set('accept', 'application/json')).status).toBe(200);
  });
});

describe('judging stored signals as of when they were read', () => {
  it('a factory reset 6 days before the signals were read stays recent, however long ago that was', async () => {
    const day = 24 * 60 * 60 * 1000;
    const readAt = Date.now() - 3 * day;
    const secureInfo = {
      bot: { result: 'notDetected' },
      vpn: { result: false },
      tampering: { result: false, anomalyScore: 0 },
      factoryReset: { timestamp: Math.floor((readAt - 6 * day) / 1000) },
    } as SecureInfo;
    const h = await guardedApp(
      {},
      {
        routes: (app) => {
          // A session as a magic-link login three days ago left it: the strategy's own record
          // writer, given the time the signals were read.
          app.get('/plant', (req, res, next) => {
            const profile = { id: 'reset@example.com', identities: [], secureInfo };
            const record = buildLoginRecord(req, profile, assessRisk(secureInfo), 'a-token', readAt);
            writeRecordOnLogin(req, record);
            req.logIn({ id: 'reset@example.com' }, (err) => (err ? next(err) : res.json({ ok: true })));
          });
        },
      },
    );
    const browser = h.browser();
    expect((await browser.get('/plant')).status).toBe(200);
    const res = await browser.get('/guarded').set('accept', 'application/json');
    expect(res.status).toBe(403);
    expect(h.events.at(-1)?.reasons).toContainEqual(
      expect.objectContaining({ signal: 'factoryReset', action: 'challenge' }),
    );
  });
});

describe('not logged in, misuse and options', () => {
  it('answers 401 to a JSON client and redirects a browser to loginUrl', async () => {
    const h = await guardedApp();
    const json = await h.browser().get('/guarded').set('accept', 'application/json');
    expect(json.status).toBe(401);
    expect(json.body).toEqual({ error: { code: 'UNAUTHENTICATED' } });
    const html = await h.browser().get('/guarded').set('accept', 'text/html');
    expect(html.status).toBe(303);
    expect(html.headers.location).toBe('/login');
  });

  it('answers JSON to an API client that accepts anything (fetch, curl: */*)', async () => {
    const h = await guardedApp();
    const res = await h.browser().get('/guarded').set('accept', '*/*');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED' } });
    const bot = h.browser();
    await loginVia(h, bot, { email: 'star@example.com' }, 'bot');
    const blocked = await bot.get('/guarded').set('accept', '*/*');
    expect(blocked.headers['content-type']).toMatch(/application\/json/);
    expect(blocked.body).toEqual({ error: { code: 'RISK_BLOCKED' } });
  });

  it('names what is missing when there is no session', async () => {
    const app = express();
    app.use((req, _res, next) => {
      (req as unknown as { user: object }).user = { id: 'x' };
      next();
    });
    app.get('/guarded', requireLowRisk(), (_req, res) => res.json({ ok: true }));
    app.use((err: Error & { code?: string }, _q: express.Request, res: express.Response, _n: express.NextFunction) =>
      res.status(500).json({ code: err.code, message: err.message }),
    );
    const res = await supertest(app).get('/guarded');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('MISSING_SESSION');
  });

  it('names what is missing when the user did not log in through the strategy', async () => {
    const h = await guardedApp(
      {},
      {
        routes: (app) => {
          app.get('/other-login', (req, res, next) =>
            req.logIn({ id: 'password-user' }, (err) => (err ? next(err) : res.json({ ok: true }))),
          );
        },
      },
    );
    const browser = h.browser();
    expect((await browser.get('/other-login')).status).toBe(200);
    const res = await browser.get('/guarded').set('accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.body.error.message).toContain("passport.authenticate('magic-link')");
  });

  it('passes an exception of the audit hook to next (fail closed)', async () => {
    const h = await guardedApp({
      audit: () => {
        throw new Error('audit sink down');
      },
    });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'audit-throws@example.com' }, 'clean');
    const res = await browser.get('/guarded').set('accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.body.error.message).toBe('audit sink down');
  });

  it('never gives the audit hook a token or secret', async () => {
    const h = await guardedApp({}, { session: 'express' });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'audit@example.com' }, 'vpn');
    await browser.get('/guarded');
    await sleep(5);
    await browser.get('/refetching');
    const me = await browser.get('/me');
    const token = me.body.record.token as string;
    expect(token).toEqual(expect.any(String));
    const text = JSON.stringify(h.events);
    expect(text).not.toContain(token);
    expect(text).not.toContain(CLIENT.clientSecret);
  });

  it.each([
    [{ maxAgeMs: -1 }, 'maxAgeMs'],
    [{ maxAgeMs: 'soon' }, 'maxAgeMs'],
    [{ staleAction: 'deny' }, 'staleAction'],
    [{ onChallenge: 'x' }, 'onChallenge'],
    [{ onBlock: 1 }, 'onBlock'],
    [{ audit: {} }, 'audit'],
    [{ observeOnly: 'yes' }, 'observeOnly'],
    [{ client: {} }, 'client'],
    [{ policy: { vpn: 'deny' } }, 'policy'],
    [{ policy: { nope: 'block' } }, 'policy'],
    [{ loginUrl: 'https://evil.com' }, 'loginUrl'],
  ])('requireLowRisk(%j) throws a TypeError naming %s when the route is set up', (options, name) => {
    expect(() => requireLowRisk(options as never)).toThrow(TypeError);
    expect(() => requireLowRisk(options as never)).toThrow(new RegExp(`options\\.${name}`));
  });
});

describe('requireIdentity()', () => {
  it('lets through a verified channel and refuses another (403)', async () => {
    const h = await guardedApp();
    const browser = h.browser();
    await loginVia(h, browser, { email: 'id@example.com' });
    expect((await browser.get('/needs-email').set('accept', 'application/json')).status).toBe(200);
    const refused = await browser.get('/needs-mobile').set('accept', 'application/json');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 'IDENTITY_REQUIRED' } });

    const phone = h.browser();
    await loginVia(h, phone, { mobile: '+919812345678' });
    expect((await phone.get('/needs-mobile').set('accept', 'application/json')).status).toBe(200);
  });

  it('checks its arguments when the route is set up', () => {
    expect(() => requireIdentity('PHONE' as never)).toThrow(/'MOBILE' or 'EMAIL'/);
    expect(() => requireIdentity('EMAIL', { loginUrl: '//evil' })).toThrow(/options\.loginUrl/);
  });
});

// `requireLowRisk({ client, maxAgeMs })` on a stale session must not make one secure-info call
// per request, nor keep calling while the service fails: concurrent
// refetches of one session share one call, and after a failure that session makes no call
// for `refetchBackoffMs` (30 s by default), during which `staleAction` applies.
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
