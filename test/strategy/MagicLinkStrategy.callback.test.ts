import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, Server } from 'node:http';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { assessRisk } from '../../src/index.js';
import type { MagicLinkProfile } from '../../src/index.js';
import { CLIENT, clickLink, lastLinkTo, loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import type { Harness, HarnessOptions } from '../helpers/harness.js';
import { ShortLimitOnce } from '../helpers/shortLimit.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';

/**
 * Watches requests reach `emulator` on `paths` (Node's http server channels): `all` resolves
 * once each path was asked; `answered()` counts the answers to them sent so far.
 */
function requestsTo(emulator: Emulator, paths: string[]) {
  const ports = new Set([emulator.authUrl, emulator.userAuthUrl].map((u) => Number(new URL(u).port)));
  const ours = (message: unknown): string | undefined => {
    const { request, server } = message as { request: IncomingMessage; server: Server };
    const address = server.address();
    if (!address || typeof address === 'string' || !ports.has(address.port)) return undefined;
    const path = (request.url ?? '').split('?', 1)[0] ?? '';
    return paths.includes(path) ? path : undefined;
  };
  const seen = new Set<string>();
  let answered = 0;
  let resolveAll!: () => void;
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  const onStart = (message: unknown) => {
    const path = ours(message);
    if (path) seen.add(path);
    if (seen.size === paths.length) resolveAll();
  };
  const onFinish = (message: unknown) => {
    if (ours(message)) answered += 1;
  };
  diagnostics.subscribe('http.server.request.start', onStart);
  diagnostics.subscribe('http.server.response.finish', onFinish);
  return {
    all,
    answered: () => answered,
    stop() {
      diagnostics.unsubscribe('http.server.request.start', onStart);
      diagnostics.unsubscribe('http.server.response.finish', onFinish);
    },
  };
}

const { harness, emulator } = useSharedEmulator();

/** Sends a link in `browser` and returns the callback path, without calling it. */
async function pendingCallback(h: Harness, browser: ReturnType<Harness['browser']>, email: string, risk?: string) {
  await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  return clickLink(lastLinkTo(h.emulator, email), risk);
}

describe('callback input', () => {
  it.each([
    ['no code', '/auth/callback'],
    ['an empty code', '/auth/callback?code='],
    ['a repeated code', '/auth/callback?code=a&code=b'],
    ['a code with spaces', '/auth/callback?code=a%20b'],
    ['an oversized code', `/auth/callback?code=${'x'.repeat(600)}`],
  ])('answers 400 to %s without calling the service', async (_name, path) => {
    const h = await harness({ strategy: { crossDevice: 'refuse' } });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'input@example.com' });
    h.emulator.fault({ path: '/auth/v1/verify/code', status: 500, times: 1 });
    const res = await browser.get(path);
    expect(res.status).toBe(400);
    // The fault is still armed: the service was never asked (a 500 from it answers 502).
    const probe = await browser.get('/auth/callback?code=probe-code');
    expect(probe.status).toBe(502);
  });

  it('gives a custom callback the failure code, status and a message a person understands', async () => {
    const h = await harness({
      routes: (app) => {
        app.get('/custom-callback', (req, res, next) => {
          h.passport.authenticate(h.strategy.name, (err: unknown, user: unknown, info: unknown, status: number) => {
            if (err) return next(err);
            res.status(user ? 200 : status).json({ info });
          })(req, res, next);
        });
      },
    });
    const browser = h.browser();
    const missing = await browser.get('/custom-callback?code=');
    expect(missing.status).toBe(400);
    expect(missing.body.info).toEqual({
      code: 'INVALID_CODE',
      message:
        'This sign-in link is incomplete or not valid. Open the link from your message again, or ask for a new one.',
    });
    const elsewhere = await browser.get('/custom-callback?code=abc');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.info.code).toBe('WRONG_BROWSER');
  });
});

