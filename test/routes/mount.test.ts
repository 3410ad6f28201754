import { Passport } from 'passport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { botCheck, MagicLinkStrategy, magicLinkRoutes } from '../../src/index.js';
import { startFakeSiteverify } from '../helpers/fakeSiteverify.js';
import type { MagicLinkRoutesOptions, MagicLinkStrategyOptions } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser, visibleText } from '../examples/helpers/browser.js';
import { linkTo } from '../examples/helpers/inbox.js';
import { useMountApps } from '../helpers/mountApp.js';

// The one mount as the Quick start writes it: Express 5, express-session, Passport, and no
// page, body parser or callback route of the app's own.

const CLIENT = { clientId: 'mount-client', clientSecret: 'mount-secret-value-0123456789' };
let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(() => emulator?.close());

interface App {
  url: string;
  browser: Browser;
  strategy: MagicLinkStrategy;
}
const startMountApp = useMountApps(() => emulator, CLIENT, 'mount-session-secret');
afterEach(() => emulator.clearFaults());

async function startApp(
  mount: Omit<MagicLinkRoutesOptions, 'passport'> = {},
  strategyOptions: Partial<MagicLinkStrategyOptions> = {},
): Promise<App> {
  const { app, url, strategy } = await startMountApp(mount, strategyOptions);
  app.get('/me', (req, res) => void res.json({ user: req.user ?? null }));
  app.get('/payments', (_req, res) => void res.json({ ok: true }));
  return { url, browser: new Browser(url), strategy };
}

let counter = 0;
const address = (): string => `mount-${(counter += 1)}@example.com`;
const number = (): string => `+9198${String(20_000_000 + (counter += 1)).slice(-8)}`;

describe('magicLinkRoutes(): the sign-in page', () => {
  it('is served at the sibling of the callback path, with a form that posts to the send route', async () => {
    const { browser } = await startApp();
    const page = await browser.get('/auth/sign-in');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('action="/auth/magic-link"');
    expect(page.text).toContain('name="email"');
    expect(page.text).toContain('name="mobile"');
  });

  it('says how a number without + is read when the mount has a defaultCountry, in the page’s language', async () => {
    const { browser } = await startApp({ defaultCountry: 'IN' });
    expect(visibleText((await browser.get('/auth/sign-in')).text)).toContain('or as you would dial it in India.');
    const es = await browser.get('/auth/sign-in', { 'accept-language': 'es' });
    expect(visibleText(es.text)).toContain('o como lo marcarías en India.');
    const plain = await startApp();
    expect(visibleText((await plain.browser.get('/auth/sign-in')).text)).toContain('With its country code, such as');
  });

  it('shows a refused address next to its field, with what was typed, and no stack trace', async () => {
    const { browser } = await startApp();
    await browser.get('/auth/sign-in');
    const refused = await browser.postForm('/auth/magic-link', { email: 'ana@localhost' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(visibleText(refused.text)).toContain('Enter a valid e-mail address');
    expect(refused.text).toContain('value="ana@localhost"');
    expect(refused.text).toContain('aria-invalid="true"');
    expect(refused.text).not.toMatch(/at \S+ \(|node_modules|\.ts:\d+/);
  });

  it('asks a person who sent an empty form for an address, in words for people', async () => {
    const { browser } = await startApp();
    const empty = await browser.postForm('/auth/magic-link', {});
    expect(empty.status).toBe(400);
    expect(visibleText(empty.text)).toContain('Enter an e-mail address or a mobile number.');
    expect(empty.text).not.toContain('application/x-www-form-urlencoded');
  });

  it('keeps a JSON client on JSON: the refusal is the send route’s JSON', async () => {
    const { browser } = await startApp();
    const refused = await browser.postJson('/auth/magic-link', { email: 'ana@localhost' });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'email' } });
  });
});

