import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import cookieSession from 'cookie-session';
import expressSession from 'express-session';
import { Passport } from 'passport';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { MagicLinkStrategy, magicLinkRoutes, sessionCompat } from '../../src/index.js';
import type { MagicLinkRoutesOptions, MagicLinkStrategyOptions } from '../../src/index.js';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import { CLIENT, clickLink, lastLinkTo } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { settleWarnings, watchWarnings } from '../helpers/warnings.js';

// The routes of the one mount (src/routes/loginRoutes.ts): its options, checked once, and what
// each route does with them, in a real Express app with a real session and Passport.

const { emulator } = useSharedEmulator();
const warnings = watchWarnings();

interface App {
  url: string;
  strategy: MagicLinkStrategy;
  passport: InstanceType<typeof Passport>;
  /** A browser: keeps cookies, names this site as its origin on every request. */
  browser(): supertest.Agent;
}

const open: { server: import('node:http').Server; strategy: MagicLinkStrategy }[] = [];
afterEach(async () => {
  for (const { server, strategy } of open.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await strategy.client.close();
  }
});

async function startApp(
  mount: Omit<MagicLinkRoutesOptions, 'passport'> = {},
  strategyOptions: Partial<MagicLinkStrategyOptions> = {},
  session: 'express' | 'cookie' | 'express with a store' = 'express',
): Promise<App> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const strategy = new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: emulator().authUrl,
      userAuthUrl: emulator().userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      ...strategyOptions,
    } as MagicLinkStrategyOptions & { passReqToCallback?: false },
    async (profile) => ({ id: profile.id }),
  );
  open.push({ server, strategy });
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  if (session === 'cookie') {
    app.use(cookieSession({ name: 'sess', keys: ['login-routes-cookie-key'] }));
    app.use(sessionCompat());
  } else {
    // A store of the app's own (not express-session's MemoryStore) says "several instances".
    const store = session === 'express with a store' ? new (class extends expressSession.MemoryStore {})() : undefined;
    app.use(
      expressSession({
        secret: 'login-routes-session-secret',
        resave: false,
        saveUninitialized: false,
        ...(store ? { store } : {}),
      }),
    );
  }
  app.use(passport.session());
  app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me', ...mount }));
  app.get('/me', (req, res) => void res.json({ user: req.user ?? null }));
  // A browser asks for HTML; a JSON client's request sets its own `accept`.
  const browser = () => supertest.agent(server).set('origin', url).set('accept', 'text/html,*/*;q=0.8');
  return { url, strategy, passport, browser };
}

let counter = 0;
const address = (): string => `routes-${(counter += 1)}@example.com`;
const number = (): string => `+9198${String(30_000_000 + (counter += 1)).slice(-8)}`;

describe('the options, checked once when the mount is made', () => {
  it.each([
    [
      'an unknown option, with the nearest one',
      { contact: 'email' },
      /options\.contact is not an option \(did you mean contacts\?\)/,
    ],
    ['contacts not one of its words', { contacts: 'phone' }, /options\.contacts must be/],
    ['channelChoice not a boolean', { channelChoice: 'yes' }, /options\.channelChoice must be/],
    ['resendAfterSeconds above 600', { resendAfterSeconds: 601 }, /options\.resendAfterSeconds must be/],
    ['resendAfterSeconds below 0', { resendAfterSeconds: -1 }, /options\.resendAfterSeconds must be/],
    ['resendAfterSeconds not whole', { resendAfterSeconds: 1.5 }, /options\.resendAfterSeconds must be/],
    ['failureRedirect off this site', { failureRedirect: 'https://evil.example/' }, /options\.failureRedirect must be/],
    ['pages not an object', { pages: '/login' }, /pages/],
    ['pages with an unknown page', { pages: { home: '/' } }, /pages: options\.home is not an option/],
    [
      'pages.signIn off this site',
      { pages: { signIn: '//evil.example' } },
      /options\.pages\.signIn must be a path on this site/,
    ],
    ['pages.error not a path', { pages: { error: 'oops' } }, /options\.pages\.error must be a path on this site/],
  ])('refuses %s with a TypeError naming it', async (_name, options, message) => {
    const { strategy, passport } = await startApp();
    expect(() => magicLinkRoutes(strategy, { passport, ...(options as object) } as never)).toThrow(TypeError);
    expect(() => magicLinkRoutes(strategy, { passport, ...(options as object) } as never)).toThrow(message);
  });

  it('takes an option set on Object.prototype for none (own keys only)', async () => {
    const { strategy, passport } = await startApp();
    const proto = Object.prototype as Record<string, unknown>;
    proto.contacts = 'nonsense';
    try {
      expect(() => magicLinkRoutes(strategy, { passport })).not.toThrow();
    } finally {
      delete proto.contacts;
    }
  });
});