describe('service failures', () => {
  it.each([
    ['500', { status: 500, body: { message: 'boom' } }, 502],
    ['503', { status: 503 }, 503],
    ['429', { status: 429 }, 503],
    ['broken JSON', { status: 200, body: '{"requestId": ' }, 502],
    ['a wrong shape', { status: 200, body: { requestId: 42 } }, 502],
    ['an empty body', { status: 200, body: '' }, 502],
    ['a reset connection', { reset: true }, 502],
  ] as const)('answers an error (never a login) when verify gets %s', async (_name, fault, status) => {
    const h = await harness();
    const browser = h.browser();
    const callback = await pendingCallback(h, browser, 'fault@example.com');
    h.emulator.fault({ path: '/auth/v1/verify/code', ...fault, times: 1 });
    const res = await browser.get(callback);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(status === 503 ? 'SERVICE_UNAVAILABLE' : 'SERVICE_ERROR');
    expect(JSON.stringify(res.body)).not.toContain(CLIENT.clientSecret);
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('logs in from a verify answer that has only what the login needs (the spec shows no requiredness)', async () => {
    const h = await harness({ strategy: { crossDevice: 'accept' } });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'minimal@example.com' });
    const requestId = h.emulator.outbox().at(-1)!.requestId;
    h.emulator.fault({
      path: '/auth/v1/verify/code',
      status: 200,
      body: {
        requestId,
        userDetails: {
          token: 'minimal-token',
          identities: [{ identityType: 'EMAIL', identityValue: 'minimal@example.com' }],
        },
      },
      times: 1,
    });
    const res = await browser.get('/auth/callback?code=any-code');
    expect(res.status).toBe(302);
    const me = await browser.get('/me');
    expect(me.body.user).toEqual({ id: 'minimal@example.com', email: 'minimal@example.com' });
    // The verification itself proves the identity, so requireIdentity('EMAIL') will let it through.
    expect(me.body.record.verified).toEqual(['EMAIL']);
  });

  it('answers 504 when the service is slower than the timeout, and does not hang', async () => {
    // Only the verify call has the short limit; the emulator holds it 8 s, far past it (and
    // past nothing else: a hang would outlast the test's own timeout).
    const client = new ShortLimitOnce(
      { ...CLIENT, authUrl: emulator().authUrl, userAuthUrl: emulator().userAuthUrl },
      'verifyCode',
    );
    try {
      const h = await harness({ strategy: { client } });
      const browser = h.browser();
      const callback = await pendingCallback(h, browser, 'slow@example.com');
      h.emulator.fault({ path: '/auth/v1/verify/code', delayMs: 8_000, times: 1 });
      const res = await browser.get(callback);
      expect(res.status).toBe(504);
      expect((await browser.get('/me')).status).toBe(401);
    } finally {
      await client.close();
    }
  });

  it('answers 502 when our credentials are refused, not the service’s 401', async () => {
    const h = await harness({ strategy: { clientSecret: 'wrong-secret-value' } });
    const browser = h.browser();
    const sent = await browser
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'cfg@example.com' });
    expect(sent.status).toBe(502);
    expect(sent.body.error).toEqual({
      code: 'SERVICE_ERROR',
      message: 'The sign-in link could not be sent right now. Please try again in a moment.',
    });
  });
});