describe('magicLinkRoutes(): an e-mail link in the same browser', () => {
  it('sends, waits on the package’s page, and the link signs in to successRedirect', async () => {
    const { browser } = await startApp();
    const to = address();
    const sent = await browser.postForm('/auth/magic-link', { email: to });
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(/\/auth\/waiting$/);
    const waiting = await browser.get('/auth/waiting');
    expect(waiting.status).toBe(200);
    expect(visibleText(waiting.text)).toContain('•••@example.com');
    expect(waiting.text).not.toContain(to);

    const redirect = await browser.get(linkTo(emulator, to));
    const callback = await browser.get(redirect.location!);
    expect(callback.status).toBe(303);
    expect(callback.location).toMatch(/\/me$/);
    expect((await browser.get('/me', { accept: 'application/json' })).json()).toEqual({
      user: { id: expect.any(String) },
    });
    // A tab still on the waiting page goes on to where a login goes.
    const stale = await browser.get('/auth/waiting');
    expect(stale.status).toBe(303);
    expect(stale.location).toMatch(/\/me$/);
  });

  it('shows the error page for a link used twice, and keeps the visitor signed out', async () => {
    const { browser } = await startApp();
    const to = address();
    await browser.postForm('/auth/magic-link', { email: to });
    const link = (await browser.get(linkTo(emulator, to))).location!;
    expect((await browser.get(link)).status).toBe(303);
    const other = browser.fresh();
    const again = await other.get(link);
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(visibleText(again.text)).toContain('Start again');
    expect(again.text).toContain('href="/auth/sign-in"');
    expect((await other.get('/me', { accept: 'application/json' })).json()).toEqual({ user: null });
  });

  it('returns to the page the visitor came from (returnTo), and only to a path of this site', async () => {
    const { browser } = await startApp();
    const page = await browser.get('/auth/sign-in?returnTo=%2Fpayments');
    expect(page.text).toContain('name="returnTo" value="/payments"');
    const to = address();
    await browser.postForm('/auth/magic-link', { email: to, returnTo: '/payments' });
    const redirect = await browser.get(linkTo(emulator, to));
    const callback = await browser.get(redirect.location!);
    expect(callback.location).toMatch(/\/payments$/);

    const evil = await browser.fresh().get('/auth/sign-in?returnTo=%2F%2Fevil.example');
    expect(evil.text).not.toContain('evil.example');
  });

  it('answers a JSON client with JSON at every step', async () => {
    const { browser } = await startApp();
    const to = address();
    const sent = await browser.postJson('/auth/magic-link', { email: to });
    expect(sent.status).toBe(200);
    expect(sent.json()).toMatchObject({
      sent: [{ type: 'EMAIL', channel: 'EMAIL' }],
      match: expect.stringMatching(/^\d{2}$/),
    });
    const link = new URL((await browser.get(linkTo(emulator, to))).location!);
    const done = await browser.postJson('/auth/callback', {
      code: link.searchParams.get('code'),
      flow: link.searchParams.get('flow'),
    });
    expect(done.status).toBe(200);
    expect(done.json()).toEqual({ signedIn: true, redirect: '/me' });
  });
});

describe('magicLinkRoutes(): a mobile link opened on the phone', () => {
  it('shows the number on the waiting page; the phone types it; the laptop’s waiting page finishes the login', async () => {
    const { browser: laptop } = await startApp();
    const to = number();
    await laptop.postForm('/auth/magic-link', { mobile: to });
    const waiting = await laptop.get('/auth/waiting');
    const { match } = (await laptop.get('/auth/status', { accept: 'application/json' })).json<{ match: string }>();
    expect(visibleText(waiting.text)).toContain(match);

    const phone = laptop.fresh();
    const callbackUrl = (await phone.get(linkTo(emulator, to))).location!;
    expect((await phone.get(callbackUrl)).status).toBe(200);
    expect((await phone.postForm(callbackUrl, { match })).status).toBe(200);

    // Scripts off: the page reloads; an approved flow goes on to the callback, which signs in.
    const reload = await laptop.get('/auth/waiting');
    expect(reload.status).toBe(303);
    expect(reload.location).toMatch(/\/auth\/callback$/);
    const finish = await laptop.get(reload.location!);
    expect(finish.status).toBe(303);
    expect(finish.location).toMatch(/\/me$/);
    expect((await phone.get('/me', { accept: 'application/json' })).json()).toEqual({ user: null });
  });

  it('sends the link again from the waiting page, to the same number, without the number in the page', async () => {
    const { browser } = await startApp({ resendAfterSeconds: 0 });
    const to = number();
    await browser.postForm('/auth/magic-link', { mobile: to });
    const before = emulator.outbox().length;
    const page = await browser.get('/auth/waiting');
    expect(page.text).toContain('name="resend" value="1"');
    expect(page.text).not.toContain(to.slice(-8));
    const again = await browser.postForm('/auth/magic-link', { resend: '1' });
    expect(again.status).toBe(303);
    expect(emulator.outbox().length).toBe(before + 1);
    expect(emulator.outbox().at(-1)!.to).toBe(to.replace(/\D/g, ''));
  });

  it('sends a browser that waits for nothing to the sign-in page', async () => {
    const { browser } = await startApp();
    const page = await browser.get('/auth/waiting');
    expect(page.status).toBe(303);
    expect(page.location).toMatch(/\/auth\/sign-in$/);
  });
});

