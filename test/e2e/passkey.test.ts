// Passkeys after a link login, in real Chromium with the DevTools virtual authenticator, on
// Express 5 with express-session and Fastify with both session plugins: a link login by e-mail, the offer, a passkey made; the cookies
// cleared, and a sign-in with the passkey that sends no message (the emulator's outbox unchanged);
// the guards on a passkey login; "Not now" remembered; a registration refused without a fresh
// link login; a browser with no passkey; a cloned authenticator whose counter went backwards.
// The offer and sign-in pages are audited: axe finds nothing serious, nothing scrolls at 390 px.
// The guide's own runnable block, pasted into a new folder and run as is: pastedPasskeys.test.ts.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import { Authenticator } from '@fastify/passport';
import fastifySecureSession from '@fastify/secure-session';
import fastifySession from '@fastify/session';
import express from 'express';
import expressSession from 'express-session';
import Fastify from 'fastify';
import { Passport } from 'passport';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import {
  MagicLinkStrategy,
  magicLinkRoutes,
  otplessFastify,
  passkeysOf,
  requireIdentity,
  requireLowRisk,
} from '../../src/index.js';
import type { MagicLinkProfile } from '../../src/index.js';
import { linkTo } from '../examples/helpers/inbox.js';
import { axeViolations } from './axe.js';
import { addPlatformAuthenticator, CHROMIUM, launchChromium } from './browser.js';

const CLIENT = { clientId: 'passkey-client', clientSecret: 'passkey-secret-value-0123456789abcdef' };
const WAIT = { timeout: 45_000 };
const PHONE = { width: 390, height: 844 };

interface User {
  id: string;
  via: string;
}

type Host = 'express5 + express-session' | 'fastify + @fastify/session' | 'fastify + @fastify/secure-session';
const HOSTS: Host[] = ['express5 + express-session', 'fastify + @fastify/session', 'fastify + @fastify/secure-session'];

interface RunningApp {
  url: string;
  strategy: MagicLinkStrategy;
  close(): Promise<void>;
}

/** The app of docs/passkeys.md on one host, on `localhost` (an RP ID cannot be an IP address). */
async function startApp(emulator: Emulator, host: Host): Promise<RunningApp> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  const strategy = new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: emulator.authUrl,
      userAuthUrl: emulator.userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      enrich: ['secureInfo'],
    },
    async (profile: MagicLinkProfile): Promise<User> => ({ id: profile.id, via: profile.via ?? 'link' }),
  );
  if (host === 'express5 + express-session') {
    const passport = new Passport();
    passport.use(strategy);
    passport.serializeUser((user: Express.User, done) => done(null, user));
    passport.deserializeUser((user: Express.User, done) => done(null, user));
    const app = express();
    app.use(expressSession({ secret: 'passkey-session-secret', resave: false, saveUninitialized: false }));
    app.use(passport.session());
    app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me', passkeys: true }));
    app.get('/me', (req, res) => void res.json({ user: req.user ?? null }));
    app.get('/payments', requireLowRisk(), (_req, res) => void res.json({ allowed: true }));
    app.get('/settings', requireLowRisk({ passkeyLogins: 'accept' }), (_req, res) => void res.json({ allowed: true }));
    app.get('/email-only', requireIdentity('EMAIL'), (_req, res) => void res.json({ allowed: true }));
    app.post('/logout', (req, res, next) => req.logout((err) => (err ? next(err) : res.json({ user: null }))));
    server.on('request', app);
    return {
      url,
      strategy,
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }
  const app = Fastify({ serverFactory: (handler) => server.on('request', handler) });
  const passport = new Authenticator();
  if (host === 'fastify + @fastify/session') {
    await app.register(fastifyCookie);
    await app.register(fastifySession, {
      secret: 'passkey-fastify-session-secret-0123456789',
      cookie: { secure: false, path: '/' },
      saveUninitialized: false,
      rolling: false, // as docs/frameworks.md says
    });
  } else {
    await app.register(fastifySecureSession, { key: Buffer.alloc(32, 9), cookie: { path: '/', httpOnly: true } });
  }
  await app.register(passport.initialize());
  await app.register(passport.secureSession());
  passport.use(strategy.name, strategy);
  passport.registerUserSerializer(async (user: User) => user);
  passport.registerUserDeserializer(async (user: User) => user);
  await app.register(
    otplessFastify({
      strategy,
      passport,
      successRedirect: '/me',
      passkeys: true,
      ...(host === 'fastify + @fastify/secure-session' ? { secret: 'passkey-signals-secret-0123456789' } : {}),
    }),
  );
  app.get('/me', async (request) => ({ user: request.user ?? null }));
  app.get('/payments', { preHandler: requireLowRisk() }, async () => ({ allowed: true }));
  app.get('/settings', { preHandler: requireLowRisk({ passkeyLogins: 'accept' }) }, async () => ({ allowed: true }));
  app.get('/email-only', { preHandler: requireIdentity('EMAIL') }, async () => ({ allowed: true }));
  app.post('/logout', async (request) => {
    await request.logOut();
    return { user: null };
  });
  await app.ready();
  return {
    url,
    strategy,
    close: async () => {
      server.closeAllConnections();
      await app.close();
    },
  };
}

