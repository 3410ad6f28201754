import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from './browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';

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
    browser = await launchChromium();
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    await browser?.close();
    await app?.close();
    await emulator?.close();
  });

  const DESKTOP = { width: 1200, height: 860 };
  const PHONE = { width: 390, height: 844 };

  /** A new browser profile: its own cookies, as a second browser or device would have. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
    contexts.push(context);
    return context.newPage();
  }

  /**
   * A full-page screenshot into test-results/: `<name>.png` at the page's size, and with
   * `phone` also `<name>-390.png` at 390 x 844, the width of a phone.
   */
  async function shoot(page: Page, name: string, { phone = false } = {}): Promise<void> {
    await page.screenshot({ path: `${RESULTS}${name}.png`, fullPage: true });
    if (!phone) return;
    const size = page.viewportSize() ?? DESKTOP;
    await page.setViewportSize(PHONE);
    // Nothing may stick out sideways at phone width.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${RESULTS}${name}-390.png`, fullPage: true });
    await page.setViewportSize(size);
  }

  /** Fills the package's sign-in page and lands on its waiting page ("Check your messages"). */
  async function askForLink(
    page: Page,
    contact: string,
    via: 'WHATSAPP' | 'SMS' = 'WHATSAPP',
    { go = true } = {},
  ): Promise<void> {
    if (go) await page.goto(app.url);
    await page.getByLabel(contact.includes('@') ? 'E-mail address' : 'Mobile number').fill(contact);
    if (via === 'SMS') await page.getByLabel('SMS').check();
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await page.waitForURL(`${app.url}/auth/waiting`);
    await expect(page.getByRole('heading', { name: 'Check your messages' }).isVisible()).resolves.toBe(true);
  }

  /** From the waiting page (which names the dev inbox) to the inbox, then the link of `to`, as the given scenario. */
  async function openFromInbox(page: Page, to: string, button = 'Open link', screenshot?: string): Promise<string> {
    expect(await mainText(page)).toContain(`dev inbox, ${emulator.authUrl}/`);
    await page.goto(`${emulator.authUrl}/`);
    if (screenshot) await shoot(page, screenshot, { phone: true });
    const link = page.locator('section', { hasText: to }).first().getByRole('link', { name: button, exact: true });
    const href = (await link.getAttribute('href')) ?? '';
    await link.click();
    await page.waitForLoadState();
    return href;
  }

  function heading(page: Page): Promise<string> {
    return page.locator('h1').innerText();
  }

  function mainText(page: Page): Promise<string> {
    return page.locator('main').innerText();
  }

  /** Follows a link and returns the status of the page it loads. */
  async function clickLink(page: Page, name: string, path: string): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse(`${app.url}${path}`),
      page.getByRole('link', { name, exact: true }).click(),
    ]);
    await page.waitForLoadState();
    return response.status();
  }

  describe('demo in a real browser', () => {
    it("shows the package's sign-in page in Acme's colours, and the field error next to the field", async () => {
      const page = await newPage();
      await page.goto(app.url);
      expect(new URL(page.url()).pathname).toBe('/auth/sign-in');
      expect(await heading(page)).toBe('Sign in');
      expect(await page.locator('.brand').innerText()).toBe('Acme');
      expect(await page.locator('[role=alert]').count()).toBe(0);
      await shoot(page, 'sign-in', { phone: true });
      // (An e-mail field with a typo is held back by the browser's own check: a short number is not.)
      await page.getByLabel('Mobile number').fill('12');
      await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
      expect(await page.locator('#mobile-error').innerText()).toMatch(/^Enter the mobile number with its country code/);
      expect(await page.getByLabel('Mobile number').getAttribute('aria-invalid')).toBe('true');
      await shoot(page, 'sign-in-field-error', { phone: true });
    });

    it('signs in by e-mail through the dev inbox, opens payments, refuses a replay, signs out', async () => {
      const page = await newPage();
      await askForLink(page, 'jane.doe@example.com');
      expect(await mainText(page)).toContain('ja•••@example.com');
      expect(await page.locator('.match .number').innerText()).toMatch(/^\d{2}$/);
      await shoot(page, 'waiting-email', { phone: true });
      const link = await openFromInbox(page, 'jane.doe@example.com', 'Open link', 'dev-inbox');

      expect(new URL(page.url()).pathname).toBe('/account');
      expect(await heading(page)).toBe('Welcome, Jane Doe');
      const account = await mainText(page);
      expect(account).toContain('jane.doe@example.com');
      expect(account).toContain('Low risk');
      expect(account).toMatch(/Browser\s+Chrome/);
      expect(account).toContain('Bengaluru, India');
      expect(await page.getByRole('button', { name: 'Sign in again' }).count()).toBe(0);
      await shoot(page, 'account-low-risk', { phone: true });

      expect(await clickLink(page, 'Open payments', '/payments')).toBe(200);
      expect(await heading(page)).toBe('Payments');
      await shoot(page, 'payments', { phone: true });

      // The same link again: refused, and the person stays signed in.
      const replay = await page.goto(link);
      expect(replay?.status()).toBeGreaterThanOrEqual(400);
      expect(await heading(page)).toBe('This sign-in did not work');
      expect(await mainText(page)).toContain('already used');
      await shoot(page, 'link-failed', { phone: true });
      await page.goto(`${app.url}/account`);
      expect(await heading(page)).toBe('Welcome, Jane Doe');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${app.url}/auth/sign-in`);
      expect(await heading(page)).toBe('Sign in');
      await shoot(page, 'signed-out', { phone: true });
      expect((await page.context().cookies()).some((c) => c.name === 'acme.session')).toBe(false);
    });

    it('sends a visitor to sign in, and back to the page wanted afterwards', async () => {
      const page = await newPage();
      const first = await page.goto(`${app.url}/payments`);
      expect(first?.request().redirectedFrom()?.url()).toBe(`${app.url}/payments`);
      expect(new URL(page.url()).pathname).toBe('/auth/sign-in');
      await shoot(page, 'sign-in-to-continue', { phone: true });
      await askForLink(page, 'back.again@example.com', 'WHATSAPP', { go: false });
      await openFromInbox(page, 'back.again@example.com');
      expect(new URL(page.url()).pathname).toBe('/payments');
      expect(await heading(page)).toBe('Payments');
    });

    it('signs in by mobile number', async () => {
      const page = await newPage();
      await askForLink(page, '+1 (415) 555-0123');
      await openFromInbox(page, '+14155550123');
      expect(await heading(page)).toBe('Welcome, User 0123');
      expect(await mainText(page)).toContain('+14155550123');
    });

    it('a VPN sign-in is asked to sign in again, not offered payments; payments refuse it', async () => {
      const page = await newPage();
      await askForLink(page, 'vpn.user@example.com');
      await openFromInbox(page, 'vpn.user@example.com', 'as vpn');
      const account = await mainText(page);
      expect(account).toContain('Needs confirmation');
      expect(account).toContain('looks unusual');
      expect(await page.getByRole('link', { name: 'Open payments', exact: true }).count()).toBe(0);
      expect(await page.locator('.actions .button').first().innerText()).toBe('Sign in again');
      await shoot(page, 'account-challenge', { phone: true });

      expect(await clickLink(page, 'open payments anyway', '/payments')).toBe(403);
      expect(await heading(page)).toBe('Please confirm it is you');
      expect(await mainText(page)).not.toMatch(/timezoneMismatch|publicVPN|signal/);
      await shoot(page, 'refused-challenge', { phone: true });

      // "Sign in again": signed out, then a clean sign-in goes on to payments.
      await page.getByRole('button', { name: 'Sign in again' }).click();
      await page.waitForURL(`${app.url}/auth/sign-in`);
      await askForLink(page, 'vpn.user@example.com', 'WHATSAPP', { go: false });
      await openFromInbox(page, 'vpn.user@example.com');
      expect(new URL(page.url()).pathname).toBe('/payments');
      expect(await heading(page)).toBe('Payments');
    });

    it('blocks payments to a bot sign-in', async () => {
      const page = await newPage();
      await askForLink(page, 'bot.user@example.com');
      await openFromInbox(page, 'bot.user@example.com', 'as bot');
      const account = await mainText(page);
      expect(account).toContain('High risk');
      expect(account).toContain('looks automated or modified');
      expect(await page.getByRole('link', { name: 'Open payments', exact: true }).count()).toBe(0);
      await shoot(page, 'account-block', { phone: true });
      expect(await clickLink(page, 'open payments anyway', '/payments')).toBe(403);
      expect(await heading(page)).toBe('This page is not available from this sign-in');
      const refused = await mainText(page);
      expect(refused).toContain('A private window is fine.');
      expect(refused).not.toContain('regular browser window');
      await shoot(page, 'refused-block', { phone: true });
    });

    it('tells a sign-in whose signals did not come that it could not be checked', async () => {
      const page = await newPage();
      await askForLink(page, 'no.signals@example.com');
      await openFromInbox(page, 'no.signals@example.com', 'as missing');
      const account = await mainText(page);
      expect(account).toContain('Not checked');
      expect(account).toContain('We could not check this sign-in');
      expect(account).not.toMatch(/automated|tampered|High risk/);
      await shoot(page, 'account-unchecked', { phone: true });
      expect(await clickLink(page, 'open payments anyway', '/payments')).toBe(403);
      expect(await heading(page)).toBe('We could not check this sign-in');
      expect(await mainText(page)).not.toMatch(/automated|tampered|secureInfo|missing/);
      await shoot(page, 'refused-unchecked');
    });

    it('mobile number asked on the laptop, approved on the phone: the laptop lands on the account', async () => {
      const laptop = await newPage();
      await askForLink(laptop, '+1 (415) 555-0142', 'SMS');
      const number = (await laptop.locator('.match .number').innerText()).trim();
      expect(number).toMatch(/^\d{2}$/);
      await shoot(laptop, 'waiting-number', { phone: true });

      // The phone: its own browser profile, at phone size, opening the link from the inbox.
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
      await shoot(phone, 'dev-inbox-phone');
      await phone
        .locator('section', { hasText: '+14155550142' })
        .first()
        .getByRole('link', { name: 'Open link', exact: true })
        .click();
      await phone.waitForLoadState();
      expect(await heading(phone)).toBe('Approve sign-in on your computer?');
      expect(await phone.locator('main').innerText()).toMatch(/Chrome on Linux|Chrome/);
      await shoot(phone, 'phone-approve');
      await phone.getByLabel('Number').fill(number);
      await phone.getByRole('button', { name: 'Approve' }).click();
      await phone.waitForLoadState();
      expect(await heading(phone)).toBe('You are signed in on your computer');
      await shoot(phone, 'phone-approved');

      // The laptop's waiting page goes on by itself (its script polls /auth/status).
      await laptop.waitForURL(`${app.url}/account`, { timeout: 15_000 });
      expect(await heading(laptop)).toBe('Welcome, User 0142');
      await shoot(laptop, 'handoff-laptop-account');
    });
  });
}
