// The waiting page in real Chromium at 390 px (issue 40): the channel and the masked number;
// "Open WhatsApp" on a phone for the service's own link and for no other; after the wait, "Send
// by SMS instead" when WhatsApp did not deliver, the same flow finishing with the second message
// (the laptop signs in by itself once the phone approves); an expired link's error page sending
// a new link in one click; a limit refusal naming the wait. Every page met is audited by axe and
// checked for sideways scrolling. Waits are on selectors and URLs, never on time.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import expressSession from 'express-session';
import { Passport } from 'passport';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MagicLinkStrategy, magicLinkRoutes } from '../../src/index.js';
import type { MagicLinkRoutesOptions, MagicLinkStrategyOptions } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import { axeViolations } from './axe.js';
import { CHROMIUM, launchChromium } from './browser.js';

const CLIENT = { clientId: 'e2e-waiting-client', clientSecret: 'e2e-waiting-secret-value-0123' };
const PHONE = { width: 390, height: 844 };
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
/** Generous: a cold Chromium on a busy 2-core machine. These wait on selectors and URLs, never on time. */
const WAIT = { timeout: 45_000 };

if (!existsSync(CHROMIUM)) {
  describe('the waiting page in a real browser', () => {
    it.skip(`needs ${CHROMIUM} (apt-get install -y --no-install-recommends chromium); CI installs it`, () => {});
  });
} else {
  let emulator: Emulator;
  let browser: Browser;
  const servers: Server[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    browser = await launchChromium();
  }, 120_000);

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    emulator.clearFaults();
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
  });

  let numbers = 0;
  const number = (): string => `+9198124${String(30000 + (numbers += 1)).padStart(5, '0')}`;

  /** The Quick start's app: one mount, no page of its own. */
  async function startApp(
    mount: Omit<MagicLinkRoutesOptions, 'passport'> = {},
    options: Partial<MagicLinkStrategyOptions> = {},
  ): Promise<string> {
    const app = express();
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const strategy = new MagicLinkStrategy(
      {
        ...CLIENT,
        authUrl: emulator.authUrl,
        userAuthUrl: emulator.userAuthUrl,
        callbackUrl: `${url}/auth/callback`,
        ...options,
      } as MagicLinkStrategyOptions & { passReqToCallback?: false },
      async (profile) => ({ id: profile.id }),
    );
    const passport = new Passport();
    passport.use(strategy);
    passport.serializeUser((user: Express.User, done) => done(null, user));
    passport.deserializeUser((user: Express.User, done) => done(null, user));
    app.use(expressSession({ secret: 'e2e-waiting-session', resave: false, saveUninitialized: false }));
    app.use(passport.session());
    app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me', ...mount }));
    app.get('/me', (req, res) => (req.user ? res.json(req.user) : res.status(401).json({ error: 'no' })));
    return url;
  }

  async function newPage(userAgent?: string): Promise<Page> {
    const context = await browser.newContext({ viewport: PHONE, ...(userAgent ? { userAgent } : {}) });
    contexts.push(context);
    return context.newPage();
  }

  /** axe finds nothing serious, and at 390 px nothing scrolls sideways. */
  async function audit(page: Page): Promise<void> {
    expect(await axeViolations(page)).toEqual([]);
    const wide = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    expect(wide).toBeLessThanOrEqual(PHONE.width);
  }

  /** The newest delivered link to a number or address, by the emulator's outbox. */
  function linkTo(contact: string): { link: string; channel: string } {
    const wanted = contact.includes('@') ? contact : contact.replace(/\D/g, '');
    const entry = emulator
      .outbox()
      .reverse()
      .find((e) => e.to === wanted);
    if (!entry) throw new Error(`no link was delivered to ${contact}`);
    return entry;
  }

  async function askWithMobile(page: Page, url: string, mobile: string): Promise<void> {
    await page.goto(`${url}/auth/sign-in`);
    await page.fill('input[name="mobile"]', mobile);
    await Promise.all([page.waitForURL(/\/auth\/waiting$/, WAIT), page.click('form button[type="submit"]')]);
  }

  it('names WhatsApp and the masked number; after the wait, "Send by SMS instead" finishes the same sign-in', async () => {
    const url = await startApp({ resendAfterSeconds: 2 });
    const mobile = number();
    emulator.fault({ path: ENDPOINTS.sendMagicLink.path, notDelivered: 'WHATSAPP' });
    const laptop = await newPage();
    await askWithMobile(laptop, url, mobile);
    const sent = laptop.locator('#waiting-sent');
    await expect(sent.textContent()).resolves.toContain(`to +91 ••••••${mobile.slice(-4)} by WhatsApp.`);
    // Not on a phone: no app to open here.
    expect(await laptop.locator('#open-app').count()).toBe(0);
    const shown = (await laptop.locator('.match .number').textContent())!.trim();
    expect(shown).toMatch(/^\d{2}$/);
    // Before the wait the choice is there but disabled; the page's script enables it at zero.
    const sms = laptop.locator('#resend-sms');
    await expect(sms.textContent()).resolves.toBe('Send by SMS instead');
    await audit(laptop);
    await sms.waitFor({ state: 'visible', ...WAIT });
    await laptop.waitForSelector('#resend-sms:not([disabled])', WAIT);
    expect(emulator.outbox().filter((e) => e.to === mobile.slice(1))).toEqual([]);
    await Promise.all([laptop.waitForURL(/\/auth\/waiting$/, WAIT), sms.click()]);
    await expect(laptop.locator('#waiting-sent').textContent()).resolves.toContain(
      `to +91 ••••••${mobile.slice(-4)} by SMS.`,
    );
    // The same flow: the same number on the page.
    expect((await laptop.locator('.match .number').textContent())!.trim()).toBe(shown);
    await audit(laptop);

    // The phone opens the SMS link, types the number, approves.
    const { link, channel } = linkTo(mobile);
    expect(channel).toBe('SMS');
    const phone = await newPage(IPHONE_UA);
    await phone.goto(link);
    await phone.waitForSelector('#match', WAIT);
    await phone.fill('#match', shown);
    await Promise.all([phone.waitForLoadState('load'), phone.click('button[type="submit"]:not([name])')]);
    await expect(phone.locator('h1').textContent()).resolves.toContain('You are signed in on your computer');
    // The laptop's page goes on by itself.
    await laptop.waitForURL(/\/me$/, WAIT);
    expect(JSON.parse((await laptop.locator('body').textContent())!)).toEqual({ id: mobile });
  });

  it('with scripts off: the page reloads itself past the wait, and "Send by SMS instead" is a plain form', async () => {
    const url = await startApp({ resendAfterSeconds: 1 });
    const mobile = number();
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    contexts.push(context);
    const laptop = await context.newPage();
    await askWithMobile(laptop, url, mobile);
    // The <noscript> refresh reloads every 5 s: the button comes back enabled.
    await laptop.waitForSelector('#resend-sms:not([disabled])', WAIT);
    await Promise.all([laptop.waitForURL(/\/auth\/waiting$/, WAIT), laptop.click('#resend-sms')]);
    await expect(laptop.locator('#waiting-sent').textContent()).resolves.toContain('by SMS.');
    expect(linkTo(mobile).channel).toBe('SMS');
  });

  it('on a phone: "Open WhatsApp" for the service’s own link, absent for any other', async () => {
    const url = await startApp();
    const phone = await newPage(IPHONE_UA);
    await askWithMobile(phone, url, number());
    const open = phone.locator('#open-app');
    await expect(open.getAttribute('href')).resolves.toBe('https://wa.me/910000000000');
    await expect(open.textContent()).resolves.toBe('Open WhatsApp');
    await audit(phone);

    emulator.fault({
      path: ENDPOINTS.sendMagicLink.path,
      status: 200,
      body: {
        requestIds: [{ type: 'MOBILE', value: 'e2e-odd', destinationUri: 'https://wa.me.example.net/910000000000' }],
      },
    });
    const other = await newPage(IPHONE_UA);
    await askWithMobile(other, url, number());
    expect(await other.locator('#open-app').count()).toBe(0);
    expect(await other.content()).not.toContain('wa.me.example.net');
  });

  it('an expired link: its error page sends a new link in one click', async () => {
    const url = await startApp();
    const email = `e2e-expired-${Date.now()}@waiting.example`;
    const laptop = await newPage();
    await laptop.goto(`${url}/auth/sign-in`);
    await laptop.fill('input[name="email"]', email);
    await Promise.all([laptop.waitForURL(/\/auth\/waiting$/, WAIT), laptop.click('form button[type="submit"]')]);
    const first = linkTo(email).link;
    // The service says the link's code has expired.
    emulator.fault({ path: ENDPOINTS.verifyCode.path, error: 'expired' });
    await laptop.goto(first);
    const button = laptop.locator('#send-new button');
    await button.waitFor(WAIT);
    await expect(button.textContent()).resolves.toBe('Send a new link');
    await expect(laptop.locator('#send-new').textContent()).resolves.toContain('@waiting.example');
    await audit(laptop);
    await Promise.all([laptop.waitForURL(/\/auth\/waiting$/, WAIT), button.click()]);
    const second = linkTo(email).link;
    expect(second).not.toBe(first);
    await laptop.goto(second);
    await laptop.waitForURL(/\/me$/, WAIT);
  });

  it('a limit refusal names the wait, next to the field', async () => {
    const url = await startApp({}, { limits: { perDestination: { limit: 1, windowSeconds: 600 } } });
    const mobile = number();
    const page = await newPage();
    await askWithMobile(page, url, mobile);
    await page.goto(`${url}/auth/sign-in`);
    await page.fill('input[name="mobile"]', mobile);
    await Promise.all([page.waitForLoadState('load'), page.click('form button[type="submit"]')]);
    await expect(page.locator('#mobile-error').textContent()).resolves.toBe(
      'Too many sign-in links were sent to this mobile number. Try again in 10 minutes.',
    );
    await audit(page);
  });
}