describe('the sign-in page, drawn from the options', () => {
  it('asks only for what `contacts` says, and offers the channel with `channelChoice`', async () => {
    const both = await startApp();
    const page = await both.browser().get('/auth/sign-in');
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="email"');
    expect(page.text).toContain('name="mobile"');
    expect(page.text).not.toContain('name="channel"');
    const email = await startApp({ contacts: 'email' });
    const emailOnly = await email.browser().get('/auth/sign-in');
    expect(emailOnly.text).toContain('name="email"');
    expect(emailOnly.text).not.toContain('name="mobile"');
    const choice = await startApp({ contacts: 'mobile', channelChoice: true });
    const mobile = await choice.browser().get('/auth/sign-in');
    expect(mobile.text).not.toContain('name="email"');
    expect(mobile.text).toContain('name="mobile"');
    expect(mobile.text).toContain('name="channel"');
  });

  it('is the app’s own with pages.signIn: the package’s path is left to the app', async () => {
    const { browser } = await startApp({ pages: { signIn: '/welcome' } });
    expect((await browser().get('/auth/sign-in')).status).toBe(404);
  });
});

describe('a refused send', () => {
  it('comes back to the package’s sign-in page, with the message by its field and what was typed', async () => {
    const { browser } = await startApp();
    const res = await browser().post('/auth/magic-link').type('form').send({ email: 'ana@localhost' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('value="ana@localhost"');
    expect(res.text).toContain('aria-invalid="true"');
  });

  it('goes to the app’s sign-in page with the code and the field, and a JSON client still gets JSON', async () => {
    const { browser } = await startApp({ pages: { signIn: '/welcome' } });
    const page = await browser().post('/auth/magic-link').type('form').send({ email: 'ana@localhost' });
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/welcome?error=INVALID_INPUT&field=email');
    const json = await browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'ana@localhost' });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'email' } });
  });

  it('answers a body that is not JSON with 400 INVALID_INPUT, as JSON to a JSON client', async () => {
    const { browser } = await startApp();
    const res = await browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .set('content-type', 'application/json')
      .send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
  });
});

describe('a send, and the login it leads to', () => {
  it('goes to the waiting page, then signs in to successRedirect', async () => {
    const { browser } = await startApp();
    const b = browser();
    const email = address();
    const sent = await b.post('/auth/magic-link').type('form').send({ email });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe('/auth/waiting');
    const done = await b.get(await clickLink(lastLinkTo(emulator(), email)));
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/me');
    expect((await b.get('/me')).body.user).toEqual({ id: email });
  });

  it.each([
    ['a path of this site', '/account?tab=2', '/account?tab=2'],
    ['another site', 'https://evil.example/', '/me'],
    ['a protocol-relative URL', '//evil.example/', '/me'],
  ])('keeps returnTo for after the login when it is %s', async (_name, returnTo, expected) => {
    const { browser } = await startApp({}, {}, 'cookie');
    const b = browser();
    const email = address();
    expect((await b.post('/auth/magic-link').type('form').send({ email, returnTo })).status).toBe(303);
    const done = await b.get(await clickLink(lastLinkTo(emulator(), email)));
    expect(done.headers.location).toBe(expected);
  });

  it('sends a refused callback to failureRedirect with its code', async () => {
    const { browser } = await startApp({ failureRedirect: '/failed' });
    const res = await browser().get('/auth/callback?code=');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/failed?error=INVALID_CODE');
  });

  it('answers a callback body that is not JSON as the failed callback it is: JSON, or the error page', async () => {
    const { browser } = await startApp();
    const json = await browser()
      .post('/auth/callback')
      .set('accept', 'application/json')
      .set('content-type', 'application/json')
      .send('{"code": ');
    expect(json.status).toBe(400);
    expect(json.body.error.code).toBe('INVALID_INPUT');
    const page = await browser().post('/auth/callback').set('content-type', 'application/json').send('{"code": ');
    expect(page.status).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('INVALID_INPUT');
  });
});

