import express from 'express';
import expressSession from 'express-session';
import passportPkg from 'passport';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { MagicLinkStrategy } from '../../src/index.js';
import { CLIENT, clickLink, lastLinkTo } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness, emulator: sharedEmulator } = useSharedEmulator();

const json = { accept: 'application/json' };

describe('send()', () => {
  it('answers a JSON client with the channels only: no request id, no code', async () => {
    const h = await harness();
    const before = h.emulator.outbox().length;
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set(json)
      .send({ email: 'a@example.com', mobile: '+919876543210' });
    expect(res.status).toBe(200);
    const types = res.body.sent.map((s: { type: string }) => s.type).sort();
    expect(types).toEqual(['EMAIL', 'MOBILE']);
    const mobile = res.body.sent.find((s: { type: string }) => s.type === 'MOBILE');
    expect(mobile.destinationUri).toEqual(expect.any(String));
    const entries = h.emulator.outbox().slice(before);
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(res.text).not.toContain(entry.requestId);
    expect(res.headers['set-cookie']).toBeDefined();
  });

  it('redirects a form post to successRedirect (303)', async () => {
    const h = await harness({ send: { successRedirect: '/check-inbox' } });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .type('form')
      .set('accept', 'text/html')
      .send({ email: 'form@example.com' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/check-inbox');
  });

  it('sends the configured expiry and callback URL to the service', async () => {
    const h = await harness({ strategy: { expiry: 600 } });
    // Read on the emulator's own clock, which never goes backwards: no wall-clock margin.
    const before = h.emulator.now();
    await h.browser().post('/auth/magic-link').set(json).send({ email: 'exp@example.com' });
    const after = h.emulator.now();
    const entry = h.emulator.outbox().at(-1)!;
    // The callback URL with our binding nonce: 128 random bits, URL-safe.
    expect(entry.redirectUri).toMatch(new RegExp(`^${h.baseUrl}/auth/callback\\?flow=[A-Za-z0-9_-]{22}$`));
    expect(entry.expiresAt - 600_000).toBeGreaterThanOrEqual(before);
    expect(entry.expiresAt - 600_000).toBeLessThanOrEqual(after);
  });

  it('reads configured field names', async () => {
    const h = await harness({ send: { emailField: 'address' } });
    const res = await h.browser().post('/auth/magic-link').set(json).send({ address: 'field@example.com' });
    expect(res.status).toBe(200);
    expect(h.emulator.outbox().at(-1)?.to).toBe('field@example.com');
  });

  const bad: Array<[string, Record<string, unknown>, string | undefined]> = [
    ['nothing', {}, undefined],
    ['empty strings', { email: '', mobile: '' }, undefined],
    ['a malformed e-mail', { email: 'not-an-email' }, 'email'],
    ['an e-mail array', { email: ['a@example.com', 'b@example.com'] }, 'email'],
    ['an e-mail object', { email: { $ne: 1 } }, 'email'],
    ['a huge e-mail', { email: `${'a'.repeat(400)}@example.com` }, 'email'],
    ['letters in the mobile', { mobile: '+1 415 CALL ME' }, 'mobile'],
    ['a short mobile', { mobile: '12345' }, 'mobile'],
    ['a numeric mobile', { mobile: 14155550123 }, 'mobile'],
  ];
  it.each(bad)('answers 400 INVALID_INPUT to %s, without calling the service', async (_name, body, field) => {
    const h = await harness();
    const before = h.emulator.outbox().length;
    const res = await h.browser().post('/auth/magic-link').set(json).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.field).toBe(field);
    expect(res.body.error.message).toMatch(/^Enter /);
    expect(h.emulator.outbox().length).toBe(before);
  });

  it('redirects a form post to failureRedirect with the code and field', async () => {
    const h = await harness({ send: { successRedirect: '/check-inbox', failureRedirect: '/login' } });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .type('form')
      .set('accept', 'text/html')
      .send({ email: 'nope' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?error=INVALID_INPUT&field=email');
  });

  it('keeps the query string of failureRedirect', async () => {
    const h = await harness({ send: { successRedirect: '/check-inbox', failureRedirect: '/login?next=%2Faccount' } });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .type('form')
      .set('accept', 'text/html')
      .send({ email: 'nope' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?next=%2Faccount&error=INVALID_INPUT&field=email');
  });

  it('passes an onError that throws to the error handler: an answer, not a hang', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const h = await harness({
        send: {
          onError: () => {
            throw new Error('render failed');
          },
        },
      });
      const res = await h.browser().post('/auth/magic-link').set('accept', 'application/json').send({});
      expect(res.status).toBe(500);
      expect(res.body.error.message).toBe('render failed');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('hands failures to onError when given', async () => {
    const h = await harness({
      send: {
        onError: (err, _req, res) => {
          res.statusCode = err.status;
          res.end(`custom:${err.code}`);
        },
      },
    });
    const res = await h.browser().post('/auth/magic-link').set('accept', 'text/html').type('form').send({});
    expect(res.status).toBe(400);
    expect(res.text).toBe('custom:INVALID_INPUT');
  });

  it.each([
    [{ status: 503 }, 503, 'SERVICE_UNAVAILABLE'],
    [{ status: 429 }, 503, 'SERVICE_UNAVAILABLE'],
    [{ status: 500 }, 502, 'SERVICE_ERROR'],
    [{ status: 200, body: 'not json' }, 502, 'SERVICE_ERROR'],
    [{ reset: true }, 502, 'SERVICE_ERROR'],
  ] as const)('answers %j from the service with %i', async (fault, status, reason) => {
    const h = await harness();
    h.emulator.fault({ path: '/auth/v1/authorize', ...fault, times: 1 });
    const browser = h.browser();
    const res = await browser.post('/auth/magic-link').set(json).send({ email: 'down@example.com' });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(reason);
    // Nothing half-written: no pending request was remembered, so no session cookie was set.
    expect(res.headers['set-cookie']).toBeUndefined();
    // The next request after the fault goes through.
    expect((await browser.post('/auth/magic-link').set(json).send({ email: 'down@example.com' })).status).toBe(200);
  });

  it('answers 504 when the service times out', async () => {
    // The send is this app's only call: a 200 ms limit against an answer held 8 s.
    const h = await harness({ strategy: { timeoutMs: 200 } });
    h.emulator.fault({ path: '/auth/v1/authorize', delayMs: 8_000, times: 1 });
    const res = await h.browser().post('/auth/magic-link').set(json).send({ email: 'slow@example.com' });
    expect(res.status).toBe(504);
    expect(res.body.error.code).toBe('SERVICE_TIMEOUT');
  });

  it('maps the service refusing a phone number (7102) to the mobile field', async () => {
    const h = await harness();
    h.emulator.fault({
      path: '/auth/v1/authorize',
      status: 400,
      body: { message: 'Request error', errorCode: '7102', description: 'Invalid phone number.' },
      times: 1,
    });
    const res = await h.browser().post('/auth/magic-link').set(json).send({ mobile: '+14155550123' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'mobile' });
  });
});

describe('send() and login CSRF', () => {
  it.each([
    ['a form from another site (Origin)', { origin: 'https://evil.example' }, 'form'],
    ['a form with Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 'form'],
    ['a form with Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }, 'form'],
    ['a form with no Origin at all', {}, 'form'],
    ['JSON from another site (Origin)', { origin: 'https://evil.example' }, 'json'],
  ] as const)(
    'refuses %s with 403 CROSS_SITE, sending nothing and writing no session',
    async (_name, headers, type) => {
      const h = await harness();
      const before = h.emulator.outbox().length;
      const res = await supertest(h.server)
        .post('/auth/magic-link')
        .set('accept', 'application/json')
        .set(headers)
        .type(type)
        .send({ email: 'planted@example.com' });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('CROSS_SITE');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(h.emulator.outbox().length).toBe(before);
    },
  );

  it('accepts JSON with no Origin (an API client; a page elsewhere cannot send JSON without a preflight)', async () => {
    const h = await harness();
    const res = await supertest(h.server)
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'api@example.com' });
    expect(res.status).toBe(200);
  });

  it('stops the attack: a page elsewhere cannot make the victim’s browser ask for the attacker’s link', async () => {
    const h = await harness();
    const victim = h.browser();
    // The attacker's page auto-submits a form in the victim's browser: the browser names the attacker's origin.
    const forged = await victim
      .post('/auth/magic-link')
      .set('origin', 'https://evil.example')
      .type('form')
      .send({ email: 'attacker@evil.example' });
    expect(forged.status).toBe(403);
    // The attacker asks for a link in their own browser and opens it there to read the code...
    const attacker = h.browser();
    await attacker.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'attacker@evil.example' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'attacker@evil.example'));
    // ...then sends the victim to the callback: the link is not the victim's, so the victim's
    // browser is at most asked to approve the attacker's own laptop, never logged in.
    const landed = await victim.get(callback);
    expect(landed.status).toBe(200);
    expect(landed.text).toContain('Approve sign-in on your computer?');
    expect((await victim.get('/me')).status).toBe(401);
    const refusing = await harness({ strategy: { crossDevice: 'refuse' } });
    const attacker2 = refusing.browser();
    await attacker2.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'attacker@evil.example' });
    const callback2 = await clickLink(lastLinkTo(refusing.emulator, 'attacker@evil.example'));
    const victim2 = refusing.browser();
    expect((await victim2.get(callback2)).status).toBe(403);
    expect((await victim2.get('/me')).status).toBe(401);
  });
});

describe('send() misuse', () => {
  async function bareApp(setup: (app: express.Express, strategy: MagicLinkStrategy) => void) {
    const strategy = new MagicLinkStrategy(
      {
        ...CLIENT,
        authUrl: sharedEmulator().authUrl,
        userAuthUrl: sharedEmulator().userAuthUrl,
        callbackUrl: 'http://127.0.0.1/cb',
      },
      async (p) => ({ id: p.id }),
    );
    const app = express();
    setup(app, strategy);
    app.use(
      (
        err: { status?: number; message: string; code?: string },
        _q: express.Request,
        res: express.Response,
        _n: express.NextFunction,
      ) => {
        res.status(err.status ?? 500).json({ code: err.code, message: err.message });
      },
    );
    return { app, strategy };
  }

  it('reads a form body itself when the app parses only JSON', async () => {
    const { app, strategy } = await bareApp((app, strategy) => {
      app.use(expressSession({ secret: 'send-test-secret', resave: false, saveUninitialized: false }));
      app.use(express.json());
      app.post('/send', strategy.send());
    });
    const res = await supertest(app)
      .post('/send')
      .set('sec-fetch-site', 'same-origin')
      .set('accept', 'application/json')
      .type('form')
      .send({ email: 'x@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.sent).toEqual([{ type: 'EMAIL', channel: 'EMAIL' }]);
    await strategy.client.close();
  });

  it('names the session middleware to add when there is none', async () => {
    const { app, strategy } = await bareApp((app, strategy) => {
      app.post('/send', express.json(), strategy.send());
    });
    const res = await supertest(app).post('/send').send({ email: 'x@example.com' });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('MISSING_SESSION');
    expect(res.body.message).toContain('express-session');
    expect(res.body.message).toContain('sessionCompat()');
    await strategy.client.close();
  });

  it('names the session middleware on the callback too', async () => {
    const passport = new passportPkg.Passport();
    const { app, strategy } = await bareApp((app, strategy) => {
      passport.use(strategy);
      app.get('/cb', passport.authenticate('magic-link'));
    });
    const res = await supertest(app).get('/cb?code=abc');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('MISSING_SESSION');
    await strategy.client.close();
  });

  it.each([
    [{ successRedirect: 'https://evil.com' }, 'successRedirect'],
    [{ failureRedirect: '//evil.com' }, 'failureRedirect'],
    [{ onError: 'nope' }, 'onError'],
  ])('checks its options when the route is set up: %j', async (options, name) => {
    const { strategy } = await bareApp(() => undefined);
    expect(() => strategy.send(options as never)).toThrow(new RegExp(`options\\.${name}`));
    await strategy.client.close();
  });
});

describe('send(): numbers and addresses by the one rule of each', () => {
  it('never sends (415) 555-0123 to Switzerland: without defaultCountry it asks for the country code', async () => {
    const h = await harness();
    const before = h.emulator.outbox().length;
    const res = await h.browser().post('/auth/magic-link').set(json).send({ mobile: '(415) 555-0123' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'INVALID_INPUT',
      field: 'mobile',
      message: 'Enter the mobile number with its country code: add + and the code first, such as +1 415 555 0123.',
    });
    expect(h.emulator.outbox().length).toBe(before);
  });

  it('reads it in defaultCountry, and sends the service its digits with the country code', async () => {
    const h = await harness({ strategy: { defaultCountry: 'US' } });
    const res = await h.browser().post('/auth/magic-link').set(json).send({ mobile: '(415) 555-0123' });
    expect(res.status).toBe(200);
    expect(h.emulator.outbox().at(-1)?.to).toBe('14155550123');
  });

  it('lets send({ defaultCountry }) override the strategy’s', async () => {
    const h = await harness({ strategy: { defaultCountry: 'US' }, send: { defaultCountry: 'IN' } });
    expect((await h.browser().post('/auth/magic-link').set(json).send({ mobile: '98765 43210' })).status).toBe(200);
    expect(h.emulator.outbox().at(-1)?.to).toBe('919876543210');
  });

  it.each([
    ['a number too short for its country', '+91 98765 4321', 'too many or too few digits'],
    ['a premium-rate number', '+1 900 555 0100', 'premium-rate'],
    ['full-width digits', '+\uff11\uff14\uff11\uff15\uff15\uff15\uff15\uff10\uff11\uff12\uff13', 'in digits'],
  ])('refuses %s before any call, with a message saying why', async (_name, mobile, words) => {
    const h = await harness({ strategy: { defaultCountry: 'US' } });
    const before = h.emulator.outbox().length;
    const res = await h.browser().post('/auth/magic-link').set(json).send({ mobile });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'mobile' });
    expect(res.body.error.message).toContain(words);
    expect(h.emulator.outbox().length).toBe(before);
  });

  it.each([
    ['a zero-width space', 'ada@exam\u200bple.com', 'invisible characters'],
    ['a Hangul filler', 'ada\u3164@example.com', 'invisible characters'],
    ['a right-to-left override', 'ada\u202e@example.com', 'invisible characters'],
    ['full-width letters', 'ａｄａ@example.com', 'look-alike characters'],
    ['a Cyrillic letter in a Latin domain, international allowed', 'ada@pаypal.com', 'look-alike characters'],
    ['an international address (not allowed)', 'josé@example.com', 'plain letters'],
  ])('refuses an address with %s before any call', async (name, email, words) => {
    const h = await harness({ strategy: { allowInternationalEmail: name.endsWith('international allowed') } });
    const before = h.emulator.outbox().length;
    const res = await h.browser().post('/auth/magic-link').set(json).send({ email });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'email' });
    expect(res.body.error.message).toContain(words);
    expect(h.emulator.outbox().length).toBe(before);
  });

  it('sends an international address, when allowed, with its domain as punycode', async () => {
    const h = await harness({ strategy: { allowInternationalEmail: true } });
    const res = await h.browser().post('/auth/magic-link').set(json).send({ email: 'josé@Bücher.example' });
    expect(res.status).toBe(200);
    expect(h.emulator.outbox().at(-1)?.to).toBe('josé@xn--bcher-kva.example');
  });

  it('shows the number of a login in E.164, typed nationally or not', async () => {
    const h = await harness({ strategy: { defaultCountry: 'IN' } });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set(json).send({ mobile: '098765 43210' });
    expect((await browser.get(await clickLink(lastLinkTo(h.emulator, '919876543210')))).status).toBe(302);
    expect((await browser.get('/me').set(json)).body.user.phone).toBe('+919876543210');
  });
});