if (!existsSync(CHROMIUM)) {
  describe('passkeys in a real browser', () => {
    it.skip(`needs ${CHROMIUM} (apt-get install -y --no-install-recommends chromium); CI installs it`, () => {});
  });
} else {
  let emulator: Emulator;
  let browser: Browser;
  let app: RunningApp;
  const contexts: BrowserContext[] = [];
  let counter = 0;
  const email = (): string => `passkey-${(counter += 1)}@example.com`;

  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    await browser?.close();
    await emulator?.close();
  });

  /** A browser context with a virtual platform authenticator (user-verifying, resident keys). */
  async function withAuthenticator(): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    contexts.push(context);
    const page = await context.newPage();
    return { page, ...(await addPlatformAuthenticator(context, page)) };
  }

  /** Keeps the sign-in page's passkey autofill from answering first, so the button is what signs in. */
  async function withoutAutofill(page: Page): Promise<void> {
    await page.addInitScript('delete PublicKeyCredential.isConditionalMediationAvailable');
  }

  async function linkLogin(page: Page, to: string): Promise<void> {
    await page.goto(`${app.url}/auth/sign-in`);
    await page.locator('#email').fill(to);
    await Promise.all([
      page.waitForURL(`${app.url}/auth/waiting`, WAIT),
      page.locator('form button[type="submit"]').click(),
    ]);
    await page.goto(linkTo(emulator, to));
  }

  async function me(page: Page): Promise<User | null> {
    const answer = await page.request.get(`${app.url}/me`, { headers: { accept: 'application/json' } });
    return ((await answer.json()) as { user: User | null }).user;
  }

  async function audit(page: Page, name: string): Promise<void> {
    await page.setViewportSize(PHONE);
    const problems = await axeViolations(page);
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    if (width > PHONE.width) problems.push(`${width} px wide at ${PHONE.width} px`);
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(problems, name).toEqual([]);
  }

  /** A JSON POST from the page's own origin, as its script makes one. */
  function postJson(page: Page, path: string, body: unknown = {}) {
    return page.request.post(`${app.url}${path}`, {
      headers: { origin: app.url, 'content-type': 'application/json', accept: 'application/json' },
      data: JSON.stringify(body),
    });
  }

  describe.each(HOSTS)('passkeys on %s, in real Chromium', (host) => {
    const to = email();
    beforeAll(async () => {
      app = await startApp(emulator, host);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
    });
    let made: { page: Page; cdp: CDPSession; authenticatorId: string };

    it('offers a passkey right after the link login, makes it, and goes on to successRedirect', async () => {
      made = await withAuthenticator();
      const { page, cdp } = made;
      await linkLogin(page, to);
      await page.waitForURL(`${app.url}/auth/passkey`, WAIT);
      await page.locator('#passkey-button').waitFor({ state: 'visible', ...WAIT });
      expect(await page.locator('h1').innerText()).toBe('Sign in faster next time');
      expect(await page.locator('main').innerText()).toContain('use a passkey on this device');
      await audit(page, 'offer');
      await Promise.all([page.waitForURL(`${app.url}/me`, WAIT), page.locator('#passkey-button').click()]);
      expect(await me(page)).toEqual({ id: to, via: 'link' });
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: made.authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]?.isResidentCredential).toBe(true);
      // The app lists it; the user handle names no one.
      const listed = await passkeysOf(app.strategy).list(to);
      expect(listed).toHaveLength(1);
      expect(listed[0]?.id).toBe(
        credentials[0]?.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
      );
      // The user handle is a 32-byte keyed digest: it does not hold the address.
      const handle = Buffer.from(credentials[0]?.userHandle ?? '', 'base64');
      expect(handle).toHaveLength(32);
      expect(handle.includes(Buffer.from(to))).toBe(false);
    });

    it('signs in again with the passkey button after the cookies are cleared: no message sent', async () => {
      const { page } = made;
      await page.context().clearCookies();
      expect(await me(page)).toBeNull();
      const sent = emulator.outbox().length;
      await withoutAutofill(page);
      await page.goto(`${app.url}/auth/sign-in?returnTo=/settings`);
      await page.locator('#passkey-button').waitFor({ state: 'visible', ...WAIT });
      expect(await page.locator('#email').getAttribute('autocomplete')).toBe('username webauthn');
      await audit(page, 'sign-in with passkeys');
      await Promise.all([page.waitForURL(`${app.url}/settings`, WAIT), page.locator('#passkey-button').click()]);
      expect(await me(page)).toEqual({ id: to, via: 'passkey' });
      expect(emulator.outbox().length).toBe(sent);
    });

    it("signs in through the browser's passkey autofill (a conditional get) as well", async () => {
      // The same passkey on another device's authenticator (as a synced passkey would be).
      const { credentials } = await made.cdp.send('WebAuthn.getCredentials', { authenticatorId: made.authenticatorId });
      const synced = await withAuthenticator();
      await synced.cdp.send('WebAuthn.addCredential', {
        authenticatorId: synced.authenticatorId,
        credential: credentials[0]!,
      });
      const sent = emulator.outbox().length;
      // The virtual authenticator answers a conditional request at once, as a person picking the passkey would.
      await synced.page.goto(`${app.url}/auth/sign-in`);
      await synced.page.waitForURL(`${app.url}/me`, WAIT);
      expect(await me(synced.page)).toEqual({ id: to, via: 'passkey' });
      expect(emulator.outbox().length).toBe(sent);
    });

    it('keeps requireLowRisk closed on a passkey login unless the route accepts passkeys; requireIdentity holds', async () => {
      const { page } = made;
      const payments = await page.request.get(`${app.url}/payments`, { headers: { accept: 'application/json' } });
      expect(payments.status()).toBe(403);
      expect(await payments.json()).toEqual({ error: { code: 'PASSKEY_NOT_ACCEPTED' } });
      const settings = await page.request.get(`${app.url}/settings`, { headers: { accept: 'application/json' } });
      expect(settings.status()).toBe(200);
      const identity = await page.request.get(`${app.url}/email-only`, { headers: { accept: 'application/json' } });
      expect(identity.status()).toBe(200);
    });

    it('refuses a registration in a session whose login was no fresh link login', async () => {
      const { page } = made;
      const afterPasskey = await postJson(page, '/auth/passkey/register-options');
      expect(afterPasskey.status()).toBe(403);
      expect(((await afterPasskey.json()) as { error: { code: string } }).error.code).toBe('PASSKEY_NOT_ALLOWED');
      const stranger = await browser.newContext();
      contexts.push(stranger);
      const anonymous = await postJson(await stranger.newPage(), '/auth/passkey/register-options');
      expect(anonymous.status()).toBe(403);
      const crossSite = await page.request.post(`${app.url}/auth/passkey/register-options`, {
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        data: '{}',
      });
      expect(crossSite.status()).toBe(403);
      expect(((await crossSite.json()) as { error: { code: string } }).error.code).toBe('CROSS_SITE');
    });

    it('tells a browser with no passkey of this site so, and it can still ask for a link', async () => {
      const { page } = await withAuthenticator();
      await withoutAutofill(page);
      await page.goto(`${app.url}/auth/sign-in`);
      await page.locator('#passkey-button').waitFor({ state: 'visible', ...WAIT });
      await page.locator('#passkey-button').click();
      await expect.poll(() => page.locator('#passkey-status').innerText(), WAIT).not.toBe('');
      expect(await me(page)).toBeNull();
      expect(await page.locator('#email').isVisible()).toBe(true);
    });

    it('refuses a cloned authenticator whose counter went backwards, in the page and with a code', async () => {
      const { cdp, authenticatorId } = made;
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      const original = credentials[0]!;
      const clone = await withAuthenticator();
      await clone.cdp.send('WebAuthn.addCredential', {
        authenticatorId: clone.authenticatorId,
        credential: { ...original, signCount: 0 },
      });
      await withoutAutofill(clone.page);
      await clone.page.goto(`${app.url}/auth/sign-in`);
      await clone.page.locator('#passkey-button').waitFor({ state: 'visible', ...WAIT });
      const [answer] = await Promise.all([
        clone.page.waitForResponse((r) => r.url() === `${app.url}/auth/passkey/login`, WAIT),
        clone.page.locator('#passkey-button').click(),
      ]);
      expect(answer.status()).toBe(401);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('PASSKEY_COUNTER_BACKWARDS');
      await expect.poll(() => clone.page.locator('#passkey-status').innerText(), WAIT).toContain('sign-in link');
      expect(await me(clone.page)).toBeNull();
    });

    it('"Not now" goes on to successRedirect and is remembered for that browser', async () => {
      const { page } = await withAuthenticator();
      const other = email();
      await linkLogin(page, other);
      await page.waitForURL(`${app.url}/auth/passkey`, WAIT);
      await Promise.all([
        page.waitForURL(`${app.url}/me`, WAIT),
        page.getByRole('button', { name: 'Not now' }).click(),
      ]);
      expect(await me(page)).toEqual({ id: other, via: 'link' });
      await page.request.post(`${app.url}/logout`, { headers: { origin: app.url } });
      await linkLogin(page, other);
      await page.waitForURL(`${app.url}/me`, WAIT);
      expect(await passkeysOf(app.strategy).list(other)).toEqual([]);
    });

    it('makes no offer with scripts off: the page goes straight on', async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      contexts.push(context);
      const page = await context.newPage();
      const other = email();
      await page.goto(`${app.url}/auth/sign-in`);
      expect(await page.locator('#passkey').isHidden()).toBe(true);
      await page.locator('#email').fill(other);
      await Promise.all([
        page.waitForURL(`${app.url}/auth/waiting`, WAIT),
        page.locator('form button[type="submit"]').click(),
      ]);
      await page.goto(linkTo(emulator, other));
      await page.waitForURL(`${app.url}/me`, WAIT);
      expect(await me(page)).toEqual({ id: other, via: 'link' });
    });
  });
}