describe('enrichment', () => {
  it('runs the enrichment calls in parallel: all three are asked before any answers', async () => {
    // An emulator of this test's own, so closing it can cut the held calls short.
    const own = await startEmulator({ clients: [CLIENT], quiet: true });
    try {
      const h = await harness({ emulator: own, strategy: { enrich: ['validateToken', 'secureInfo', 'userInfo'] } });
      const browser = h.browser();
      const callback = await pendingCallback(h, browser, 'fast@example.com');
      const enrichment = ['/auth/v1/validate/token', '/auth/v1/secure-info', '/auth/userInfo'];
      // Held a minute: called one after another, the second would never be asked in this test.
      for (const path of enrichment) own.fault({ path, delayMs: 60_000, times: 1 });
      const asked = requestsTo(own, enrichment);
      try {
        const res = browser.get(callback).then((r) => r);
        await asked.all;
        expect(asked.answered()).toBe(0);
        // Ending the held calls fails the login: nobody is logged in.
        await own.close();
        expect((await res).status).toBeGreaterThanOrEqual(500);
        expect((await browser.get('/me')).status).toBe(401);
      } finally {
        asked.stop();
      }
    } finally {
      await own.close();
    }
  });

  it('fails the login with an error when validate-token fails', async () => {
    const h = await harness({ strategy: { enrich: ['validateToken', 'userInfo'] } });
    const browser = h.browser();
    const callback = await pendingCallback(h, browser, 'vt@example.com');
    h.emulator.fault({ path: '/auth/v1/validate/token', status: 500, times: 1 });
    expect((await browser.get(callback)).status).toBe(502);
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('fails the login with an error when secure-info fails', async () => {
    const h = await harness({ strategy: { enrich: ['secureInfo'] } });
    const browser = h.browser();
    const callback = await pendingCallback(h, browser, 'si@example.com');
    h.emulator.fault({ path: '/auth/v1/secure-info', status: 503, times: 1 });
    expect((await browser.get(callback)).status).toBe(503);
  });

  it('goes on without user info when that call fails', async () => {
    let seen: MagicLinkProfile | undefined;
    const h = await harness({
      strategy: { enrich: ['userInfo'] },
      verify: async (profile) => {
        seen = profile;
        return { id: profile.id };
      },
    });
    const browser = h.browser();
    const callback = await pendingCallback(h, browser, 'ui@example.com');
    h.emulator.fault({ path: '/auth/userInfo', status: 500, times: 1 });
    expect((await browser.get(callback)).status).toBe(302);
    expect(seen?.displayName).toBeUndefined();
    expect(seen?._json.userInfo).toBeUndefined();
  });

  const combos: Array<Array<'validateToken' | 'secureInfo' | 'userInfo'>> = [
    [],
    ['validateToken'],
    ['secureInfo'],
    ['userInfo'],
    ['validateToken', 'secureInfo'],
    ['validateToken', 'userInfo'],
    ['secureInfo', 'userInfo'],
    ['validateToken', 'secureInfo', 'userInfo'],
  ];
  it.each(combos.map((c) => [c.join('+') || 'none', c] as const))(
    'builds the profile for enrich = %s',
    async (_n, enrich) => {
      let seen: MagicLinkProfile | undefined;
      const h = await harness({
        strategy: { enrich },
        verify: async (profile) => {
          seen = profile;
          return { id: profile.id };
        },
      });
      const browser = h.browser();
      expect((await loginVia(h, browser, { email: 'combo@example.com' })).status).toBe(302);
      const p = seen!;
      expect(p.provider).toBe('otpless');
      expect(p.emails[0]).toEqual({ value: 'combo@example.com', verified: true });
      expect(p._json.verification?.requestId).toEqual(expect.any(String));

      const vt = enrich.includes('validateToken');
      const si = enrich.includes('secureInfo');
      const ui = enrich.includes('userInfo');
      // The id is the verified identity whichever calls ran; the service's userId is its own field.
      expect(p.id).toBe('combo@example.com');
      expect(p.userId !== undefined).toBe(vt);
      if (vt) expect(p.userId).toBe(p._json.tokenValidation?.userId);
      expect(p._json.tokenValidation !== undefined).toBe(vt);
      expect(p._json.secureInfo !== undefined).toBe(si);
      expect(p._json.userInfo !== undefined).toBe(ui);
      expect(p.displayName !== undefined).toBe(ui);
      expect(p.secureInfo !== undefined).toBe(vt || si);
      expect(p.risk?.action).toBe(vt || si ? 'allow' : undefined);
      // The richest network details available: ipLocation only from validate-token or secure-info.
      expect(p.network?.ip).toEqual(expect.any(String));
      expect('ipLocation' in (p.network ?? {})).toBe(vt || si);
      for (const identity of p.identities) expect(identity.verifiedAt).toBeInstanceOf(Date);
    },
  );

  it('reads the verdict of a risky login (vpn) and stores it for later requests', async () => {
    const h = await harness({ strategy: { enrich: ['secureInfo'] } });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'vpn@example.com' }, 'vpn');
    const me = await browser.get('/me');
    expect(me.body.record.risk.action).toBe('challenge');
    // The compact signals judge the same as the full ones, under any policy.
    expect(assessRisk(me.body.record.risk.signals).action).toBe('challenge');
    expect(assessRisk(me.body.record.risk.signals, { vpn: 'block' }).action).toBe('block');
    expect(typeof me.body.record.risk.at).toBe('number');
  });

  it('gives a block verdict when the service sends no signals (fail closed)', async () => {
    const h = await harness({ strategy: { enrich: ['validateToken'] } });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'missing@example.com' }, 'missing');
    const me = await browser.get('/me');
    expect(me.body.record.risk).toMatchObject({ action: 'block', signals: null });
  });
});

