// The assembled login in real Chromium on every host: the one mount, and no page written by the
// app. Sign in by e-mail in the same browser; by mobile with the link opened on a phone (a
// second browser context) while the laptop's waiting page finishes by itself, with scripts on
// and with scripts off; a refused address shown next to its field; a reused link's error page.
// Every page of the package met on the way is audited: axe finds nothing serious, and at 390 px
// nothing scrolls sideways.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';
import { linkTo } from '../examples/helpers/inbox.js';
import { CLIENT, HOSTS } from '../hosts/hosts.js';
import type { RunningHost } from '../hosts/hosts.js';
import { axeViolations } from './axe.js';
import { CHROMIUM, launchChromium } from './browser.js';

/** Screenshots of the waiting and error pages, for a person to look at (PAGE_SHOTS_DIR, as for a11y.test.ts). */
const SHOTS = `${process.env.PAGE_SHOTS_DIR ?? fileURLToPath(new URL('../../test-results/assembled-login/', import.meta.url))}/`;
/** The host whose waiting and error pages are photographed. */
const SHOT_HOST = 'express5';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
/**
 * Generous: a cold Chromium on a busy 2-core machine, and the waiting page without script
 * reloads every 5 s. These wait on URLs and selectors, never on time.
 */
const WAIT = { timeout: 45_000 };
/** What a stack trace or a server path looks like in a page. */
const STACK = /\bat \S+ \(|node:internal|node_modules|\/src\/|\.[cm]?[jt]s:\d+/;

if (!existsSync(CHROMIUM)) {
  describe('the assembled login in a real browser', () => {
    it.skip(`needs ${CHROMIUM} (apt-get install -y --no-install-recommends chromium); CI installs it`, () => {});
  });
} else {
  let emulator: Emulator;
  let browser: Browser;

  beforeAll(async () => {
    await ensureBuilt(); // the NestJS example imports 'passport-otpless' (dist/)
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
  });

  /** Every page audited: name -> what axe or the 390 px check found (expected: nothing). */
  const found: Record<string, string[]> = {};

  /**
   * Audits the page where it stands, as a visitor at 390 px meets it: axe finds nothing serious
   * or critical, the page is no wider than the window, and no stack trace or server path shows.
   */
  async function audit(page: Page, name: string, scriptsOff = false): Promise<void> {
    await holdingNavigations(page, () => auditNow(page, name, scriptsOff));
  }

  /**
   * axe runs on timers, which a page without script never fires: the page as that browser drew
   * it (its `<noscript>` parts shown, no refresh, no script) is audited in a browser with script.
   */
  async function axeViolationsWithoutScript(page: Page): Promise<string[]> {
    const html = (await page.content())
      .replace(/<meta http-equiv="refresh"[^>]*>/g, '')
      .replace(/<\/?noscript>/g, '')
      .replace(/<script\b[\s\S]*?<\/script>/g, '');
    const context = await browser.newContext({ viewport: PHONE });
    try {
      const copy = await context.newPage();
      await copy.setContent(html);
      return await axeViolations(copy);
    } finally {
      await context.close();
    }
  }

  /**
   * Runs `check` while the page's own navigations wait (the waiting page without script reloads
   * every 5 s): held at the request, the page being checked stays in place; they go on after.
   */
  async function holdingNavigations(page: Page, check: () => Promise<void>): Promise<void> {
    const held: Route[] = [];
    const hold = (route: Route): Promise<void> | void => {
      if (route.request().isNavigationRequest() && route.request().frame() === page.mainFrame()) held.push(route);
      else return route.continue();
    };
    await page.route('**/*', hold);
    try {
      await check();
    } finally {
      await page.unroute('**/*', hold);
      await Promise.all(held.map((route) => route.continue().catch(() => {})));
    }
  }

  async function auditNow(page: Page, name: string, scriptsOff: boolean): Promise<void> {
    const size = page.viewportSize();
    await page.setViewportSize(PHONE);
    const problems = scriptsOff ? await axeViolationsWithoutScript(page) : await axeViolations(page);
    const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    if (width > PHONE.width) problems.push(`${width} px wide at ${PHONE.width} px`);
    const text = await page.locator('body').innerText();
    if (STACK.test(text)) problems.push(`a stack trace or server path: ${STACK.exec(text)?.[0]}`);
    if (size) await page.setViewportSize(size);
    found[name] = problems;
    expect(problems, name).toEqual([]);
  }

  const withTheMount = HOSTS.map((host, index) => ({ ...host, index, name: `${host.label} with ${host.session}` }));
  describe.each(withTheMount)('the one mount on $name, in real Chromium, with no page of the app', (host) => {
    let app: RunningHost;
    const contexts: BrowserContext[] = [];
    let counter = 0;
    const email = (): string => `${host.id}-${(counter += 1)}@example.com`;
    // A mobile number of its own per host and journey, so the outbox's newest link is this one's.
    const mobile = (): string =>
      `+91981${String(host.index).padStart(2, '0')}${String((counter += 1)).padStart(5, '0')}`;

    beforeAll(async () => {
      app = await host.start(emulator, {});
    }, 120_000);

    afterAll(async () => {
      await Promise.all(contexts.map((c) => c.close().catch(() => {})));
      await app?.close();
    });

    async function open(options: BrowserContextOptions = {}): Promise<Page> {
      const context = await browser.newContext({ viewport: DESKTOP, ...options });
      contexts.push(context);
      return context.newPage();
    }

    /** The sign-in page, the contact typed into its field and sent: the waiting page. */
    async function askForLink(page: Page, field: 'email' | 'mobile', contact: string): Promise<void> {
      const signIn = await page.goto(`${app.url}/auth/sign-in`);
      expect(signIn?.status()).toBe(200);
      await page.locator(`#${field}`).fill(contact);
      await Promise.all([
        page.waitForURL(`${app.url}/auth/waiting`, WAIT),
        page.locator('form button[type="submit"]').first().click(),
      ]);
    }

    /** The app's own /me says who is signed in. */
    async function signedInAs(page: Page): Promise<unknown> {
      const me = await page.request.get(`${app.url}/me`, { headers: { accept: 'application/json' } });
      expect(me.status()).toBe(200);
      const body = (await me.json()) as { user?: { id?: string }; id?: string };
      return body.user?.id ?? body.id;
    }

    it('signs in by e-mail in the same browser: sign-in page, waiting page, the link, /me', async () => {
      const page = await open();
      const to = email();
      await page.goto(`${app.url}/auth/sign-in`);
      await audit(page, `${host.id} sign-in`);
      await askForLink(page, 'email', to);
      await expect.poll(() => page.locator('#waiting-status').isVisible()).toBe(true);
      expect(await page.locator('body').innerText()).not.toContain(to);
      await audit(page, `${host.id} waiting (e-mail)`);
      await page.goto(linkTo(emulator, to));
      await page.waitForURL(`${app.url}/me`, WAIT);
      expect(await signedInAs(page)).toEqual(expect.any(String));
    });

    for (const javaScriptEnabled of [true, false]) {
      it(`signs in by mobile with the link opened on a phone; the laptop finishes by itself with scripts ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
        const laptop = await open({ javaScriptEnabled });
        const phone = await open({ viewport: PHONE, isMobile: true, hasTouch: true });
        const to = mobile();
        await askForLink(laptop, 'mobile', to);
        const number = (await laptop.locator('.number').innerText()).trim();
        expect(number).toMatch(/^\d{2}$/);
        await audit(
          laptop,
          `${host.id} waiting (mobile, scripts ${javaScriptEnabled ? 'on' : 'off'})`,
          !javaScriptEnabled,
        );
        if (!javaScriptEnabled) {
          // Without script the way on is the refresh, and a link for whoever prefers not to wait.
          expect(await laptop.locator('meta[http-equiv="refresh"]').count()).toBe(1);
        }
        if (host.id === SHOT_HOST && javaScriptEnabled) {
          await laptop.screenshot({ path: `${SHOTS}e2e-${host.id}-waiting-desktop.png`, fullPage: true });
          await laptop.setViewportSize(PHONE);
          await laptop.screenshot({ path: `${SHOTS}e2e-${host.id}-waiting-390.png`, fullPage: true });
          await laptop.setViewportSize(DESKTOP);
        }

        // The phone opens the link and types the number the laptop shows.
        await phone.goto(linkTo(emulator, to));
        await phone.locator('#match').waitFor(WAIT);
        await audit(phone, `${host.id} approval`);
        await phone.locator('#match').fill(number);
        await Promise.all([phone.waitForNavigation(WAIT), phone.locator('#match').press('Enter')]);
        expect(await phone.locator('#match').count()).toBe(0);
        await audit(phone, `${host.id} approved`);

        // The laptop goes on by itself: its script sees the approval, or (without script) the
        // page's refresh reloads it and the server sends it on through the callback.
        await laptop.waitForURL(`${app.url}/me`, WAIT);
        expect(await signedInAs(laptop)).toEqual(expect.any(String));
        // The phone only approved: it is not signed in.
        const phoneMe = await phone.request.get(`${app.url}/me`, { headers: { accept: 'application/json' } });
        if (phoneMe.status() === 200) expect(((await phoneMe.json()) as { user: unknown }).user).toBeNull();
        else expect(phoneMe.status()).toBe(401);
      });
    }

    it('shows a refused address on the sign-in page, next to its field, with no stack trace', async () => {
      const page = await open();
      await page.goto(`${app.url}/auth/sign-in`);
      // `<input type=email>` accepts it; the service would not.
      await page.locator('#email').fill('ana@localhost');
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url() === `${app.url}/auth/magic-link` && r.request().method() === 'POST'),
        page.locator('form button[type="submit"]').first().click(),
      ]);
      expect(answer.status()).toBe(400);
      await page.locator('#email-error').waitFor(WAIT);
      expect(await page.locator('#email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#email').inputValue()).toBe('ana@localhost');
      expect(await page.locator('#email-error').innerText()).toMatch(/e-mail/i);
      expect(await page.locator('h1').innerText()).not.toBe('');
      await audit(page, `${host.id} sign-in refused`);
    });

    it('shows the error page for a link opened a second time, in the same browser and in another', async () => {
      const page = await open();
      const to = email();
      await askForLink(page, 'email', to);
      const link = linkTo(emulator, to);
      await page.goto(link);
      await page.waitForURL(`${app.url}/me`, WAIT);

      // The person clicks the e-mail's link again, in the browser that signed in, then on a phone.
      for (const [where, visitor] of [
        ['same browser', page],
        ['another browser', await open({ viewport: PHONE, isMobile: true, hasTouch: true })],
      ] as const) {
        const [answer] = await Promise.all([
          visitor.waitForResponse((r) => new URL(r.url()).pathname === '/auth/callback', WAIT),
          visitor.goto(link),
        ]);
        expect(answer.status(), where).toBeGreaterThanOrEqual(400);
        expect(answer.status(), where).toBeLessThan(500);
        expect(new URL(visitor.url()).pathname, where).toBe('/auth/callback');
        expect(await visitor.locator('#match').count(), where).toBe(0);
        expect(await visitor.locator('h1').innerText(), where).toBe('This sign-in did not work');
        await expect.poll(() => visitor.getByRole('link', { name: 'Start again' }).isVisible()).toBe(true);
        await audit(visitor, `${host.id} error (${where})`);
        if (host.id === SHOT_HOST && where === 'same browser') {
          await visitor.screenshot({ path: `${SHOTS}e2e-${host.id}-error-desktop.png`, fullPage: true });
          await visitor.setViewportSize(PHONE);
          await visitor.screenshot({ path: `${SHOTS}e2e-${host.id}-error-390.png`, fullPage: true });
          await visitor.setViewportSize(DESKTOP);
        }
      }
      // "Start again" leads back to the sign-in page.
      await page.getByRole('link', { name: 'Start again' }).click();
      await page.waitForURL(`${app.url}/auth/sign-in`, WAIT);
    });
  });

  afterAll(() => {
    console.log(`assembled login: ${Object.keys(found).length} page audits, problems: ${JSON.stringify(found)}`);
  });
}
