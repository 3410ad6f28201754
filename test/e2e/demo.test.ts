import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';

const CHROMIUM = '/usr/bin/chromium';
const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
const CLIENT = { clientId: 'e2e-demo-client', clientSecret: 'e2e-demo-secret-value' };

if (!existsSync(CHROMIUM)) {
  describe('demo in a real browser', () => {
    it.skip(`needs ${CHROMIUM} (apt-get install -y --no-install-recommends chromium); CI installs it`, () => {});
  });
} else {
  // The demo app imports 'passport-otpless' (dist/): build it first if src/ changed.
  await ensureBuilt();
  const { startApp } = await import('../../examples/express-cookie-session/app.mjs');

  let emulator: Emulator;
  let app: Awaited<ReturnType<typeof startApp>>;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    app = await startApp({
      otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
      sessionKeys: ['e2e-demo-session-key-0123456789'],
      devInboxUrl: `${emulator.authUrl}/`,
      // Every test signs in from 127.0.0.1: the per-IP limit would stop the suite, not a person.
      limits: { perIp: { limit: 100, windowSeconds: 60 }, perDestination: { limit: 3, windowSeconds: 600 } },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    await browser?.close();
    await app?.close();
    await emulator?.close();
  });

  /** A new browser profile: its own cookies, as a second browser or device would have. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 860 }, locale: 'en-US' });
    contexts.push(context);
    return context.newPage();
  }

  /** Fills the sign-in form and lands on the waiting page ("Check your inbox", "Check WhatsApp" ...). */
  async function askForLink(page: Page, contact: string, via: 'WHATSAPP' | 'SMS' = 'WHATSAPP'): Promise<void> {
    await page.goto(app.url);
    await page.getByLabel('E-mail or mobile number').fill(contact);
    if (via === 'SMS') await page.getByLabel('SMS').check();
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    const title = contact.includes('@') ? 'Check your inbox' : via === 'SMS' ? 'Check your messages' : 'Check WhatsApp';
    await expect(page.getByRole('heading', { name: title }).isVisible()).resolves.toBe(true);
  }

  /** From "Check your inbox" to the dev inbox, then the link of `to`, as the given scenario. */
  async function openFromInbox(page: Page, to: string, button = 'Open link'): Promise<string> {
    await page.getByRole('link', { name: 'Open the dev inbox' }).click();
    await page.waitForURL(`${emulator.authUrl}/`);
    const link = page.locator('section', { hasText: to }).first().getByRole('link', { name: button, exact: true });
    const href = (await link.getAttribute('href')) ?? '';
    await link.click();
    await page.waitForLoadState();
    return href;
  }

  function heading(page: Page): Promise<string> {
    return page.locator('h1').innerText();
  }

  describe('demo in a real browser', () => {
    it('shows the field error next to the field', async () => {
      const page = await newPage();
      await page.goto(app.url);
      await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
      expect(await page.locator('#contact-error').innerText()).toBe('Enter an e-mail address or a mobile number.');
      expect(await page.getByLabel('E-mail or mobile number').getAttribute('aria-invalid')).toBe('true');
    });

    it('signs in by e-mail through the dev inbox, opens payments, refuses a replay, signs out', async () => {
      const page = await newPage();
      await askForLink(page, 'jane.doe@example.com');
      expect(await page.locator('main').innerText()).toContain('ja•••@example.com');
      const link = await openFromInbox(page, 'jane.doe@example.com');

      expect(new URL(page.url()).pathname).toBe('/account');
      expect(await heading(page)).toBe('Welcome, Jane Doe');
      const account = await page.locator('main').innerText();
      expect(account).toContain('jane.doe@example.com');
      expect(account).toContain('Low risk');
      expect(account).toMatch(/Browser\s+Chrome/);
      expect(account).toContain('Bengaluru, India');
      await page.screenshot({ path: `${RESULTS}account.png`, fullPage: true });

      await page.getByRole('link', { name: 'Open payments' }).click();
      expect(await heading(page)).toBe('Payments');

      // The same link again: refused, and the person stays signed in.
      const replay = await page.goto(link);
      expect(replay?.status()).toBeGreaterThanOrEqual(400);
      expect(await heading(page)).toBe('This link did not sign you in');
      expect(await page.locator('main').innerText()).toContain('You are still signed in as Jane Doe.');
      await page.getByRole('link', { name: 'Go to your account' }).click();
      expect(await heading(page)).toBe('Welcome, Jane Doe');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${app.url}/`);
      expect(await heading(page)).toBe('Sign in to Acme');
      await page.goto(`${app.url}/account`);
      expect(new URL(page.url()).pathname).toBe('/');
      expect((await page.context().cookies()).some((c) => c.name === 'acme.session')).toBe(false);
    });

    it('signs in by mobile number', async () => {
      const page = await newPage();
      await askForLink(page, '+1 (415) 555-0123');
      await openFromInbox(page, '14155550123');
      expect(await heading(page)).toBe('Welcome, User 0123');
      expect(await page.locator('main').innerText()).toContain('+14155550123');
    });

    it('refuses payments to a VPN sign-in with a friendly page', async () => {
      const page = await newPage();
      await askForLink(page, 'vpn.user@example.com');
      await openFromInbox(page, 'vpn.user@example.com', 'as vpn');
      expect(await page.locator('main').innerText()).toContain('Needs confirmation');
      const [response] = await Promise.all([
        page.waitForResponse(`${app.url}/payments`),
        page.getByRole('link', { name: 'Open payments' }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect(await heading(page)).toBe('Please confirm it is you');
      expect(await page.locator('main').innerText()).not.toMatch(/timezoneMismatch|publicVPN|signal/);
      await page.screenshot({ path: `${RESULTS}refused.png`, fullPage: true });
    });

    it('blocks payments to a bot sign-in', async () => {
      const page = await newPage();
      await askForLink(page, 'bot.user@example.com');
      await openFromInbox(page, 'bot.user@example.com', 'as bot');
      expect(await page.locator('main').innerText()).toContain('High risk');
      await page.getByRole('link', { name: 'Open payments' }).click();
      expect(await heading(page)).toBe('This page is not available from this sign-in');
    });

    it('mobile number asked on the laptop, approved on the phone: the laptop lands on the account', async () => {
      const laptop = await newPage();
      await askForLink(laptop, '+1 (415) 555-0142', 'SMS');
      const number = (await laptop.locator('.match .number').innerText()).trim();
      expect(number).toMatch(/^\d{2}$/);
      await laptop.screenshot({ path: `${RESULTS}handoff-laptop-waiting.png`, fullPage: true });

      // The phone: its own browser profile, at phone size, opening the link from the inbox.
      const phoneContext = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        locale: 'en-US',
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      });
      contexts.push(phoneContext);
      const phone = await phoneContext.newPage();
      await phone.goto(`${emulator.authUrl}/`);
      await phone
        .locator('section', { hasText: '14155550142' })
        .first()
        .getByRole('link', { name: 'Open link', exact: true })
        .click();
      await phone.waitForLoadState();
      expect(await heading(phone)).toBe('Approve sign-in on your computer?');
      expect(await phone.locator('main').innerText()).toMatch(/Chrome on Linux|Chrome/);
      await phone.screenshot({ path: `${RESULTS}handoff-phone-approve.png`, fullPage: true });
      await phone.getByLabel('Number').fill(number);
      await phone.getByRole('button', { name: 'Approve' }).click();
      await phone.waitForLoadState();
      expect(await heading(phone)).toBe('You are signed in on your computer');
      await phone.screenshot({ path: `${RESULTS}handoff-phone-done.png`, fullPage: true });

      // The laptop's waiting page goes on by itself (its script polls /auth/status).
      await laptop.waitForURL(`${app.url}/account`, { timeout: 15_000 });
      expect(await heading(laptop)).toBe('Welcome, User 0142');
      await laptop.screenshot({ path: `${RESULTS}handoff-laptop-account.png`, fullPage: true });
    });
  });
}
