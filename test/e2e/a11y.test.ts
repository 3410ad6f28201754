// Every page of the demo and of the package, in real Chromium, through axe-core: at 390 x 844 and
// at desktop size, in two locales (English and Hindi), with no serious or critical violation.
// Also: keyboard only, 200% zoom (a 1280 px window zoomed to 200% lays out as 640 CSS px) and
// 320 px wide, without sideways scrolling or a word broken at its hyphen.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from './browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { requireLowRisk } from '../../src/index.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';
import { CLIENT as HARNESS_CLIENT, lastLinkTo, startHarness } from '../helpers/harness.js';
import type { Harness } from '../helpers/harness.js';
import { defaultPageInputs, pageApp } from '../helpers/pageApp.js';
import type { PageInputs } from '../helpers/pageApp.js';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const RESULTS = fileURLToPath(new URL('../../test-results/a11y/', import.meta.url));
/** Screenshots of the sign-in, waiting and error pages, for a person to look at. */
const SHOTS = process.env.PAGE_SHOTS_DIR;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
const LOCALES = ['en-US', 'hi-IN'] as const;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

if (!existsSync(CHROMIUM)) {
  describe('accessibility in a real browser', () => {
    it.skip(`needs ${CHROMIUM}`, () => {});
  });
} else {
  await ensureBuilt();
  const { startApp } = await import('../../examples/express-cookie-session/app.mjs');
  const CLIENT = { clientId: 'e2e-a11y-client', clientSecret: 'e2e-a11y-secret-value' };

  let emulator: Emulator;
  let demo: Awaited<ReturnType<typeof startApp>>;
  let pkg: Harness;
  let browser: Browser;
  // The sign-in, waiting and error pages, answered from their builders by a tiny Express app.
  let pages: { server: Server; url: string; inputs: PageInputs };
  const contexts: BrowserContext[] = [];
  /** Every page audited: name -> serious/critical violations found (expected: none). */
  const report: Record<string, string[]> = {};

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    emulator = await startEmulator({ clients: [CLIENT, HARNESS_CLIENT], quiet: true });
    demo = await startApp({
      otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
      sessionKeys: ['e2e-a11y-session-key-0123456789'],
      devInboxUrl: `${emulator.authUrl}/`,
      limits: false,
    });
    // The package's own pages: confirm mode (the confirm page), handoff (approval and outcomes),
    // and a guard's refusal page.
    pkg = await startHarness({
      emulator,
      strategy: { confirm: true },
      routes: (app) => app.get('/payments', requireLowRisk(), (_req, res) => res.send('ok')),
    });
    const inputs = defaultPageInputs(Date.now());
    const server = pageApp(inputs).listen(0, '127.0.0.1');
    await once(server, 'listening');
    pages = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, inputs };
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    await browser?.close();
    await pkg?.close();
    pages?.server.close();
    await demo?.close();
    await emulator?.close();
    console.log(`axe-core: ${Object.keys(report).length} page audits, serious/critical: ${JSON.stringify(report)}`);
  });

  async function newPage(locale: string): Promise<Page> {
    // bypassCSP: the pages allow no script, and axe is one injected for the test only.
    const context = await browser.newContext({ viewport: DESKTOP, locale, bypassCSP: true });
    contexts.push(context);
    return context.newPage();
  }

  async function axe(page: Page): Promise<Violation[]> {
    // A page can still be moving on when `goto` resolves (a redirect the browser follows after
    // the first load): the audit then starts again on the page it settles on.
    for (let attempt = 1; ; attempt++) {
      try {
        await page.waitForLoadState('load');
        if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ content: AXE });
        const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
          violations: Violation[];
        };
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      } catch (err) {
        if (attempt < 3 && /Execution context was destroyed/.test(String(err))) continue;
        throw err;
      }
    }
  }

  /**
   * Audits the page as it is: axe at desktop and at 390 x 844 (screenshots of both), then 640 px
   * (200% zoom), 390 px and 320 px wide: nothing sticks out sideways and no hyphenated heading
   * word breaks.
   */
  async function audit(page: Page, name: string): Promise<void> {
    const found: string[] = [];
    for (const [label, size] of [
      ['desktop', DESKTOP],
      ['390', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      const violations = await axe(page);
      found.push(...violations.map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes[0]?.target}`));
      await page.screenshot({ path: `${RESULTS}${name}-${label}.png`, fullPage: true });
      if (SHOTS && name.startsWith('pkg-page-')) {
        await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
      }
    }
    for (const width of [640, 390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await page.evaluate('document.documentElement.scrollWidth'), `${name} at ${width} px`).toBeLessThanOrEqual(
        width,
      );
      // A word kept whole (`.nobr`, such as "sign-in") is one line box, never "sign-" / "in".
      const broken = await page.evaluate(
        '[...document.querySelectorAll(".nobr")].filter((e) => e.getClientRects().length > 1).length',
      );
      expect(broken, `${name} at ${width} px`).toBe(0);
    }
    if (width320Shot.has(name)) await page.screenshot({ path: `${RESULTS}${name}-320.png`, fullPage: true });
    await page.setViewportSize(DESKTOP);
    report[name] = found;
    expect(found, name).toEqual([]);
  }
  const width320Shot = new Set(['pkg-approval-en-US', 'pkg-approval-hi-IN']);

  let n = 0;
  /** The laptop (page) asks the package app for a link by JSON; returns the number and the link. */
  async function askPkg(page: Page): Promise<{ match: string; link: string }> {
    const email = `a11y-${(n += 1)}@example.com`;
    const sent = await page.request.post(`${pkg.baseUrl}/auth/magic-link`, {
      form: { email },
      headers: { accept: 'application/json', origin: pkg.baseUrl },
    });
    expect(sent.status()).toBe(200);
    return { match: ((await sent.json()) as { match: string }).match, link: lastLinkTo(emulator, email) };
  }

  describe.each(LOCALES)("the package's pages (%s)", (locale) => {
    it('approval page, keyboard only, then the approved outcome', async () => {
      const laptop = await newPage(locale);
      const phone = await newPage(locale);
      const { match, link } = await askPkg(laptop);
      await phone.goto(link);
      expect(await phone.locator('html').getAttribute('lang')).toBe(locale === 'hi-IN' ? 'hi' : 'en');
      await audit(phone, `pkg-approval-${locale}`);

      // Keyboard only: the number field has focus; type, Enter.
      expect(await phone.evaluate('document.activeElement?.id')).toBe('match');
      await phone.keyboard.type(match);
      await Promise.all([phone.waitForNavigation(), phone.keyboard.press('Enter')]);
      await audit(phone, `pkg-approved-${locale}`);
    });

    it('approval page sent without a number (400, the error next to the field), then "This wasn\'t me"', async () => {
      const laptop = await newPage(locale);
      const phone = await newPage(locale);
      const { link } = await askPkg(laptop);
      await phone.goto(link);
      await phone.evaluate('document.forms[0].noValidate = true');
      const [response] = await Promise.all([phone.waitForNavigation(), phone.locator('form button').first().click()]);
      expect(response?.status()).toBe(400);
      expect(await phone.locator('#match').getAttribute('aria-invalid')).toBe('true');
      await audit(phone, `pkg-approval-missing-${locale}`);

      // Keyboard only to the second form's button: Tab from the field, past Approve.
      await phone.locator('#match').focus();
      await phone.keyboard.press('Tab');
      await phone.keyboard.press('Tab');
      await Promise.all([phone.waitForNavigation(), phone.keyboard.press('Enter')]);
      await audit(phone, `pkg-denied-${locale}`);
    });

    it('wrong number outcome', async () => {
      const laptop = await newPage(locale);
      const phone = await newPage(locale);
      const { match, link } = await askPkg(laptop);
      await phone.goto(link);
      await phone.locator('#match').fill(match === '99' ? '98' : '99');
      await Promise.all([phone.waitForNavigation(), phone.locator('#match').press('Enter')]);
      await audit(phone, `pkg-wrong-number-${locale}`);
    });

    it("confirm page (same browser), and a guard's refusal page", async () => {
      const laptop = await newPage(locale);
      const { link } = await askPkg(laptop);
      await laptop.goto(link);
      await audit(laptop, `pkg-confirm-${locale}`);
      await laptop.keyboard.press('Tab');
      await Promise.all([laptop.waitForNavigation(), laptop.keyboard.press('Enter')]);
      expect(new URL(laptop.url()).pathname).toBe('/me');
      const refused = await laptop.goto(`${pkg.baseUrl}/payments`);
      expect(refused?.status()).toBe(403);
      await audit(laptop, `pkg-guard-blocked-${locale}`);
    });
  });

  /** Sets the pages app's inputs for the next requests: the defaults, changed by `change`. */
  function pagesAre(change: (inputs: PageInputs) => void = () => {}): void {
    const fresh = defaultPageInputs(Date.now());
    fresh.waiting.continueUrl = '/done';
    change(fresh);
    Object.assign(pages.inputs, fresh);
  }

  describe.each(LOCALES)("the package's sign-in, waiting and error pages (%s)", (locale) => {
    it('sign-in, sign-in refused next to its field, waiting, waiting over, error', async () => {
      const page = await newPage(locale);
      const lang = locale === 'hi-IN' ? 'hi' : 'en';
      pagesAre((i) => {
        i.signIn.channels = ['WHATSAPP', 'SMS'];
      });
      await page.goto(`${pages.url}/sign-in`);
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      await audit(page, `pkg-page-sign-in-${locale}`);

      pagesAre((i) => {
        i.signIn.channels = ['WHATSAPP', 'SMS'];
        i.signIn.values = { email: 'ana@localhost' };
        i.signIn.error = { message: 'Enter a valid e-mail address, such as name@example.com.', field: 'email' };
      });
      const refused = await page.goto(`${pages.url}/sign-in`);
      expect(refused?.status()).toBe(400);
      expect(await page.locator('#email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate('document.activeElement?.id')).toBe('email');
      await audit(page, `pkg-page-sign-in-refused-${locale}`);

      pagesAre();
      await page.goto(`${pages.url}/waiting`);
      expect(await page.locator('.number').textContent()).toBe('42');
      await audit(page, `pkg-page-waiting-${locale}`);

      pagesAre((i) => {
        i.waiting.status = 'expired';
      });
      await page.goto(`${pages.url}/waiting`);
      await audit(page, `pkg-page-waiting-expired-${locale}`);

      pagesAre();
      const error = await page.goto(`${pages.url}/error`);
      expect(error?.status()).toBe(401);
      await audit(page, `pkg-page-error-${locale}`);
    });
  });

  describe("the waiting page's live status in a real browser, under its own CSP", () => {
    /** A browser whose CSP is enforced (no bypass): what any visitor gets. */
    async function visitor(javaScriptEnabled: boolean): Promise<{ page: Page; blocked: string[] }> {
      const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled });
      contexts.push(context);
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) blocked.push(message.text());
      });
      return { page, blocked };
    }

    it('with scripts on: goes on by itself once the phone approves', async () => {
      pagesAre();
      const { page, blocked } = await visitor(true);
      await page.goto(`${pages.url}/waiting`);
      // The countdown runs: the resend wait is counting down from 0:25.
      await page.locator('#resend-wait').filter({ hasNotText: '0:25' }).waitFor({ timeout: 30_000 });
      pages.inputs.status = { status: 'approved' };
      await page.waitForURL(`${pages.url}/done`, { timeout: 30_000 });
      expect(blocked).toEqual([]);
    });

    it('with scripts on: a denial shows in place, with "start again"', async () => {
      pagesAre();
      const { page, blocked } = await visitor(true);
      await page.goto(`${pages.url}/waiting`);
      pages.inputs.status = { status: 'denied' };
      const status = page.locator('#waiting-status');
      await status.filter({ hasText: 'cancelled on the other device' }).waitFor({ timeout: 30_000 });
      expect(await page.locator('h1').textContent()).toBe('This sign-in was not completed');
      expect(await page.locator('#waiting-match').isHidden()).toBe(true);
      expect(await page.getByRole('link', { name: 'Start again' }).isVisible()).toBe(true);
      expect(blocked).toEqual([]);
    });

    it('with scripts off: reloads, and the reload of an approved flow goes on', async () => {
      pagesAre();
      const { page } = await visitor(false);
      await page.goto(`${pages.url}/waiting`);
      expect(await page.getByRole('link', { name: 'I’ve approved it: continue' }).getAttribute('href')).toBe('/done');
      pages.inputs.status = { status: 'approved' };
      await page.waitForURL(`${pages.url}/done`, { timeout: 30_000 });
    });
  });

  describe.each(LOCALES)("the demo's pages (%s)", (locale) => {
    it('sign-in, field error, waiting, account, payments, link refused, 404', async () => {
      const page = await newPage(locale);
      await page.goto(demo.url);
      await audit(page, `demo-sign-in-${locale}`);
      // The package's pages speak the browser's language: fields and button by id and type.
      await page.locator('form button[type=submit]').click();
      await page.waitForSelector('[role=alert]');
      await audit(page, `demo-field-error-${locale}`);
      const email = `demo-a11y-${locale.toLowerCase()}@example.com`;
      await page.locator('#email').fill(email);
      await Promise.all([page.waitForURL(/auth\/waiting/), page.keyboard.press('Enter')]);
      await audit(page, `demo-waiting-${locale}`);
      const link = lastLinkTo(emulator, email);
      await page.goto(link);
      await page.waitForURL(/account/);
      await audit(page, `demo-account-${locale}`);
      await page.goto(`${demo.url}/payments`);
      await audit(page, `demo-payments-${locale}`);
      await page.goto(link);
      await audit(page, `demo-link-refused-${locale}`);
      await page.goto(`${demo.url}/nowhere`);
      await audit(page, `demo-404-${locale}`);
    });

    it('the asking tab notices a sign-in finished in another tab of the same browser', async () => {
      const tab = await newPage(locale);
      const email = `other-tab-${locale.toLowerCase()}@example.com`;
      await tab.goto(demo.url);
      await tab.locator('#email').fill(email);
      await Promise.all([tab.waitForURL(/auth\/waiting/), tab.keyboard.press('Enter')]);
      // A second tab of the same browser (same context, same cookies) opens the link.
      const other = await tab.context().newPage();
      await other.goto(lastLinkTo(emulator, email));
      await other.waitForURL(/account/);
      // The first tab's script sees nothing pending any more and goes to the account by itself.
      await tab.waitForURL(/account/, { timeout: 15_000 });
    });

    it('the waiting page after "This wasn\'t me" on the phone', async () => {
      const laptop = await newPage(locale);
      const phone = await newPage(locale);
      const contact = locale === 'hi-IN' ? '+919876543210' : '+14155550123';
      await laptop.goto(demo.url);
      await laptop.locator('#mobile').fill(contact);
      await Promise.all([laptop.waitForURL(/auth\/waiting/), laptop.keyboard.press('Enter')]);
      await phone.goto(lastLinkTo(emulator, contact));
      await audit(phone, `demo-approval-${locale}`);
      await Promise.all([phone.waitForNavigation(), phone.locator('form button').nth(1).click()]);
      // The waiting page's own script may move on at the same moment (it polls the status):
      // whichever navigation wins, the page it settles on is the one audited.
      await laptop.goto(`${demo.url}/auth/waiting`).catch((err: unknown) => {
        if (!/interrupted by another navigation|Execution context was destroyed/.test(String(err))) throw err;
      });
      // Over (in either language): the number is gone, and "start again" is the way on.
      await laptop.locator('#waiting-match').waitFor({ state: 'hidden', timeout: 30_000 });
      await audit(laptop, `demo-not-completed-${locale}`);
    });
  });
}
