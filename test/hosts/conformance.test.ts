import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';
import { linkTo, openLink } from '../examples/helpers/inbox.js';
import { CLIENT, HOSTS } from './hosts.js';
import type { HostDefinition, ScenarioOptions } from './hosts.js';
import { SCENARIOS } from './scenarios.js';
import type { ScenarioId } from './scenarios.js';

// One conformance suite for every host: the same login scenarios over real HTTP, with the
// emulator on port 0, against Express 4 and 5, Connect, Fastify on both session plugins (and
// NestJS, see nestjs.test.ts). docs/frameworks.md's host table is checked against SCENARIOS.

const JSON_ACCEPT = { accept: 'application/json' };

let emulator: Emulator;
beforeAll(async () => {
  await ensureBuilt(); // the NestJS example imports 'passport-otpless' (dist/)
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
}, 180_000);
afterAll(() => emulator?.close());

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(host: HostDefinition, options: ScenarioOptions = {}): Promise<Browser> {
  current = host;
  const running = await host.start(emulator, options);
  close = running.close;
  return new Browser(running.url);
}

let counter = 0;
const email = (host: HostDefinition): string => `${host.id}-${(counter += 1)}@example.com`;
const mobile = (): string => `+9198${String(10_000_000 + (counter += 1)).slice(-8)}`;

let current: HostDefinition;
/** `{ user }` of GET /me, however the host's app shows it. */
const me = async (browser: Browser): Promise<unknown> =>
  current.me ? current.me(browser) : (await browser.get('/me', JSON_ACCEPT)).json();
const signedIn = (): number => current.successStatus ?? 302;

/** Sends a link by e-mail from `browser` and opens it there: the callback's answer. */
async function sameBrowserLogin(browser: Browser, host: HostDefinition, risk?: string) {
  const to = email(host);
  const sent = await browser.postJson('/auth/magic-link', { email: to });
  expect(sent.status).toBe(200);
  return { to, callback: await openLink(browser, linkTo(emulator, to), risk) };
}

/** The laptop sends to a mobile number; the phone (another browser) opens the link. */
async function handoff(laptop: Browser) {
  const to = mobile();
  const sent = await laptop.postJson('/auth/magic-link', { mobile: to });
  expect(sent.status).toBe(200);
  const { match } = sent.json<{ match: string }>();
  expect(match).toMatch(/^\d{2}$/);
  const phone = laptop.fresh();
  const link = linkTo(emulator, to);
  const redirect = await phone.get(link);
  const callbackUrl = redirect.location!;
  const page = await phone.get(callbackUrl);
  return { to, match, phone, page, callbackUrl };
}

const RUN: Record<ScenarioId, (host: HostDefinition) => Promise<void>> = {
  async emailSameBrowser(host) {
    const browser = await start(host);
    const { to, callback } = await sameBrowserLogin(browser, host);
    expect(callback.status).toBe(signedIn());
    expect(callback.location).toMatch(/\/me$/);
    expect(callback.headers.get('cache-control')).toBe('no-store');
    expect(callback.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await me(browser)).toEqual({ user: { id: to } });
  },

  async mobileHandoff(host) {
    const laptop = await start(host);
    const { to, match, phone, page, callbackUrl } = await handoff(laptop);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Approve sign-in on your computer?');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect((await laptop.get('/auth/status', JSON_ACCEPT)).json()).toMatchObject({ status: 'pending', match });

    const approved = await phone.postForm(callbackUrl, { match });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('You are signed in on your computer');
    expect(await me(phone)).toEqual({ user: null });

    expect((await laptop.get('/auth/status', JSON_ACCEPT)).json()).toMatchObject({ status: 'approved' });
    const finish = await laptop.get('/auth/callback');
    expect(finish.status).toBe(signedIn());
    expect(finish.location).toMatch(/\/me$/);
    expect(await me(laptop)).toEqual({ user: { id: to } });
  },

  async wrongNumber(host) {
    const laptop = await start(host);
    const { match, phone, callbackUrl } = await handoff(laptop);
    const wrong = match === '42' ? '43' : '42';
    const denied = await phone.postForm(callbackUrl, { match: wrong });
    expect(denied.status).toBe(403);
    expect(denied.text).toContain('Sign-in cancelled');
    expect((await laptop.get('/auth/status', JSON_ACCEPT)).json()).toMatchObject({ status: 'denied' });
    // The right number afterwards changes nothing: the flow is over.
    expect((await phone.postForm(callbackUrl, { match })).status).toBe(410);
    expect((await laptop.get('/auth/callback')).status).toBe(403);
    expect(await me(laptop)).toEqual({ user: null });
  },

  async frontendTokenOnce(host) {
    const browser = await start(host);
    const to = email(host);
    const token = emulator.issueToken({ email: to });
    const first = await browser.postForm('/auth/callback', { token });
    expect(first.status).toBe(signedIn());
    expect(await me(browser)).toEqual({ user: { id: to } });
    const other = browser.fresh();
    expect((await other.postForm('/auth/callback', { token })).status).toBe(401);
    expect(await me(other)).toEqual({ user: null });
    // From another site, even a fresh token is refused before it is checked.
    const cross = await other.postForm(
      '/auth/callback',
      { token: emulator.issueToken({ email: to }) },
      { origin: 'https://evil.example' },
    );
    expect(cross.status).toBe(403);
  },

  async confirmMode(host) {
    const browser = await start(host, { confirm: true });
    const to = email(host);
    await browser.postJson('/auth/magic-link', { email: to });
    const redirect = await browser.get(linkTo(emulator, to));
    const page = await browser.get(redirect.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm sign-in');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await me(browser)).toEqual({ user: null });
    const code = /name="code" value="([^"]+)"/.exec(page.text)?.[1];
    expect(code).toBeDefined();
    // A post from another site is refused; the person's own post signs in.
    const cross = await browser.postForm(redirect.location!, { code: code! }, { origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    const confirmed = await browser.postForm(redirect.location!, { code: code! });
    expect(confirmed.status).toBe(signedIn());
    expect(await me(browser)).toEqual({ user: { id: to } });
  },

  async guardAllow(host) {
    const browser = await start(host);
    expect((await browser.get('/payments', JSON_ACCEPT)).status).toBe(401);
    const { callback } = await sameBrowserLogin(browser, host);
    expect(callback.status).toBe(signedIn());
    const payments = await browser.get('/payments', JSON_ACCEPT);
    expect(payments.status).toBe(200);
  },

  async guardBlock(host) {
    const browser = await start(host);
    const { callback } = await sameBrowserLogin(browser, host, 'bot');
    expect(callback.status).toBe(signedIn());
    const payments = await browser.get('/payments', JSON_ACCEPT);
    expect(payments.status).toBe(403);
    expect(payments.json()).toEqual({ error: { code: 'RISK_BLOCKED' } });
    const page = await browser.get('/payments');
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  },

  async logout(host) {
    const browser = await start(host);
    const { to } = await sameBrowserLogin(browser, host);
    expect(await me(browser)).toEqual({ user: { id: to } });
    expect((await browser.postJson(host.logoutPath ?? '/logout', {})).status).toBe(200);
    expect(await me(browser)).toEqual({ user: null });
    expect((await browser.get('/payments', JSON_ACCEPT)).status).toBe(401);
  },
};

for (const host of HOSTS) {
  describe(`${host.label} with ${host.session}`, () => {
    for (const scenario of SCENARIOS) {
      it(scenario.title, () => RUN[scenario.id](host));
    }
  });
}