describe('verify callback styles', () => {
  const cases: Array<[string, HarnessOptions['verify'], number]> = [
    ['done(null, user)', (profile, done) => done(null, { id: profile.id }), 302],
    ['a promise of a user', async (profile) => ({ id: profile.id }), 302],
    ['done(null, false, info)', (_p, done) => done(null, false, { message: 'Not invited' }), 401],
    ['a promise of false', async () => false, 401],
    ['done(err)', (_p, done) => done(Object.assign(new Error('db down'), { status: 500 })), 500],
    [
      'a throw',
      () => {
        throw new Error('verify threw');
      },
      500,
    ],
    [
      'a rejection',
      async () => {
        throw new Error('verify rejected');
      },
      500,
    ],
  ];
  it.each(cases)('handles %s', async (_name, verify, status) => {
    const h = await harness({ verify });
    const res = await loginVia(h, h.browser(), { email: 'style@example.com' });
    expect(res.status).toBe(status);
  });

  it('passes the request first with passReqToCallback', async () => {
    let path: string | undefined;
    const h = await harness({
      strategy: { passReqToCallback: true },
      verify: ((req: { url?: string }, profile: MagicLinkProfile, done: (e: unknown, u?: object) => void) => {
        path = req.url;
        done(null, { id: profile.id });
      }) as never,
    });
    const res = await loginVia(h, h.browser(), { email: 'req@example.com' });
    expect(res.status).toBe(302);
    expect(path).toMatch(/^\/auth\/callback\?flow=[\w-]{22}&code=/);
  });

  it('reaches a custom callback with the failure info', async () => {
    const h = await harness({
      verify: (_p, done) => done(null, false, { message: 'Not invited' }),
      authenticate: { failureRedirect: '/login', failureMessage: true },
    });
    const res = await loginVia(h, h.browser(), { email: 'nope@example.com' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login');
  });
});

describe('frontend SDK token (POST token)', () => {
  it('logs in with a same-origin POST of a token', async () => {
    let seen: MagicLinkProfile | undefined;
    const h = await harness({
      strategy: { enrich: ['userInfo'] },
      verify: async (profile) => {
        seen = profile;
        return { id: profile.id };
      },
    });
    const token = h.emulator.issueToken({ email: 'sdk@example.com' });
    const browser = h.browser();
    const res = await browser.post('/auth/callback').set('origin', h.baseUrl).type('form').send({ token });
    expect(res.status).toBe(302);
    expect(seen?.userId).toEqual(expect.any(String));
    // One person, one id, by link or by token: the verified identity, not the service's userId.
    expect(seen?.id).toBe('sdk@example.com');
    expect(seen?.emails[0]?.value).toBe('sdk@example.com');
    expect(seen?.displayName).toEqual(expect.any(String));
    expect(seen?.risk).toBeDefined();
    expect((await browser.get('/me')).status).toBe(200);
  });

  it.each([
    ['a cross-site Origin', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['no Origin at all', {}],
    ['Origin: null', { origin: 'null' }],
  ])('refuses %s with 403', async (_name, headers) => {
    const h = await harness();
    const token = h.emulator.issueToken({ email: 'csrf@example.com' });
    // A plain client: no default Origin, only the headers of the case.
    const res = await supertest(h.server).post('/auth/callback').set(headers).type('form').send({ token });
    expect(res.status).toBe(403);
  });

  it('refuses an unknown token with 401', async () => {
    const h = await harness();
    const res = await h
      .browser()
      .post('/auth/callback')
      .set('origin', h.baseUrl)
      .type('form')
      .send({ token: 'made-up-token' });
    expect(res.status).toBe(401);
  });
});

describe('returnTo', () => {
  it.each([
    ['/account/settings?tab=2', false, '/account/settings?tab=2'],
    ['//evil.com', false, '/me'],
    ['https://evil.com', false, '/me'],
    ['/\\evil.com', false, '/me'],
    ['/\t/evil.com', false, '/me'],
    // Kept through the login by Passport itself: an unsafe one is still dropped.
    ['/account/settings?tab=2', true, '/account/settings?tab=2'],
    ['https://evil.com', true, '/me'],
  ])(
    'successReturnToOrRedirect with returnTo %j (keepSessionInfo %s) goes to %s',
    async (returnTo, keepSessionInfo, expected) => {
      const h = await harness({
        authenticate: { successRedirect: undefined, successReturnToOrRedirect: '/me', keepSessionInfo },
        routes: (app) => {
          app.get('/protected', (req, res) => {
            (req.session as unknown as Record<string, unknown>).returnTo = returnTo;
            res.status(401).end();
          });
        },
      });
      const browser = h.browser();
      await browser.get('/protected');
      const res = await loginVia(h, browser, { email: 'return@example.com' });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(expected);
    },
  );
});