describe('magicLinkRoutes(): routes and options', () => {
  it('answers only GET, HEAD and POST on the callback, and POST on the send', async () => {
    const { url } = await startApp();
    const put = await fetch(`${url}/auth/callback`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    const get = await fetch(`${url}/auth/magic-link`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('refuses a body larger than any sign-in with 413, on the send and on the callback', async () => {
    const { browser } = await startApp();
    const big = await browser.postJson('/auth/magic-link', { email: `${'a'.repeat(20_000)}@example.com` });
    expect(big.status).toBe(413);
    expect(big.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    const page = await browser.postForm('/auth/callback', { code: 'a'.repeat(20_000) });
    expect(page.status).toBe(413);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(visibleText(page.text)).toContain('BODY_TOO_LARGE');
  });

  it('leaves every other path to the app', async () => {
    const { browser } = await startApp();
    expect((await browser.get('/payments', { accept: 'application/json' })).json()).toEqual({ ok: true });
  });

  it('takes other paths, and the app’s own sign-in and error pages', async () => {
    const { browser } = await startApp({ paths: { signIn: '/login' }, pages: { error: '/oops' } });
    expect((await browser.get('/login')).status).toBe(200);
    const bad = await browser.get('/auth/callback?code=x&flow=y');
    expect(bad.status).toBe(303);
    expect(bad.location).toMatch(/\/oops\?error=[A-Z_]+$/);
    const own = await startApp({ pages: { signIn: '/welcome' } });
    expect((await own.browser.get('/auth/sign-in')).status).toBe(404);
    const refused = await own.browser.postForm('/auth/magic-link', { email: 'ana@localhost' });
    expect(refused.location).toMatch(/\/welcome\?error=INVALID_INPUT&field=email$/);
  });

  it('refuses unknown options, paths off this site and a missing passport, naming each', async () => {
    const { strategy } = await startApp();
    const passport = new Passport();
    expect(() => magicLinkRoutes(strategy, { passport, sucessRedirect: '/' } as never)).toThrow(/sucessRedirect/);
    expect(() => magicLinkRoutes(strategy, { passport, successRedirect: '//evil.example' })).toThrow(/successRedirect/);
    expect(() => magicLinkRoutes(strategy, { passport, paths: { signIn: 'login' } })).toThrow(/paths\.signIn/);
    expect(() => magicLinkRoutes(strategy, {} as never)).toThrow(/passport/);
    expect(() => magicLinkRoutes({}, { passport })).toThrow(/MagicLinkStrategy/);
  });
});

describe('magicLinkRoutes(): with a bot check', () => {
  it('draws the widget on the sign-in page (its provider allowed by the CSP), and a resend needs no new token', async () => {
    const provider = await startFakeSiteverify();
    try {
      const check = botCheck({
        provider: 'turnstile',
        secret: 'turnstile-secret',
        siteKey: '0x4AAA',
        verifyUrl: provider.url,
      });
      const { browser } = await startApp({ resendAfterSeconds: 0 }, { botCheck: check });
      const page = await browser.get('/auth/sign-in');
      expect(page.text).toContain('<div class="cf-turnstile" data-sitekey="0x4AAA"></div>');
      expect(page.text).toContain('<script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer>');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain('script-src https://challenges.cloudflare.com');
      expect(csp).toContain('frame-src https://challenges.cloudflare.com');

      const robot = await browser.postForm('/auth/magic-link', { email: 'robot@example.com' });
      expect(robot.status).toBe(403);
      expect(robot.text).toContain('cf-turnstile');
      const person = await browser.postForm('/auth/magic-link', {
        email: address(),
        'cf-turnstile-response': 'person',
      });
      expect(person.status).toBe(303);
      const calls = provider.calls.length;
      const again = await browser.postForm('/auth/magic-link', { resend: '1' });
      expect(again.status).toBe(303);
      expect(provider.calls.length).toBe(calls);
    } finally {
      await provider.close();
    }
  });
});
