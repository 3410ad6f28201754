// The cross-device handoff on native Fastify (@fastify/passport, otplessFastify()), in real
// Chromium: the desktop asks for a link for a mobile number and waits with a two-digit number;
// a phone-sized browser opens the link from the dev inbox, types the number and approves; the
// desktop's waiting page goes on by itself and lands signed in. Once per session plugin.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from './browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { startFastifyApp } from './fastifyApp.js';
import type { FastifyApp, FastifySessionKind } from './fastifyApp.js';

const RESULTS = fileURLToPath(new URL('../../test-results/fastify/', import.meta.url));
const CLIENT = { clientId: 'e2e-fastify-client', clientSecret: 'e2e-fastify-secret-value' };
const DESKTOP = { width: 1200, height: 860 };
const PHONE = { width: 390, height: 844 };
/** Generous: a cold Chromium on a busy 2-core machine; these wait on events, not on time. */
const WAIT = { timeout: 30_000 };
const SESSIONS: readonly FastifySessionKind[] = ['@fastify/session', '@fastify/secure-session'];

if (!existsSync(CHROMIUM)) {
  describe('handoff on native Fastify in a real browser', () => {
    it.skip(`needs ${CHROMIUM} (apt-get install -y --no-install-recommends chromium); CI installs it`, () => {});
  });
} else {
  let emulator: Emulator;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    await browser?.close();
    await emulator?.close();
  });

  async function shoot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: `${RESULTS}${name}.png`, fullPage: true });
  }

  const heading = (page: Page): Promise<string> => page.locator('h1').innerText();

  describe.each(SESSIONS)('handoff on native Fastify with %s, in a real browser', (session) => {
    const tag = session.replace('@fastify/', '');
    let app: FastifyApp;

    beforeAll(async () => {
      app = await startFastifyApp(emulator, CLIENT, session);
    });
    afterAll(() => app?.close());

    it('the desktop asks, the phone approves with the number, the desktop ends signed in', async () => {
      const mobile = session === '@fastify/session' ? '+919810000101' : '+919810000202';

      // The desktop: its own browser profile, asking for a link for a mobile number.
      const desktopContext = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
      contexts.push(desktopContext);
      const desktop = await desktopContext.newPage();
      await desktop.goto(app.url);
      expect(await heading(desktop)).toBe('Sign in');
      await desktop.getByLabel('Mobile number').fill(mobile);
      await desktop.getByRole('button', { name: 'Send me a sign-in link' }).click();
      await desktop.waitForURL(`${app.url}/waiting`, WAIT);
      expect(await heading(desktop)).toBe('Check your messages');
      const number = (await desktop.getByLabel('Number to type on your phone').innerText()).trim();
      expect(number).toMatch(/^\d{2}$/);
      // What the waiting page polls: this browser's flow, pending, with the number shown.
      const status = await desktop.request.get(`${app.url}/auth/status`);
      expect(await status.json()).toMatchObject({ status: 'pending', match: number });
      await shoot(desktop, `${tag}-1-desktop-waiting`);

      // The phone: another profile at phone size, opening the link from the dev inbox.
      const phoneContext = await browser.newContext({
        viewport: PHONE,
        isMobile: true,
        hasTouch: true,
        locale: 'en-US',
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      });
      contexts.push(phoneContext);
      const phone = await phoneContext.newPage();
      await phone.goto(`${emulator.authUrl}/`);
      const link = phone
        .locator('section', { hasText: mobile.slice(1) })
        .first()
        .getByRole('link', { name: 'Open link', exact: true });
      await link.waitFor(WAIT);
      await shoot(phone, `${tag}-2-phone-inbox`);
      const [approvalPage] = await Promise.all([
        phone.waitForResponse((r) => r.url().startsWith(`${app.url}/auth/callback`), WAIT),
        link.click(),
      ]);
      await phone.waitForLoadState();
      expect(approvalPage.status()).toBe(200);
      expect(approvalPage.headers()['cache-control']).toBe('no-store');
      expect(await heading(phone)).toBe('Approve sign-in on your computer?');
      expect(await phone.locator('main').innerText()).toContain('Chrome');
      // Nothing sticks out sideways at phone width.
      expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await shoot(phone, `${tag}-3-phone-approve`);

      await phone.getByLabel('Number').fill(number);
      const [approved] = await Promise.all([
        phone.waitForResponse(
          (r) => r.request().method() === 'POST' && r.url().startsWith(`${app.url}/auth/callback`),
          WAIT,
        ),
        phone.getByRole('button', { name: 'Approve' }).click(),
      ]);
      await phone.waitForLoadState();
      expect(approved.status()).toBe(200);
      expect(await heading(phone)).toBe('You are signed in on your computer');
      await shoot(phone, `${tag}-4-phone-approved`);
      // The phone itself is not signed in: only the asking browser is.
      const phoneMe = await phone.goto(`${app.url}/me`);
      expect(phoneMe?.status()).toBe(401);
      expect(await heading(phone)).toBe('You are not signed in');

      // The desktop's waiting page goes on by itself (its script polls /auth/status).
      await desktop.waitForURL(`${app.url}/me`, WAIT);
      expect(await heading(desktop)).toBe('You are signed in');
      expect(await desktop.locator('main').innerText()).toContain(`Signed in as ${mobile}`);
      await shoot(desktop, `${tag}-5-desktop-signed-in`);
      // Reloaded, it is still signed in: the session plugin wrote the login to its cookie.
      const again = await desktop.reload();
      expect(again?.status()).toBe(200);
      expect(await heading(desktop)).toBe('You are signed in');
    });
  });
}