describe('sending again from the waiting page', () => {
  it('sends to the same number by the channel asked, as the strategy offers by default (fallbackChannel)', async () => {
    const { browser } = await startApp({ resendAfterSeconds: 0 });
    const b = browser();
    const to = number();
    expect((await b.post('/auth/magic-link').type('form').send({ mobile: to })).status).toBe(303);
    expect(emulator().outbox().at(-1)).toMatchObject({ to: to.replace(/\D/g, ''), channel: 'WHATSAPP' });
    const again = await b
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ resend: '1', channel: 'sms' });
    expect(again.status).toBe(200);
    expect(emulator().outbox().at(-1)).toMatchObject({ to: to.replace(/\D/g, ''), channel: 'SMS' });
  });

  it('refuses a resend asked before the wait with 429 RATE_LIMITED and Retry-After, and sends nothing', async () => {
    const { browser } = await startApp({ resendAfterSeconds: 30 });
    const b = browser();
    const to = number();
    expect((await b.post('/auth/magic-link').type('form').send({ mobile: to })).status).toBe(303);
    const before = emulator().outbox().length;
    const early = await b.post('/auth/magic-link').set('accept', 'application/json').send({ resend: '1' });
    expect(early.status).toBe(429);
    expect(early.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Try again in \d+ seconds?\.$/),
    });
    const wait = Number(early.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    expect(early.body.error.retryAfterSeconds).toBe(wait);
    // In the person's language, as a send limit says it.
    const spanish = await b
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .set('accept-language', 'es')
      .send({ resend: '1', channel: 'SMS' });
    expect(spanish.status).toBe(429);
    expect(spanish.body.error.message).toMatch(/^Vuelve a intentarlo en \d+ segundos\.$/);
    expect(emulator().outbox().length).toBe(before);
  });

  it('sends again at once after the link expired at the service (its send taken): no wait for a dead link', async () => {
    const { browser } = await startApp({ resendAfterSeconds: 30 });
    const b = browser();
    const to = `expired-again-${Date.now()}@example.com`;
    expect((await b.post('/auth/magic-link').type('form').send({ email: to })).status).toBe(303);
    const callback = await clickLink(lastLinkTo(emulator(), to));
    emulator().fault({ path: ENDPOINTS.verifyCode.path, error: 'expired' });
    const failed = await b.get(callback).set('accept', 'application/json');
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    const before = emulator().outbox().length;
    const again = await b.post('/auth/magic-link').set('accept', 'application/json').send({ resend: '1' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(emulator().outbox().length).toBe(before + 1);
    expect(emulator().outbox().at(-1)!.to).toBe(to);
  });

  it.each([
    ['a channel the strategy does not offer', { fallbackChannel: false }, 'SMS'],
    ['EMAIL for a number', {}, 'EMAIL'],
  ])('refuses %s with 400 INVALID_INPUT on `channel`, and sends nothing', async (_name, strategy, channel) => {
    const { browser } = await startApp({}, strategy);
    const b = browser();
    await b.post('/auth/magic-link').type('form').send({ mobile: number() });
    const before = emulator().outbox().length;
    const res = await b.post('/auth/magic-link').set('accept', 'application/json').send({ resend: '1', channel });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'channel' });
    expect(emulator().outbox().length).toBe(before);
  });

  it('is a new send when the body names an address, and asks for one when nothing was sent before', async () => {
    const { browser } = await startApp();
    const b = browser();
    await b.post('/auth/magic-link').type('form').send({ mobile: number() });
    const email = address();
    const other = await b.post('/auth/magic-link').set('accept', 'application/json').send({ resend: '1', email });
    expect(other.status).toBe(200);
    expect(emulator().outbox().at(-1)!.to).toBe(email);
    const nothing = await browser().post('/auth/magic-link').set('accept', 'application/json').send({ resend: '1' });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.code).toBe('INVALID_INPUT');
  });
});

describe('the warning of state kept in one process', () => {
  it('is told once when sessions live in a shared store and flows in memory, never with the MemoryStore', async () => {
    const plain = await startApp();
    warnings.length = 0;
    await plain.browser().post('/auth/magic-link').type('form').send({ email: address() });
    await settleWarnings();
    expect(warnings.map((w) => w.code)).not.toContain('OTPLESS_STATE_IN_MEMORY');
    const shared = await startApp({}, {}, 'express with a store');
    await shared.browser().post('/auth/magic-link').type('form').send({ email: address() });
    await shared.browser().post('/auth/magic-link').type('form').send({ email: address() });
    await settleWarnings();
    expect(warnings.filter((w) => w.code === 'OTPLESS_STATE_IN_MEMORY')).toHaveLength(1);
  });
});
