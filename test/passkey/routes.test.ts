// The passkey routes of the one mount over real HTTP (Express 5, express-session, Passport, the
// emulator): the sign-in page's button and script, the offer after a link login and only then,
// "Not now" remembered, a sign-in with a passkey (signed in Node) that sends no message, writes
// `via: 'passkey'` and honours returnTo, the guards on it, the refusals with their codes, the
// setup error for an IP address, and the events (no credential material in them).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import expressSession from 'express-session';
import { Passport } from 'passport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MagicLinkStrategy,
  MemoryFlowStore,
  OtplessSetupError,
  StoreCredentials,
  magicLinkRoutes,
  passkeysOf,
  readLoginRecord,
  requireIdentity,
  requireLowRisk,
} from '../../src/index.js';
import type { MagicLinkProfile } from '../../src/index.js';
import { PASSKEY_SCRIPT } from '../../src/passkey/browserScript.js';
import { Browser } from '../examples/helpers/browser.js';
import { CLIENT } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';

const shared = useSharedEmulator();
const credentials = new StoreCredentials(new MemoryFlowStore());
const device = new SoftAuthenticator('routes-device');
let server: Server;
let url: string;
let strategy: MagicLinkStrategy;
const events: Array<[string, unknown]> = [];
const listen = (message: unknown, name: string | symbol): void => void events.push([String(name), message]);
const NAMES = [
  'passport-otpless:passkey:offered',
  'passport-otpless:passkey:registered',
  'passport-otpless:passkey:login',
];

beforeAll(async () => {
  for (const name of NAMES) subscribe(name, listen);
  const emulator = shared.emulator();
  server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://localhost:${(server.address() as AddressInfo).port}`;
  strategy = new MagicLinkStrategy(
    { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl, callbackUrl: `${url}/auth/callback` },
    async (profile: MagicLinkProfile) =>
      profile.id === 'refused@example.com' ? false : { id: profile.id, via: profile.via ?? 'link' },
  );
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  const app = express();
  app.use(expressSession({ secret: 'routes-session-secret', resave: false, saveUninitialized: false }));
  app.use(passport.session());
  // An app's own cookie, set before the mount (asked for by a test with `x-set-theme`).
  app.use((req, res, next) => {
    if (req.headers['x-set-theme']) res.cookie('theme', 'dark', { path: '/' });
    next();
  });
  app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me', passkeys: { credentials, rpName: 'Routes' } }));
  app.get('/me', (req, res) => void res.json({ user: req.user ?? null, record: readLoginRecord(req) ?? null }));
  app.get('/payments', requireLowRisk(), (_req, res) => void res.json({ allowed: true }));
  app.get('/settings', requireLowRisk({ passkeyLogins: 'accept' }), (_req, res) => void res.json({ allowed: true }));
  app.get('/email', requireIdentity('EMAIL'), (_req, res) => void res.json({ allowed: true }));
  app.get('/mobile', requireIdentity('MOBILE'), (_req, res) => void res.json({ allowed: true }));
  server.on('request', app);
});

afterAll(() => {
  for (const name of NAMES) unsubscribe(name, listen);
  server?.close();
});

/** A link login by e-mail in `browser`: the callback's answer (before it is followed). */
async function linkLogin(browser: Browser, to: string) {
  const sent = await browser.postForm('/auth/magic-link', { email: to });
  expect(sent.status, sent.text).toBe(303);
  const link = shared
    .emulator()
    .outbox()
    .filter((e) => e.to === to)
    .at(-1)!.link;
  const redirect = await browser.get(link);
  return browser.get(redirect.location!);
}

const code = (page: { json: <T>() => T }): string => page.json<{ error: { code: string } }>().error.code;

describe('the sign-in page with passkeys on', () => {
  it('offers "Sign in with a passkey" before the form, hidden until the script finds WebAuthn; the script file is served and allowed by its URL', async () => {
    const browser = new Browser(url);
    const page = await browser.get('/auth/sign-in');
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).toMatch(/<div id="passkey" hidden data-mode="signin"[^>]*>.*Sign in with a passkey.*<\/div><form/);
    expect(html).toContain('autocomplete="username webauthn"');
    expect(html).toContain(`<script src="${url}/auth/passkey.js" defer></script>`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src ${url}/auth/passkey.js; connect-src 'self'`);
    expect(csp).not.toContain("unsafe-inline'; script");
    const script = await browser.get('/auth/passkey.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text).toBe(PASSKEY_SCRIPT);
  });

  it('in Hindi, the button is in Hindi', async () => {
    const page = await new Browser(url).get('/auth/sign-in', { 'accept-language': 'hi' });
    expect(page.text).toContain('पासकी से साइन इन करें');
  });
});

describe('the offer after a link login', () => {
  it('comes right after the link, once; its options are for that user and no one else', async () => {
    const browser = new Browser(url);
    events.length = 0;
    const landing = await linkLogin(browser, 'offer@example.com');
    expect(landing.status).toBe(303);
    expect(new URL(landing.location!).pathname).toBe('/auth/passkey');
    const offer = await browser.get('/auth/passkey');
    expect(offer.status).toBe(200);
    expect(offer.text).toContain('<h1>Sign in faster next time</h1>');
    expect(offer.text).toContain('<noscript><meta http-equiv="refresh" content="0;url=/me"></noscript>');
    expect(offer.headers.get('content-security-policy')).toContain(`script-src ${url}/auth/passkey.js`);
    expect(events).toEqual([['passport-otpless:passkey:offered', { windowMs: 300_000 }]]);

    const options = await browser.postJson('/auth/passkey/register-options', {});
    expect(options.status, options.text).toBe(200);
    // It carries a challenge for this session: no cache keeps it.
    expect(options.headers.get('cache-control')).toBe('no-store');
    const body = options.json<{
      rp: { id: string; name: string };
      user: { id: string; name: string };
      excludeCredentials: unknown[];
      authenticatorSelection: object;
    }>();
    expect(body.rp).toEqual({ id: 'localhost', name: 'Routes' });
    expect(body.user.name).toBe('offer@example.com');
    // The handle names no one.
    expect(Buffer.from(body.user.id, 'base64url').toString('latin1')).not.toContain('offer');
    expect(body.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });

    // A malformed answer names no challenge: refused, and it spends none.
    const bad = await browser.postJson('/auth/passkey/register', { id: 'x' });
    expect(bad.status).toBe(400);
    expect(code(bad)).toBe('PASSKEY_INVALID');
    const again = await browser.postJson('/auth/passkey/register', { id: 'x' });
    expect(code(again)).toBe('PASSKEY_INVALID');
  });

  it('is refused (403 PASSKEY_NOT_ALLOWED) to a browser with no fresh link login, and to another site', async () => {
    const anonymous = await new Browser(url).postJson('/auth/passkey/register-options', {});
    expect(anonymous.status).toBe(403);
    expect(anonymous.json()).toEqual({
      error: {
        code: 'PASSKEY_NOT_ALLOWED',
        message:
          'A passkey can be added only right after signing in with a link, in the same browser. Sign in with a link, then add it.',
      },
    });
    const browser = new Browser(url);
    await linkLogin(browser, 'cross@example.com');
    const crossSite = await browser.postJson('/auth/passkey/register-options', {}, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(code(crossSite)).toBe('CROSS_SITE');
    const form = await browser.postForm('/auth/passkey/register-options', {}, { accept: 'application/json' });
    expect(form.status).toBe(415);
    const get = await browser.get('/auth/passkey/register-options');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('"Not now" goes on to successRedirect, drops the grant, and is remembered by the browser', async () => {
    const browser = new Browser(url);
    await linkLogin(browser, 'later@example.com');
    const later = await browser.postForm('/auth/passkey/not-now');
    expect(later.status).toBe(303);
    expect(new URL(later.location!).pathname).toBe('/me');
    expect(later.headers.getSetCookie().join()).toMatch(
      /otpless_passkey_later=1; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax/,
    );
    expect((await browser.postJson('/auth/passkey/register-options', {})).status).toBe(403);
    const next = await linkLogin(browser, 'later@example.com');
    expect(new URL(next.location!).pathname).toBe('/me');
    // The offer page without a grant goes on.
    const offer = await browser.get('/auth/passkey');
    expect(offer.status).toBe(303);
  });

  it('is not made to a JSON client: it gets its JSON answer', async () => {
    const browser = new Browser(url);
    await browser.postForm('/auth/magic-link', { email: 'json@example.com' });
    const link = shared
      .emulator()
      .outbox()
      .filter((e) => e.to === 'json@example.com')
      .at(-1)!.link;
    const redirect = await browser.get(link);
    const answer = await browser.get(redirect.location!, { accept: 'application/json' });
    expect(answer.json()).toEqual({ signedIn: true, redirect: '/me' });
  });
});

describe('a sign-in with a passkey', () => {
  beforeAll(async () => {
    await credentials.save({
      id: device.id,
      userId: 'ana@example.com',
      userHandle: 'aGFuZGxl',
      publicKey: device.publicKeyCose.toString('base64url'),
      counter: 0,
      transports: ['internal'],
      identities: [{ type: 'EMAIL', value: 'ana@example.com' }],
      createdAt: 1_700_000_000_000,
    });
  });

  async function passkeyLogin(browser: Browser, extra: object = {}, authenticator = device) {
    const options = await browser.postJson('/auth/passkey/login-options', {});
    expect(options.status, options.text).toBe(200);
    const { challenge, rpId, allowCredentials } = options.json<{
      challenge: string;
      rpId: string;
      allowCredentials?: unknown[];
    }>();
    expect(rpId).toBe('localhost');
    expect(allowCredentials ?? []).toEqual([]);
    const answer = authenticator.assert({
      challenge,
      origin: url,
      rpId: 'localhost',
      counter: 0,
      userHandle: 'aGFuZGxl',
    });
    return browser.postJson('/auth/passkey/login', { ...answer, ...extra });
  }

  it("sets its challenge cookie beside the app's own cookies of that answer, never instead of them", async () => {
    const browser = new Browser(url);
    const options = await browser.postJson('/auth/passkey/login-options', {}, { 'x-set-theme': '1' });
    expect(options.status, options.text).toBe(200);
    const cookies = options.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toBe('theme=dark; Path=/');
    expect(cookies[1]).toMatch(
      /^otpless_passkey_login=[\w-]{22}; Max-Age=120; Path=\/auth\/passkey; HttpOnly; SameSite=Strict$/,
    );
    const later = await browser.postForm('/auth/passkey/not-now', {}, { 'x-set-theme': '1' });
    expect(later.status).toBe(303);
    expect(later.headers.getSetCookie().map((c) => c.split('=')[0])).toEqual(['theme', 'otpless_passkey_later']);
  });

  it('signs in with no message sent, via passkey in the profile and the record, returnTo honoured', async () => {
    const browser = new Browser(url);
    const sent = shared.emulator().outbox().length;
    events.length = 0;
    const answer = await passkeyLogin(browser, { returnTo: '/settings' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json()).toEqual({ signedIn: true, redirect: '/settings' });
    expect(shared.emulator().outbox().length).toBe(sent);
    const me = (await browser.get('/me', { accept: 'application/json' })).json<{
      user: unknown;
      record: { via: string; verified: string[] };
    }>();
    expect(me.user).toEqual({ id: 'ana@example.com', via: 'passkey' });
    expect(me.record).toMatchObject({ id: 'ana@example.com', via: 'passkey', verified: ['EMAIL'] });
    expect(me.record).not.toHaveProperty('risk');
    expect(events).toEqual([['passport-otpless:passkey:login', { outcome: 'succeeded' }]]);
    expect(JSON.stringify(events)).not.toContain(device.id);
    expect((await passkeysOf(strategy).list('ana@example.com'))[0]?.lastUsedAt).toBeInstanceOf(Date);

    // The guards: requireLowRisk fails closed by default, accepts by name; requireIdentity holds.
    const payments = await browser.get('/payments', { accept: 'application/json' });
    expect(payments.status).toBe(403);
    expect(payments.json()).toEqual({ error: { code: 'PASSKEY_NOT_ACCEPTED' } });
    const page = await browser.get('/payments');
    expect(page.text).toContain('Please sign in with a link');
    expect((await browser.get('/settings', { accept: 'application/json' })).status).toBe(200);
    expect((await browser.get('/email', { accept: 'application/json' })).status).toBe(200);
    expect((await browser.get('/mobile', { accept: 'application/json' })).status).toBe(403);

    // A passkey login grants no registration.
    expect((await browser.get('/auth/passkey')).status).toBe(303);
    expect(code(await browser.postJson('/auth/passkey/register-options', {}))).toBe('PASSKEY_NOT_ALLOWED');
  });

  it('refuses an unknown passkey with 401 PASSKEY_UNKNOWN and an event with the code only', async () => {
    events.length = 0;
    const answer = await passkeyLogin(new Browser(url), {}, new SoftAuthenticator('nobody'));
    expect(answer.status).toBe(401);
    expect(code(answer)).toBe('PASSKEY_UNKNOWN');
    expect(events).toEqual([['passport-otpless:passkey:login', { outcome: 'refused', code: 'PASSKEY_UNKNOWN' }]]);
  });

  it("answers the refusal of the app's verify as USER_REFUSED", async () => {
    const other = new SoftAuthenticator('refused-device');
    await credentials.save({
      id: other.id,
      userId: 'refused@example.com',
      userHandle: 'aGFuZGxl',
      publicKey: other.publicKeyCose.toString('base64url'),
      counter: 0,
      transports: [],
      identities: [{ type: 'EMAIL', value: 'refused@example.com' }],
      createdAt: 1,
    });
    const browser = new Browser(url);
    const answer = await passkeyLogin(browser, {}, other);
    expect(answer.status).toBe(401);
    expect(code(answer)).toBe('USER_REFUSED');
    expect((await browser.get('/me', { accept: 'application/json' })).json()).toMatchObject({ user: null });
  });
});

describe('the manager', () => {
  it("lists and removes only a user's own passkeys", async () => {
    const manager = passkeysOf(strategy);
    expect(await manager.remove('someone@example.com', device.id)).toBe(false);
    expect((await manager.list('ana@example.com')).map((p) => p.id)).toEqual([device.id]);
    expect(await manager.remove('ana@example.com', device.id)).toBe(true);
    expect(await manager.list('ana@example.com')).toEqual([]);
  });

  it('names the option when no mount of the strategy has passkeys on', () => {
    const plain = new MagicLinkStrategy(
      { ...CLIENT, callbackUrl: 'http://localhost:1/auth/callback' },
      async () => ({}),
    );
    expect(() => passkeysOf(plain)).toThrow(/passkeys: true/);
  });
});

describe('setup', () => {
  const passport = new Passport();
  it('refuses passkeys on a callback URL whose host is an IP address (PASSKEY_NEEDS_DOMAIN)', () => {
    for (const host of ['127.0.0.1:3000', '[::1]:3000']) {
      const onIp = new MagicLinkStrategy({ ...CLIENT, callbackUrl: `http://${host}/auth/callback` }, async () => ({}));
      let thrown: unknown;
      try {
        magicLinkRoutes(onIp, { passport, passkeys: true });
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(OtplessSetupError);
      expect(thrown).toMatchObject({ code: 'PASSKEY_NEEDS_DOMAIN', status: 500 });
      expect((thrown as Error).message).toContain('localhost');
    }
  });

  it('refuses a misspelt or bad option, naming it', () => {
    const ok = new MagicLinkStrategy({ ...CLIENT, callbackUrl: 'http://localhost:1/auth/callback' }, async () => ({}));
    expect(() => magicLinkRoutes(ok, { passport, passkeys: { rpname: 'x' } as never })).toThrow(/passkeys\.rpname/);
    expect(() => magicLinkRoutes(ok, { passport, passkeys: { offerWindowMs: 5 } })).toThrow(/passkeys\.offerWindowMs/);
    expect(() => magicLinkRoutes(ok, { passport, passkeys: { credentials: {} as never } })).toThrow(
      /passkeys\.credentials must be a PasskeyCredentialStore/,
    );
    expect(() => magicLinkRoutes(ok, { passport, passkeys: 'yes' as never })).toThrow(/passkeys/);
  });
});
